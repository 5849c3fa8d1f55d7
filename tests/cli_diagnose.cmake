# tests/cli_diagnose.cmake: `stiffkit diagnose` runs: stiffness report, JSON report, bad input
sk_cli_test(diagnose_heat2d 0 "stiffness ratio |lambda_max|/|lambda_min| = 680.6" none
  diagnose ${SK_DATA}/heat2d.yaml --set model.n=[40])
sk_cli_test(diagnose_recommends 0 "recommendation: stiff: cvode-bdf with the Krylov solver spgmr, preconditioner model" none
  diagnose ${SK_DATA}/heat2d.yaml --set model.n=[40])
sk_cli_test(diagnose_explicit 0 "recommendation: explicit" none
  diagnose --set model.n=[4] --set solver.t_end=0.1)
sk_cli_test(diagnose_brusselator 0 "recommendation:" none diagnose ${SK_DATA}/brusselator.yaml)
sk_cli_test(diagnose_missing_config 66 "cannot open config file" none
  diagnose ${SK_BAD}/does_not_exist.yaml)
sk_cli_test(diagnose_unknown_key 65 "unknown key 'solver.rtoll'" none diagnose --set solver.rtoll=1e-6)
sk_cli_test(diagnose_usage 64 "unknown option '--bogus'" none diagnose --bogus)
sk_cli_test(diagnose_step_budget 10 "step budget of 5 steps exhausted" none
  diagnose --quiet --set model.n=[20] --set solver.max_steps=5)
# the JSON report parses and carries the independent values of the 40 x 40 Dirichlet grid:
# lambda_max = -8 (N+1)^2 sin^2(N pi / (2 (N+1))), lambda_min = -8 (N+1)^2 sin^2(pi / (2 (N+1)))
add_test(NAME cli_diagnose_report_json COMMAND bash -c
  "d=$(mktemp -d) && cd $d && $<TARGET_FILE:stiffkit_cli> diagnose --quiet ${SK_DATA}/heat2d.yaml --set model.n=[40] --report r.json > out.txt && ls -A | grep -v -e '^out.txt$' -e '^r.json$' | (! grep .) && /usr/bin/python3 -c \"import json, math; r = json.load(open('r.json')); s = r['samples']; h = 1 / 41; lmax = -8 / h**2 * math.sin(40 * math.pi * h / 2)**2; lmin = -8 / h**2 * math.sin(math.pi * h / 2)**2; assert len(s) == 4, s; assert all(abs(x['lambda_max']['re'] / lmax - 1) < 1e-2 and abs(x['lambda_min']['re'] / lmin - 1) < 1e-2 for x in s), s; assert abs(r['stiffness_ratio'] / (lmax / lmin) - 1) < 2e-2; assert r['recommendation']['kind'] == 'stiff' and r['recommendation']['reasons']; assert r['stats']['steps'] > 0; print('ok', r['stiffness_ratio'], r['recommendation']['text'])\"; rc=$?; rm -rf $d; exit $rc")
set_tests_properties(cli_diagnose_report_json PROPERTIES LABELS "regression;cli" TIMEOUT 300)
# a tridiagonal (1D) Jacobian factors without fill: KLU, with the predicted figures as the reason
sk_cli_test(diagnose_recommends_klu_1d 0 "because klu: the factorization is cheap: predicted LU factors" none
  diagnose ${SK_DATA}/heat2d.yaml --set model.dim=1 --set model.mode=[1] --set model.n=[400])
# a model with a mass matrix (M y' = f, integrated by ida-bdf as a DAE): the Jacobian estimated
# is f's, here J = -I (both extreme eigenvalues -1, exactly); a block of rounding noise
# (J - sigma I = 0 by difference quotients) has its eigenvalues in closed form
sk_cli_test(diagnose_mass_matrix 0 "lambda_min (smallest |lambda|) = -1.000000e+00" none
  diagnose ${SK_DATA}/formula/mass_event.yaml)

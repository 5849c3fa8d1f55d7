# tests/cli_steady.cmake: `stiffkit steady`: good runs (files, exact answers), bad options, numerical failures with their messages and nothing left behind

# 1D diffusion -u'' = 1 with u(0) = u(1) = 0 on 99 nodes (h = 1/100)
set(SK_STEADY_1D --set model.dim=1 --set model.n=[99] --set model.exact=none --set model.ic=constant
  --set model.source=1)
string(JOIN " " SK_STEADY_1D_ARGS ${SK_STEADY_1D}) # the same inside a bash -c command line

# --- good runs -----------------------------------------------------------
sk_cli_test(steady_heat1d 0 "converged: max |f_scale f|" complete steady ${SK_STEADY_1D})
sk_cli_test(steady_heat2d_example 0 "KIN_SUCCESS" complete steady ${SK_DATA}/steady_heat2d.yaml)
sk_cli_test(steady_json 0 "\"converged\": true" complete steady --json ${SK_STEADY_1D})
sk_cli_test(steady_spgmr_model 0 "preconditioner model" complete steady ${SK_STEADY_1D}
  --set linsol.type=spgmr --set linsol.preconditioner=model)
sk_cli_test(steady_brusselator 0 "KIN_SUCCESS" complete steady ${SK_DATA}/brusselator.yaml
  --set model.n=[16])
sk_cli_test(steady_help_options 0 "steady.fnormtol" none steady --help-options)
# OREGO's guess (1, 2, 3) is far from the root: the line search backtracks
sk_cli_test(steady_orego 0 "line-search backtracks" complete steady ${SK_DATA}/orego.yaml)

# The answers, compared with the closed form u = x (1 - x) / 2, which the 3-point stencil
# reproduces exactly at the nodes (columns index, component, x, u, f of the CSV).
add_test(NAME cli_steady_exact_quadratic COMMAND bash -c
  "d=$(mktemp -d) && cd $d && $<TARGET_FILE:stiffkit_cli> steady --quiet ${SK_STEADY_1D_ARGS} > /dev/null && awk -F, 'NR > 1 { e = $4 - $3 * (1 - $3) / 2; if (e < 0) e = -e; if (e > m) m = e } END { print \"max error\", m; exit !(NR == 100 && m < 1e-14) }' steady.csv; rc=$?; rm -rf $d; exit $rc")
# The Matrix Market FE model M u' = -K u + g(t) b at t_s = 1000 (g = 1): linear elements are
# nodally exact for a constant source, so u_i = x_i (1 - x_i) / 2, x_i = (i + 1) / 50.
add_test(NAME cli_steady_linear_fe COMMAND bash -c
  "d=$(mktemp -d) && cd ${PROJECT_SOURCE_DIR} && $<TARGET_FILE:stiffkit_cli> steady --quiet data/linear_heat1d.yaml --set linsol.type=auto --set linsol.preconditioner=auto --set steady.t=1000 --set output.dir=$d --set output.prefix=fe > /dev/null && awk -F, 'NR > 1 { x = ($1 + 1) / 50; e = $3 - x * (1 - x) / 2; if (e < 0) e = -e; if (e > m) m = e } END { print \"max error\", m; exit !(NR == 50 && m < 1e-12) }' $d/fe.csv; rc=$?; rm -rf $d; exit $rc")
set_tests_properties(cli_steady_exact_quadratic cli_steady_linear_fe PROPERTIES
  LABELS "regression;cli" TIMEOUT 60)

# --- bad input: exit 64/65/73 before anything is solved or written ------------
sk_cli_test(steady_unknown_key 65 "unknown key 'steady.fnormtoll'" none steady --set steady.fnormtoll=1)
sk_cli_test(steady_bad_linsol 65 "--set linsol.type: 'lu' is not a linear solver of the steady solve (KINSOL)" none steady --set linsol.type=lu)
# a linear solver of the IVP engines that the steady solve has not: refused naming the ones it has
sk_cli_test(steady_linsol_unsupported 65 "linsol.type: 'band' is not a linear solver of the steady solve (KINSOL), which takes auto, dense, klu, umfpack, spgmr" none
  steady --set linsol.type=band)
sk_cli_test(steady_prec_unsupported 65 "linsol.preconditioner = amg: the steady solve (KINSOL) supports auto, none, jacobi, model" none
  steady --set linsol.type=spgmr --set linsol.preconditioner=amg)
# the old key names are gone: the unknown-key error names the nearest
sk_cli_test(steady_old_key 65 "steady.linsol" none steady --set steady.linsol=klu)
sk_cli_test(steady_bad_tolerance 65 "steady.fnormtol: expected a real number" none
  steady --set steady.fnormtol=0)
sk_cli_test(steady_prec_model_missing 65 "provides no preconditioner" none
  steady ${SK_DATA}/vdpol.yaml --set linsol.type=spgmr --set linsol.preconditioner=model)
sk_cli_test(steady_usage_unknown_flag 64 "unknown option '--stats-json'" none steady --stats-json x.json)
sk_cli_test(steady_output_dir_missing 73 "cannot create output file" none
  steady ${SK_STEADY_1D} --set output.dir=/nonexistent/stiffkit-out)

# --- numerical failures: exit 10, the cause and residual named, no file left ------
# ROBER: f1 + f2 + f3 = 0 identically (mass conservation), so J is singular at every state
sk_cli_test(steady_rober_singular 10 "the Jacobian df/du is singular" none
  steady ${SK_DATA}/rober.yaml)
sk_cli_test(steady_rober_names_column 10 "first singular column 1 (d f / d y2)" none
  steady ${SK_DATA}/rober.yaml)
sk_cli_test(steady_hires_singular 10 "conservation law" none steady ${SK_DATA}/hires.yaml)
# zero-flux sides and a source: the heat content grows for ever, there is no steady state;
# J has the left null vector of the control volumes, which KLU finds exactly in 1D
sk_cli_test(steady_no_steady_state 10 "the Jacobian df/du is singular" none
  steady ${SK_STEADY_1D} --set model.bc.x0.type=neumann --set model.bc.x1.type=neumann)
# KINSOL stops on a small step (scsteptol 0.5) after one step of a nonlinear problem: its
# KIN_STEP_LT_STPTOL must not pass for convergence
sk_cli_test(steady_stall 10 "stalled: the Newton step became too small" none
  steady ${SK_STEADY_1D} --set model.beta=2 --set steady.scsteptol=0.5)
sk_cli_test(steady_stall_residual 10 "residual ||f||_inf = " none
  steady ${SK_STEADY_1D} --set model.beta=2 --set steady.scsteptol=0.5)
# --json on a failure: the report with status failed and the error on stdout, exit 10
add_test(NAME cli_steady_failure_json COMMAND bash -c
  "d=$(mktemp -d) && cd $d && $<TARGET_FILE:stiffkit_cli> steady --quiet --json ${SK_DATA}/rober.yaml > out.json 2> err.txt; rc=$?; cat out.json; grep -q '\"status\": \"failed\", \"error\": \"steady state at t=' out.json && grep -q '\"converged\": false' out.json && test $rc -eq 10 && test $(ls | wc -l) -eq 2; ok=$?; rm -rf $d; exit $ok")
set_tests_properties(cli_steady_failure_json PROPERTIES LABELS "regression;cli" TIMEOUT 60)

# tests/cli_stability_guard.cmake: the stability guard of explicit fixed-step runs and the blow-up check through the CLI, on u' = -K u with K from Matrix Market files (tests/data/stability)
set(SK_GUARD_DIR ${CMAKE_CURRENT_SOURCE_DIR}/data/stability)
# K = diag(1, 1000), u(0) = (1, 1): the modes exp(-t), exp(-1000 t); euler needs h <= 2/1000
set(SK_GUARD_DIAG --set model.type=linear --set model.stiffness=${SK_GUARD_DIR}/diag_1_1000.mtx
  --set model.ic_value=1 --set solver.t_end=5 --set output.probes=[0,1])
# K = [0 -1000; 1000 0]: the eigenvalues +/- 1000 i (an undamped oscillation)
set(SK_GUARD_OSC --set model.type=linear --set model.stiffness=${SK_GUARD_DIR}/oscillator_1000.mtx
  --set model.ic_value=1 --set solver.t_end=0.1)

# the issue's run: refused before the first step, the limit 2/1000 named (Euler's interval [-2, 0])
sk_cli_test(guard_euler_refused 10 "euler is unstable for h > 2.000e-03 here" none
  run --quiet ${SK_GUARD_DIAG} --set solver.method=euler --set solver.fixed_step=0.0021)
sk_cli_test(guard_euler_refused_step 10 "h = 2.100e-03 (solver.fixed_step)" none
  run --quiet ${SK_GUARD_DIAG} --set solver.method=euler --set solver.fixed_step=0.0021)
sk_cli_test(guard_euler_refused_hint 10 "set solver.allow_unstable=true to run anyway" none
  run --quiet ${SK_GUARD_DIAG} --set solver.method=euler --set solver.fixed_step=0.0021)
# rk4 on the same matrix: 2.785/1000 (the real root of z^3 + 4z^2 + 12z + 24)
sk_cli_test(guard_rk4_refused 10 "rk4 is unstable for h > 2.785e-03 here" none
  run --quiet ${SK_GUARD_DIAG} --set solver.method=rk4 --set solver.fixed_step=0.0028)
# the imaginary axis: rk4 is stable there up to |h lambda| = 2 sqrt 2 (h = 0.0028 runs), euler
# nowhere but at 0 (refused where its growth exceeds 1e-3 per step: h > sqrt(1.001^2 - 1)/1000)
sk_cli_test(guard_rk4_oscillator_runs 0 "time reached" complete
  run ${SK_GUARD_OSC} --set solver.method=rk4 --set solver.fixed_step=0.0028)
sk_cli_test(guard_euler_oscillator_refused 10 "euler is unstable for h > 4.473e-05 here" none
  run --quiet ${SK_GUARD_OSC} --set solver.method=euler --set solver.fixed_step=1e-4)
# allowed: one warning, then the growth check stops it where (-1.1)^k first exceeds 1e8
# (k = 194, t = 0.4074), naming the component
sk_cli_test(guard_allowed_blows_up 10 "euler: the state blew up at t=4.074000e-01: component 1 (u[1])" partial
  run ${SK_GUARD_DIAG} --set solver.method=euler --set solver.fixed_step=0.0021 --set solver.allow_unstable=true)
# allowed, no growth limit: runs to the end with the warning (the issue's u[1] ~ -3.27e98)
sk_cli_test(guard_allowed_runs 0 "running anyway (solver.allow_unstable=true)" complete
  run ${SK_GUARD_DIAG} --set solver.method=euler --set solver.fixed_step=0.0021
  --set solver.allow_unstable=true --set solver.max_growth=0)
sk_cli_test(guard_options_listed 0 "solver.allow_unstable" none run --help-options)
sk_cli_test(guard_bad_growth 65 "solver.max_growth" none
  run --quiet ${SK_GUARD_DIAG} --set solver.method=euler --set solver.fixed_step=0.001 --set solver.max_growth=0.5)

# a stable step runs and matches the exact solution at every output time: u0 = exp(-t) to
# Euler's first-order error (t h exp(-t) / 2 <= 3.5e-4 at h = 0.0019), u1 = exp(-1000 t) to 1e-11
string(REPLACE ";" " " SK_GUARD_DIAG_ARGS "${SK_GUARD_DIAG}")
add_test(NAME cli_guard_euler_stable_exact COMMAND bash -c
  "set -e; d=$(mktemp -d); trap 'rm -rf $d' EXIT; cd $d; \"$STIFFKIT\" run --quiet ${SK_GUARD_DIAG_ARGS} --set solver.method=euler --set solver.fixed_step=0.0019 --set output.prefix=g > out.txt 2> err.txt || { cat out.txt err.txt; exit 1; }; \
   head -1 g.csv | grep -q '^t,u\\[0\\],u\\[1\\]'; \
   awk -F, 'NR > 1 && $1 !~ /^#/ { n++; e0 = $2 - exp(-$1); if (e0 < 0) e0 = -e0; e1 = $3 - exp(-1000 * $1); if (e1 < 0) e1 = -e1; if (e0 > 3.6e-4 || e1 > 1e-11) { print \"FAIL at t=\" $1 \": u0 error \" e0 \", u1 error \" e1; bad = 1 } } END { print n \" output times checked\"; exit (bad || n < 5) }' g.csv")
set_tests_properties(cli_guard_euler_stable_exact PROPERTIES LABELS "regression;cli" TIMEOUT 120
  ENVIRONMENT "STIFFKIT=$<TARGET_FILE:stiffkit_cli>")

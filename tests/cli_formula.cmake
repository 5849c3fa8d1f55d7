# tests/cli_formula.cmake: models written as formulas (model.type: formula) through every subcommand that runs an IVP: answers against closed forms and against the built-in problems, events, the consistent initialization, and bad input
set(SK_FM ${SK_DATA}/formula)
set(SK_FM_CHECK "/usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/tools/formula_checks.py")

# one run (or more) in a fresh directory, then a check of tests/tools/formula_checks.py there
function(sk_formula_test name script)
  add_test(NAME cli_formula_${name} COMMAND bash -c
    "d=$(mktemp -d) && cd $d && S=$<TARGET_FILE:stiffkit_cli> && ${script}; rc=$?; cat *.txt 2>/dev/null | tail -40; rm -rf $d; exit $rc")
  set_tests_properties(cli_formula_${name} PROPERTIES LABELS "regression;cli" TIMEOUT 300)
endfunction()

# y' = -1000 y + sin t against its exact solution at every output time (and the run's own
# error report, from formula.exact)
sk_formula_test(linear_stiff
  "$S run ${SK_FM}/linear_stiff.yaml > out.txt 2>&1 && grep -q 'max |y - y_exact| = ' out.txt && ${SK_FM_CHECK} linear .")
# the forcing sin t as an input: a formula in t, and a table r(t) = t (exact: linear between
# its rows) read through sin(r); the same exact solution
sk_formula_test(inputs
  "$S run ${SK_FM}/linear_stiff.yaml --set 'formula.inputs.u=sin(t)' --set 'formula.rhs.y=-lambda * y + u' > out.txt 2>&1 && ${SK_FM_CHECK} linear . && printf 't, r\\n0, 0\\n10, 10\\n' > ramp.csv && $S run ${SK_FM}/linear_stiff.yaml --set formula.tables.r=ramp.csv --set 'formula.rhs.y=-lambda * y + sin(r)' > table.txt 2>&1 && ${SK_FM_CHECK} linear .")
# Robertson as formulas with the built-in problem's Jacobian entries and settings: the same
# answers and the same step, RHS and Jacobian counts as model.type: problem (data/rober.yaml)
sk_formula_test(rober_as_builtin
  "$S run ${SK_FM}/rober.yaml --set output.prefix=formula > formula.txt 2>&1 && $S run ${SK_DATA}/rober.yaml --set output.prefix=builtin --set output.probes=[0,1,2] > builtin.txt 2>&1 && ${SK_FM_CHECK} rober .")
# van der Pol, mu = 1e6, detected pattern and colored differences: the built-in vdpol's
# answer (eps = 1e-6) to the tolerance; mu = 1 runs too
sk_formula_test(vdpol_as_builtin
  "$S run ${SK_FM}/vdpol.yaml --set output.prefix=formula > formula.txt 2>&1 && $S run ${SK_DATA}/vdpol.yaml --set output.prefix=builtin --set output.probes=[0,1] > builtin.txt 2>&1 && ${SK_FM_CHECK} vdpol . && $S run --quiet ${SK_FM}/vdpol.yaml --set formula.parameters.mu=1 --set output.prefix=mu1")
# the bouncing ball: bounce times from <prefix>.events.csv against the closed form
sk_formula_test(bouncing_ball
  "$S run ${SK_FM}/bouncing_ball.yaml > out.txt 2>&1 && grep -q 'events located: 4' out.txt && ${SK_FM_CHECK} bounce .")
# an action of eleven assignments (no fixed limit), nine of them leaving h as it is: the same bounces
sk_formula_test(bouncing_ball_long_action
  "$S run ${SK_FM}/bouncing_ball.yaml --set 'formula.events.ground.action=h = h; h = h; h = h; h = h; h = h; h = h; h = h; h = h; h = h; v = -e * v; bounces = bounces + 1' > out.txt 2>&1 && grep -q 'events located: 4' out.txt && ${SK_FM_CHECK} bounce .")
# a second event that stops the run where the ball rises through h = 5 after its first bounce
sk_formula_test(event_stop
  "$S run ${SK_FM}/bouncing_ball.yaml --set output.prefix=top --set 'formula.events.top.when=h - 5' --set formula.events.top.direction=rising --set formula.events.top.action=stop > top.txt 2>&1 && ${SK_FM_CHECK} top .")
# the formula's parameters are model parameters by name: dy/dlambda against the derivative of
# the exact solution, and verify's central differences on van der Pol's mu
sk_formula_test(linear_sensitivity
  "$S run ${SK_FM}/linear_stiff.yaml --set solver.sensitivity.parameters=lambda > out.txt 2>&1 && ${SK_FM_CHECK} linsens .")
sk_cli_test(formula_sens_verify 0 "forward sensitivities: pass" none
  verify ${SK_FM}/vdpol.yaml --set formula.parameters.mu=1 --set solver.sensitivity.parameters=mu)

# a DAE's parameters through IDAS, both correctors: the four sensitivities against the closed form
sk_formula_test(dae_sensitivity
  "$S run ${SK_FM}/forced_lag.yaml > out.txt 2>&1 && ${SK_FM_CHECK} lagsens .")
sk_formula_test(dae_sensitivity_staggered
  "$S run ${SK_FM}/forced_lag.yaml --set solver.sensitivity.method=staggered > out.txt 2>&1 && ${SK_FM_CHECK} lagsens .")
# checkpoint segments restart IDAS from each checkpoint's sensitivities (IDACalcIC makes their
# derivatives consistent again); the first boundary is at t0, after the consistent initialization
sk_formula_test(dae_sensitivity_segments
  "$S run ${SK_FM}/forced_lag.yaml --set checkpoint.every=1.2 --set checkpoint.segment=true --set checkpoint.file=ck.bin > out.txt 2>&1 && ${SK_FM_CHECK} lagsens .")

# the pendulum in index-1 form: IDA corrects the given y'0 (reported), the constraints hold
sk_formula_test(pendulum
  "$S run ${SK_FM}/pendulum.yaml > out.txt 2>&1 && ${SK_FM_CHECK} pendulum .")
# the pendulum with its analytic iteration matrix (dF/dy and dF/dy' entries, formula.jacobian):
# the constraints hold as with colored differences; a wrong dF/dy or dF/dy' entry is refused by the
# DAE Jacobian self-test at the start, naming the part and the entry (exit 65)
set(SK_FM_PJ "--set formula.jacobian.vx.dx=1 --set formula.jacobian.vx.u=-1 --set formula.jacobian.vy.dy=1 --set formula.jacobian.vy.v=-1 --set formula.jacobian.ax.du=1 --set formula.jacobian.ax.lam=x --set formula.jacobian.ax.x=lam --set formula.jacobian.ay.dv=1 --set formula.jacobian.ay.lam=y --set formula.jacobian.ay.y=lam --set formula.jacobian.constraint.u=2*u --set formula.jacobian.constraint.v=2*v --set 'formula.jacobian.constraint.lam=-(x^2+y^2)' --set formula.jacobian.constraint.x=-2*lam*x --set formula.jacobian.constraint.y=-2*lam*y-g")
sk_formula_test(pendulum_jacobian
  "$S run ${SK_FM}/pendulum.yaml ${SK_FM_PJ} > out.txt 2>&1 && grep -q 'RHS evaluations in difference quotients               0' out.txt && ${SK_FM_CHECK} pendulum .")
sk_formula_test(pendulum_jacobian_wrong_dy
  "$S run ${SK_FM}/pendulum.yaml ${SK_FM_PJ} --set formula.jacobian.constraint.y=-2*lam*y > out.txt 2>&1; [ $? = 65 ] && grep -q 'the DAE Jacobian self-test failed at t=0.000000e+00: dF/dy (cj = 0)' out.txt && grep -q 'row 4 constraint, column 1 y): analytic 0, FD -9.81' out.txt")
sk_formula_test(pendulum_jacobian_wrong_dyp
  "$S run ${SK_FM}/pendulum.yaml ${SK_FM_PJ} --set formula.jacobian.ay.dv=2 > out.txt 2>&1; [ $? = 65 ] && grep -q 'the dF/dy. part differs' out.txt")
# a constant mass matrix: 2 y' = -y with M = 2 (a parameter) on ida-bdf and cvode-bdf, exact
# y = exp(-t / 2) given as the formula the run compares with
foreach(method ida-bdf cvode-bdf)
  sk_formula_test(mass_${method}
    "$S run --set model.type=formula --set formula.variables=y --set formula.parameters.m=2 --set 'formula.mass.y.y=m' --set 'formula.rhs.y=-y' --set 'formula.exact.y=exp(-t / m)' --set formula.y0=[1] --set solver.method=${method} --set solver.rtol=1e-9 --set solver.atol=1e-12 > out.txt 2>&1 && awk '/max .y - y_exact. =/ { ok = $NF + 0 < 1e-7 } END { exit !ok }' out.txt")
endforeach()
# a mass matrix an event changes (data/formula/mass_event.yaml: M = [1 c; 0 1], c 1 -> 2 at t = 1):
# M is re-evaluated at the event, in IDA's residual and in the y' = M^{-1} f form (KLU factors of
# M, GMRES); exact a = 2 t exp(-t) after the event, and a kept M would end 0.135 away
foreach(case "ida-bdf" "cvode-bdf --set linsol.type=spgmr")
  string(REGEX REPLACE " .*" "" tag "${case}")
  sk_formula_test(mass_event_${tag}
    "$S run ${SK_FM}/mass_event.yaml --set solver.method=${case} > out.txt 2>&1 && awk '/max .y - y_exact. =/ { ok = $NF + 0 < 1e-7 } END { exit !ok }' out.txt")
endforeach()
# a diagonal M = m changed at an event (m 2 -> 1 at t = 1): y = exp(-1/2 - (t - 1)) after it
sk_formula_test(mass_event_diagonal
  "$S run --set model.type=formula --set formula.variables=y --set formula.parameters.m=2 --set 'formula.mass.y.y=m' --set 'formula.rhs.y=-y' --set formula.y0=[1] --set 'formula.events.e.when=t - 1' --set 'formula.events.e.action=m = 1' --set 'formula.exact.y=t < 1 ? exp(-t / 2) : exp(-0.5 - (t - 1))' --set solver.t_end=2 --set solver.rtol=1e-9 --set solver.atol=1e-12 > out.txt 2>&1 && awk '/max .y - y_exact. =/ { ok = $NF + 0 < 1e-7 } END { exit !ok }' out.txt")
# an event that makes M singular: y' = M^{-1} f cannot go on, IDA cannot turn y into an algebraic
# variable; both name the cause (exit 65)
sk_cli_test(formula_mass_event_singular 65 "formula.mass changed at an event so that row 1 (1-based) is zero" partial
  run --set model.type=formula --set formula.variables=y --set formula.parameters.m=2 --set formula.mass.y.y=m
  --set formula.rhs.y=-y --set formula.y0=[1] --set "formula.events.e.when=t - 1" --set "formula.events.e.action=m = 0"
  --set solver.t_end=2 --set solver.method=cvode-bdf)
sk_cli_test(formula_mass_event_algebraic 65 "column 1 (1-based) became zero (algebraic)" partial
  run --set model.type=formula --set formula.variables=y --set formula.parameters.m=2 --set formula.mass.y.y=m
  --set formula.rhs.y=-y --set formula.y0=[1] --set "formula.events.e.when=t - 1" --set "formula.events.e.action=m = 0"
  --set solver.t_end=2 --set solver.method=ida-bdf)

# the other subcommands: verify (PASS against the exact solution), diagnose, steady, sweep
sk_formula_test(verify
  "$S verify ${SK_FM}/linear_stiff.yaml > out.txt 2>&1 && grep -q 'true error against the exact solution: pass' out.txt")
# verify on a model with events: the reference steppers do not locate events, so the independent
# reference is CVODE's other method (Adams-Moulton against the production BDF); both bounce
sk_formula_test(verify_events
  "$S verify ${SK_FM}/bouncing_ball.yaml > out.txt 2>&1 && grep -q 'independent reference stepper: pass' out.txt && grep -q 'cvode-adams (adaptive' out.txt")
sk_formula_test(diagnose
  "$S diagnose ${SK_FM}/vdpol.yaml > out.txt 2>&1 && grep -q 'recommendation: stiff' out.txt")
# the fixed point of van der Pol is the origin
sk_formula_test(steady
  "$S steady ${SK_FM}/vdpol.yaml --set formula.y0=[0.1,0.2] > out.txt 2>&1 && grep -q '^converged' out.txt && awk -F, 'NR > 1 { if ($3 + 0 > 1e-9 || $3 + 0 < -1e-9) bad = 1; n++ } END { exit bad || n != 2 }' formula_vdpol.csv")
sk_formula_test(sweep
  "$S sweep ${SK_FM}/vdpol_mu_sweep.yaml -j 2 > out.txt 2>&1 && $S collect vdpol-mu >> out.txt 2>&1 && test $(grep -c ',ok,' vdpol-mu/collect.csv) -eq 4")

# --- bad input: exit code, located message, no file left -------------------
sk_cli_test(formula_unknown_name 65 "formula_unknown_name.yaml:7:12: formula.rhs.y: cannot parse the formula '-k * z' at character 6: Unexpected token \"z\"" none
  run ${SK_BAD}/formula_unknown_name.yaml)
sk_cli_test(formula_names_known 65 "the names known here are t, y, k, pi" none
  run ${SK_BAD}/formula_unknown_name.yaml)
sk_cli_test(formula_syntax 65 "formula_syntax.yaml:8:8: formula.rhs.v: cannot parse the formula '-x * * 2' at character 6" none
  run ${SK_BAD}/formula_syntax.yaml)
sk_cli_test(formula_nonfinite 65 "formula.rhs.y: the formula 'log(y)' is -inf at the initial state (t = 0, y = 0)" none
  run ${SK_FM}/linear_stiff.yaml --set formula.rhs.y=log\(y\))
sk_cli_test(formula_y0_length 65 "formula_y0_length.yaml:7:7: formula.y0: 3 values for 2 variables (" none
  run ${SK_BAD}/formula_y0_length.yaml)
sk_cli_test(formula_yp0_length 65 "formula.yp0: 2 values for 5 variables" none
  run ${SK_FM}/pendulum.yaml --set formula.yp0=[1,2])
sk_cli_test(formula_residual_count 65 "formula.residual: 6 residuals (vx, vy, ax, ay, constraint, extra) for 5 variables" none
  run ${SK_FM}/pendulum.yaml --set formula.residual.extra=x)
sk_cli_test(formula_missing_rhs 65 "formula.rhs.v is missing" none
  run ${SK_FM}/bouncing_ball.yaml --set formula.variables=h,v,w --set formula.y0=[1,0,0] --set formula.rhs.w=1 --set formula.rhs.v=)
sk_cli_test(formula_mass_name 65 "formula.mass.v.w: 'w' is not a variable" none
  run ${SK_FM}/bouncing_ball.yaml --set formula.mass.v.w=1)
sk_cli_test(formula_unused_parameter 65 "formula.parameters.typo: no formula reads 'typo'" none
  run ${SK_FM}/bouncing_ball.yaml --set formula.parameters.typo=1)
sk_cli_test(formula_action_target 65 "formula.events.ground.action: 'w' is neither a variable nor a parameter" none
  run ${SK_FM}/bouncing_ball.yaml --set "formula.events.ground.action=w = 1")
# an algebraic equation with no solution: IDA cannot correct y'0 and lam, exit 10 names the residuals
sk_cli_test(formula_dae_inconsistent 10 "the residuals left: vx = 1.000e+00, vy = 1.000e+00, ay = 9.810e+00, constraint = 2.000e+00" partial
  run ${SK_FM}/pendulum.yaml --set "formula.residual.constraint=exp(lam) + 1")

# verify on a DAE without an exact solution: the independent reference is bdf2 (its own
# consistent initialization, Newton on F(t, y, (y - psi)/gamma) = 0); it agrees with ida-bdf
sk_cli_test(formula_verify_dae_reference 0 "3. independent reference stepper: pass" none
  verify ${SK_FM}/pendulum.yaml)
# diagnose on a DAE: refused with what it analyses (the eigenvalues of df/dy of an ODE)
sk_cli_test(formula_diagnose_dae 65 "diagnose estimates the stiffness of ODE models y' = f" none
  diagnose ${SK_FM}/pendulum.yaml)

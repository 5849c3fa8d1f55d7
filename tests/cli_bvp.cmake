# tests/cli_bvp.cmake: `stiffkit bvp` and `stiffkit verify` on boundary-value problems: answers against closed forms and published values, failures explained, bad input named with file:line and nothing left behind

set(SK_BVP ${SK_DATA}/bvp)
set(SK_BAD_BVP ${PROJECT_SOURCE_DIR}/tests/bad_input/bvp)

# --- good runs -----------------------------------------------------------
sk_cli_test(bvp_embedded 0 "error against the exact solution" complete bvp)
sk_cli_test(bvp_json 0 "\"converged\": true" complete bvp --json)
sk_cli_test(bvp_help_options 0 "bvp.shooting.sensitivity_limit" none bvp --help-options)
sk_cli_test(bvp_boundary_layer 0 "mesh refinements" complete bvp ${SK_BVP}/boundary_layer.yaml)
sk_cli_test(bvp_troesch_multiple_shooting 0 "shooting nodes" complete bvp ${SK_BVP}/troesch.yaml)
sk_cli_test(bvp_heat_rod_shooting 0 "IVP steps" complete bvp ${SK_BVP}/heat_rod_flux.yaml
  --set bvp.method=shooting)
sk_cli_test(bvp_verify_heat_rod 0 "result: PASS" none verify ${SK_BVP}/heat_rod_flux.yaml)
sk_cli_test(bvp_verify_troesch 0 "result: PASS" none verify ${SK_BVP}/troesch.yaml)
sk_cli_test(bvp_verify_boundary_layer 0 "result: PASS" none verify ${SK_BVP}/boundary_layer.yaml)

# The answers against closed forms computed here in awk (columns x, components, ...):
# heat rod with k(T) = k0 (1 + beta T) and a flux end: Kirchhoff transform, T(1) = 250 exactly
add_test(NAME cli_bvp_heat_rod_closed_form COMMAND bash -c
  "d=$(mktemp -d) && $<TARGET_FILE:stiffkit_cli> bvp --quiet ${SK_BVP}/heat_rod_flux.yaml --set output.dir=$d > /dev/null && awk -F, 'NR > 1 { x = $1; U = 2 * (300 + 0.01 * 300 * 300 / 2) - 350 * x - 25 * x * x; T = (sqrt(1 + 2 * 0.01 * U / 2) - 1) / 0.01; e = ($2 - T) / T; if (e < 0) e = -e; if (e > m) m = e; q = 400 - 50 * (1 - x); f = $3 - q; if (f < 0) f = -f; if (f > mq) mq = f } END { print \"max rel error T\", m, \"max error q\", mq; exit !(NR > 100 && m < 1e-8 && mq < 1e-9) }' $d/heat_rod.csv; rc=$?; rm -rf $d; exit $rc")
# radiating end: T(1) from k0 (T0 + beta T0^2 / 2) - k0 (T1 + beta T1^2 / 2) = eps sigma (T1^4 - Tinf^4) by bisection
add_test(NAME cli_bvp_radiating_end COMMAND bash -c
  "d=$(mktemp -d) && $<TARGET_FILE:stiffkit_cli> bvp --quiet ${SK_BVP}/radiating_rod.yaml --set output.dir=$d > /dev/null && awk -F, 'function g(t) { return 2 * (600 + 0.005 * 600 * 600) - 2 * (t + 0.005 * t * t) - 4.536e-8 * (t ^ 4 - 300 ^ 4) } NR > 1 { last = $2 } END { lo = 300; hi = 600; for (i = 0; i < 200; i++) { mid = (lo + hi) / 2; if (g(mid) > 0) lo = mid; else hi = mid } e = (last - lo) / lo; if (e < 0) e = -e; print \"T(1)\", last, \"closed form\", lo, \"rel error\", e; exit !(e < 1e-8) }' $d/radiating_rod.csv; rc=$?; rm -rf $d; exit $rc")
# Troesch mu = 5: y'(0) = 0.0457504614 (published), to the 6 digits both methods reach at bvp.tol 1e-8
add_test(NAME cli_bvp_troesch_published COMMAND bash -c
  "d=$(mktemp -d) && $<TARGET_FILE:stiffkit_cli> bvp --quiet ${SK_BVP}/troesch.yaml --set output.dir=$d > /dev/null && awk -F, 'NR == 2 { e = ($3 - 0.0457504614) / 0.0457504614; if (e < 0) e = -e; print \"dy(0)\", $3, \"rel error\", e; ok = e < 3e-7 } END { exit !ok }' $d/troesch.csv; rc=$?; rm -rf $d; exit $rc")
# boundary layer: the exact error written in the CSV (max_abs_err column) stays within 10 tol
add_test(NAME cli_bvp_boundary_layer_exact COMMAND bash -c
  "d=$(mktemp -d) && $<TARGET_FILE:stiffkit_cli> bvp --quiet ${SK_BVP}/boundary_layer.yaml --set output.dir=$d > /dev/null && awk -F, 'NR > 1 { x = $1; y = (1 - exp(-x / 0.001)) / (1 - exp(-1 / 0.001)); e = $2 - y; if (e < 0) e = -e; if (e > m) m = e; if (NR > 2 && x - px < hmin || NR == 3) hmin = x - px; px = x } END { print \"max error\", m, \"points\", NR - 1, \"smallest interval\", hmin; exit !(m < 1e-5 && NR - 1 < 100000 && hmin < 1e-5) }' $d/boundary_layer.csv; rc=$?; rm -rf $d; exit $rc")
set_tests_properties(cli_bvp_heat_rod_closed_form cli_bvp_radiating_end cli_bvp_troesch_published
  cli_bvp_boundary_layer_exact PROPERTIES LABELS "regression;cli" TIMEOUT 120)

# --- numerical failures: exit 10, explained, nothing written ---------------------
sk_cli_test(bvp_single_shooting_fails 10 "use multiple shooting" none
  bvp --quiet ${SK_BVP}/troesch.yaml --set bvp.method=shooting)
# eps y'' = y' (the layer moved to x = 1): the forward IVP grows like exp(x / eps) = 7e10 for eps = 0.04
sk_cli_test(bvp_unstable_ivp 10 "the initial-value problem is unstable" none
  bvp --quiet ${SK_BVP}/boundary_layer.yaml --set bvp.method=shooting --set bvp.equations.y=dy/eps
  --set bvp.parameters.eps=0.04 --set bvp.exact.y= --set bvp.exact.dy=)
sk_cli_test(bvp_bratu_fold 10 "turning point (fold) is likely near lambda = 3.51" none
  bvp --quiet ${SK_BVP}/bratu.yaml --set bvp.continuation.parameter=lambda)
sk_cli_test(bvp_redundant_conditions 10 "('first', 'again') are redundant or conflicting" none
  bvp --quiet ${SK_BAD_BVP}/redundant_bc.yaml)
sk_cli_test(bvp_newton_limit 10 "Newton did not converge after 1 iterations" none
  bvp --quiet ${SK_BVP}/troesch.yaml --set bvp.method=fd --set bvp.newton.max_iters=1)
sk_cli_test(bvp_refinement_limit 65 "after 2 refinements" none
  bvp --quiet ${SK_BVP}/boundary_layer.yaml --set bvp.mesh.max_refinements=2)

# --- bad input: exit 65 with file:line:column and the key, nothing written --------
sk_cli_test(bvp_condition_outside 65 "bc_outside.yaml:9:15: bvp.bc.far.at: x = 2 is outside the interval [0, 1]" none
  bvp ${SK_BAD_BVP}/bc_outside.yaml)
sk_cli_test(bvp_condition_count 65 "which need 2 boundary conditions" none
  bvp ${SK_BAD_BVP}/bc_count.yaml)
sk_cli_test(bvp_bad_formula 65 "bad_formula.yaml:7:8: bvp.equations.y: cannot parse the formula '-y + z'" none
  bvp ${SK_BAD_BVP}/bad_formula.yaml)
sk_cli_test(bvp_unknown_equation 65 "did you mean 'bvp.equations.y'?" none
  bvp ${SK_BAD_BVP}/unknown_equation.yaml)
sk_cli_test(bvp_unknown_continuation_parameter 65 "'mu' is not a parameter (bvp.parameters: lambda)" none
  bvp ${SK_BVP}/bratu.yaml --set bvp.continuation.parameter=mu)
sk_cli_test(bvp_no_variables 65 "no variables" none bvp --set bvp.variables=)
sk_cli_test(bvp_missing_equation 65 "bvp.equations.q is missing" none
  bvp --set bvp.equations.q=)
sk_cli_test(bvp_run_refuses 65 "solve it with `stiffkit bvp CONFIG`" none run ${SK_BVP}/bratu.yaml)
sk_cli_test(bvp_model_type_other 65 "not bvp" none bvp ${SK_DATA}/vdpol.yaml)

# periodic conditions (at: both): y'' - y = -cos x, y = cos(x) / 2, by both methods
sk_cli_test(bvp_verify_periodic 0 "result: PASS" none verify ${SK_BVP}/periodic.yaml)
# the HDF5 file: abscissa /x, the components as probes, the estimate series, provenance
add_test(NAME cli_bvp_hdf5_layout COMMAND bash -c
  "d=$(mktemp -d) && $<TARGET_FILE:stiffkit_cli> bvp --quiet ${SK_BVP}/heat_rod_flux.yaml --set output.dir=$d > /dev/null && h5ls -r $d/heat_rod.h5 > $d/ls.txt && cat $d/ls.txt && grep -q '^/x ' $d/ls.txt && grep -q '^/probes ' $d/ls.txt && grep -q '^/estimate/values ' $d/ls.txt && grep -q '^/provenance ' $d/ls.txt && h5dump -a /probes/names $d/heat_rod.h5 | grep -q '\"q\"'; rc=$?; rm -rf $d; exit $rc")
set_tests_properties(cli_bvp_hdf5_layout PROPERTIES LABELS "regression;cli" TIMEOUT 60)
# the README quotes the graded mesh of data/bvp/boundary_layer.yaml: the run must give that count
add_test(NAME cli_bvp_boundary_layer_readme COMMAND bash -c
  "d=$(mktemp -d) && cd $d && want=$(sed -n 's|.*bvp/boundary_layer.yaml .*10 -> \\([0-9]*\\) graded points.*|\\1|p' \"$README\") && \
   \"$STIFFKIT\" bvp \"$BL\" > out.txt 2>&1; got=$(awk '/mesh points/ { print $3 }' out.txt); \
   echo \"README: $want, run: $got\"; rm -rf $d; test -n \"$want\" && test \"$want\" = \"$got\"")
set_tests_properties(cli_bvp_boundary_layer_readme PROPERTIES LABELS "regression;cli" TIMEOUT 120
  ENVIRONMENT "STIFFKIT=$<TARGET_FILE:stiffkit_cli>;README=${PROJECT_SOURCE_DIR}/README.md;BL=${SK_BVP}/boundary_layer.yaml")

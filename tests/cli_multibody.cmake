# tests/cli_multibody.cmake: `stiffkit run` and `stiffkit verify` on multibody mechanisms (model.type multibody): the example runs and their verification, each formulation on the four-bar, loop closure in the monitor series, a closed form for the slider-crank, the four-bar's event times, engine choices refused before any file exists, bad mechanisms (file:line:col, exit codes, nothing left behind), inconsistent starts

set(SK_BAD_MULTIBODY ${SK_BAD}/mechanisms)

# The run configurations name their mechanism relative to their own directory (data/); the
# tests run in a fresh directory, which is what that rule is for.
foreach(case pendulum double_pendulum slider_crank fourbar)
  sk_cli_test(mechanism_run_${case} 0 "constraint drift: max |Phi|" complete
    run ${SK_DATA}/mechanism_${case}.yaml)
  sk_cli_test(mechanism_verify_${case} 0 "result: PASS" none
    verify ${SK_DATA}/mechanism_${case}.yaml)
endforeach()

# --- the four-bar in each formulation ------------------------------------------------------
sk_cli_test(mechanism_fourbar_index1 0 "formulation index1, engine cvode-bdf" complete
  run ${SK_DATA}/mechanism_fourbar.yaml --set multibody.formulation=index1)
sk_cli_test(mechanism_fourbar_index1_baumgarte 0 "formulation index1, engine cvode-bdf" complete
  run ${SK_DATA}/mechanism_fourbar.yaml --set multibody.formulation=index1
  --set multibody.baumgarte.alpha=10 --set multibody.baumgarte.beta=10)
# projection onto the position and velocity constraints
sk_cli_test(mechanism_fourbar_index1_projection 0 "formulation index1, engine cvode-bdf" complete
  run ${SK_DATA}/mechanism_fourbar.yaml --set multibody.formulation=index1 --set multibody.projection=true)
sk_cli_test(mechanism_fourbar_reduced 0 "formulation reduced, engine cvode-bdf" complete
  run ${SK_DATA}/mechanism_fourbar.yaml --set multibody.formulation=reduced)

# loop closure of the GGL run: phi_max (found by its header name) below 1e-8 at every one of the
# 201 outputs of the monitor series
add_test(NAME cli_multibody_fourbar_ggl_closure COMMAND bash -c
  "d=$(mktemp -d) && $<TARGET_FILE:stiffkit_cli> run --quiet ${SK_DATA}/mechanism_fourbar.yaml --set multibody.formulation=ggl --set output.dir=$d && awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == \"phi_max\") c = i; next } /^#/ { next } { rows++; v = $c + 0; if (v > m) m = v; if (!(v < 1e-8)) bad++ } END { print \"phi_max column\", c, \"rows\", rows, \"max\", m, \"above 1e-8\", bad + 0; exit !(c > 0 && rows == 201 && bad == 0) }' $d/fourbar.monitor.csv; rc=$?; rm -rf $d; exit $rc")
# the slider-crank against its closed form (crank r = 0.1, rod l = 0.3, crank angle 2 pi t):
# x_slider = r cos th + sqrt(l^2 - r^2 sin^2 th), columns found by their header names
add_test(NAME cli_multibody_slider_crank_closed_form COMMAND bash -c
  "d=$(mktemp -d) && $<TARGET_FILE:stiffkit_cli> run --quiet ${SK_DATA}/mechanism_slider_crank.yaml --set output.dir=$d && awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == \"t\") ct = i; if ($i == \"x_slider\") cx = i } next } /^#/ { next } { rows++; th = 2 * 3.14159265358979324 * $ct; s = sin(th); x = 0.1 * cos(th) + sqrt(0.09 - 0.01 * s * s); e = $cx - x; if (e < 0) e = -e; if (e > m) m = e } END { print \"x_slider column\", cx, \"rows\", rows, \"max error\", m; exit !(cx > 0 && rows == 201 && m < 1e-7) }' $d/slider_crank.csv; rc=$?; rm -rf $d; exit $rc")
set_tests_properties(cli_multibody_fourbar_ggl_closure cli_multibody_slider_crank_closed_form
  PROPERTIES LABELS "regression;cli" TIMEOUT 120)

# the run summary lists the events: the four-bar's crank_top (the crank's centroid y =
# 0.05 sin(2 pi t) crossing 0.04) at the closed-form times asin(0.8) / (2 pi) + k (rising) and
# (pi - asin(0.8)) / (2 pi) + k (falling), k = 0, 1: four lines, printed to 9 digits
add_test(NAME cli_multibody_fourbar_event_times COMMAND bash -c
  "d=$(mktemp -d) && $<TARGET_FILE:stiffkit_cli> run ${SK_DATA}/mechanism_fourbar.yaml --set output.dir=$d > $d/out.txt; rc=$?; grep -e '^events located' -e crank_top $d/out.txt; awk -v rc=$rc 'BEGIN { pi = 3.14159265358979324; a = atan2(0.8, 0.6); t[1] = a / (2 * pi); t[2] = (pi - a) / (2 * pi); t[3] = 1 + t[1]; t[4] = 1 + t[2]; dir[1] = dir[3] = \"rising\"; dir[2] = dir[4] = \"falling\" } /^events located:/ { c = $3 } $4 == \"crank_top\" { n++; e = $3 - t[n]; if (e < 0) e = -e; if (e > m) m = e; if ($5 != dir[n]) bad++ } END { print \"exit\", rc, \"events\", c, \"lines\", n, \"max time error\", m, \"wrong directions\", bad + 0; exit !(rc == 0 && c == 4 && n == 4 && m < 1e-8 && bad == 0) }' $d/out.txt; ok=$?; rm -rf $d; exit $ok")
set_tests_properties(cli_multibody_fourbar_event_times PROPERTIES LABELS "regression;cli" TIMEOUT 120)

# --- engine choices that cannot run: exit 65, explained, refused before any file exists --------
# GGL is a DAE: an ODE engine cannot integrate it
sk_cli_test(mechanism_ggl_rk4 65 "the GGL formulation is a DAE: 'rk4' cannot integrate it" none
  run ${SK_DATA}/mechanism_fourbar.yaml --set multibody.formulation=ggl --set solver.method=rk4)
# projection belongs to the index-1 formulation, and to cvode-bdf
sk_cli_test(mechanism_projection_ggl 65 "multibody.projection applies to the index1 formulation only" none
  run ${SK_DATA}/mechanism_fourbar.yaml --set multibody.formulation=ggl --set multibody.projection=true)
sk_cli_test(mechanism_projection_adams 65 "projection after every step needs cvode-bdf" none
  run ${SK_DATA}/mechanism_fourbar.yaml --set multibody.formulation=index1 --set multibody.projection=true
  --set solver.method=cvode-adams)
# the four-bar has an event (crank_top): an engine that does not locate events cannot run it,
# and that is as much a bad engine choice as the ones above (nothing may be written)
sk_cli_test(mechanism_events_rk4 65 "does not locate events" none
  run ${SK_DATA}/mechanism_fourbar.yaml --set multibody.formulation=index1 --set solver.method=rk4)

# --- bad mechanisms: exit 65 with file:line:col and the field, nothing written ---------------
sk_cli_test(mechanism_unknown_body 65
  "unknown_body.yaml:10:74: joint 'B': body2 'rockr' is not a body (bodies: crank, coupler, rocker, or ground)" none
  run ${SK_DATA}/mechanism_fourbar.yaml --set multibody.file=${SK_BAD_MULTIBODY}/unknown_body.yaml)
sk_cli_test(mechanism_zero_mass 65 "zero_mass.yaml:4:11: body 'crank': mass must be > 0 (got 0)" none
  run ${SK_DATA}/mechanism_fourbar.yaml --set multibody.file=${SK_BAD_MULTIBODY}/zero_mass.yaml)
sk_cli_test(mechanism_driver_unknown_joint 65
  "driver_unknown_joint.yaml:12:13: drivers[0]: joint 'P' is not a joint (joints: O, A, B, or S)" none
  run ${SK_DATA}/mechanism_fourbar.yaml --set multibody.file=${SK_BAD_MULTIBODY}/driver_unknown_joint.yaml)
sk_cli_test(mechanism_bad_formula 65
  "bad_formula.yaml:7:26: driver of joint 'O': position: cannot parse the formula '2*pi*'" none
  run ${SK_DATA}/mechanism_fourbar.yaml --set multibody.file=${SK_BAD_MULTIBODY}/bad_formula.yaml)
sk_cli_test(mechanism_unknown_key 65
  "unknown_key.yaml:6:1: unknown key 'driver' (valid keys: gravity, bodies, joints, drivers, forces, events)" none
  run ${SK_DATA}/mechanism_fourbar.yaml --set multibody.file=${SK_BAD_MULTIBODY}/unknown_key.yaml)
sk_cli_test(mechanism_missing_file 66 "--set: multibody.file: '${SK_BAD_MULTIBODY}/does_not_exist.yaml': no such file" none
  run ${SK_DATA}/mechanism_fourbar.yaml --set multibody.file=${SK_BAD_MULTIBODY}/does_not_exist.yaml)
sk_cli_test(mechanism_no_file 65 "needs multibody.file" none run --set model.type=multibody)

# --- mechanisms that cannot run: exit 10, explained, nothing written --------------------------
sk_cli_test(mechanism_redundant 10 "redundant" none
  run ${SK_DATA}/mechanism_fourbar.yaml --set multibody.file=${SK_BAD_MULTIBODY}/redundant.yaml)
# the message names the dependent rows (those of O4_again, a copy of O4)
sk_cli_test(mechanism_redundant_rows 10 "O4_again" none
  run ${SK_DATA}/mechanism_fourbar.yaml --set multibody.file=${SK_BAD_MULTIBODY}/redundant.yaml)
sk_cli_test(mechanism_unassemblable 10 "cannot be assembled" none
  run ${SK_DATA}/mechanism_fourbar.yaml --set multibody.file=${SK_BAD_MULTIBODY}/unassemblable.yaml)
sk_cli_test(mechanism_verify_redundant 10 "redundant" none
  verify ${SK_DATA}/mechanism_fourbar.yaml --set multibody.file=${SK_BAD_MULTIBODY}/redundant.yaml)

# --- an inconsistent start: the pendulum with its bob 0.01 off the circle ----------------------
# refuse: exit 65 naming the inconsistency, nothing written; fix (the default): the run completes
# and reports the correction
add_test(NAME cli_multibody_inconsistent_refuse COMMAND bash -c
  "d=$(mktemp -d) && mkdir $d/run && printf 'gravity: [0, -9.81]\\nbodies:\\n  - {name: bob, mass: 1, inertia: 1.0e-3, position: [0.3, -0.97], angle: 0.3}\\njoints:\\n  - {name: pivot, type: revolute, body1: bob, point1: [0, 1], body2: ground, point2: [0, 0]}\\n' > $d/off.yaml && cd $d/run && $<TARGET_FILE:stiffkit_cli> run ${SK_DATA}/mechanism_pendulum.yaml --set multibody.file=$d/off.yaml --set multibody.inconsistent=refuse > $d/out.txt 2> $d/err.txt; rc=$?; cat $d/err.txt; left=$(ls -A $d/run); ok=0; test $rc -eq 65 && grep -q 'inconsistent' $d/err.txt && grep -q 'pivot' $d/err.txt && test -z \"$left\" && ok=1; echo \"exit $rc, left: $left\"; rm -rf $d; test $ok -eq 1")
add_test(NAME cli_multibody_inconsistent_fix COMMAND bash -c
  "d=$(mktemp -d) && mkdir $d/run && printf 'gravity: [0, -9.81]\\nbodies:\\n  - {name: bob, mass: 1, inertia: 1.0e-3, position: [0.3, -0.97], angle: 0.3}\\njoints:\\n  - {name: pivot, type: revolute, body1: bob, point1: [0, 1], body2: ground, point2: [0, 0]}\\n' > $d/off.yaml && cd $d/run && $<TARGET_FILE:stiffkit_cli> run ${SK_DATA}/mechanism_pendulum.yaml --set multibody.file=$d/off.yaml --set output.dir=$d/run > $d/out.txt 2> $d/err.txt; rc=$?; cat $d/out.txt $d/err.txt; ok=0; test $rc -eq 0 && grep -q 'initial state: max |Phi| .* -> ' $d/out.txt && grep -q 'positions moved by [1-9]' $d/out.txt && test -f $d/run/pendulum.csv && ok=1; rm -rf $d; test $ok -eq 1")
set_tests_properties(cli_multibody_inconsistent_refuse cli_multibody_inconsistent_fix
  PROPERTIES LABELS "regression;cli" TIMEOUT 60)
# GGL at tight tolerances: IDA's own first step (about 1e-15 at rest) failed the index-2 Newton
# iteration at t0 from rtol 1e-11 on; the positions' Taylor step starts it (src/multibody)
foreach(case double_pendulum slider_crank)
  sk_cli_test(mechanism_ggl_tight_${case} 0 "formulation ggl, engine ida-bdf, rtol 1.0e-12" complete
    run ${SK_DATA}/mechanism_${case}.yaml --set multibody.formulation=ggl --set solver.rtol=1e-12
    --set solver.atol=1e-14 --set output.dir=. --set output.prefix=tight)
endforeach()

# the keys' earlier prefix (mbs.*) reads as multibody.*, in a file and on the command line
sk_cli_test(multibody_retired_keys_file 0 "formulation index1" complete
  run ${CMAKE_CURRENT_SOURCE_DIR}/data/multibody/retired_keys.yaml)
sk_cli_test(multibody_retired_keys_set 0 "formulation index1" complete
  run ${SK_DATA}/mechanism_pendulum.yaml --set mbs.formulation=index1 --set solver.t_end=0.5)
# a sweep over a retired key: both cases run, each with the value it was given as multibody.*
add_test(NAME cli_multibody_retired_keys_sweep COMMAND bash -c
  "set -e; d=$(mktemp -d); trap 'rm -rf $d' EXIT; cd $d; $<TARGET_FILE:stiffkit_cli> sweep ${CMAKE_CURRENT_SOURCE_DIR}/data/multibody/retired_keys_sweep.yaml 2> err.txt; grep -q '2/2 done (0 failed)' err.txt; grep -q '^    multibody.baumgarte.alpha: 1$' retired_sweep/cases/0000/pendulum.provenance.yaml; grep -q '^    multibody.baumgarte.alpha: 2$' retired_sweep/cases/0001/pendulum.provenance.yaml")
set_tests_properties(cli_multibody_retired_keys_sweep PROPERTIES LABELS "cli;regression" TIMEOUT 120)
sk_cli_test(multibody_retired_duplicate 65 "duplicate key 'mbs.formulation' (first given at line 6" none
  run ${SK_BAD}/multibody_retired_duplicate.yaml)
sk_cli_test(multibody_retired_duplicate_sweep 65 "duplicate parameter 'multibody.baumgarte.alpha'" none
  sweep ${SK_BAD}/sweep/retired_duplicate.yaml)

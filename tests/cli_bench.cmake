# tests/cli_bench.cmake: `stiffkit bench`: errors and convergence orders against independent computations, the computed reference, external results, failures recorded, bad input, Ctrl-C
set(SK_BENCH_ENV "STIFFKIT=$<TARGET_FILE:stiffkit_cli>")
# tools/bench_test.py: the cases and what each checks against are described there
foreach(case exact file run plugin computed)
  add_test(NAME cli_bench_${case} COMMAND /usr/bin/python3
    ${CMAKE_CURRENT_SOURCE_DIR}/tools/bench_test.py ${case})
  set_tests_properties(cli_bench_${case} PROPERTIES LABELS "regression;cli" TIMEOUT 300
    ENVIRONMENT "${SK_BENCH_ENV};SK_TEST_PLUGIN=$<TARGET_FILE:inhouse_rk2>")
endforeach()
# bad input: exit 65, located, nothing written
sk_cli_test(bench_unknown_stepper 65
  "bench_unknown_stepper.yaml:6:12: bench.methods: unknown stepper 'rk99'" none
  bench ${SK_BAD}/bench_unknown_stepper.yaml)
sk_cli_test(bench_unknown_stepper_lists 65
  "the registered stepper types: cvode-bdf, cvode-adams, euler, rk4, rk45, ab2, beuler, trap" none
  bench ${SK_BAD}/bench_unknown_stepper.yaml)
sk_cli_test(bench_unknown_stepper_set 65 "--set bench.methods: unknown stepper 'rk99'" none
  bench ${SK_DATA}/bench_heat1d.yaml --set bench.methods=rk4,rk99)
sk_cli_test(bench_external_shape 65
  "bench_bad_external.csv:3: row 2 has 4 fields"
  none bench ${SK_DATA}/bench_heat1d.yaml --set model.n=[3] --set bench.methods=cvode-bdf
  --set bench.external=${SK_BAD}/bench_bad_external.csv)
sk_cli_test(bench_stepper_field 65 "bench.stepper.rk4.stepz: unknown stepper setting 'stepz'" none
  bench ${SK_DATA}/bench_heat1d.yaml --set bench.stepper.rk4.stepz=[1e-3])
sk_cli_test(bench_fixed_without_steps 65 "rk4 is a fixed-step stepper and its step ladder is empty" none
  bench ${SK_DATA}/bench_heat1d.yaml --set bench.methods=rk4 --set bench.steps=)
sk_cli_test(bench_no_config 64 "bench needs a CONFIG.yaml" none bench)
# the keys are listed, and a config with a bench section runs with `stiffkit run`
sk_cli_test(bench_help_options 0 "bench.reference_rtol" none bench --help-options)
sk_cli_test(bench_config_runs 0 "integrated t = 0.000000e+00 -> 1.000000e-01" complete
  run ${SK_DATA}/bench_heat1d.yaml)
# the README's example: every output (the HDF5 table too), the failed rungs (h = 5e-4 is unstable for euler and rk4)
# recorded while the study goes on, the side-by-side report
add_test(NAME cli_bench_example COMMAND bash -c
  "set -e; d=$(mktemp -d); trap 'rm -rf $d' EXIT; cd $d; \"$STIFFKIT\" bench \"$CFG\" --out h1 --set bench.repeats=1 --set bench.hdf5=true > out.txt 2> err.txt; \
   cat out.txt err.txt; test -s h1.bench.csv; test -s h1.bench.json; head -c 4 h1.bench.h5 | od -An -c | grep -q 'H   D   F'; h5dump -a format h1.bench.h5 | grep -q 'stiffkit-bench/1'; grep -q '^status: complete' h1.bench.provenance.yaml; \
   grep -q '^euler,h,5.0000000000e-04,nan,failed,' h1.bench.csv; grep -q '^rk4,h,5.0000000000e-04,nan,failed,' h1.bench.csv; \
   grep -q 'side by side at error <=' out.txt; ! ls | grep -q tmp; \
   if /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then head -c 8 h1.bench.png | od -An -c | grep -q 'P   N   G'; else grep -q 'no PNG written' err.txt; fi")
set_tests_properties(cli_bench_example PROPERTIES LABELS "regression;cli" TIMEOUT 300
  ENVIRONMENT "${SK_BENCH_ENV};CFG=${SK_DATA}/bench_heat1d.yaml")
# SIGINT during the study: exit 75, the complete points kept (CSV rows, sidecar status interrupted)
add_test(NAME cli_bench_interrupt COMMAND bash -c
  "d=$(mktemp -d); trap 'rm -rf $d' EXIT; cd $d; \
   \"$STIFFKIT\" bench \"$CFG\" --out s --set bench.methods=rk4 --set bench.repeats=200 > out.txt 2> err.txt & pid=$!; \
   for i in $(seq 600); do grep -q 'bench: \\[1/' err.txt && break; sleep 0.1; done; kill -INT $pid; wait $pid; rc=$?; cat err.txt; \
   test $rc -eq 75 || { echo \"exit $rc, expected 75\"; exit 1; }; grep -q 'interrupted by SIGINT' err.txt; \
   grep -q '^status: interrupted' s.bench.provenance.yaml; n=$(grep -c '^rk4,' s.bench.csv); test $n -ge 1 && test $n -lt 4; \
   ! ls | grep -q tmp")
set_tests_properties(cli_bench_interrupt PROPERTIES LABELS "regression;cli" TIMEOUT 300
  ENVIRONMENT "${SK_BENCH_ENV};CFG=${SK_DATA}/bench_heat1d.yaml")
# a base solver.fixed_step belongs to the fixed-step rows: the cvode-bdf rows and the computed
# reference (an engine that always adapts refuses a fixed step) run with their tolerances
sk_cli_test(bench_base_fixed_step 0 "wrote ./bench_heat1d.bench.csv" complete
  bench ${SK_DATA}/bench_heat1d.yaml --set solver.fixed_step=1e-4 --set bench.plot=false
  --set bench.methods=cvode-bdf,rk4 --set bench.rtols=[1e-4] --set bench.steps=[2e-4]
  --set bench.repeats=1 --set bench.reference=computed)

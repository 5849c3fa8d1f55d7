# tests/cli_sweep.cmake: parameter sweeps and collect through the CLI: bad sweep files (located message, exit code, nothing written) and the scenarios of tests/tools/sweep_test.sh
set(SK_SWEEP_BAD ${CMAKE_CURRENT_SOURCE_DIR}/bad_input/sweep)

# --- bad sweep files: located message, exit code, no sweep directory left -------
# (a pattern cannot hold the ';' between the located key and the nearest key: two tests)
sk_cli_test(sweep_unknown_key 65 "unknown_key.yaml:5:3: unknown key 'solver.rtoll'" none
  sweep ${SK_SWEEP_BAD}/unknown_key.yaml)
sk_cli_test(sweep_unknown_key_nearest 65 "did you mean 'solver.rtol'? valid keys in 'solver'" none
  sweep ${SK_SWEEP_BAD}/unknown_key.yaml)
sk_cli_test(sweep_empty_range 65
  "empty_range.yaml:4:36: parameter 'model.k0': empty range (num: 0)" none
  sweep ${SK_SWEEP_BAD}/empty_range.yaml)
sk_cli_test(sweep_empty_list 65 "empty_list.yaml:4:16: parameter 'solver.rtol': empty list" none
  sweep ${SK_SWEEP_BAD}/empty_list.yaml)
sk_cli_test(sweep_bad_value 65
  "bad_value.yaml:4:25: solver.rtol: expected a real number in [0, 1], got '2'" none
  sweep ${SK_SWEEP_BAD}/bad_value.yaml)
sk_cli_test(sweep_bad_linsol 65
  "bad_linsol.yaml:4:22: linsol.type: unknown linear solver 'kluu'" none
  sweep ${SK_SWEEP_BAD}/bad_linsol.yaml)
sk_cli_test(sweep_bad_method 65
  "bad_method.yaml:4:30: solver.method: unknown solver 'cvode-bdff'" none
  sweep ${SK_SWEEP_BAD}/bad_method.yaml)
sk_cli_test(sweep_zip_lengths 65 "zip needs parameters of equal length: 'model.k0' has 3 values" none
  sweep ${SK_SWEEP_BAD}/zip_lengths.yaml)
sk_cli_test(sweep_duplicate_set 65
  "duplicate_set.yaml:5:3: set: 'solver.rtol' is given twice (first at ${SK_SWEEP_BAD}/duplicate_set.yaml:4:12)"
  none sweep ${SK_SWEEP_BAD}/duplicate_set.yaml)
sk_cli_test(sweep_missing_file 66 "cannot open" none sweep does_not_exist.yaml)
sk_cli_test(sweep_usage 64 "no sweep file given" none sweep -j 2)
sk_cli_test(collect_no_sweep 66 "holds no sweep" none collect .)

# --- scenarios: pool, resubmission, failures, refusal, Slurm script, no sbatch, interruption,
# stale `running` statuses, requeue only on progress, another working directory, plugin
# parameters (the rod_model plugin and the slow test plugin of tests/cli_plugin.cmake, whose
# right-hand side sleeps: cases of a known wall time) --
foreach(s local failed refuse slurm nosbatch interrupt stale requeue cwd plugin)
  add_test(NAME cli_sweep_${s} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tools/sweep_test.sh ${s})
  set_tests_properties(cli_sweep_${s} PROPERTIES LABELS "regression;cli" TIMEOUT 300
    ENVIRONMENT "STIFFKIT=$<TARGET_FILE:stiffkit_cli>;SK_DATA=${SK_DATA};ROD_PLUGIN=$<TARGET_FILE:rod_model>;SLOW_PLUGIN=$<TARGET_FILE:sk_test_plugin_slow_model>")
endforeach()

# --- the examples in data/sweeps: every case's config resolves; the CSV example runs ----------
add_test(NAME cli_sweep_examples COMMAND bash -c
  "d=$(mktemp -d) && cd $d && ln -s ${SK_DATA} data && ok=1 && for f in heat_tol heat_lhs heat_cases; do $<TARGET_FILE:stiffkit_cli> sweep data/sweeps/$f.yaml --list > $f.txt 2>&1 || ok=0; done; test $(wc -l < heat_lhs.txt) -eq 9 || ok=0; $<TARGET_FILE:stiffkit_cli> sweep data/sweeps/heat_cases.yaml -j 2 > run.txt 2>&1 && $<TARGET_FILE:stiffkit_cli> collect heat-cases >> run.txt 2>&1 || ok=0; cat *.txt; rm -rf $d; test $ok -eq 1")
set_tests_properties(cli_sweep_examples PROPERTIES LABELS "regression;cli" TIMEOUT 300)

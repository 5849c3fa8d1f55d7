# tests/cli_verify.cmake: `stiffkit verify`: passing reports, a caught failure, the JSON report, the calibration of the digits it vouches for, bad input
# (included after cli.cmake: sk_cli_test, SK_DATA and SK_BAD come from there)
set(SK_VERIFY_REPORT ${CMAKE_CURRENT_SOURCE_DIR}/tools/verify_report_test.sh)

# sk_verify_report_test(name CODE PATTERN RESULT args...): exit code, text, JSON, nothing else left
function(sk_verify_report_test name code pattern result)
  add_test(NAME cli_${name} COMMAND bash ${SK_VERIFY_REPORT} ${code} ${pattern} ${result} -- ${ARGN})
  set_tests_properties(cli_${name} PROPERTIES LABELS "regression;cli" TIMEOUT 300
    ENVIRONMENT "STIFFKIT=$<TARGET_FILE:stiffkit_cli>")
endfunction()

# --- passing reports (exit 0, no result files) -------------------------------
sk_cli_test(verify_heat2d_true_error 0 "true error of the production answer" none
  verify ${SK_DATA}/heat2d.yaml --set model.n=[20])
sk_cli_test(verify_heat2d_jacobian 0 "||J - J_fd||_F / ||J||_F" none
  verify ${SK_DATA}/heat2d.yaml --set model.n=[20])
sk_cli_test(verify_heat2d_pass 0 "result: PASS" none
  verify ${SK_DATA}/heat2d.yaml --set model.n=[20])
sk_cli_test(verify_heat2d_semidiscrete 0 "is within a factor 10 of it" none
  verify ${SK_DATA}/heat2d.yaml --set model.n=[20] --set model.semidiscrete=true)
# a spatial error that swamps the time error: the diffusion model's exact solution of the
# discretized system is offered (the hint names the key)
sk_cli_test(verify_heat2d_spatial_hint 0 "model.semidiscrete=true compares with the exact" none
  verify ${SK_DATA}/heat2d.yaml --set model.n=[10] --set solver.rtol=1e-8 --set solver.atol=1e-12)
sk_cli_test(verify_brusselator_reference 0 "They agree (within 10x)" none
  verify ${SK_DATA}/brusselator.yaml --set model.n=[12])
sk_cli_test(verify_brusselator_no_exact 0 "the model has no exact solution" none
  verify ${SK_DATA}/brusselator.yaml --set model.n=[12])
sk_cli_test(verify_no_invariants 0 "no invariants provided by the model" none
  verify ${SK_DATA}/brusselator.yaml --set model.n=[12])

# --- the JSON report parses; a failing check gives exit 11 -------------------
sk_verify_report_test(verify_report_json 0 "result: PASS" pass
  ${SK_DATA}/heat2d.yaml --set model.n=[20])
sk_verify_report_test(verify_report_json_brusselator 0 "They agree (within 10x)" pass
  ${SK_DATA}/brusselator.yaml --set model.n=[12])
sk_verify_report_test(verify_fixed_step_disagrees 11 "They DISAGREE (more than 10x)" fail
  ${SK_DATA}/heat2d.yaml --set model.n=[10] --set linsol.type=auto
  --set linsol.preconditioner=auto --set solver.method=trap --set solver.fixed_step=5e-3)

# --- bad input: exit code, message, nothing left behind ---------------------
sk_cli_test(verify_missing_config 66 "cannot open config file" none
  verify ${SK_BAD}/does_not_exist.yaml)
sk_cli_test(verify_unknown_key 65 "did you mean 'solver.rtol'" none
  verify ${SK_BAD}/unknown_key.yaml)
sk_cli_test(verify_unknown_key_set 65 "unknown key 'solver.rtoll'" none
  verify ${SK_DATA}/heat2d.yaml --set solver.rtoll=1e-6)
sk_cli_test(verify_malformed_yaml 65 "malformed.yaml:3:7: YAML syntax error" none
  verify ${SK_BAD}/malformed.yaml)
sk_cli_test(verify_no_config 64 "verify needs a config file" none verify)
sk_cli_test(verify_usage_unknown_flag 64 "unknown option '--bogus'" none
  verify ${SK_DATA}/heat2d.yaml --bogus)
sk_cli_test(verify_report_without_value 64 "--report needs a value" none
  verify ${SK_DATA}/heat2d.yaml --report)
sk_cli_test(verify_numerical_failure 10 "step budget of 5 steps exhausted" none
  verify --quiet ${SK_DATA}/heat2d.yaml --set model.n=[20] --set solver.max_steps=5)

# --- calibration: the digits vouched never exceed the true digits (exact solutions,
#     rtol 1e-3..1e-10, every output time; tests/tools/verify_calibration.sh)
add_test(NAME cli_verify_calibration
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tools/verify_calibration.sh)
set_tests_properties(cli_verify_calibration PROPERTIES LABELS "regression;cli" TIMEOUT 900
  ENVIRONMENT "STIFFKIT=$<TARGET_FILE:stiffkit_cli>;SK_DATA=${SK_DATA};SLOW_MODEL=$<TARGET_FILE:sk_test_plugin_slow_model>")

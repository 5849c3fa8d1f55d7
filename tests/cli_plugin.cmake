# tests/cli_plugin.cmake: plugin shared objects: the example stepper and model plugins through the CLI and the conformance battery, the Jacobian self-test on a defective model, sk_stepper_reinit over plugin types, and plugins that must be refused
# sk_plugin_module(name source): a loadable module (no "lib" prefix), built
# with the project's flags (the same sanitizers as the host in an ASan build)
function(sk_plugin_module name src)
  add_library(${name} MODULE ${src})
  set_target_properties(${name} PROPERTIES PREFIX "")
  sk_target_options(${name})
  target_link_libraries(${name} PRIVATE stiffkit)
endfunction()
sk_plugin_module(inhouse_rk2 ${PROJECT_SOURCE_DIR}/data/plugins/inhouse_rk2.c)
sk_plugin_module(sk_test_plugin_abi_mismatch ${CMAKE_CURRENT_SOURCE_DIR}/plugins/abi_mismatch.c)
sk_plugin_module(sk_test_plugin_no_register ${CMAKE_CURRENT_SOURCE_DIR}/plugins/no_register.c)
sk_plugin_module(rod_model ${PROJECT_SOURCE_DIR}/data/plugins/rod_model.c)
sk_plugin_module(thomas_solver ${PROJECT_SOURCE_DIR}/data/plugins/thomas_solver.c)
sk_plugin_module(gmres_solver ${PROJECT_SOURCE_DIR}/data/plugins/gmres_solver.c)
target_link_libraries(gmres_solver PRIVATE m)
sk_plugin_module(sk_test_plugin_defective_model ${CMAKE_CURRENT_SOURCE_DIR}/plugins/defective_model.c)
sk_plugin_module(sk_test_plugin_abi1 ${CMAKE_CURRENT_SOURCE_DIR}/plugins/abi1_stepper.c)
sk_plugin_module(sk_test_plugin_abi4_linsol ${CMAKE_CURRENT_SOURCE_DIR}/plugins/abi4_linsol.c)
sk_plugin_module(sk_test_plugin_register_then_fail ${CMAKE_CURRENT_SOURCE_DIR}/plugins/register_then_fail.c)
set_tests_properties(test_plugin_rollback PROPERTIES ENVIRONMENT
  "SK_TEST_PLUGIN_FAIL=$<TARGET_FILE:sk_test_plugin_register_then_fail>")

# --- sk_stepper_reinit over plugin types: one with a reinit op, one built for ABI 1 --
set_tests_properties(test_stepper_reinit PROPERTIES ENVIRONMENT
  "SK_TEST_PLUGIN=$<TARGET_FILE:inhouse_rk2>;SK_TEST_PLUGIN_ABI1=$<TARGET_FILE:sk_test_plugin_abi1>")

# --- the example plugin through `stiffkit run` (2D heat, n = 100, exact solution) --
sk_cli_test(plugin_inhouse_rk2 0 "error against the exact solution" complete
  run --set solver.plugin=$<TARGET_FILE:inhouse_rk2> --set solver.method=inhouse-rk2
  --set solver.fixed_step=1e-4 --set model.n=[10])
# a list with blanks, the same plugin twice (loaded once)
sk_cli_test(plugin_list 0 "solver inhouse-rk2" complete
  run --set "solver.plugin= $<TARGET_FILE:inhouse_rk2> , $<TARGET_FILE:inhouse_rk2>"
  --set solver.method=inhouse-rk2 --set solver.fixed_step=1e-4 --set model.n=[10])

# --- the conformance battery over the plugin's stepper --------------------
add_test(NAME test_conformance_plugin COMMAND test_conformance)
set_tests_properties(test_conformance_plugin PROPERTIES LABELS "conformance" TIMEOUT 300
  ENVIRONMENT "SK_TEST_PLUGIN=$<TARGET_FILE:inhouse_rk2>")

# --- plugins that must be refused: exit code, message, nothing left -------
sk_cli_test(plugin_missing 66 "--set: solver.plugin: '/nonexistent/inhouse_rk2.so': no such file" none
  run --set solver.plugin=/nonexistent/inhouse_rk2.so --set solver.method=inhouse-rk2)
sk_cli_test(plugin_not_shared_object 65 "invalid ELF header" none
  run --set solver.plugin=${PROJECT_SOURCE_DIR}/data/heat2d.yaml --set solver.method=inhouse-rk2)
sk_cli_test(plugin_without_register 65 "exports neither 'sk_plugin_register' (stepper types) nor 'sk_plugin_create_model'" none
  run --set solver.plugin=$<TARGET_FILE:sk_test_plugin_no_register> --set solver.method=inhouse-rk2)
sk_cli_test(plugin_abi_mismatch 65 "was built for stiffkit plugin ABI 999, this is ABI 5 (it loads plugins of ABI 1 to 5): rebuild it" none
  run --set solver.plugin=$<TARGET_FILE:sk_test_plugin_abi_mismatch> --set solver.method=inhouse-rk2)
sk_cli_test(plugin_fixed_step_missing 65 "invalid input data" none
  run --set solver.plugin=$<TARGET_FILE:inhouse_rk2> --set solver.method=inhouse-rk2)

# --- the example model plugin (data/plugins/rod_model.c) through `stiffkit run` --
# expected values: the rod's exact semi-discrete solution A sin(pi x_i) exp(-lambda t)
# (an eigenvector of the 3-point Laplacian), which the plugin exposes; rtol 1e-6 bounds
# the time error near 1e-5
set(SK_ROD --set model.plugin=$<TARGET_FILE:rod_model>)
function(sk_error_test name bound)
  add_test(NAME cli_${name} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tools/expect_error_below.sh
    ${bound} ${ARGN})
  set_tests_properties(cli_${name} PROPERTIES LABELS "regression;cli" TIMEOUT 300
    ENVIRONMENT "STIFFKIT=$<TARGET_FILE:stiffkit_cli>")
endfunction()
sk_cli_test(plugin_model_rod 0 "RHS evaluations in difference quotients" complete
  run ${SK_DATA}/plugin_rod.yaml ${SK_ROD})
# the colored FD Jacobian (3 colors) and the plugin's analytic Jacobian (self-tested)
sk_error_test(plugin_model_rod_fd_error 1e-5 ${SK_DATA}/plugin_rod.yaml ${SK_ROD})
sk_error_test(plugin_model_rod_analytic_error 1e-5 ${SK_DATA}/plugin_rod.yaml ${SK_ROD}
  --set model.parameters.analytic_jacobian=true)
# parameters from --set reach the plugin (n = 50 nodes: 50 columns of output states)
sk_cli_test(plugin_model_parameters 0 "n = 50," none
  run ${SK_DATA}/plugin_rod.yaml ${SK_ROD} --set model.parameters.n=50
  --set output.csv=false --set output.hdf5=false)
# the nonlinear rod (radiating sink, no exact solution) cross-checked by `verify`
sk_cli_test(plugin_model_verify 0 "result: PASS" none
  verify ${SK_DATA}/plugin_rod.yaml ${SK_ROD} --set model.parameters.sigma=1
  --set model.parameters.n=40 --set model.parameters.analytic_jacobian=true)
# the plugin's parameters (sk_model_add_param with an analytic df/dp): du/dkappa against the
# closed form of the linear rod, and `verify`'s central differences on the nonlinear one
add_test(NAME cli_plugin_model_sensitivity
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tools/check_plugin_sens.sh $<TARGET_FILE:stiffkit_cli>
          ${SK_DATA} $<TARGET_FILE:rod_model>)
set_tests_properties(cli_plugin_model_sensitivity PROPERTIES LABELS "regression;cli" TIMEOUT 300)
sk_cli_test(plugin_model_sens_verify 0 "forward sensitivities: pass" none
  verify ${SK_DATA}/plugin_rod.yaml ${SK_ROD} --set model.parameters.sigma=1
  --set model.parameters.n=40 --set "solver.sensitivity.parameters=kappa, sigma")

# --- model plugins that must be refused ---------------------------------------
sk_cli_test(plugin_model_unknown_parameter 65
  "did you mean 'model.parameters.kappa'" none
  run ${SK_DATA}/plugin_rod.yaml ${SK_ROD} --set model.parameters.kapa=2)
sk_cli_test(plugin_model_bad_parameter 65
  "plugin_bad_parameter.yaml:6:12: model.parameters.kappa: expected a real number in [0, 1e+12]" none
  run ${SK_BAD}/plugin_bad_parameter.yaml ${SK_ROD})
sk_cli_test(plugin_model_parameters_without_plugin 65 "unknown key 'model.parameters.kappa'" none
  run --set model.parameters.kappa=2)
sk_cli_test(plugin_model_path_missing 65 "model.type = plugin needs model.plugin" none
  run --set model.type=plugin)
sk_cli_test(plugin_model_file_missing 66 "--set: model.plugin: '/nonexistent/rod_model.so': no such file" none
  run --set model.type=plugin --set model.plugin=/nonexistent/rod_model.so)
sk_cli_test(plugin_model_no_create 65 "does not export the symbol 'sk_plugin_create_model'" none
  run --set model.type=plugin --set model.plugin=$<TARGET_FILE:inhouse_rk2>)
sk_cli_test(plugin_model_abi_mismatch 65 "was built for stiffkit plugin ABI 999, this is ABI 5" none
  run --set model.type=plugin --set model.plugin=$<TARGET_FILE:sk_test_plugin_abi_mismatch>)

# --- the Jacobian self-test on a model with deliberate defects ----------------
set(SK_DEFECTIVE --set model.type=plugin --set model.plugin=$<TARGET_FILE:sk_test_plugin_defective_model>
  --set solver.t_end=2)
sk_cli_test(selftest_sound_model 0 "statistics" complete run ${SK_DEFECTIVE})
sk_cli_test(selftest_wrong_entry 65
  "worst entries: (row 3 y[3], column 3 y[3]): analytic -8, FD -4. Fix the Jacobian" none
  run ${SK_DEFECTIVE} --set model.parameters.defect=wrong-entry)
sk_cli_test(selftest_outside_pattern 65
  "worst entries: (row 0 y[0], column 7 y[7]): analytic 0, FD 0.5 (outside the declared pattern). Fix" none
  run ${SK_DEFECTIVE} --set model.parameters.defect=outside-pattern)
# wrong only away from the initial state: caught at a later state, by CVODE and a reference stepper
sk_cli_test(selftest_later_state_cvode 65 "(row 5 y[5], column 5 y[5]): analytic -12, FD -6" partial
  run ${SK_DEFECTIVE} --set model.parameters.defect=late)
sk_cli_test(selftest_later_state_bdf2 65 "(row 5 y[5], column 5 y[5]): analytic -12, FD -6" partial
  run ${SK_DEFECTIVE} --set model.parameters.defect=late --set solver.method=bdf2)
# told to run anyway
sk_cli_test(selftest_off 0 "statistics" complete
  run ${SK_DEFECTIVE} --set model.parameters.defect=wrong-entry --set solver.check_jacobian=false)
# the model's J v for the Krylov path: sound (used by SPGMR), and wrong (refused before the run)
sk_cli_test(selftest_jtimes_sound 0 "linear solver spgmr" complete
  run ${SK_DEFECTIVE} --set linsol.type=spgmr --set linsol.preconditioner=none)
sk_cli_test(selftest_jtimes_wrong 65
  "Jacobian-vector product self-test failed at t=0.000000e+00" none
  run ${SK_DEFECTIVE} --set linsol.type=spgmr --set linsol.preconditioner=none
  --set model.parameters.defect=wrong-jtimes)
# f alone: the pattern is detected by probing (tridiagonal: 3 n - 2 = 598 entries), with the warning
sk_cli_test(plugin_model_detected_pattern 0 "Jacobian pattern detected by probing the right-hand side (598 entries" none
  run ${SK_DATA}/plugin_rod.yaml ${SK_ROD} --set model.parameters.pattern=false
  --set output.csv=false --set output.hdf5=false)
sk_error_test(plugin_model_detected_pattern_error 1e-5 ${SK_DATA}/plugin_rod.yaml ${SK_ROD}
  --set model.parameters.pattern=false)
# a plugin's own error message reaches the user
sk_cli_test(plugin_model_own_error 65 "sk_plugin_create_model failed: model.parameters.analytic_jacobian needs model.parameters.pattern" none
  run ${SK_DATA}/plugin_rod.yaml ${SK_ROD} --set model.parameters.pattern=false
  --set model.parameters.analytic_jacobian=true)

# --- a model whose right-hand side sleeps: runs of a known wall time for the
#     signal campaign and the batch-scheduler test
sk_plugin_module(sk_test_plugin_slow_model ${CMAKE_CURRENT_SOURCE_DIR}/plugins/slow_model.c)

# --- a real single-node Slurm on localhost (tests/tools/slurm_test.sh): a sweep as a job
#     array, then a time-limit USR1 that checkpoints, requeues and resumes bitwise. Exit 77
#     (no Slurm, not root, the cluster does not start) reports the test skipped, not passed.
add_test(NAME slurm_sweep_and_requeue COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tools/slurm_test.sh)
set_tests_properties(slurm_sweep_and_requeue PROPERTIES LABELS "slurm" TIMEOUT 600
  SKIP_RETURN_CODE 77
  ENVIRONMENT "STIFFKIT=$<TARGET_FILE:stiffkit_cli>;SK_SOURCE_DIR=${PROJECT_SOURCE_DIR};SK_SLOW_PLUGIN=$<TARGET_FILE:sk_test_plugin_slow_model>")
# the signal campaign: SIGTERM and SIGKILL at random times (inside checkpoint
# writes too), restarts compared with the exact solution and the uninterrupted
# runs, refused checkpoints (tests/tools/signal_campaign.sh; the seed is printed)
add_test(NAME cli_signal_campaign COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tools/signal_campaign.sh)
set_tests_properties(cli_signal_campaign PROPERTIES LABELS "regression;cli;signal" TIMEOUT 900
  ENVIRONMENT "STIFFKIT=$<TARGET_FILE:stiffkit_cli>;SLOW_MODEL=$<TARGET_FILE:sk_test_plugin_slow_model>;SK_DATA=${SK_DATA}")

# --- a plugin type's own key (plugin ABI 4): solver.inhouse_rk2.alpha ------------
add_test(NAME cli_plugin_own_key_order COMMAND bash
  ${CMAKE_CURRENT_SOURCE_DIR}/tools/plugin_key_order.sh $<TARGET_FILE:inhouse_rk2>)
set_tests_properties(cli_plugin_own_key_order PROPERTIES LABELS "regression;cli" TIMEOUT 300
  ENVIRONMENT "STIFFKIT=$<TARGET_FILE:stiffkit_cli>")
# its range, and a typo under solver.*, are refused with the place named
sk_cli_test(plugin_own_key_range 65 "solver.inhouse_rk2.alpha" none
  run --set solver.plugin=$<TARGET_FILE:inhouse_rk2> --set solver.method=inhouse-rk2
  --set solver.fixed_step=1e-4 --set solver.inhouse_rk2.alpha=2)
sk_cli_test(plugin_own_key_typo 65 "solver.inhouse_rk2.alfa" none
  run --set solver.plugin=$<TARGET_FILE:inhouse_rk2> --set solver.method=inhouse-rk2
  --set solver.fixed_step=1e-4 --set solver.inhouse_rk2.alfa=1)
# another method does not take the plugin type's key
sk_cli_test(plugin_own_key_other_method 65 "a key of the stepper types inhouse-rk2 only, solver.method = rk4 does not take it" none
  run --set solver.plugin=$<TARGET_FILE:inhouse_rk2> --set solver.method=rk4
  --set solver.fixed_step=1e-4 --set solver.inhouse_rk2.alpha=1)
# a typo of a built-in solver key is still refused (deferred, then checked once the plugins load)
sk_cli_test(solver_key_typo 65 "solver.rtoll" none
  run --set solver.rtoll=1e-6)

# --- the example linear solver plugin (data/plugins/thomas_solver.c): linsol.type = thomas --
# on 1D heat (tridiagonal I - gamma J) CVODE takes the steps KLU takes (32 steps, 47 Newton
# iterations, the same error against the exact solution: an exact solver of the same
# systems), the steady solve converges; a 2D grid is refused by the type's create
set(SK_THOMAS --set solver.plugin=$<TARGET_FILE:thomas_solver> --set linsol.type=thomas
  --set model.dim=1 --set model.n=[200])
sk_cli_test(plugin_linsol_thomas 0 "linear solver thomas, preconditioner none" complete
  run ${SK_THOMAS})
sk_cli_test(plugin_linsol_thomas_steady 0 "converged: max |f_scale f|" complete
  steady ${SK_THOMAS})
sk_cli_test(plugin_linsol_thomas_2d 65 "linear solver 'thomas': create failed for model 'diffusion-2d' (SK_ERR_UNSUPPORTED" none
  run --set solver.plugin=$<TARGET_FILE:thomas_solver> --set linsol.type=thomas)
sk_cli_test(plugin_linsol_thomas_reference 65 "stepper 'bdf2' solves its Newton systems with KLU only" none
  run ${SK_THOMAS} --set solver.method=bdf2)
# the same steps, Newton iterations and factorizations as KLU, the answer within 1e-9
add_test(NAME cli_plugin_linsol_thomas_vs_klu COMMAND bash
  ${CMAKE_CURRENT_SOURCE_DIR}/tools/linsol_plugin_test.sh $<TARGET_FILE:thomas_solver> $<TARGET_FILE:numdiff>
  thomas klu 1e-9 1e-15 "steps|nonlinear iterations|matrix factorizations"
  --set model.dim=1 --set model.n=[200])
set_tests_properties(cli_plugin_linsol_thomas_vs_klu PROPERTIES LABELS "regression;cli" TIMEOUT 300
  ENVIRONMENT "STIFFKIT=$<TARGET_FILE:stiffkit_cli>")

# a linear solver plugin built for ABI 4 (its table ends at destroy, before kind and iterate)
# is a direct type: it takes KLU's steps (both factor the same matrices exactly) and nothing
# past its table is read (an ASan build would report a global-buffer-overflow)
add_test(NAME cli_plugin_linsol_abi4_vs_klu COMMAND bash
  ${CMAKE_CURRENT_SOURCE_DIR}/tools/linsol_plugin_test.sh $<TARGET_FILE:sk_test_plugin_abi4_linsol>
  $<TARGET_FILE:numdiff> abi4-lu klu 1e-9 1e-15 "steps|nonlinear iterations|matrix factorizations"
  --set model.dim=1 --set model.n=[60])
set_tests_properties(cli_plugin_linsol_abi4_vs_klu PROPERTIES LABELS "regression;cli" TIMEOUT 300
  ENVIRONMENT "STIFFKIT=$<TARGET_FILE:stiffkit_cli>")

# --- the example iterative linear solver plugin (data/plugins/gmres_solver.c): linsol.type =
# gmres, handed the engine's products, the model's preconditioner and its weights
set(SK_GMRES --set solver.plugin=$<TARGET_FILE:gmres_solver> --set linsol.type=gmres)
sk_cli_test(plugin_linsol_gmres 0 "linear solver gmres, preconditioner model" complete
  run ${SK_GMRES} --set linsol.preconditioner=model)
sk_cli_test(plugin_linsol_gmres_steady 0 "converged: max |f_scale f|" complete
  steady ${SK_GMRES})
# a Krylov space too small for every solve to converge: the solves that only reduce the
# residual are accepted as SPGMR's are (the steady solve converges, as with spgmr)
sk_cli_test(plugin_linsol_gmres_steady_reduced 0 "converged: max |f_scale f|" complete
  steady ${SK_DATA}/steady_heat2d.yaml ${SK_GMRES} --set linsol.maxl=40 --set steady.max_restarts=0)
sk_cli_test(plugin_linsol_gmres_ida 0 "solver ida-bdf, linear solver gmres" complete
  run ${SK_GMRES} --set solver.method=ida-bdf --set model.n=[30])
sk_cli_test(plugin_linsol_gmres_reference 65 "stepper 'bdf2' solves its Newton systems with KLU only" none
  run ${SK_GMRES} --set solver.method=bdf2)
# GMRES minimizes what SPGMR minimizes over the same Krylov space (left-preconditioned
# for CVODE): on 2D heat with the ADI preconditioner measured 40 steps and 59 Newton
# iterations each (87 and 88 linear iterations), the states within 2e-9 of each other
# (the run's error against the exact solution is 1.6e-4)
add_test(NAME cli_plugin_linsol_gmres_vs_spgmr COMMAND bash
  ${CMAKE_CURRENT_SOURCE_DIR}/tools/linsol_plugin_test.sh $<TARGET_FILE:gmres_solver> $<TARGET_FILE:numdiff>
  gmres spgmr 1e-6 1e-8 "steps|nonlinear iterations" --set linsol.preconditioner=model)
set_tests_properties(cli_plugin_linsol_gmres_vs_spgmr PROPERTIES LABELS "regression;cli" TIMEOUT 300
  ENVIRONMENT "STIFFKIT=$<TARGET_FILE:stiffkit_cli>")

# --- a sweep over two builds of one stepper plugin: each case's run checks its own plugin's
# names (checked together in the sweep's process, the second build's type would clash)
add_test(NAME cli_sweep_two_builds_of_a_plugin COMMAND bash -c
  "d=$(mktemp -d) && trap 'rm -rf $d' EXIT && cp $<TARGET_FILE:inhouse_rk2> $d/a.so && cp $<TARGET_FILE:inhouse_rk2> $d/b.so && printf 'output: out\\nset: {model.n: [10], solver.t_end: 0.01, solver.method: inhouse-rk2, solver.fixed_step: 1.0e-4}\\nparameters:\\n  solver.plugin: [%s, %s]\\n' $d/a.so $d/b.so > $d/s.yaml && cd $d && $<TARGET_FILE:stiffkit_cli> sweep s.yaml -j 1 && test $(ls out/cases | wc -l) = 2")
set_tests_properties(cli_sweep_two_builds_of_a_plugin PROPERTIES LABELS "regression;cli" TIMEOUT 300)

# tests/cli.cmake: CLI runs: bad input (message, exit code, nothing left behind), good runs, numeric regressions
add_executable(numdiff tools/numdiff.c)
sk_target_options(numdiff)
target_link_libraries(numdiff PRIVATE ${SK_MATH_LIB})

set(SK_EXPECT ${CMAKE_CURRENT_SOURCE_DIR}/tools/expect_cli.sh)
set(SK_BAD ${CMAKE_CURRENT_SOURCE_DIR}/bad_input)
set(SK_DATA ${PROJECT_SOURCE_DIR}/data)

# sk_cli_test(name CODE PATTERN LEFTOVER args...)
function(sk_cli_test name code pattern leftover)
  add_test(NAME cli_${name} COMMAND bash ${SK_EXPECT} ${code} ${pattern} ${leftover} -- ${ARGN})
  set_tests_properties(cli_${name} PROPERTIES LABELS "regression;cli" TIMEOUT 300
    ENVIRONMENT "STIFFKIT=$<TARGET_FILE:stiffkit_cli>")
endfunction()

# sk_starts_mpi(test...): these tests' runs start MPI in the process (the hypre module: amg, mg).
# Open MPI's allocations at MPI_Init are suppressed by library (tests/lsan.supp), and MPI_Finalize
# unloads the components that made them; LeakSanitizer's fast unwinder stops at Open MPI's
# frame-pointer-less code, so the stacks would name no library and escape the suppressions
function(sk_starts_mpi)
  if(SK_SANITIZE)
    set_property(TEST ${ARGN} APPEND PROPERTY ENVIRONMENT
      "ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:fast_unwind_on_malloc=0")
  endif()
endfunction()

# --- bad input: exit code, located message, no file left -------------------
sk_cli_test(missing_config 66 "cannot open config file" none run ${SK_BAD}/does_not_exist.yaml)
sk_cli_test(malformed_yaml 65 "malformed.yaml:3:7: YAML syntax error" none run ${SK_BAD}/malformed.yaml)
sk_cli_test(unknown_key 65 "did you mean 'solver.rtol'" none run ${SK_BAD}/unknown_key.yaml)
sk_cli_test(unknown_key_set 65 "unknown key 'solver.rtoll'" none run --set solver.rtoll=1e-6)
# a fixed step given to an engine that always adapts is refused, never silently ignored
sk_cli_test(fixed_step_cvode 65 "solver.fixed_step = 0.01: cvode-bdf chooses its own step sizes"
  none run ${SK_DATA}/rober.yaml --set solver.fixed_step=0.01)
sk_cli_test(fixed_step_ida 65 "solver.fixed_step = 0.001: ida-bdf chooses its own step sizes"
  none run ${SK_DATA}/rober.yaml --set solver.method=ida-bdf --set solver.fixed_step=1e-3)
# a preconditioner that the chosen direct solver does not use is said (the run goes on)
sk_cli_test(unused_preconditioner 0
  "linsol.type = klu takes no preconditioner: linsol.preconditioner = model is not used"
  complete run ${SK_DATA}/heat2d.yaml --set model.n=[10] --set linsol.type=klu)
sk_cli_test(unused_preconditioner_ida 0
  "linsol.type = dense takes no preconditioner: linsol.preconditioner = jacobi is not used"
  complete run ${SK_DATA}/rober.yaml --set solver.method=ida-bdf --set linsol.type=dense
  --set linsol.preconditioner=jacobi --set solver.t_end=1)
# an order limit below a fixed-order method's order is refused; one at its order is accepted
sk_cli_test(max_order_fixed_order 65 "solver.max_order = 3: rk45 has the fixed order 5"
  none run ${SK_DATA}/rober.yaml --set solver.method=rk45 --set solver.max_order=3)
sk_cli_test(max_order_at_order 0 "solver rk45" complete run ${SK_DATA}/rober.yaml --set solver.method=rk45
  --set solver.max_order=5 --set solver.t_end=1e-3)
# linsol.preconditioner=bbd in a serial run: CVBANDPRE over the pattern's bandwidths. Against the
# exact semi-discrete mode exp(-2 lambda t) (model.semidiscrete): BDF's global error at rtol 1e-6
# stays within 100 rtol of max |y| = exp(-2 pi^2 0.1) = 0.139 (the factor of tests/mpi), so < 1.4e-5
add_test(NAME cli_bbd_serial COMMAND bash -c
  "d=$(mktemp -d) && $<TARGET_FILE:stiffkit_cli> run ${SK_DATA}/heat2d.yaml --set model.n=[30] --set model.semidiscrete=true --set linsol.type=spgmr --set linsol.preconditioner=bbd --set output.dir=$d --set output.hdf5=false > $d/out.txt 2>&1 && grep -q 'preconditioner bbd' $d/out.txt && awk '/max [|]y - y_exact[|]/ { e = $NF } END { print \"max error\", e; exit !(e != \"\" && e + 0 < 1.4e-5) }' $d/out.txt; rc=$?; rm -rf $d; exit $rc")
set_tests_properties(cli_bbd_serial PROPERTIES LABELS "regression;cli" TIMEOUT 120)

sk_cli_test(wrong_type 65 "wrong_type.yaml:2:9: solver.rtol: expected a real number" none run ${SK_BAD}/wrong_type.yaml)
sk_cli_test(zero_atol 65 "solver.atol: expected a real number" none run ${SK_BAD}/zero_atol.yaml)
sk_cli_test(negative_rtol 65 "solver.rtol: expected a real number" none run ${SK_BAD}/negative_rtol.yaml)
sk_cli_test(grid_zero 65 "model.n" none run ${SK_BAD}/grid_zero.yaml)
sk_cli_test(grid_huge 65 "exceeds" none run ${SK_BAD}/grid_huge.yaml)
# solver.atol_field with a field the model does not have: the field and the model's fields named
sk_cli_test(atol_field_unknown 65 "solver.atol_field: model 'brusselator-2d' has no field 'w' (its fields: u, v)" none
  run --set model.type=problem --set model.problem=brusselator --set solver.atol_field=w=1e-8)
sk_cli_test(unknown_solver 65 "unknown_solver.yaml:2:11: solver.method: unknown solver 'cvode-rk99'" none run ${SK_BAD}/unknown_solver.yaml)
sk_cli_test(unknown_linsol 65 "linsol.type: unknown linear solver 'superlu'" none run ${SK_BAD}/unknown_linsol.yaml)
sk_cli_test(misfit_preconditioner 65 "provides no preconditioner" none run ${SK_BAD}/misfit_preconditioner.yaml)
sk_cli_test(dense_too_large 65 "linsol.type=dense for n=1000000 needs" none
  run --set linsol.type=dense --set model.n=[1000])
# --set model.dim=1 on a 2D config: the per-direction list that no longer fits is named, with both ways out
sk_cli_test(dim_mismatch 65 "dimension mismatch: model.mode has 2 values, one per direction of a 2-D grid, but model.dim = 1 (a 1-D grid takes 1 value): change model.mode to match, or leave model.dim at 2" none
  run ${SK_DATA}/heat2d.yaml --set model.dim=1)
sk_cli_test(dim_mismatch_n 65 "model.n has 2 values but model.dim = 3 (a 3-D grid takes 1 value for every direction, or 3)" none
  run --set model.dim=3 --set model.n=[4,5])
sk_cli_test(usage_unknown_flag 64 "unknown option '--bogus'" none run --bogus)
sk_cli_test(usage_set_without_value 64 "--set expects key=value" none run --set solver.rtol)
sk_cli_test(output_dir_missing 73 "cannot create output file" none
  run --set output.dir=/nonexistent/stiffkit-out)

# --- numerical failures: exit 10, time/component/cause named, only .partial files --
sk_cli_test(rhs_nan 10 "in component 57 (" partial
  run --quiet --set model.n=[20] --inject nan:comp=57:t=0.03)
sk_cli_test(step_budget 10 "step budget of 5 steps exhausted at t=" partial
  run --quiet --set model.n=[20] --set solver.max_steps=5)
sk_cli_test(step_budget_nonstiff 10 "a stiff problem integrated with an explicit/non-stiff method" partial
  run --quiet --set model.n=[40] --set solver.method=cvode-adams --set solver.max_steps=200)

# --- good runs -----------------------------------------------------------
# an explicit method on a config written for an implicit one: its linsol section is ignored, with a note
sk_cli_test(explicit_ignores_linsol 0 "stepper 'rk4' is explicit and uses no linear solver: linsol.type = spgmr and the other linsol.* settings are ignored" complete
  run ${SK_DATA}/heat2d.yaml --set model.n=[10] --set solver.method=rk4 --set solver.fixed_step=1e-4)
sk_cli_test(explicit_linsol_summary 0 "solver rk4, linear solver none, preconditioner none" complete
  run ${SK_DATA}/heat2d.yaml --set model.n=[10] --set solver.method=rk4 --set solver.fixed_step=1e-4)
# --quiet prints errors only (nothing at all for a clean run), --no-stats drops the statistics table
add_test(NAME cli_quiet_errors_only COMMAND bash -c
  "d=$(mktemp -d) && cd $d && \"$STIFFKIT\" run --quiet --set model.n=[10] --set solver.method=rk4 --set solver.fixed_step=1e-4 --set linsol.type=spgmr > out.txt 2> err.txt; rc=$?; \
   \"$STIFFKIT\" run --no-stats --set model.n=[10] > out2.txt 2>&1; rc2=$?; cat out.txt err.txt out2.txt; \
   ok=0; test $rc -eq 0 -a $rc2 -eq 0 && test ! -s out.txt && test ! -s err.txt && test -s heat2d.csv && \
   grep -q 'error against the exact solution' out2.txt && ! grep -q 'statistics' out2.txt && ! grep -q 'steps  ' out2.txt && ok=1; \
   rm -rf $d; test $ok -eq 1")
set_tests_properties(cli_quiet_errors_only PROPERTIES LABELS "regression;cli" TIMEOUT 120
  ENVIRONMENT "STIFFKIT=$<TARGET_FILE:stiffkit_cli>")
sk_cli_test(embedded_default 0 "error against the exact solution" complete run)
sk_cli_test(heat2d_example 0 "error against the exact solution" complete run ${SK_DATA}/heat2d.yaml)
sk_cli_test(heat3d_robin_example 0 "error against the exact solution" complete run ${SK_DATA}/heat3d_robin.yaml)
sk_cli_test(brusselator_example 0 "statistics" complete run ${SK_DATA}/brusselator.yaml)
sk_cli_test(help_options 0 "solver.rtol" none run --help-options)
sk_cli_test(info 0 "SUNDIALS" none info)

# --- numeric regressions against independent answers (see tests/regression/README.md) --
function(sk_regress_test name config answer rtol atol)
  add_test(NAME regress_${name} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tools/regress.sh
    ${config} ${CMAKE_CURRENT_SOURCE_DIR}/regression/${answer} ${rtol} ${atol} ${ARGN})
  set_tests_properties(regress_${name} PROPERTIES LABELS "regression" TIMEOUT 300
    ENVIRONMENT "STIFFKIT=$<TARGET_FILE:stiffkit_cli>;NUMDIFF=$<TARGET_FILE:numdiff>")
endfunction()
file(GLOB SK_REGRESS_CASES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/regression/*.yaml)
foreach(cfg ${SK_REGRESS_CASES})
  get_filename_component(case ${cfg} NAME_WE)
  file(STRINGS ${cfg} tol_line REGEX "^# tolerance:")
  string(REGEX MATCH "rtol=([^ ]+) atol=([^ ]+)" _ "${tol_line}")
  sk_regress_test(${case} ${cfg} ${case}.csv ${CMAKE_MATCH_1} ${CMAKE_MATCH_2})
endforeach()

add_test(NAME numdiff_detects_difference COMMAND bash -c
  "d=$(mktemp -d); printf 't,y\\n1,2.0\\n' > $d/a; printf 't,y\\n1,2.1\\n' > $d/b; ! $<TARGET_FILE:numdiff> --rtol 1e-3 $d/a $d/b && $<TARGET_FILE:numdiff> --rtol 1e-1 $d/a $d/b")
set_tests_properties(numdiff_detects_difference PROPERTIES LABELS "unit" TIMEOUT 30)

# --- run lifecycle: signals, stale results, stdout errors, stop time -------
foreach(t signal stale)
  add_test(NAME cli_${t} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tools/${t}_test.sh)
  set_tests_properties(cli_${t} PROPERTIES LABELS "regression;cli" TIMEOUT 300
    ENVIRONMENT "STIFFKIT=$<TARGET_FILE:stiffkit_cli>")
endforeach()
# HDF5 and hypre are modules loaded on first use; a missing one is exit 69 (core/module.h)
add_test(NAME cli_modules COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tools/modules_test.sh)
set_tests_properties(cli_modules PROPERTIES LABELS "regression;cli" TIMEOUT 300
  ENVIRONMENT "STIFFKIT=$<TARGET_FILE:stiffkit_cli>;DATA=${SK_DATA}")
add_test(NAME cli_stdout_full COMMAND bash -c
  "d=$(mktemp -d) && cd $d && $<TARGET_FILE:stiffkit_cli> run --set model.n=[10] --set output.csv=false --set output.hdf5=false > /dev/full; rc=$?; rm -rf $d; test $rc -eq 74")
set_tests_properties(cli_stdout_full PROPERTIES LABELS "regression;cli" TIMEOUT 60)
sk_cli_test(stop_time_before_end 65 "solver.stop_time (0.05) must lie after solver.t0" none
  run --set solver.stop_time=0.05)
sk_cli_test(stop_time_ok 0 "error against the exact solution" complete
  run --set model.n=[20] --set solver.stop_time=0.1)
sk_cli_test(usage_bad_inject 64 "--inject expects nan:comp=K:t=T" none run --inject foo)
sk_cli_test(output_times_summary 0 "error against the exact solution at t = 2.000000e-02" complete
  run --set model.n=[20] --set output.times=[0.01,0.02])

# --- reference steppers through the CLI ------------------------------------
sk_cli_test(rk45_run 0 "error against the exact solution" complete
  run --set solver.method=rk45 --set model.n=[20])
sk_cli_test(bdf2_run 0 "error against the exact solution" complete
  run --set solver.method=bdf2 --set model.n=[20])
sk_cli_test(rk4_fixed_step_run 0 "error against the exact solution" complete
  run --set solver.method=rk4 --set solver.fixed_step=1e-4 --set model.n=[20])
sk_cli_test(unknown_stepper_lists_valid 65
  "valid solvers: cvode-bdf, cvode-adams, euler, rk4, rk45, ab2, beuler, trap, am2pc, bdf2" none
  run --set solver.method=rk99)
sk_cli_test(fixed_step_required 65 "stepper 'euler' is a fixed-step method: set solver.fixed_step > 0" none
  run --set solver.method=euler)
sk_cli_test(fixed_step_negative 65 "solver.fixed_step" none
  run --set solver.method=rk4 --set solver.fixed_step=-0.1)
# a config that is a FIFO with no writer: every stop signal ends the run within 2 s (exit 75,
# nothing written); with a writer it is read whole and runs
add_test(NAME cli_fifo_config_signals COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tools/fifo_test.sh)
set_tests_properties(cli_fifo_config_signals PROPERTIES LABELS "regression;cli;signal" TIMEOUT 120
  ENVIRONMENT "STIFFKIT=$<TARGET_FILE:stiffkit_cli>;SK_DATA=${SK_DATA}")
# every other input a run reads (netlist, .include, Matrix Market, load table, mechanism,
# checkpoint) as a FIFO with no writer: SIGTERM ends the run within 2 s (exit 75, nothing written)
add_test(NAME cli_fifo_inputs_signals COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tools/fifo_inputs_test.sh)
set_tests_properties(cli_fifo_inputs_signals PROPERTIES LABELS "regression;cli;signal" TIMEOUT 120
  ENVIRONMENT "STIFFKIT=$<TARGET_FILE:stiffkit_cli>;SK_DATA=${SK_DATA}")
# SIGTERM inside one long phase (tools/signal_phases_test.sh): model building and output writing
# end within 2 s; a library call that polls no stop (the first KLU factorization inside CVODE, a
# right-hand side that sleeps) gets 2 s to return, then the process ends; exit 75, no result
# under a final name, the rows written so far kept as .partial files where the run could stop
foreach(phase build factorization output step)
  add_test(NAME cli_signal_phase_${phase}
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tools/signal_phases_test.sh ${phase})
  set_tests_properties(cli_signal_phase_${phase} PROPERTIES LABELS "regression;cli;signal"
    TIMEOUT 120 ENVIRONMENT "STIFFKIT=$<TARGET_FILE:stiffkit_cli>;SK_DATA=${SK_DATA};SLOW_MODEL=$<TARGET_FILE:sk_test_plugin_slow_model>")
endforeach()
# address-space limits too small for a run: exit 71 (out of memory), never a signal. Not under
# AddressSanitizer, whose shadow memory alone exceeds any such limit.
if(NOT SK_SANITIZE)
  add_test(NAME cli_ulimit_oom COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tools/ulimit_test.sh)
  set_tests_properties(cli_ulimit_oom PROPERTIES LABELS "regression;cli;faults" TIMEOUT 300
    ENVIRONMENT "STIFFKIT=$<TARGET_FILE:stiffkit_cli>;SK_DATA=${SK_DATA}")
endif()

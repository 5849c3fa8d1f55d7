# tests/cli_problems.cmake: the standard stiff problem library: its reference file for the numerical test, and `stiffkit run` on a library problem
if(TARGET test_problem_library)
  target_compile_definitions(test_problem_library PRIVATE
    SK_PROBLEM_REFS="${CMAKE_CURRENT_SOURCE_DIR}/regression/problem_refs.csv")
endif()

# --- good runs: the example configs (default t_end from the problem) --------
sk_cli_test(problem_rober 0 "statistics" complete run ${SK_DATA}/rober.yaml)
# the default end time 40 of ROBER applies (solver.t_end not set in the config)
sk_cli_test(problem_rober_t_end 0 "4.000000e+01" complete run ${SK_DATA}/rober.yaml)
sk_cli_test(problem_hires 0 "statistics" complete run ${SK_DATA}/hires.yaml)
sk_cli_test(problem_vdpol 0 "statistics" complete run ${SK_DATA}/vdpol.yaml)
sk_cli_test(problem_orego 0 "statistics" complete run ${SK_DATA}/orego.yaml)
sk_cli_test(problem_e5 0 "statistics" complete run ${SK_DATA}/e5.yaml)

# --- bad input: an unknown problem name lists the valid ones ----------------
sk_cli_test(problem_unknown 65 "rober|hires|vdpol|orego|e5|brusselator" none
  run --quiet ${SK_DATA}/rober.yaml --set model.problem=nosuch)

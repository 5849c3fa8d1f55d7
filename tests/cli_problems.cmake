# tests/cli_problems.cmake: the standard stiff problem library: its reference file for the numerical test, `stiffkit run` on a library problem at its published end time, its parameters and their ranges
if(TARGET test_problem_library)
  target_compile_definitions(test_problem_library PRIVATE
    SK_PROBLEM_REFS="${CMAKE_CURRENT_SOURCE_DIR}/regression/problem_refs.csv")
endif()

# --- good runs: the example configs (default t_end from the problem) --------
sk_cli_test(problem_rober 0 "statistics" complete run ${SK_DATA}/rober.yaml)
# the Test Set's end time 1e11 of ROBER applies (solver.t_end not set in the config)
sk_cli_test(problem_rober_t_end 0 "1.000000e+11" complete run ${SK_DATA}/rober.yaml)
# and E5's 1e13
sk_cli_test(problem_e5_t_end 0 "1.000000e+13" complete run ${SK_DATA}/e5.yaml)
# a parameter reaches the problem: van der Pol at eps = 1e-3 runs (a milder problem)
sk_cli_test(problem_vdpol_eps 0 "statistics" complete run ${SK_DATA}/vdpol.yaml
  --set model.vdpol.eps=1e-3)
sk_cli_test(problem_hires 0 "statistics" complete run ${SK_DATA}/hires.yaml)
sk_cli_test(problem_vdpol 0 "statistics" complete run ${SK_DATA}/vdpol.yaml)
sk_cli_test(problem_orego 0 "statistics" complete run ${SK_DATA}/orego.yaml)
sk_cli_test(problem_e5 0 "statistics" complete run ${SK_DATA}/e5.yaml)

# --- bad input: an unknown problem name lists the valid ones ----------------
sk_cli_test(problem_unknown 65 "rober|hires|vdpol|orego|e5|brusselator" none
  run --quiet ${SK_DATA}/rober.yaml --set model.problem=nosuch)
# a parameter outside its range is refused with the range
sk_cli_test(problem_parameter_range 65 "model.vdpol.eps: expected a real number in [1e-08, 1]"
  none run --quiet ${SK_DATA}/vdpol.yaml --set model.vdpol.eps=5)
sk_cli_test(problem_parameter_range_k2 65 "model.rober.k2" none
  run --quiet ${SK_DATA}/rober.yaml --set model.rober.k2=1)
# a parameter of another problem is a mistake, not a silent no-op
sk_cli_test(problem_parameter_other 65
  "model.rober.k1 is a parameter of the problem rober, but model.problem = vdpol" none
  run --quiet ${SK_DATA}/vdpol.yaml --set model.rober.k1=0.05)

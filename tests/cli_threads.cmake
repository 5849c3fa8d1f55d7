# tests/cli_threads.cmake: `stiffkit run` with solver.threads=1 and 2 (grids above the threading threshold): CSVs agree, provenance reports the threads
function(sk_threads_test name rtol atol)
  add_test(NAME cli_threads_${name} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tools/threads_test.sh
    ${rtol} ${atol} ${ARGN})
  set_tests_properties(cli_threads_${name} PROPERTIES LABELS "openmp;regression" TIMEOUT 600
    ENVIRONMENT "STIFFKIT=$<TARGET_FILE:stiffkit_cli>;NUMDIFF=$<TARGET_FILE:numdiff>")
endfunction()
if(SK_OPENMP)
  # 2D heat, 40000 states (KLU), and the Brusselator, 2 x 128^2 = 32768 states
  sk_threads_test(heat2d 1e-6 1e-9 --set model.n=[200,200] --set solver.t_end=0.1)
  sk_threads_test(brusselator 1e-5 1e-8 ${PROJECT_SOURCE_DIR}/data/brusselator.yaml
    --set model.n=[128] --set solver.t_end=0.5)
  # the Krylov path (ADI preconditioner, fast N_Vector kernels) on 300 x 300
  sk_threads_test(heat2d_krylov 1e-6 1e-9 --set model.n=[300,300] --set solver.t_end=0.05
    --set linsol.type=spgmr --set linsol.preconditioner=model)
endif()
add_test(NAME cli_threads_negative COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tools/expect_cli.sh
  65 "solver.threads" none -- run --quiet --set model.n=[10] --set solver.threads=-1)
set_tests_properties(cli_threads_negative PROPERTIES LABELS "openmp;regression;cli" TIMEOUT 60
  ENVIRONMENT "STIFFKIT=$<TARGET_FILE:stiffkit_cli>")
# `stiffkit info` says whether OpenMP is built in and the thread count a run takes: the one
# OMP_NUM_THREADS asks for (set here, so the expected count is not the code's own choice)
if(SK_OPENMP)
  set(SK_INFO_OPENMP "yes: 3 threads by default (OMP_NUM_THREADS)")
else()
  set(SK_INFO_OPENMP "no (built with SK_OPENMP=OFF): 1 thread")
endif()
add_test(NAME cli_info_openmp COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tools/expect_cli.sh
  0 "${SK_INFO_OPENMP}" none -- info)
set_tests_properties(cli_info_openmp PROPERTIES LABELS "openmp;regression;cli" TIMEOUT 60
  ENVIRONMENT "STIFFKIT=$<TARGET_FILE:stiffkit_cli>;OMP_NUM_THREADS=3")

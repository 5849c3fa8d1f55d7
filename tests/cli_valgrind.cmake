# tests/cli_valgrind.cmake: memcheck of CLI runs (label valgrind): no memory error and no block definitely, indirectly or possibly lost (the signal thread included)
# Not in a sanitizer build: valgrind cannot run AddressSanitizer's binaries.
find_program(SK_VALGRIND valgrind)
if(SK_VALGRIND AND NOT SK_SANITIZE)
  set(SK_MEMCHECK ${SK_VALGRIND} --leak-check=full
    --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=9)
  function(sk_memcheck_test name)
    add_test(NAME valgrind_${name} COMMAND bash -c
      "d=$(mktemp -d) && cd $d && \"$@\" > out.txt 2>&1; rc=$?; [ $rc -eq 0 ] || tail -n 30 out.txt; rm -rf $d; exit $rc"
      bash ${SK_MEMCHECK} $<TARGET_FILE:stiffkit_cli> ${ARGN})
    set_tests_properties(valgrind_${name} PROPERTIES LABELS "valgrind" TIMEOUT 600)
  endfunction()
  sk_memcheck_test(run_default run --quiet)
  sk_memcheck_test(verify verify --quiet ${SK_DATA}/heat2d.yaml --set model.n=[16])
  sk_memcheck_test(steady steady --quiet ${SK_DATA}/steady_heat2d.yaml)
  sk_memcheck_test(network run --quiet ${SK_DATA}/networks/board.yaml)
endif()
# The MPI launch: 2 ranks under memcheck, Open MPI's, PMIx's and libevent's own reports
# suppressed by library frames (tests/valgrind/openmpi.supp), everything else counted.
if(SK_VALGRIND AND NOT SK_SANITIZE AND SK_MPI AND MPIEXEC_EXECUTABLE)
  add_test(NAME valgrind_mpi_np2 COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tools/valgrind_mpi_test.sh)
  set_tests_properties(valgrind_mpi_np2 PROPERTIES LABELS "valgrind;mpi" TIMEOUT 900 PROCESSORS 2
    ENVIRONMENT "${SK_MPI_ENV};VALGRIND=${SK_VALGRIND};SUPP=${CMAKE_CURRENT_SOURCE_DIR}/valgrind/openmpi.supp;CONFIG=${CMAKE_CURRENT_SOURCE_DIR}/data/mpi/heat2d.yaml")
endif()

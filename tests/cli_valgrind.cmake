# tests/cli_valgrind.cmake: memcheck of CLI runs (label valgrind): no memory error and no block definitely, indirectly or possibly lost (the signal thread included)
# Not in a sanitizer build: valgrind cannot run AddressSanitizer's binaries. The MPI launch is
# left out: Open MPI's own allocations are not ours to account for.
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

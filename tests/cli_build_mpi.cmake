# tests/cli_build_mpi.cmake: the SK_MPI option: configure refused without MPI; the serial variant (SK_MPI=OFF) builds, runs, refuses the AMG
# (cmake/SkMPI.cmake; scratch directories under the build tree, removed by the scripts)
add_test(NAME build_no_mpi_configure
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tools/configure_no_mpi.sh ${PROJECT_SOURCE_DIR}
          ${CMAKE_CURRENT_BINARY_DIR}/build_no_mpi_configure ${CMAKE_GENERATOR})
set_tests_properties(build_no_mpi_configure PROPERTIES LABELS "mpi;build" TIMEOUT 120)
# a second build of the library and CLI (~2 min on 2 cores): not in the sanitizer run
if(NOT SK_SANITIZE)
  add_test(NAME build_no_mpi_serial
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tools/build_no_mpi.sh ${PROJECT_SOURCE_DIR}
            ${CMAKE_CURRENT_BINARY_DIR}/build_no_mpi_serial ${CMAKE_BUILD_TYPE} ${SK_WERROR}
            ${CMAKE_GENERATOR})
  set_tests_properties(build_no_mpi_serial PROPERTIES LABELS "mpi;build" TIMEOUT 900 PROCESSORS 2)
endif()

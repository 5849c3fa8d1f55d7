# tests/cli_paths.cmake: paths named inside files, through the CLI: copied configs from any working directory, a missing file named as written and as resolved, --set relative to the working directory, sweeps and their CSV, the absolute path in the provenance (tests/tools/paths_test.sh)
foreach(s copy missing set sweep)
  add_test(NAME cli_paths_${s} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tools/paths_test.sh ${s})
  set_tests_properties(cli_paths_${s} PROPERTIES LABELS "regression;cli" TIMEOUT 120
    ENVIRONMENT "STIFFKIT=$<TARGET_FILE:stiffkit_cli>;SK_DATA=${SK_DATA}")
endforeach()

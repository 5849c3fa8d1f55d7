# tests/cli_plugin.cmake: in-house steppers from plugin shared objects: the example plugin through the CLI and the conformance battery, and plugins that must be refused
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

# --- the example plugin through `stiffkit run` (2D heat, n = 100, exact solution) --
sk_cli_test(plugin_inhouse_rk2 0 "error against the exact solution" complete
  run --quiet --set solver.plugin=$<TARGET_FILE:inhouse_rk2> --set solver.method=inhouse-rk2
  --set solver.fixed_step=1e-4 --set model.n=[10])
# a list with blanks, the same plugin twice (loaded once)
sk_cli_test(plugin_list 0 "solver inhouse-rk2" complete
  run --quiet --set "solver.plugin= $<TARGET_FILE:inhouse_rk2> , $<TARGET_FILE:inhouse_rk2>"
  --set solver.method=inhouse-rk2 --set solver.fixed_step=1e-4 --set model.n=[10])

# --- the conformance battery over the plugin's stepper --------------------
add_test(NAME test_conformance_plugin COMMAND test_conformance)
set_tests_properties(test_conformance_plugin PROPERTIES LABELS "conformance" TIMEOUT 300
  ENVIRONMENT "SK_TEST_PLUGIN=$<TARGET_FILE:inhouse_rk2>")

# --- plugins that must be refused: exit code, message, nothing left -------
sk_cli_test(plugin_missing 66 "cannot open plugin file '/nonexistent/inhouse_rk2.so'" none
  run --set solver.plugin=/nonexistent/inhouse_rk2.so --set solver.method=inhouse-rk2)
sk_cli_test(plugin_not_shared_object 65 "invalid ELF header" none
  run --set solver.plugin=${PROJECT_SOURCE_DIR}/data/heat2d.yaml --set solver.method=inhouse-rk2)
sk_cli_test(plugin_without_register 65 "does not export the symbol 'sk_plugin_register'" none
  run --set solver.plugin=$<TARGET_FILE:sk_test_plugin_no_register> --set solver.method=inhouse-rk2)
sk_cli_test(plugin_abi_mismatch 65 "was built for stiffkit plugin ABI 999, this is ABI 1: rebuild it" none
  run --set solver.plugin=$<TARGET_FILE:sk_test_plugin_abi_mismatch> --set solver.method=inhouse-rk2)
sk_cli_test(plugin_fixed_step_missing 65 "invalid input data" none
  run --set solver.plugin=$<TARGET_FILE:inhouse_rk2> --set solver.method=inhouse-rk2)

# tests/cli_faults.cmake: fault injection (label faults): SIGKILL at random moments and at the k-th rename/fsync/unlink, damaged checkpoints, a full disk, a read-only folder, too little memory
# the LD_PRELOAD shim is built without the sanitizers (it is loaded before
# the sanitizer runtime; the script tells ASan so)
add_library(sk_fault_shim MODULE tools/fault_shim.c)
set_target_properties(sk_fault_shim PROPERTIES PREFIX "" C_STANDARD 11)
target_compile_options(sk_fault_shim PRIVATE -Wall -Wextra -Werror)
target_link_libraries(sk_fault_shim PRIVATE ${CMAKE_DL_LIBS})
add_executable(sk_ckpt_edit tools/ckpt_edit.c)
sk_target_options(sk_ckpt_edit)
target_include_directories(sk_ckpt_edit PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(sk_ckpt_edit PRIVATE stiffkit ${SK_MATH_LIB})
add_test(NAME cli_fault_campaign COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tools/fault_campaign.sh)
set_tests_properties(cli_fault_campaign PROPERTIES LABELS "regression;cli;faults" TIMEOUT 900
  ENVIRONMENT "STIFFKIT=$<TARGET_FILE:stiffkit_cli>;SLOW_MODEL=$<TARGET_FILE:sk_test_plugin_slow_model>;FAULT_SHIM=$<TARGET_FILE:sk_fault_shim>;CKPT_EDIT=$<TARGET_FILE:sk_ckpt_edit>;SK_SANITIZE=${SK_SANITIZE}")

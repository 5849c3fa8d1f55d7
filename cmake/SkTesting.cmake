# SkTesting: sk_add_unit_test(name SOURCES ... LABELS ... TIMEOUT s) builds a test executable against the library internals
function(sk_add_unit_test name)
  cmake_parse_arguments(T "" "TIMEOUT" "SOURCES;LABELS;ARGS" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 60)
  endif()
  if(NOT T_LABELS)
    set(T_LABELS unit)
  endif()
  add_executable(${name} ${T_SOURCES})
  sk_target_options(${name})
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/tests
    ${PROJECT_BINARY_DIR}/src)
  target_link_libraries(${name} PRIVATE stiffkit_static ${SK_MATH_LIB})
  # the public API exported, for the plugins a test loads (SK_TEST_PLUGIN): every object of
  # the library linked in, as in the stiffkit command
  target_link_libraries(${name} PRIVATE stiffkit_objs)
  set_target_properties(${name} PROPERTIES ENABLE_EXPORTS ON)
  add_test(NAME ${name} COMMAND ${name} ${T_ARGS})
  set_tests_properties(${name} PROPERTIES LABELS "${T_LABELS}" TIMEOUT ${T_TIMEOUT})
endfunction()

# SkStaticDeps: the dependencies of the library as two sets, shared (libstiffkit.so, tests) and static archives (the stiffkit commands, SK_STATIC_COMMANDS)
#
# A small run's whole process is mostly the dynamic loader: every shared object costs
# mapping, relocations and page faults (benchmarks/README.md, "The whole process"). The
# commands therefore link SUNDIALS, KLU (with AMD, COLAMD, BTF, SuiteSparse_config), libyaml,
# jansson and libcsv from their static archives, and hide those archives' symbols
# (-Wl,--exclude-libs,<their names>), so that they export the public API only. libstiffkit.so and the
# programs that link the static stiffkit library keep the shared libraries.
#
# A target selects the set with its property SK_STATIC_DEPS (ON: archives): stiffkit_objs
# links sk_deps, whose choice is evaluated for the program being linked.
option(SK_STATIC_COMMANDS
  "link SUNDIALS, KLU, libyaml, jansson and libcsv statically into the stiffkit commands" ON)

add_library(sk_deps_shared INTERFACE)
target_link_libraries(sk_deps_shared INTERFACE ${SK_SUNDIALS_LIBS} KLU::KLU PkgConfig::YAML)
add_library(sk_cli_deps_shared INTERFACE)
target_link_libraries(sk_cli_deps_shared INTERFACE PkgConfig::JANSSON CSV::CSV)

# sk_find_archives(<out-var> <name>...): the full paths of lib<name>.a, in order; <out-var>
# is left empty when one is missing
function(sk_find_archives out)
  set(paths "")
  foreach(name ${ARGN})
    find_library(SK_ARCHIVE_${name} NAMES lib${name}.a)
    if(NOT SK_ARCHIVE_${name})
      message(STATUS "SK_STATIC_COMMANDS: lib${name}.a not found, the commands link the shared libraries")
      set(${out} "" PARENT_SCOPE)
      return()
    endif()
    list(APPEND paths ${SK_ARCHIVE_${name}})
  endforeach()
  set(${out} ${paths} PARENT_SCOPE)
endfunction()

set(SK_STATIC_COMMANDS_ACTIVE OFF)
if(SK_STATIC_COMMANDS)
  # in link order: SUNDIALS (6.x archives carry their generic part; 7.x has sundials_core),
  # then what KLU's solver needs, then the readers' libraries
  set(_sk_sundials cvodes idas kinsol nvecserial sunlinsoldense sunlinsolband sunlinsolklu
    sunlinsolspgmr sunlinsolspfgmr sunlinsolspbcgs sunlinsolsptfqmr sunlinsolpcg
    sunmatrixdense sunmatrixband sunmatrixsparse)
  list(TRANSFORM _sk_sundials PREPEND sundials_)
  if(SK_SUNDIALS_VERSION VERSION_GREATER_EQUAL 7)
    list(APPEND _sk_sundials sundials_core)
  endif()
  sk_find_archives(_sk_lib_archives ${_sk_sundials} klu btf amd colamd suitesparseconfig yaml)
  sk_find_archives(_sk_cli_archives jansson csv)
  if(_sk_lib_archives AND _sk_cli_archives)
    set(SK_STATIC_COMMANDS_ACTIVE ON)
  endif()
endif()
if(SK_STATIC_COMMANDS_ACTIVE)
  # the archives whose symbols the commands keep out of their exports: these only (a clang
  # sanitizer's runtime is a static archive too, and the modules need its symbols)
  set(_sk_hidden "")
  foreach(a ${_sk_lib_archives} ${_sk_cli_archives})
    get_filename_component(_sk_name ${a} NAME)
    list(APPEND _sk_hidden ${_sk_name})
  endforeach()
  string(REPLACE ";" ":" SK_STATIC_HIDDEN "${_sk_hidden}")
  add_library(sk_deps_static INTERFACE)
  target_link_libraries(sk_deps_static INTERFACE ${_sk_lib_archives} ${SK_MATH_LIB})
  add_library(sk_cli_deps_static INTERFACE)
  target_link_libraries(sk_cli_deps_static INTERFACE ${_sk_cli_archives})
  message(STATUS "SK_STATIC_COMMANDS: the commands link ${_sk_lib_archives} ${_sk_cli_archives}")
else()
  add_library(sk_deps_static ALIAS sk_deps_shared)
  add_library(sk_cli_deps_static ALIAS sk_cli_deps_shared)
endif()
set(_sk_pick "$<BOOL:$<TARGET_PROPERTY:SK_STATIC_DEPS>>")
add_library(sk_deps INTERFACE)
target_link_libraries(sk_deps INTERFACE $<IF:${_sk_pick},sk_deps_static,sk_deps_shared>)
# compiling needs the headers whichever set links
target_include_directories(sk_deps SYSTEM INTERFACE
  $<TARGET_PROPERTY:sk_deps_shared,INTERFACE_INCLUDE_DIRECTORIES>)
add_library(sk_cli_deps INTERFACE)
target_link_libraries(sk_cli_deps INTERFACE $<IF:${_sk_pick},sk_cli_deps_static,sk_cli_deps_shared>)
target_include_directories(sk_cli_deps SYSTEM INTERFACE
  $<TARGET_PROPERTY:sk_cli_deps_shared,INTERFACE_INCLUDE_DIRECTORIES>)

# sk_static_command(<target>): link <target> (a stiffkit command) with the archives and keep
# their symbols out of its exports
function(sk_static_command tgt)
  if(SK_STATIC_COMMANDS_ACTIVE)
    set_target_properties(${tgt} PROPERTIES SK_STATIC_DEPS ON)
    target_link_options(${tgt} PRIVATE -Wl,--exclude-libs,${SK_STATIC_HIDDEN})
  endif()
endfunction()
unset(_sk_sundials)

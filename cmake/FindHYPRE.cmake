# FindHYPRE: hypre (Debian libhypre-dev has no CMake config) as the imported target HYPRE::HYPRE, with MPI::MPI_C
if(TARGET HYPRE::HYPRE)
  set(HYPRE_FOUND TRUE)
  return()
endif()
# hypre is an MPI library: its headers include mpi.h, and callers must initialize MPI
find_package(MPI QUIET COMPONENTS C)
find_package(HYPRE QUIET CONFIG)
if(TARGET HYPRE::HYPRE)
  if(MPI_C_FOUND)
    set_property(TARGET HYPRE::HYPRE APPEND PROPERTY INTERFACE_LINK_LIBRARIES MPI::MPI_C)
  endif()
  set(HYPRE_FOUND TRUE)
  return()
endif()
find_path(HYPRE_INCLUDE_DIR HYPRE_parcsr_ls.h PATH_SUFFIXES hypre)
find_library(HYPRE_LIBRARY NAMES HYPRE)
if(HYPRE_INCLUDE_DIR AND EXISTS ${HYPRE_INCLUDE_DIR}/HYPRE_config.h)
  file(STRINGS ${HYPRE_INCLUDE_DIR}/HYPRE_config.h _sk_hypre_ver
    REGEX "^#define HYPRE_RELEASE_VERSION ")
  string(REGEX REPLACE ".*\"([0-9.]+)\".*" "\\1" HYPRE_VERSION "${_sk_hypre_ver}")
  unset(_sk_hypre_ver)
endif()
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(HYPRE REQUIRED_VARS HYPRE_LIBRARY HYPRE_INCLUDE_DIR MPI_C_FOUND
  VERSION_VAR HYPRE_VERSION)
if(HYPRE_FOUND)
  add_library(HYPRE::HYPRE UNKNOWN IMPORTED)
  # an imported target's include directories reach consumers as SYSTEM includes
  set_target_properties(HYPRE::HYPRE PROPERTIES IMPORTED_LOCATION ${HYPRE_LIBRARY}
    INTERFACE_INCLUDE_DIRECTORIES ${HYPRE_INCLUDE_DIR})
  target_link_libraries(HYPRE::HYPRE INTERFACE MPI::MPI_C)
endif()
mark_as_advanced(HYPRE_INCLUDE_DIR HYPRE_LIBRARY)

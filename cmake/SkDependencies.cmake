# SkDependencies: find SUNDIALS (6.x/7.x target names), KLU/UMFPACK, METIS, hypre + MPI, libyaml, muparser, jansson, libcsv, HDF5, math
find_package(SUNDIALS REQUIRED CONFIG)
set(SK_SUNDIALS_VERSION ${SUNDIALS_VERSION})

# sk_sundials_target(<out-var> <component>): SUNDIALS 6.x exports <comp>_shared, 7.x <comp>
function(sk_sundials_target out comp)
  if(TARGET SUNDIALS::${comp}_shared)
    set(${out} SUNDIALS::${comp}_shared PARENT_SCOPE)
  elseif(TARGET SUNDIALS::${comp})
    set(${out} SUNDIALS::${comp} PARENT_SCOPE)
  else()
    message(FATAL_ERROR "SUNDIALS component ${comp} not found")
  endif()
endfunction()
# libstiffkit links CVODES and IDAS, the CVODE and IDA with forward sensitivities
# (src/backends/cvode_sens.c, ida_sens.c): without sensitivities they run CVODE's and IDA's
# algorithms (the parity tests and the benchmarks' counts are unchanged), and each pair
# exports the same names, so one process links only one of each.
# SK_SUNDIALS_CVODE_LIBS: the same list with plain CVODE and IDA, for the hand-written
# programs that the benchmarks compare stiffkit with (they link no stiffkit code).
set(SK_SUNDIALS_LIBS "")
set(SK_SUNDIALS_CVODE_LIBS "")
foreach(c cvodes idas kinsol nvecserial sunmatrixdense sunmatrixband sunmatrixsparse
          sunlinsoldense sunlinsolband sunlinsolklu sunlinsolspgmr sunlinsolspfgmr
          sunlinsolspbcgs sunlinsolsptfqmr sunlinsolpcg)
  sk_sundials_target(t ${c})
  list(APPEND SK_SUNDIALS_LIBS ${t})
  if(c STREQUAL "cvodes")
    sk_sundials_target(t cvode)
  elseif(c STREQUAL "idas")
    sk_sundials_target(t ida)
  endif()
  list(APPEND SK_SUNDIALS_CVODE_LIBS ${t})
endforeach()

find_package(KLU REQUIRED)      # cmake/FindKLU.cmake -> KLU::KLU
find_package(UMFPACK REQUIRED)  # cmake/FindUMFPACK.cmake -> UMFPACK::UMFPACK
find_package(METIS REQUIRED)    # cmake/FindMETIS.cmake -> METIS::METIS
if(SK_MPI)  # cmake/SkMPI.cmake; a serial build has no AMG (src/linsol/amg_unavailable.c)
  find_package(HYPRE REQUIRED)  # cmake/FindHYPRE.cmake -> HYPRE::HYPRE (links MPI::MPI_C)
  # the structured multigrid (linsol.preconditioner=mg, src/linsol/mg_hypre.c) needs hypre's
  # Struct and SStruct interfaces, which a hypre build may leave out: without them mg is
  # refused with the reason (src/linsol/mg_unavailable.c). The result is cached:
  # -DSK_HAVE_HYPRE_STRUCT=OFF builds without it on any hypre.
  include(CheckSymbolExists)
  set(CMAKE_REQUIRED_LIBRARIES HYPRE::HYPRE MPI::MPI_C)
  set(CMAKE_REQUIRED_QUIET ON)
  check_symbol_exists(HYPRE_StructPFMGCreate "HYPRE_struct_ls.h" SK_HAVE_HYPRE_STRUCT_PFMG)
  check_symbol_exists(HYPRE_SStructSysPFMGCreate "HYPRE_sstruct_ls.h" SK_HAVE_HYPRE_SYSPFMG)
  unset(CMAKE_REQUIRED_LIBRARIES)
  unset(CMAKE_REQUIRED_QUIET)
  if(SK_HAVE_HYPRE_STRUCT_PFMG AND SK_HAVE_HYPRE_SYSPFMG)
    set(_sk_struct ON)
  else()
    set(_sk_struct OFF)
  endif()
  set(SK_HAVE_HYPRE_STRUCT ${_sk_struct} CACHE BOOL
    "hypre has the Struct/SStruct interfaces (HYPRE_StructPFMGCreate, HYPRE_SStructSysPFMGCreate)")
  unset(_sk_struct)
  if(NOT SK_HAVE_HYPRE_STRUCT)
    message(STATUS "hypre without the structured-grid interface (HYPRE_StructPFMGCreate): "
      "linsol.preconditioner=mg is refused")
  endif()
else()
  set(SK_HAVE_HYPRE_STRUCT OFF)
endif()

find_package(PkgConfig REQUIRED)
pkg_check_modules(YAML REQUIRED IMPORTED_TARGET yaml-0.1)
# formulas in t for time-dependent loads (libmuparser-dev, its C API muParserDLL.h)
pkg_check_modules(MUPARSER REQUIRED IMPORTED_TARGET muparser)
# the CLI's readers of its own files: JSON (libjansson-dev) and CSV (libcsv-dev, cmake/FindCSV.cmake)
pkg_check_modules(JANSSON REQUIRED IMPORTED_TARGET jansson)
find_package(CSV REQUIRED)      # cmake/FindCSV.cmake -> CSV::CSV
set(HDF5_PREFER_PARALLEL OFF)
find_package(HDF5 REQUIRED COMPONENTS C)
find_library(SK_MATH_LIB m)

# SkOpenMP: option SK_OPENMP (threaded N_Vector and model kernels); sets SK_OPENMP_TARGET for the library
option(SK_OPENMP "Threaded kernels (OpenMP)" ON)
set(SK_OPENMP_TARGET "")
if(SK_OPENMP)
  find_package(OpenMP COMPONENTS C)
  if(NOT OpenMP_C_FOUND)
    message(FATAL_ERROR "SK_OPENMP=ON but the C compiler has no usable OpenMP "
      "(gcc needs libgomp: apt-get install libgomp1 / gcc). "
      "Install it, or configure with -DSK_OPENMP=OFF for a serial build.")
  endif()
  set(SK_OPENMP_TARGET OpenMP::OpenMP_C)
endif()

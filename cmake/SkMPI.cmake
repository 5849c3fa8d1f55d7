# SkMPI: option SK_MPI (MPI-distributed runs and the hypre BoomerAMG preconditioner); finds MPI::MPI_C or stops with what to install
option(SK_MPI "MPI-distributed runs (OpenMPI), hypre BoomerAMG" ON)
if(SK_MPI)
  find_package(MPI COMPONENTS C)
  if(NOT MPI_C_FOUND)
    message(FATAL_ERROR
      "SK_MPI=ON (the default) needs MPI, but no MPI C compiler wrapper (mpicc) or MPI "
      "library was found.\n"
      "  - install Open MPI (Debian/Ubuntu): sudo apt-get install libopenmpi-dev openmpi-bin\n"
      "  - or name another MPI: -DMPI_C_COMPILER=/path/to/mpicc\n"
      "  - or build the serial stiffkit: -DSK_MPI=OFF (no distributed runs with mpirun, and no "
      "linsol.preconditioner=amg: hypre BoomerAMG is an MPI library)")
  endif()
endif()

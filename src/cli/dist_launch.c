/* src/cli/dist_launch.c: is this process one rank of a multi-rank launch (mpirun, srun)? */
#include <stdlib.h>
#include <string.h>

#include "cli/dist_run.h"

int cli_dist_launched(void)
{
  const char *force = getenv("STIFFKIT_DISTRIBUTED");
  if (force && *force) {
    return strcmp(force, "0") != 0;
  }
  /* the world size each launcher exports: Open MPI's mpirun, PMI (MPICH,
     Slurm's srun --mpi=pmi2) and PMIx (Slurm's srun --mpi=pmix) */
  static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"};
  for (size_t k = 0; k < sizeof vars / sizeof vars[0]; k++) {
    const char *v = getenv(vars[k]);
    if (v && atoi(v) > 1) {
      return 1;
    }
  }
  return 0;
}

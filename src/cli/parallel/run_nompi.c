/* src/cli/parallel/run_nompi.c: cli_dist_run of a build without MPI (SK_MPI=OFF): the distributed launch is refused */
#include <stdio.h>

#include "cli/cli.h"
#include "cli/dist_run.h"

int cli_dist_run(sk_context *ctx, const cli_args *args, int argc, char **argv,
                 volatile sig_atomic_t *stop_signal)
{
  (void)ctx;
  (void)args;
  (void)argc;
  (void)argv;
  (void)stop_signal;
  fprintf(stderr, "stiffkit: error: this process is one rank of an MPI launch, but this stiffkit "
                  "was built without MPI (SK_MPI=OFF): rebuild with -DSK_MPI=ON, or run it "
                  "without mpirun (set STIFFKIT_DISTRIBUTED=0 to run every rank serially)\n");
  return SK_EXIT_UNAVAILABLE;
}

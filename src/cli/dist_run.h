/* src/cli/dist_run.h: `stiffkit run` as one rank of an MPI launch (mpirun -np K stiffkit run CONFIG) */
#ifndef SK_CLI_DIST_RUN_H
#define SK_CLI_DIST_RUN_H

#include <signal.h>

#include "cli/args.h"
#include "stiffkit/stiffkit.h"

/* cli_dist_launched: 1 when this process is one of several ranks of an
 * MPI launch (OMPI_COMM_WORLD_SIZE, PMI_SIZE or PMIX_SIZE above 1 in the
 * environment), or when STIFFKIT_DISTRIBUTED=1 asks for the distributed
 * path (also on one rank); STIFFKIT_DISTRIBUTED=0 forces the serial path. */
int cli_dist_launched(void);

/* cli_dist_run: the whole run on this rank: options (every rank reads the
 * same config; a hash of the effective options is compared across ranks),
 * the model decomposed over the ranks (src/parallel/), CVODE on
 * NVECTOR_PARALLEL, and on rank 0 the state gathered at each output time
 * into the usual result files, with a `parallel:` block in the provenance.
 * Every failure is agreed: each rank returns the same exit code, and rank 0
 * alone prints the message (of the first rank that failed). A stop signal
 * (*stop_signal, on any rank) ends the run on every rank with exit 75 and
 * the results so far kept as .partial files (distributed runs write no
 * checkpoints). Returns the exit code. In a build without MPI (SK_MPI=OFF)
 * it refuses with exit 69. */
int cli_dist_run(sk_context *ctx, const cli_args *args, int argc, char **argv,
                 volatile sig_atomic_t *stop_signal);

/* The MPI driver behind cli_dist_run (cli/parallel/run_mpi.c), linked into the
 * program stiffkit-mpi only: stiffkit links no MPI (no Open MPI start-up in
 * a serial run) and hands a distributed run's command line to stiffkit-mpi
 * beside it (cli/parallel/run_exec.c); it fails with exit 69 when that program
 * is missing. */
int cli_dist_run_mpi(sk_context *ctx, const cli_args *args, int argc, char **argv,
                     volatile sig_atomic_t *stop_signal);

#endif

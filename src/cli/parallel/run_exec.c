/* src/cli/parallel/run_exec.c: cli_dist_run of an MPI build: the MPI driver where this program holds it (stiffkit-mpi), else the same command line handed to stiffkit-mpi beside this program */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/dist_run.h"
#include "cli/signal_thread.h"

/* defined in stiffkit-mpi only (cli/parallel/run_mpi.c); NULL in stiffkit, which links no MPI */
extern int cli_dist_run_mpi(sk_context *ctx, const cli_args *args, int argc, char **argv,
                            volatile sig_atomic_t *stop_signal) __attribute__((weak));

int cli_dist_run(sk_context *ctx, const cli_args *args, int argc, char **argv,
                 volatile sig_atomic_t *stop_signal)
{
  if (cli_dist_run_mpi) {
    return cli_dist_run_mpi(ctx, args, argc, argv, stop_signal);
  }
  char path[4096 + 32];
  const ssize_t k = readlink("/proc/self/exe", path, 4096);
  char *slash = NULL;
  if (k > 0) {
    path[k] = '\0';
    slash = strrchr(path, '/');
  }
  if (!slash) {
    fprintf(stderr, "stiffkit: error: a distributed run needs stiffkit-mpi beside stiffkit, and "
                    "this program cannot find its own path (/proc/self/exe)\n");
    return SK_EXIT_UNAVAILABLE;
  }
  strcpy(slash + 1, "stiffkit-mpi");
  char **av = calloc((size_t)argc + 2, sizeof *av);
  if (!av) {
    fprintf(stderr, "stiffkit: error: out of memory starting stiffkit-mpi\n");
    return SK_EXIT_OSERR;
  }
  av[0] = path;
  for (int i = 0; i < argc; i++) { /* argv[0] is the subcommand ("run") */
    av[i + 1] = argv[i];
  }
  /* a stop signal already taken by this process's signal thread is sent again, to this
     process, where it stays blocked and pending across execv for stiffkit-mpi's own thread */
  cli_signal_thread_stop();
  if (*stop_signal) {
    kill(getpid(), (int)*stop_signal);
  }
  fflush(NULL);
  execv(path, av); /* returns only on failure */
  const int err = errno;
  free(av);
  fprintf(stderr,
          "stiffkit: error: this process is one rank of an MPI launch; distributed runs run in "
          "stiffkit-mpi, which must lie beside stiffkit: cannot start %s: %s\n",
          path, strerror(err));
  return SK_EXIT_UNAVAILABLE;
}

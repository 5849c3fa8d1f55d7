/* src/cli/main.c: the stiffkit command: dispatch to the subcommands */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static void usage(FILE *out)
{
  fprintf(
      out,
      "usage: stiffkit <command> [arguments]\n"
      "\n"
      "commands:\n"
      "  run [CONFIG.yaml] [--set key=value ...] [--quiet] [--no-stats] [--stats-json FILE]\n"
      "                    integrate a model (without CONFIG: the embedded 2D heat example)\n"
      "  run --help-options  list every option key with type, default and help\n"
      "  verify CONFIG.yaml  cross-verification report of the production answer (a BVP:\n"
      "                    finite differences against multiple shooting)\n"
      "  diagnose CONFIG.yaml  stiffness report (eigenvalue estimates, time scales, advice)\n"
      "  stability METHOD  amplification factor and stability region of a stepper\n"
      "  steady [CONFIG.yaml] [--set key=value ...] [--json]\n"
      "                    steady state f(t, u) = 0 of a model (KINSOL Newton, verified "
      "residual)\n"
      "  bvp [CONFIG.yaml] [--set key=value ...] [--json]\n"
      "                    boundary-value problem by finite differences, shooting or\n"
      "                    multiple shooting, with continuation (without CONFIG: a rod)\n"
      "  sweep SWEEP.yaml [-j N] [--only-failed] [--slurm [--submit]] [--dir DIR]\n"
      "                    a parameter sweep: one resolved config per case, run by a local\n"
      "                    process pool or a Slurm job array (format: data/sweeps/README.md)\n"
      "  collect DIR       gather the cases of a sweep into DIR/collect.csv and collect.h5\n"
      "  bench CONFIG.yaml [--set key=value ...] [--out PREFIX]\n"
      "                    work-precision study of steppers on a config's model (bench.*)\n"
      "  info              versions of stiffkit, SUNDIALS, SuiteSparse, HDF5, build options, "
      "OpenMP\n"
      "\n"
      "exit codes: 0 ok, 10 numerical failure, 11 verification failed, 64 usage,\n"
      "            65 bad input data, 66 missing input, 69 unavailable (sbatch), 70 internal,\n"
      "            73 cannot create output, 74 I/O error, 75 interrupted\n");
}

int main(int argc, char **argv)
{
  if (argc < 2) {
    usage(stderr);
    return SK_EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "run")) {
    return cli_run(argc - 1, argv + 1);
  }
  if (!strcmp(cmd, "info")) {
    return cli_info(argc - 1, argv + 1);
  }
  if (!strcmp(cmd, "verify")) {
    return cli_verify(argc - 1, argv + 1);
  }
  if (!strcmp(cmd, "diagnose")) {
    return cli_diagnose(argc - 1, argv + 1);
  }
  if (!strcmp(cmd, "stability")) {
    return cli_stability(argc - 1, argv + 1);
  }
  if (!strcmp(cmd, "bvp")) {
    return cli_bvp(argc - 1, argv + 1);
  }
  if (!strcmp(cmd, "steady")) {
    return cli_steady(argc - 1, argv + 1);
  }
  if (!strcmp(cmd, "sweep")) {
    return cli_sweep(argc - 1, argv + 1);
  }
  if (!strcmp(cmd, "collect")) {
    return cli_collect(argc - 1, argv + 1);
  }
  if (!strcmp(cmd, "bench")) {
    return cli_bench(argc - 1, argv + 1);
  }
  if (!strcmp(cmd, "--version")) {
    printf("stiffkit %s\n", SK_VERSION);
    return SK_EXIT_OK;
  }
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
    usage(stdout);
    return SK_EXIT_OK;
  }
  fprintf(stderr, "stiffkit: error: unknown command '%s'\n", cmd);
  usage(stderr);
  return SK_EXIT_USAGE;
}

/* src/cli/cli.h: shared pieces of the stiffkit command (exit codes, error printing, subcommands) */
#ifndef SK_CLI_CLI_H
#define SK_CLI_CLI_H

#include "stiffkit/stiffkit.h"

/* Exit codes (DESIGN.md). */
enum {
  SK_EXIT_OK = 0,
  SK_EXIT_NUMERICAL = 10,
  SK_EXIT_VERIFY = 11,
  SK_EXIT_USAGE = 64,
  SK_EXIT_DATA = 65,
  SK_EXIT_NOINPUT = 66,
  SK_EXIT_UNAVAILABLE = 69, /* a service or component the command needs is missing (sbatch for a
                               submission, a module of stiffkit: core/module.h) */
  SK_EXIT_INTERNAL = 70,
  SK_EXIT_OSERR = 71, /* out of memory (or another resource of the system) */
  SK_EXIT_CANTCREATE = 73,
  SK_EXIT_IOERR = 74,
  SK_EXIT_INTERRUPTED = 75
};

/* cli_exit_code: the exit code for a library status. */
int cli_exit_code(sk_status st);

/* cli_report: print "stiffkit: error: <message>" ("out of memory: <message>"
 * for SK_ERR_NOMEM; the traceback too when
 * STIFFKIT_TRACEBACK is set in the environment) to stderr; returns the
 * exit code for st. */
int cli_report(sk_context *ctx, sk_status st);

/* Subcommands: argc/argv start at the subcommand name. */
int cli_run(int argc, char **argv);
int cli_info(int argc, char **argv);
int cli_verify(int argc, char **argv);    /* cmd_verify.c */
int cli_diagnose(int argc, char **argv);  /* cmd_diagnose.c */
int cli_stability(int argc, char **argv); /* cmd_stability.c */
int cli_steady(int argc, char **argv);    /* cmd_steady.c */
int cli_bvp(int argc, char **argv);       /* cmd_bvp.c */
int cli_sweep(int argc, char **argv);     /* cmd_sweep.c */
int cli_collect(int argc, char **argv);   /* cmd_collect.c */
int cli_bench(int argc, char **argv);     /* cmd_bench.c */

#endif

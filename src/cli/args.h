/* src/cli/args.h: the command-line arguments shared by run, verify, diagnose and steady */
#ifndef SK_CLI_ARGS_H
#define SK_CLI_ARGS_H

#include <stddef.h>

#include "stiffkit/context.h"

typedef struct {
  const char *config; /* CONFIG.yaml (NULL: the embedded default job) */
  const char **sets;  /* --set key=value, in order */
  size_t nsets;
  int quiet;          /* --quiet / -q: errors only (no report on stdout, no warnings) */
  int no_stats;       /* --no-stats: the report without the statistics table */
  const char *report; /* --report FILE */
  const char *stats_json, *stats_csv, *inject;
  const char *restart; /* --restart CKPT */
  const char *out;     /* --out PREFIX (stiffkit bench) */
  int resume;          /* --resume */
  int help_options;    /* --help-options */
  int json;            /* --json */
} cli_args;

/* cli_args_parse: parse argv[1..argc) of subcommand `cmd`. Every subcommand
 * takes CONFIG, --set key=value (or --set=key=value), --quiet and --no-stats; `flags`
 * lists the others it accepts, space-separated, from: --report,
 * --stats-json, --stats-csv, --inject, --restart, --out (each taking a value, also
 * as --flag=value), --help-options, --json and --resume. `help` is printed on --help.
 * Returns 0, -1 when the help was printed, or an exit code (64 usage,
 * 70 internal) after printing the reason. Free with cli_args_free. */
int cli_args_parse(int argc, char **argv, const char *cmd, const char *flags, const char *help,
                   cli_args *a);

/* cli_args_context: a new context whose log goes to stderr (errors only
 * with --quiet). Returns 0, or 70 after printing the reason. */
int cli_args_context(const cli_args *a, sk_context **ctx);

/* cli_args_start: the prologue of a subcommand: cli_args_parse, then
 * `check` (may be NULL: the subcommand's own checks of the arguments,
 * returning 0 or an exit code after printing the reason), then
 * cli_args_context, and removes an existing --report file (an older
 * report must not outlive a failed run). Returns -1 when the subcommand
 * goes on (*ctx is set;
 * free a with cli_args_free and *ctx with sk_context_destroy), else the
 * exit code to return (0 after --help), with the arguments freed. */
int cli_args_start(int argc, char **argv, const char *cmd, const char *flags, const char *help,
                   int (*check)(const cli_args *a), cli_args *a, sk_context **ctx);

/* cli_args_free: release what cli_args_parse allocated. */
void cli_args_free(cli_args *a);

#endif

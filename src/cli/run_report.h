/* src/cli/run_report.h: the report of a finished `stiffkit run` (serial or distributed) */
#ifndef SK_CLI_RUN_REPORT_H
#define SK_CLI_RUN_REPORT_H

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/job.h"

/* cli_run_report: print the summary of a successful run to stdout (model,
 * engine, the line(s) `extra` when not NULL, statistics, the error against
 * the exact solution, a network's energy balance of the final state y, the
 * files written; nothing with --quiet, no statistics table with --no-stats),
 * then write --stats-json / --stats-csv atomically.
 * Returns the exit code: 0, the code of a statistics file failure, or 74
 * when stdout could not be written. */
int cli_run_report(const cli_job *job, const sk_stats *stats, const cli_args *args,
                   const double *y, const char *extra);

/* cli_stdout_status: 0, or 74 after a message when flushing stdout failed
 * (a full disk must not pass as success). */
int cli_stdout_status(void);

#endif

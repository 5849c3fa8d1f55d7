/* src/cli/run_complete.h: whether a job's complete result set is already in place (run --resume of a finished job) */
#ifndef SK_CLI_RUN_COMPLETE_H
#define SK_CLI_RUN_COMPLETE_H

#include <stddef.h>
#include <stdint.h>

struct cli_job;

/* cli_run_problem_line: the provenance line that ties a result set to its
 * problem ("problem_hash: \"<16 hex digits>\"\n", the checkpoint's problem
 * hash) into buf. */
void cli_run_problem_line(uint64_t hash, char *buf, size_t cap);

/* cli_run_complete: 1 when the result set of the prepared job is complete
 * under its final names and belongs to this problem: its commit point
 * (<prefix>.provenance.yaml, or <prefix>.h5 when no CSV is written) says
 * status complete and holds the problem line of `hash`; `marker` (cap
 * bytes) then names that file. 0 otherwise: no result files configured, no
 * commit point (an incomplete set: a run killed between its renames), or
 * the set of another problem. Reads only; changes nothing. */
int cli_run_complete(const struct cli_job *job, uint64_t hash, char *marker, size_t cap);

#endif

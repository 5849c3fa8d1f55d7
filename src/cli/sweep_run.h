/* src/cli/sweep_run.h: running the cases of a sweep: the case runner, the local process pool, the Slurm job array */
#ifndef SK_CLI_SWEEP_RUN_H
#define SK_CLI_SWEEP_RUN_H

#include <stddef.h>

#include "cli/sweep_dir.h"

/* sweep_case_run: `stiffkit sweep --case INDEX DIR`: run case `index` of
 * the sweep in DIR (dir) to its end: change to the sweep's working
 * directory, install the stop-signal forwarding (SIGTERM, SIGINT and
 * SIGUSR1 go to the run), write status.json `running` with this runner's
 * identity (sweep_status_set_runner), run `stiffkit run
 * DIR/cases/<id>/config.yaml --resume --no-stats --stats-json
 * DIR/cases/<id>/stats.json` as a child (srun in front under Slurm when the
 * sweep has ntasks > 1), its stdout and stderr appended to stdout.txt and
 * stderr.txt of the case; then write status.json (ok, failed or
 * interrupted, exit code, wall time summed over attempts, the attempt's
 * last "stiffkit: error:" message, attempts, the time its checkpoint holds).
 * Under Slurm (SLURM_JOB_ID set), an interrupted case of a sweep with
 * requeue on asks `scontrol requeue` for its array task only when the
 * attempt made progress (sweep_requeue_decide: its checkpoint advanced, and
 * fewer than slurm.max_attempts attempts); otherwise it stays interrupted
 * and the reason is printed and kept in the status (requeue). A case
 * already complete is not run again; one whose status says `running` with
 * its runner alive (sweep_runner_alive) is not started twice (75). Returns
 * the exit code of the run (75 when a forwarded signal ended it), or
 * 64/66/70/73 for the runner's own failures, after printing the reason.
 * quiet: no line for a finished case. */
int sweep_case_run(const char *dir, size_t index, int quiet);

/* sweep_pool_run: run the cases todo[0..ntodo) of the sweep in dir with at
 * most `jobs` case runners at once (each `stiffkit sweep --case I DIR
 * --quiet` in a process group of its own), with a one-line summary on
 * stderr (done, failed, running, waiting, ETA from the mean wall time):
 * redrawn at most 4 times a second on a terminal, printed once per finished
 * case otherwise. SIGINT, SIGTERM or SIGUSR1 is forwarded to the running
 * cases (which checkpoint and stop) and no further case starts. A case
 * runner that cannot be started (fork failed) counts as a failed case, its
 * status saying why, and no further case starts. Returns 0 when every case
 * ended ok, 75 when interrupted, 70 when a runner could not be started,
 * else 10 after listing the failed cases with their messages. */
int sweep_pool_run(const char *dir, const sweep_manifest *m, const size_t *todo, size_t ntodo,
                   int jobs);

/* sweep_slurm_write: DIR/sweep.sbatch: a Slurm job array over the cases
 * todo[0..ntodo) (data/sweeps/README.md): --array (with %max_parallel),
 * --requeue, --open-mode=append, --signal=B:USR1@S (USR1@S with ntasks > 1,
 * whose cases run through srun), --chdir = the working directory, output
 * into each case directory, partition, account, time, memory and tasks
 * from m->slurm, and `exec <exe> sweep --case "$SLURM_ARRAY_TASK_ID" DIR`.
 * absdir is the absolute sweep directory. Returns 0, 65 (a path that
 * #SBATCH lines cannot carry) or 73/74, after printing the reason. */
int sweep_slurm_write(const char *absdir, const sweep_manifest *m, const size_t *todo,
                      size_t ntodo, const char *exe);

/* sweep_slurm_sbatch: the path of sbatch from PATH into out. Returns 0, or
 * 69 (SK_EXIT_UNAVAILABLE) after printing "sbatch not found in PATH: ...". */
int sweep_slurm_sbatch(char *out, size_t cap);

/* sweep_slurm_submit: `sbatch --parsable DIR/sweep.sbatch`; prints the job
 * id. Returns 0, or 69 when sbatch fails (its message is on stderr). */
int sweep_slurm_submit(const char *sbatch, const char *absdir);

#endif

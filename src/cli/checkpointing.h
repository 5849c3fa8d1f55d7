/* src/cli/checkpointing.h: when a run writes checkpoints (intervals, segments, signals), what goes into them, and how a run restarts from one */
#ifndef SK_CLI_CHECKPOINTING_H
#define SK_CLI_CHECKPOINTING_H

#include <stdint.h>

#include "io/checkpoint.h"
#include "stiffkit/stiffkit.h"

struct cli_job;

/* The checkpoint policy and record of one run. */
typedef struct {
  char path[4096];       /* checkpoint.file, or <output.dir>/<output.prefix>.ckpt */
  double every;          /* checkpoint.every: simulated-time interval (0 = off) */
  double wall;           /* checkpoint.wall: wall-clock interval in seconds (0 = off) */
  int segment;           /* checkpoint.segment: restart the engine at every boundary */
  int supported;         /* 0: the model's events change its equations (no checkpoints) */
  uint64_t problem_hash; /* of this run's problem (sk__checkpoint_problem_hash) */
  double t0;             /* the run's start: boundaries lie at t0 + k every */
  double next_t;         /* next simulated-time checkpoint or segment boundary */
  double last_wall;      /* wall-clock time of the last checkpoint (or of the start) */
  int due;               /* the monitor found an interval checkpoint due */
  int written;           /* checkpoints written by this process */
  double written_t;      /* time of the last one */
  sk_stats before;       /* statistics of the engines before the current one
                          * (earlier segments, the run before a restart) */
  sk__checkpoint loaded; /* read by cli_ckpt_load, used by cli_ckpt_apply */
  char loaded_path[4096];
} cli_ckpt;

/* cli_checkpoint_options: the checkpoint.* option keys (cli/checkpoint_keys.h). */
const sk_option_spec *cli_checkpoint_options(size_t *n);

/* cli_checkpoint_interval_key: the first of checkpoint.every, checkpoint.wall
 * and checkpoint.segment that a config or the command line sets (what makes
 * a run write interval checkpoints), else NULL. */
const char *cli_checkpoint_interval_key(const sk_options *o);

/* cli_ckpt_init: read the checkpoint.* options of a prepared job and hash
 * its problem. Errors: SK_ERR_INPUT (checkpoint.wall with
 * checkpoint.segment, whose boundaries must be simulated times; segment
 * without every; an interval on a model whose events switch its
 * equations), SK_ERR_NOMEM. */
sk_status cli_ckpt_init(sk_context *ctx, cli_ckpt *c, const struct cli_job *job);

/* cli_ckpt_monitor_due: called after every step at time t: 1 when an
 * interval checkpoint (every, wall; not in segment mode) is due. */
int cli_ckpt_monitor_due(cli_ckpt *c, double t);

/* cli_ckpt_write: write the job's current engine state (time, state, y',
 * step-size and order hints, statistics, the rows written so far, the
 * effective options and the problem hash) to c->path atomically. `segment`
 * marks a segment boundary. Errors: SK_ERR_CREATE, SK_ERR_IO, SK_ERR_NOMEM. */
sk_status cli_ckpt_write(sk_context *ctx, cli_ckpt *c, struct cli_job *job, int segment);

/* cli_ckpt_boundary: a segment boundary: write the checkpoint (segment
 * mode) of the engine's current state, then replace the engine by a new one
 * of the same settings starting from exactly what that checkpoint holds
 * (t, y, y' for DAEs, the last step size; 0 = solver.h0), with the Jacobian
 * self-test off (it ran at the start) and a stop time at the next boundary,
 * so that a restart from the checkpoint repeats the run bitwise. Errors:
 * those of cli_ckpt_write and of the stepper. */
sk_status cli_ckpt_boundary(sk_context *ctx, cli_ckpt *c, struct cli_job *job);

/* cli_ckpt_load: read the checkpoint `path` into c->loaded and refuse it
 * when it does not belong to this run (problem hash; the message names the
 * first option that differs). With stale_ok (--resume) a checkpoint of
 * another problem is only warned about and not loaded (c->loaded.n == 0):
 * the run starts at t0. Called before any result file is touched, so that a
 * refused restart loses nothing. Errors: SK_ERR_MISSING (no file),
 * SK_ERR_INPUT (format, version, checksum, problem), SK_ERR_UNSUPPORTED (a
 * model whose events switch its equations), SK_ERR_NOMEM. */
sk_status cli_ckpt_load(sk_context *ctx, cli_ckpt *c, const struct cli_job *job, const char *path,
                        int stale_ok);

/* cli_ckpt_apply: continue from the loaded checkpoint: write its output
 * rows to the job's open result files and restart the engine from its
 * state; the loaded data is released. Errors: SK_ERR_INPUT (its outputs do
 * not fit this run's), result and stepper errors. */
sk_status cli_ckpt_apply(sk_context *ctx, cli_ckpt *c, struct cli_job *job);

/* cli_ckpt_free: release a loaded checkpoint (accepts none). */
void cli_ckpt_free(sk_context *ctx, cli_ckpt *c);

/* cli_ckpt_finish: the run completed: remove its checkpoint file (a
 * checkpoint on disk means an unfinished run). */
void cli_ckpt_finish(const cli_ckpt *c);

/* cli_job_monitor (beside the checkpoints it makes due): the monitor of the job's engines (user_data = the
 * job): job->monitor, then the stop signal and due interval checkpoints;
 * nonzero interrupts the engine. */
int cli_job_monitor(const sk_stepper *s, double t, double h, void *user_data);

/* cli_job_get_stats: the run's statistics: the current engine's plus
 * those of the engines before it (segments, the run before a restart). */
void cli_job_get_stats(const struct cli_job *job, sk_stats *st);

#endif

/* src/cli/job.h: one run of the CLI: options, model, engine, output times, result files */
#ifndef SK_CLI_JOB_H
#define SK_CLI_JOB_H

#include <signal.h>

#include "cli/checkpointing.h"
#include "cli/network_report.h"
#include "cli/sens_report.h"
#include "stiffkit/results.h"
#include "stiffkit/stiffkit.h"

#define CLI_MAX_FILES 4

typedef struct cli_job {
  sk_options *opts;
  sk_bvp *bvp;                   /* model.type = bvp (stiffkit bvp, verify) */
  sk_bvp_keys *bvp_keys;         /* its named keys, freed after opts */
  struct bench_keys *bench_keys; /* the bench.stepper.NAME.* keys, freed after opts */
  sk_model *model;
  sk_stepper *stepper;
  sk_results *results;
  const char *method;
  char linsol[16], prec[16];
  double t0, t_end, rtol, atol;
  double *times;
  size_t ntimes;
  int64_t *probes;
  char **probe_names;
  size_t nprobes;
  double *exact; /* work buffer, length n, when the model has an exact solution */
  int started;   /* result files were opened */
  int have_error;
  double max_err, rms_err, rel_l2_err;
  cli_network_series net; /* a network's heat flows and event log */
  cli_sens_series sens;   /* the probes' sensitivities (solver.sensitivity.parameters) */
  int nfiles;
  char files[CLI_MAX_FILES][4096];
  /* run control (set by the subcommand before cli_job_execute) */
  sk_monitor_fn monitor; /* called after every step (progress) */
  void *monitor_data;
  volatile sig_atomic_t *stop_signal; /* a signal handler stores its signal here */
  const char *restart;                /* --restart CKPT, or NULL */
  int resume;                         /* --resume: restart when checkpoint.file exists */
  cli_ckpt ckpt;
  int restart_done;        /* the run continues from a checkpoint */
  double restart_t;        /* ... at this time */
  char restart_from[4096]; /* ... read from this file */
  double target;           /* the time the engine is advancing to */
} cli_job;

void cli_job_init(cli_job *job);
void cli_job_free(cli_job *job);

/* cli_job_options: the options database with every module's table (and
 * the bench.* keys of `stiffkit bench`, so that a config with a bench
 * section runs with every subcommand). */
sk_status cli_job_options(sk_context *ctx, cli_job *job);

/* cli_job_load: the embedded default job, CONFIG (YAML), or a thermal
 * netlist CONFIG ending in .net (model.type = network on it), then the --set
 * assignments, then the bench.stepper.NAME.* keys that were set are
 * registered (cli/bench_keys.h). */
sk_status cli_job_load(sk_context *ctx, cli_job *job, const char *config, const char **sets,
                       size_t nsets);

/* cli_job_build_model: the model of model.type (a plugin's after its
 * parameters are checked, a grid model, a library problem, a Matrix Market
 * model, a thermal network), refusing any key no table declared; a DAE
 * model gets solver.method = ida-bdf and a model's natural end time
 * solver.t_end, unless those are configured. */
sk_status cli_job_build_model(sk_context *ctx, cli_job *job);

/* cli_job_default_prefix: set output.prefix to `prefix` (a command's own
 * default: "bvp", "mechanism") unless a config or the command line gives
 * it; set as an option, so that the echoed options reproduce the run. */
sk_status cli_job_default_prefix(sk_context *ctx, cli_job *job, const char *prefix);

/* cli_job_output_times: job->t0, t_end from solver.t0 and solver.t_end
 * (t_end > t0), and job->times from output.times or output.n_times.
 * Errors: SK_ERR_INPUT (naming the key), SK_ERR_NOMEM. */
sk_status cli_job_output_times(sk_context *ctx, cli_job *job);

/* cli_job_prepare_outputs: job->model built: the output times, the
 * solver.stop_time check, the probes (output.probes, or the grid centre)
 * and the exact-solution buffer when the model has an exact solution.
 * Errors: SK_ERR_INPUT (naming the key), SK_ERR_NOMEM. */
sk_status cli_job_prepare_outputs(sk_context *ctx, cli_job *job);

/* cli_job_prepare: validate everything and build model and engine before
 * any file is created (bad input leaves nothing behind). */
sk_status cli_job_prepare(sk_context *ctx, cli_job *job);

/* cli_job_set_results_grid: record the node coordinates of a diffusion
 * grid model in the results' HDF5 /grid group (sk_results_set_grid); a
 * model that is not a diffusion grid has none (SK_OK). Errors: those of
 * sk_results_set_grid, SK_ERR_NOMEM. */
sk_status cli_job_set_results_grid(sk_context *ctx, const cli_job *job, sk_results *res);

/* cli_job_open_results: remove the previous results under output.prefix
 * and open the result files of output.csv/output.hdf5 (none: job->results
 * stays NULL), with the grid and a network's series. Errors: those of
 * sk_results_open. */
sk_status cli_job_open_results(sk_context *ctx, cli_job *job);

/* cli_job_write: one output row at time t of the state y (length n of
 * job->model), with the exact solution when the model has one; a no-op
 * without result files. Errors: those of sk_results_write. */
sk_status cli_job_write(sk_context *ctx, cli_job *job, double t, const double *y);

/* cli_job_record_error: job->max_err, rms_err, rel_l2_err of y against
 * job->exact (which holds the exact solution of the last written time). */
void cli_job_record_error(cli_job *job, const double *y);

/* cli_job_close_results: st == SK_OK: finish the result files (statistics
 * JSON `stats`, the provenance of argv with the effective options, then
 * `extra_provenance` appended: more top-level YAML keys, or NULL), else
 * keep them as .partial files with the failure's message (the error record
 * is kept). Records the files in job->files. Returns the status of the
 * finish/fail (SK_OK without result files). */
sk_status cli_job_close_results(sk_context *ctx, cli_job *job, sk_status st, const char *stats,
                                const char *extra_provenance, int argc, char **argv);

/* cli_job_execute: check the checkpoint to continue from (job->restart, or
 * job->resume when checkpoint.file exists: every field, before any file is
 * touched), remove the temporaries of killed runs beside the outputs and
 * the checkpoint, open the result files (continuing from the checkpoint:
 * its rows first), integrate through the output times writing checkpoints
 * as checkpoint.* asks, then finish (data renamed into place, the
 * checkpoint removed, the sidecar renamed last: the commit point; the
 * provenance holds the problem line of cli_run_complete) or fail (keep
 * .partial files). A signal in *job->stop_signal ends the run with SK_INTERRUPTED
 * after a checkpoint of the current state (in segment mode: the last
 * boundary's checkpoint is kept). */
sk_status cli_job_execute(sk_context *ctx, cli_job *job, int argc, char **argv);

/* cli_stats_json: the statistics as one JSON object (malloc'ed; NULL
 * when out of memory). */
char *cli_stats_json(const sk_stats *st);

/* cli_signal_name: "SIGTERM", "SIGINT", "SIGUSR1" or "a signal". */
const char *cli_signal_name(int sig);

#endif

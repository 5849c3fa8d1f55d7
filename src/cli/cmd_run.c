/* src/cli/cmd_run.c: `stiffkit run`: options -> model -> engine -> results, with progress and provenance */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/multibody_cli.h"
#include "cli/atomic_file.h"
#include "cli/cli.h"
#include "cli/dist_run.h"
#include "cli/json_out.h"
#include "cli/job.h"
#include "cli/progress.h"
#include "cli/run_complete.h"
#include "cli/run_report.h"
#include "cli/signal_thread.h"
#include "stiffkit/provenance.h"
#include "stiffkit/results.h"
#include "cli/network_report.h"

/* Parse --inject nan:comp=K:t=T; returns 0 on success. */
static int parse_injection(const char *spec, long long *comp, double *t)
{
  char tail;
  return sscanf(spec, "nan:comp=%lld:t=%lf%c", comp, t, &tail) == 2 ? 0 : -1;
}

static const char help_text[] =
    "usage: stiffkit run [CONFIG.yaml] [--set key=value ...] [--quiet] [--no-stats]\n"
    "                    [--stats-json FILE] [--stats-csv FILE] [--inject nan:comp=K:t=T]\n"
    "                    [--restart CKPT | --resume]\n"
    "       stiffkit run --help-options\n"
    "Without CONFIG the embedded default job runs: 2D heat equation, 100 x 100 unknowns,\n"
    "exact solution known, t in [0, 0.1]. --set overrides config values. Input files\n"
    "named in CONFIG (multibody.file, model.netlist, model.stiffness, model.plugin, ...) are\n"
    "relative to CONFIG's directory, those given with --set to the working directory.\n"
    "--quiet prints errors only (no summary, no warnings, no progress); --no-stats leaves\n"
    "the statistics table out of the summary (--stats-json/--stats-csv still write it).\n"
    "A mechanism (model.type: multibody, multibody.file) writes positions, .monitor.csv\n"
    "(constraint drift, energy balance, cond(G)) and .reactions.csv (multipliers);\n"
    "boundary-value problems (model.type: bvp) run with `stiffkit bvp`.\n"
    "SIGTERM, SIGINT and SIGUSR1 end the run with exit 75 after writing a checkpoint\n"
    "(checkpoint.file, default <output.dir>/<output.prefix>.ckpt; checkpoint.every and\n"
    "checkpoint.wall add interval checkpoints, checkpoint.segment restarts the engine at\n"
    "every boundary so that restarts repeat the run bitwise). --restart CKPT continues\n"
    "from a checkpoint of the same config and --set options (anything else is refused,\n"
    "exit 65); --resume continues from checkpoint.file when it exists, else starts at t0.\n";

/* The run-specific checks of the arguments (after cli_args_parse). */
static int check_run_args(const cli_args *a)
{
  long long comp;
  double tinj;
  if (a->restart && a->resume) {
    fprintf(stderr, "stiffkit: error: --restart and --resume exclude each other\n");
    return SK_EXIT_USAGE;
  }
  if (a->inject && parse_injection(a->inject, &comp, &tinj) != 0) {
    fprintf(stderr, "stiffkit: error: --inject expects nan:comp=K:t=T, got '%s'\n", a->inject);
    return SK_EXIT_USAGE;
  }
  return 0;
}

/* The signal that asked the run to stop (0 = none), stored by the signal
 * thread (cli/signal_thread.h): the CLI's one such variable. */
static volatile sig_atomic_t stop_signal = 0;

static void remove_if_present(const char *path)
{
  if (path) {
    remove(path);
  }
}

static int run_command(int argc, char **argv);

/* Remove the statistics files of an earlier run. */
static void remove_stats(const cli_args *a)
{
  remove_if_present(a->stats_json);
  remove_if_present(a->stats_csv);
}

/* --resume of a prepared job: 1 when its complete result set is already in
 * place (cli_run_complete), after saying so; nothing is changed then. *st
 * gets the status of hashing the problem. */
static int already_complete(sk_context *ctx, cli_job *job, const cli_args *a, sk_status *st)
{
  *st = cli_ckpt_init(ctx, &job->ckpt, job);
  char marker[4200];
  if (*st != SK_OK || !cli_run_complete(job, job->ckpt.problem_hash, marker, sizeof marker)) {
    return 0;
  }
  if (!a->quiet) {
    printf("already complete: %s holds the finished results of this job; nothing to do\n",
           marker);
  }
  return 1;
}

int cli_run(int argc, char **argv)
{
  /* before any other thread exists (OpenMP workers, MPI, library threads) */
  const int rc = cli_signal_thread_start(&stop_signal);
  if (rc == EAGAIN || rc == ENOMEM) {
    fprintf(stderr, "stiffkit: error: out of memory: cannot start the signal thread (%s)\n",
            strerror(rc));
    return SK_EXIT_OSERR;
  }
  if (rc != 0) {
    fprintf(stderr, "stiffkit: error: cannot start the signal thread (%s)\n", strerror(rc));
    return SK_EXIT_INTERNAL;
  }
  const int code = run_command(argc, argv);
  cli_signal_thread_stop();
  return code;
}

/* `stiffkit run` with the signal thread running. */
static int run_command(int argc, char **argv)
{
  cli_args args;
  sk_context *ctx = NULL;
  int code = cli_args_start(argc, argv, "run",
                            "--stats-json --stats-csv --inject --help-options --restart --resume",
                            help_text, check_run_args, &args, &ctx);
  if (code >= 0) {
    return code;
  }
  /* a config that is a FIFO with no writer must not outlast SIGTERM */
  sk_context_set_stop_flag(ctx, &stop_signal);
  /* an older statistics file must not outlive a failed run (with --resume:
   * once it is known that the job is not already complete) */
  if (!args.help_options && !args.resume) {
    remove_stats(&args);
  }
  if (!args.help_options && cli_dist_launched()) { /* one rank of mpirun -np K */
    remove_stats(&args);
    code = cli_dist_run(ctx, &args, argc, argv, &stop_signal);
    sk_context_destroy(&ctx);
    cli_args_free(&args);
    return code;
  }
  cli_job job;
  cli_job_init(&job);
  sk_status st = cli_job_options(ctx, &job);
  if (st == SK_OK && args.help_options) {
    sk_options_print_help(job.opts, stdout);
    cli_job_free(&job);
    sk_context_destroy(&ctx);
    cli_args_free(&args);
    return cli_stdout_status();
  }
  if (st == SK_OK) {
    st = cli_job_load(ctx, &job, args.config, args.sets, args.nsets);
  }
  const sk_model_type *mtype = NULL;
  if (st == SK_OK && sk_model_type_from_options(ctx, job.opts, &mtype) == SK_OK &&
      mtype->driver == SK_MODEL_DRIVER_MULTIBODY) { /* a mechanism has its own outputs */
    /* mechanisms write no checkpoints: --resume has nothing to continue from */
    remove_stats(&args);
    code = args.restart ? (fprintf(stderr, "stiffkit: error: --restart: checkpoints are not "
                                           "available for mechanisms (model.type: multibody)\n"),
                           SK_EXIT_DATA)
                        : cli_multibody_run(ctx, &job, &args, argc, argv);
    cli_job_free(&job);
    sk_context_destroy(&ctx);
    cli_args_free(&args);
    return code == SK_EXIT_OK ? cli_stdout_status() : code;
  }
  if (st == SK_OK) {
    st = cli_job_prepare(ctx, &job);
  }
  if (st == SK_OK && args.resume && already_complete(ctx, &job, &args, &st)) {
    cli_job_free(&job);
    sk_context_destroy(&ctx);
    cli_args_free(&args);
    return cli_stdout_status();
  }
  if (args.resume) {
    remove_stats(&args);
  }
  if (st == SK_OK && args.inject) {
    long long comp;
    double tinj;
    parse_injection(args.inject, &comp, &tinj);
    st = sk_model_inject_nan(job.model, (int64_t)comp, tinj);
  }
  cli_progress progress;
  if (st == SK_OK) {
    cli_progress_init(&progress, args.quiet, job.t0, job.t_end);
    job.monitor = cli_progress_monitor;
    job.monitor_data = &progress;
    job.stop_signal = &stop_signal;
    job.restart = args.restart;
    job.resume = args.resume;
    st = cli_job_execute(ctx, &job, argc, argv);
    cli_progress_done(&progress);
  }
  sk_stats stats;
  memset(&stats, 0, sizeof stats);
  cli_job_get_stats(&job, &stats);
  if (st == SK_OK) {
    code = cli_run_report(&job, &stats, &args, sk_stepper_get_state(job.stepper), NULL);
  } else {
    code = cli_report(ctx, st);
    if (job.stepper && job.started && !args.no_stats) {
      fprintf(stderr, "stiffkit: statistics at the failure:\n");
      sk_stats_print_table(&stats, stderr);
    }
    for (int i = 0; i < job.nfiles; i++) {
      fprintf(stderr, "stiffkit: kept incomplete output %s\n", job.files[i]);
    }
  }
  cli_job_free(&job);
  sk_context_destroy(&ctx);
  cli_args_free(&args);
  return code;
}

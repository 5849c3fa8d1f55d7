/* src/cli/cmd_bench.c: `stiffkit bench`: a work-precision study of any config: steppers and their ladders, the reference, the side-by-side report, the outputs */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/bench.h"
#include "cli/cli.h"
#include "cli/run_report.h"
#include "cli/signal_thread.h"
#include "core/error.h"
#include "cli/output_keys.h"

static const char help_text[] =
    "usage: stiffkit bench CONFIG.yaml [--set key=value ...] [--out PREFIX] [--quiet]\n"
    "       stiffkit bench --help-options\n"
    "A work-precision study of the config's model: every stepper of bench.methods (any\n"
    "registered type, plugin types with solver.plugin) over its rtol ladder (bench.rtols) or\n"
    "step ladder (bench.steps; bench.stepper.NAME.rtols/steps/atol_ratio/options.KEY for one\n"
    "stepper), bench.repeats runs per point (wall time: the median, with min and max). The\n"
    "error (bench.error: max or rms over bench.components at bench.times) and the scd\n"
    "(-log10 of the max relative error) are measured against the reference: the model's\n"
    "exact solution, a file, or CVODE/IDA far below the study's tolerances, checked by a\n"
    "second tolerance and an independent method, its accuracy shown. Results of outside\n"
    "codes join the study from CSVs (bench.external). A point that fails is recorded and\n"
    "the study goes on. Writes PREFIX.bench.csv, .json, .png (python3 with matplotlib),\n"
    ".h5 (bench.hdf5) and .provenance.yaml last; PREFIX defaults to\n"
    "<output.dir>/<output.prefix>. Prints the side-by-side report: per method the cheapest\n"
    "point reaching bench.target_error and its ratio to the fastest. SIGINT, SIGTERM and\n"
    "SIGUSR1 end the study after the last complete point, keeping its rows (exit 75).\n";

/* The signal that asked the study to stop (cli/signal_thread.h). */
static volatile sig_atomic_t stop_signal = 0;

/* Remove the outputs of an earlier study under this prefix. */
static int remove_previous(const char *prefix)
{
  static const char *const ext[] = {".bench.csv", ".bench.json", ".bench.h5", ".bench.png",
                                    ".bench.provenance.yaml"};
  for (size_t k = 0; k < sizeof ext / sizeof ext[0]; k++) {
    char path[4200];
    snprintf(path, sizeof path, "%s%s", prefix, ext[k]);
    if (remove(path) != 0 && errno != ENOENT) {
      fprintf(stderr, "stiffkit: error: cannot remove the previous output '%s': %s\n", path,
              strerror(errno));
      return SK_EXIT_CANTCREATE;
    }
  }
  return 0;
}

void bench_study_free(bench_study *b)
{
  for (int k = 0; k < b->nm; k++) {
    cli_job_free(&b->m[k].job);
    free(b->m[k].ladder);
  }
  cli_job_free(&b->base);
  free(b->rows);
  free(b->tidx);
  free(b->comps);
  free(b->ref);
}

/* The study from the arguments through its outputs; returns the exit code. */
static int study(bench_study *b, const cli_args *a, int argc, char **argv)
{
  sk_context *ctx = b->ctx;
  sk_status st = bench_job_load(b, &b->base, NULL);
  if (st == SK_OK) {
    st = bench_study_configure(b);
  }
  if (st != SK_OK) {
    return cli_report(ctx, st);
  }
  char prefix[4200];
  if (a->out) {
    snprintf(prefix, sizeof prefix, "%s", a->out);
  } else {
    cli_output_settings out;
    if (cli_output_settings_read(b->base.opts, &out, NULL) != SK_OK) {
      out = (cli_output_settings){.dir = ".", .prefix = "result"};
    }
    snprintf(prefix, sizeof prefix, "%s/%s", out.dir[0] ? out.dir : ".", out.prefix);
  }
  int code = remove_previous(prefix);
  if (code != 0) {
    return code;
  }
  if (!b->quiet) {
    fprintf(stderr, "bench: %s, n = %lld, %d methods, %zu points x %lld repeats\n",
            sk_model_get_name(b->base.model), (long long)sk_model_get_n(b->base.model), b->nm,
            b->planned, (long long)b->repeats);
  }
  st = bench_reference_make(b);
  if (st == SK_INTERRUPTED) {
    fprintf(stderr,
            "stiffkit: error: interrupted by %s while computing the reference; "
            "nothing was written\n",
            cli_signal_name((int)stop_signal));
    return SK_EXIT_INTERRUPTED;
  }
  if (st == SK_OK) {
    st = bench_external_add(b);
  }
  if (st == SK_OK) {
    st = bench_run_all(b);
  }
  if (st != SK_OK) {
    return cli_report(ctx, st);
  }
  if (!b->quiet) {
    bench_print_report(b);
  }
  code = bench_write_outputs(b, prefix, argc, argv);
  if (code == 0 && b->interrupted) {
    fprintf(stderr,
            "stiffkit: error: the study was interrupted by %s after %zu of %zu points; the "
            "complete points are kept in %s.bench.csv\n",
            cli_signal_name((int)stop_signal), b->done, b->planned, prefix);
    return SK_EXIT_INTERRUPTED;
  }
  return code == 0 ? cli_stdout_status() : code;
}

int cli_bench(int argc, char **argv)
{
  const int rc = cli_signal_thread_start(&stop_signal);
  if (rc != 0) {
    fprintf(stderr, "stiffkit: error: %scannot start the signal thread (%s)\n",
            rc == EAGAIN || rc == ENOMEM ? "out of memory: " : "", strerror(rc));
    return rc == EAGAIN || rc == ENOMEM ? SK_EXIT_OSERR : SK_EXIT_INTERNAL;
  }
  cli_args args;
  sk_context *ctx = NULL;
  int code =
      cli_args_start(argc, argv, "bench", "--out --help-options", help_text, NULL, &args, &ctx);
  if (code >= 0) {
    cli_signal_thread_stop();
    return code;
  }
  sk_context_set_stop_flag(ctx, &stop_signal);
  bench_study b;
  memset(&b, 0, sizeof b);
  b.ctx = ctx;
  b.config = args.config;
  b.sets = args.sets;
  b.nsets = args.nsets;
  b.quiet = args.quiet;
  b.stop_signal = &stop_signal;
  cli_job_init(&b.base);
  if (args.help_options) {
    const sk_status st = cli_job_options(ctx, &b.base);
    if (st == SK_OK) {
      sk_options_print_help(b.base.opts, stdout);
      code = cli_stdout_status();
    } else {
      code = cli_report(ctx, st);
    }
  } else if (!args.config) {
    fprintf(stderr, "stiffkit: error: bench needs a CONFIG.yaml (see stiffkit bench --help)\n");
    code = SK_EXIT_USAGE;
  } else {
    code = study(&b, &args, argc, argv);
  }
  bench_study_free(&b);
  sk_context_destroy(&ctx);
  cli_args_free(&args);
  cli_signal_thread_stop();
  return code;
}

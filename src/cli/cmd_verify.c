/* src/cli/cmd_verify.c: `stiffkit verify`: the configured job through sk_verify_ivp, sk_verify_bvp or sk_verify_multibody, and the report on stdout and in --report */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/atomic_file.h"
#include "cli/bvp_cli.h"
#include "cli/cli.h"
#include "cli/job.h"
#include "cli/multibody_cli.h"
#include "stiffkit/verify.h"

static const char help_text[] =
    "usage: stiffkit verify CONFIG.yaml [--set key=value ...] [--report FILE.json]\n"
    "                       [--quiet]\n"
    "Solves the configured job, then checks the answer: tolerance refinement (rtol/10,\n"
    "rtol/100), an independent reference stepper, the exact solution where the model has\n"
    "one, the analytic Jacobian against finite differences, the model's invariants, and\n"
    "the forward sensitivities (solver.sensitivity.parameters) against central differences\n"
    "of two extra solves per parameter, with the agreement in digits.\n"
    "The claimed error at each output time (and the digits vouched for) covers the largest\n"
    "of the refinement and reference differences, times a factor from the measured error\n"
    "reduction, and is never below rtol |y| + atol.\n"
    "Writes no result files; the report goes to stdout (and to FILE.json with --report).\n"
    "Exit 0 when every check passes, 11 when a check fails or nothing independent can be\n"
    "checked.\n";

/* The report in words on stdout (--quiet: a failed one only, on stderr) and
 * as JSON in json_path (written beside it and renamed into place) when not
 * NULL. Returns 0 (passed), 11 (failed), or the exit code of a failed write
 * (73, 74; stdout failing is 74, said on stderr). */
static int emit(const sk_verify_report *r, const char *json_path, int quiet)
{
  int code = sk_verify_report_failed(r) ? SK_EXIT_VERIFY : SK_EXIT_OK;
  if (!quiet || code != SK_EXIT_OK) {
    sk_verify_report_print(r, quiet ? stderr : stdout);
  }
  if (json_path) {
    cli_atomic_file af;
    int wrc = cli_atomic_open(&af, json_path);
    if (wrc == 0) {
      sk_verify_report_write_json(r, af.f);
      wrc = cli_atomic_commit(&af);
    }
    code = wrc ? wrc : code;
  }
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "stiffkit: error: writing to standard output failed: %s\n", strerror(errno));
    code = SK_EXIT_IOERR;
  }
  return code;
}

/* The exit code of a verification that made report r (st == SK_OK) or failed. */
static int conclude(sk_context *ctx, sk_status st, sk_verify_report *r, const cli_args *a)
{
  const int code = st == SK_OK ? emit(r, a->report, a->quiet) : cli_report(ctx, st);
  sk_verify_report_destroy(&r);
  return code;
}

/* An initial-value problem: the prepared job's stepper, output times and probes. */
static int verify_ivp(sk_context *ctx, cli_job *job, const cli_args *a)
{
  const sk_verify_ivp_job v = {.stepper = job->stepper,
                               .options = job->opts,
                               .times = job->times,
                               .ntimes = job->ntimes,
                               .probes = job->probes,
                               .probe_names = (const char *const *)job->probe_names,
                               .nprobes = job->nprobes};
  sk_verify_report *r = NULL;
  const sk_status st = sk_verify_ivp(ctx, &v, &r);
  return conclude(ctx, st, r, a);
}

/* A boundary-value problem: finite differences against multiple shooting. */
static int verify_bvp(sk_context *ctx, cli_job *job, const cli_args *a)
{
  sk_bvp_settings settings;
  sk_verify_report *r = NULL;
  sk_status st = cli_bvp_build(ctx, job);
  if (st == SK_OK) {
    st = sk_bvp_settings_from_options(ctx, job->opts, &settings);
  }
  if (st == SK_OK) {
    st = sk_verify_bvp(ctx, job->bvp, &settings, &r);
  }
  return conclude(ctx, st, r, a);
}

/* A mechanism: its formulation against multibody.compare's, from the consistent start. */
static int verify_mechanism(sk_context *ctx, cli_job *job, const cli_args *a)
{
  cli_multibody cm = {0};
  sk_multibody_settings s;
  int project;
  sk_verify_report *r = NULL;
  sk_status st = cli_multibody_setup(ctx, job, &cm);
  if (st == SK_OK) {
    st = sk_multibody_settings_from_options(ctx, job->opts, 0, &s, &project);
  }
  if (st == SK_OK) {
    const sk_verify_multibody_job v = {.mechanism = cm.mech,
                                       .options = job->opts,
                                       .method = cli_multibody_method(job->opts, &s),
                                       .q0 = cm.q0,
                                       .v0 = cm.v0,
                                       .t0 = job->t0,
                                       .times = job->times,
                                       .ntimes = job->ntimes,
                                       .rtol = cm.rtol,
                                       .atol = cm.atol};
    st = sk_verify_multibody(ctx, &v, &r);
  }
  const int code = conclude(ctx, st, r, a);
  cli_multibody_free(&cm);
  return code;
}

/* verify compares against the configured production run: CONFIG is required. */
static int need_config(const cli_args *a)
{
  if (!a->config) {
    fprintf(stderr,
            "stiffkit: error: verify needs a config file (stiffkit verify CONFIG.yaml)\n");
    return SK_EXIT_USAGE;
  }
  return 0;
}

int cli_verify(int argc, char **argv)
{
  cli_args args;
  sk_context *ctx = NULL;
  int code =
      cli_args_start(argc, argv, "verify", "--report", help_text, need_config, &args, &ctx);
  if (code >= 0) {
    return code;
  }
  cli_job job;
  cli_job_init(&job);
  sk_status st = cli_job_options(ctx, &job);
  if (st == SK_OK) {
    st = cli_job_load(ctx, &job, args.config, args.sets, args.nsets);
  }
  const sk_model_type *mtype = NULL;
  if (st == SK_OK && sk_model_type_from_options(ctx, job.opts, &mtype) == SK_OK &&
      mtype->driver != SK_MODEL_DRIVER_STEPPER) {
    code = mtype->driver == SK_MODEL_DRIVER_BVP ? verify_bvp(ctx, &job, &args)
                                                : verify_mechanism(ctx, &job, &args);
  } else if (st == SK_OK && (st = cli_job_prepare(ctx, &job)) == SK_OK) {
    code = verify_ivp(ctx, &job, &args);
  } else {
    code = cli_report(ctx, st);
  }
  cli_job_free(&job);
  sk_context_destroy(&ctx);
  cli_args_free(&args);
  return code;
}

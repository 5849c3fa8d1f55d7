/* src/cli/cmd_diagnose.c: `stiffkit diagnose`: Jacobian eigenvalue estimates along the solution, stiffness ratio, explicit step bounds and a solver recommendation */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/atomic_file.h"
#include "cli/cli.h"
#include "cli/json_out.h"
#include "cli/job.h"
#include "core/error.h"

static const char help_text[] =
    "usage: stiffkit diagnose [CONFIG.yaml] [--set key=value ...] [--report FILE.json] "
    "[--quiet]\n"
    "Estimates the extreme eigenvalues of the Jacobian at t0 and at three times along\n"
    "the solution (integrated with the configured engine), and reports the stiffness\n"
    "ratio, the time scales, the explicit stability bounds (forward Euler, RK4), the\n"
    "predicted explicit step count against the steps the engine took, and which solver\n"
    "to use, with the reasons. Without CONFIG the embedded default job is diagnosed.\n";

static const char *min_method_text(const sk_eig_estimate *e)
{
  return e->min_method == SK_EIG_MIN_KLU_INVERSE
             ? "inverse iteration (Arnoldi on (J - sI)^-1, KLU)"
             : "Arnoldi on J - sigma I, sigma = Re(lambda_max) (approximate: accuracy is "
               "relative "
               "to |lambda_max|)";
}

static void print_value(FILE *f, sk_eigenvalue v)
{
  if (fabs(v.im) > 1e-8 * hypot(v.re, v.im)) {
    fprintf(f, "%.6e %+.6ei", v.re, v.im);
  } else {
    fprintf(f, "%.6e", v.re);
  }
}

static void print_text(const cli_job *job, const sk_diagnose_report *r)
{
  const sk_model *m = job->model;
  printf("stiffkit %s diagnose: model %s, n = %lld, Jacobian %s, preconditioner %s\n", SK_VERSION,
         sk_model_get_name(m), (long long)sk_model_get_n(m),
         sk_model_has_jacobian(m) ? "sparse (model)" : "none (difference quotients of f)",
         sk_model_has_preconditioner(m) ? "model" : "none");
  printf("solution by %s (linear solver %s, preconditioner %s), t = %.6e -> %.6e\n", r->method,
         r->linsol, r->prec, r->t0, r->t_end);
  for (int k = 0; k < r->nsamples; k++) {
    const sk_diagnose_sample *s = &r->s[k];
    printf("\nat t = %.6e:\n", s->t);
    printf("  lambda_max (largest |lambda|)  = ");
    print_value(stdout, s->e.lambda_max);
    printf("   (Arnoldi, J v from %s, residual %.1e)\n",
           s->e.sparse_jv ? "the sparse Jacobian" : "difference quotients", s->e.max_resid);
    printf("  lambda_min (smallest |lambda|) = ");
    print_value(stdout, s->e.lambda_min);
    printf("   (%s)\n", min_method_text(&s->e));
    if (s->e.have_gershgorin) {
      printf("  Gershgorin: %.6e <= Re(lambda) <= %.6e, |lambda| <= %.6e\n", s->e.gersh_lo,
             s->e.gersh_hi, s->e.gersh_rho);
    } else {
      printf("  Gershgorin: not available (the model has no Jacobian values)\n");
    }
    printf("  stiffness ratio |lambda_max|/|lambda_min| = %.6g\n", s->ratio);
    printf("  time scales: fastest 1/|lambda_max| = %.6e, slowest 1/|lambda_min| = %.6e\n",
           1 / s->mag_max, 1 / s->mag_min);
    printf("  explicit stability: h <= %.6e (forward Euler, 2/|lambda_max|), h <= %.6e (RK4, "
           "2.785/|lambda_max|, real axis)\n",
           SK_DIAGNOSE_FE_LIMIT / s->mag_max, SK_DIAGNOSE_RK4_LIMIT / s->mag_max);
  }
  printf("\nover [%.6e, %.6e] (largest |lambda_max| seen %.6e, stiffness ratio up to %.6g):\n",
         r->t0, r->t_end, r->worst_max, r->worst_ratio);
  printf("  predicted explicit steps: %.6g (forward Euler), %.6g (RK4)\n", r->steps_fe,
         r->steps_rk4);
  printf("  steps %s took: %lld (%lld error test failures, %lld RHS evaluations)\n", r->method,
         (long long)r->stats.steps, (long long)r->stats.failed_steps,
         (long long)r->stats.rhs_evals);
  printf("\nrecommendation: %s\n", r->recommendation);
  for (int i = 0; i < r->nreasons; i++) {
    printf("  because %s\n", r->reasons[i]);
  }
  printf("  settings: %s\n", r->settings);
  if (r->nsamples > 0 && r->s[0].e.min_method == SK_EIG_MIN_SHIFTED_ARNOLDI) {
    printf("note: lambda_min comes from the shifted iteration (n > %d or no sparse Jacobian);\n"
           "      the stiffness ratio is an estimate of its order of magnitude\n",
           SK_EIG_KLU_MAX_N);
  }
}

/* ---- JSON report -------------------------------------------------------- */

static void json_key_number(FILE *f, const char *key, double v, const char *sep)
{
  fprintf(f, "\"%s\": ", key);
  sk__json_number(f, v);
  fputs(sep, f);
}

static void json_eig(FILE *f, const char *key, sk_eigenvalue v)
{
  fprintf(f, "\"%s\": {\"re\": ", key);
  sk__json_number(f, v.re);
  fputs(", \"im\": ", f);
  sk__json_number(f, v.im);
  fputs("}, ", f);
}

static void write_json(FILE *f, const cli_job *job, const sk_diagnose_report *r)
{
  const sk_model *m = job->model;
  fputs("{\n  \"model\": ", f);
  sk__json_string(f, sk_model_get_name(m));
  fprintf(f, ",\n  \"n\": %lld,\n  \"has_jacobian\": %s,\n  \"has_preconditioner\": %s,\n",
          (long long)sk_model_get_n(m), sk_model_has_jacobian(m) ? "true" : "false",
          sk_model_has_preconditioner(m) ? "true" : "false");
  fputs("  \"method\": ", f);
  sk__json_string(f, r->method);
  fputs(", \"linsol\": ", f);
  sk__json_string(f, r->linsol);
  fputs(", \"preconditioner\": ", f);
  sk__json_string(f, r->prec);
  fputs(",\n  \"t0\": ", f);
  sk__json_number(f, r->t0);
  fputs(", \"t_end\": ", f);
  sk__json_number(f, r->t_end);
  fputs(",\n  \"samples\": [\n", f);
  for (int k = 0; k < r->nsamples; k++) {
    const sk_diagnose_sample *s = &r->s[k];
    fputs("    {", f);
    json_key_number(f, "t", s->t, ", ");
    json_eig(f, "lambda_max", s->e.lambda_max);
    json_eig(f, "lambda_min", s->e.lambda_min);
    fprintf(f, "\"lambda_min_method\": \"%s\", ",
            s->e.min_method == SK_EIG_MIN_KLU_INVERSE ? "klu-inverse" : "shifted-arnoldi");
    fprintf(f, "\"jv\": \"%s\", ", s->e.sparse_jv ? "sparse" : "difference-quotient");
    json_key_number(f, "lambda_max_residual", s->e.max_resid, ", ");
    json_key_number(f, "lambda_min_residual", s->e.min_resid, ", ");
    if (s->e.have_gershgorin) {
      fputs("\"gershgorin\": {", f);
      json_key_number(f, "re_min", s->e.gersh_lo, ", ");
      json_key_number(f, "re_max", s->e.gersh_hi, ", ");
      json_key_number(f, "abs_max", s->e.gersh_rho, "}, ");
    } else {
      fputs("\"gershgorin\": null, ", f);
    }
    json_key_number(f, "stiffness_ratio", s->ratio, ", ");
    json_key_number(f, "timescale_fast", 1 / s->mag_max, ", ");
    json_key_number(f, "timescale_slow", 1 / s->mag_min, ", ");
    json_key_number(f, "h_max_forward_euler", SK_DIAGNOSE_FE_LIMIT / s->mag_max, ", ");
    json_key_number(f, "h_max_rk4", SK_DIAGNOSE_RK4_LIMIT / s->mag_max, "");
    fprintf(f, "}%s\n", k + 1 < r->nsamples ? "," : "");
  }
  fputs("  ],\n  ", f);
  json_key_number(f, "stiffness_ratio", r->worst_ratio, ",\n  ");
  json_key_number(f, "lambda_max_abs", r->worst_max, ",\n  ");
  json_key_number(f, "h_max_forward_euler", r->h_fe, ",\n  ");
  json_key_number(f, "h_max_rk4", r->h_rk4, ",\n  ");
  json_key_number(f, "predicted_steps_forward_euler", r->steps_fe, ",\n  ");
  json_key_number(f, "predicted_steps_rk4", r->steps_rk4, ",\n  ");
  fputs("\"stats\": ", f);
  sk_stats_print_json(&r->stats, f);
  fputs(",\n  \"recommendation\": {\"kind\": ", f);
  sk__json_string(f, r->explicit_ok ? "explicit" : "stiff");
  fputs(", \"text\": ", f);
  sk__json_string(f, r->recommendation);
  fputs(", \"settings\": ", f);
  sk__json_string(f, r->settings);
  fputs(", \"reasons\": [", f);
  for (int i = 0; i < r->nreasons; i++) {
    sk__json_string(f, r->reasons[i]);
    fputs(i + 1 < r->nreasons ? ", " : "", f);
  }
  fputs("]},\n  \"options\": ", f);
  char *eff = sk_options_effective_string(job->opts);
  sk__json_string(f, eff ? eff : "");
  free(eff);
  fputs("\n}\n", f);
}

/* The report via a temporary name and a rename (no partial file on failure). */
static int write_report(const char *path, const cli_job *job, const sk_diagnose_report *r)
{
  cli_atomic_file af;
  const int rc = cli_atomic_open(&af, path);
  if (rc != 0) {
    return rc;
  }
  write_json(af.f, job, r);
  return cli_atomic_commit(&af);
}

int cli_diagnose(int argc, char **argv)
{
  cli_args args;
  sk_context *ctx = NULL;
  int code = cli_args_start(argc, argv, "diagnose", "--report", help_text, NULL, &args, &ctx);
  if (code >= 0) {
    return code;
  }
  cli_job job;
  cli_job_init(&job);
  sk_diagnose_report *r = calloc(1, sizeof *r);
  sk_status st = r ? cli_job_options(ctx, &job) : SK_ERR_NOMEM;
  if (st == SK_OK) {
    st = cli_job_load(ctx, &job, args.config, args.sets, args.nsets);
  }
  if (st == SK_OK) {
    st = cli_job_prepare(ctx, &job);
  }
  if (st == SK_OK) {
    st = sk_diagnose(job.stepper, job.t_end, r);
  }
  if (st == SK_OK) {
    if (!args.quiet) {
      print_text(&job, r);
    }
    code = args.report ? write_report(args.report, &job, r) : SK_EXIT_OK;
    if (code == SK_EXIT_OK && args.report && !args.quiet) {
      printf("wrote %s\n", args.report);
    }
    if (code == SK_EXIT_OK && (fflush(stdout) != 0 || ferror(stdout))) {
      fprintf(stderr, "stiffkit: error: writing to standard output failed: %s\n",
              strerror(errno));
      code = SK_EXIT_IOERR;
    }
  } else if (st == SK_ERR_NOMEM && !r) {
    fprintf(stderr, "stiffkit: error: out of memory\n");
    code = SK_EXIT_INTERNAL;
  } else {
    code = cli_report(ctx, st);
  }
  free(r);
  cli_job_free(&job);
  sk_context_destroy(&ctx);
  cli_args_free(&args);
  return code;
}

/* src/cli/bench_reference.c: the reference solution of `stiffkit bench`: the model's exact one, a user's file, or CVODE/IDA far below the study's tolerances, checked by a second tolerance and an independent method */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/bench.h"
#include "cli/bench_keys.h"
#include "core/error.h"

/* The reference rtol: bench.reference_rtol, else 1e-3 times the tightest
 * rtol of the study within [1e-13, 1e-10]. */
static double reference_rtol(const bench_study *b)
{
  bench_settings bs;
  const double r = bench_settings_read(b->base.opts, &bs, NULL) == SK_OK ? bs.reference_rtol : 0;
  if (r > 0) {
    return r;
  }
  double tight = 1e-7; /* a study of fixed steps only */
  for (int k = 0; k < b->nm; k++) {
    for (size_t i = 0; i < b->m[k].nladder && !b->m[k].fixed && !b->m[k].external; i++) {
      tight = fmin(tight, b->m[k].ladder[i]);
    }
  }
  return fmin(1e-10, fmax(1e-13, 1e-3 * tight));
}

/* The independent method that checks a computed reference ("" = none). */
static void check_method(const bench_study *b, const char *primary, char *buf, size_t len)
{
  bench_settings bs;
  const char *opt =
      bench_settings_read(b->base.opts, &bs, NULL) == SK_OK ? bs.reference_check : "auto";
  buf[0] = '\0';
  if (strcmp(opt, "auto")) {
    snprintf(buf, len, "%s", strcmp(opt, "none") ? opt : "");
    return;
  }
  if (sk_model_get_kind(b->base.model) != SK_MODEL_DAE) {
    snprintf(buf, len, "cvode-adams");
    return;
  }
  const sk_stepper_type *t;
  for (size_t i = 0; (t = sk_stepper_type_list(b->ctx, i)) != NULL; i++) {
    const unsigned need = SK_STEPPER_HANDLES_DAE | SK_STEPPER_ADAPTIVE;
    if ((t->flags & need) == need && strcmp(t->name, primary)) {
      snprintf(buf, len, "%s", t->name);
      return;
    }
  }
}

/* The last error's message, and the error record cleared. */
static void take_error(sk_context *ctx, char *buf, size_t len)
{
  sk_error_format(sk_context_get_error(ctx), 0, buf, len);
  sk_context_clear_error(ctx);
}

static sk_status computed(bench_study *b, double *work)
{
  sk_context *ctx = b->ctx;
  bench_reference *R = &b->reference;
  cli_job *job = &b->base;
  const int dae = sk_model_get_kind(job->model) == SK_MODEL_DAE;
  snprintf(R->kind, sizeof R->kind, "computed");
  snprintf(R->method, sizeof R->method, "%s", dae ? "ida-bdf" : "cvode-bdf");
  bench_settings bs;
  SK_CALL(ctx, bench_settings_read(job->opts, &bs, NULL));
  const double ratio = bs.atol_ratio;
  R->rtol = reference_rtol(b);
  R->atol = ratio > 0 ? ratio * R->rtol : job->atol * R->rtol / job->rtol;
  sk_stats st;
  double wall;
  if (!b->quiet) {
    fprintf(stderr, "bench: reference: %s at rtol %.1e, atol %.1e\n", R->method, R->rtol,
            R->atol);
  }
  sk_status rc = bench_solve(b, job, R->method, 0, R->rtol, R->atol, 100, b->ref, &st, &wall);
  R->wall = wall;
  if (rc == SK_INTERRUPTED) {
    return rc;
  }
  if (rc != SK_OK) {
    char msg[SK_ERROR_MSG_LEN];
    take_error(ctx, msg, sizeof msg);
    return SK_ERROR(ctx, rc,
                    "the reference solve (%s at rtol %.1e) failed: %s; set "
                    "bench.reference_rtol looser, or give the reference (bench.reference: file)",
                    R->method, R->rtol, msg);
  }
  double scd;
  R->d_tol = R->d_check = NAN;
  rc = bench_solve(b, job, R->method, 0, 10 * R->rtol, 10 * R->atol, 100, work, &st, &wall);
  R->wall += wall;
  char msg[SK_ERROR_MSG_LEN];
  size_t used = 0;
  if (rc == SK_INTERRUPTED) {
    return rc;
  }
  if (rc == SK_OK) {
    R->d_tol = bench_measure(b, work, &scd);
    used +=
        (size_t)snprintf(R->note + used, sizeof R->note - used, "%s at rtol %.1e differs by %.3e",
                         R->method, 10 * R->rtol, R->d_tol);
  } else {
    take_error(ctx, msg, sizeof msg);
    used += (size_t)snprintf(R->note + used, sizeof R->note - used,
                             "the second-tolerance solve failed (%.200s)", msg);
  }
  check_method(b, R->method, R->check_method, sizeof R->check_method);
  if (!R->check_method[0]) {
    snprintf(R->note + used, sizeof R->note - used, "; no independent method checked it%s",
             dae ? " (no other adaptive DAE stepper is registered)" : "");
  } else {
    if (!b->quiet) {
      fprintf(stderr, "bench: reference check: %s at rtol %.1e\n", R->check_method, 10 * R->rtol);
    }
    rc = bench_solve(b, job, R->check_method, 0, 10 * R->rtol, 10 * R->atol, 1, work, &st, &wall);
    R->wall += wall;
    if (rc == SK_INTERRUPTED) {
      return rc;
    }
    if (rc == SK_OK) {
      R->d_check = bench_measure(b, work, &scd);
      snprintf(R->note + used, sizeof R->note - used, "; %s at rtol %.1e differs by %.3e",
               R->check_method, 10 * R->rtol, R->d_check);
    } else {
      take_error(ctx, msg, sizeof msg);
      snprintf(R->note + used, sizeof R->note - used,
               "; the independent check by %s could not be made (%.200s)", R->check_method, msg);
    }
  }
  /* both comparisons are against a looser solve: their differences bound the reference's error
     from above in practice (each is about the looser solve's error) */
  R->accuracy = fmax(isnan(R->d_tol) ? 0 : R->d_tol, isnan(R->d_check) ? 0 : R->d_check);
  if (isnan(R->d_tol) && isnan(R->d_check)) {
    R->accuracy = NAN;
  }
  return SK_OK;
}

static sk_status exact(bench_study *b)
{
  sk_context *ctx = b->ctx;
  cli_job *job = &b->base;
  SK_CHECK(ctx, job->exact != NULL, SK_ERR_INPUT,
           "bench.reference = exact: model.type = %s has no exact solution here (use computed "
           "or file)",
           sk_model_get_name(job->model));
  snprintf(b->reference.kind, sizeof b->reference.kind, "exact");
  snprintf(b->reference.note, sizeof b->reference.note, "the model's exact solution");
  for (size_t k = 0; k < b->nt; k++) {
    SK_CALL(ctx, sk_model_eval_exact(job->model, job->times[b->tidx[k]], job->exact));
    for (size_t i = 0; i < b->ncomp; i++) {
      b->ref[k * b->ncomp + i] = job->exact[b->comps[i]];
    }
  }
  b->reference.accuracy = 0;
  return SK_OK;
}

static sk_status from_file(bench_study *b)
{
  sk_context *ctx = b->ctx;
  const sk_options *o = b->base.opts;
  const char *path;
  const char *key = bench_key(BENCH_KEY_reference_file);
  SK_CHECK(ctx, sk_options_is_set(o, key), SK_ERR_INPUT,
           "bench.reference = file: name the file in bench.reference_file");
  SK_CALL(ctx, sk_options_get_input_file(o, key, &path)); /* checked to exist */
  bench_state_table st;
  sk_status rc =
      bench_state_table_read(ctx, path, NULL, NULL, 0, sk_model_get_n(b->base.model), &st);
  if (rc == SK_OK) {
    rc = bench_states_at_times(b, &st, 0, st.nrows, path, "the reference", b->ref);
  }
  bench_state_table_free(&st);
  SK_CALL(ctx, rc);
  snprintf(b->reference.kind, sizeof b->reference.kind, "file");
  snprintf(b->reference.note, sizeof b->reference.note, "read from %.500s (accuracy unknown)",
           path);
  b->reference.accuracy = NAN;
  return SK_OK;
}

sk_status bench_reference_make(bench_study *b)
{
  sk_context *ctx = b->ctx;
  bench_settings bs;
  SK_CALL(ctx, bench_settings_read(b->base.opts, &bs, NULL));
  const char *kind = bs.reference;
  b->ref = malloc(b->nt * b->ncomp * sizeof *b->ref);
  double *work = malloc(b->nt * b->ncomp * sizeof *work);
  sk_status st = b->ref && work ? SK_OK : SK_ERR_NOMEM;
  if (st != SK_OK) {
    free(work);
    return SK_ERROR(ctx, st, "cannot allocate the reference states");
  }
  b->reference.d_tol = b->reference.d_check = NAN;
  if (!strcmp(kind, "exact") || (!strcmp(kind, "auto") && b->base.exact)) {
    st = exact(b);
  } else if (!strcmp(kind, "file")) {
    st = from_file(b);
  } else {
    st = computed(b, work);
  }
  free(work);
  return st;
}

/* src/steppers/stepper_reinit.c: sk_stepper_reinit: restart a set-up stepper at (t, y, y') keeping its engine, settings and counters */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/context_impl.h"
#include "core/error.h"
#include "core/model_impl.h"
#include "steppers/stepper_impl.h"
#include "stiffkit/plugin.h"

/* SK_ERR_ARG naming the first non-finite component of v (length n). */
static sk_status check_finite(sk_stepper *s, const double *v, int64_t n, const char *what)
{
  for (int64_t i = 0; i < n; i++) {
    if (!isfinite(v[i])) {
      char name[96];
      sk_model_component_name(s->model, i, name, sizeof name);
      return SK_ERROR(s->ctx, SK_ERR_ARG, "sk_stepper_reinit: %s component %lld (%s) is %g", what,
                      (long long)i, name, v[i]);
    }
  }
  return SK_OK;
}

/* The checks of sk_stepper_reinit's contract, before anything changes. */
static sk_status check_args(sk_stepper *s, double t, int64_t n, const double *y, const double *yp)
{
  sk_context *ctx = s->ctx;
  const int64_t nm = sk_model_get_n(s->model);
  SK_CHECK(ctx, s->is_setup, SK_ERR_STATE,
           "sk_stepper_reinit: stepper '%s' is not set up yet: it restarts a stepper after "
           "sk_stepper_setup (or a first advance); set the start with sk_stepper_set_initial",
           s->type->name);
  SK_CHECK(ctx, y != NULL, SK_ERR_ARG, "sk_stepper_reinit: NULL state vector");
  SK_CHECK(ctx, n == nm, SK_ERR_ARG,
           "sk_stepper_reinit: the state has %lld components, model '%s' has %lld", (long long)n,
           sk_model_get_name(s->model), (long long)nm);
  SK_CHECK(ctx, isfinite(t), SK_ERR_ARG, "sk_stepper_reinit: the time must be finite (got %g)",
           t);
  double tstop;
  if (sk_stepper_get_stop_time(s, &tstop)) {
    SK_CHECK(ctx, t < tstop, SK_ERR_ARG,
             "sk_stepper_reinit: t=%.6e is not before solver.stop_time %.6e", t, tstop);
  }
  SK_CALL(ctx, check_finite(s, y, n, "state"));
  if (yp) {
    SK_CALL(ctx, check_finite(s, yp, n, "derivative"));
  }
  SK_CALL(ctx, sk__model_check_constraints(s->model, y));
  return SK_OK;
}

/* A type without a reinit op: a new state from its create and setup, with
 * the settings, time and state buffer as they are now; the old state is
 * destroyed once the new one is set up, and stays in place when create or
 * setup fails. The old state's counters go to s->recreated. */
static sk_status recreate(sk_stepper *s)
{
  sk_context *ctx = s->ctx;
  sk_stats before;
  memset(&before, 0, sizeof before);
  before.t = s->t;
  SK_CALL(ctx, s->type->get_stats(s, &before));
  void *old = s->impl;
  s->impl = NULL;
  sk_context_clear_error(ctx);
  sk_status rc = s->type->create(s);
  if (rc == SK_OK && s->type->setup) {
    rc = s->type->setup(s);
  }
  if (rc != SK_OK) {
    char why[SK_ERROR_MSG_LEN];
    snprintf(why, sizeof why, "%s", ctx->err.message[0] ? ctx->err.message : sk_status_str(rc));
    s->type->destroy(s); /* the new, partial state */
    s->impl = old;
    return SK_ERROR(ctx, rc < 0 ? rc : SK_ERR_INTERNAL,
                    "sk_stepper_reinit: stepper '%s' has no reinit op, and re-creating it "
                    "failed (it keeps its old state): %s",
                    s->type->name, why);
  }
  void *fresh = s->impl;
  s->impl = old;
  s->type->destroy(s);
  s->impl = fresh;
  sk_stats_add(&s->recreated, &before);
  return SK_OK;
}

sk__reinit_op sk__stepper_type_reinit(const sk_context *ctx, const sk_stepper_type *type)
{
  return sk__stepper_type_abi(ctx, type) >= 2 ? type->reinit : NULL; /* ABI 2 added reinit */
}

sk_status sk_stepper_reinit(sk_stepper *s, double t, int64_t n, const double *y, const double *yp)
{
  if (!s) {
    return SK_ERR_ARG;
  }
  sk_context *ctx = s->ctx;
  SK_CALL(ctx, check_args(s, t, n, y, yp));
  /* what a failure restores */
  const size_t bytes = (size_t)n * sizeof *y;
  double *saved = sk__malloc(ctx, 2 * bytes);
  SK_CHECK(ctx, saved != NULL, SK_ERR_NOMEM, "cannot allocate the restart's copy of the state");
  memcpy(saved, s->y, bytes);
  if (s->yp) {
    memcpy(saved + n, s->yp, bytes);
  }
  const double t0 = s->t0, tnow = s->t;
  const sk__guard guard = s->guard;
  memcpy(s->y, y, bytes);
  s->t0 = t;
  s->t = t;
  sk_status rc = sk__guard_reinit(s);
  if (rc == SK_OK) {
    const sk__reinit_op op = sk__stepper_type_reinit(ctx, s->type);
    rc = op ? op(s, yp) : recreate(s);
  }
  if (rc != SK_OK) {
    memcpy(s->y, saved, bytes);
    if (s->yp) {
      memcpy(s->yp, saved + n, bytes);
    }
    s->t0 = t0;
    s->t = tnow;
    s->guard = guard;
    sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
  }
  sk__free(ctx, saved);
  return rc;
}

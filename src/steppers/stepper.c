/* src/steppers/stepper.c: the generic stepper: lifecycle, common settings, options, dispatch to the type table */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/context_impl.h"
#include "core/error.h"
#include "core/model_dist.h"
#include "core/stop.h"
#include "core/jacobian_selftest.h"
#include "core/model_impl.h"
#include "core/threads.h"
#include "linsol/linsol_types.h"
#include "steppers/mass_form.h"
#include "steppers/stepper_impl.h"
#include "stiffkit/plugin.h"

sk_status sk_stepper_create_with_type(sk_context *ctx, const sk_stepper_type *type,
                                      sk_model *model, sk_stepper **s)
{
  SK_CHECK(ctx, s != NULL && model != NULL && type != NULL, SK_ERR_ARG,
           "sk_stepper_create_with_type: NULL argument");
  *s = NULL;
  SK_CHECK(ctx,
           sk_model_get_kind(model) != SK_MODEL_DAE || (type->flags & SK_STEPPER_HANDLES_DAE),
           SK_ERR_UNSUPPORTED, "solver '%s' cannot integrate a DAE model", type->name);
  SK_CHECK(ctx, sk_model_get_nevents(model) == 0 || (type->flags & SK_STEPPER_EVENTS),
           SK_ERR_UNSUPPORTED,
           "solver '%s' does not locate events, and model '%s' has %d (switches): use cvode-bdf, "
           "cvode-adams or ida-bdf",
           type->name, sk_model_get_name(model), sk_model_get_nevents(model));
  SK_CHECK(ctx, sk_model_get_kind(model) != SK_MODEL_ALGEBRAIC, SK_ERR_UNSUPPORTED,
           "solver '%s' integrates in time; model '%s' is algebraic", type->name,
           sk_model_get_name(model));
  SK_CHECK(ctx, !sk__model_get_distribution(model) || (type->flags & SK_STEPPER_DISTRIBUTED),
           SK_ERR_UNSUPPORTED,
           "solver '%s' cannot integrate model '%s', whose state is distributed over MPI ranks: "
           "cvode-bdf does",
           type->name, sk_model_get_name(model));
  const int64_t n = sk_model_get_n(model);
  sk_model *form = NULL; /* M y' = f: the form this engine integrates (steppers/mass_form.h) */
  if (sk_model_has_mass(model)) {
    SK_CALL(ctx, sk__mass_form_create(ctx, model, (type->flags & SK_STEPPER_HANDLES_DAE) != 0,
                                      type->name, &form));
  }
  sk_stepper *st = sk__calloc(ctx, 1, sizeof *st);
  double *y = sk__calloc(ctx, (size_t)n, sizeof *y);
  if (!st || !y) {
    sk__free(ctx, st);
    sk__free(ctx, y);
    sk_model_destroy(&form);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate a stepper for %lld states", (long long)n);
  }
  st->ctx = ctx;
  st->type = type;
  st->model = form ? form : model;
  st->user_model = model;
  st->y = y;
  st->rtol = 1e-6;
  st->atol = 1e-9;
  st->max_steps = 500000;
  st->vector_kernels = SK_VECTOR_KERNELS_AUTO;
  st->dq_jacobian = SK_DQ_JACOBIAN_STIFFKIT;
  st->threads = 0;
  st->check_jacobian = 1;
  st->max_growth = SK__GUARD_MAX_GROWTH_DEFAULT;
  st->amg_reuse_ratio = SK__AMG_REUSE_RATIO_DEFAULT;
  snprintf(st->linsol, sizeof st->linsol, "auto");
  snprintf(st->prec, sizeof st->prec, "auto");
  sk__mg_params_default(&st->mg);
  snprintf(st->ordering, sizeof st->ordering, "auto");
  if (type->create) {
    sk_status rc = type->create(st);
    if (rc < 0) {
      sk__free(ctx, st->y);
      sk__free(ctx, st);
      sk_model_destroy(&form);
      sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
      return rc;
    }
  }
  *s = st;
  return SK_OK;
}

void sk_stepper_destroy(sk_stepper **s)
{
  if (!s || !*s) {
    return;
  }
  sk_stepper *st = *s;
  if (st->type->destroy) {
    st->type->destroy(st);
  }
  sk__free(st->ctx, st->atol_vec);
  sk__stepper_sens_free(st);
  sk__free(st->ctx, st->events);
  sk__free(st->ctx, st->yp);
  sk__free(st->ctx, st->y);
  if (st->model != st->user_model) {
    sk_model_destroy(&st->model);
  }
  sk__free(st->ctx, st);
  *s = NULL;
}

sk_status sk_stepper_set_tolerances(sk_stepper *s, double rtol, double atol)
{
  SK__NOT_AFTER_SETUP(s);
  SK_CHECK(s->ctx, isfinite(rtol) && rtol >= 0 && rtol <= 1, SK_ERR_ARG,
           "relative tolerance must lie in [0, 1] (got %g; 0 = pure absolute control)", rtol);
  SK_CHECK(s->ctx, isfinite(atol) && atol > 0, SK_ERR_ARG,
           "absolute tolerance must be positive (got %g)", atol);
  s->rtol = rtol;
  s->atol = atol;
  return SK_OK;
}

sk_status sk_stepper_set_atol_vector(sk_stepper *s, const double *atol)
{
  SK__NOT_AFTER_SETUP(s);
  const int64_t n = sk_model_get_n(s->model);
  for (int64_t i = 0; atol && i < n; i++) {
    if (!(isfinite(atol[i]) && atol[i] > 0)) {
      char name[96];
      sk_model_component_name(s->model, i, name, sizeof name);
      return SK_ERROR(s->ctx, SK_ERR_ARG,
                      "absolute tolerance of component %lld (%s) must be positive (got %g)",
                      (long long)i, name, atol[i]);
    }
  }
  if (!atol) {
    sk__free(s->ctx, s->atol_vec);
    s->atol_vec = NULL;
    return SK_OK;
  }
  if (!s->atol_vec) {
    s->atol_vec = sk__malloc(s->ctx, (size_t)n * sizeof *s->atol_vec);
    SK_CHECK(s->ctx, s->atol_vec != NULL, SK_ERR_NOMEM, "cannot allocate the tolerance vector");
  }
  memcpy(s->atol_vec, atol, (size_t)n * sizeof *atol);
  return SK_OK;
}

sk_status sk_stepper_set_initial(sk_stepper *s, double t0, const double *y0)
{
  SK__NOT_AFTER_SETUP(s);
  SK_CHECK(s->ctx, isfinite(t0), SK_ERR_ARG, "initial time must be finite");
  s->t0 = t0;
  s->t = t0;
  if (y0) {
    memcpy(s->y, y0, (size_t)sk_model_get_n(s->model) * sizeof *y0);
    s->have_y0 = 1;
  }
  return SK_OK;
}

sk_status sk_stepper_set_max_steps(sk_stepper *s, int64_t max_steps)
{
  SK_CHECK(s->ctx, max_steps >= 0, SK_ERR_ARG, "step budget must be >= 0 (got %lld)",
           (long long)max_steps);
  s->max_steps = max_steps;
  return SK_OK;
}

sk_status sk_stepper_set_max_order(sk_stepper *s, int order)
{
  SK__NOT_AFTER_SETUP(s);
  SK_CHECK(s->ctx, order >= 0, SK_ERR_ARG, "maximum order must be >= 0 (got %d)", order);
  s->max_order = order;
  return SK_OK;
}

sk_status sk_stepper_set_step_limits(sk_stepper *s, double h0, double hmin, double hmax)
{
  SK__NOT_AFTER_SETUP(s);
  SK_CHECK(s->ctx, h0 >= 0 && hmin >= 0 && hmax >= 0, SK_ERR_ARG,
           "step sizes must be >= 0 (h0 %g, hmin %g, hmax %g)", h0, hmin, hmax);
  SK_CHECK(s->ctx, hmax == 0 || hmin <= hmax, SK_ERR_ARG,
           "minimum step %g exceeds maximum step %g", hmin, hmax);
  s->h0 = h0;
  s->hmin = hmin;
  s->hmax = hmax;
  return SK_OK;
}

sk_status sk_stepper_set_fixed_step(sk_stepper *s, double h)
{
  SK__NOT_AFTER_SETUP(s);
  SK_CHECK(s->ctx, isfinite(h) && h >= 0, SK_ERR_ARG,
           "fixed step size (solver.fixed_step) must be >= 0 (got %g)", h);
  s->fixed_step = h;
  return SK_OK;
}

sk_status sk_stepper_set_check_jacobian(sk_stepper *s, int on)
{
  SK__NOT_AFTER_SETUP(s);
  s->check_jacobian = on != 0;
  return SK_OK;
}

int sk_stepper_get_check_jacobian(const sk_stepper *s)
{
  return s->check_jacobian;
}

sk_status sk_stepper_set_suppress_alg(sk_stepper *s, int on)
{
  SK__NOT_AFTER_SETUP(s);
  s->suppress_alg = on != 0;
  return SK_OK;
}

int sk_stepper_get_suppress_alg(const sk_stepper *s)
{
  int model_says = 0;
  sk_model_get_dae_consistent(s->model, &model_says);
  return s->suppress_alg || model_says;
}

sk_status sk_stepper_set_allow_unstable(sk_stepper *s, int on)
{
  SK__NOT_AFTER_SETUP(s);
  s->allow_unstable = on != 0;
  return SK_OK;
}

int sk_stepper_get_allow_unstable(const sk_stepper *s)
{
  return s->allow_unstable;
}

sk_status sk_stepper_set_max_growth(sk_stepper *s, double factor)
{
  SK__NOT_AFTER_SETUP(s);
  SK_CHECK(s->ctx, factor == 0 || (isfinite(factor) && factor >= 1), SK_ERR_ARG,
           "growth limit (solver.max_growth) must be 0 (off) or >= 1 (got %g)", factor);
  s->max_growth = factor;
  return SK_OK;
}

double sk_stepper_get_max_growth(const sk_stepper *s)
{
  return s->max_growth;
}

sk_status sk_stepper_set_detect_pattern(sk_stepper *s, sk_detect_pattern_mode mode)
{
  SK__NOT_AFTER_SETUP(s);
  SK_CHECK(s->ctx, mode >= SK_DETECT_PATTERN_AUTO && mode <= SK_DETECT_PATTERN_OFF, SK_ERR_ARG,
           "sk_stepper_set_detect_pattern: invalid mode %d", (int)mode);
  s->detect_pattern = mode;
  return SK_OK;
}

sk_status sk_stepper_set_dq_jacobian(sk_stepper *s, sk_dq_jacobian_mode mode)
{
  SK__NOT_AFTER_SETUP(s);
  SK_CHECK(s->ctx, mode == SK_DQ_JACOBIAN_STIFFKIT || mode == SK_DQ_JACOBIAN_SUNDIALS, SK_ERR_ARG,
           "sk_stepper_set_dq_jacobian: invalid mode %d (stiffkit or sundials)", (int)mode);
  s->dq_jacobian = mode;
  return SK_OK;
}

sk_dq_jacobian_mode sk_stepper_get_dq_jacobian(const sk_stepper *s)
{
  return s->dq_jacobian;
}

/* A non-diagonal M on an ODE engine: y' = M^{-1} f has the dense Jacobian
 * M^{-1} J, so a direct solver that needs a sparse pattern is refused. */
static sk_status check_mass_linsol(sk_stepper *s)
{
  const char *ls = s->linsol;
  SK_CHECK(s->ctx,
           !sk__mass_form_is_dense(s->model) || !(sk__linsol_is(s->ctx, ls, SK__LS_SPARSE) ||
                                                  sk__linsol_is(NULL, ls, SK__LS_BAND)),
           SK_ERR_UNSUPPORTED,
           "model '%s' has a non-diagonal %s: solver '%s' integrates y' = M^{-1} f, whose "
           "Jacobian M^{-1} J is dense, so linsol.type=%s cannot be used; use solver ida-bdf "
           "(sparse c M - J with klu), or linsol.type=spgmr with linsol.preconditioner=model "
           "(the Newton systems solved exactly through M - gamma J)",
           sk_model_get_name(s->user_model), sk__model_mass_name(s->user_model), s->type->name,
           ls);
  return SK_OK;
}

/* Probe the pattern of a model that has none, as solver.detect_pattern asks. */
static sk_status detect_pattern_if_asked(sk_stepper *s)
{
  const char *ls = s->linsol;
  const int wants_matrix = !(s->type->flags & SK_STEPPER_MATRIX_FREE) ||
                           sk__linsol_is(s->ctx, ls, SK__LS_SPARSE) ||
                           (!strcmp(ls, "auto") && !sk_model_has_preconditioner(s->model));
  if (sk_model_has_jacobian(s->model) || !(s->type->flags & SK_STEPPER_IMPLICIT) ||
      sk_model_get_kind(s->model) != SK_MODEL_ODE || s->detect_pattern == SK_DETECT_PATTERN_OFF ||
      (s->detect_pattern == SK_DETECT_PATTERN_AUTO && !wants_matrix)) {
    return SK_OK;
  }
  const int64_t before = sk_model_get_rhs_evals(s->model);
  const sk_status rc = sk_model_detect_pattern(s->model, s->t0, s->y, 2);
  s->rhs_pattern += sk_model_get_rhs_evals(s->model) - before;
  return rc;
}

sk_status sk_stepper_set_stop_time(sk_stepper *s, double tstop)
{
  SK__NOT_AFTER_SETUP(s);
  SK_CHECK(s->ctx, isfinite(tstop), SK_ERR_ARG, "stop time must be finite");
  s->have_tstop = 1;
  s->tstop = tstop;
  return SK_OK;
}

sk_status sk_stepper_set_linear_solver(sk_stepper *s, const char *name)
{
  SK__NOT_AFTER_SETUP(s);
  SK_CALL(s->ctx, sk__linsol_check_name(s->ctx, name));
  snprintf(s->linsol, sizeof s->linsol, "%s", name);
  return SK_OK;
}

sk_status sk_stepper_set_preconditioner(sk_stepper *s, const char *name)
{
  SK__NOT_AFTER_SETUP(s);
  SK_CALL(s->ctx, sk__prec_check_name(s->ctx, name));
  snprintf(s->prec, sizeof s->prec, "%s", name);
  return SK_OK;
}

sk_status sk_stepper_set_ordering(sk_stepper *s, const char *name)
{
  SK__NOT_AFTER_SETUP(s);
  char names[64];
  sk__ordering_names(names, sizeof names);
  SK_CHECK(s->ctx, name && (sk__ordering_known(name) || !strcmp(name, "auto")), SK_ERR_ARG,
           "unknown ordering '%s'; valid: auto, %s", name ? name : "", names);
  snprintf(s->ordering, sizeof s->ordering, "%s", name);
  return SK_OK;
}

sk_status sk_stepper_set_krylov(sk_stepper *s, int maxl, double eps_lin)
{
  SK__NOT_AFTER_SETUP(s);
  SK_CHECK(s->ctx, maxl >= 0 && eps_lin >= 0, SK_ERR_ARG,
           "Krylov settings must be >= 0 (maxl %d, eps_lin %g)", maxl, eps_lin);
  s->maxl = maxl;
  s->eps_lin = eps_lin;
  return SK_OK;
}

sk_status sk_stepper_set_amg_reuse(sk_stepper *s, double gamma_ratio)
{
  SK__NOT_AFTER_SETUP(s);
  SK_CHECK(s->ctx, gamma_ratio >= 1.0 && gamma_ratio <= 1e6, SK_ERR_ARG,
           "linsol.amg_reuse_gamma_ratio = %g: must be in [1, 1e6]", gamma_ratio);
  s->amg_reuse_ratio = gamma_ratio;
  return SK_OK;
}

sk_status sk_stepper_set_monitor(sk_stepper *s, sk_monitor_fn fn, void *user_data)
{
  s->monitor = fn;
  s->monitor_data = user_data;
  return SK_OK;
}

sk_status sk_stepper_setup(sk_stepper *s)
{
  if (s->is_setup) {
    return SK_OK;
  }
  /* an order limit below a fixed-order method's order cannot be honoured: refused, never
     ignored in silence */
  SK_CHECK(s->ctx,
           s->max_order <= 0 || (s->type->flags & SK_STEPPER_VARIABLE_ORDER) ||
               s->max_order >= s->type->order,
           SK_ERR_UNSUPPORTED,
           "solver.max_order = %d: %s has the fixed order %d; a lower limit is taken by the "
           "variable-order engines (cvode-bdf and ida-bdf up to 5, cvode-adams up to 12)",
           s->max_order, s->type->name, s->type->order);
  /* a DAE engine evaluates y0 together with y'0 (sk_model_eval_dae_initial) */
  if (!s->have_y0 && sk_model_get_kind(s->model) != SK_MODEL_DAE) {
    SK_CALL(s->ctx, sk_model_eval_initial(s->model, s->t0, s->y));
    s->have_y0 = 1;
  }
  s->t = s->t0;
  if (s->threads >= 0) { /* the thread count of this run's parallel regions (process-wide) */
    SK_CALL(s->ctx, sk__threads_set(s->ctx, s->threads));
  }
  /* increments of a finite-difference Jacobian scaled by this run's error weights */
  SK_CALL(s->ctx, sk__model_set_fd_weights(s->model, s->rtol, s->atol, s->atol_vec));
  if (s->user_model != s->model) { /* J of M y' = f comes from the user's model */
    SK_CALL(s->ctx, sk__model_set_fd_weights(s->user_model, s->rtol, s->atol, s->atol_vec));
    SK_CALL(s->ctx, check_mass_linsol(s));
  }
  SK_CALL_STOP(s->ctx, detect_pattern_if_asked(s));
  s->event_stop = 0;
  if (sk_model_get_nevents(s->model) > 0) { /* every run starts from the initial switch states */
    SK_CALL(s->ctx, sk_model_eval_event_action(s->model, s->t0, NULL, NULL));
  }
  SK_CHECK(s->ctx,
           !sk_model_get_constraints(s->model) || (s->type->flags & SK_STEPPER_CONSTRAINTS),
           SK_ERR_UNSUPPORTED,
           "solver '%s' does not honour inequality constraints, and model '%s' has them "
           "(solver.constraints): use cvode-bdf, cvode-adams or ida-bdf",
           s->type->name, sk_model_get_name(s->model));
  if (s->type->setup) {
    sk_status rc = s->type->setup(s);
    const sk__model_distribution *dist = sk__model_get_distribution(s->model);
    if (dist) { /* every rank's engine is set up, or none: the next step is collective */
      const sk_status agreed = dist->agree(dist->data, rc < 0 ? rc : SK_OK);
      rc = agreed != SK_OK ? agreed : rc;
    }
    SK_CALL_STOP(s->ctx, rc);
  }
  SK_CALL(s->ctx, sk__model_check_constraints(s->model, s->y)); /* y0, a DAE engine's too */
  SK_CALL(s->ctx, sk__guard_setup(s)); /* y0 in the state buffer (a DAE engine's too) */
  s->is_setup = 1;
  return SK_OK;
}

static double now_seconds(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Common entry of advance and step: setup, time accounting. */
static sk_status run_op(sk_stepper *s, double tout, double *tret, int one_step)
{
  SK_CALL(s->ctx, sk_stepper_setup(s));
  SK_CHECK(s->ctx, isfinite(tout), SK_ERR_ARG, "output time must be finite");
  if (s->event_stop) { /* an event ended the run: the state stays at its time */
    *tret = s->t;
    return SK_OK;
  }
  if (!one_step && tout == s->t) {
    *tret = s->t;
    return SK_OK;
  }
  SK_CHECK(s->ctx, tout > s->t, SK_ERR_ARG, "output time %.6e is not after the current time %.6e",
           tout, s->t);
  const double start = now_seconds();
  sk_status rc;
  *tret = s->t; /* an engine that fails before stepping leaves it as is */
  if (one_step) {
    SK_CHECK(s->ctx, s->type->step != NULL, SK_ERR_UNSUPPORTED,
             "solver '%s' has no single-step mode", s->type->name);
    rc = s->type->step(s, tout, tret);
  } else {
    rc = s->type->advance(s, tout, tret);
  }
  s->wall_time += now_seconds() - start;
  /* the time of the state buffer: engines report it through tret, so a
   * user-registered type needs no access to the stepper's internals */
  s->t = *tret;
  if (rc < 0) {
    sk__error_push_frame(s->ctx, __func__, __FILE__, __LINE__);
  }
  return rc;
}

sk_status sk_stepper_advance(sk_stepper *s, double tout, double *tret)
{
  return run_op(s, tout, tret, 0);
}

sk_status sk_stepper_step(sk_stepper *s, double tout, double *tret)
{
  return run_op(s, tout, tret, 1);
}

int sk__stepper_type_abi(const sk_context *ctx, const sk_stepper_type *type)
{
  for (size_t i = 0; ctx && i < ctx->n_user_steppers; i++) {
    if (ctx->user_steppers[i] == type) {
      return ctx->user_stepper_abi[i];
    }
  }
  return SK_PLUGIN_ABI_VERSION;
}

sk_status sk_stepper_initialize(sk_stepper *s, double tout1)
{
  if (!s) {
    return SK_ERR_ARG;
  }
  SK_CALL(s->ctx, sk_stepper_setup(s));
  SK_CHECK(s->ctx, isfinite(tout1) && tout1 != s->t0, SK_ERR_ARG,
           "sk_stepper_initialize: the first output time %.6e must be finite and differ from "
           "t0 = %.6e",
           tout1, s->t0);
  if (sk__stepper_type_abi(s->ctx, s->type) < 3 || !s->type->initialize || s->t != s->t0) {
    return SK_OK; /* ABI 3 added initialize; after the first step there is nothing to do */
  }
  const double start = now_seconds();
  const sk_status rc = s->type->initialize(s, tout1);
  s->wall_time += now_seconds() - start;
  if (rc < 0) {
    sk__error_push_frame(s->ctx, __func__, __FILE__, __LINE__);
  }
  return rc;
}

/* A DAE model's own Jacobian values at the start: y from the stepper, y' the model's initial
 * one (the check needs no consistent pair). */
static sk_status dae_jacobian_selftest(sk_stepper *s)
{
  if (!sk__model_has_analytic_dae_jac(s->model)) {
    return SK_OK;
  }
  const int64_t n = sk_model_get_n(s->model), fd_before = sk_model_get_fd_rhs_evals(s->model);
  double *w = sk__malloc(s->ctx, 2 * (size_t)n * sizeof *w);
  SK_CHECK(s->ctx, w != NULL, SK_ERR_NOMEM, "cannot allocate the DAE Jacobian self-test");
  sk_status rc = sk_model_eval_dae_initial(s->model, s->t0, w, w + n);
  if (rc == SK_OK) {
    rc = sk__dae_jacobian_selftest(s->model, s->t0, s->y, w + n);
  }
  sk__free(s->ctx, w);
  s->rhs_selftest += sk_model_get_fd_rhs_evals(s->model) - fd_before; /* the residual calls */
  return rc;
}

sk_status sk__stepper_jacobian_selftest(sk_stepper *s)
{
  if (!s->check_jacobian) {
    return SK_OK;
  }
  s->jac_selftest = 1;
  const int64_t before = sk_model_get_rhs_evals(s->model);
  sk_status rc = s->jac_values_unused ? SK_OK : sk__jacobian_selftest(s->model, s->t0, s->y);
  if (rc == SK_OK) {
    rc = sk__jtimes_selftest(s->model, s->t0, s->y);
  }
  if (rc == SK_OK && sk_model_get_kind(s->model) == SK_MODEL_DAE) {
    rc = dae_jacobian_selftest(s);
  }
  s->rhs_selftest += sk_model_get_rhs_evals(s->model) - before;
  return rc;
}

sk_status sk__stepper_after_step(sk_stepper *s, double t, double h)
{
  s->steps_seen++;
  if (s->jac_selftest && (s->steps_seen == 1 || s->steps_seen == 10 || s->steps_seen == 100)) {
    s->jac_selftest = s->steps_seen < 100;
    const int64_t before = sk_model_get_rhs_evals(s->model);
    sk_status rc = s->jac_values_unused ? SK_OK : sk__jacobian_selftest(s->model, t, s->y);
    if (rc == SK_OK) {
      rc = sk__jtimes_selftest(s->model, t, s->y);
    }
    s->rhs_selftest += sk_model_get_rhs_evals(s->model) - before;
    SK_CALL(s->ctx, rc);
  }
  SK_CALL(s->ctx, sk__guard_after_step(s, t, s->steps_seen));
  if (s->monitor && s->monitor(s, t, h, s->monitor_data)) {
    return SK_INTERRUPTED;
  }
  return SK_OK;
}

sk_status sk__stepper_events_fired(sk_stepper *s, double t, const int *fired)
{
  const int ne = sk_model_get_nevents(s->model);
  for (int k = 0; k < ne; k++) {
    if (!fired[k]) {
      continue;
    }
    if (s->nevents == s->cap_events) {
      const size_t cap = s->cap_events ? 2 * s->cap_events : 16;
      sk_event_record *grown = sk__calloc(s->ctx, cap, sizeof *grown);
      SK_CHECK(s->ctx, grown != NULL, SK_ERR_NOMEM, "cannot grow the event log");
      if (s->nevents > 0) {
        memcpy(grown, s->events, s->nevents * sizeof *grown);
      }
      sk__free(s->ctx, s->events);
      s->events = grown;
      s->cap_events = cap;
    }
    s->events[s->nevents++] = (sk_event_record){t, k, fired[k] > 0 ? 1 : -1};
  }
  SK_CALL(s->ctx, sk_model_eval_event_action(s->model, t, s->y, fired));
  int stop = 0;
  SK_CALL(s->ctx, sk_model_eval_event_jump(s->model, t, s->y, fired, &stop));
  if (stop) {
    s->event_stop = 1;
    s->event_stop_t = t;
  }
  return SK_OK;
}

int sk_stepper_get_event_stop(const sk_stepper *s, double *t)
{
  if (t) {
    *t = s && s->event_stop ? s->event_stop_t : 0.0;
  }
  return s ? s->event_stop : 0;
}

void sk_stepper_get_events(const sk_stepper *s, const sk_event_record **log, size_t *n)
{
  *log = s ? s->events : NULL;
  *n = s ? s->nevents : 0;
}

sk_status sk_stepper_set_vector_kernels(sk_stepper *s, sk_vector_kernels_mode mode)
{
  SK__NOT_AFTER_SETUP(s);
  SK_CHECK(s->ctx, mode >= SK_VECTOR_KERNELS_AUTO && mode <= SK_VECTOR_KERNELS_OFF, SK_ERR_ARG,
           "sk_stepper_set_vector_kernels: invalid mode %d (auto, on or off)", (int)mode);
  s->vector_kernels = mode;
  return SK_OK;
}

/* The measured crossover of solver.fast_vector_ops=auto: stiffkit's kernels
 * from this length on (bench_vector_kernels: faster from n = 1 on the
 * reference machine, 2x at n = 1-3 and 3-5x above 100). */
#define SK__FAST_KERNELS_MIN_N 1

int sk__stepper_fast_vector_ops(sk_stepper *s)
{
  const int fast = s->vector_kernels == SK_VECTOR_KERNELS_ON ||
                   (s->vector_kernels == SK_VECTOR_KERNELS_AUTO &&
                    sk_model_get_n(s->model) >= SK__FAST_KERNELS_MIN_N);
  s->kernels_used = fast ? "stiffkit" : "sundials";
  s->ctx->vector_kernels = s->kernels_used;
  return fast;
}

const char *sk_stepper_get_vector_kernels(const sk_stepper *s)
{
  if (s->kernels_used) {
    return s->kernels_used;
  }
  return s->vector_kernels == SK_VECTOR_KERNELS_ON    ? "on"
         : s->vector_kernels == SK_VECTOR_KERNELS_OFF ? "off"
                                                      : "auto";
}

sk_status sk_stepper_set_threads(sk_stepper *s, int threads)
{
  SK__NOT_AFTER_SETUP(s);
  SK_CHECK(s->ctx, threads >= -1 && threads <= 4096, SK_ERR_ARG,
           "thread count must be -1 (leave OpenMP as set), 0 (auto) or 1..4096 (got %d)",
           threads);
  s->threads = threads;
  return SK_OK;
}

sk_status sk__stepper_budget_error(sk_stepper *s, double t, double h, int64_t steps)
{
  const char *cause;
  const double span = t - s->t0;
  if (!(s->type->flags & SK_STEPPER_STIFF)) {
    cause = "a stiff problem integrated with an explicit/non-stiff method (try "
            "solver.method=cvode-bdf)";
  } else if (s->rtol > 0 && s->rtol < 1e-10) {
    cause = "too tight a tolerance (solver.rtol below 1e-10)";
  } else if (span > 0 && fabs(h) < 1e-10 * span) {
    cause =
        "the step size collapsed: a singularity or blow-up near this time, or a wrong Jacobian";
  } else {
    cause = "the budget is too small for this interval (raise solver.max_steps)";
  }
  return SK_ERROR(
      s->ctx, SK_ERR_TOO_MUCH_WORK,
      "step budget of %lld steps exhausted at t=%.6e (last h=%.3e, %lld steps taken); "
      "likely cause: %s",
      (long long)s->max_steps, t, h, (long long)steps, cause);
}

sk_status sk_stepper_get_stats(sk_stepper *s, sk_stats *st)
{
  memset(st, 0, sizeof *st);
  st->t = s->t;
  if (s->is_setup) {
    SK_CALL(s->ctx, s->type->get_stats(s, st));
    const sk_stats now = *st; /* plus the type's states a reinit re-created */
    *st = s->recreated;
    sk_stats_add(st, &now);
  }
  /* the calls the engine does not see, in its total too */
  st->rhs_evals_pattern = s->rhs_pattern;
  st->rhs_evals_selftest = s->rhs_selftest;
  st->rhs_evals_stability = s->guard.rhs_evals;
  st->rhs_evals += s->rhs_pattern + s->rhs_selftest + s->guard.rhs_evals;
  st->wall_time = s->wall_time;
  return SK_OK;
}

const double *sk_stepper_get_state(const sk_stepper *s)
{
  return s->y;
}
double sk_stepper_get_time(const sk_stepper *s)
{
  return s->t;
}
const sk_stepper_type *sk_stepper_get_type(const sk_stepper *s)
{
  return s->type;
}
sk_model *sk_stepper_get_model(const sk_stepper *s)
{
  return s->model;
}
sk_model *sk_stepper_get_user_model(const sk_stepper *s)
{
  return s ? s->user_model : NULL;
}
sk_context *sk_stepper_get_context(const sk_stepper *s)
{
  return s->ctx;
}
double sk_stepper_get_t0(const sk_stepper *s)
{
  return s->t0;
}
double sk_stepper_get_rtol(const sk_stepper *s)
{
  return s->rtol;
}
double sk_stepper_get_atol(const sk_stepper *s)
{
  return s->atol;
}
const double *sk_stepper_get_atol_vector(const sk_stepper *s)
{
  return s->atol_vec;
}
int64_t sk_stepper_get_max_steps(const sk_stepper *s)
{
  return s->max_steps;
}
int sk_stepper_get_max_order(const sk_stepper *s)
{
  return s->max_order;
}
const char *sk_stepper_get_linear_solver(const sk_stepper *s)
{
  return s->linsol;
}
const char *sk_stepper_get_preconditioner(const sk_stepper *s)
{
  return s->prec;
}
const char *sk_stepper_get_ordering(const sk_stepper *s)
{
  return s->ordering;
}
const char *sk_stepper_get_preconditioner_report(const sk_stepper *s)
{
  return s ? s->prec_report : "";
}
const char *sk_stepper_get_linear_solver_reason(const sk_stepper *s)
{
  return s->linsol_reason;
}

const char *sk_stepper_get_initial_correction(const sk_stepper *s)
{
  return s ? s->init_report : "";
}

void sk__stepper_set_init_report(sk_stepper *s, const char *report)
{
  snprintf(s->init_report, sizeof s->init_report, "%s", report);
}

void sk__stepper_set_linsol_reason(sk_stepper *s, const char *reason)
{
  snprintf(s->linsol_reason, sizeof s->linsol_reason, "%s", reason);
  snprintf(s->ctx->linsol_reason, sizeof s->ctx->linsol_reason, "%s", reason);
}
void sk_stepper_set_impl(sk_stepper *s, void *impl)
{
  s->impl = impl;
}
void *sk_stepper_get_impl(const sk_stepper *s)
{
  return s->impl;
}
double *sk_stepper_state_buffer(sk_stepper *s)
{
  return s->y;
}
const double *sk_stepper_get_derivative(const sk_stepper *s)
{
  return s->is_setup ? s->yp : NULL;
}

double *sk__stepper_derivative_buffer(sk_stepper *s)
{
  if (!s->yp) {
    s->yp = sk__calloc(s->ctx, (size_t)sk_model_get_n(s->model), sizeof *s->yp);
    if (!s->yp) {
      SK_ERROR(s->ctx, SK_ERR_NOMEM, "cannot allocate the derivative vector");
    }
  }
  return s->yp;
}

sk_status sk_stepper_set_initial_derivative(sk_stepper *s, const double *yp0)
{
  SK__NOT_AFTER_SETUP(s);
  SK_CHECK(s->ctx, yp0 != NULL, SK_ERR_ARG, "initial derivative: NULL vector");
  double *buf = sk__stepper_derivative_buffer(s);
  if (!buf) {
    return SK_ERR_NOMEM;
  }
  memcpy(buf, yp0, (size_t)sk_model_get_n(s->model) * sizeof *yp0);
  s->have_yp0 = 1;
  return SK_OK;
}

void sk_stepper_get_step_limits(const sk_stepper *s, double *h0, double *hmin, double *hmax)
{
  *h0 = s->h0;
  *hmin = s->hmin;
  *hmax = s->hmax;
}

double sk_stepper_get_fixed_step(const sk_stepper *s)
{
  return s->fixed_step;
}

int sk_stepper_get_stop_time(const sk_stepper *s, double *tstop)
{
  *tstop = s->tstop;
  return s->have_tstop;
}

void sk__krylov_resolve(int ida, int *maxl, double *eps_lin)
{
  *maxl = *maxl > 0 ? *maxl : SK__KRYLOV_MAXL_DEFAULT;
  *eps_lin = *eps_lin > 0 ? *eps_lin
             : ida        ? SK__KRYLOV_EPS_LIN_DEFAULT_IDA
                          : SK__KRYLOV_EPS_LIN_DEFAULT;
}

void sk_stepper_get_krylov(const sk_stepper *s, int *maxl, double *eps_lin)
{
  *maxl = s->maxl;
  *eps_lin = s->eps_lin;
}

/* data/plugins/inhouse_rk2.c: an example in-house stepper plugin: the explicit midpoint rule (RK2), fixed step, public API only */
/* The explicit midpoint rule for y' = f(t, y):
 *   k1 = f(t_n, y_n)
 *   k2 = f(t_n + h/2, y_n + h/2 k1)
 *   y_{n+1} = y_n + h k2
 * order 2, stable for h |lambda| <= 2 on the negative real axis (not for
 * stiff problems). Fixed step only: solver.fixed_step > 0.
 *
 * Build (against an installed stiffkit):
 *   cc -std=c11 -O2 -shared -fPIC inhouse_rk2.c $(pkg-config --cflags stiffkit) -o inhouse_rk2.so
 * Run:
 *   stiffkit run --set solver.plugin=./inhouse_rk2.so --set solver.method=inhouse-rk2 \
 *     --set solver.fixed_step=1e-4
 */
#include <stdlib.h>

#include <stiffkit/stiffkit.h>

/* The stepper's own state. A stepper type keeps its own time and reports it
 * through *tret; the generic stepper records it. */
typedef struct {
  double *k1, *k2, *tmp; /* work vectors, length n */
  double t;              /* time of the state buffer */
  int64_t steps, rhs;
} rk2;

/* create: allocate the work vectors (the generic stepper destroys on error). */
static sk_status rk2_create(sk_stepper *s)
{
  const int64_t n = sk_model_get_n(sk_stepper_get_model(s));
  rk2 *r = calloc(1, sizeof *r);
  if (!r) {
    return SK_ERR_NOMEM;
  }
  sk_stepper_set_impl(s, r);
  r->k1 = calloc((size_t)n, sizeof(double));
  r->k2 = calloc((size_t)n, sizeof(double));
  r->tmp = calloc((size_t)n, sizeof(double));
  return (r->k1 && r->k2 && r->tmp) ? SK_OK : SK_ERR_NOMEM;
}

static void rk2_destroy(sk_stepper *s)
{
  rk2 *r = sk_stepper_get_impl(s);
  if (r) {
    free(r->k1);
    free(r->k2);
    free(r->tmp);
    free(r);
  }
  sk_stepper_set_impl(s, NULL);
}

/* setup: start at t0; a fixed step is required (SK_ERR_INPUT without one). */
static sk_status rk2_setup(sk_stepper *s)
{
  rk2 *r = sk_stepper_get_impl(s);
  r->t = sk_stepper_get_t0(s);
  return sk_stepper_get_fixed_step(s) > 0 ? SK_OK : SK_ERR_INPUT;
}

/* reinit: restart at the new time (sk_stepper_reinit has put it and the new
 * state in place); a one-step method keeps no history to forget, and its
 * counters go on. Without this op the library would destroy the state and
 * create and set it up again. */
static sk_status rk2_reinit(sk_stepper *s, const double *yp)
{
  (void)yp;
  rk2 *r = sk_stepper_get_impl(s);
  r->t = sk_stepper_get_t0(s);
  return SK_OK;
}

/* One step of size h, or of tout - t when `clip` and tout is within
 * h (1 + 1e-8). The state buffer changes only when the step succeeds, so a
 * failed RHS call leaves the last successful state and time in place. */
static sk_status rk2_one(sk_stepper *s, double tout, int clip)
{
  rk2 *r = sk_stepper_get_impl(s);
  sk_model *m = sk_stepper_get_model(s);
  const int64_t n = sk_model_get_n(m);
  double *y = sk_stepper_state_buffer(s);
  const double t = r->t;
  double h = sk_stepper_get_fixed_step(s);
  const int last = clip && t + h * (1 + 1e-8) >= tout;
  if (last) {
    h = tout - t;
  }
  r->rhs++;
  sk_status rc = sk_model_eval_rhs(m, t, y, r->k1);
  if (rc != SK_OK) {
    return rc > 0 ? SK_ERR_CALLBACK : rc;
  }
  for (int64_t i = 0; i < n; i++) {
    r->tmp[i] = y[i] + 0.5 * h * r->k1[i];
  }
  r->rhs++;
  rc = sk_model_eval_rhs(m, t + 0.5 * h, r->tmp, r->k2);
  if (rc != SK_OK) {
    return rc > 0 ? SK_ERR_CALLBACK : rc;
  }
  for (int64_t i = 0; i < n; i++) {
    y[i] += h * r->k2[i];
  }
  r->t = last ? tout : t + h;
  r->steps++;
  return SK_OK;
}

static sk_status rk2_step(sk_stepper *s, double tout, double *tret)
{
  rk2 *r = sk_stepper_get_impl(s);
  const sk_status rc = rk2_one(s, tout, 0);
  *tret = r->t;
  return rc;
}

static sk_status rk2_advance(sk_stepper *s, double tout, double *tret)
{
  rk2 *r = sk_stepper_get_impl(s);
  sk_status rc = SK_OK;
  while (rc == SK_OK && r->t < tout) {
    rc = rk2_one(s, tout, 1);
  }
  *tret = r->t;
  return rc;
}

static sk_status rk2_stats(sk_stepper *s, sk_stats *st)
{
  rk2 *r = sk_stepper_get_impl(s);
  st->steps = r->steps;
  st->rhs_evals = r->rhs;
  st->last_h = sk_stepper_get_fixed_step(s);
  st->last_order = 2;
  return SK_OK;
}

static const sk_stepper_type inhouse_rk2 = {
    .name = "inhouse-rk2",
    .description = "explicit midpoint rule (RK2), fixed step: an in-house stepper from a plugin",
    .order = 2,
    .flags = SK_STEPPER_EXPLICIT,
    .create = rk2_create,
    .setup = rk2_setup,
    .step = rk2_step,
    .advance = rk2_advance,
    .get_stats = rk2_stats,
    .set_from_options = NULL,
    .destroy = rk2_destroy,
    .reinit = rk2_reinit,
};

SK_PLUGIN_DEFINE_ABI_VERSION()

SK_PLUGIN_EXPORT sk_status sk_plugin_register(sk_context *ctx)
{
  return sk_stepper_type_register(ctx, &inhouse_rk2);
}

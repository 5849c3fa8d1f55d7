/* data/plugins/inhouse_rk2.c: an example in-house stepper plugin: the two-stage explicit Runge-Kutta family (the midpoint rule by default), fixed step, a key of its own, public API only */
/* The two-stage explicit Runge-Kutta methods of order 2 for y' = f(t, y),
 * with a = solver.inhouse_rk2.alpha (the plugin's own key, default 1/2):
 *   k1 = f(t_n, y_n)
 *   k2 = f(t_n + a h, y_n + a h k1)
 *   y_{n+1} = y_n + h ((1 - 1/(2a)) k1 + 1/(2a) k2)
 * a = 1/2 is the explicit midpoint rule (y_{n+1} = y_n + h k2), a = 1 Heun's
 * method, a = 2/3 Ralston's. Order 2 for every a > 0, stable for
 * h |lambda| <= 2 on the negative real axis (not for stiff problems). Fixed
 * step only: solver.fixed_step > 0.
 *
 * Build (against an installed stiffkit):
 *   cc -std=c11 -O2 -shared -fPIC inhouse_rk2.c $(pkg-config --cflags stiffkit) -o inhouse_rk2.so
 * Run:
 *   stiffkit run --set solver.plugin=./inhouse_rk2.so --set solver.method=inhouse-rk2 \
 *     --set solver.fixed_step=1e-4 [--set solver.inhouse_rk2.alpha=1]
 */
#include <stdlib.h>

#include <stiffkit/stiffkit.h>

/* The stepper's own state. A stepper type keeps its own time and reports it
 * through *tret; the generic stepper records it. */
typedef struct {
  double *k1, *k2, *tmp; /* work vectors, length n */
  double t;              /* time of the state buffer */
  double alpha;          /* the second stage's node (solver.inhouse_rk2.alpha) */
  int64_t steps, rhs;
} rk2;

/* The plugin's own keys (plugin ABI 4): registered with the library's by
 * sk_stepper_register_options, read by rk2_set_from_options. */
static const sk_option_spec rk2_keys[] = {
    {"solver.inhouse_rk2.alpha", SK_OPT_REAL, "0.5", 1e-3, 1.0, NULL,
     "inhouse-rk2: node of the second stage (1/2 midpoint, 1 Heun, 2/3 Ralston)"},
};

static const sk_option_spec *rk2_options(size_t *n)
{
  *n = sizeof rk2_keys / sizeof rk2_keys[0];
  return rk2_keys;
}

/* create: allocate the work vectors (the generic stepper destroys on error). */
static sk_status rk2_create(sk_stepper *s)
{
  const int64_t n = sk_model_get_n(sk_stepper_get_model(s));
  rk2 *r = calloc(1, sizeof *r);
  if (!r) {
    return SK_ERR_NOMEM;
  }
  sk_stepper_set_impl(s, r);
  r->alpha = 0.5;
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

/* set_from_options: the plugin's key, where the database holds it (a program
 * that registered the stepper keys with sk_stepper_register_options). */
static sk_status rk2_set_from_options(sk_stepper *s, const sk_options *opts)
{
  rk2 *r = sk_stepper_get_impl(s);
  return sk_options_is_key(opts, rk2_keys[0].key)
             ? sk_options_get_real(opts, rk2_keys[0].key, &r->alpha)
             : SK_OK;
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
  const double a = r->alpha, b2 = 0.5 / a, b1 = 1.0 - b2;
  for (int64_t i = 0; i < n; i++) {
    r->tmp[i] = y[i] + a * h * r->k1[i];
  }
  r->rhs++;
  rc = sk_model_eval_rhs(m, t + a * h, r->tmp, r->k2);
  if (rc != SK_OK) {
    return rc > 0 ? SK_ERR_CALLBACK : rc;
  }
  for (int64_t i = 0; i < n; i++) { /* the midpoint rule (b1 = 0) adds h k2 alone */
    y[i] += b1 != 0.0 ? h * (b1 * r->k1[i] + b2 * r->k2[i]) : h * r->k2[i];
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
    .description = "two-stage explicit Runge-Kutta, order 2 (the midpoint rule unless "
                   "solver.inhouse_rk2.alpha says otherwise), fixed step: an in-house stepper "
                   "from a plugin",
    .order = 2,
    .flags = SK_STEPPER_EXPLICIT,
    .create = rk2_create,
    .setup = rk2_setup,
    .step = rk2_step,
    .advance = rk2_advance,
    .get_stats = rk2_stats,
    .set_from_options = rk2_set_from_options,
    .destroy = rk2_destroy,
    .reinit = rk2_reinit,
    .options = rk2_options,
};

SK_PLUGIN_DEFINE_ABI_VERSION()

SK_PLUGIN_EXPORT sk_status sk_plugin_register(sk_context *ctx)
{
  return sk_stepper_type_register(ctx, &inhouse_rk2);
}

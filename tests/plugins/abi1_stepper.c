/* tests/plugins/abi1_stepper.c: a test plugin built as for plugin ABI 1: its stepper table (forward Euler, fixed step) ends at destroy */
#include <stdlib.h>

#include <stiffkit/stiffkit.h>

/* The layout of sk_stepper_type in plugin ABI 1 (no reinit): the table
 * below occupies only this much memory, as in a plugin compiled against
 * that header, so a library that read a later field would read past it
 * (AddressSanitizer reports that as a global-buffer-overflow). */
typedef struct {
  const char *name;
  const char *description;
  int order;
  unsigned flags;
  sk_status (*create)(sk_stepper *s);
  sk_status (*setup)(sk_stepper *s);
  sk_status (*step)(sk_stepper *s, double tout, double *tret);
  sk_status (*advance)(sk_stepper *s, double tout, double *tret);
  sk_status (*get_stats)(sk_stepper *s, sk_stats *st);
  sk_status (*set_from_options)(sk_stepper *s, const sk_options *opts);
  void (*destroy)(sk_stepper *s);
} abi1_stepper_type;

/* y_{k+1} = y_k + h f(t_k, y_k) with h = solver.fixed_step; the state's own time. */
typedef struct {
  double *f;
  double t;
  int64_t steps, rhs;
} euler1;

static sk_status e1_create(sk_stepper *s)
{
  euler1 *e = calloc(1, sizeof *e);
  if (!e) {
    return SK_ERR_NOMEM;
  }
  sk_stepper_set_impl(s, e);
  e->f = calloc((size_t)sk_model_get_n(sk_stepper_get_model(s)), sizeof(double));
  return e->f ? SK_OK : SK_ERR_NOMEM;
}

static void e1_destroy(sk_stepper *s)
{
  euler1 *e = sk_stepper_get_impl(s);
  if (e) {
    free(e->f);
    free(e);
  }
  sk_stepper_set_impl(s, NULL);
}

static sk_status e1_setup(sk_stepper *s)
{
  euler1 *e = sk_stepper_get_impl(s);
  e->t = sk_stepper_get_t0(s);
  return sk_stepper_get_fixed_step(s) > 0 ? SK_OK : SK_ERR_INPUT;
}

/* One step, clipped onto tout when `clip` and tout is within h (1 + 1e-8). */
static sk_status e1_one(sk_stepper *s, double tout, int clip)
{
  euler1 *e = sk_stepper_get_impl(s);
  sk_model *m = sk_stepper_get_model(s);
  double *y = sk_stepper_state_buffer(s);
  double h = sk_stepper_get_fixed_step(s);
  const int last = clip && e->t + h * (1 + 1e-8) >= tout;
  h = last ? tout - e->t : h;
  e->rhs++;
  const sk_status rc = sk_model_eval_rhs(m, e->t, y, e->f);
  if (rc != SK_OK) {
    return rc > 0 ? SK_ERR_CALLBACK : rc;
  }
  for (int64_t i = 0; i < sk_model_get_n(m); i++) {
    y[i] += h * e->f[i];
  }
  e->t = last ? tout : e->t + h;
  e->steps++;
  return SK_OK;
}

static sk_status e1_step(sk_stepper *s, double tout, double *tret)
{
  const sk_status rc = e1_one(s, tout, 0);
  *tret = ((euler1 *)sk_stepper_get_impl(s))->t;
  return rc;
}

static sk_status e1_advance(sk_stepper *s, double tout, double *tret)
{
  euler1 *e = sk_stepper_get_impl(s);
  sk_status rc = SK_OK;
  while (rc == SK_OK && e->t < tout) {
    rc = e1_one(s, tout, 1);
  }
  *tret = e->t;
  return rc;
}

static sk_status e1_stats(sk_stepper *s, sk_stats *st)
{
  euler1 *e = sk_stepper_get_impl(s);
  st->steps = e->steps;
  st->rhs_evals = e->rhs;
  st->last_order = 1;
  return SK_OK;
}

static const abi1_stepper_type abi1_euler = {
    .name = "abi1-euler",
    .description = "forward Euler, fixed step, from a plugin built for plugin ABI 1",
    .order = 1,
    .flags = SK_STEPPER_EXPLICIT,
    .create = e1_create,
    .setup = e1_setup,
    .step = e1_step,
    .advance = e1_advance,
    .get_stats = e1_stats,
    .set_from_options = NULL,
    .destroy = e1_destroy,
};

SK_PLUGIN_EXPORT int sk_plugin_abi_version(void)
{
  return 1;
}

SK_PLUGIN_EXPORT sk_status sk_plugin_register(sk_context *ctx)
{
  /* what an ABI 1 binary passes: the address of its shorter table */
  const void *table = &abi1_euler;
  return sk_stepper_type_register(ctx, table);
}

/* tests/plugins/slow_model.c: a test model plugin whose right-hand side sleeps, so that a run lasts a known wall time on any machine (signal, checkpoint and batch-scheduler tests) */
/* y_i' = -k_i y_i, k_i = 10^(3 i / (n - 1)) (stiffness ratio 1000), y_i(0) = 1,
 * with the exact solution y_i(t) = exp(-k_i t). Every evaluation of the
 * right-hand side sleeps model.parameters.delay seconds, so the wall time of
 * a run is (number of evaluations) x delay, whatever the CPU. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include <stiffkit/stiffkit.h>

SK_PLUGIN_DEFINE_ABI_VERSION()

static const sk_option_spec slow_parameters[] = {
    {"model.parameters.n", SK_OPT_INT, "16", 2, 100000, NULL, "components"},
    {"model.parameters.delay", SK_OPT_REAL, "0.001", 0, 10, NULL,
     "seconds each right-hand side evaluation sleeps"},
};

SK_PLUGIN_EXPORT const sk_option_spec *sk_plugin_model_options(size_t *n)
{
  *n = sizeof slow_parameters / sizeof slow_parameters[0];
  return slow_parameters;
}

typedef struct {
  int64_t n;
  double delay;
} slow;

static double rate(const slow *s, int64_t i)
{
  return pow(10.0, 3.0 * (double)i / (double)(s->n - 1));
}

static void pause_for(double seconds)
{
  struct timespec ts = {(time_t)seconds, (long)((seconds - floor(seconds)) * 1e9)};
  while (nanosleep(&ts, &ts) != 0) {
    /* a signal interrupted the sleep: sleep the rest (the run's handler only sets a flag) */
  }
}

static int slow_rhs(double t, const double *y, double *f, void *data)
{
  (void)t;
  const slow *s = data;
  for (int64_t i = 0; i < s->n; i++) {
    f[i] = -rate(s, i) * y[i];
  }
  pause_for(s->delay);
  return 0;
}

static int slow_jacobian(double t, const double *y, const double *fy, double *values, void *data)
{
  (void)t;
  (void)y;
  (void)fy;
  const slow *s = data;
  for (int64_t i = 0; i < s->n; i++) {
    values[i] = -rate(s, i);
  }
  return 0;
}

static int slow_initial(double t0, double *y, void *data)
{
  (void)t0;
  const slow *s = data;
  for (int64_t i = 0; i < s->n; i++) {
    y[i] = 1.0;
  }
  return 0;
}

static int slow_exact(double t, double *y, void *data)
{
  const slow *s = data;
  for (int64_t i = 0; i < s->n; i++) {
    y[i] = exp(-rate(s, i) * t);
  }
  return 0;
}

SK_PLUGIN_EXPORT sk_status sk_plugin_create_model(sk_context *ctx, const sk_options *opts,
                                                  sk_model **model)
{
  slow *s = calloc(1, sizeof *s);
  if (!s) {
    return SK_ERR_NOMEM;
  }
  sk_status st = sk_options_get_int(opts, "model.parameters.n", &s->n);
  st = st ? st : sk_options_get_real(opts, "model.parameters.delay", &s->delay);
  st = st ? st : sk_model_create(ctx, SK_MODEL_ODE, s->n, model);
  if (st != SK_OK) {
    free(s);
    return st;
  }
  sk_model_set_user_data(*model, s, free);
  sk_model_set_name(*model, "slow decay (test plugin)");
  sk_model_set_rhs(*model, slow_rhs);
  sk_model_set_initial(*model, slow_initial);
  sk_model_set_exact(*model, slow_exact);
  sk_model_set_jac_values(*model, slow_jacobian);
  int64_t *colptr = malloc((size_t)(s->n + 1) * sizeof *colptr);
  int64_t *rowind = malloc((size_t)s->n * sizeof *rowind);
  st = colptr && rowind ? SK_OK : SK_ERR_NOMEM;
  for (int64_t j = 0; st == SK_OK && j <= s->n; j++) {
    colptr[j] = j;
    if (j < s->n) {
      rowind[j] = j;
    }
  }
  st = st ? st : sk_model_set_jac_pattern(*model, colptr, rowind);
  free(colptr);
  free(rowind);
  return st;
}

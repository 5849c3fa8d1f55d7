/* tests/unit/test_formula_model.c: formula models against the built-in problems with the same equations (right-hand sides compared at random states), their keys, and re-runs that start from the configured parameters */
#include <stdlib.h>

#include "test.h"

static sk_options *model_options(sk_context *ctx)
{
  sk_options *o = NULL;
  size_t n;
  CHECK_OK(ctx, sk_options_create(ctx, &o));
  const sk_option_spec *t = sk_stepper_options(&n);
  CHECK_OK(ctx, sk_options_register(o, t, n));
  CHECK_OK(ctx, sk_model_register_options(o));
  return o;
}

static sk_model *build(sk_context *ctx, sk_options *o, const char *const *assign, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    CHECK_OK(ctx, sk_options_set_assignment(o, assign[i]));
  }
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_from_options(ctx, o, &m));
  return m;
}

/* f of the formula model and of the built-in problem agree at random states (the same
 * equations written the same way: the same arithmetic up to rounding of the parser's
 * evaluation order, so within a few ulps). */
static void compare_rhs(const char *const *formula, size_t nf, const char *problem, int64_t n)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  sk_options *a = model_options(ctx), *b = model_options(ctx);
  sk_model *fm = build(ctx, a, formula, nf);
  const char *pa[] = {"model.type=problem", problem};
  sk_model *pm = build(ctx, b, pa, 2);
  CHECK(sk_model_get_n(fm) == n && sk_model_get_n(pm) == n);
  double y[8], f1[8], f2[8];
  srand(7);
  for (int s = 0; s < 50; s++) {
    for (int64_t i = 0; i < n; i++) {
      y[i] = 4.0 * rand() / RAND_MAX - 2.0;
    }
    CHECK_OK(ctx, sk_model_eval_rhs(fm, 0.5, y, f1));
    CHECK_OK(ctx, sk_model_eval_rhs(pm, 0.5, y, f2));
    for (int64_t i = 0; i < n; i++) {
      CHECK_NEAR(f1[i], f2[i], 1e-14, 1e-300);
    }
  }
  sk_model_destroy(&fm);
  sk_model_destroy(&pm);
  sk_options_destroy(&a);
  sk_options_destroy(&b);
  sk_context_destroy(&ctx);
}

static void test_rober_and_vdpol(void)
{
  const char *rober[] = {"model.type=formula",
                         "formula.variables=y1, y2, y3",
                         "formula.parameters.k1=0.04",
                         "formula.parameters.k2=3e7",
                         "formula.parameters.k3=1e4",
                         "formula.rhs.y1=-k1 * y1 + k3 * y2 * y3",
                         "formula.rhs.y2=k1 * y1 - k3 * y2 * y3 - k2 * y2 * y2",
                         "formula.rhs.y3=k2 * y2 * y2",
                         "formula.y0=[1, 0, 0]"};
  compare_rhs(rober, sizeof rober / sizeof rober[0], "model.problem=rober", 3);
  const char *vdpol[] = {"model.type=formula",
                         "formula.variables=y1, y2",
                         "formula.parameters.mu=1e6",
                         "formula.rhs.y1=y2",
                         "formula.rhs.y2=mu * ((1 - y1^2) * y2 - y1)",
                         "formula.y0=[2, 0]"};
  compare_rhs(vdpol, sizeof vdpol / sizeof vdpol[0], "model.problem=vdpol", 2);
}

/* The keys a description writes are registered (and echoed), a second build on the same
 * database finds them; a misspelt key is refused. */
static void test_keys(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  sk_options *o = model_options(ctx);
  const char *vec[] = {"model.type=formula",         "formula.variables=c[1..3]",
                       "formula.parameters.k=2",     "formula.rhs.c1=-k * c1",
                       "formula.rhs.c2=k * c1 - c2", "formula.rhs.c3=c2",
                       "formula.y0=[1, 0, 0]"};
  sk_model *m = build(ctx, o, vec, sizeof vec / sizeof vec[0]);
  CHECK(sk_options_is_key(o, "formula.parameters.k") && sk_options_is_key(o, "formula.rhs.c3"));
  char name[32];
  sk_model_component_name(m, 2, name, sizeof name);
  CHECK(strcmp(name, "c3") == 0);
  const double y[3] = {1, 2, 3};
  double f[3];
  CHECK_OK(ctx, sk_model_eval_rhs(m, 0, y, f));
  CHECK(f[0] == -2.0 && f[1] == 0.0 && f[2] == 2.0); /* exact: -k c1, k c1 - c2, c2 */
  sk_model_destroy(&m);
  CHECK_OK(ctx, sk_model_from_options(ctx, o, &m)); /* again on the same database: its keys */
  CHECK_OK(ctx, sk_model_eval_rhs(m, 0, y, f));
  CHECK(f[0] == -2.0 && f[1] == 0.0 && f[2] == 2.0);
  sk_model_destroy(&m);
  sk_options_destroy(&o);
  o = model_options(ctx);
  const char *typo[] = {"model.type=formula", "formula.variables=x", "formula.rhs.x=-x",
                        "formula.y0=[1]", "formula.events.hit.wen=x - 0.5"};
  for (size_t i = 0; i < sizeof typo / sizeof typo[0]; i++) {
    CHECK_OK(ctx, sk_options_set_assignment(o, typo[i]));
  }
  CHECK_EQ_INT(sk_model_from_options(ctx, o, &m), SK_ERR_UNKNOWN_KEY);
  CHECK(m == NULL);
  CHECK(strstr(sk_context_get_error(ctx)->message, "formula.events.hit.wen") != NULL);
  sk_options_destroy(&o);
  sk_context_destroy(&ctx);
}

/* An event that changes a parameter: every run starts from the configured value. Decay
 * y' = -k y from 1 with k = 1, and k = 3 once y falls through 0.5 (at t1 = ln 2), so
 * y(1) = 0.5 exp(-3 (1 - ln 2)) exactly; a second stepper on the same model gets the same. */
static void test_parameter_event_reset(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  sk_options *o = model_options(ctx);
  const char *a[] = {"model.type=formula",
                     "formula.variables=y",
                     "formula.parameters.k=1",
                     "formula.rhs.y=-k * y",
                     "formula.y0=[1]",
                     "formula.events.half.when=y - 0.5",
                     "formula.events.half.direction=falling",
                     "formula.events.half.action=k = 3"};
  sk_model *m = build(ctx, o, a, sizeof a / sizeof a[0]);
  const double expect = 0.5 * exp(-3.0 * (1.0 - log(2.0)));
  for (int run = 0; run < 2; run++) {
    sk_stepper *s = NULL;
    CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
    CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-10, 1e-14));
    double t = 0;
    CHECK_OK(ctx, sk_stepper_advance(s, 1.0, &t));
    CHECK_NEAR(sk_stepper_get_state(s)[0], expect, 1e-7, 1e-12);
    const sk_event_record *ev;
    size_t n;
    sk_stepper_get_events(s, &ev, &n);
    CHECK(n == 1 && fabs(ev[0].t - log(2.0)) < 1e-7);
    sk_stepper_destroy(&s);
  }
  sk_model_destroy(&m);
  sk_options_destroy(&o);
  sk_context_destroy(&ctx);
}

int main(void)
{
  test_rober_and_vdpol();
  test_keys();
  test_parameter_event_reset();
  TEST_RETURN();
}

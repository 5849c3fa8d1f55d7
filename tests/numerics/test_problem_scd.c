/* tests/numerics/test_problem_scd.c: the problem library as published: Test Set intervals, parameters and ranges, the published reference solutions, scd tracking the tolerance (cvode-bdf + KLU, rtol 1e-6..1e-10), E5's invariant and its tiny y3 at t = 1e13 */
/*
 * Expected values: the Test Set for IVP Solvers (Mazzia, Magherini et al.,
 * Univ. Bari, release 2.4), subroutines prob (interval) and solut
 * (reference solution) of rober.f, hires.f, vdpol.f, orego.f, e5.f, copied
 * here independently of the library's table (the test checks the library
 * carries the same numbers). scd is the Test Set's measure of significant
 * correct digits, -log10 max_i |y_i - ref_i| / |ref_i|, over the components
 * with a trusted reference, capped at their trusted digits (E5: y2 and y3,
 * 2 digits: the reference gives y2 - y3 = 1.28e-25 where y2 - y3 = y4 = 0).
 * At every rtol the scd must reach -log10(rtol) - SLACK (SLACK = 2; OREGO,
 * an oscillator that amplifies local errors, 3), and from rtol 1e-6 to
 * 1e-10 it must grow by at least 2 digits unless capped.
 */
#include "run_helper.h"
#include "test.h"

#define MAXN 8

typedef struct {
  const char *name;
  double t_end;
  int n;
  double ref[MAXN];
  int digits[MAXN];
  double atol_scale[MAXN]; /* atol_i = rtol x atol_scale_i (below each component's size) */
  double slack;
} published;

static const published problems[] = {
    {"rober",
     1e11,
     3,
     {0.2083340149701255e-07, 0.8333360770334713e-13, 0.9999999791665050},
     {10, 10, 10},
     {1e-10, 1e-16, 1e-10},
     2.0},
    {"hires",
     321.8122,
     8,
     {0.7371312573325668e-3, 0.1442485726316185e-3, 0.5888729740967575e-4, 0.1175651343283149e-2,
      0.2386356198831331e-2, 0.6238968252742796e-2, 0.2849998395185769e-2, 0.2850001604814231e-2},
     {10, 10, 10, 10, 10, 10, 10, 10},
     {1e-7, 1e-7, 1e-7, 1e-7, 1e-7, 1e-7, 1e-7, 1e-7},
     2.0},
    {"vdpol", 2.0, 2, {0.1706167732170483e1, -0.8928097010247975e0}, {10, 10}, {1e-3, 1e-3}, 2.0},
    {"orego",
     360.0,
     3,
     {0.1000814870318523e1, 0.1228178521549917e4, 0.1320554942846706e3},
     {10, 10, 9},
     {1e-3, 1e-3, 1e-3},
     3.0},
    {"e5",
     1e13,
     4,
     {0.1152903278711829e-290, 0.8867655517642120e-22, 0.8854814626268838e-22, 0.0},
     {0, 2, 2, 0},
     {1e-12, 1e-26, 1e-26, 1e-26},
     2.0},
};

/* scd over the trusted components, capped at the smallest trusted digit count */
static double scd(const published *p, const double *y, double *cap)
{
  double worst = 0.0;
  *cap = 16.0;
  for (int i = 0; i < p->n; i++) {
    if (p->digits[i] > 0) {
      worst = fmax(worst, fabs(y[i] - p->ref[i]) / fabs(p->ref[i]));
      *cap = fmin(*cap, (double)p->digits[i]);
    }
  }
  const double d = worst > 0 ? -log10(worst) : 16.0;
  return fmin(d, *cap);
}

int main(void)
{
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK) {
    return 1;
  }
  for (size_t c = 0; c < sizeof problems / sizeof problems[0]; c++) {
    const published *p = &problems[c];
    sk_model *m = NULL;
    CHECK_OK(ctx, sk_problem_create(ctx, p->name, &m));
    if (!m) {
      continue;
    }
    /* the published interval and the reference the library carries */
    CHECK_NEAR(sk_model_get_default_t_end(m), p->t_end, 0.0, 0.0);
    sk_problem_reference ref;
    CHECK_OK(ctx, sk_problem_get_reference(p->name, &ref));
    CHECK_EQ_INT(ref.n, p->n);
    CHECK_NEAR(ref.t, p->t_end, 0.0, 0.0);
    CHECK_STR_CONTAINS(ref.source, "Test Set for IVP Solvers");
    for (int i = 0; i < p->n && ref.n == p->n; i++) {
      CHECK(ref.y[i] == p->ref[i]);
      CHECK_EQ_INT(ref.digits[i], p->digits[i]);
    }
    /* scd against the reference tracks the tolerance */
    double first = 0.0, cap = 16.0;
    for (int e = 6; e <= 10; e++) {
      const double rtol = pow(10.0, -e);
      double atol[MAXN], y[MAXN];
      for (int i = 0; i < p->n; i++) {
        atol[i] = rtol * p->atol_scale[i];
      }
      const run_cfg cfg = {.linsol = "klu",
                           .rtol = rtol,
                           .atol = atol[0],
                           .t_end = p->t_end,
                           .atol_vec = atol,
                           .max_steps = 1000000};
      CHECK_OK(ctx, run_model(ctx, m, &cfg, y, NULL));
      const double d = scd(p, y, &cap);
      const double need = fmin((double)e - p->slack, cap);
      printf("%s rtol 1e-%d: scd %.2f (needs %.2f)\n", p->name, e, d, need);
      if (!(d >= need)) {
        fprintf(stderr, "%s rtol 1e-%d: scd %.2f < %.2f\n", p->name, e, d, need);
        sk_test_failures++;
      }
      if (e == 6) {
        first = d;
      } else if (e == 10 && !(d >= fmin(first + 2.0, cap))) {
        fprintf(stderr, "%s: scd %.2f at rtol 1e-10 is not 2 digits above %.2f at 1e-6\n",
                p->name, d, first);
        sk_test_failures++;
      }
      if (!strcmp(p->name, "e5")) {
        /* y3 ~ 8.9e-23 with the right sign (the RHS summing P1 - P2 - P3 + P4 gives
           scd < 0 here: y3 ~ 1e-20, y2 < 0), and the invariant y2 = y3 + y4 to 1e-24:
           what is left is the rounding of y2, y4 ~ 1e-10 at early times over the
           run's steps (measured 2e-26 .. 7e-25; the Test Set's own reference has
           y2 - y3 - y4 = 1.3e-25) */
        CHECK(y[1] > 0.0 && y[2] > 0.0);
        CHECK_NEAR(y[2], p->ref[2], 1e-2, 0.0);
        CHECK_NEAR(y[1], y[2] + y[3], 0.0, 1e-24);
      }
      if (!strcmp(p->name, "rober")) {
        CHECK_NEAR(y[0] + y[1] + y[2], 1.0, 0.0, 10.0 * rtol); /* mass conservation */
      }
    }
    sk_model_destroy(&m);
  }
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

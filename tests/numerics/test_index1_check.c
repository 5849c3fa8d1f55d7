/* tests/numerics/test_index1_check.c: the index-1 check of ida-bdf is scale-aware and tolerance-independent: a badly scaled index-1 pendulum accepted at rtol 1e-4 .. 1e-12, its index-2/3 forms refused naming the equation */
#include "test.h"

/* The planar pendulum of mass m and length L in Cartesian coordinates,
 * y = (x, y, u, v, lambda), id = (1, 1, 1, 1, 0):
 *   F1 = x' - u,  F2 = y' - v,
 *   F3 = m u' + 2 x lambda,  F4 = m v' + 2 y lambda + m g,
 *   F5 = constraint row, by formulation:
 *     index 1: 2 (x u' + y v') + 2 (u^2 + v^2)   (x^2 + y^2 = L^2 differentiated twice)
 *     index 2: x u + y v                         (once)
 *     index 3: x^2 + y^2 - L^2                   (not at all)
 * From rest at x = L, y = 0: y'0 = (0, 0, 0, -g, 0) and lambda = 0 are
 * consistent (F = 0 exactly). At t0 the index-1 matrix [dF/dy'_d, dF/dy_a]
 * has the block [[m, 2L], [2L, 0]] (det -4L^2): nonsingular for every m, L.
 * With m = 1e6 and L = 1e-3 its entries span 9 decades and the unscaled
 * LU pivots 1e6 and -4e-12 (ratio 4e-18): a check without equilibration
 * calls it singular. Index 2 and 3: row F5 has no y' of a differential and
 * no algebraic variable, so the matrix is singular whatever the scaling. */
typedef struct {
  double m, L, g;
  int index;
} pendulum;

static int residual(double t, const double *y, const double *yp, double *r, void *ud)
{
  (void)t;
  const pendulum *p = ud;
  r[0] = yp[0] - y[2];
  r[1] = yp[1] - y[3];
  r[2] = p->m * yp[2] + 2.0 * y[0] * y[4];
  r[3] = p->m * yp[3] + 2.0 * y[1] * y[4] + p->m * p->g;
  if (p->index == 1) {
    r[4] = 2.0 * (y[0] * yp[2] + y[1] * yp[3]) + 2.0 * (y[2] * y[2] + y[3] * y[3]);
  } else if (p->index == 2) {
    r[4] = y[0] * y[2] + y[1] * y[3];
  } else {
    r[4] = y[0] * y[0] + y[1] * y[1] - p->L * p->L;
  }
  return 0;
}

static int initial(double t0, double *y0, double *yp0, void *ud)
{
  (void)t0;
  const pendulum *p = ud;
  const double y[5] = {p->L, 0, 0, 0, 0}, yp[5] = {0, 0, 0, -p->g, 0};
  memcpy(y0, y, sizeof y);
  memcpy(yp0, yp, sizeof yp);
  return 0;
}

/* the pattern of dF/dy + cj dF/dy' for every formulation (a superset) */
static sk_model *make_model(sk_context *ctx, pendulum *p)
{
  static const int64_t colptr[] = {0, 4, 8, 13, 18, 21};
  static const int64_t rowind[] = {0,         2, 3, 4, /* x */ 1, 2,         3, 4,
                                   /* y */ 0, 1, 2, 3, 4, /* u */
                                   0,         1, 2, 3, 4,         /* v */ 2, 3, 4 /* lambda */};
  static const int id[5] = {1, 1, 1, 1, 0};
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_DAE, 5, &m));
  sk_model_set_name(m, "pendulum");
  sk_model_set_user_data(m, p, NULL);
  CHECK_OK(ctx, sk_model_set_residual(m, residual));
  CHECK_OK(ctx, sk_model_set_dae_initial(m, initial));
  CHECK_OK(ctx, sk_model_set_differential(m, id));
  CHECK_OK(ctx, sk_model_set_jac_pattern(m, colptr, rowind));
  return m;
}

static sk_status run(sk_context *ctx, sk_model *m, double rtol, double *drift)
{
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, "ida-bdf", m, &s));
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, rtol, rtol * 1e-6));
  CHECK_OK(ctx, sk_stepper_set_linear_solver(s, "klu"));
  double t = 0;
  sk_status rc = sk_stepper_setup(s);
  if (rc == SK_OK) {
    rc = sk_stepper_advance(s, 0.005, &t);
    const double *y = sk_stepper_get_state(s);
    const pendulum *p = sk_model_get_user_data(m);
    *drift = fabs(y[0] * y[0] + y[1] * y[1] - p->L * p->L) / (p->L * p->L);
  }
  sk_stepper_destroy(&s);
  return rc;
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  const double scales[][2] = {{1.0, 1.0}, {1e6, 1e-3}}; /* m, L */
  for (int k = 0; k < 2; k++) {
    pendulum p = {scales[k][0], scales[k][1], 9.81, 1};
    sk_model *m = make_model(ctx, &p);
    for (double rtol = 1e-4; rtol >= 0.99e-12; rtol /= 100) {
      double drift = 1;
      const sk_status rc = run(ctx, m, rtol, &drift);
      if (rc != SK_OK) {
        fprintf(stderr, "m=%g L=%g rtol=%g: %s\n", p.m, p.L, rtol,
                sk_context_get_error(ctx)->message);
      }
      CHECK_OK(ctx, rc);
      /* the index-1 form drifts off x^2 + y^2 = L^2 only by the integration error */
      CHECK(drift < 1e3 * rtol);
    }
    for (int index = 2; index <= 3; index++) { /* refused at every tolerance, F5 named */
      p.index = index;
      for (double rtol = 1e-4; rtol >= 0.99e-12; rtol /= 100) {
        double drift;
        CHECK(run(ctx, m, rtol, &drift) == SK_ERR_INPUT);
        CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "not an index-1 DAE");
        CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "equation 4 has no y'");
      }
      p.index = 1;
    }
    sk_model_destroy(&m);
  }
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

/* tests/unit/test_diagnose_api.c: sk_diagnose called as a client would, through the public headers: on linear systems whose eigenvalues are known exactly (a triangular matrix: its diagonal) the estimates, the stiffness ratio, the explicit bounds and the recommendation follow from them */
#include "../test.h"

/* y' = A y, A = [[-1, 0], [c, -k]]: eigenvalues -1 and -k whatever the coupling c. */
typedef struct {
  double k;
} tri;

static int tri_rhs(double t, const double *y, double *ydot, void *ud)
{
  (void)t;
  const tri *p = ud;
  ydot[0] = -y[0];
  ydot[1] = 3.0 * y[0] - p->k * y[1];
  return 0;
}

static int tri_jac(double t, const double *y, const double *fy, double *v, void *ud)
{
  (void)t;
  (void)y;
  (void)fy;
  const tri *p = ud;
  v[0] = -1.0;  /* (0, 0) */
  v[1] = 3.0;   /* (1, 0) */
  v[2] = -p->k; /* (1, 1) */
  return 0;
}

static int tri_initial(double t0, double *y, void *ud)
{
  (void)t0;
  (void)ud;
  y[0] = 1.0;
  y[1] = 0.5;
  return 0;
}

/* Diagnose the system with rate k over [0, 2] (with or without its Jacobian). */
static void diagnose(sk_context *ctx, tri *p, int with_jacobian, sk_diagnose_report *r)
{
  static const int64_t colptr[] = {0, 2, 3}, rowind[] = {0, 1, 1};
  sk_model *m = NULL;
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, 2, &m));
  CHECK_OK(ctx, sk_model_set_user_data(m, p, NULL));
  CHECK_OK(ctx, sk_model_set_rhs(m, tri_rhs));
  CHECK_OK(ctx, sk_model_set_initial(m, tri_initial));
  if (with_jacobian) {
    CHECK_OK(ctx, sk_model_set_jac_pattern(m, colptr, rowind));
    CHECK_OK(ctx, sk_model_set_jac_values(m, tri_jac));
  }
  CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-6, 1e-9));
  if (!with_jacobian) { /* no pattern found by probing either: f alone */
    CHECK_OK(ctx, sk_stepper_set_detect_pattern(s, SK_DETECT_PATTERN_OFF));
  }
  CHECK_OK(ctx, sk_stepper_setup(s));
  CHECK_OK(ctx, sk_diagnose(s, 2.0, r));
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  sk_diagnose_report *r = calloc(1, sizeof *r);
  CHECK(r != NULL);
  if (!r) {
    TEST_RETURN();
  }

  /* stiff: k = 1e4, ratio 1e4 */
  tri stiff = {1e4};
  diagnose(ctx, &stiff, 1, r);
  CHECK_EQ_INT(r->nsamples, SK_DIAGNOSE_SAMPLES);
  CHECK_NEAR(r->s[0].t, 0.0, 0, 0);
  CHECK_NEAR(r->s[SK_DIAGNOSE_SAMPLES - 1].t, 2.0, 1e-12, 0);
  for (int k = 0; k < r->nsamples; k++) {
    CHECK_NEAR(r->s[k].e.lambda_max.re, -1e4, 1e-4, 0);
    CHECK_NEAR(r->s[k].e.lambda_min.re, -1.0, 1e-4, 0);
    CHECK(r->s[k].e.have_gershgorin && r->s[k].e.min_method == SK_EIG_MIN_KLU_INVERSE);
  }
  CHECK_NEAR(r->worst_ratio, 1e4, 1e-4, 0);
  CHECK_NEAR(r->h_fe, SK_DIAGNOSE_FE_LIMIT / 1e4, 1e-4, 0);
  /* RK4 over [0, 2] at h = 2.785 / |lambda_max| with the exact |lambda_max| = 1e4 */
  CHECK_NEAR(r->steps_rk4, 2.0 * 1e4 / SK_DIAGNOSE_RK4_LIMIT, 1e-3, 1.0);
  CHECK(!r->explicit_ok);
  CHECK_STR_CONTAINS(r->recommendation, "stiff: cvode-bdf");
  CHECK_STR_CONTAINS(r->settings, "--set solver.method=cvode-bdf --set linsol.type=klu");
  CHECK(r->nreasons >= 2 && r->stats.steps > 0);
  CHECK(strcmp(r->method, "cvode-bdf") == 0);

  /* mild: k = 3, ratio 3: explicit; without a Jacobian the estimates come from f alone */
  tri mild = {3.0};
  diagnose(ctx, &mild, 0, r);
  CHECK_NEAR(r->s[0].e.lambda_max.re, -3.0, 1e-3, 0);
  CHECK(!r->s[0].e.have_gershgorin && !r->s[0].e.sparse_jv);
  CHECK(r->s[0].e.min_method == SK_EIG_MIN_SHIFTED_ARNOLDI);
  CHECK_NEAR(r->s[0].e.lambda_min.re, -1.0, 1e-2, 0); /* relative to |lambda_max| = 3 */
  CHECK(r->worst_ratio < SK_DIAGNOSE_RATIO_EXPLICIT);
  CHECK(r->explicit_ok);
  CHECK_STR_CONTAINS(r->recommendation, "explicit");

  CHECK_EQ_INT(sk_diagnose(NULL, 1.0, r), SK_ERR_ARG);
  free(r);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

/* tests/unit/test_dae_jac_residual.c: sk_model_eval_dae_jac hands a model's own DAE Jacobian callback (values and dense) r = F(t, y, y') also when its caller passes NULL, as the callback contract promises; exact values of a 2-equation DAE */
#include "test.h"

/* F0 = y0' - y1, F1 = y1 - y0^2: dF/dy + cj dF/dy' = [[cj, -1], [-2 y0, 1]] */
static int residual(double t, const double *y, const double *yp, double *r, void *ud)
{
  (void)t;
  (void)ud;
  r[0] = yp[0] - y[1];
  r[1] = y[1] - y[0] * y[0];
  return 0;
}

/* how the callbacks saw r: 1 = given and equal to F(t, y, y') */
static int saw_r;

static int r_is_residual(double t, const double *y, const double *yp, const double *r)
{
  double f[2];
  residual(t, y, yp, f, NULL);
  return r != NULL && r[0] == f[0] && r[1] == f[1];
}

static int jac_values(double t, double cj, const double *y, const double *yp, const double *r,
                      double *v, void *ud)
{
  (void)ud;
  saw_r = r_is_residual(t, y, yp, r);
  v[0] = cj; /* column 0: rows 0, 1 */
  v[1] = -2.0 * y[0];
  v[2] = -1.0; /* column 1: rows 0, 1 */
  v[3] = 1.0;
  return 0;
}

static int jac_dense(double t, double cj, const double *y, const double *yp, const double *r,
                     double *J, void *ud)
{
  (void)ud;
  saw_r = r_is_residual(t, y, yp, r);
  J[0] = cj;
  J[1] = -2.0 * y[0];
  J[2] = -1.0;
  J[3] = 1.0;
  return 0;
}

static void check_one(sk_context *ctx, int dense)
{
  static const int64_t colptr[] = {0, 2, 4}, rowind[] = {0, 1, 0, 1};
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_DAE, 2, &m));
  CHECK_OK(ctx, sk_model_set_residual(m, residual));
  if (dense) {
    CHECK_OK(ctx, sk_model_set_dae_dense_jacobian(m, jac_dense));
  } else {
    CHECK_OK(ctx, sk_model_set_jac_pattern(m, colptr, rowind));
    CHECK_OK(ctx, sk_model_set_dae_jac_values(m, jac_values));
  }
  const double y[2] = {0.5, 3.0}, yp[2] = {2.0, -1.0}, cj = 7.0;
  double v[4] = {0};
  saw_r = -1;
  CHECK_OK(ctx, sk_model_eval_dae_jac(m, 0.25, cj, y, yp, NULL, v));
  CHECK_EQ_INT(saw_r, 1);
  /* the dense callback's full pattern is column by column, as the values callback's */
  CHECK_NEAR(v[0], cj, 0, 0);
  CHECK_NEAR(v[1], -2.0 * y[0], 0, 0);
  CHECK_NEAR(v[2], -1.0, 0, 0);
  CHECK_NEAR(v[3], 1.0, 0, 0);
  double r[2];
  residual(0.25, y, yp, r, NULL);
  saw_r = -1;
  CHECK_OK(ctx, sk_model_eval_dae_jac(m, 0.25, cj, y, yp, r, v));
  CHECK_EQ_INT(saw_r, 1);
  sk_model_destroy(&m);
}

int main(void)
{
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK) {
    return 1;
  }
  check_one(ctx, 0);
  check_one(ctx, 1);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

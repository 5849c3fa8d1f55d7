/* tests/unit/test_jacobian_selftest.c: CVODE setup refuses a wrong analytic Jacobian or an undeclared dependence, naming the entry */
#include "fd_models.h"

typedef struct {
  sk_model *orig;
  int mode; /* 0 wrong entry, 1 f0 depends on y2 outside the diagonal pattern */
} bad;

static int bad_rhs(double t, const double *y, double *ydot, void *ud)
{
  bad *b = ud;
  if (b->mode == 0) {
    return sk_model_eval_rhs(b->orig, t, y, ydot) == SK_OK ? 0 : -1;
  }
  ydot[0] = -y[0] + 0.5 * y[2];
  ydot[1] = -2.0 * y[1];
  ydot[2] = -3.0 * y[2];
  return 0;
}

static int bad_jac(double t, const double *y, const double *fy, double *v, void *ud)
{
  bad *b = ud;
  if (b->mode == 0) {
    const int rc = sk_model_eval_jac(b->orig, t, y, fy, v) == SK_OK ? 0 : -1;
    v[5] *= 3.0; /* deliberately wrong */
    return rc;
  }
  v[0] = -1.0;
  v[1] = -2.0;
  v[2] = -3.0;
  return 0;
}

static int ones(double t0, double *y, void *ud)
{
  (void)t0;
  (void)ud;
  y[0] = y[1] = y[2] = 1.0;
  return 0;
}

static sk_status setup(sk_context *ctx, sk_model *m, int check)
{
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
  CHECK_OK(ctx, sk_stepper_set_linear_solver(s, "klu"));
  CHECK_OK(ctx, sk_stepper_set_check_jacobian(s, check));
  const sk_status st = sk_stepper_setup(s);
  sk_stepper_destroy(&s);
  return st;
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  /* the built-in models pass */
  for (int k = 0; k < FD_NMODELS; k++) {
    sk_model *m = fd_builtin(ctx, k, 0);
    CHECK_OK(ctx, setup(ctx, m, 1));
    sk_model_destroy(&m);
  }
  /* a wrong entry is caught and named */
  bad b = {.orig = fd_builtin(ctx, 0, 0), .mode = 0};
  sk_model *m = fd_copy(ctx, b.orig);
  sk_model_set_rhs(m, bad_rhs);
  sk_model_set_user_data(m, &b, NULL);
  sk_model_set_jac_values(m, bad_jac);
  sk_model_set_initial(m, ones);
  const int64_t *cp, *ri;
  int64_t nnz;
  sk_model_get_jac_pattern(m, &cp, &ri, &nnz);
  int64_t col = 0;
  while (cp[col + 1] <= 5) {
    col++;
  }
  char want[64];
  snprintf(want, sizeof want, "row %lld y[%lld], column %lld", (long long)ri[5], (long long)ri[5],
           (long long)col);
  CHECK_EQ_INT(setup(ctx, m, 1), SK_ERR_INPUT);
  const char *msg = sk_context_get_error(ctx)->message;
  printf("wrong entry: %s\n", msg);
  CHECK_STR_CONTAINS(msg, want);
  CHECK_STR_CONTAINS(msg, "solver.check_jacobian=false");
  CHECK_OK(ctx, setup(ctx, m, 0));
  sk_model_destroy(&m);
  sk_model_destroy(&b.orig);
  /* an RHS dependence outside the declared (diagonal) pattern */
  bad b2 = {.orig = NULL, .mode = 1};
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, 3, &m));
  sk_model_set_rhs(m, bad_rhs);
  sk_model_set_user_data(m, &b2, NULL);
  sk_model_set_jac_values(m, bad_jac);
  sk_model_set_initial(m, ones);
  const int64_t dcp[] = {0, 1, 2, 3}, dri[] = {0, 1, 2};
  CHECK_OK(ctx, sk_model_set_jac_pattern(m, dcp, dri));
  CHECK_EQ_INT(setup(ctx, m, 1), SK_ERR_INPUT);
  msg = sk_context_get_error(ctx)->message;
  printf("outside pattern: %s\n", msg);
  CHECK_STR_CONTAINS(msg, "row 0 y[0], column 2 y[2]");
  CHECK_STR_CONTAINS(msg, "outside the declared pattern");
  sk_model_destroy(&m);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

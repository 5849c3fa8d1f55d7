/* tests/numerics/test_verify_jacobian.c: the Jacobian self-test names a wrong entry and a missing one */
#include "core/jacobian_check.h"
#include "test.h"

/* f_i = -(2 + y_i^2) y_i + y_{i-1} + 0.5 y_{i+1}^2 + sin(t) (terms outside [0, N) dropped),
 * plus, when `coupled`, a term 0.3 y_0 y_4 in f_2 that the tridiagonal pattern does not declare. */
#define N 6

typedef struct {
  int wrong_row, wrong_col; /* entry given a wrong analytic value (-1: none) */
  int coupled;
} jac_case;

static int rhs(double t, const double *y, double *f, void *ud)
{
  const jac_case *c = ud;
  for (int i = 0; i < N; i++) {
    f[i] = -(2.0 + y[i] * y[i]) * y[i] + sin(t);
    if (i > 0) {
      f[i] += y[i - 1];
    }
    if (i + 1 < N) {
      f[i] += 0.5 * y[i + 1] * y[i + 1];
    }
  }
  if (c->coupled) {
    f[2] += 0.3 * y[0] * y[4];
  }
  return 0;
}

/* Tridiagonal pattern, column by column: rows j-1, j, j+1. */
static int jac(double t, const double *y, const double *fy, double *vals, void *ud)
{
  (void)t;
  (void)fy;
  const jac_case *c = ud;
  int p = 0;
  for (int j = 0; j < N; j++) {
    for (int i = j - 1; i <= j + 1; i++) {
      if (i < 0 || i >= N) {
        continue;
      }
      double v = i == j ? -(2.0 + 3.0 * y[j] * y[j]) : i == j + 1 ? 1.0 : y[j];
      if (i == c->wrong_row && j == c->wrong_col) {
        v *= 1.01; /* a 1 % mistake */
      }
      vals[p++] = v;
    }
  }
  return 0;
}

static void name(int64_t i, char *buf, size_t len, void *ud)
{
  (void)ud;
  snprintf(buf, len, "c%lld", (long long)i);
}

static sk_model *make_model(sk_context *ctx, jac_case *c)
{
  sk_model *m = NULL;
  int64_t colptr[N + 1], rowind[3 * N];
  int64_t p = 0;
  for (int j = 0; j < N; j++) {
    colptr[j] = p;
    for (int i = j - 1; i <= j + 1; i++) {
      if (i >= 0 && i < N) {
        rowind[p++] = i;
      }
    }
  }
  colptr[N] = p;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, N, &m));
  CHECK_OK(ctx, sk_model_set_rhs(m, rhs));
  CHECK_OK(ctx, sk_model_set_jac_values(m, jac));
  CHECK_OK(ctx, sk_model_set_jac_pattern(m, colptr, rowind));
  CHECK_OK(ctx, sk_model_set_component_name(m, name));
  CHECK_OK(ctx, sk_model_set_user_data(m, c, NULL));
  return m;
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  const double y[N] = {0.3, -0.7, 1.1, 0.25, -1.4, 0.9};
  sk__jac_check_result res;

  /* a correct Jacobian: tiny relative error, every column, batched */
  jac_case good = {-1, -1, 0};
  sk_model *m = make_model(ctx, &good);
  CHECK_OK(ctx, sk__jacobian_check(m, 0.4, y, 20000, 200, 1, &res));
  printf("correct: rel_err %.3e, %lld columns in %lld batches\n", res.rel_err,
         (long long)res.ncols, (long long)res.nbatches);
  CHECK(res.rel_err < 1e-8);
  CHECK_EQ_INT(res.ncols, N);
  CHECK_EQ_INT(res.sampled, 0);
  CHECK_EQ_INT(res.nentries, 3 * N - 2);
  CHECK_EQ_INT(res.outside_pattern, 0);
  CHECK(res.nbatches < N); /* tridiagonal: 3 colors */
  sk_model_destroy(&m);

  /* one wrong entry: it is the worst one, exactly (row 3, column 2) */
  jac_case wrong = {3, 2, 0};
  m = make_model(ctx, &wrong);
  CHECK_OK(ctx, sk__jacobian_check(m, 0.4, y, 20000, 200, 1, &res));
  printf("wrong (3,2): rel_err %.3e, worst (%lld, %lld) analytic %.6g fd %.6g\n", res.rel_err,
         (long long)res.worst[0].row, (long long)res.worst[0].col, res.worst[0].analytic,
         res.worst[0].fd);
  CHECK(res.rel_err > 1e-4);
  CHECK(res.nworst >= 1);
  CHECK_EQ_INT(res.worst[0].row, 3);
  CHECK_EQ_INT(res.worst[0].col, 2);
  CHECK_NEAR(res.worst[0].fd, 1.0, 1e-8, 1e-10); /* d f3 / d y2 = 1 */
  CHECK_NEAR(res.worst[0].analytic, 1.01, 1e-14, 0);
  if (res.nworst >= 2) {
    CHECK(fabs(res.worst[1].analytic - res.worst[1].fd) < 1e-6);
  }
  sk_model_destroy(&m);

  /* a dependency missing from the pattern: counted and named (row 2, column 4) */
  jac_case missing = {-1, -1, 1};
  m = make_model(ctx, &missing);
  CHECK_OK(ctx, sk__jacobian_check(m, 0.4, y, 20000, 200, 1, &res));
  printf("missing (2,4) and (2,0): outside %lld, worst (%lld, %lld) fd %.6g\n",
         (long long)res.outside_pattern, (long long)res.worst[0].row, (long long)res.worst[0].col,
         res.worst[0].fd);
  CHECK_EQ_INT(res.outside_pattern, 2); /* d f2/d y0 and d f2/d y4 */
  CHECK_EQ_INT(res.worst[0].row, 2);
  CHECK_EQ_INT(res.worst[0].col, 0); /* 0.3 y4 = -0.42 is the larger of the two */
  CHECK_NEAR(res.worst[0].fd, 0.3 * y[4], 1e-8, 1e-10);
  CHECK_NEAR(res.worst[0].analytic, 0.0, 0, 0);
  sk_model_destroy(&m);

  /* a column sample when n exceeds the full-check size */
  m = make_model(ctx, &good);
  CHECK_OK(ctx, sk__jacobian_check(m, 0.4, y, 4, 3, 7, &res));
  CHECK_EQ_INT(res.sampled, 1);
  CHECK_EQ_INT(res.ncols, 3);
  CHECK(res.rel_err < 1e-8);
  sk_model_destroy(&m);

  /* a model without an analytic Jacobian is refused */
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, N, &m));
  CHECK_OK(ctx, sk_model_set_rhs(m, rhs));
  CHECK(sk__jacobian_check(m, 0.0, y, 20000, 200, 1, &res) == SK_ERR_UNSUPPORTED);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "no analytic Jacobian");
  sk_model_destroy(&m);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

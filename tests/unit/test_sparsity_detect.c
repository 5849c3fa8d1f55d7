/* tests/unit/test_sparsity_detect.c: detected Jacobian patterns contain the true pattern on every built-in model */
#include "fd_models.h"

static void warn_count(void *ud, sk_log_level level, const char *msg)
{
  (void)msg;
  if (level == SK_LOG_WARN) {
    (*(int *)ud)++;
  }
}

static void detect(sk_context *ctx, int k, int64_t nn)
{
  sk_model *a = fd_builtin(ctx, k, nn);
  sk_model *f = fd_copy(ctx, a);
  const int64_t n = sk_model_get_n(a);
  const int64_t *cp, *ri, *dcp, *dri;
  int64_t nnz, dnnz;
  sk_model_get_jac_pattern(a, &cp, &ri, &nnz);
  double *y = calloc((size_t)n, sizeof *y);
  CHECK_OK(ctx, sk_model_eval_initial(a, 0.0, y));
  CHECK_OK(ctx, sk_model_detect_pattern(f, 0.0, y, 2));
  sk_model_get_jac_pattern(f, &dcp, &dri, &dnnz);
  int64_t missing = 0;
  for (int64_t j = 0; j < n; j++) {
    int64_t q = dcp[j];
    for (int64_t p = cp[j]; p < cp[j + 1]; p++) {
      while (q < dcp[j + 1] && dri[q] < ri[p]) {
        q++;
      }
      missing += !(q < dcp[j + 1] && dri[q] == ri[p]);
    }
  }
  printf("%s n=%lld: true nnz %lld, detected %lld, missing %lld\n", sk_model_get_name(a),
         (long long)n, (long long)nnz, (long long)dnnz, (long long)missing);
  CHECK_EQ_INT(missing, 0);
  CHECK(dnnz <= 2 * nnz + n);
  free(y);
  sk_model_destroy(&f);
  sk_model_destroy(&a);
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  int warnings = 0;
  sk_context_set_log(ctx, SK_LOG_WARN, warn_count, &warnings);
  for (int k = 0; k < FD_NMODELS; k++) {
    detect(ctx, k, 0);
  }
  CHECK_EQ_INT(warnings, FD_NMODELS);
  detect(ctx, 4, 160); /* n = 25600 > 20000: grouped probing */
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

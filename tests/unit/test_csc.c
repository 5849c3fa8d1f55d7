/* tests/unit/test_csc.c: CSC pattern building: triplets to CSC, diagonal completion, bandwidth, model validation */
#include "core/csc.h"
#include "test.h"

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  /* 4 x 4, unsorted with duplicates: entries (r,c) */
  const int64_t rows[] = {2, 0, 1, 3, 0, 2, 1, 0};
  const int64_t cols[] = {0, 0, 1, 3, 2, 0, 3, 0};
  int64_t *cp = NULL, *ri = NULL;
  CHECK_OK(ctx, sk__csc_from_triplets(ctx, 4, 8, rows, cols, &cp, &ri));
  /* by hand: col0 {0,2}, col1 {1}, col2 {0}, col3 {1,3} */
  const int64_t ecp[] = {0, 2, 3, 4, 6};
  const int64_t eri[] = {0, 2, 1, 0, 1, 3};
  for (int j = 0; j <= 4; j++) {
    CHECK_EQ_INT(cp[j], ecp[j]);
  }
  for (int p = 0; p < 6; p++) {
    CHECK_EQ_INT(ri[p], eri[p]);
  }
  /* diagonal completion: (2,2) is missing; col2 becomes {0,2} */
  int64_t *cp2, *ri2, *map, *diag;
  CHECK_OK(ctx, sk__csc_with_diagonal(ctx, 4, cp, ri, &cp2, &ri2, &map, &diag));
  const int64_t ecp2[] = {0, 2, 3, 5, 7};
  const int64_t eri2[] = {0, 2, 1, 0, 2, 1, 3};
  for (int j = 0; j <= 4; j++) {
    CHECK_EQ_INT(cp2[j], ecp2[j]);
  }
  for (int p = 0; p < 7; p++) {
    CHECK_EQ_INT(ri2[p], eri2[p]);
  }
  for (int p = 0; p < 6; p++) {
    CHECK_EQ_INT(ri2[map[p]], ri[p]); /* old entries keep their rows */
  }
  for (int j = 0; j < 4; j++) {
    CHECK_EQ_INT(ri2[diag[j]], j);
  }
  int64_t ml, mu;
  sk__csc_bandwidth(4, cp, ri, &ml, &mu);
  CHECK_EQ_INT(ml, 2); /* (2,0) */
  CHECK_EQ_INT(mu, 2); /* (0,2) and (1,3) */
  /* out-of-range triplet */
  const int64_t badr[] = {4};
  const int64_t badc[] = {0};
  int64_t *x = NULL, *z = NULL;
  CHECK(sk__csc_from_triplets(ctx, 4, 1, badr, badc, &x, &z) == SK_ERR_INPUT);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "(4, 0) outside a 4 x 4 matrix");
  /* model pattern validation names the bad column */
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, 4, &m));
  const int64_t unsorted_ri[] = {2, 0, 1, 0, 1, 3};
  CHECK(sk_model_set_jac_pattern(m, cp, unsorted_ri) == SK_ERR_INPUT);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "not strictly increasing in column 0");
  const int64_t duplicate_ri[] = {0, 2, 1, 0, 3, 3}; /* column 3 lists row 3 twice */
  CHECK(sk_model_set_jac_pattern(m, cp, duplicate_ri) == SK_ERR_INPUT);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message,
                     "rows not strictly increasing in column 3 (row 3)");
  const int64_t outside_ri[] = {0, 2, 1, 0, 1, 4}; /* row 4 of a 4 x 4 pattern */
  CHECK(sk_model_set_jac_pattern(m, cp, outside_ri) == SK_ERR_INPUT);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "row 4 out of range [0, 4) in column 3");
  const int64_t negative_ri[] = {0, -1, 1, 0, 1, 3};
  CHECK(sk_model_set_jac_pattern(m, cp, negative_ri) == SK_ERR_INPUT);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message,
                     "row -1 out of range [0, 4) in column 0");
  CHECK_OK(ctx, sk_model_set_jac_pattern(m, cp, ri));
  const int64_t *gcp, *gri;
  int64_t nnz;
  sk_model_get_jac_pattern(m, &gcp, &gri, &nnz);
  CHECK_EQ_INT(nnz, 6);
  sk_model_destroy(&m);
  CHECK(m == NULL);
  sk_model_destroy(&m); /* accepts NULL */
  free(cp);
  free(ri);
  free(cp2);
  free(ri2);
  free(map);
  free(diag);
  sk_context_destroy(&ctx);
  CHECK(ctx == NULL);
  TEST_RETURN();
}

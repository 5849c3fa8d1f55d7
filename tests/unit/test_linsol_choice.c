/* tests/unit/test_linsol_choice.c: the LU prediction behind linsol.type=auto against closed-form factor counts, and the decisions it leads to */
#include <stdint.h>

#include "linsol/linsol_choice.h"
#include "test.h"

#define MAXN 1000
#define MAXNZ 200000

typedef struct {
  int64_t n;
  int64_t colptr[MAXN + 1];
  int64_t rowind[MAXNZ];
} pattern;

/* Tridiagonal n x n: LU without pivoting makes no fill, so L + U has
 * 3n - 2 entries, and elimination does n - 1 divisions and n - 1
 * multiply-subtract pairs: 3 (n - 1) flops. */
static void tridiagonal(pattern *p, int64_t n)
{
  int64_t k = 0;
  p->n = n;
  for (int64_t j = 0; j < n; j++) {
    p->colptr[j] = k;
    for (int64_t i = j - 1; i <= j + 1; i++) {
      if (i >= 0 && i < n) {
        p->rowind[k++] = i;
      }
    }
  }
  p->colptr[n] = k;
}

/* nb dense b x b diagonal blocks. A dense block's LU has b^2 entries, and
 * eliminating column j (1-based) divides b - j entries and does (b - j)^2
 * multiply-subtract pairs: b (b - 1) / 2 divisions and
 * sum_{m=1}^{b-1} m^2 = (b - 1) b (2b - 1) / 6 pairs per block. */
static void dense_blocks(pattern *p, int64_t nb, int64_t b)
{
  int64_t k = 0;
  p->n = nb * b;
  for (int64_t j = 0; j < p->n; j++) {
    p->colptr[j] = k;
    const int64_t first = (j / b) * b;
    for (int64_t i = first; i < first + b; i++) {
      p->rowind[k++] = i;
    }
  }
  p->colptr[p->n] = k;
}

/* An arrow (star) pattern: row and column 0 full, plus the diagonal.
 * Eliminating the leaves first (minimum degree does) makes no fill: each
 * leaf pivot has one entry below it (the hub), so 3 (n - 1) flops. */
static void arrow(pattern *p, int64_t n)
{
  int64_t k = 0;
  p->n = n;
  for (int64_t j = 0; j < n; j++) {
    p->colptr[j] = k;
    if (j == 0) {
      for (int64_t i = 0; i < n; i++) {
        p->rowind[k++] = i;
      }
    } else {
      p->rowind[k++] = 0;
      p->rowind[k++] = j;
    }
  }
  p->colptr[n] = k;
}

static pattern P;

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  sk__lu_prediction lu;

  tridiagonal(&P, 500);
  CHECK_OK(ctx, sk__lu_predict(ctx, P.n, P.colptr, P.rowind, &lu));
  CHECK_NEAR(lu.nnz, 3 * 500 - 2, 0, 0);
  CHECK_NEAR(lu.lu_nnz, 3 * 500 - 2, 0, 0);
  CHECK_NEAR(lu.lu_flops, 3 * 499, 0, 0);

  arrow(&P, 300);
  CHECK_OK(ctx, sk__lu_predict(ctx, P.n, P.colptr, P.rowind, &lu));
  CHECK_NEAR(lu.lu_nnz, 3 * 300 - 2, 0, 0);
  CHECK_NEAR(lu.lu_flops, 3 * 299, 0, 0);

  /* 4 blocks of 200: each row has 200 entries, under AMD's dense-row
   * threshold 10 sqrt(800) = 283, so the blocks are ordered as they are */
  const double b = 200, nb = 4;
  dense_blocks(&P, (int64_t)nb, (int64_t)b);
  CHECK_OK(ctx, sk__lu_predict(ctx, P.n, P.colptr, P.rowind, &lu));
  const double flops = nb * (b * (b - 1) / 2 + 2 * (b - 1) * b * (2 * b - 1) / 6);
  CHECK_NEAR(lu.lu_nnz, nb * b * b, 0, 0);
  CHECK_NEAR(lu.lu_flops, flops, 0, 0);

  /* the decisions: 133 flops per entry (2b/3 for dense blocks) is above
   * the crossover, the tridiagonal's 1 below it */
  sk__linsol_choice c;
  CHECK(flops / (nb * b * b) > SK__KRYLOV_FLOPS_PER_NNZ);
  CHECK_OK(ctx, sk__linsol_auto(ctx, P.n, P.colptr, P.rowind, "cvode-bdf", 1, 1, &c));
  CHECK_STR_CONTAINS(c.linsol, "spgmr");
  CHECK_STR_CONTAINS(c.prec, "model");
  CHECK_STR_CONTAINS(c.reason, "costly");
  /* no preconditioner of its own, or an engine that cannot use it: KLU */
  CHECK_OK(ctx, sk__linsol_auto(ctx, P.n, P.colptr, P.rowind, "cvode-bdf", 0, 1, &c));
  CHECK_STR_CONTAINS(c.linsol, "klu");
  CHECK_STR_CONTAINS(c.reason, "no preconditioner of its own");
  CHECK_OK(ctx, sk__linsol_auto(ctx, P.n, P.colptr, P.rowind, "ida-bdf", 1, 0, &c));
  CHECK_STR_CONTAINS(c.linsol, "klu");
  CHECK_STR_CONTAINS(c.reason, "ida-bdf has no preconditioner");
  tridiagonal(&P, 500);
  CHECK_OK(ctx, sk__linsol_auto(ctx, P.n, P.colptr, P.rowind, "cvode-bdf", 1, 1, &c));
  CHECK_STR_CONTAINS(c.linsol, "klu");
  CHECK_STR_CONTAINS(c.reason, "cheap");
  /* without a pattern */
  CHECK_OK(ctx, sk__linsol_auto(ctx, 2000, NULL, NULL, "cvode-bdf", 0, 1, &c));
  CHECK_STR_CONTAINS(c.linsol, "dense");
  CHECK_OK(ctx, sk__linsol_auto(ctx, 2001, NULL, NULL, "cvode-bdf", 0, 1, &c));
  CHECK_STR_CONTAINS(c.linsol, "spgmr");
  CHECK_OK(ctx, sk__linsol_auto(ctx, 10, NULL, NULL, "cvode-bdf", 1, 1, &c));
  CHECK_STR_CONTAINS(c.prec, "model");
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

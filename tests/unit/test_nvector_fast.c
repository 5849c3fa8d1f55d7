/* tests/unit/test_nvector_fast.c: the project's N_Vector kernels against SUNDIALS' own serial ones, bit for bit, at every size and thread count */
#include <nvector/nvector_serial.h>

#include "backends/sundials_backend.h"
#include "core/threads.h"
#include "test.h"

/* The contract of src/backends/nvector_fast.c: every kernel gives bitwise
 * the result of SUNDIALS' packaged serial kernel (or, for the fused
 * operations that the packaged vector leaves disabled, of the generic
 * fallback in sundials_nvector.c), for any thread count. The reference is
 * SUNDIALS' own N_Vector serial implementation (independent code), run on
 * the same data; every element and every reduction is compared with memcmp.
 * Sizes: tiny (1, 3), odd mid-size, and above the threading threshold
 * (SK__THREAD_MIN_WORK) so that 2 threads really split the loops. */

enum { NV = 6 };

static void fill(N_Vector v, long n, unsigned seed)
{
  sk_sunreal *d = N_VGetArrayPointer(v);
  unsigned x = seed;
  for (long i = 0; i < n; i++) {
    x = x * 1103515245u + 12345u;
    d[i] = ((double)(x >> 8) / 16777216.0 - 0.5) * 10.0;
  }
}

static long g_n;

static int same(N_Vector a, N_Vector b)
{
  return memcmp(N_VGetArrayPointer(a), N_VGetArrayPointer(b), (size_t)g_n * sizeof(sk_sunreal)) ==
         0;
}

static int same_real(sk_sunreal a, sk_sunreal b)
{
  return memcmp(&a, &b, sizeof a) == 0;
}

/* op(ref...) and op(fast...), then the output vector compared */
#define BOTH(out, call_r, call_f)                           \
  do {                                                      \
    call_r;                                                 \
    call_f;                                                 \
    if (!same(r[out], f[out])) {                            \
      fprintf(stderr, "n=%ld: %s differs\n", g_n, #call_r); \
      sk_test_failures++;                                   \
    }                                                       \
  } while (0)

#define BOTH_REAL(expr_r, expr_f)                                           \
  do {                                                                      \
    const sk_sunreal a_ = (expr_r), b_ = (expr_f);                          \
    if (!same_real(a_, b_)) {                                               \
      fprintf(stderr, "n=%ld: %s: %.17g vs %.17g\n", g_n, #expr_r, a_, b_); \
      sk_test_failures++;                                                   \
    }                                                                       \
  } while (0)

static void battery(SUNContext sctx, long n)
{
  g_n = n;
  N_Vector r[NV], f[NV];
  for (int k = 0; k < NV; k++) {
    r[k] = N_VNew_Serial(n, sctx);
    f[k] = N_VNew_Serial(n, sctx);
    sk__nvector_use_fast_ops(f[k]);
    fill(r[k], n, 17u + (unsigned)k);
    fill(f[k], n, 17u + (unsigned)k);
  }
  /* every special case of N_VLinearSum_Serial */
  const double ab[][2] = {{0.3, -1.7}, {1.0, 1.0},  {1.0, -1.0}, {-1.0, 1.0},
                          {1.0, 0.4},  {0.4, 1.0},  {-1.0, 0.4}, {0.4, -1.0},
                          {0.7, 0.7},  {0.7, -0.7}, {0.0, 0.0},  {-1.0, -1.0}};
  for (size_t k = 0; k < sizeof ab / sizeof ab[0]; k++) {
    BOTH(4, N_VLinearSum(ab[k][0], r[0], ab[k][1], r[1], r[4]),
         N_VLinearSum(ab[k][0], f[0], ab[k][1], f[1], f[4]));
    BOTH(1, N_VLinearSum(ab[k][0], r[0], ab[k][1], r[1], r[1]), /* z == y */
         N_VLinearSum(ab[k][0], f[0], ab[k][1], f[1], f[1]));
    BOTH(0, N_VLinearSum(ab[k][0], r[0], ab[k][1], r[2], r[0]), /* z == x */
         N_VLinearSum(ab[k][0], f[0], ab[k][1], f[2], f[0]));
  }
  BOTH(4, N_VScale(2.5, r[1], r[4]), N_VScale(2.5, f[1], f[4]));
  BOTH(4, N_VScale(-1.0, r[1], r[4]), N_VScale(-1.0, f[1], f[4]));
  BOTH(4, N_VScale(0.3, r[4], r[4]), N_VScale(0.3, f[4], f[4]));
  BOTH(4, N_VProd(r[0], r[1], r[4]), N_VProd(f[0], f[1], f[4]));
  BOTH(4, N_VDiv(r[0], r[1], r[4]), N_VDiv(f[0], f[1], f[4]));
  BOTH(4, N_VAbs(r[0], r[4]), N_VAbs(f[0], f[4]));
  BOTH(4, N_VAddConst(r[0], 0.75, r[4]), N_VAddConst(f[0], 0.75, f[4]));
  BOTH(4, N_VInv(r[1], r[4]), N_VInv(f[1], f[4]));

  /* fused: SUNDIALS' fallback (fused ops disabled on r) against ours */
  sk_sunreal c[5] = {0.5, -1.25, 3.0, 0.125, 1.0};
  BOTH(5, N_VLinearCombination(5, c, r, r[5]), N_VLinearCombination(5, c, f, f[5]));
  BOTH(5, N_VLinearCombination(2, c, r, r[5]), N_VLinearCombination(2, c, f, f[5]));
  BOTH(5, N_VLinearCombination(1, c, r, r[5]), N_VLinearCombination(1, c, f, f[5]));
  BOTH(1, N_VLinearCombination(3, c, r + 1, r[1]), /* z aliases X[0] */
       N_VLinearCombination(3, c, f + 1, f[1]));
  N_Vector ra[3] = {r[2], r[5], r[3]}, fa[3] = {f[2], f[5], f[3]};
  BOTH(5, N_VLinearCombination(3, c, ra, r[5]), /* z aliases a later X[i] */
       N_VLinearCombination(3, c, fa, f[5]));
  N_Vector rz[2] = {r[2], r[3]}, fz[2] = {f[2], f[3]};
  BOTH(2, N_VScaleAddMulti(2, c, r[0], rz, rz), N_VScaleAddMulti(2, c, f[0], fz, fz));
  CHECK(same(r[3], f[3]));

  /* reductions: bitwise */
  BOTH_REAL(N_VDotProd(r[0], r[1]), N_VDotProd(f[0], f[1]));
  BOTH_REAL(N_VWrmsNorm(r[0], r[1]), N_VWrmsNorm(f[0], f[1]));
  BOTH_REAL(N_VWL2Norm(r[0], r[1]), N_VWL2Norm(f[0], f[1]));
  BOTH_REAL(N_VL1Norm(r[0]), N_VL1Norm(f[0]));
  BOTH_REAL(N_VMaxNorm(r[0]), N_VMaxNorm(f[0]));
  BOTH_REAL(N_VMin(r[0]), N_VMin(f[0]));
  sk_sunreal dr[2], df[2];
  N_VDotProdMulti(2, r[0], rz, dr);
  N_VDotProdMulti(2, f[0], fz, df);
  BOTH_REAL(dr[0], df[0]);
  BOTH_REAL(dr[1], df[1]);
  BOTH(4, N_VConst(1.5, r[4]), N_VConst(1.5, f[4]));

  /* clones inherit the fast table */
  N_Vector clone = N_VClone(f[0]);
  CHECK(clone->ops->nvdotprod == f[0]->ops->nvdotprod);
  CHECK(clone->ops->nvdotprod != r[0]->ops->nvdotprod);
  N_VDestroy(clone);
  for (int k = 0; k < NV; k++) {
    N_VDestroy(r[k]);
    N_VDestroy(f[k]);
  }
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  SUNContext sctx = NULL;
  CHECK(SK_SUNCONTEXT_CREATE(&sctx) == 0);
  const long sizes[] = {1, 3, 10007, 3 * SK__THREAD_MIN_WORK + 7};
  const int threads = sk__threads_openmp() ? 2 : 1;
  for (int nt = 1; nt <= threads; nt++) {
    CHECK_OK(ctx, sk__threads_set(ctx, nt));
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
      battery(sctx, sizes[k]);
    }
  }
  SUNContext_Free(&sctx);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

/* tests/unit/test_nvector_fast.c: the project's N_Vector kernels against SUNDIALS' own serial ones (bitwise / to round-off) */
#include <nvector/nvector_serial.h>

#include "backends/sundials_backend.h"
#include "test.h"

/* Element-wise kernels and the fused operations must reproduce SUNDIALS'
 * results bit for bit (same operations per element); reductions may differ
 * only by summation order: relative difference below n * eps. The reference
 * is SUNDIALS' own N_Vector serial implementation (independent code). */

#define N 10007 /* odd, not a multiple of any vector width */

static void fill(N_Vector v, unsigned seed)
{
  sk_sunreal *d = N_VGetArrayPointer(v);
  unsigned x = seed;
  for (int i = 0; i < N; i++) {
    x = x * 1103515245u + 12345u;
    d[i] = ((double)(x >> 8) / 16777216.0 - 0.5) * 10.0;
  }
}

static int bitwise_equal(N_Vector a, N_Vector b)
{
  return memcmp(N_VGetArrayPointer(a), N_VGetArrayPointer(b), N * sizeof(sk_sunreal)) == 0;
}

int main(void)
{
  SUNContext sctx = NULL;
  CHECK(SK_SUNCONTEXT_CREATE(&sctx) == 0);
  N_Vector ref[5], fast[5];
  for (int k = 0; k < 5; k++) {
    ref[k] = N_VNew_Serial(N, sctx);
    fast[k] = N_VNew_Serial(N, sctx);
    sk__nvector_use_fast_ops(fast[k]);
    fill(ref[k], 17u + (unsigned)k);
    fill(fast[k], 17u + (unsigned)k);
  }
  /* clones inherit the fast table */
  N_Vector clone = N_VClone(fast[0]);
  CHECK(clone->ops->nvdotprod == fast[0]->ops->nvdotprod);
  CHECK(clone->ops->nvdotprod != ref[0]->ops->nvdotprod);

  N_VLinearSum(0.3, ref[0], -1.7, ref[1], ref[4]);
  N_VLinearSum(0.3, fast[0], -1.7, fast[1], fast[4]);
  CHECK(bitwise_equal(ref[4], fast[4]));
  N_VScale(2.5, ref[1], ref[4]);
  N_VScale(2.5, fast[1], fast[4]);
  CHECK(bitwise_equal(ref[4], fast[4]));
  N_VProd(ref[0], ref[1], ref[4]);
  N_VProd(fast[0], fast[1], fast[4]);
  CHECK(bitwise_equal(ref[4], fast[4]));
  N_VDiv(ref[0], ref[1], ref[4]);
  N_VDiv(fast[0], fast[1], fast[4]);
  CHECK(bitwise_equal(ref[4], fast[4]));
  N_VAbs(ref[0], ref[4]);
  N_VAbs(fast[0], fast[4]);
  CHECK(bitwise_equal(ref[4], fast[4]));
  N_VAddConst(ref[0], 0.75, ref[4]);
  N_VAddConst(fast[0], 0.75, fast[4]);
  CHECK(bitwise_equal(ref[4], fast[4]));
  N_VInv(ref[1], ref[4]);
  N_VInv(fast[1], fast[4]);
  CHECK(bitwise_equal(ref[4], fast[4]));

  /* fused: SUNDIALS' fallback (fused ops disabled on ref) against ours */
  sk_sunreal c[4] = {0.5, -1.25, 3.0, 0.125};
  N_VLinearCombination(4, c, ref, ref[4]);
  N_VLinearCombination(4, c, fast, fast[4]);
  CHECK(bitwise_equal(ref[4], fast[4]));
  N_VLinearCombination(3, c, ref + 1, ref[1]); /* z aliases X[0] */
  N_VLinearCombination(3, c, fast + 1, fast[1]);
  CHECK(bitwise_equal(ref[1], fast[1]));
  N_Vector rz[2] = {ref[2], ref[3]}, fz[2] = {fast[2], fast[3]};
  N_VScaleAddMulti(2, c, ref[0], rz, rz);
  N_VScaleAddMulti(2, c, fast[0], fz, fz);
  CHECK(bitwise_equal(ref[2], fast[2]) && bitwise_equal(ref[3], fast[3]));

  /* reductions: equal to round-off */
  const double tol = 1e-13;
  CHECK_NEAR(N_VDotProd(fast[0], fast[1]), N_VDotProd(ref[0], ref[1]), tol, 0);
  CHECK_NEAR(N_VWrmsNorm(fast[0], fast[1]), N_VWrmsNorm(ref[0], ref[1]), tol, 0);
  CHECK_NEAR(N_VWL2Norm(fast[0], fast[1]), N_VWL2Norm(ref[0], ref[1]), tol, 0);
  CHECK_NEAR(N_VL1Norm(fast[0]), N_VL1Norm(ref[0]), tol, 0);
  CHECK(N_VMaxNorm(fast[0]) == N_VMaxNorm(ref[0]));
  CHECK(N_VMin(fast[0]) == N_VMin(ref[0]));
  sk_sunreal dr[2], df[2];
  N_VDotProdMulti(2, ref[0], rz, dr);
  N_VDotProdMulti(2, fast[0], fz, df);
  CHECK_NEAR(df[0], dr[0], tol, 0);
  CHECK_NEAR(df[1], dr[1], tol, 0);
  N_VConst(1.5, fast[4]);
  CHECK(N_VGetArrayPointer(fast[4])[N - 1] == 1.5 && N_VGetArrayPointer(fast[4])[0] == 1.5);

  N_VDestroy(clone);
  for (int k = 0; k < 5; k++) {
    N_VDestroy(ref[k]);
    N_VDestroy(fast[k]);
  }
  SUNContext_Free(&sctx);
  TEST_RETURN();
}

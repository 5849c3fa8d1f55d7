/* tests/unit/test_nvector_fused.c: the one-pass fused and vector-array N_Vector operations against SUNDIALS' fallback composition, bit for bit, with aliasing, many vectors and 1 and 2 threads */
#include <nvector/nvector_serial.h>

#include "backends/sundials_backend.h"
#include "core/threads.h"
#include "test.h"

/* The reference is what a direct CVODE run with Debian's packaged serial
 * vector computes: its fused and vector-array entries are NULL, so
 * sundials_nvector.c composes each operation from N_VScale, N_VLinearSum,
 * N_VConst, N_VDotProd and N_VWrmsNorm(Mask) calls, one per vector. The
 * vectors `f` carry stiffkit's table (src/backends/nvector_fast.c), whose
 * fused entries make one pass over the elements. Both sets hold the same
 * pseudo-random data; every output element and every reduction is compared
 * with memcmp. Cases: every N_VLinearSum special case of the coefficients,
 * outputs that alias inputs (Z_i == x, z == X[0], z == a later X[i], Z_i ==
 * a later Y_j), 1 to 20 vectors (above the kernels' 16-vector blocks), and
 * sizes on both sides of the threading threshold. */

enum { NV = 24 };

static long g_n;

static void fill(N_Vector v, long n, unsigned seed)
{
  sk_sunreal *d = N_VGetArrayPointer(v);
  unsigned x = seed * 2654435761u + 1u;
  for (long i = 0; i < n; i++) {
    x = x * 1103515245u + 12345u;
    d[i] = ((double)(x >> 8) / 16777216.0 - 0.5) * 10.0;
  }
}

static int same(N_Vector a, N_Vector b)
{
  return memcmp(N_VGetArrayPointer(a), N_VGetArrayPointer(b), (size_t)g_n * sizeof(sk_sunreal)) ==
         0;
}

/* every vector of both sets equal (outputs and any aliased inputs) */
static void check_all(N_Vector *r, N_Vector *f, const char *what, int nv)
{
  for (int k = 0; k < nv; k++) {
    if (!same(r[k], f[k])) {
      fprintf(stderr, "n=%ld: %s: vector %d differs\n", g_n, what, k);
      sk_test_failures++;
      return;
    }
  }
}

static void check_reals(const sk_sunreal *a, const sk_sunreal *b, int m, const char *what)
{
  if (memcmp(a, b, (size_t)m * sizeof *a) != 0) {
    fprintf(stderr, "n=%ld: %s: reductions differ\n", g_n, what);
    sk_test_failures++;
  }
}

static void refill(N_Vector *r, N_Vector *f, long n)
{
  for (int k = 0; k < NV; k++) {
    fill(r[k], n, 31u + (unsigned)k);
    fill(f[k], n, 31u + (unsigned)k);
  }
}

/* the same index list over both sets */
static void pick(N_Vector *set, const int *idx, int m, N_Vector *out)
{
  for (int i = 0; i < m; i++) {
    out[i] = set[idx[i]];
  }
}

static void battery(SUNContext sctx, long n)
{
  g_n = n;
  N_Vector r[NV], f[NV];
  for (int k = 0; k < NV; k++) {
    r[k] = N_VNew_Serial(n, sctx);
    f[k] = N_VNew_Serial(n, sctx);
    sk__nvector_use_fast_ops(f[k]);
  }
  CHECK(r[0]->ops->nvscaleaddmulti == NULL && f[0]->ops->nvscaleaddmulti != NULL);
  sk_sunreal c[NV];
  for (int k = 0; k < NV; k++) {
    c[k] = 0.37 * (k + 1) - 2.0 + (k % 3 == 0 ? 1.0 / 3.0 : 0.0);
  }
  c[2] = 1.0;
  c[3] = -1.0;
  N_Vector ra[NV], fa[NV], rb[NV], fb[NV], rc[NV], fc[NV];
  int idx[NV], idy[NV], idz[NV];

  for (int m = 1; m <= 20; m += (m < 4 ? 1 : 7)) {
    /* N_VScaleAddMulti: Z_i = c_i x + Y_i, distinct outputs, in place, and Z_0 == x */
    for (int variant = 0; variant < 3; variant++) {
      refill(r, f, n);
      for (int i = 0; i < m; i++) {
        idy[i] = 1 + i;
        idz[i] = variant == 0 ? 1 + m + i % (NV - 1 - m) : variant == 1 ? 1 + i : (i ? 1 + i : 0);
      }
      pick(r, idy, m, ra), pick(f, idy, m, fa), pick(r, idz, m, rb), pick(f, idz, m, fb);
      N_VScaleAddMulti(m, c, r[0], ra, rb);
      N_VScaleAddMulti(m, c, f[0], fa, fb);
      check_all(r, f, "N_VScaleAddMulti", NV);
    }
    /* N_VDotProdMulti: one accumulator per vector, each in index order */
    refill(r, f, n);
    for (int i = 0; i < m; i++) {
      idy[i] = (i * 5) % NV;
    }
    pick(r, idy, m, ra), pick(f, idy, m, fa);
    sk_sunreal dr[NV], df[NV];
    N_VDotProdMulti(m, r[1], ra, dr);
    N_VDotProdMulti(m, f[1], fa, df);
    check_reals(dr, df, m, "N_VDotProdMulti");
    /* N_VLinearCombination: z separate, z == X[0], z == a later X[i] */
    for (int variant = 0; variant < 3; variant++) {
      refill(r, f, n);
      for (int i = 0; i < m; i++) {
        idx[i] = 1 + i;
      }
      const int z = variant == 0 ? 0 : variant == 1 ? idx[0] : idx[m - 1];
      pick(r, idx, m, ra), pick(f, idx, m, fa);
      N_VLinearCombination(m, c, ra, r[z]);
      N_VLinearCombination(m, c, fa, f[z]);
      check_all(r, f, "N_VLinearCombination", NV);
    }
    /* N_VLinearSumVectorArray over every special case of (a, b), also in place (Z = Y) */
    const double ab[][2] = {{0.3, -1.7}, {1.0, 1.0},  {1.0, -1.0}, {-1.0, 1.0}, {1.0, 0.4},
                            {0.4, 1.0},  {-1.0, 0.4}, {0.4, -1.0}, {0.7, 0.7},  {0.7, -0.7}};
    for (size_t k = 0; k < sizeof ab / sizeof ab[0]; k++) {
      for (int inplace = 0; inplace < 2; inplace++) {
        refill(r, f, n);
        const int mm = m < 7 ? m : 7;
        for (int i = 0; i < mm; i++) {
          idx[i] = i;
          idy[i] = 7 + i;
          idz[i] = inplace ? 7 + i : 14 + i;
        }
        pick(r, idx, mm, ra), pick(f, idx, mm, fa), pick(r, idy, mm, rb), pick(f, idy, mm, fb);
        pick(r, idz, mm, rc), pick(f, idz, mm, fc);
        N_VLinearSumVectorArray(mm, ab[k][0], ra, ab[k][1], rb, rc);
        N_VLinearSumVectorArray(mm, ab[k][0], fa, ab[k][1], fb, fc);
        check_all(r, f, "N_VLinearSumVectorArray", NV);
      }
    }
    /* N_VScaleVectorArray (c_i = +-1 and in place included), N_VConstVectorArray */
    refill(r, f, n);
    for (int i = 0; i < m; i++) {
      idx[i] = i;
      idz[i] = i % 2 ? i : (i + 3) % NV;
    }
    pick(r, idx, m, ra), pick(f, idx, m, fa), pick(r, idz, m, rb), pick(f, idz, m, fb);
    N_VScaleVectorArray(m, c, ra, rb);
    N_VScaleVectorArray(m, c, fa, fb);
    check_all(r, f, "N_VScaleVectorArray", NV);
    N_VConstVectorArray(m, -0.625, rb);
    N_VConstVectorArray(m, -0.625, fb);
    check_all(r, f, "N_VConstVectorArray", NV);
    /* N_VWrmsNormVectorArray, N_VWrmsNormMask and its vector array */
    refill(r, f, n);
    for (int i = 0; i < m; i++) {
      idx[i] = i;
      idy[i] = (i + 2) % NV;
    }
    pick(r, idx, m, ra), pick(f, idx, m, fa), pick(r, idy, m, rb), pick(f, idy, m, fb);
    N_VWrmsNormVectorArray(m, ra, rb, dr);
    N_VWrmsNormVectorArray(m, fa, fb, df);
    check_reals(dr, df, m, "N_VWrmsNormVectorArray");
    /* the mask: a vector of mixed signs (id > 0 selects) */
    N_VWrmsNormMaskVectorArray(m, ra, rb, r[NV - 1], dr);
    N_VWrmsNormMaskVectorArray(m, fa, fb, f[NV - 1], df);
    check_reals(dr, df, m, "N_VWrmsNormMaskVectorArray");
    dr[0] = N_VWrmsNormMask(r[0], r[1], r[NV - 1]);
    df[0] = N_VWrmsNormMask(f[0], f[1], f[NV - 1]);
    check_reals(dr, df, 1, "N_VWrmsNormMask");
    /* N_VScaleAddMultiVectorArray: nvec = 2 state vectors, nsum = m sums (Y, Z: [m][2]);
       also in place (Z = Y) */
    for (int inplace = 0; inplace < 2 && m <= 10; inplace++) {
      refill(r, f, n);
      N_Vector rY[NV][2], fY[NV][2], rZ[NV][2], fZ[NV][2];
      N_Vector *rYp[NV], *fYp[NV], *rZp[NV], *fZp[NV];
      for (int j = 0; j < m; j++) {
        for (int i = 0; i < 2; i++) {
          rY[j][i] = r[2 + 2 * j + i], fY[j][i] = f[2 + 2 * j + i];
          rZ[j][i] = inplace ? rY[j][i] : r[NV - 1 - (2 * j + i) % (NV - 23 + 1)];
          fZ[j][i] = inplace ? fY[j][i] : f[NV - 1 - (2 * j + i) % (NV - 23 + 1)];
        }
        rYp[j] = rY[j], fYp[j] = fY[j], rZp[j] = rZ[j], fZp[j] = fZ[j];
      }
      N_VScaleAddMultiVectorArray(2, m, c, r, rYp, rZp);
      N_VScaleAddMultiVectorArray(2, m, c, f, fYp, fZp);
      check_all(r, f, "N_VScaleAddMultiVectorArray", NV);
    }
    /* N_VLinearCombinationVectorArray: 2 outputs from m sums each (X: [m][2]) */
    if (m <= 11) {
      refill(r, f, n);
      N_Vector rX[NV][2], fX[NV][2];
      N_Vector *rXp[NV], *fXp[NV];
      for (int j = 0; j < m; j++) {
        for (int i = 0; i < 2; i++) {
          rX[j][i] = r[2 * j + i], fX[j][i] = f[2 * j + i];
        }
        rXp[j] = rX[j], fXp[j] = fX[j];
      }
      N_Vector rZ2[2] = {r[NV - 1], r[0]}, fZ2[2] = {f[NV - 1], f[0]}; /* Z_1 == X_0[0] */
      N_VLinearCombinationVectorArray(2, m, c, rXp, rZ2);
      N_VLinearCombinationVectorArray(2, m, c, fXp, fZ2);
      check_all(r, f, "N_VLinearCombinationVectorArray", NV);
    }
  }
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
  const long sizes[] = {1, 5, 1001, 2 * SK__THREAD_MIN_WORK + 3};
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

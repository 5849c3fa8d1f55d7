/* src/backends/nvector_fast.c: optimized N_Vector kernels (serial vectors, and the local part of others) that give bitwise the results of SUNDIALS' packaged serial kernels */
#include <math.h>

#include "backends/sundials_backend.h"
#include "core/threads.h"

/* Why these exist: Debian's SUNDIALS 6.4.1 libraries are built without
 * optimisation (N_VDotProd ~3.4 ns per element, N_VLinearSum ~1.9 ns; the
 * same loops compiled here take ~0.9 and ~0.4 ns: benchmarks/README.md).
 *
 * The contract: every kernel performs, element by element, the floating-
 * point operations of the packaged kernel of SUNDIALS 6.4.1
 * (src/nvector/serial/nvector_serial.c, and the fallbacks of
 * src/sundials/sundials_nvector.c for the fused operations, which the
 * packaged serial vector leaves disabled), in the same order. Results are
 * therefore bitwise those of a direct SUNDIALS run with packaged vectors,
 * and independent of the thread count:
 *  - element-wise kernels split the elements among threads (each element's
 *    value does not depend on who computes it), only for loops of at least
 *    SK__THREAD_MIN_WORK elements: smaller ones never enter OpenMP;
 *  - sums (dot product, weighted square sum, L1 norm) run sequentially in
 *    index order, as the packaged loops do: a split sum would round
 *    differently, and the sequential one at -O2 is already memory-bound
 *    near 10^6 elements;
 *  - max and min are exact in any order; max is threaded, min sequential
 *    (its NaN behaviour depends on the order).
 * Compiled with the project's flags (-std=c11: no FP contraction into FMA,
 * no reassociation), so the compiler may not reorder the sums.
 *
 * One kernel body serves serial vectors and the local part of any other
 * vector that gives its local length and data (NVECTOR_PARALLEL: the
 * distributed runs' parallel/dist_nvector.c adds the global reductions, the
 * local kernel plus one MPI_Allreduce, as NVECTOR_PARALLEL's own are). */

/* Length and data of the (local part of the) vector: a serial vector's read
 * from the content as the packaged kernels do; another kind's through its
 * operation table (once per kernel call). */
static inline int nv_is_serial(N_Vector v)
{
  return v->ops->nvgetvectorid == N_VGetVectorID_Serial;
}

static inline sunindextype nv_len(N_Vector v)
{
  return nv_is_serial(v) ? NV_LENGTH_S(v) : v->ops->nvgetlocallength(v);
}

static inline sk_sunreal *nv_data(N_Vector v)
{
  return nv_is_serial(v) ? NV_DATA_S(v) : v->ops->nvgetarraypointer(v);
}

#define SK__LEN(v) nv_len(v)
#define SK__DATA(v) nv_data(v)

/* worth splitting among threads (the size test first: no call for short loops) */
#define SK__PAR(n) ((n) >= SK__THREAD_MIN_WORK && sk__threaded(n))

/* SK__EACH(n, i, stmt): stmt for i in [0, n), split among threads only
 * when the loop is long enough to pay for waking them. */
#ifdef SK_HAVE_OPENMP
#define SK__EACH(n, i, stmt)                                                                   \
  do {                                                                                         \
    if (SK__PAR(n)) {                                                                          \
      _Pragma("omp parallel for simd schedule(static)") for (sunindextype i = 0; i < (n); i++) \
      {                                                                                        \
        stmt;                                                                                  \
      }                                                                                        \
    } else {                                                                                   \
      for (sunindextype i = 0; i < (n); i++) {                                                 \
        stmt;                                                                                  \
      }                                                                                        \
    }                                                                                          \
  } while (0)
#else
#define SK__EACH(n, i, stmt)                 \
  do {                                       \
    for (sunindextype i = 0; i < (n); i++) { \
      stmt;                                  \
    }                                        \
  } while (0)
#endif

/* N_VLinearSum_Serial computes a == b (not +-1) as a (x + y) and a == -b
 * as a (x - y); every other case rounds as a x + b y (a factor +-1 is exact). */
static void fast_linearsum(sk_sunreal a, N_Vector x, sk_sunreal b, N_Vector y, N_Vector z)
{
  const sunindextype n = SK__LEN(x);
  const sk_sunreal *xd = SK__DATA(x);
  const sk_sunreal *yd = SK__DATA(y);
  sk_sunreal *zd = SK__DATA(z);
  const int unit = a == 1.0 || a == -1.0 || b == 1.0 || b == -1.0;
  if (!unit && a == b) {
    SK__EACH(n, i, zd[i] = a * (xd[i] + yd[i]));
  } else if (!unit && a == -b) {
    SK__EACH(n, i, zd[i] = a * (xd[i] - yd[i]));
  } else {
    SK__EACH(n, i, zd[i] = a * xd[i] + b * yd[i]);
  }
}

static void fast_const(sk_sunreal c, N_Vector z)
{
  const sunindextype n = SK__LEN(z);
  sk_sunreal *zd = SK__DATA(z);
  SK__EACH(n, i, zd[i] = c);
}

static void fast_prod(N_Vector x, N_Vector y, N_Vector z)
{
  const sunindextype n = SK__LEN(x);
  const sk_sunreal *xd = SK__DATA(x);
  const sk_sunreal *yd = SK__DATA(y);
  sk_sunreal *zd = SK__DATA(z);
  SK__EACH(n, i, zd[i] = xd[i] * yd[i]);
}

static void fast_div(N_Vector x, N_Vector y, N_Vector z)
{
  const sunindextype n = SK__LEN(x);
  const sk_sunreal *xd = SK__DATA(x);
  const sk_sunreal *yd = SK__DATA(y);
  sk_sunreal *zd = SK__DATA(z);
  SK__EACH(n, i, zd[i] = xd[i] / yd[i]);
}

static void fast_scale(sk_sunreal c, N_Vector x, N_Vector z)
{
  const sunindextype n = SK__LEN(x);
  const sk_sunreal *xd = SK__DATA(x);
  sk_sunreal *zd = SK__DATA(z);
  SK__EACH(n, i, zd[i] = c * xd[i]);
}

static void fast_abs(N_Vector x, N_Vector z)
{
  const sunindextype n = SK__LEN(x);
  const sk_sunreal *xd = SK__DATA(x);
  sk_sunreal *zd = SK__DATA(z);
  SK__EACH(n, i, zd[i] = fabs(xd[i]));
}

static void fast_inv(N_Vector x, N_Vector z)
{
  const sunindextype n = SK__LEN(x);
  const sk_sunreal *xd = SK__DATA(x);
  sk_sunreal *zd = SK__DATA(z);
  SK__EACH(n, i, zd[i] = 1.0 / xd[i]);
}

static void fast_addconst(N_Vector x, sk_sunreal b, N_Vector z)
{
  const sunindextype n = SK__LEN(x);
  const sk_sunreal *xd = SK__DATA(x);
  sk_sunreal *zd = SK__DATA(z);
  SK__EACH(n, i, zd[i] = xd[i] + b);
}

/* ---- reductions: the packaged loops, in index order -------------------- */

static sk_sunreal fast_dotprod(N_Vector x, N_Vector y)
{
  const sunindextype n = SK__LEN(x);
  const sk_sunreal *xd = SK__DATA(x);
  const sk_sunreal *yd = SK__DATA(y);
  sk_sunreal sum = 0.0;
  for (sunindextype i = 0; i < n; i++) {
    sum += xd[i] * yd[i];
  }
  return sum;
}

static sk_sunreal fast_wsqrsum(N_Vector x, N_Vector w)
{
  const sunindextype n = SK__LEN(x);
  const sk_sunreal *xd = SK__DATA(x);
  const sk_sunreal *wd = SK__DATA(w);
  sk_sunreal sum = 0.0;
  for (sunindextype i = 0; i < n; i++) {
    const sk_sunreal p = xd[i] * wd[i];
    sum += p * p;
  }
  return sum;
}

static sk_sunreal fast_l1norm(N_Vector x)
{
  const sunindextype n = SK__LEN(x);
  const sk_sunreal *xd = SK__DATA(x);
  sk_sunreal sum = 0.0;
  for (sunindextype i = 0; i < n; i++) {
    sum += fabs(xd[i]);
  }
  return sum;
}

/* max |x_i|, starting from 0 as N_VMaxNorm_Serial (NaNs never win) */
static sk_sunreal fast_maxnorm(N_Vector x)
{
  const sunindextype n = SK__LEN(x);
  const sk_sunreal *xd = SK__DATA(x);
  sk_sunreal m = 0.0;
  if (SK__PAR(n)) {
    SK__OMP(parallel for simd schedule(static) reduction(max : m))
    for (sunindextype i = 0; i < n; i++) {
      const sk_sunreal a = fabs(xd[i]);
      m = a > m ? a : m;
    }
    return m;
  }
  for (sunindextype i = 0; i < n; i++) {
    const sk_sunreal a = fabs(xd[i]);
    m = a > m ? a : m;
  }
  return m;
}

/* the packaged N_VMin_Serial: x_0, then every smaller value in order (an
 * empty local part of a parallel vector is neutral) */
static sk_sunreal fast_min(N_Vector x)
{
  const sunindextype n = SK__LEN(x);
  const sk_sunreal *xd = SK__DATA(x);
  sk_sunreal m = n > 0 ? xd[0] : HUGE_VAL;
  for (sunindextype i = 1; i < n; i++) {
    m = xd[i] < m ? xd[i] : m;
  }
  return m;
}

static sk_sunreal fast_wrmsnorm(N_Vector x, N_Vector w)
{
  return sqrt(fast_wsqrsum(x, w) / (sk_sunreal)SK__LEN(x));
}

static sk_sunreal fast_wl2norm(N_Vector x, N_Vector w)
{
  return sqrt(fast_wsqrsum(x, w));
}

/* ---- fused operations: one pass, the fallback's rounding ---------------- */

/* The fallback of N_VLinearCombination literally: one pass per vector. */
static int combine_pass_by_pass(int nvec, const sk_sunreal *c, N_Vector *X, N_Vector z)
{
  const sunindextype n = SK__LEN(z);
  sk_sunreal *zd = SK__DATA(z);
  const sk_sunreal *x0 = SK__DATA(X[0]);
  const sk_sunreal c0 = c[0];
  SK__EACH(n, j, zd[j] = c0 * x0[j]);
  for (int i = 1; i < nvec; i++) {
    const sk_sunreal *xi = SK__DATA(X[i]);
    const sk_sunreal ci = c[i];
    SK__EACH(n, j, zd[j] = ci * xi[j] + zd[j]);
  }
  return 0;
}

/* N_VLinearCombination's fallback: z = c0 x0, then z = c_i x_i + z for
 * i = 1, 2, ... (N_VLinearSum with b = 1 and z == y is an axpy). Done per
 * element in one pass when no later x_i is z itself; else pass by pass,
 * so an aliased x_i reads the partial sum as the fallback does. */
static int fast_linearcombination(int nvec, sk_sunreal *c, N_Vector *X, N_Vector z)
{
  if (nvec < 1) {
    return -1;
  }
  const sunindextype n = SK__LEN(z);
  sk_sunreal *zd = SK__DATA(z);
  const sk_sunreal *x0 = SK__DATA(X[0]);
  const sk_sunreal c0 = c[0];
  int aliased = 0;
  for (int i = 1; i < nvec; i++) {
    aliased |= SK__DATA(X[i]) == zd;
  }
  if (nvec == 1 || aliased) {
    return combine_pass_by_pass(nvec, c, X, z);
  }
  if (nvec == 2) {
    const sk_sunreal *x1 = SK__DATA(X[1]);
    const sk_sunreal c1 = c[1];
    SK__EACH(n, j, zd[j] = c1 * x1[j] + c0 * x0[j]);
    return 0;
  }
  enum { MAXV = 16 }; /* CVODE combines at most q_max + 2 = 14 vectors */
  if (nvec > MAXV) {
    return combine_pass_by_pass(nvec, c, X, z);
  }
  const sk_sunreal *xs[MAXV];
  for (int i = 0; i < nvec; i++) {
    xs[i] = SK__DATA(X[i]);
  }
  SK__EACH(n, j, {
    sk_sunreal acc = c0 * x0[j];
    for (int i = 1; i < nvec; i++) {
      acc = c[i] * xs[i][j] + acc;
    }
    zd[j] = acc;
  });
  return 0;
}

/* N_VLinearCombination's fallback on the vectors X[k][i], k = 0 .. nsum-1 */
static void combine_pass_by_pass_array(int nsum, const sk_sunreal *c, N_Vector **X, int i,
                                       N_Vector z)
{
  fast_scale(c[0], X[0][i], z);
  for (int k = 1; k < nsum; k++) {
    fast_linearsum(c[k], X[k][i], 1.0, z, z);
  }
}

/* ---- fused and vector-array operations in one pass ---------------------
 *
 * The packaged serial vector leaves these NULL, so a direct CVODE run takes
 * the fallbacks of sundials_nvector.c: one N_VLinearSum / N_VScale / N_VConst
 * / N_VDotProd / N_VWrmsNorm call per vector. Each element-wise fallback
 * computes element j of its outputs from element j of its inputs alone, so
 * doing, for each j, the calls' operations on element j in the calls' order
 * (reading every operand from memory, where an earlier call may have written
 * it) is the same sequence of floating-point operations on the same values:
 * bitwise the fallback, also when outputs alias inputs, and with the
 * elements split among threads. The reductions keep one accumulator per
 * vector, summed in index order as N_VDotProd / N_VWSqrSumLocal do, so each
 * sum is the packaged one; only the loop over the elements is shared.
 * Compiled without FP contraction (-std=c11 implies -ffp-contract=off in
 * gcc; CMake adds -ffp-contract=off explicitly), so a * x + y stays a
 * rounded product and a rounded sum. */

/* linear-sum cases of N_VLinearSum_Serial, chosen once for all vectors */
enum { LS_SUM_SCALED = 0, LS_DIFF_SCALED, LS_GENERAL };

static int linearsum_case(sk_sunreal a, sk_sunreal b)
{
  const int unit = a == 1.0 || a == -1.0 || b == 1.0 || b == -1.0;
  return !unit && a == b ? LS_SUM_SCALED : !unit && a == -b ? LS_DIFF_SCALED : LS_GENERAL;
}

/* N_VScaleAddMulti's fallback: N_VLinearSum(a_i, x, 1, Y_i, Z_i) for i =
 * 0, 1, ...; with b = 1 every case of N_VLinearSum_Serial rounds as
 * a_i x + Y_i. One pass: x is read once per element (re-read after each
 * store, so a Z_i that is x changes x for the later ones, as there). */
static int fast_scaleaddmulti(int nvec, sk_sunreal *a, N_Vector x, N_Vector *Y, N_Vector *Z)
{
  enum { MAXV = 16 };
  const sunindextype n = SK__LEN(x);
  sk_sunreal *xd = SK__DATA(x);
  for (int i0 = 0; i0 < nvec; i0 += MAXV) {
    const int m = nvec - i0 < MAXV ? nvec - i0 : MAXV;
    const sk_sunreal *ys[MAXV];
    sk_sunreal *zs[MAXV];
    for (int i = 0; i < m; i++) {
      ys[i] = SK__DATA(Y[i0 + i]);
      zs[i] = SK__DATA(Z[i0 + i]);
    }
    const sk_sunreal *ai = a + i0;
    SK__EACH(n, j, {
      for (int i = 0; i < m; i++) {
        zs[i][j] = ai[i] * xd[j] + ys[i][j];
      }
    });
  }
  return 0;
}

/* N_VDotProdMulti's fallback: d_i = N_VDotProd(x, Y_i), each summed in
 * index order; one pass over x with one accumulator per Y_i. */
static void dotprods_local(int nvec, N_Vector x, N_Vector *Y, sk_sunreal *d)
{
  enum { MAXV = 16 };
  const sunindextype n = SK__LEN(x);
  const sk_sunreal *xd = SK__DATA(x);
  for (int i0 = 0; i0 < nvec; i0 += MAXV) {
    const int m = nvec - i0 < MAXV ? nvec - i0 : MAXV;
    const sk_sunreal *ys[MAXV];
    sk_sunreal sum[MAXV];
    for (int i = 0; i < m; i++) {
      ys[i] = SK__DATA(Y[i0 + i]);
      sum[i] = 0.0;
    }
    for (sunindextype j = 0; j < n; j++) {
      const sk_sunreal xj = xd[j];
      for (int i = 0; i < m; i++) {
        sum[i] += xj * ys[i][j];
      }
    }
    for (int i = 0; i < m; i++) {
      d[i0 + i] = sum[i];
    }
  }
}

static int fast_dotprodmulti(int nvec, N_Vector x, N_Vector *Y, sk_sunreal *d)
{
  dotprods_local(nvec, x, Y, d);
  return 0;
}

/* N_VLinearSumVectorArray's fallback: N_VLinearSum(a, X_i, b, Y_i, Z_i)
 * for each i (the same case of N_VLinearSum for all). */
static int fast_linearsumvectorarray(int nvec, sk_sunreal a, N_Vector *X, sk_sunreal b,
                                     N_Vector *Y, N_Vector *Z)
{
  enum { MAXV = 16 };
  const sunindextype n = SK__LEN(Z[0]);
  const int kind = linearsum_case(a, b);
  for (int i0 = 0; i0 < nvec; i0 += MAXV) {
    const int m = nvec - i0 < MAXV ? nvec - i0 : MAXV;
    const sk_sunreal *xs[MAXV], *ys[MAXV];
    sk_sunreal *zs[MAXV];
    for (int i = 0; i < m; i++) {
      xs[i] = SK__DATA(X[i0 + i]);
      ys[i] = SK__DATA(Y[i0 + i]);
      zs[i] = SK__DATA(Z[i0 + i]);
    }
    if (kind == LS_SUM_SCALED) {
      SK__EACH(n, j, {
        for (int i = 0; i < m; i++) {
          zs[i][j] = a * (xs[i][j] + ys[i][j]);
        }
      });
    } else if (kind == LS_DIFF_SCALED) {
      SK__EACH(n, j, {
        for (int i = 0; i < m; i++) {
          zs[i][j] = a * (xs[i][j] - ys[i][j]);
        }
      });
    } else {
      SK__EACH(n, j, {
        for (int i = 0; i < m; i++) {
          zs[i][j] = a * xs[i][j] + b * ys[i][j];
        }
      });
    }
  }
  return 0;
}

/* N_VScaleVectorArray's fallback: N_VScale(c_i, X_i, Z_i) (c x rounds as
 * the packaged copy, negation and scale-in-place do). */
static int fast_scalevectorarray(int nvec, sk_sunreal *c, N_Vector *X, N_Vector *Z)
{
  enum { MAXV = 16 };
  const sunindextype n = SK__LEN(Z[0]);
  for (int i0 = 0; i0 < nvec; i0 += MAXV) {
    const int m = nvec - i0 < MAXV ? nvec - i0 : MAXV;
    const sk_sunreal *xs[MAXV];
    sk_sunreal *zs[MAXV];
    for (int i = 0; i < m; i++) {
      xs[i] = SK__DATA(X[i0 + i]);
      zs[i] = SK__DATA(Z[i0 + i]);
    }
    const sk_sunreal *ci = c + i0;
    SK__EACH(n, j, {
      for (int i = 0; i < m; i++) {
        zs[i][j] = ci[i] * xs[i][j];
      }
    });
  }
  return 0;
}

static int fast_constvectorarray(int nvec, sk_sunreal c, N_Vector *Z)
{
  for (int i = 0; i < nvec; i++) { /* nothing to share: one store per element */
    fast_const(c, Z[i]);
  }
  return 0;
}

/* sum_j (x_j w_j)^2 of each pair, in index order, in one pass */
static void wsqrsums_local(int nvec, N_Vector *X, N_Vector *W, sk_sunreal *sum)
{
  enum { MAXV = 16 };
  const sunindextype n = SK__LEN(X[0]);
  for (int i0 = 0; i0 < nvec; i0 += MAXV) {
    const int m = nvec - i0 < MAXV ? nvec - i0 : MAXV;
    const sk_sunreal *xs[MAXV], *ws[MAXV];
    sk_sunreal acc[MAXV];
    for (int i = 0; i < m; i++) {
      xs[i] = SK__DATA(X[i0 + i]);
      ws[i] = SK__DATA(W[i0 + i]);
      acc[i] = 0.0;
    }
    for (sunindextype j = 0; j < n; j++) {
      for (int i = 0; i < m; i++) {
        const sk_sunreal p = xs[i][j] * ws[i][j];
        acc[i] += p * p;
      }
    }
    for (int i = 0; i < m; i++) {
      sum[i0 + i] = acc[i];
    }
  }
}

/* N_VWrmsNormVectorArray's fallback: N_VWrmsNorm(X_i, W_i) for each i */
static int fast_wrmsnormvectorarray(int nvec, N_Vector *X, N_Vector *W, sk_sunreal *nrm)
{
  wsqrsums_local(nvec, X, W, nrm);
  for (int i = 0; i < nvec; i++) {
    nrm[i] = sqrt(nrm[i] / (sk_sunreal)SK__LEN(X[0]));
  }
  return 0;
}

/* N_VWSqrSumMaskLocal_Serial: (x_j w_j)^2 where id_j > 0, in index order */
static sk_sunreal fast_wsqrsummask(N_Vector x, N_Vector w, N_Vector id)
{
  const sunindextype n = SK__LEN(x);
  const sk_sunreal *xd = SK__DATA(x), *wd = SK__DATA(w), *idd = SK__DATA(id);
  sk_sunreal sum = 0.0;
  for (sunindextype i = 0; i < n; i++) {
    if (idd[i] > 0.0) {
      const sk_sunreal p = xd[i] * wd[i];
      sum += p * p;
    }
  }
  return sum;
}

static sk_sunreal fast_wrmsnormmask(N_Vector x, N_Vector w, N_Vector id)
{
  return sqrt(fast_wsqrsummask(x, w, id) / (sk_sunreal)SK__LEN(x));
}

/* N_VWrmsNormMaskVectorArray's fallback: N_VWrmsNormMask(X_i, W_i, id) */
static int fast_wrmsnormmaskvectorarray(int nvec, N_Vector *X, N_Vector *W, N_Vector id,
                                        sk_sunreal *nrm)
{
  enum { MAXV = 16 };
  const sunindextype n = SK__LEN(X[0]);
  const sk_sunreal *idd = SK__DATA(id);
  for (int i0 = 0; i0 < nvec; i0 += MAXV) {
    const int m = nvec - i0 < MAXV ? nvec - i0 : MAXV;
    const sk_sunreal *xs[MAXV], *ws[MAXV];
    sk_sunreal acc[MAXV];
    for (int i = 0; i < m; i++) {
      xs[i] = SK__DATA(X[i0 + i]);
      ws[i] = SK__DATA(W[i0 + i]);
      acc[i] = 0.0;
    }
    for (sunindextype j = 0; j < n; j++) {
      if (idd[j] > 0.0) {
        for (int i = 0; i < m; i++) {
          const sk_sunreal p = xs[i][j] * ws[i][j];
          acc[i] += p * p;
        }
      }
    }
    for (int i = 0; i < m; i++) {
      nrm[i0 + i] = sqrt(acc[i] / (sk_sunreal)n);
    }
  }
  return 0;
}

/* N_VScaleAddMultiVectorArray's fallback (nvscaleaddmulti set: ours, per
 * X_i; the packaged run: N_VLinearSum(a_j, X_i, 1, Y_j[i], Z_j[i]) for i,
 * then j): per element, for each i then each j, a_j X_i + Y_j[i]. */
static int fast_scaleaddmultivectorarray(int nvec, int nsum, sk_sunreal *a, N_Vector *X,
                                         N_Vector **Y, N_Vector **Z)
{
  enum { MAXV = 16 };
  if (nsum > MAXV) {
    for (int i = 0; i < nvec; i++) {
      for (int k = 0; k < nsum; k++) {
        fast_linearsum(a[k], X[i], 1.0, Y[k][i], Z[k][i]);
      }
    }
    return 0;
  }
  const sunindextype n = SK__LEN(X[0]);
  for (int i = 0; i < nvec; i++) { /* the X_i are distinct: one pass each */
    sk_sunreal *xd = SK__DATA(X[i]);
    const sk_sunreal *ys[MAXV];
    sk_sunreal *zs[MAXV];
    for (int k = 0; k < nsum; k++) {
      ys[k] = SK__DATA(Y[k][i]);
      zs[k] = SK__DATA(Z[k][i]);
    }
    SK__EACH(n, j, {
      for (int k = 0; k < nsum; k++) {
        zs[k][j] = a[k] * xd[j] + ys[k][j];
      }
    });
  }
  return 0;
}

/* N_VLinearCombinationVectorArray's fallback (nvlinearcombination set):
 * N_VLinearCombination(nsum, c, (X_0[i], X_1[i], ...), Z_i) for each i */
static int fast_linearcombinationvectorarray(int nvec, int nsum, sk_sunreal *c, N_Vector **X,
                                             N_Vector *Z)
{
  enum { MAXV = 16 };
  N_Vector xs[MAXV];
  for (int i = 0; i < nvec; i++) {
    if (nsum > MAXV) {
      combine_pass_by_pass_array(nsum, c, X, i, Z[i]);
      continue;
    }
    for (int k = 0; k < nsum; k++) {
      xs[k] = X[k][i];
    }
    fast_linearcombination(nsum, c, xs, Z[i]);
  }
  return 0;
}

/* The kernels every supported vector kind shares: element-wise, fused and
 * local reductions. */
static void install_common(N_Vector_Ops ops)
{
  ops->nvlinearsum = fast_linearsum;
  ops->nvconst = fast_const;
  ops->nvprod = fast_prod;
  ops->nvdiv = fast_div;
  ops->nvscale = fast_scale;
  ops->nvabs = fast_abs;
  ops->nvinv = fast_inv;
  ops->nvaddconst = fast_addconst;
  ops->nvdotprodlocal = fast_dotprod;
  ops->nvmaxnormlocal = fast_maxnorm;
  ops->nvminlocal = fast_min;
  ops->nvl1normlocal = fast_l1norm;
  ops->nvwsqrsumlocal = fast_wsqrsum;
  ops->nvlinearcombination = fast_linearcombination;
  ops->nvscaleaddmulti = fast_scaleaddmulti;
  ops->nvlinearsumvectorarray = fast_linearsumvectorarray;
  ops->nvscalevectorarray = fast_scalevectorarray;
  ops->nvconstvectorarray = fast_constvectorarray;
  ops->nvscaleaddmultivectorarray = fast_scaleaddmultivectorarray;
  ops->nvlinearcombinationvectorarray = fast_linearcombinationvectorarray;
}

void sk__nvector_use_fast_ops(N_Vector v)
{
  const N_Vector_ID id = N_VGetVectorID(v);
  N_Vector_Ops ops = v->ops;
  if (id == SUNDIALS_NVEC_SERIAL) {
    install_common(ops);
    ops->nvdotprod = fast_dotprod;
    ops->nvmaxnorm = fast_maxnorm;
    ops->nvwrmsnorm = fast_wrmsnorm;
    ops->nvwl2norm = fast_wl2norm;
    ops->nvl1norm = fast_l1norm;
    ops->nvmin = fast_min;
    ops->nvdotprodmulti = fast_dotprodmulti;
    ops->nvwrmsnormvectorarray = fast_wrmsnormvectorarray;
    ops->nvwsqrsummasklocal = fast_wsqrsummask;
    ops->nvwrmsnormmask = fast_wrmsnormmask;
    ops->nvwrmsnormmaskvectorarray = fast_wrmsnormmaskvectorarray;
    return;
  }
}

void sk__nvector_use_fast_local_ops(N_Vector v)
{
  install_common(v->ops);
  v->ops->nvdotprodmultilocal = fast_dotprodmulti;
}

void sk__nvector_wsqrsums_local(int nvec, N_Vector *X, N_Vector *W, sk_sunreal *sum)
{
  wsqrsums_local(nvec, X, W, sum);
}

/* src/backends/nvector_fast.c: optimized N_Vector kernels (serial and MPI parallel vectors) that give bitwise the results of SUNDIALS' packaged serial kernels */
#include <math.h>

#include "backends/sundials_backend.h"
#include "core/threads.h"

#ifdef SK_HAVE_MPI
#include <mpi.h>
#include <nvector/nvector_parallel.h>
#endif

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
 * One kernel body serves serial vectors and, in an MPI build, the local
 * part of NVECTOR_PARALLEL vectors; global reductions are the local kernel
 * plus one MPI_Allreduce, as NVECTOR_PARALLEL's own are. */

/* Length and data of the (local part of the) vector, read from the content
 * as the packaged kernels do: no call through the operation table. */
static inline int nv_is_serial(N_Vector v)
{
  return v->ops->nvgetvectorid == N_VGetVectorID_Serial;
}

static inline sunindextype nv_len(N_Vector v)
{
#ifdef SK_HAVE_MPI
  if (!nv_is_serial(v)) {
    return NV_LOCLENGTH_P(v);
  }
#endif
  return NV_LENGTH_S(v);
}

static inline sk_sunreal *nv_data(N_Vector v)
{
#ifdef SK_HAVE_MPI
  if (!nv_is_serial(v)) {
    return NV_DATA_P(v);
  }
#endif
  return NV_DATA_S(v);
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

/* N_VScaleAddMulti's fallback: Z_i = a_i x + Y_i, vector by vector (a Z_i
 * that is x changes x for the later ones, as there) */
static int fast_scaleaddmulti(int nvec, sk_sunreal *a, N_Vector x, N_Vector *Y, N_Vector *Z)
{
  const sunindextype n = SK__LEN(x);
  const sk_sunreal *xd = SK__DATA(x);
  for (int i = 0; i < nvec; i++) {
    const sk_sunreal *yd = SK__DATA(Y[i]);
    sk_sunreal *zd = SK__DATA(Z[i]);
    const sk_sunreal ai = a[i];
    SK__EACH(n, j, zd[j] = ai * xd[j] + yd[j]);
  }
  return 0;
}

static int fast_dotprodmulti(int nvec, N_Vector x, N_Vector *Y, sk_sunreal *d)
{
  for (int i = 0; i < nvec; i++) {
    d[i] = fast_dotprod(x, Y[i]);
  }
  return 0;
}

#ifdef SK_HAVE_MPI
/* ---- NVECTOR_PARALLEL: global reductions = local kernel + MPI_Allreduce ---- */

_Static_assert(sizeof(sk_sunreal) == sizeof(double), "MPI reductions assume double precision");

static sk_sunreal allreduce(N_Vector v, sk_sunreal x, MPI_Op op)
{
  double r = x;
  MPI_Allreduce(MPI_IN_PLACE, &r, 1, MPI_DOUBLE, op, NV_COMM_P(v));
  return r;
}

static sk_sunreal par_dotprod(N_Vector x, N_Vector y)
{
  return allreduce(x, fast_dotprod(x, y), MPI_SUM);
}

static sk_sunreal par_maxnorm(N_Vector x)
{
  return allreduce(x, fast_maxnorm(x), MPI_MAX);
}

static sk_sunreal par_wrmsnorm(N_Vector x, N_Vector w)
{
  return sqrt(allreduce(x, fast_wsqrsum(x, w), MPI_SUM) / (sk_sunreal)NV_GLOBLENGTH_P(x));
}

static sk_sunreal par_wl2norm(N_Vector x, N_Vector w)
{
  return sqrt(allreduce(x, fast_wsqrsum(x, w), MPI_SUM));
}

static sk_sunreal par_l1norm(N_Vector x)
{
  return allreduce(x, fast_l1norm(x), MPI_SUM);
}

static sk_sunreal par_min(N_Vector x)
{
  return allreduce(x, fast_min(x), MPI_MIN);
}

static int par_dotprodmulti(int nvec, N_Vector x, N_Vector *Y, sk_sunreal *d)
{
  fast_dotprodmulti(nvec, x, Y, d);
  return MPI_Allreduce(MPI_IN_PLACE, d, nvec, MPI_DOUBLE, MPI_SUM, NV_COMM_P(x)) == MPI_SUCCESS
             ? 0
             : -1;
}
#endif

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
    return;
  }
#ifdef SK_HAVE_MPI
  if (id == SUNDIALS_NVEC_PARALLEL) {
    install_common(ops);
    ops->nvdotprod = par_dotprod;
    ops->nvmaxnorm = par_maxnorm;
    ops->nvwrmsnorm = par_wrmsnorm;
    ops->nvwl2norm = par_wl2norm;
    ops->nvl1norm = par_l1norm;
    ops->nvmin = par_min;
    ops->nvdotprodmulti = par_dotprodmulti;
    ops->nvdotprodmultilocal = fast_dotprodmulti;
  }
#endif
}

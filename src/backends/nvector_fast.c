/* src/backends/nvector_fast.c: vectorized, threaded N_Vector kernels (serial and MPI parallel vectors) that replace Debian's unoptimized ones */
#include <float.h>
#include <math.h>

#include "backends/sundials_backend.h"
#include "core/threads.h"

#ifdef SK_HAVE_MPI
#include <mpi.h>
#include <nvector/nvector_parallel.h>
#endif

/* Element-wise kernels give bitwise the same results as SUNDIALS' serial
 * ones (same operations per element), for any number of threads: a thread
 * owns a contiguous block of elements. Reductions use vectorized partial
 * sums (`omp simd reduction`), per block of a fixed split once the vector
 * is long enough (sk__threaded; ordered_sum), so they differ from the
 * sequential sum only in rounding order, results with 1 and 2 threads
 * differ the same way (within n eps sum |terms|), and a given thread count
 * gives the same bits on every run. Loops of fewer than SK__THREAD_MIN_WORK elements stay
 * on the calling thread.
 *
 * One kernel body serves serial vectors and, in an MPI build, the local
 * part of NVECTOR_PARALLEL vectors: data and length come from the
 * accessors below. For parallel vectors the global reductions are the
 * local kernel plus one MPI_Allreduce on the vector's communicator. */

/* Length of the local data of v (the whole vector when serial). */
static sunindextype nv_len(N_Vector v)
{
#ifdef SK_HAVE_MPI
  if (N_VGetVectorID(v) == SUNDIALS_NVEC_PARALLEL) {
    return NV_LOCLENGTH_P(v);
  }
#endif
  return NV_LENGTH_S(v);
}

#define SK__LEN(v) nv_len(v)
#define SK__DATA(v) N_VGetArrayPointer(v)

static void fast_linearsum(sk_sunreal a, N_Vector x, sk_sunreal b, N_Vector y, N_Vector z)
{
  const sunindextype n = SK__LEN(x);
  const sk_sunreal *xd = SK__DATA(x);
  const sk_sunreal *yd = SK__DATA(y);
  sk_sunreal *zd = SK__DATA(z);
#pragma omp parallel for simd if(parallel: sk__threaded(n)) schedule(static)
  for (sunindextype i = 0; i < n; i++) {
    zd[i] = a * xd[i] + b * yd[i];
  }
}

static void fast_const(sk_sunreal c, N_Vector z)
{
  const sunindextype n = SK__LEN(z);
  sk_sunreal *zd = SK__DATA(z);
#pragma omp parallel for simd if(parallel: sk__threaded(n)) schedule(static)
  for (sunindextype i = 0; i < n; i++) {
    zd[i] = c;
  }
}

static void fast_prod(N_Vector x, N_Vector y, N_Vector z)
{
  const sunindextype n = SK__LEN(x);
  const sk_sunreal *xd = SK__DATA(x);
  const sk_sunreal *yd = SK__DATA(y);
  sk_sunreal *zd = SK__DATA(z);
#pragma omp parallel for simd if(parallel: sk__threaded(n)) schedule(static)
  for (sunindextype i = 0; i < n; i++) {
    zd[i] = xd[i] * yd[i];
  }
}

static void fast_div(N_Vector x, N_Vector y, N_Vector z)
{
  const sunindextype n = SK__LEN(x);
  const sk_sunreal *xd = SK__DATA(x);
  const sk_sunreal *yd = SK__DATA(y);
  sk_sunreal *zd = SK__DATA(z);
#pragma omp parallel for simd if(parallel: sk__threaded(n)) schedule(static)
  for (sunindextype i = 0; i < n; i++) {
    zd[i] = xd[i] / yd[i];
  }
}

static void fast_scale(sk_sunreal c, N_Vector x, N_Vector z)
{
  const sunindextype n = SK__LEN(x);
  const sk_sunreal *xd = SK__DATA(x);
  sk_sunreal *zd = SK__DATA(z);
#pragma omp parallel for simd if(parallel: sk__threaded(n)) schedule(static)
  for (sunindextype i = 0; i < n; i++) {
    zd[i] = c * xd[i];
  }
}

static void fast_abs(N_Vector x, N_Vector z)
{
  const sunindextype n = SK__LEN(x);
  const sk_sunreal *xd = SK__DATA(x);
  sk_sunreal *zd = SK__DATA(z);
#pragma omp parallel for simd if(parallel: sk__threaded(n)) schedule(static)
  for (sunindextype i = 0; i < n; i++) {
    zd[i] = fabs(xd[i]);
  }
}

static void fast_inv(N_Vector x, N_Vector z)
{
  const sunindextype n = SK__LEN(x);
  const sk_sunreal *xd = SK__DATA(x);
  sk_sunreal *zd = SK__DATA(z);
#pragma omp parallel for simd if(parallel: sk__threaded(n)) schedule(static)
  for (sunindextype i = 0; i < n; i++) {
    zd[i] = 1.0 / xd[i];
  }
}

static void fast_addconst(N_Vector x, sk_sunreal b, N_Vector z)
{
  const sunindextype n = SK__LEN(x);
  const sk_sunreal *xd = SK__DATA(x);
  sk_sunreal *zd = SK__DATA(z);
#pragma omp parallel for simd if(parallel: sk__threaded(n)) schedule(static)
  for (sunindextype i = 0; i < n; i++) {
    zd[i] = xd[i] + b;
  }
}

/* ---- sums: fixed blocks added in block order ---------------------------- */

/* A threaded sum splits [0, n) into nb blocks fixed by the thread count
 * (block b is [n b / nb, n (b + 1) / nb)), sums each with a vectorized
 * partial sum and adds the block sums in block order: the same thread
 * count gives the same bits on every run (OpenMP's reduction clause would
 * combine the threads' sums in the order they arrive). */
#define SK__MAX_BLOCKS 64

typedef struct {
  const sk_sunreal *x, *y;
} sum_args;
typedef sk_sunreal (*block_sum_fn)(const sum_args *a, sunindextype lo, sunindextype hi);

static sk_sunreal ordered_sum(sunindextype n, block_sum_fn f, const sum_args *a)
{
  int nb = sk__threaded(n) ? sk__threads_max() : 1;
  nb = nb > SK__MAX_BLOCKS ? SK__MAX_BLOCKS : nb;
  if (nb <= 1) {
    return f(a, 0, n);
  }
  sk_sunreal part[SK__MAX_BLOCKS];
#pragma omp parallel for schedule(static, 1) num_threads(nb)
  for (int b = 0; b < nb; b++) {
    part[b] = f(a, n * b / nb, n * (b + 1) / nb);
  }
  sk_sunreal sum = 0.0;
  for (int b = 0; b < nb; b++) {
    sum += part[b];
  }
  return sum;
}

static sk_sunreal dot_block(const sum_args *a, sunindextype lo, sunindextype hi)
{
  sk_sunreal sum = 0.0;
#pragma omp simd reduction(+ : sum)
  for (sunindextype i = lo; i < hi; i++) {
    sum += a->x[i] * a->y[i];
  }
  return sum;
}

static sk_sunreal wsqr_block(const sum_args *a, sunindextype lo, sunindextype hi)
{
  sk_sunreal sum = 0.0;
#pragma omp simd reduction(+ : sum)
  for (sunindextype i = lo; i < hi; i++) {
    const sk_sunreal p = a->x[i] * a->y[i];
    sum += p * p;
  }
  return sum;
}

static sk_sunreal abs_block(const sum_args *a, sunindextype lo, sunindextype hi)
{
  sk_sunreal sum = 0.0;
#pragma omp simd reduction(+ : sum)
  for (sunindextype i = lo; i < hi; i++) {
    sum += fabs(a->x[i]);
  }
  return sum;
}

static sk_sunreal fast_dotprod(N_Vector x, N_Vector y)
{
  const sum_args a = {SK__DATA(x), SK__DATA(y)};
  return ordered_sum(SK__LEN(x), dot_block, &a);
}

static sk_sunreal fast_maxnorm(N_Vector x)
{
  const sunindextype n = SK__LEN(x);
  const sk_sunreal *xd = SK__DATA(x);
  sk_sunreal m = 0.0;
#pragma omp parallel for simd if(parallel: sk__threaded(n)) schedule(static) reduction(max : m)
  for (sunindextype i = 0; i < n; i++) {
    const sk_sunreal a = fabs(xd[i]);
    m = a > m ? a : m;
  }
  return m;
}

static sk_sunreal fast_wsqrsum(N_Vector x, N_Vector w)
{
  const sum_args a = {SK__DATA(x), SK__DATA(w)};
  return ordered_sum(SK__LEN(x), wsqr_block, &a);
}

static sk_sunreal fast_wrmsnorm(N_Vector x, N_Vector w)
{
  return sqrt(fast_wsqrsum(x, w) / (sk_sunreal)SK__LEN(x));
}

static sk_sunreal fast_wl2norm(N_Vector x, N_Vector w)
{
  return sqrt(fast_wsqrsum(x, w));
}

static sk_sunreal fast_l1norm(N_Vector x)
{
  const sum_args a = {SK__DATA(x), NULL};
  return ordered_sum(SK__LEN(x), abs_block, &a);
}

static sk_sunreal fast_min(N_Vector x)
{
  const sunindextype n = SK__LEN(x);
  const sk_sunreal *xd = SK__DATA(x);
  sk_sunreal m = n > 0 ? xd[0] : DBL_MAX; /* an empty local part (MPI) is neutral */
#pragma omp parallel for simd if(parallel: sk__threaded(n)) schedule(static) reduction(min : m)
  for (sunindextype i = 0; i < n; i++) {
    m = xd[i] < m ? xd[i] : m;
  }
  return m;
}

/* Fused operations: one pass over memory instead of one per vector. The
 * arithmetic per element is the same sequence as SUNDIALS' fallback
 * (scale, then repeated linear sums), so results are bitwise identical. */
static int fast_linearcombination(int nvec, sk_sunreal *c, N_Vector *X, N_Vector z)
{
  const sunindextype n = SK__LEN(z);
  sk_sunreal *zd = SK__DATA(z);
  if (nvec < 1) {
    return -1;
  }
  const sk_sunreal *x0 = SK__DATA(X[0]);
  if (nvec == 1) {
#pragma omp parallel for simd if(parallel: sk__threaded(n)) schedule(static)
    for (sunindextype j = 0; j < n; j++) {
      zd[j] = c[0] * x0[j];
    }
    return 0;
  }
  const sk_sunreal *x1 = SK__DATA(X[1]);
  const sk_sunreal c0 = c[0], c1 = c[1];
  /* first two vectors in one pass, the rest accumulated pairwise into z */
#pragma omp parallel for simd if(parallel: sk__threaded(n)) schedule(static)
  for (sunindextype j = 0; j < n; j++) {
    zd[j] = c1 * x1[j] + c0 * x0[j];
  }
  for (int i = 2; i < nvec; i++) {
    const sk_sunreal *xi = SK__DATA(X[i]);
    const sk_sunreal ci = c[i];
#pragma omp parallel for simd if(parallel: sk__threaded(n)) schedule(static)
    for (sunindextype j = 0; j < n; j++) {
      zd[j] = ci * xi[j] + zd[j];
    }
  }
  return 0;
}

static int fast_scaleaddmulti(int nvec, sk_sunreal *a, N_Vector x, N_Vector *Y, N_Vector *Z)
{
  const sunindextype n = SK__LEN(x);
  const sk_sunreal *xd = SK__DATA(x);
  for (int i = 0; i < nvec; i++) {
    const sk_sunreal *yd = SK__DATA(Y[i]);
    sk_sunreal *zd = SK__DATA(Z[i]);
    const sk_sunreal ai = a[i];
#pragma omp parallel for simd if(parallel: sk__threaded(n)) schedule(static)
    for (sunindextype j = 0; j < n; j++) {
      zd[j] = ai * xd[j] + yd[j];
    }
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

static sk_sunreal par_maxnorm(N_Vector x) { return allreduce(x, fast_maxnorm(x), MPI_MAX); }

static sk_sunreal par_wrmsnorm(N_Vector x, N_Vector w)
{
  return sqrt(allreduce(x, fast_wsqrsum(x, w), MPI_SUM) / (sk_sunreal)NV_GLOBLENGTH_P(x));
}

static sk_sunreal par_wl2norm(N_Vector x, N_Vector w)
{
  return sqrt(allreduce(x, fast_wsqrsum(x, w), MPI_SUM));
}

static sk_sunreal par_l1norm(N_Vector x) { return allreduce(x, fast_l1norm(x), MPI_SUM); }

static sk_sunreal par_min(N_Vector x) { return allreduce(x, fast_min(x), MPI_MIN); }

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

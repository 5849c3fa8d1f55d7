/* src/parallel/dist_nvector.c: the fast kernels on NVECTOR_PARALLEL vectors: the local kernels of backends/nvector_fast.c plus one MPI_Allreduce per global reduction; clones that end the run cleanly when memory runs out */
#include <math.h>

#include "parallel/dist_impl.h"

_Static_assert(sizeof(sk_sunreal) == sizeof(double), "MPI reductions assume double precision");

static sk_sunreal allreduce(N_Vector v, sk_sunreal x, MPI_Op op)
{
  double r = x;
  MPI_Allreduce(MPI_IN_PLACE, &r, 1, MPI_DOUBLE, op, NV_COMM_P(v));
  return r;
}

static sk_sunreal par_dotprod(N_Vector x, N_Vector y)
{
  return allreduce(x, x->ops->nvdotprodlocal(x, y), MPI_SUM);
}

static sk_sunreal par_maxnorm(N_Vector x)
{
  return allreduce(x, x->ops->nvmaxnormlocal(x), MPI_MAX);
}

static sk_sunreal par_wrmsnorm(N_Vector x, N_Vector w)
{
  return sqrt(allreduce(x, x->ops->nvwsqrsumlocal(x, w), MPI_SUM) /
              (sk_sunreal)NV_GLOBLENGTH_P(x));
}

static sk_sunreal par_wl2norm(N_Vector x, N_Vector w)
{
  return sqrt(allreduce(x, x->ops->nvwsqrsumlocal(x, w), MPI_SUM));
}

static sk_sunreal par_l1norm(N_Vector x)
{
  return allreduce(x, x->ops->nvl1normlocal(x), MPI_SUM);
}

static sk_sunreal par_min(N_Vector x)
{
  return allreduce(x, x->ops->nvminlocal(x), MPI_MIN);
}

/* the local sums fused, then one MPI_Allreduce per norm, as the fallback's N_VWrmsNorm calls */
static int par_wrmsnormvectorarray(int nvec, N_Vector *X, N_Vector *W, sk_sunreal *nrm)
{
  sk__nvector_wsqrsums_local(nvec, X, W, nrm);
  for (int i = 0; i < nvec; i++) {
    nrm[i] = sqrt(allreduce(X[i], nrm[i], MPI_SUM) / (sk_sunreal)NV_GLOBLENGTH_P(X[i]));
  }
  return 0;
}

static int par_dotprodmulti(int nvec, N_Vector x, N_Vector *Y, sk_sunreal *d)
{
  x->ops->nvdotprodmultilocal(nvec, x, Y, d);
  return MPI_Allreduce(MPI_IN_PLACE, d, nvec, MPI_DOUBLE, MPI_SUM, NV_COMM_P(x)) == MPI_SUCCESS
             ? 0
             : -1;
}

void sk__dist_nvector_use_fast_ops(N_Vector v)
{
  if (N_VGetVectorID(v) != SUNDIALS_NVEC_PARALLEL) {
    return;
  }
  sk__nvector_use_fast_local_ops(v);
  N_Vector_Ops ops = v->ops;
  ops->nvdotprod = par_dotprod;
  ops->nvmaxnorm = par_maxnorm;
  ops->nvwrmsnorm = par_wrmsnorm;
  ops->nvwl2norm = par_wl2norm;
  ops->nvl1norm = par_l1norm;
  ops->nvmin = par_min;
  ops->nvdotprodmulti = par_dotprodmulti;
  ops->nvwrmsnormvectorarray = par_wrmsnormvectorarray;
}

static N_Vector clone_parallel(N_Vector w)
{
  return sk__nvector_clone_or_exit(w, N_VClone_Parallel);
}

void sk__dist_nvector_guard_clone(N_Vector v)
{
  if (v && v->ops && v->ops->nvclone == N_VClone_Parallel) {
    v->ops->nvclone = clone_parallel;
  }
}

/* benchmarks/bench_vector_passes.c: state-vector passes per CVODE step on the 2D heat problem (SPGMR + ADI) with and without the one-pass fused operations, beside the memory-bandwidth bound */
/*
 * The problem, solver and settings of benchmarks/baseline_cvode_heat2d.c
 * (CVODE BDF, SPGMR with the line-tridiagonal ADI preconditioner, DQ J v,
 * rtol 1e-6, atol 1e-9, t in [0, 0.1], 10 outputs), with stiffkit's
 * N_Vector kernels. A counting layer, in this program only, wraps every
 * entry of the vectors' operation table (clones inherit it): each call adds
 * the state-sized arrays it streams, reads plus writes (N_VLinearSum 3,
 * N_VScale 2, N_VDotProd 2, N_VLinearCombination of m vectors m + 1,
 * N_VScaleAddMulti of m vectors 2 m + 1, ...), and then calls the real
 * kernel. Configurations, each run in this process:
 *   fallback: the fused and vector-array entries removed, so that
 *             sundials_nvector.c composes them from single-vector calls,
 *             as a direct CVODE program with the packaged vector does;
 *   lincomb:  only N_VLinearCombination fused (the kernels before the
 *             one-pass scale-add-multi and vector arrays);
 *   fused:    every fused and vector-array entry of stiffkit's table.
 * The right-hand side (2 streams: reads y, writes f) and the ADI solve
 * (6: x sweep reads r, writes z; y sweeps read and write z twice) are
 * counted apart. Bytes per step = streams x 8 n; with the triad bandwidth
 * measured here (a = b + s c, 3 streams, best of 5) that is a lower bound
 * on the time per step. Steps must be identical in all configurations
 * (checked: the fused kernels round as the fallback).
 *
 * Usage: bench_vector_passes [N ...]   (N x N unknowns; default 316 1000)
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cvodes/cvodes.h>
#include <cvodes/cvodes_ls.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_spgmr.h>

#include "backends/sundials_backend.h"

#define HEAT_PI 3.14159265358979323846

static double now_seconds(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- the problem (as baseline_cvode_heat2d.c) ---------------------------- */

typedef struct {
  sunindextype nx, n;
  double h, *zero_row, *xm, *xr, pup;
  long rhs_calls, psolve_calls;
} heat2d;

static int heat_rhs(sunrealtype t, N_Vector yv, N_Vector fv, void *ud)
{
  heat2d *p = ud;
  const sunindextype nx = p->nx;
  const double k = 1.0, h = p->h;
  const double *u = N_VGetArrayPointer(yv);
  double *f = N_VGetArrayPointer(fv);
  (void)t;
  p->rhs_calls++;
  for (sunindextype j = 0; j < nx; j++) {
    const double *row = u + j * nx;
    const double *rs = j > 0 ? row - nx : p->zero_row;
    const double *rn = j < nx - 1 ? row + nx : p->zero_row;
    for (sunindextype i = 0; i < nx; i++) {
      const double uc = row[i], ue = i < nx - 1 ? row[i + 1] : 0.0, uw = i > 0 ? row[i - 1] : 0.0;
      f[j * nx + i] = (k * (ue - uc) - k * (uc - uw)) / (h * h) +
                      (k * (rn[i] - uc) - k * (uc - rs[i])) / (h * h);
    }
  }
  return 0;
}

static int heat_psetup(sunrealtype t, N_Vector y, N_Vector fy, sunbooleantype jok,
                       sunbooleantype *jcur, sunrealtype gamma, void *ud)
{
  heat2d *p = ud;
  const double c = 1.0 / (p->h * p->h), d = 1.0 - gamma * (-c - c), off = -gamma * c;
  (void)t, (void)y, (void)fy;
  double piv = d;
  p->xm[0] = 0.0;
  p->xr[0] = 1.0 / piv;
  for (sunindextype s = 1; s < p->nx; s++) {
    const double mu = off * p->xr[s - 1];
    piv = d - mu * off;
    p->xm[s] = mu;
    p->xr[s] = 1.0 / piv;
  }
  p->pup = off;
  *jcur = jok ? SUNFALSE : SUNTRUE;
  return 0;
}

static int heat_psolve(sunrealtype t, N_Vector y, N_Vector fy, N_Vector r, N_Vector z,
                       sunrealtype gamma, sunrealtype delta, int lr, void *ud)
{
  heat2d *p = ud;
  const sunindextype nx = p->nx;
  const double up = p->pup, *rr = N_VGetArrayPointer(r);
  double *zz = N_VGetArrayPointer(z);
  (void)t, (void)y, (void)fy, (void)gamma, (void)delta, (void)lr;
  p->psolve_calls++;
  for (sunindextype j = 0; j < nx; j++) {
    const double *b = rr + j * nx;
    double *w = zz + j * nx;
    w[0] = b[0];
    for (sunindextype i = 1; i < nx; i++) w[i] = b[i] - p->xm[i] * w[i - 1];
    w[nx - 1] *= p->xr[nx - 1];
    for (sunindextype i = nx - 2; i >= 0; i--) w[i] = (w[i] - up * w[i + 1]) * p->xr[i];
  }
  for (sunindextype j = 1; j < nx; j++) {
    double *w = zz + j * nx;
    for (sunindextype i = 0; i < nx; i++) w[i] -= p->xm[j] * w[i - nx];
  }
  for (sunindextype i = 0; i < nx; i++) zz[(nx - 1) * nx + i] *= p->xr[nx - 1];
  for (sunindextype j = nx - 2; j >= 0; j--) {
    double *w = zz + j * nx;
    for (sunindextype i = 0; i < nx; i++) w[i] = (w[i] - up * w[i + nx]) * p->xr[j];
  }
  return 0;
}

/* ---- the counting layer -------------------------------------------------- */

enum { K_ELEMENTWISE, K_REDUCTION, K_FUSED, K_ARRAY, K_KINDS };
static const char *const kind_name[K_KINDS] = {"element-wise", "reductions", "fused",
                                               "vector arrays"};
static double g_streams[K_KINDS];
static long g_calls[K_KINDS];
static struct _generic_N_Vector_Ops real; /* the kernels the wrappers call */

#define COUNT(kind, s) (g_streams[kind] += (double)(s), g_calls[kind]++)

static void w_linearsum(sunrealtype a, N_Vector x, sunrealtype b, N_Vector y, N_Vector z)
{
  COUNT(K_ELEMENTWISE, 3);
  real.nvlinearsum(a, x, b, y, z);
}
static void w_const(sunrealtype c, N_Vector z)
{
  COUNT(K_ELEMENTWISE, 1);
  real.nvconst(c, z);
}
static void w_prod(N_Vector x, N_Vector y, N_Vector z)
{
  COUNT(K_ELEMENTWISE, 3);
  real.nvprod(x, y, z);
}
static void w_div(N_Vector x, N_Vector y, N_Vector z)
{
  COUNT(K_ELEMENTWISE, 3);
  real.nvdiv(x, y, z);
}
static void w_scale(sunrealtype c, N_Vector x, N_Vector z)
{
  COUNT(K_ELEMENTWISE, 2);
  real.nvscale(c, x, z);
}
static void w_abs(N_Vector x, N_Vector z)
{
  COUNT(K_ELEMENTWISE, 2);
  real.nvabs(x, z);
}
static void w_inv(N_Vector x, N_Vector z)
{
  COUNT(K_ELEMENTWISE, 2);
  real.nvinv(x, z);
}
static void w_addconst(N_Vector x, sunrealtype b, N_Vector z)
{
  COUNT(K_ELEMENTWISE, 2);
  real.nvaddconst(x, b, z);
}
static sunrealtype w_dotprod(N_Vector x, N_Vector y)
{
  COUNT(K_REDUCTION, 2);
  return real.nvdotprod(x, y);
}
static sunrealtype w_maxnorm(N_Vector x)
{
  COUNT(K_REDUCTION, 1);
  return real.nvmaxnorm(x);
}
static sunrealtype w_wrmsnorm(N_Vector x, N_Vector w)
{
  COUNT(K_REDUCTION, 2);
  return real.nvwrmsnorm(x, w);
}
static sunrealtype w_wl2norm(N_Vector x, N_Vector w)
{
  COUNT(K_REDUCTION, 2);
  return real.nvwl2norm(x, w);
}
static sunrealtype w_l1norm(N_Vector x)
{
  COUNT(K_REDUCTION, 1);
  return real.nvl1norm(x);
}
static sunrealtype w_min(N_Vector x)
{
  COUNT(K_REDUCTION, 1);
  return real.nvmin(x);
}
static void w_compare(sunrealtype c, N_Vector x, N_Vector z)
{
  COUNT(K_ELEMENTWISE, 2);
  real.nvcompare(c, x, z);
}
static sunbooleantype w_invtest(N_Vector x, N_Vector z)
{
  COUNT(K_ELEMENTWISE, 2);
  return real.nvinvtest(x, z);
}
static int w_linearcombination(int m, sunrealtype *c, N_Vector *X, N_Vector z)
{
  COUNT(K_FUSED, m + 1);
  return real.nvlinearcombination(m, c, X, z);
}
static int w_scaleaddmulti(int m, sunrealtype *a, N_Vector x, N_Vector *Y, N_Vector *Z)
{
  COUNT(K_FUSED, 2 * m + 1);
  return real.nvscaleaddmulti(m, a, x, Y, Z);
}
static int w_dotprodmulti(int m, N_Vector x, N_Vector *Y, sunrealtype *d)
{
  COUNT(K_FUSED, m + 1);
  return real.nvdotprodmulti(m, x, Y, d);
}
static int w_linearsumvectorarray(int m, sunrealtype a, N_Vector *X, sunrealtype b, N_Vector *Y,
                                  N_Vector *Z)
{
  COUNT(K_ARRAY, 3 * m);
  return real.nvlinearsumvectorarray(m, a, X, b, Y, Z);
}
static int w_scalevectorarray(int m, sunrealtype *c, N_Vector *X, N_Vector *Z)
{
  COUNT(K_ARRAY, 2 * m);
  return real.nvscalevectorarray(m, c, X, Z);
}
static int w_constvectorarray(int m, sunrealtype c, N_Vector *Z)
{
  COUNT(K_ARRAY, m);
  return real.nvconstvectorarray(m, c, Z);
}
static int w_wrmsnormvectorarray(int m, N_Vector *X, N_Vector *W, sunrealtype *nrm)
{
  COUNT(K_ARRAY, 2 * m);
  return real.nvwrmsnormvectorarray(m, X, W, nrm);
}

enum { CFG_FALLBACK, CFG_LINCOMB, CFG_FUSED, CFG_COUNT };
static const char *const cfg_name[CFG_COUNT] = {"fallback (packaged layout)",
                                                "N_VLinearCombination fused only",
                                                "all fused (this build)"};

/* y gets stiffkit's kernels, the configuration's fused entries, then the wrappers */
static void install(N_Vector y, int cfg)
{
  sk__nvector_use_fast_ops(y);
  N_Vector_Ops o = y->ops;
  if (cfg != CFG_FUSED) {
    if (cfg == CFG_FALLBACK) {
      o->nvlinearcombination = NULL;
    }
    o->nvscaleaddmulti = NULL;
    o->nvdotprodmulti = NULL;
    o->nvlinearsumvectorarray = NULL;
    o->nvscalevectorarray = NULL;
    o->nvconstvectorarray = NULL;
    o->nvwrmsnormvectorarray = NULL;
    o->nvwrmsnormmaskvectorarray = NULL;
    o->nvscaleaddmultivectorarray = NULL;
    o->nvlinearcombinationvectorarray = NULL;
  }
  real = *o;
#define WRAP(f) \
  if (o->f) o->f = w_##f
#define WRAP_NAMED(f, w) \
  if (o->f) o->f = w
  WRAP_NAMED(nvlinearsum, w_linearsum);
  WRAP_NAMED(nvconst, w_const);
  WRAP_NAMED(nvprod, w_prod);
  WRAP_NAMED(nvdiv, w_div);
  WRAP_NAMED(nvscale, w_scale);
  WRAP_NAMED(nvabs, w_abs);
  WRAP_NAMED(nvinv, w_inv);
  WRAP_NAMED(nvaddconst, w_addconst);
  WRAP_NAMED(nvdotprod, w_dotprod);
  WRAP_NAMED(nvmaxnorm, w_maxnorm);
  WRAP_NAMED(nvwrmsnorm, w_wrmsnorm);
  WRAP_NAMED(nvwl2norm, w_wl2norm);
  WRAP_NAMED(nvl1norm, w_l1norm);
  WRAP_NAMED(nvmin, w_min);
  WRAP_NAMED(nvcompare, w_compare);
  WRAP_NAMED(nvinvtest, w_invtest);
  WRAP_NAMED(nvlinearcombination, w_linearcombination);
  WRAP_NAMED(nvscaleaddmulti, w_scaleaddmulti);
  WRAP_NAMED(nvdotprodmulti, w_dotprodmulti);
  WRAP_NAMED(nvlinearsumvectorarray, w_linearsumvectorarray);
  WRAP_NAMED(nvscalevectorarray, w_scalevectorarray);
  WRAP_NAMED(nvconstvectorarray, w_constvectorarray);
  WRAP_NAMED(nvwrmsnormvectorarray, w_wrmsnormvectorarray);
#undef WRAP
#undef WRAP_NAMED
}

/* ---- triad bandwidth ------------------------------------------------------ */

static double triad_gbs(long n)
{
  double *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b),
         *c = malloc((size_t)n * sizeof *c);
  if (!a || !b || !c) {
    exit(1);
  }
  for (long i = 0; i < n; i++) {
    a[i] = 0.0, b[i] = 1.0 + 1e-9 * (double)i, c[i] = 2.0;
  }
  double best = 1e30;
  for (int r = 0; r < 5; r++) {
    const double t0 = now_seconds();
    for (long i = 0; i < n; i++) {
      a[i] = b[i] + 0.5 * c[i];
    }
    const double dt = now_seconds() - t0;
    best = dt < best ? dt : best;
  }
  volatile double sink = a[n / 2];
  (void)sink;
  free(a), free(b), free(c);
  return 3.0 * 8.0 * (double)n / best / 1e9;
}

/* ---- driver ------------------------------------------------------------------ */

static long run(long nx, int cfg, double *wall, double *streams_per_step, double model_per_step[2],
                double kinds[K_KINDS])
{
  heat2d p;
  memset(&p, 0, sizeof p);
  p.nx = nx;
  p.n = nx * nx;
  p.h = 1.0 / (double)(nx + 1);
  p.zero_row = calloc((size_t)nx, sizeof(double));
  p.xm = malloc((size_t)nx * sizeof(double));
  p.xr = malloc((size_t)nx * sizeof(double));
  SUNContext sctx = NULL;
  if (SK_SUNCONTEXT_CREATE(&sctx) != 0 || !p.zero_row || !p.xm || !p.xr) {
    exit(1);
  }
  N_Vector y = N_VNew_Serial(p.n, sctx);
  double *u = N_VGetArrayPointer(y);
  for (sunindextype j = 0; j < nx; j++) {
    for (sunindextype i = 0; i < nx; i++) {
      u[i + nx * j] = sin(HEAT_PI * (double)(i + 1) / (double)(nx + 1)) *
                      sin(HEAT_PI * (double)(j + 1) / (double)(nx + 1));
    }
  }
  install(y, cfg); /* before CVodeInit: CVODE's vectors are clones of y */
  memset(g_streams, 0, sizeof g_streams);
  memset(g_calls, 0, sizeof g_calls);
  void *mem = CVodeCreate(CV_BDF, sctx);
  CVodeInit(mem, heat_rhs, 0.0, y);
  CVodeSetUserData(mem, &p);
  CVodeSStolerances(mem, 1e-6, 1e-9);
  CVodeSetMaxNumSteps(mem, 1000000L);
  SUNLinearSolver LS = SUNLinSol_SPGMR(y, SUN_PREC_LEFT, 0, sctx);
  CVodeSetLinearSolver(mem, LS, NULL);
  CVodeSetPreconditioner(mem, heat_psetup, heat_psolve);
  memset(g_streams, 0, sizeof g_streams); /* the set-up's copies are not steps */
  memset(g_calls, 0, sizeof g_calls);
  double t = 0.0;
  const double t0 = now_seconds();
  for (int o = 1; o <= 10; o++) {
    if (CVode(mem, 0.01 * o, y, &t, CV_NORMAL) < 0) {
      fprintf(stderr, "CVode failed\n");
      exit(1);
    }
  }
  *wall = now_seconds() - t0;
  long nst = 0;
  CVodeGetNumSteps(mem, &nst);
  double total = 0.0;
  for (int k = 0; k < K_KINDS; k++) {
    kinds[k] = g_streams[k] / (double)nst;
    total += g_streams[k];
  }
  *streams_per_step = total / (double)nst;
  model_per_step[0] = 2.0 * (double)p.rhs_calls / (double)nst;
  model_per_step[1] = 6.0 * (double)p.psolve_calls / (double)nst;
  SUNLinSolFree(LS);
  CVodeFree(&mem);
  N_VDestroy(y);
  SUNContext_Free(&sctx);
  free(p.zero_row), free(p.xm), free(p.xr);
  return nst;
}

int main(int argc, char **argv)
{
  long sizes[8] = {316, 1000};
  int nsizes = 2;
  if (argc > 1) {
    nsizes = 0;
    for (int a = 1; a < argc && nsizes < 8; a++) {
      sizes[nsizes++] = strtol(argv[a], NULL, 10);
    }
  }
  printf("| N x N | configuration | steps | vector streams / step | element-wise | reductions | "
         "fused | arrays | RHS + ADI solve streams / step | MB / step | triad GB/s | bound "
         "ms / step | measured ms / step |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
         "---:|---:|\n");
  for (int s = 0; s < nsizes; s++) {
    const long nx = sizes[s], n = nx * nx;
    const double bw = triad_gbs(n > 4000000 ? n : 4000000);
    long steps0 = -1;
    for (int cfg = 0; cfg < CFG_COUNT; cfg++) {
      double wall, sps, model[2], kinds[K_KINDS];
      const long nst = run(nx, cfg, &wall, &sps, model, kinds);
      if (steps0 >= 0 && nst != steps0) {
        fprintf(stderr, "steps differ between configurations: %ld vs %ld\n", nst, steps0);
        return 1;
      }
      steps0 = nst;
      const double all = sps + model[0] + model[1];
      const double mb = all * 8.0 * (double)n / 1e6;
      printf("| %ld^2 | %s | %ld | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f | "
             "%.2f |\n",
             nx, cfg_name[cfg], nst, sps, kinds[K_ELEMENTWISE], kinds[K_REDUCTION],
             kinds[K_FUSED], kinds[K_ARRAY], model[0] + model[1], mb, bw, mb / 1e3 / bw * 1e3,
             1e3 * wall / (double)nst);
    }
  }
  (void)kind_name;
  return 0;
}

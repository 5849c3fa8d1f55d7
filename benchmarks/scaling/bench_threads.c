/* benchmarks/scaling/bench_threads.c: stiffkit kernels with 1 then 2 OpenMP threads in one run (heat 2D/3D RHS, Brusselator RHS/Jacobian/colored FD, ADI, vector ops) against the triad bandwidth ratio */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <nvector/nvector_serial.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/sundials_backend.h"
#include "core/threads.h"
#include "stiffkit/stiffkit.h"

/* usage: bench_threads [reps (default 5)]
 * Each case is timed with 1 thread and with 2 threads, interleaved
 * (1, 2, 1, 2, ...), best of `reps` rounds; speedup = t(1) / t(2). The
 * "bound" column is what the hardware allows: the triad's 2-thread /
 * 1-thread bandwidth ratio for bandwidth-bound kernels (measured here, in
 * this run), 2 for compute-bound ones. */

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef void (*kernel_fn)(void *arg);

typedef struct {
  sk_model *m;
  double *y, *f, *vals, *r, *z;
  N_Vector x, w, v;
} case_data;

static void k_rhs(void *a)
{
  case_data *c = a;
  sk_model_eval_rhs(c->m, 0.0, c->y, c->f);
}
static void k_jac(void *a)
{
  case_data *c = a;
  sk_model_eval_jac(c->m, 0.0, c->y, c->f, c->vals);
}
static void k_prec_setup(void *a)
{
  case_data *c = a;
  sk_model_eval_prec_setup(c->m, 0.0, c->y, 1e-3, 0);
}
static void k_prec_solve(void *a)
{
  case_data *c = a;
  sk_model_eval_prec_solve(c->m, 0.0, c->y, c->r, c->z, 1e-3);
}
static void k_linearsum(void *a)
{
  case_data *c = a;
  N_VLinearSum(0.5, c->x, 2.0, c->w, c->v);
}
static void k_wrmsnorm(void *a)
{
  case_data *c = a;
  volatile double r = N_VWrmsNorm(c->x, c->w);
  (void)r;
}
static double triad_a_s;
static double *triad_a, *triad_b, *triad_c;
static long triad_n;
static void k_triad(void *a)
{
  (void)a;
  const double s = triad_a_s;
#pragma omp parallel for simd schedule(static)
  for (long i = 0; i < triad_n; i++) {
    triad_a[i] = triad_b[i] + s * triad_c[i];
  }
}

/* best time of one call with nt threads (calls repeated to >= 0.05 s) */
static double time_kernel(sk_context *ctx, kernel_fn fn, void *arg, int nt)
{
  sk__threads_set(ctx, nt);
  omp_set_num_threads(nt);
  fn(arg); /* warm-up (first touch, lazy allocations) */
  int calls = 1;
  double dt;
  for (;;) {
    const double t0 = now();
    for (int k = 0; k < calls; k++) {
      fn(arg);
    }
    dt = now() - t0;
    if (dt >= 0.05 || calls >= 1 << 20) {
      break;
    }
    calls *= 2;
  }
  return dt / calls;
}

static void run_case(sk_context *ctx, const char *name, kernel_fn fn, void *arg, int reps,
                     double bound, const char *kind)
{
  double t[3] = {1e300, 1e300, 1e300};
  for (int r = 0; r < reps; r++) {
    for (int nt = 1; nt <= 2; nt++) {
      const double d = time_kernel(ctx, fn, arg, nt);
      t[nt] = d < t[nt] ? d : t[nt];
    }
  }
  printf("%-34s %11.3f %11.3f %8.2f %7.2f  %s\n", name, 1e3 * t[1], 1e3 * t[2], t[1] / t[2],
         bound, kind);
  fflush(stdout);
}

static sk_model *heat(sk_context *ctx, int dim, int64_t n, double beta)
{
  sk_diffusion_params p;
  sk_diffusion_params_default(&p);
  p.dim = dim;
  for (int d = 0; d < 3; d++) {
    p.n[d] = d < dim ? n : 1;
  }
  if (beta != 0.0) {
    p.beta = beta;
    p.exact = SK_DIFFUSION_EXACT_NONE;
    p.ic = SK_DIFFUSION_IC_CONSTANT;
    p.ic_value = 0.5;
  }
  sk_model *m = NULL;
  if (sk_diffusion_create(ctx, &p, &m) != SK_OK) {
    fprintf(stderr, "bench_threads: %s\n", sk_context_get_error(ctx)->message);
    exit(1);
  }
  return m;
}

static void alloc_case(case_data *c, sk_model *m)
{
  memset(c, 0, sizeof *c);
  c->m = m;
  const int64_t n = sk_model_get_n(m);
  const int64_t *cp, *ri;
  int64_t nnz;
  sk_model_get_jac_pattern(m, &cp, &ri, &nnz);
  c->y = malloc((size_t)n * sizeof *c->y);
  c->f = malloc((size_t)n * sizeof *c->f);
  c->r = malloc((size_t)n * sizeof *c->r);
  c->z = malloc((size_t)n * sizeof *c->z);
  c->vals = malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof *c->vals);
  sk_model_eval_initial(m, 0.0, c->y);
  for (int64_t i = 0; i < n; i++) {
    c->y[i] += 1e-3 * (double)(i % 13);
    c->r[i] = 1.0 + 1e-3 * (double)(i % 7);
  }
  sk_model_eval_rhs(m, 0.0, c->y, c->f);
  if (sk_model_has_preconditioner(m)) { /* the solve needs factors */
    sk_model_eval_prec_setup(m, 0.0, c->y, 1e-3, 0);
  }
}

static void free_case(case_data *c)
{
  sk_model_destroy(&c->m);
  free(c->y);
  free(c->f);
  free(c->r);
  free(c->z);
  free(c->vals);
}

int main(int argc, char **argv)
{
  const int reps = argc > 1 ? atoi(argv[1]) : 5;
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK || !sk__threads_openmp()) {
    fprintf(stderr, "bench_threads: needs an OpenMP build (SK_OPENMP=ON)\n");
    return 1;
  }
  printf("bench_threads: best of %d interleaved rounds, num_procs %d\n", reps,
         sk__threads_num_procs());
  /* triad: the bandwidth ratio of this run */
  triad_n = 20000000L;
  triad_a = malloc((size_t)triad_n * sizeof(double));
  triad_b = malloc((size_t)triad_n * sizeof(double));
  triad_c = malloc((size_t)triad_n * sizeof(double));
  triad_a_s = 3.0;
  omp_set_num_threads(2);
#pragma omp parallel for schedule(static)
  for (long i = 0; i < triad_n; i++) {
    triad_a[i] = 0.0;
    triad_b[i] = 1.0;
    triad_c[i] = 2.0;
  }
  double tt[3] = {1e300, 1e300, 1e300};
  for (int r = 0; r < reps; r++) {
    for (int nt = 1; nt <= 2; nt++) {
      const double d = time_kernel(ctx, k_triad, NULL, nt);
      tt[nt] = d < tt[nt] ? d : tt[nt];
    }
  }
  const double gb1 = 24.0 * (double)triad_n / tt[1] / 1e9, gb2 = 24.0 * (double)triad_n / tt[2] / 1e9;
  const double bw = gb2 / gb1;
  printf("triad (3 x 160 MB): 1 thread %.2f GB/s, 2 threads %.2f GB/s, ratio %.2f\n\n", gb1, gb2,
         bw);
  free(triad_a);
  free(triad_b);
  free(triad_c);

  printf("%-34s %11s %11s %8s %7s  %s\n", "case", "t(1) [ms]", "t(2) [ms]", "speedup", "bound",
         "kind");
  case_data c;
  /* 2D heat, 10^6 states: constant k (bandwidth), u-dependent k (more arithmetic) */
  alloc_case(&c, heat(ctx, 2, 1000, 0.0));
  run_case(ctx, "heat2d 1000^2 RHS (k const)", k_rhs, &c, reps, bw, "bandwidth");
  run_case(ctx, "heat2d 1000^2 ADI solve (k const)", k_prec_solve, &c, reps, bw, "bandwidth");
  free_case(&c);
  alloc_case(&c, heat(ctx, 2, 1000, 0.5));
  run_case(ctx, "heat2d 1000^2 RHS (k(u))", k_rhs, &c, reps, bw, "bandwidth");
  run_case(ctx, "heat2d 1000^2 Jacobian values (k(u))", k_jac, &c, reps, bw, "bandwidth");
  run_case(ctx, "heat2d 1000^2 ADI setup (k(u))", k_prec_setup, &c, reps, 2.0, "compute");
  run_case(ctx, "heat2d 1000^2 ADI solve (k(u))", k_prec_solve, &c, reps, bw, "bandwidth");
  free_case(&c);
  /* 3D heat 100^3 */
  alloc_case(&c, heat(ctx, 3, 100, 0.0));
  run_case(ctx, "heat3d 100^3 RHS (k const)", k_rhs, &c, reps, bw, "bandwidth");
  run_case(ctx, "heat3d 100^3 ADI solve (k const)", k_prec_solve, &c, reps, bw, "bandwidth");
  free_case(&c);
  alloc_case(&c, heat(ctx, 3, 100, 0.5));
  run_case(ctx, "heat3d 100^3 RHS (k(u))", k_rhs, &c, reps, bw, "bandwidth");
  run_case(ctx, "heat3d 100^3 ADI setup (k(u))", k_prec_setup, &c, reps, 2.0, "compute");
  free_case(&c);
  /* Brusselator: kinetics + diffusion, analytic Jacobian, colored FD Jacobian */
  sk_brusselator_params bp;
  sk_brusselator_params_default(&bp);
  bp.n = 512;
  sk_model *bm = NULL;
  sk_brusselator_create(ctx, &bp, &bm);
  alloc_case(&c, bm);
  run_case(ctx, "brusselator 512^2 RHS", k_rhs, &c, reps, 2.0, "compute");
  run_case(ctx, "brusselator 512^2 Jacobian values", k_jac, &c, reps, 2.0, "compute");
  free_case(&c);
  bp.n = 128;
  sk_brusselator_create(ctx, &bp, &bm);
  sk_model_set_jac_values(bm, NULL); /* colored FD: colour groups in parallel */
  alloc_case(&c, bm);
  run_case(ctx, "brusselator 128^2 colored FD Jacobian", k_jac, &c, reps, 2.0, "compute");
  free_case(&c);
  /* vector kernels, 10^6 */
  SUNContext sctx = NULL;
  SK_SUNCONTEXT_CREATE(&sctx);
  memset(&c, 0, sizeof c);
  c.x = N_VNew_Serial(1000000, sctx);
  sk__nvector_use_fast_ops(c.x);
  c.w = N_VClone(c.x);
  c.v = N_VClone(c.x);
  N_VConst(1.5, c.x);
  N_VConst(0.5, c.w);
  run_case(ctx, "N_VLinearSum 10^6", k_linearsum, &c, reps, bw, "bandwidth");
  run_case(ctx, "N_VWrmsNorm 10^6", k_wrmsnorm, &c, reps, bw, "bandwidth");
  N_VDestroy(c.x);
  N_VDestroy(c.w);
  N_VDestroy(c.v);
  SUNContext_Free(&sctx);
  sk_context_destroy(&ctx);
  return 0;
}

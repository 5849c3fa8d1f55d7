/* benchmarks/bench_vector_kernels.c: ns per call of the packaged SUNDIALS serial N_Vector kernels against stiffkit's, n = 3 .. 10^6, with a bitwise comparison of every result */
/*
 * For each size, both vector kinds hold the same data; each kernel that
 * CVODE calls (linear sum in its general, a == b and axpy forms, scale,
 * const, prod, div, inv, abs, add-const, dot product, WRMS and WL2 norms,
 * max norm, min, L1 norm, linear combination of 3 and 6 vectors, scale-add
 * of 3) runs on both, and the results (every element, every reduction)
 * are compared bit for bit: any difference is printed and the program
 * exits 1. Timing: calls repeated for ~0.05 s, best of 3, per kernel kind;
 * the ratio column is packaged / stiffkit (> 1: stiffkit faster). The
 * crossover that solver.fast_vector_ops=auto uses comes from this table
 * (benchmarks/README.md).
 *
 * Usage: bench_vector_kernels [threads]   (default: the OpenMP default)
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>

#include "backends/sundials_backend.h"
#include "core/threads.h"
#include "stiffkit/stiffkit.h"

enum { NV = 8 };

typedef struct {
  N_Vector v[NV];
} vset;

static double now_seconds(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void fill(vset *s, long n)
{
  for (int k = 0; k < NV; k++) {
    double *d = N_VGetArrayPointer(s->v[k]);
    for (long i = 0; i < n; i++) {
      d[i] = sin(0.37 * (double)(i + 1) * (k + 1)) + 1e-3 * (double)k + 1.5;
    }
  }
}

static int bad;

static void same_vec(const char *what, long n, N_Vector a, N_Vector b)
{
  if (memcmp(N_VGetArrayPointer(a), N_VGetArrayPointer(b), (size_t)n * sizeof(double)) != 0) {
    printf("  DIFFERENT: %s (n=%ld)\n", what, n);
    bad = 1;
  }
}

static void same_val(const char *what, long n, double a, double b)
{
  if (memcmp(&a, &b, sizeof a) != 0) {
    printf("  DIFFERENT: %s (n=%ld): %.17g vs %.17g\n", what, n, a, b);
    bad = 1;
  }
}

/* one pass of every kernel; returns a checksum so nothing is optimized away */
static double sweep(vset *s)
{
  N_Vector *v = s->v;
  double acc = 0.0;
  double c3[3] = {0.7, -0.2, 1.3}, c6[6] = {1.0, 0.5, -0.25, 0.125, 2.0, -1.5};
  N_VLinearSum(0.3, v[0], -0.7, v[1], v[2]);
  N_VLinearSum(0.5, v[0], 0.5, v[1], v[3]);
  N_VLinearSum(0.3, v[0], 1.0, v[4], v[4]);
  N_VScale(0.9, v[2], v[5]);
  N_VProd(v[0], v[1], v[6]);
  N_VDiv(v[0], v[1], v[7]);
  acc += N_VDotProd(v[0], v[1]);
  acc += N_VWrmsNorm(v[2], v[1]);
  acc += N_VWL2Norm(v[3], v[0]);
  acc += N_VMaxNorm(v[2]);
  acc += N_VMin(v[5]);
  acc += N_VL1Norm(v[6]);
  N_VLinearCombination(3, c3, (N_Vector[]){v[5], v[0], v[1]}, v[5]);
  N_VLinearCombination(6, c6, (N_Vector[]){v[0], v[1], v[2], v[3], v[4], v[6]}, v[7]);
  N_VScaleAddMulti(3, c3, v[0], (N_Vector[]){v[1], v[2], v[3]}, (N_Vector[]){v[4], v[2], v[6]});
  N_VAbs(v[2], v[3]);
  N_VInv(v[0], v[3]);
  N_VAddConst(v[3], 0.25, v[3]);
  N_VConst(0.0, v[3]);
  N_VLinearSum(1.0, v[0], 0.0, v[3], v[3]);
  return acc;
}

static double time_sweeps(vset *s, long n)
{
  const long reps = 1 + (long)(2e6 / (double)(n + 16));
  double best = 1e300, sink = 0.0;
  for (int trial = 0; trial < 3; trial++) {
    fill(s, n);
    const double t0 = now_seconds();
    for (long r = 0; r < reps; r++) {
      sink += sweep(s);
    }
    const double t = (now_seconds() - t0) / (double)reps;
    best = t < best ? t : best;
  }
  if (sink == 12345.678) {
    printf("%g\n", sink);
  }
  return best;
}

int main(int argc, char **argv)
{
  sk_context *ctx = NULL;
  SUNContext sunctx = NULL;
  if (sk_context_create(&ctx) != SK_OK || SUNContext_Create(NULL, &sunctx) != 0) {
    fprintf(stderr, "cannot create the contexts\n");
    return 1;
  }
  if (argc > 1) {
    sk__threads_set(ctx, atol(argv[1]));
  }
  printf("vector kernels: %d thread(s) available; 20 kernel calls per sweep (CVODE's mix)\n",
         sk__threads_max());
  printf("%9s %14s %14s %8s %s\n", "n", "packaged ns", "stiffkit ns", "ratio", "bitwise");
  const long sizes[] = {1, 3, 10, 30, 100, 400, 1000, 4000, 10000, 40000, 100000, 1000000};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    const long n = sizes[k];
    vset p, f;
    for (int i = 0; i < NV; i++) {
      p.v[i] = N_VNew_Serial(n, sunctx);
      f.v[i] = N_VNew_Serial(n, sunctx);
      sk__nvector_use_fast_ops(f.v[i]);
    }
    fill(&p, n);
    fill(&f, n);
    const int before = bad;
    for (int pass = 0; pass < 3; pass++) { /* results feed the next pass */
      const double a = sweep(&p), b = sweep(&f);
      same_val("checksum of the reductions", n, a, b);
      for (int i = 0; i < NV; i++) {
        char what[32];
        snprintf(what, sizeof what, "vector %d", i);
        same_vec(what, n, p.v[i], f.v[i]);
      }
    }
    const double tp = time_sweeps(&p, n), tf = time_sweeps(&f, n);
    printf("%9ld %14.1f %14.1f %8.2f %s\n", n, 1e9 * tp, 1e9 * tf, tp / tf,
           bad == before ? "same" : "DIFFERENT");
    for (int i = 0; i < NV; i++) {
      N_VDestroy(p.v[i]);
      N_VDestroy(f.v[i]);
    }
  }
  SUNContext_Free(&sunctx);
  sk_context_destroy(&ctx);
  return bad;
}

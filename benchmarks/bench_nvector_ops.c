/* benchmarks/bench_nvector_ops.c: GB/s of SUNDIALS serial N_Vector ops against plain C loops (n = 10^6, 10^7) */
/*
 * Times N_VDotProd, N_VLinearSum (general a, b; and the in-place axpy form
 * CVODE/SPGMR use), N_VWrmsNorm and N_VScale of the installed
 * libsundials_nvecserial against loops compiled here with the project's
 * flags: a single-accumulator loop (what SUNDIALS' source gives at -O2/-O3
 * without -ffast-math: one dependent add chain) and a multi-accumulator
 * loop (8 independent partial sums). Bandwidth counts logical bytes: reads
 * plus writes of the operands, once (write-allocate traffic not counted;
 * N_VWrmsNorm counted as one pass over x and w even though SUNDIALS reads
 * them twice). Each figure is the best of several trials.
 *
 * Usage: bench_nvector_ops [n ...]   (default: 1000000 10000000)
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>

static double now_seconds(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- plain C kernels ----------------------------------------------------- */

static double dot_1acc(long n, const double *restrict x, const double *restrict y)
{
  double s = 0.0;
  for (long i = 0; i < n; i++) s += x[i] * y[i];
  return s;
}

static double dot_8acc(long n, const double *restrict x, const double *restrict y)
{
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
  long i = 0;
  for (; i + 8 <= n; i += 8) {
    s0 += x[i] * y[i];
    s1 += x[i + 1] * y[i + 1];
    s2 += x[i + 2] * y[i + 2];
    s3 += x[i + 3] * y[i + 3];
    s4 += x[i + 4] * y[i + 4];
    s5 += x[i + 5] * y[i + 5];
    s6 += x[i + 6] * y[i + 6];
    s7 += x[i + 7] * y[i + 7];
  }
  for (; i < n; i++) s0 += x[i] * y[i];
  return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
}

static double wrms_1acc(long n, const double *restrict x, const double *restrict w)
{
  double s = 0.0;
  for (long i = 0; i < n; i++) {
    const double p = x[i] * w[i];
    s += p * p;
  }
  s /= (double)n;
  return s <= 0.0 ? 0.0 : sqrt(s);
}

static double wrms_8acc(long n, const double *restrict x, const double *restrict w)
{
  double s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  long i = 0;
  for (; i + 8 <= n; i += 8)
    for (int q = 0; q < 8; q++) {
      const double p = x[i + q] * w[i + q];
      s[q] += p * p;
    }
  for (; i < n; i++) s[0] += (x[i] * w[i]) * (x[i] * w[i]);
  double t = ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
  t /= (double)n;
  return t <= 0.0 ? 0.0 : sqrt(t);
}

static void linsum_c(long n, double a, const double *restrict x, double b,
                     const double *restrict y, double *restrict z)
{
  for (long i = 0; i < n; i++) z[i] = a * x[i] + b * y[i];
}

static void axpy_c(long n, double a, const double *restrict x, double *restrict y)
{
  for (long i = 0; i < n; i++) y[i] += a * x[i];
}

static void scale_c(long n, double c, const double *restrict x, double *restrict z)
{
  for (long i = 0; i < n; i++) z[i] = c * x[i];
}

/* ---- harness ------------------------------------------------------------- */

enum { OP_DOT, OP_LINSUM, OP_AXPY, OP_WRMS, OP_SCALE, OP_COUNT };
enum { IMPL_SUNDIALS, IMPL_C1, IMPL_C8, IMPL_COUNT };

static const char *const op_name[OP_COUNT] = {"N_VDotProd", "N_VLinearSum(a,x,b,y,z)",
                                              "N_VLinearSum(1,y,a,x,y) axpy", "N_VWrmsNorm",
                                              "N_VScale"};
static const double op_bytes[OP_COUNT] = {16.0, 24.0, 24.0, 16.0, 16.0};

typedef struct {
  long n;
  N_Vector x, y, z, w;
  double *xd, *yd, *zd, *wd;
  volatile double sink;
} bench;

/* Run op/impl once; returns nonzero when (op, impl) has no such variant. */
static int run_once(bench *b, int op, int impl)
{
  const long n = b->n;
  switch (op) {
  case OP_DOT:
    if (impl == IMPL_SUNDIALS) b->sink = N_VDotProd(b->x, b->y);
    else if (impl == IMPL_C1) b->sink = dot_1acc(n, b->xd, b->yd);
    else b->sink = dot_8acc(n, b->xd, b->yd);
    return 0;
  case OP_LINSUM:
    if (impl == IMPL_SUNDIALS) N_VLinearSum(0.7, b->x, 1.3, b->y, b->z);
    else if (impl == IMPL_C1) linsum_c(n, 0.7, b->xd, 1.3, b->yd, b->zd);
    else return 1;
    return 0;
  case OP_AXPY: /* tiny a keeps y bounded over many repetitions */
    if (impl == IMPL_SUNDIALS) N_VLinearSum(1.0, b->y, 1e-12, b->x, b->y);
    else if (impl == IMPL_C1) axpy_c(n, 1e-12, b->xd, b->yd);
    else return 1;
    return 0;
  case OP_WRMS:
    if (impl == IMPL_SUNDIALS) b->sink = N_VWrmsNorm(b->x, b->w);
    else if (impl == IMPL_C1) b->sink = wrms_1acc(n, b->xd, b->wd);
    else b->sink = wrms_8acc(n, b->xd, b->wd);
    return 0;
  case OP_SCALE:
    if (impl == IMPL_SUNDIALS) N_VScale(0.9, b->x, b->z);
    else if (impl == IMPL_C1) scale_c(n, 0.9, b->xd, b->zd);
    else return 1;
    return 0;
  default:
    return 1;
  }
}

/* Best seconds per call over `trials` trials of `reps` calls. */
static double time_op(bench *b, int op, int impl, int reps, int trials)
{
  double best = INFINITY;
  if (run_once(b, op, impl)) return -1.0; /* warm-up / variant check */
  for (int t = 0; t < trials; t++) {
    const double t0 = now_seconds();
    for (int r = 0; r < reps; r++) run_once(b, op, impl);
    const double dt = (now_seconds() - t0) / reps;
    if (dt < best) best = dt;
  }
  return best;
}

int main(int argc, char **argv)
{
  long sizes[8] = {1000000L, 10000000L};
  int nsizes = 2;
  if (argc > 1) {
    nsizes = 0;
    for (int a = 1; a < argc && nsizes < 8; a++) sizes[nsizes++] = strtol(argv[a], NULL, 10);
  }
  SUNContext sunctx = NULL;
  if (SUNContext_Create(NULL, &sunctx)) return 1;

  printf("| n | operation | SUNDIALS [GB/s] | C 1-acc [GB/s] | C 8-acc [GB/s] | C best / SUNDIALS |\n");
  printf("|---|---|---|---|---|---|\n");
  for (int s = 0; s < nsizes; s++) {
    bench b;
    b.n = sizes[s];
    if (b.n < 8) continue;
    b.x = N_VNew_Serial(b.n, sunctx);
    b.y = N_VNew_Serial(b.n, sunctx);
    b.z = N_VNew_Serial(b.n, sunctx);
    b.w = N_VNew_Serial(b.n, sunctx);
    if (!b.x || !b.y || !b.z || !b.w) return 1;
    b.xd = N_VGetArrayPointer(b.x);
    b.yd = N_VGetArrayPointer(b.y);
    b.zd = N_VGetArrayPointer(b.z);
    b.wd = N_VGetArrayPointer(b.w);
    for (long i = 0; i < b.n; i++) {
      b.xd[i] = 1.0 + 1e-7 * (double)(i % 1000);
      b.yd[i] = 0.5 - 1e-7 * (double)(i % 777);
      b.zd[i] = 0.0;
      b.wd[i] = 1e6;
    }
    /* about 2 GB of logical traffic per trial */
    const int reps = (int)(2e9 / (16.0 * (double)b.n)) + 1;
    for (int op = 0; op < OP_COUNT; op++) {
      double gbs[IMPL_COUNT];
      double best_c = 0.0;
      for (int impl = 0; impl < IMPL_COUNT; impl++) {
        const double sec = time_op(&b, op, impl, reps, 5);
        gbs[impl] = sec > 0.0 ? op_bytes[op] * (double)b.n / sec * 1e-9 : -1.0;
        if (impl != IMPL_SUNDIALS && gbs[impl] > best_c) best_c = gbs[impl];
      }
      printf("| %ld | %s | %.1f | %.1f | ", b.n, op_name[op], gbs[IMPL_SUNDIALS], gbs[IMPL_C1]);
      if (gbs[IMPL_C8] > 0.0) printf("%.1f", gbs[IMPL_C8]);
      else printf("-");
      printf(" | %.1fx |\n", best_c / gbs[IMPL_SUNDIALS]);
    }
    /* cross-check the reductions */
    const double d_s = N_VDotProd(b.x, b.y), d_c = dot_8acc(b.n, b.xd, b.yd);
    const double w_s = N_VWrmsNorm(b.x, b.w), w_c = wrms_8acc(b.n, b.xd, b.wd);
    fprintf(stderr, "n=%ld check: dot rel diff %.2e, wrms rel diff %.2e\n", b.n,
            fabs(d_s - d_c) / fabs(d_s), fabs(w_s - w_c) / fabs(w_s));
    N_VDestroy(b.x);
    N_VDestroy(b.y);
    N_VDestroy(b.z);
    N_VDestroy(b.w);
  }
  SUNContext_Free(&sunctx);
  return 0;
}

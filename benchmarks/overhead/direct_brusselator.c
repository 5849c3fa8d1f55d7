/* benchmarks/overhead/direct_brusselator.c: hand-written CVODE program for the 2D Brusselator with data/brusselator.yaml's settings (the direct-SUNDIALS peer of `stiffkit run data/brusselator.yaml`) */
/*
 * u_t = a - (b + 1) u + u^2 v + alpha lap u, v_t = b u - u^2 v + alpha lap v
 * on [0, 1]^2 with zero flux on every side, n x n nodes including the
 * boundary (h = 1 / (n - 1), the mirrored three-point stencil at the sides),
 * states interleaved per node (y[2q] = u, y[2q+1] = v, q = i + n j),
 * a = 1, b = 3.4, alpha = 0.002, u0 = a + eps c_i c_j, v0 = b/a + eps c_i c_j
 * with c_i = cos(pi i / (n - 1)), eps = 0.1. Written from the model's
 * equations (src/models/brusselator.c's comment) in the same operation order,
 * with the CSC pattern listed in increasing row order per column (south,
 * west, the node's own two rows, east, north).
 * CVODE BDF, rtol 1e-6, atol 1e-9 (scalar), KLU with the AMD ordering (what
 * stiffkit's linsol.ordering=auto picks below n = 1000), max steps
 * unlimited, CV_NORMAL to the output times t_end k / n_out, k = 1..n_out
 * (output.n_times 4). Packaged N_Vector kernels.
 * Prints one JSON object: counters as CVodeGet* report them, the final state's
 * max norm, the last step size and the wall time of the CVode calls.
 *
 * Usage: direct_brusselator [--n N] [--rtol R] [--atol A] [--t-end T] [--n-out K]
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_sparse.h>

#define BRU_PI 3.14159265358979323846

typedef struct {
  long n;
  double a, b, alpha, hh;
} bru;

static double now_seconds(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* the mirrored neighbour position: inside the grid, or the reflected one */
static long lower(long i) { return i > 0 ? i - 1 : 1; }
static long upper(long i, long n) { return i < n - 1 ? i + 1 : n - 2; }

static int rhs(realtype t, N_Vector yv, N_Vector fv, void *ud)
{
  const bru *p = ud;
  const long n = p->n;
  const double *y = N_VGetArrayPointer(yv);
  double *f = N_VGetArrayPointer(fv);
  (void)t;
  for (long j = 0; j < n; j++) {
    const double *ys = y + 2 * n * lower(j), *yc = y + 2 * n * j, *yn = y + 2 * n * upper(j, n);
    for (long i = 0; i < n; i++) {
      const long w = 2 * lower(i), e = 2 * upper(i, n), c = 2 * i;
      const double u = yc[c], v = yc[c + 1];
      const double lapu =
          ((yc[e] - u) - (u - yc[w])) / p->hh + ((yn[c] - u) - (u - ys[c])) / p->hh;
      const double lapv = ((yc[e + 1] - v) - (v - yc[w + 1])) / p->hh +
                          ((yn[c + 1] - v) - (v - ys[c + 1])) / p->hh;
      const double uuv = u * u * v;
      f[2 * n * j + c] = (p->a - (p->b + 1.0) * u + uuv) + p->alpha * lapu;
      f[2 * n * j + c + 1] = (p->b * u - uuv) + p->alpha * lapv;
    }
  }
  return 0;
}

/* d f_row / d y_col of a neighbour link: alpha / (h^2 w), w = 1/2 when the
 * row's node is on a side in that direction (its half control volume) */
static double link(const bru *p, long row_pos)
{
  const double w = (row_pos == 0 || row_pos == p->n - 1) ? 0.5 : 1.0;
  return p->alpha / (p->hh * w);
}

static int jac(realtype t, N_Vector yv, N_Vector fy, SUNMatrix J, void *ud, N_Vector t1,
               N_Vector t2, N_Vector t3)
{
  const bru *p = ud;
  const long n = p->n;
  const double *y = N_VGetArrayPointer(yv);
  sunindextype *cp = SUNSparseMatrix_IndexPointers(J), *ri = SUNSparseMatrix_IndexValues(J);
  double *v = SUNSparseMatrix_Data(J);
  const double dlap = -2.0 * p->alpha / p->hh - 2.0 * p->alpha / p->hh;
  (void)t, (void)fy, (void)t1, (void)t2, (void)t3;
  sunindextype pos = 0;
  for (long j = 0; j < n; j++) {
    for (long i = 0; i < n; i++) {
      const long q = i + n * j;
      const double u = y[2 * q], vv = y[2 * q + 1];
      for (int c = 0; c < 2; c++) {
        cp[2 * q + c] = pos;
        if (j > 0) { /* south: row node (i, j-1) */
          ri[pos] = 2 * (q - n) + c, v[pos++] = link(p, j - 1);
        }
        if (i > 0) { /* west */
          ri[pos] = 2 * (q - 1) + c, v[pos++] = link(p, i - 1);
        }
        ri[pos] = 2 * q;
        v[pos++] = c == 0 ? -(p->b + 1.0) + 2.0 * u * vv + dlap : u * u;
        ri[pos] = 2 * q + 1;
        v[pos++] = c == 0 ? p->b - 2.0 * u * vv : -u * u + dlap;
        if (i < n - 1) { /* east */
          ri[pos] = 2 * (q + 1) + c, v[pos++] = link(p, i + 1);
        }
        if (j < n - 1) { /* north */
          ri[pos] = 2 * (q + n) + c, v[pos++] = link(p, j + 1);
        }
      }
    }
  }
  cp[2 * n * n] = pos;
  return 0;
}

int main(int argc, char **argv)
{
  double rtol = 1e-6, atol = 1e-9, t_end = 2.0;
  int n_out = 4;
  bru p = {14, 1.0, 3.4, 0.002, 0.0};
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--n")) p.n = strtol(argv[i + 1], NULL, 10);
    else if (!strcmp(argv[i], "--rtol")) rtol = atof(argv[i + 1]);
    else if (!strcmp(argv[i], "--atol")) atol = atof(argv[i + 1]);
    else if (!strcmp(argv[i], "--t-end")) t_end = atof(argv[i + 1]);
    else if (!strcmp(argv[i], "--n-out")) n_out = atoi(argv[i + 1]);
    else {
      fprintf(stderr, "unknown option %s\n", argv[i]);
      return 64;
    }
  }
  if (p.n < 3) {
    fprintf(stderr, "--n must be at least 3\n");
    return 64;
  }
  const double h = 1.0 / (double)(p.n - 1);
  p.hh = h * h;
  const long n = p.n, neq = 2 * n * n;
  const long nnz = 2 * (2 * n * n + 2 * 2 * n * (n - 1)); /* 2 own rows + links, per column */
  SUNContext ctx;
  if (SUNContext_Create(NULL, &ctx) != 0) return 70;
  N_Vector y = N_VNew_Serial(neq, ctx);
  double *yd = N_VGetArrayPointer(y);
  for (long j = 0; j < n; j++) {
    const double cy = cos(BRU_PI * (double)j / (double)(n - 1));
    for (long i = 0; i < n; i++) {
      const double pert = 0.1 * cos(BRU_PI * (double)i / (double)(n - 1)) * cy;
      yd[2 * (i + n * j)] = p.a + pert;
      yd[2 * (i + n * j) + 1] = p.b / p.a + pert;
    }
  }
  void *mem = CVodeCreate(CV_BDF, ctx);
  SUNMatrix A = SUNSparseMatrix(neq, neq, nnz, CSC_MAT, ctx);
  SUNLinearSolver LS = SUNLinSol_KLU(y, A, ctx);
  if (!mem || !A || !LS || CVodeInit(mem, rhs, 0.0, y) || CVodeSStolerances(mem, rtol, atol) ||
      CVodeSetUserData(mem, &p) || CVodeSetMaxNumSteps(mem, 1000000000L) ||
      SUNLinSol_KLUSetOrdering(LS, 0) || CVodeSetLinearSolver(mem, LS, A) ||
      CVodeSetJacFn(mem, jac)) {
    fprintf(stderr, "CVODE setup failed\n");
    return 70;
  }
  double t = 0.0;
  const double t0 = now_seconds();
  for (int k = 1; k <= n_out; k++) {
    if (CVode(mem, t_end * k / n_out, y, &t, CV_NORMAL) < 0) {
      fprintf(stderr, "CVode failed at t=%g\n", t);
      return 10;
    }
  }
  const double wall = now_seconds() - t0;
  long v[8] = {0};
  CVodeGetNumSteps(mem, &v[0]);
  CVodeGetNumErrTestFails(mem, &v[1]);
  CVodeGetNumRhsEvals(mem, &v[2]);
  CVodeGetNumJacEvals(mem, &v[3]);
  CVodeGetNumLinSolvSetups(mem, &v[4]);
  CVodeGetNumNonlinSolvIters(mem, &v[5]);
  CVodeGetNumNonlinSolvConvFails(mem, &v[6]);
  CVodeGetNumLinRhsEvals(mem, &v[7]);
  double last_h = 0.0;
  CVodeGetLastStep(mem, &last_h);
  printf("{\"n\": %ld, \"steps\": %ld, \"failed_steps\": %ld, \"rhs_evals\": %ld, "
         "\"jac_evals\": %ld, \"lin_setups\": %ld, \"newton_iters\": %ld, \"newton_fails\": %ld, "
         "\"rhs_evals_dq\": %ld, \"y_max\": %.17g, \"last_h\": %.17g, \"wall_time\": %.9f}\n",
         neq, v[0], v[1], v[2] + v[7], v[3], v[4], v[5], v[6], v[7], N_VMaxNorm(y), last_h, wall);
  SUNLinSolFree(LS);
  SUNMatDestroy(A);
  N_VDestroy(y);
  CVodeFree(&mem);
  SUNContext_Free(&ctx);
  return 0;
}

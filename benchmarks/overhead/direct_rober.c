/* benchmarks/overhead/direct_rober.c: hand-written CVODE program for ROBER with data/rober.yaml's settings (the direct-SUNDIALS peer of `stiffkit run data/rober.yaml`) */
/*
 * Robertson's kinetics, k1 = 0.04, k2 = 3e7, k3 = 1e4, y(0) = (1, 0, 0),
 * the right-hand side and the analytic CSC Jacobian written in the same
 * operation order as stiffkit's problem library (src/models/problems.c).
 * CVODE BDF, rtol 1e-8, atol 1e-14 (scalar), KLU with the AMD ordering
 * (what stiffkit's linsol.ordering=auto picks below n = 1000), max steps
 * unlimited, CV_NORMAL to the output times t_end k / n_out, k = 1..n_out
 * (data/rober.yaml with solver.t_end=40, as run_overhead.sh runs it; output.n_times 4).
 * Packaged N_Vector kernels.
 * Prints one JSON object: counters as CVodeGet* report them, the last step
 * size and the wall time of the CVode calls.
 *
 * Usage: direct_rober [--rtol R] [--atol A] [--t-end T] [--n-out K] [--reps R]
 * (--reps: integrate R times from scratch, report the fastest wall time)
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_sparse.h>

static double now_seconds(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int rhs(realtype t, N_Vector yv, N_Vector fv, void *ud)
{
  const double k1 = 0.04, k2 = 3e7, k3 = 1e4;
  (void)t;
  (void)ud;
  const double *y = N_VGetArrayPointer(yv);
  double *f = N_VGetArrayPointer(fv);
  f[0] = -k1 * y[0] + k3 * y[1] * y[2];
  f[1] = k1 * y[0] - k3 * y[1] * y[2] - k2 * y[1] * y[1];
  f[2] = k2 * y[1] * y[1];
  return 0;
}

static int jac(realtype t, N_Vector yv, N_Vector fy, SUNMatrix J, void *ud, N_Vector t1,
               N_Vector t2, N_Vector t3)
{
  const double k1 = 0.04, k2 = 3e7, k3 = 1e4;
  (void)t, (void)fy, (void)ud, (void)t1, (void)t2, (void)t3;
  const double *y = N_VGetArrayPointer(yv);
  static const sunindextype colptr[] = {0, 2, 5, 7};
  static const sunindextype rowind[] = {0, 1, 0, 1, 2, 0, 1};
  memcpy(SUNSparseMatrix_IndexPointers(J), colptr, sizeof colptr);
  memcpy(SUNSparseMatrix_IndexValues(J), rowind, sizeof rowind);
  double *v = SUNSparseMatrix_Data(J);
  v[0] = -k1;
  v[1] = k1;
  v[2] = k3 * y[2];
  v[3] = -k3 * y[2] - 2.0 * k2 * y[1];
  v[4] = 2.0 * k2 * y[1];
  v[5] = k3 * y[1];
  v[6] = -k3 * y[1];
  return 0;
}

int main(int argc, char **argv)
{
  double rtol = 1e-8, atol = 1e-14, t_end = 40.0;
  int n_out = 4, reps = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--rtol")) rtol = atof(argv[i + 1]);
    else if (!strcmp(argv[i], "--atol")) atol = atof(argv[i + 1]);
    else if (!strcmp(argv[i], "--t-end")) t_end = atof(argv[i + 1]);
    else if (!strcmp(argv[i], "--n-out")) n_out = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--reps")) reps = atoi(argv[i + 1]);
    else {
      fprintf(stderr, "unknown option %s\n", argv[i]);
      return 64;
    }
  }
  SUNContext ctx;
  if (SUNContext_Create(NULL, &ctx) != 0) return 70;
  double best = 1e300, y_end[3] = {0, 0, 0}, last_h = 0.0;
  long v[8] = {0};
  for (int r = 0; r < reps; r++) {
    N_Vector y = N_VNew_Serial(3, ctx);
    double *yd = N_VGetArrayPointer(y);
    yd[0] = 1.0, yd[1] = 0.0, yd[2] = 0.0;
    void *mem = CVodeCreate(CV_BDF, ctx);
    SUNMatrix A = SUNSparseMatrix(3, 3, 7, CSC_MAT, ctx);
    SUNLinearSolver LS = SUNLinSol_KLU(y, A, ctx);
    if (!mem || !A || !LS || CVodeInit(mem, rhs, 0.0, y) || CVodeSStolerances(mem, rtol, atol) ||
        CVodeSetMaxNumSteps(mem, 1000000000L) || SUNLinSol_KLUSetOrdering(LS, 0) ||
        CVodeSetLinearSolver(mem, LS, A) || CVodeSetJacFn(mem, jac)) {
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
    best = wall < best ? wall : best;
    CVodeGetNumSteps(mem, &v[0]);
    CVodeGetNumErrTestFails(mem, &v[1]);
    CVodeGetNumRhsEvals(mem, &v[2]);
    CVodeGetNumJacEvals(mem, &v[3]);
    CVodeGetNumLinSolvSetups(mem, &v[4]);
    CVodeGetNumNonlinSolvIters(mem, &v[5]);
    CVodeGetNumNonlinSolvConvFails(mem, &v[6]);
    CVodeGetNumLinRhsEvals(mem, &v[7]);
    CVodeGetLastStep(mem, &last_h);
    memcpy(y_end, yd, sizeof y_end);
    SUNLinSolFree(LS);
    SUNMatDestroy(A);
    N_VDestroy(y);
    CVodeFree(&mem);
  }
  printf("{\"n\": 3, \"steps\": %ld, \"failed_steps\": %ld, \"rhs_evals\": %ld, "
         "\"jac_evals\": %ld, \"lin_setups\": %ld, \"newton_iters\": %ld, \"newton_fails\": %ld, "
         "\"rhs_evals_dq\": %ld, \"y_end\": [%.17g, %.17g, %.17g], \"last_h\": %.17g, \"wall_time\": %.9f}\n",
         v[0], v[1], v[2] + v[7], v[3], v[4], v[5], v[6], v[7], y_end[0], y_end[1], y_end[2],
         last_h, best);
  SUNContext_Free(&ctx);
  return 0;
}

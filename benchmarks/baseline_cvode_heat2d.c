/* benchmarks/baseline_cvode_heat2d.c: hand-written CVODE program for the 2D heat benchmark (the "direct SUNDIALS" peer of stiffkit) */
/*
 * u_t = k (u_xx + u_yy) on the unit square, k = 1, u = 0 on the boundary,
 * N x N unknowns at x_i = (i+1) h, y_j = (j+1) h, h = 1/(N+1),
 * idx = i + N*j (x fastest). Per node, in this operation order:
 *   ydot = (k*(uE-u) - k*(u-uW))/(h*h) + (k*(uN-u) - k*(u-uS))/(h*h)
 * u(x,y,0) = sin(pi x) sin(pi y); exact u = exp(-2 pi^2 k t) sin(pi x) sin(pi y).
 * --ic poly starts from 16 x(1-x) y(1-y), --ic one from 1 at every interior
 * node (the all-mode starts; their errors are computed by the caller from the
 * state written with --state-out, benchmarks/scaling/semidiscrete_error.py).
 *
 * CVODE BDF, rtol/atol scalar, default everything else, max steps 10^6,
 * integrated with CV_NORMAL to t = 0.01, 0.02, ..., 0.1. Linear solver:
 *   spgmr: SPGMR, left preconditioning with P = (I - gamma Jx)(I - gamma Jy)
 *          (line tridiagonal / ADI, Thomas factors stored per node), DQ J*v;
 *   klu:   CSC sparse Jacobian (pattern written once, values per call) + KLU.
 * Uses Debian's plain serial N_Vector ops. Prints one JSON object on stdout.
 *
 * Usage: baseline_cvode_heat2d N [--rtol R] [--atol A] [--linsol spgmr|klu]
 *                              [--klu-ordering amd|colamd] [--maxl M] [--eps-lin E]
 *                              [--ic sin|poly|one] [--state-out FILE]
 * (--state-out: the final state as N*N raw doubles in index order. --klu-ordering: KLU's fill-reducing ordering; without it SUNLinSol_KLU's
 * default, COLAMD, is used. --maxl, --eps-lin: SPGMR's Krylov subspace size
 * and CVODE's linear tolerance factor (CVodeSetEpsLin); without them
 * SUNDIALS' defaults, 5 and 0.05.)
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunlinsol/sunlinsol_spgmr.h>
#include <sunmatrix/sunmatrix_sparse.h>

#define HEAT_PI 3.14159265358979323846

typedef struct {
  sunindextype nx;   /* N: unknowns per direction */
  sunindextype n;    /* N*N */
  double k;          /* conductivity */
  double h;          /* grid spacing */
  double *zero_row;  /* N zeros: the Dirichlet neighbours of the first/last row */
  /* ADI preconditioner: Thomas factors per node and direction */
  double *xm, *xr;   /* multiplier and pivot reciprocal of one line (all x- and y-lines */
                     /* are alike for constant k and equal spacing) */
  double pup;        /* super-diagonal -gamma k/h^2 of the last psetup */
  int pattern_done;  /* KLU: CSC pattern written */
} heat2d;

static double now_seconds(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* x_i = (i+1) h = (i+1)/(N+1), computed with a single rounding */
static double node_x(sunindextype i, sunindextype nx)
{
  return (double)(i + 1) / (double)(nx + 1);
}

static void die(const char *what, int flag)
{
  fprintf(stderr, "baseline_cvode_heat2d: %s failed (flag %d)\n", what, flag);
  exit(1);
}

/* ---- right-hand side -------------------------------------------------- */

static int heat_rhs(sunrealtype t, N_Vector yv, N_Vector ydotv, void *user_data)
{
  const heat2d *p = user_data;
  const sunindextype nx = p->nx;
  const double k = p->k, h = p->h;
  const double *u = N_VGetArrayPointer(yv);
  double *f = N_VGetArrayPointer(ydotv);
  (void)t;
  for (sunindextype j = 0; j < nx; j++) {
    const double *row = u + j * nx;
    const double *rs = (j > 0) ? row - nx : p->zero_row;      /* south: y_{j-1} */
    const double *rn = (j < nx - 1) ? row + nx : p->zero_row; /* north: y_{j+1} */
    double *fr = f + j * nx;
    if (nx == 1) {
      const double uc = row[0];
      fr[0] = (k * (0.0 - uc) - k * (uc - 0.0)) / (h * h) +
              (k * (rn[0] - uc) - k * (uc - rs[0])) / (h * h);
      continue;
    }
    {
      const double uc = row[0];
      fr[0] = (k * (row[1] - uc) - k * (uc - 0.0)) / (h * h) +
              (k * (rn[0] - uc) - k * (uc - rs[0])) / (h * h);
    }
    for (sunindextype i = 1; i < nx - 1; i++) {
      const double uc = row[i];
      fr[i] = (k * (row[i + 1] - uc) - k * (uc - row[i - 1])) / (h * h) +
              (k * (rn[i] - uc) - k * (uc - rs[i])) / (h * h);
    }
    {
      const sunindextype i = nx - 1;
      const double uc = row[i];
      fr[i] = (k * (0.0 - uc) - k * (uc - row[i - 1])) / (h * h) +
              (k * (rn[i] - uc) - k * (uc - rs[i])) / (h * h);
    }
  }
  return 0;
}

/* ---- ADI / line-tridiagonal preconditioner ------------------------------ */

/* Thomas LU of tridiag(lo, d, up) along one line of length m starting at
 * node `start` with node stride `stride`: mult[i] = lo/piv[i-1],
 * piv[i] = d - mult[i]*up, stored as rpiv[i] = 1/piv[i]. */
static void thomas_factor(sunindextype m, sunindextype start, sunindextype stride, double lo,
                          double d, double up, double *mult, double *rpiv)
{
  double piv = d;
  mult[start] = 0.0;
  rpiv[start] = 1.0 / piv;
  for (sunindextype s = 1; s < m; s++) {
    const sunindextype q = start + s * stride;
    const double mu = lo * rpiv[q - stride];
    piv = d - mu * up;
    mult[q] = mu;
    rpiv[q] = 1.0 / piv;
  }
}

static int heat_psetup(sunrealtype t, N_Vector y, N_Vector fy, sunbooleantype jok,
                       sunbooleantype *jcurPtr, sunrealtype gamma, void *user_data)
{
  heat2d *p = user_data;
  const sunindextype nx = p->nx;
  const double c = p->k / (p->h * p->h); /* off-diagonal of the 1D Jacobian */
  /* I - gamma Jx: diagonal 1 + 2 gamma c, off-diagonals -gamma c (same for y) */
  const double d = 1.0 - gamma * (-c - c);
  const double off = -gamma * c;
  (void)t; (void)y; (void)fy;
  thomas_factor(nx, 0, 1, off, d, off, p->xm, p->xr); /* the one line all lines share */
  p->pup = off;
  *jcurPtr = jok ? SUNFALSE : SUNTRUE;
  return 0;
}

static int heat_psolve(sunrealtype t, N_Vector y, N_Vector fy, N_Vector r, N_Vector z,
                       sunrealtype gamma, sunrealtype delta, int lr, void *user_data)
{
  const heat2d *p = user_data;
  const sunindextype nx = p->nx;
  const double up = p->pup;
  const double *rr = N_VGetArrayPointer(r);
  double *zz = N_VGetArrayPointer(z);
  (void)t; (void)y; (void)fy; (void)gamma; (void)delta; (void)lr;
  /* x-lines: (I - gamma Jx) w = r, one contiguous row at a time */
  for (sunindextype j = 0; j < nx; j++) {
    const sunindextype o = j * nx;
    const double *m = p->xm, *rp = p->xr, *b = rr + o;
    double *w = zz + o;
    w[0] = b[0];
    for (sunindextype i = 1; i < nx; i++) w[i] = b[i] - m[i] * w[i - 1];
    w[nx - 1] *= rp[nx - 1];
    for (sunindextype i = nx - 2; i >= 0; i--) w[i] = (w[i] - up * w[i + 1]) * rp[i];
  }
  /* y-lines: (I - gamma Jy) z = w, all lines at once, sweeping rows */
  for (sunindextype j = 1; j < nx; j++) {
    double *w = zz + j * nx;
    const double *wp = w - nx, m = p->xm[j];
    for (sunindextype i = 0; i < nx; i++) w[i] -= m * wp[i];
  }
  {
    double *w = zz + (nx - 1) * nx;
    const double rp = p->xr[nx - 1];
    for (sunindextype i = 0; i < nx; i++) w[i] *= rp;
  }
  for (sunindextype j = nx - 2; j >= 0; j--) {
    double *w = zz + j * nx;
    const double *wn = w + nx, rp = p->xr[j];
    for (sunindextype i = 0; i < nx; i++) w[i] = (w[i] - up * wn[i]) * rp;
  }
  return 0;
}

/* ---- sparse Jacobian (KLU) --------------------------------------------- */

static int heat_jac(sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix J, void *user_data,
                    N_Vector t1, N_Vector t2, N_Vector t3)
{
  heat2d *p = user_data;
  const sunindextype nx = p->nx, n = p->n;
  const double c = p->k / (p->h * p->h);
  const double diag = (-p->k - p->k) / (p->h * p->h) + (-p->k - p->k) / (p->h * p->h);
  sunindextype *colptr = SUNSparseMatrix_IndexPointers(J);
  sunindextype *rowind = SUNSparseMatrix_IndexValues(J);
  double *val = SUNSparseMatrix_Data(J);
  (void)t; (void)y; (void)fy; (void)t1; (void)t2; (void)t3;
  if (!p->pattern_done) { /* column q holds rows q-N, q-1, q, q+1, q+N (sorted) */
    sunindextype nz = 0;
    for (sunindextype q = 0; q < n; q++) {
      const sunindextype i = q % nx, j = q / nx;
      colptr[q] = nz;
      if (j > 0) rowind[nz++] = q - nx;
      if (i > 0) rowind[nz++] = q - 1;
      rowind[nz++] = q;
      if (i < nx - 1) rowind[nz++] = q + 1;
      if (j < nx - 1) rowind[nz++] = q + nx;
    }
    colptr[n] = nz;
    p->pattern_done = 1;
  }
  for (sunindextype q = 0; q < n; q++)
    for (sunindextype e = colptr[q]; e < colptr[q + 1]; e++)
      val[e] = (rowind[e] == q) ? diag : c;
  return 0;
}

/* ---- driver ------------------------------------------------------------- */

static void usage(void)
{
  fprintf(stderr, "usage: baseline_cvode_heat2d N [--rtol R] [--atol A] [--linsol spgmr|klu]"
                  " [--klu-ordering amd|colamd] [--maxl M] [--eps-lin E]"
                  " [--ic sin|poly|one] [--state-out FILE]\n");
  exit(64);
}

int main(int argc, char **argv)
{
  if (argc < 2) usage();
  char *end = NULL;
  const long nxl = strtol(argv[1], &end, 10);
  if (*end != '\0' || nxl < 1 || nxl > 100000) usage();
  double rtol = 1e-6, atol = 1e-9;
  int use_klu = 0;
  int klu_ordering = -1; /* -1: SUNLinSol_KLU default; 0: AMD; 1: COLAMD */
  int maxl = 0;          /* 0: SUNDIALS' default (5) */
  double eps_lin = 0.0;  /* 0: CVODE's default (0.05) */
  const char *ic = "sin";
  const char *state_out = NULL;
  for (int a = 2; a < argc; a++) {
    if (strcmp(argv[a], "--rtol") == 0 && a + 1 < argc) {
      rtol = strtod(argv[++a], NULL);
    } else if (strcmp(argv[a], "--atol") == 0 && a + 1 < argc) {
      atol = strtod(argv[++a], NULL);
    } else if (strcmp(argv[a], "--linsol") == 0 && a + 1 < argc) {
      a++;
      if (strcmp(argv[a], "klu") == 0) use_klu = 1;
      else if (strcmp(argv[a], "spgmr") == 0) use_klu = 0;
      else usage();
    } else if (strcmp(argv[a], "--maxl") == 0 && a + 1 < argc) {
      maxl = atoi(argv[++a]);
      if (maxl < 0) usage();
    } else if (strcmp(argv[a], "--eps-lin") == 0 && a + 1 < argc) {
      eps_lin = strtod(argv[++a], NULL);
      if (!(eps_lin >= 0)) usage();
    } else if (strcmp(argv[a], "--ic") == 0 && a + 1 < argc) {
      ic = argv[++a];
      if (strcmp(ic, "sin") && strcmp(ic, "poly") && strcmp(ic, "one")) usage();
    } else if (strcmp(argv[a], "--state-out") == 0 && a + 1 < argc) {
      state_out = argv[++a];
    } else if (strcmp(argv[a], "--klu-ordering") == 0 && a + 1 < argc) {
      a++;
      if (strcmp(argv[a], "amd") == 0) klu_ordering = 0;
      else if (strcmp(argv[a], "colamd") == 0) klu_ordering = 1;
      else usage();
    } else {
      usage();
    }
  }

  heat2d p;
  memset(&p, 0, sizeof p);
  p.nx = (sunindextype)nxl;
  p.n = p.nx * p.nx;
  p.k = 1.0;
  p.h = 1.0 / (double)(p.nx + 1);
  p.zero_row = calloc((size_t)p.nx, sizeof(double));
  if (!p.zero_row) die("calloc", 0);
  if (!use_klu) {
    p.xm = malloc((size_t)p.nx * sizeof(double));
    p.xr = malloc((size_t)p.nx * sizeof(double));
    if (!p.xm || !p.xr) die("malloc", 0);
  }

  SUNContext sunctx = NULL;
  int flag = SUNContext_Create(NULL, &sunctx);
  if (flag) die("SUNContext_Create", flag);
  N_Vector y = N_VNew_Serial(p.n, sunctx);
  if (!y) die("N_VNew_Serial", 0);
  double *u = N_VGetArrayPointer(y);
  for (sunindextype j = 0; j < p.nx; j++)
    for (sunindextype i = 0; i < p.nx; i++) {
      const double x = node_x(i, p.nx), yy = node_x(j, p.nx);
      u[i + p.nx * j] = !strcmp(ic, "one")    ? 1.0
                        : !strcmp(ic, "poly") ? 16.0 * x * (1.0 - x) * yy * (1.0 - yy)
                                              : sin(HEAT_PI * x) * sin(HEAT_PI * yy);
    }

  void *mem = CVodeCreate(CV_BDF, sunctx);
  if (!mem) die("CVodeCreate", 0);
  if ((flag = CVodeInit(mem, heat_rhs, 0.0, y))) die("CVodeInit", flag);
  if ((flag = CVodeSetUserData(mem, &p))) die("CVodeSetUserData", flag);
  if ((flag = CVodeSStolerances(mem, rtol, atol))) die("CVodeSStolerances", flag);
  if ((flag = CVodeSetMaxNumSteps(mem, 1000000L))) die("CVodeSetMaxNumSteps", flag);

  SUNMatrix A = NULL;
  SUNLinearSolver LS = NULL;
  if (use_klu) {
    const sunindextype nnz = 5 * p.n - 4 * p.nx;
    A = SUNSparseMatrix(p.n, p.n, nnz, CSC_MAT, sunctx);
    if (!A) die("SUNSparseMatrix", 0);
    LS = SUNLinSol_KLU(y, A, sunctx);
    if (!LS) die("SUNLinSol_KLU", 0);
    if (klu_ordering >= 0 && (flag = SUNLinSol_KLUSetOrdering(LS, klu_ordering)))
      die("SUNLinSol_KLUSetOrdering", flag);
    if ((flag = CVodeSetLinearSolver(mem, LS, A))) die("CVodeSetLinearSolver", flag);
    if ((flag = CVodeSetJacFn(mem, heat_jac))) die("CVodeSetJacFn", flag);
  } else {
    LS = SUNLinSol_SPGMR(y, SUN_PREC_LEFT, maxl, sunctx);
    if (!LS) die("SUNLinSol_SPGMR", 0);
    if ((flag = CVodeSetLinearSolver(mem, LS, NULL))) die("CVodeSetLinearSolver", flag);
    if ((flag = CVodeSetEpsLin(mem, eps_lin))) die("CVodeSetEpsLin", flag);
    if ((flag = CVodeSetPreconditioner(mem, heat_psetup, heat_psolve)))
      die("CVodeSetPreconditioner", flag);
  }

  /* ---- timed integration ---- */
  const int n_out = 10;
  const double t_end = 0.1;
  double t = 0.0;
  const double t0 = now_seconds();
  for (int o = 1; o <= n_out; o++) {
    const double tout = t_end * (double)o / (double)n_out;
    flag = CVode(mem, tout, y, &t, CV_NORMAL);
    if (flag < 0) die("CVode", flag);
  }
  const double wall = now_seconds() - t0;

  long nst = 0, netf = 0, nfe = 0, nfels = 0, nje = 0, nsetups = 0, nni = 0, nncf = 0;
  long nli = 0, nlcf = 0, npe = 0, nps = 0;
  int qlast = 0;
  sunrealtype hlast = 0.0;
  CVodeGetNumSteps(mem, &nst);
  CVodeGetNumErrTestFails(mem, &netf);
  CVodeGetNumRhsEvals(mem, &nfe);
  CVodeGetNumLinRhsEvals(mem, &nfels);
  CVodeGetNumJacEvals(mem, &nje);
  CVodeGetNumLinSolvSetups(mem, &nsetups);
  CVodeGetNumNonlinSolvIters(mem, &nni);
  CVodeGetNumNonlinSolvConvFails(mem, &nncf);
  CVodeGetNumLinIters(mem, &nli);
  CVodeGetNumLinConvFails(mem, &nlcf);
  CVodeGetLastOrder(mem, &qlast);
  CVodeGetLastStep(mem, &hlast);
  CVodeGetNumPrecEvals(mem, &npe);
  /* stiffkit counts every preconditioner setup call (one per linear solver
   * setup), CVodeGetNumPrecEvals only those with jok false: report the same */
  if (!use_klu) {
    npe = nsetups;
  }
  CVodeGetNumPrecSolves(mem, &nps);

  /* errors against the exact solution at t */
  const double decay = exp(-2.0 * HEAT_PI * HEAT_PI * p.k * t);
  double emax = 0.0, esq = 0.0;
  for (sunindextype j = 0; j < p.nx; j++)
    for (sunindextype i = 0; i < p.nx; i++) {
      const double ex = decay * sin(HEAT_PI * node_x(i, p.nx)) *
                        sin(HEAT_PI * node_x(j, p.nx));
      const double e = fabs(u[i + p.nx * j] - ex);
      if (e > emax) emax = e;
      esq += e * e;
    }
  const double erms = sqrt(esq / (double)p.n);
  const int has_exact = !strcmp(ic, "sin");
  if (state_out) {
    FILE *f = fopen(state_out, "wb");
    if (!f || fwrite(u, sizeof(double), (size_t)p.n, f) != (size_t)p.n || fclose(f) != 0)
      die("writing --state-out", 0);
  }

  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  const char *ordering = !use_klu            ? "none"
                         : klu_ordering == 0 ? "amd"
                         : klu_ordering == 1 ? "colamd"
                                             : "default";
  printf("{\"n\": %lld, \"linsol\": \"%s\", \"ordering\": \"%s\", ", (long long)p.n,
         use_klu ? "klu" : "spgmr", ordering);
  printf("\"steps\": %ld, \"failed_steps\": %ld, \"rhs_evals\": %ld, \"rhs_evals_dq\": %ld, ",
         nst, netf, nfe, nfels);
  printf("\"jac_evals\": %ld, \"lin_setups\": %ld, \"newton_iters\": %ld, "
         "\"newton_fails\": %ld, \"lin_iters\": %ld, \"lin_conv_fails\": %ld, "
         "\"prec_setups\": %ld, \"prec_solves\": %ld, \"last_order\": %d, \"last_h\": %.6e, ",
         nje, nsetups, nni, nncf, nli, nlcf, npe, nps, qlast, hlast);
  printf("\"t\": %.17g, \"wall_time\": %.6f, \"ic\": \"%s\", ", t, wall, ic);
  if (has_exact) printf("\"max_err\": %.10e, \"rms_err\": %.10e, ", emax, erms);
  printf("\"peak_rss_mib\": %.1f}\n", (double)ru.ru_maxrss / 1024.0);

  SUNLinSolFree(LS);
  if (A) SUNMatDestroy(A);
  CVodeFree(&mem);
  N_VDestroy(y);
  SUNContext_Free(&sunctx);
  free(p.zero_row);
  free(p.xm); free(p.xr);
  return 0;
}

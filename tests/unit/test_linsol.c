/* tests/unit/test_linsol.c: UMFPACK SUNLinearSolver, SUNLinSol_KLU with AMD and with the METIS nested-dissection user ordering */
/*
 * The matrix is one implicit (backward Euler / BDF) step of the 2D heat
 * equation on the unit square with homogeneous Dirichlet boundaries:
 *   A = I - g L,   (L u)_{ij} = (u_{i-1,j} + u_{i+1,j} + u_{i,j-1} + u_{i,j+1} - 4 u_{ij}) / h^2
 * on an N x N grid of interior nodes, h = 1/(N+1), g = 1e-3, unknown
 * k = i + N j. A is symmetric, strictly diagonally dominant in every row
 * with a boundary neighbour and irreducibly diagonally dominant overall, so
 * it is nonsingular (condition number about 1 + 8 g / h^2). With
 * x_true_k = sin(k), b = A x_true, each solver must return x with
 * ||x - x_true||_inf / ||x_true||_inf < 1e-10.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_sparse.h>
#include <umfpack.h>

#include "linsol/linsol.h"
#include "test.h"

#define G_STEP 1e-3
#define TOL_REL 1e-10

/* Entries of column c of the N x N grid matrix I - g L, rows ascending,
 * row indices shifted by `off`. Returns the count (<= 5). */
static int grid_column(int64_t N, double g, int64_t c, int64_t off, int64_t *rows, double *vals)
{
  double h = 1.0 / (double)(N + 1);
  double a = g / (h * h);
  int64_t i = c % N, j = c / N;
  int cnt = 0;
  if (j > 0) {
    rows[cnt] = off + c - N;
    vals[cnt++] = -a;
  }
  if (i > 0) {
    rows[cnt] = off + c - 1;
    vals[cnt++] = -a;
  }
  rows[cnt] = off + c;
  vals[cnt++] = 1.0 + 4.0 * a;
  if (i < N - 1) {
    rows[cnt] = off + c + 1;
    vals[cnt++] = -a;
  }
  if (j < N - 1) {
    rows[cnt] = off + c + N;
    vals[cnt++] = -a;
  }
  return cnt;
}

/* The N^2 x N^2 grid matrix as a CSC SUNSparseMatrix. */
static SUNMatrix make_grid(int64_t N, double g, SUNContext sunctx)
{
  int64_t n = N * N, c, p = 0;
  SUNMatrix A = SUNSparseMatrix(n, n, 5 * n, CSC_MAT, sunctx);
  sunindextype *cp, *ri;
  double *v;
  if (!A) {
    return NULL;
  }
  cp = SUNSparseMatrix_IndexPointers(A);
  ri = SUNSparseMatrix_IndexValues(A);
  v = SUNSparseMatrix_Data(A);
  for (c = 0; c < n; c++) {
    cp[c] = p;
    p += grid_column(N, g, c, 0, ri + p, v + p);
  }
  cp[n] = p;
  return A;
}

/* Block upper triangular test matrix
 *   [ G1  C   S ]
 *   [ 0   G2  0 ]
 *   [ 0   0   D ]
 * G1, G2 grid matrices (N1^2, N2^2), C sparse one-way coupling, D a
 * diagonal of `nsing` entries (each a 1 x 1 BTF block) coupled upward by S.
 * BTF splits it into 2 + nsing strongly connected blocks. */
static SUNMatrix make_btf_matrix(int64_t N1, int64_t N2, int64_t nsing, double g,
                                 SUNContext sunctx)
{
  int64_t n1 = N1 * N1, n2 = N2 * N2, n = n1 + n2 + nsing, c, p = 0;
  SUNMatrix A = SUNSparseMatrix(n, n, 5 * n1 + 6 * n2 + 2 * nsing, CSC_MAT, sunctx);
  sunindextype *cp, *ri;
  double *v;
  if (!A) {
    return NULL;
  }
  cp = SUNSparseMatrix_IndexPointers(A);
  ri = SUNSparseMatrix_IndexValues(A);
  v = SUNSparseMatrix_Data(A);
  for (c = 0; c < n1; c++) {
    cp[c] = p;
    p += grid_column(N1, g, c, 0, ri + p, v + p);
  }
  for (c = 0; c < n2; c++) {
    cp[n1 + c] = p;
    if (c % 7 == 0) {
      ri[p] = (c * 13) % n1;
      v[p++] = -0.5;
    }
    p += grid_column(N2, g, c, n1, ri + p, v + p);
  }
  for (c = 0; c < nsing; c++) {
    cp[n1 + n2 + c] = p;
    ri[p] = (c * 31) % n1;
    v[p++] = 0.25;
    ri[p] = n1 + n2 + c;
    v[p++] = 2.0 + (double)c;
  }
  cp[n] = p;
  return A;
}

/* y = A x for a CSC matrix (independent of SUNDIALS' matvec). */
static void csc_matvec(SUNMatrix A, const double *x, double *y)
{
  int64_t n = SUNSparseMatrix_Columns(A), j, p;
  const sunindextype *cp = SUNSparseMatrix_IndexPointers(A);
  const sunindextype *ri = SUNSparseMatrix_IndexValues(A);
  const double *v = SUNSparseMatrix_Data(A);
  for (j = 0; j < SUNSparseMatrix_Rows(A); j++) {
    y[j] = 0.0;
  }
  for (j = 0; j < n; j++) {
    for (p = cp[j]; p < cp[j + 1]; p++) {
      y[ri[p]] += v[p] * x[j];
    }
  }
}

/* ||x - x_true||_inf / ||x_true||_inf with x_true_k = sin(k) */
static double rel_err(N_Vector x)
{
  const double *xd = N_VGetArrayPointer(x);
  int64_t n = N_VGetLength(x), k;
  double emax = 0.0, tmax = 0.0;
  for (k = 0; k < n; k++) {
    double t = sin((double)k);
    emax = fmax(emax, fabs(xd[k] - t));
    tmax = fmax(tmax, fabs(t));
  }
  return emax / tmax;
}

/* b = A x_true */
static void make_rhs(SUNMatrix A, N_Vector xt, N_Vector b)
{
  double *t = N_VGetArrayPointer(xt);
  int64_t n = N_VGetLength(xt), k;
  for (k = 0; k < n; k++) {
    t[k] = sin((double)k);
  }
  csc_matvec(A, t, N_VGetArrayPointer(b));
}

/* Set up and solve with S; return the relative error (or 1e300 on failure). */
static double setup_solve(SUNLinearSolver S, SUNMatrix A, N_Vector x, N_Vector b,
                          const char *what)
{
  int flag = SUNLinSolSetup(S, A);
  if (flag != SUNLS_SUCCESS) {
    fprintf(stderr, "%s: setup returned %d\n", what, flag);
    return 1e300;
  }
  N_VConst(0.0, x);
  flag = SUNLinSolSolve(S, A, x, b, 0.0);
  if (flag != SUNLS_SUCCESS) {
    fprintf(stderr, "%s: solve returned %d\n", what, flag);
    return 1e300;
  }
  return rel_err(x);
}

/* The UMFPACK solver through libstiffkit's loader (the UMFPACK module), or NULL. */
static SUNLinearSolver umfpack_solver(N_Vector x, SUNMatrix A, SUNContext sunctx)
{
  SUNLinearSolver S = NULL;
  const sk_status st = sk__sunlinsol_umfpack(NULL, x, A, sunctx, &S);
  CHECK(st == SK_OK ? S != NULL : S == NULL);
  return S;
}

static void test_umfpack(SUNContext sunctx)
{
  const int64_t N = 60, n = N * N;
  SUNMatrix A = make_grid(N, G_STEP, sunctx);
  SUNMatrix A2 = make_grid(N, 2.0 * G_STEP, sunctx);
  N_Vector x = N_VNew_Serial(n, sunctx), b = N_VClone(x), xt = N_VClone(x);
  SUNLinearSolver S;
  long int lrw = 0, liw = 0;
  double e;

  CHECK(A && A2 && x && b && xt);
  make_rhs(A, xt, b);
  S = umfpack_solver(x, A, sunctx);
  CHECK(S != NULL);
  CHECK(SUNLinSolGetType(S) == SUNLINEARSOLVER_DIRECT);
  CHECK(SUNLinSolGetID(S) == SUNLINEARSOLVER_CUSTOM);
  CHECK_EQ_INT(sk__sunlinsol_umfpack_factor_nnz(S), 0);
  CHECK_EQ_INT(SUNLinSolInitialize(S), SUNLS_SUCCESS);

  e = setup_solve(S, A, x, b, "umfpack");
  printf("umfpack N=%lld: rel err %.3e, nnz(L+U) %lld\n", (long long)N, e,
         (long long)sk__sunlinsol_umfpack_factor_nnz(S));
  CHECK(e < TOL_REL);
  CHECK_EQ_INT(sk__sunlinsol_umfpack_last_status(S), UMFPACK_OK);
  CHECK(sk__sunlinsol_umfpack_factor_nnz(S) > 2 * n);
  CHECK_EQ_INT(SUNLinSolLastFlag(S), SUNLS_SUCCESS);
  CHECK_EQ_INT(SUNLinSolSpace(S, &lrw, &liw), SUNLS_SUCCESS);
  CHECK(lrw >= 5 * n && liw >= n);

  /* new values, same pattern: numeric only (symbolic reused) */
  make_rhs(A2, xt, b);
  e = setup_solve(S, A2, x, b, "umfpack refactor");
  CHECK(e < TOL_REL);

  /* in place: x and b the same vector */
  N_VScale(1.0, b, x);
  CHECK_EQ_INT(SUNLinSolSolve(S, A2, x, x, 0.0), SUNLS_SUCCESS);
  CHECK(rel_err(x) < TOL_REL);

  /* wrong matrix kind is rejected, not crashed on */
  {
    SUNMatrix Ar = SUNSparseMatrix(n, n, 5 * n, CSR_MAT, sunctx);
    CHECK_EQ_INT(SUNLinSolSetup(S, Ar), SUNLS_ILL_INPUT);
    SUNLinearSolver R = NULL;
    CHECK_EQ_INT(sk__sunlinsol_umfpack(NULL, x, Ar, sunctx, &R), SK_ERR_NOMEM);
    CHECK(R == NULL);
    SUNMatDestroy(Ar);
  }
  /* not an UMFPACK solver */
  CHECK_EQ_INT(sk__sunlinsol_umfpack_factor_nnz(NULL), 0);
  CHECK_EQ_INT(sk__sunlinsol_umfpack_last_status(NULL), UMFPACK_ERROR_argument_missing);

  SUNLinSolFree(S);
  SUNMatDestroy(A);
  SUNMatDestroy(A2);
  N_VDestroy(x);
  N_VDestroy(b);
  N_VDestroy(xt);
}

/* A singular matrix: column 0 numerically zero (pattern kept), then
 * structurally empty (nnz changes), then the good matrix again. */
static void test_umfpack_singular(SUNContext sunctx)
{
  const int64_t N = 20, n = N * N;
  SUNMatrix A = make_grid(N, G_STEP, sunctx);
  SUNMatrix Z = SUNMatClone(A);
  SUNMatrix E = SUNSparseMatrix(n, n, 5 * n, CSC_MAT, sunctx);
  N_Vector x = N_VNew_Serial(n, sunctx), b = N_VClone(x), xt = N_VClone(x);
  SUNLinearSolver S = umfpack_solver(x, A, sunctx);
  sunindextype *cp, *ri, *ecp, *eri;
  double *v, *ev;
  int64_t j, p, q = 0;
  int flag;

  CHECK(S && Z && E);
  SUNMatCopy(A, Z);
  cp = SUNSparseMatrix_IndexPointers(Z);
  ri = SUNSparseMatrix_IndexValues(Z);
  v = SUNSparseMatrix_Data(Z);
  for (p = cp[0]; p < cp[1]; p++) {
    v[p] = 0.0;
  }
  CHECK_EQ_INT(SUNLinSolInitialize(S), SUNLS_SUCCESS);
  flag = SUNLinSolSetup(S, Z);
  CHECK_EQ_INT(flag, SUNLS_PACKAGE_FAIL_REC);
  CHECK_EQ_INT(sk__sunlinsol_umfpack_last_status(S), UMFPACK_WARNING_singular_matrix);
  CHECK(strcmp(sk__umfpack_status_name(sk__sunlinsol_umfpack_last_status(S)),
               "UMFPACK_WARNING_singular_matrix") == 0);
  CHECK_EQ_INT(SUNLinSolLastFlag(S), SUNLS_PACKAGE_FAIL_REC);

  /* structurally empty column 0 (and its row entries kept): nnz differs */
  ecp = SUNSparseMatrix_IndexPointers(E);
  eri = SUNSparseMatrix_IndexValues(E);
  ev = SUNSparseMatrix_Data(E);
  for (j = 0; j < n; j++) {
    ecp[j] = q;
    if (j == 0) {
      continue;
    }
    for (p = cp[j]; p < cp[j + 1]; p++) {
      eri[q] = ri[p];
      ev[q++] = v[p];
    }
  }
  ecp[n] = q;
  flag = SUNLinSolSetup(S, E);
  CHECK_EQ_INT(flag, SUNLS_PACKAGE_FAIL_REC);
  CHECK_EQ_INT(sk__sunlinsol_umfpack_last_status(S), UMFPACK_WARNING_singular_matrix);

  /* recovery: the nonsingular matrix (a new nnz again) factors and solves */
  make_rhs(A, xt, b);
  CHECK(setup_solve(S, A, x, b, "umfpack after singular") < TOL_REL);
  CHECK_EQ_INT(sk__sunlinsol_umfpack_last_status(S), UMFPACK_OK);

  CHECK(strcmp(sk__umfpack_status_name(UMFPACK_OK), "UMFPACK_OK") == 0);
  CHECK(strcmp(sk__umfpack_status_name(UMFPACK_ERROR_out_of_memory),
               "UMFPACK_ERROR_out_of_memory") == 0);
  CHECK(strcmp(sk__umfpack_status_name(12345), "UMFPACK_UNKNOWN_STATUS") == 0);

  SUNLinSolFree(S);
  SUNMatDestroy(A);
  SUNMatDestroy(Z);
  SUNMatDestroy(E);
  N_VDestroy(x);
  N_VDestroy(b);
  N_VDestroy(xt);
}

/* One KLU solve. metis: 0 AMD (ordering 0), 1 METIS ND. btf: KLU's btf flag.
 * Returns the relative error; *fill = nnz(L+U); *nblocks, *ordering from
 * the symbolic object; *lnz_est the symbolic nnz(L) estimate. */
static double klu_case(SUNMatrix A, int metis, int btf, SUNContext sunctx, int64_t *fill,
                       int64_t *nblocks, int64_t *ordering, double *lnz_est, int64_t *lnz)
{
  int64_t n = SUNSparseMatrix_Rows(A);
  N_Vector x = N_VNew_Serial(n, sunctx), b = N_VClone(x), xt = N_VClone(x);
  SUNLinearSolver S = SUNLinSol_KLU(x, A, sunctx);
  double e = 1e300;

  CHECK(S != NULL);
  if (!S) {
    return e;
  }
  make_rhs(A, xt, b);
  /* SUNLinSol_KLU's own default is COLAMD (SUNKLU_ORDERING_DEFAULT 1) */
  CHECK_EQ_INT(SUNLinSol_KLUSetOrdering(S, 0), SUNLS_SUCCESS);
  if (metis) {
    CHECK_EQ_INT(sk__klu_use_metis_nd(NULL, SUNLinSol_KLUGetCommon(S)), SK_OK);
  }
  SUNLinSol_KLUGetCommon(S)->btf = btf;
  CHECK_EQ_INT(SUNLinSolInitialize(S), SUNLS_SUCCESS);
  CHECK_EQ_INT(sk__klu_factor_nnz(S), 0);
  e = setup_solve(S, A, x, b, metis ? "klu metis" : "klu amd");
  *fill = sk__klu_factor_nnz(S);
  if (SUNLinSol_KLUGetSymbolic(S)) {
    *nblocks = SUNLinSol_KLUGetSymbolic(S)->nblocks;
    *ordering = SUNLinSol_KLUGetSymbolic(S)->ordering;
    *lnz_est = SUNLinSol_KLUGetSymbolic(S)->lnz;
  }
  if (SUNLinSol_KLUGetNumeric(S)) {
    *lnz = SUNLinSol_KLUGetNumeric(S)->lnz;
  }
  /* a second setup goes through klu_l_refactor with the same ordering */
  if (e < TOL_REL) {
    e = fmax(e, setup_solve(S, A, x, b, "klu refactor"));
  }
  SUNLinSolFree(S);
  N_VDestroy(x);
  N_VDestroy(b);
  N_VDestroy(xt);
  return e;
}

static void test_klu_grid(SUNContext sunctx)
{
  /* N = 200 (40000 unknowns): METIS ND fills less than AMD on the 2D
   * 5-point grid (measured: see the printed numbers). */
  const int64_t N = 200;
  SUNMatrix A = make_grid(N, G_STEP, sunctx);
  int64_t fill_amd = 0, fill_nd = 0, nb = 0, ord = -1, lnz = 0;
  double lnz_est = 0.0, e;

  CHECK(A != NULL);
  e = klu_case(A, 0, 1, sunctx, &fill_amd, &nb, &ord, &lnz_est, &lnz);
  printf("klu amd   N=%lld: rel err %.3e, nnz(L+U) %lld (%.2f per row), blocks %lld\n",
         (long long)N, e, (long long)fill_amd, (double)fill_amd / (double)(N * N), (long long)nb);
  CHECK(e < TOL_REL);
  CHECK_EQ_INT(ord, 0);
  CHECK_EQ_INT(nb, 1);
  /* symmetric pattern, diagonal pivots: L is the Cholesky pattern AMD predicts */
  CHECK_EQ_INT(lnz, (int64_t)lnz_est);

  e = klu_case(A, 1, 1, sunctx, &fill_nd, &nb, &ord, &lnz_est, &lnz);
  printf("klu metis N=%lld: rel err %.3e, nnz(L+U) %lld (%.2f per row), blocks %lld\n",
         (long long)N, e, (long long)fill_nd, (double)fill_nd / (double)(N * N), (long long)nb);
  CHECK(e < TOL_REL);
  CHECK_EQ_INT(ord, 3);
  CHECK_EQ_INT(nb, 1);
  /* the user ordering's exact Cholesky count is what KLU then produces */
  CHECK_EQ_INT(lnz, (int64_t)lnz_est);
  CHECK(fill_nd > 0 && fill_amd > 0);
  CHECK(fill_nd < fill_amd);
  SUNMatDestroy(A);
}

static void test_klu_btf(SUNContext sunctx)
{
  SUNMatrix A = make_btf_matrix(30, 17, 3, G_STEP, sunctx);
  int64_t fill = 0, nb = 0, ord = -1, lnz = 0;
  double lnz_est = 0.0, e;

  CHECK(A != NULL);
  /* BTF on: the ordering is called once per block larger than 3 x 3 */
  e = klu_case(A, 1, 1, sunctx, &fill, &nb, &ord, &lnz_est, &lnz);
  printf("klu metis btf: rel err %.3e, blocks %lld, nnz(L+U) %lld\n", e, (long long)nb,
         (long long)fill);
  CHECK(e < TOL_REL);
  CHECK_EQ_INT(nb, 5);
  CHECK_EQ_INT(ord, 3);
  CHECK(lnz_est > 0.0);
  CHECK_EQ_INT(lnz, (int64_t)lnz_est);

  /* BTF off: one call on the whole (unsymmetric) matrix */
  e = klu_case(A, 1, 0, sunctx, &fill, &nb, &ord, &lnz_est, &lnz);
  printf("klu metis no-btf: rel err %.3e, blocks %lld, nnz(L+U) %lld\n", e, (long long)nb,
         (long long)fill);
  CHECK(e < TOL_REL);
  CHECK_EQ_INT(nb, 1);
  CHECK(lnz_est > 0.0);
  SUNMatDestroy(A);
}

/* A diagonal matrix with BTF off: the ordering sees a graph without edges. */
static void test_klu_diagonal(SUNContext sunctx)
{
  const int64_t n = 50;
  SUNMatrix A = SUNSparseMatrix(n, n, n, CSC_MAT, sunctx);
  sunindextype *cp = SUNSparseMatrix_IndexPointers(A), *ri = SUNSparseMatrix_IndexValues(A);
  double *v = SUNSparseMatrix_Data(A);
  int64_t fill = 0, nb = 0, ord = -1, lnz = 0, k;
  double lnz_est = 0.0, e;

  for (k = 0; k < n; k++) {
    cp[k] = k;
    ri[k] = k;
    v[k] = 1.0 + (double)k;
  }
  cp[n] = n;
  e = klu_case(A, 1, 0, sunctx, &fill, &nb, &ord, &lnz_est, &lnz);
  CHECK(e < TOL_REL);
  CHECK_EQ_INT(fill, 2 * n);
  CHECK_EQ_INT((int64_t)lnz_est, n);
  SUNMatDestroy(A);
}

static void test_klu_misc(SUNContext sunctx)
{
  const int64_t N = 10, n = N * N;
  SUNMatrix A = make_grid(N, G_STEP, sunctx);
  SUNMatrix Z = SUNMatClone(A);
  N_Vector x = N_VNew_Serial(n, sunctx);
  SUNLinearSolver S = SUNLinSol_KLU(x, A, sunctx);
  SUNLinearSolver U = umfpack_solver(x, A, sunctx);
  sunindextype *cp;
  double *v;
  int64_t p;
  int flag;

  CHECK_EQ_INT(sk__klu_use_metis_nd(NULL, NULL), SK_ERR_ARG);
  CHECK_EQ_INT(sk__klu_factor_nnz(NULL), 0);
  CHECK_EQ_INT(sk__klu_factor_nnz(U), 0); /* not a KLU solver */
  CHECK(strcmp(sk__klu_status_name(KLU_OK), "KLU_OK") == 0);
  CHECK(strcmp(sk__klu_status_name(KLU_SINGULAR), "KLU_SINGULAR") == 0);
  CHECK(strcmp(sk__klu_status_name(KLU_OUT_OF_MEMORY), "KLU_OUT_OF_MEMORY") == 0);
  CHECK(strcmp(sk__klu_status_name(KLU_INVALID), "KLU_INVALID") == 0);
  CHECK(strcmp(sk__klu_status_name(KLU_TOO_LARGE), "KLU_TOO_LARGE") == 0);
  CHECK(strcmp(sk__klu_status_name(99), "KLU_UNKNOWN_STATUS") == 0);

  /* Behaviour of SUNLinSol_KLU (SUNDIALS 6.4.1) the backend must know: a
   * singular matrix at the first factorization is reported as
   * SUNLS_PACKAGE_FAIL_UNREC (klu_l_factor returns NULL), with
   * common.status KLU_SINGULAR. */
  SUNMatCopy(A, Z);
  cp = SUNSparseMatrix_IndexPointers(Z);
  v = SUNSparseMatrix_Data(Z);
  for (p = cp[0]; p < cp[1]; p++) {
    v[p] = 0.0;
  }
  CHECK_EQ_INT(sk__klu_use_metis_nd(NULL, SUNLinSol_KLUGetCommon(S)), SK_OK);
  SUNLinSolInitialize(S);
  flag = SUNLinSolSetup(S, Z);
  printf("SUNLinSol_KLU first setup on a singular matrix: flag %d, %s\n", flag,
         sk__klu_status_name((int)SUNLinSol_KLUGetCommon(S)->status));
  CHECK(flag != SUNLS_SUCCESS);
  CHECK_EQ_INT(SUNLinSol_KLUGetCommon(S)->status, KLU_SINGULAR);

  SUNLinSolFree(S);
  SUNLinSolFree(U);
  SUNMatDestroy(A);
  SUNMatDestroy(Z);
  N_VDestroy(x);
}

int main(void)
{
  SUNContext sunctx = NULL;
  if (SUNContext_Create(NULL, &sunctx) != 0) {
    fprintf(stderr, "SUNContext_Create failed\n");
    return 1;
  }
  test_umfpack(sunctx);
  test_umfpack_singular(sunctx);
  test_klu_grid(sunctx);
  test_klu_btf(sunctx);
  test_klu_diagonal(sunctx);
  test_klu_misc(sunctx);
  SUNContext_Free(&sunctx);
  TEST_RETURN();
}

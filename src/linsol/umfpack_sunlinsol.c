/* src/linsol/umfpack_sunlinsol.c: UMFPACK (umfpack_dl_*) as a direct SUNLinearSolver for CSC SUNSparseMatrix: the UMFPACK module's table */
#include <stdlib.h>
#include <string.h>

#include <umfpack.h>

#include "linsol/linsol.h"
#include "linsol/umfpack_module.h"

_Static_assert(sizeof(SuiteSparse_long) == sizeof(sunindextype),
               "UMFPACK's SuiteSparse_long must match sunindextype (64-bit SUNDIALS build)");

/* Solver state. `nnz_symbolic` and `n` describe the pattern the symbolic
 * object was computed for; `wi`/`w` are umfpack_dl_wsolve workspace (n and
 * 5n entries, enough for iterative refinement); `xcopy` holds b when the
 * caller solves in place (x == b). */
typedef struct {
  void *symbolic;
  void *numeric;
  double control[UMFPACK_CONTROL];
  double info[UMFPACK_INFO];
  SuiteSparse_long n;
  SuiteSparse_long nnz_symbolic;
  SuiteSparse_long *wi;
  double *w;
  double *xcopy;
  int last_flag;   /* SUNLS_* of the last operation */
  int last_status; /* UMFPACK_* of the last UMFPACK call */
} umf_content;

static umf_content *umf_get(SUNLinearSolver S);

static SUNLinearSolver_Type umf_gettype(SUNLinearSolver S)
{
  (void)S;
  return SUNLINEARSOLVER_DIRECT;
}

static SUNLinearSolver_ID umf_getid(SUNLinearSolver S)
{
  (void)S;
  return SUNLINEARSOLVER_CUSTOM;
}

/* SUNLS_* flag for an UMFPACK status of a factorization or solve. */
static int umf_flag_from_status(int status)
{
  if (status == UMFPACK_OK) {
    return SUNLS_SUCCESS;
  }
  if (status == UMFPACK_WARNING_singular_matrix) {
    return SUNLS_PACKAGE_FAIL_REC;
  }
  if (status > 0) {
    /* determinant under/overflow warnings: the factors are usable */
    return SUNLS_SUCCESS;
  }
  return SUNLS_PACKAGE_FAIL_UNREC;
}

static int umf_initialize(SUNLinearSolver S)
{
  umf_content *c = umf_get(S);
  if (!c) {
    return SUNLS_MEM_NULL;
  }
  umfpack_dl_defaults(c->control);
  c->last_flag = SUNLS_SUCCESS;
  return SUNLS_SUCCESS;
}

/* 1 when A is a square CSC sparse matrix of the solver's size. */
static int umf_matrix_ok(const umf_content *c, SUNMatrix A)
{
  if (!A || SUNMatGetID(A) != SUNMATRIX_SPARSE) {
    return 0;
  }
  if (SUNSparseMatrix_SparseType(A) != CSC_MAT) {
    return 0;
  }
  return SUNSparseMatrix_Rows(A) == c->n && SUNSparseMatrix_Columns(A) == c->n;
}

/* Symbolic analysis of A's pattern (values are not used). */
static int umf_symbolic(umf_content *c, const SuiteSparse_long *ap, const SuiteSparse_long *ai)
{
  if (c->numeric) {
    umfpack_dl_free_numeric(&c->numeric);
  }
  if (c->symbolic) {
    umfpack_dl_free_symbolic(&c->symbolic);
  }
  c->last_status =
      (int)umfpack_dl_symbolic(c->n, c->n, ap, ai, NULL, &c->symbolic, c->control, c->info);
  if (c->last_status != UMFPACK_OK) {
    if (c->symbolic) {
      umfpack_dl_free_symbolic(&c->symbolic);
    }
    c->nnz_symbolic = -1;
    return SUNLS_PACKAGE_FAIL_UNREC;
  }
  c->nnz_symbolic = ap[c->n];
  return SUNLS_SUCCESS;
}

static int umf_numeric(umf_content *c, const SuiteSparse_long *ap, const SuiteSparse_long *ai,
                       const double *ax)
{
  if (c->numeric) {
    umfpack_dl_free_numeric(&c->numeric);
  }
  c->last_status =
      (int)umfpack_dl_numeric(ap, ai, ax, c->symbolic, &c->numeric, c->control, c->info);
  return c->last_status;
}

static int umf_setup(SUNLinearSolver S, SUNMatrix A)
{
  umf_content *c = umf_get(S);
  const SuiteSparse_long *ap;
  const SuiteSparse_long *ai;
  const double *ax;
  int flag;
  int status;

  if (!c) {
    return SUNLS_MEM_NULL;
  }
  if (!umf_matrix_ok(c, A)) {
    c->last_flag = SUNLS_ILL_INPUT;
    return c->last_flag;
  }
  ap = (const SuiteSparse_long *)SUNSparseMatrix_IndexPointers(A);
  ai = (const SuiteSparse_long *)SUNSparseMatrix_IndexValues(A);
  ax = SUNSparseMatrix_Data(A);
  if (!ap || !ai || !ax) {
    c->last_flag = SUNLS_MEM_FAIL;
    return c->last_flag;
  }

  /* The pattern is fixed for the solver's life: analyze once, again only
   * when the number of stored entries changed. */
  if (!c->symbolic || c->nnz_symbolic != ap[c->n]) {
    flag = umf_symbolic(c, ap, ai);
    if (flag != SUNLS_SUCCESS) {
      c->last_flag = flag;
      return flag;
    }
  }
  status = umf_numeric(c, ap, ai, ax);
  if (status == UMFPACK_ERROR_different_pattern) {
    /* same nnz, different pattern: one fresh analysis, then retry */
    flag = umf_symbolic(c, ap, ai);
    if (flag != SUNLS_SUCCESS) {
      c->last_flag = flag;
      return flag;
    }
    status = umf_numeric(c, ap, ai, ax);
  }
  c->last_flag = umf_flag_from_status(status);
  return c->last_flag;
}

static int umf_solve(SUNLinearSolver S, SUNMatrix A, N_Vector x, N_Vector b, realtype tol)
{
  umf_content *c = umf_get(S);
  double *xd;
  const double *bd;
  int status;

  (void)tol;
  if (!c || !A || !x || !b) {
    return SUNLS_MEM_NULL;
  }
  if (!umf_matrix_ok(c, A)) {
    c->last_flag = SUNLS_ILL_INPUT;
    return c->last_flag;
  }
  if (!c->numeric) {
    c->last_flag = SUNLS_ILL_INPUT;
    return c->last_flag;
  }
  xd = N_VGetArrayPointer(x);
  bd = N_VGetArrayPointer(b);
  if (!xd || !bd) {
    c->last_flag = SUNLS_MEM_FAIL;
    return c->last_flag;
  }
  if (xd == bd) {
    /* UMFPACK needs X and B distinct */
    memcpy(c->xcopy, bd, (size_t)c->n * sizeof(double));
    bd = c->xcopy;
  }
  status = (int)umfpack_dl_wsolve(
      UMFPACK_A, (const SuiteSparse_long *)SUNSparseMatrix_IndexPointers(A),
      (const SuiteSparse_long *)SUNSparseMatrix_IndexValues(A), SUNSparseMatrix_Data(A), xd, bd,
      c->numeric, c->control, c->info, c->wi, c->w);
  c->last_status = status;
  c->last_flag = umf_flag_from_status(status);
  return c->last_flag;
}

static sunindextype umf_lastflag(SUNLinearSolver S)
{
  umf_content *c = umf_get(S);
  return c ? (sunindextype)c->last_flag : (sunindextype)SUNLS_MEM_NULL;
}

static int umf_space(SUNLinearSolver S, long int *lenrw, long int *leniw)
{
  umf_content *c = umf_get(S);
  if (!c || !lenrw || !leniw) {
    return SUNLS_MEM_NULL;
  }
  /* w (5n) + xcopy (n) + control + info; wi (n) + a few scalars */
  *lenrw = (long int)(6 * c->n + UMFPACK_CONTROL + UMFPACK_INFO);
  *leniw = (long int)(c->n + 6);
  return SUNLS_SUCCESS;
}

static void umf_content_free(umf_content *c)
{
  if (!c) {
    return;
  }
  if (c->numeric) {
    umfpack_dl_free_numeric(&c->numeric);
  }
  if (c->symbolic) {
    umfpack_dl_free_symbolic(&c->symbolic);
  }
  free(c->wi);
  free(c->w);
  free(c->xcopy);
  free(c);
}

static int umf_free(SUNLinearSolver S)
{
  if (!S) {
    return SUNLS_SUCCESS;
  }
  if (S->ops && S->ops->free == umf_free) {
    umf_content_free((umf_content *)S->content);
  }
  S->content = NULL;
  SUNLinSolFreeEmpty(S);
  return SUNLS_SUCCESS;
}

/* The content of S, or NULL when S is not one of ours. */
static umf_content *umf_get(SUNLinearSolver S)
{
  if (!S || !S->ops || S->ops->free != umf_free) {
    return NULL;
  }
  return (umf_content *)S->content;
}

static SUNLinearSolver umf_create(N_Vector y, SUNMatrix A, SUNContext sunctx)
{
  SUNLinearSolver S;
  umf_content *c;
  N_Vector_ID vid;
  sunindextype n;

  if (!y || !A || !sunctx) {
    return NULL;
  }
  if (SUNMatGetID(A) != SUNMATRIX_SPARSE || SUNSparseMatrix_SparseType(A) != CSC_MAT) {
    return NULL;
  }
  n = SUNSparseMatrix_Rows(A);
  if (n <= 0 || SUNSparseMatrix_Columns(A) != n || N_VGetLength(y) != n) {
    return NULL;
  }
  vid = N_VGetVectorID(y);
  if (vid != SUNDIALS_NVEC_SERIAL && vid != SUNDIALS_NVEC_OPENMP &&
      vid != SUNDIALS_NVEC_PTHREADS) {
    return NULL;
  }
  if ((uint64_t)n > SIZE_MAX / (5 * sizeof(double))) {
    return NULL;
  }

  c = calloc(1, sizeof *c);
  if (!c) {
    return NULL;
  }
  c->n = (SuiteSparse_long)n;
  c->nnz_symbolic = -1;
  c->wi = malloc((size_t)n * sizeof *c->wi);
  c->w = malloc(5 * (size_t)n * sizeof *c->w);
  c->xcopy = malloc((size_t)n * sizeof *c->xcopy);
  if (!c->wi || !c->w || !c->xcopy) {
    umf_content_free(c);
    return NULL;
  }
  umfpack_dl_defaults(c->control);
  c->last_flag = SUNLS_SUCCESS;
  c->last_status = UMFPACK_OK;

  S = SUNLinSolNewEmpty(sunctx);
  if (!S) {
    umf_content_free(c);
    return NULL;
  }
  S->ops->gettype = umf_gettype;
  S->ops->getid = umf_getid;
  S->ops->initialize = umf_initialize;
  S->ops->setup = umf_setup;
  S->ops->solve = umf_solve;
  S->ops->lastflag = umf_lastflag;
  S->ops->space = umf_space;
  S->ops->free = umf_free;
  S->content = c;
  return S;
}

static int umf_last_status(SUNLinearSolver S)
{
  const umf_content *c = umf_get(S);
  return c ? c->last_status : UMFPACK_ERROR_argument_missing;
}

static int64_t umf_factor_nnz(SUNLinearSolver S)
{
  umf_content *c = umf_get(S);
  SuiteSparse_long lnz = 0, unz = 0, nrow = 0, ncol = 0, nz_udiag = 0;

  if (!c || !c->numeric) {
    return 0;
  }
  if (umfpack_dl_get_lunz(&lnz, &unz, &nrow, &ncol, &nz_udiag, c->numeric) != UMFPACK_OK) {
    return 0;
  }
  return (int64_t)lnz + (int64_t)unz;
}

/* The module's table (core/module.h): the one symbol it exports. */
__attribute__((visibility("default"))) const sk__umfpack_module sk__umfpack_module_table = {
    {SK__UMFPACK_MODULE_ABI, sizeof(sk__umfpack_module)},
    umf_create,
    umf_last_status,
    umf_factor_nnz,
};

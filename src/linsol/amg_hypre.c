/* src/linsol/amg_hypre.c: hypre BoomerAMG on A = I - gamma*J (serial ParCSR on MPI_COMM_SELF), one V-cycle per solve */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <mpi.h>

#include <HYPRE.h>
#include <HYPRE_IJ_mv.h>
#include <HYPRE_parcsr_ls.h>
#include <HYPRE_parcsr_mv.h>
#include <HYPRE_utilities.h>

#include "core/context_impl.h"
#include "core/error.h"
#include "linsol/amg_hypre.h"

struct sk__amg {
  sk_context *ctx;
  sk__amg_params params;
  HYPRE_Int n;
  int64_t nnz_model; /* entries of the model pattern */
  int64_t csr_nnz;   /* entries of A */
  /* A in CSR (rows increasing, columns increasing within a row, diagonal present) */
  HYPRE_Int *ncols;   /* entries per row */
  HYPRE_BigInt *rows; /* 0, 1, ..., n-1 (row and vector indices) */
  HYPRE_BigInt *cols; /* column of each CSR entry */
  double *vals;       /* values of A in CSR order */
  int64_t *pos;       /* CSR position of model entry p (CSC order) */
  int64_t *dpos;      /* CSR position of (i, i) */
  HYPRE_IJMatrix A;
  HYPRE_ParCSRMatrix parA;
  HYPRE_IJVector b, x;
  HYPRE_ParVector parb, parx;
  HYPRE_Solver solver; /* NULL until a setup succeeded */
};

/* hypre's error flag is a bit set; name the most specific bit. */
static const char *hypre_error_name(HYPRE_Int code)
{
  if (code & HYPRE_ERROR_MEMORY) {
    return "HYPRE_ERROR_MEMORY";
  }
  if (code & HYPRE_ERROR_ARG) {
    return "HYPRE_ERROR_ARG";
  }
  if (code & HYPRE_ERROR_CONV) {
    return "HYPRE_ERROR_CONV";
  }
  return "HYPRE_ERROR_GENERIC";
}

/* Record a hypre failure of `what` (message and foreign flag name the
 * hypre error), clear hypre's sticky error flag, return SK_ERR_SOLVER. */
static sk_status hypre_failure(sk_context *ctx, HYPRE_Int code, const char *func, const char *file,
                               int line, const char *what)
{
  char descr[256];
  memset(descr, 0, sizeof descr);
  HYPRE_DescribeError(code, descr);
  descr[sizeof descr - 1] = '\0';
  sk_status st = sk__error_set(ctx, SK_ERR_SOLVER, func, file, line,
                               "hypre %s failed: error %d %s", what, (int)code, descr);
  sk__error_set_foreign(ctx, (int)code, hypre_error_name(code));
  HYPRE_ClearAllErrors();
  return st;
}

/* Call hypre; on a nonzero error flag record it and return SK_ERR_SOLVER. */
#define SK_HYPRE(ctx, call, what)                                                    \
  do {                                                                               \
    HYPRE_Int sk__hrc = (call);                                                      \
    if (sk__hrc != 0) {                                                              \
      return hypre_failure((ctx), sk__hrc, __func__, __FILE__, __LINE__, (what));    \
    }                                                                                \
  } while (0)

void sk__amg_params_default(sk__amg_params *p)
{
  p->coarsen_type = 10;
  p->interp_type = 6;
  p->p_max_elmts = 4;
  p->strong_threshold = 0.25;
  p->relax_type = 8;
  p->num_sweeps = 1;
  p->agg_num_levels = 0;
  p->max_coarse_size = 0;
  p->print_level = 0;
}

/* Context hook: finalize hypre, then MPI (called by sk_context_destroy of
 * the context that initialized MPI). */
static void amg_mpi_finalize(void)
{
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) {
    HYPRE_Finalize();
    MPI_Finalize();
  }
}

/* Initialize MPI if nobody has, and record the ownership in ctx. */
static sk_status ensure_mpi(sk_context *ctx)
{
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  SK_CHECK(ctx, !finalized, SK_ERR_STATE,
           "linsol.preconditioner=amg: MPI was already finalized in this process (MPI starts "
           "once per process: the context that started it for stiffkit has been destroyed)");
  if (!initialized) {
    int rc = MPI_Init(NULL, NULL);
    if (rc != MPI_SUCCESS) {
      char msg[MPI_MAX_ERROR_STRING];
      int len = 0;
      msg[0] = '\0';
      MPI_Error_string(rc, msg, &len);
      sk_status st = SK_ERROR(ctx, SK_ERR_SOLVER, "MPI_Init failed (needed by hypre): %s", msg);
      sk__error_set_foreign(ctx, rc, "MPI_Init");
      return st;
    }
    ctx->mpi_owned = 1;
    ctx->mpi_finalize = amg_mpi_finalize;
  }
  SK_HYPRE(ctx, HYPRE_Init(), "HYPRE_Init");
  return SK_OK;
}

/* Build the CSR pattern of A (the model pattern plus the diagonal) and the
 * CSC->CSR position maps. */
static sk_status build_csr(sk__amg *amg, const int64_t *colptr, const int64_t *rowind)
{
  sk_context *ctx = amg->ctx;
  const int64_t n = amg->n;
  const int64_t nnz = colptr[n];
  int64_t *rowptr = sk__calloc(ctx, (size_t)n + 1, sizeof *rowptr);
  SK_CHECK(ctx, rowptr != NULL, SK_ERR_NOMEM, "cannot allocate the AMG row pointers");
  /* count per row, plus one for a missing diagonal */
  for (int64_t j = 0; j < n; j++) {
    int have_diag = 0;
    for (int64_t p = colptr[j]; p < colptr[j + 1]; p++) {
      rowptr[rowind[p] + 1]++;
      have_diag |= rowind[p] == j;
    }
    if (!have_diag) {
      rowptr[j + 1]++;
    }
  }
  for (int64_t i = 0; i < n; i++) {
    rowptr[i + 1] += rowptr[i];
  }
  const int64_t csr_nnz = rowptr[n];
  if (csr_nnz > INT_MAX) {
    sk__free(ctx, rowptr);
    return SK_ERROR(ctx, SK_ERR_TOO_LARGE,
                    "linsol.preconditioner=amg: %lld nonzeros exceed hypre's 32-bit indices",
                    (long long)csr_nnz);
  }
  amg->ncols = sk__malloc(ctx, (size_t)n * sizeof *amg->ncols);
  amg->rows = sk__malloc(ctx, (size_t)n * sizeof *amg->rows);
  amg->cols = sk__malloc(ctx, (size_t)csr_nnz * sizeof *amg->cols);
  amg->vals = sk__malloc(ctx, (size_t)csr_nnz * sizeof *amg->vals);
  amg->pos = sk__malloc(ctx, (size_t)(nnz > 0 ? nnz : 1) * sizeof *amg->pos);
  amg->dpos = sk__malloc(ctx, (size_t)n * sizeof *amg->dpos);
  int64_t *next = sk__malloc(ctx, (size_t)n * sizeof *next);
  if (!amg->ncols || !amg->rows || !amg->cols || !amg->vals || !amg->pos || !amg->dpos || !next) {
    sk__free(ctx, next);
    sk__free(ctx, rowptr);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the AMG matrix (%lld nonzeros)",
                    (long long)csr_nnz);
  }
  for (int64_t i = 0; i < n; i++) {
    next[i] = rowptr[i];
    amg->ncols[i] = (HYPRE_Int)(rowptr[i + 1] - rowptr[i]);
    amg->rows[i] = (HYPRE_BigInt)i;
  }
  /* columns in increasing order: every row receives its entries sorted */
  for (int64_t j = 0; j < n; j++) {
    int have_diag = 0;
    for (int64_t p = colptr[j]; p < colptr[j + 1]; p++) {
      const int64_t q = next[rowind[p]]++;
      amg->cols[q] = (HYPRE_BigInt)j;
      amg->pos[p] = q;
      if (rowind[p] == j) {
        amg->dpos[j] = q;
        have_diag = 1;
      }
    }
    if (!have_diag) {
      const int64_t q = next[j]++;
      amg->cols[q] = (HYPRE_BigInt)j;
      amg->dpos[j] = q;
    }
  }
  sk__free(ctx, next);
  sk__free(ctx, rowptr);
  amg->nnz_model = nnz;
  amg->csr_nnz = csr_nnz;
  return SK_OK;
}

/* Create the IJ matrix (preallocated rows, all in the diagonal block) and
 * the IJ vectors. */
static sk_status create_hypre_objects(sk__amg *amg)
{
  sk_context *ctx = amg->ctx;
  const HYPRE_BigInt last = (HYPRE_BigInt)amg->n - 1;
  HYPRE_Int *offd = sk__calloc(ctx, (size_t)amg->n, sizeof *offd);
  SK_CHECK(ctx, offd != NULL, SK_ERR_NOMEM, "cannot allocate the AMG row sizes");
  HYPRE_ClearAllErrors();
  HYPRE_Int rc = HYPRE_IJMatrixCreate(MPI_COMM_SELF, 0, last, 0, last, &amg->A);
  if (rc == 0) {
    rc = HYPRE_IJMatrixSetObjectType(amg->A, HYPRE_PARCSR);
  }
  if (rc == 0) {
    rc = HYPRE_IJMatrixSetDiagOffdSizes(amg->A, amg->ncols, offd);
  }
  sk__free(ctx, offd);
  if (rc) {
    return hypre_failure(ctx, rc, __func__, __FILE__, __LINE__, "HYPRE_IJMatrixCreate");
  }
  HYPRE_IJVector *vecs[2] = {&amg->b, &amg->x};
  HYPRE_ParVector *pars[2] = {&amg->parb, &amg->parx};
  for (int k = 0; k < 2; k++) {
    SK_HYPRE(ctx, HYPRE_IJVectorCreate(MPI_COMM_SELF, 0, last, vecs[k]), "HYPRE_IJVectorCreate");
    SK_HYPRE(ctx, HYPRE_IJVectorSetObjectType(*vecs[k], HYPRE_PARCSR), "HYPRE_IJVectorSetObjectType");
    SK_HYPRE(ctx, HYPRE_IJVectorInitialize(*vecs[k]), "HYPRE_IJVectorInitialize");
    SK_HYPRE(ctx, HYPRE_IJVectorAssemble(*vecs[k]), "HYPRE_IJVectorAssemble");
    SK_HYPRE(ctx, HYPRE_IJVectorGetObject(*vecs[k], (void **)pars[k]), "HYPRE_IJVectorGetObject");
  }
  return SK_OK;
}

sk_status sk__amg_create(sk_context *ctx, int64_t n, const int64_t *colptr, const int64_t *rowind,
                         const sk__amg_params *params, sk__amg **amg)
{
  if (amg) {
    *amg = NULL;
  }
  SK_CHECK(ctx, ctx && amg && colptr && n >= 1 && (rowind || colptr[n] == 0), SK_ERR_ARG,
           "sk__amg_create: NULL argument or n < 1");
  SK_CHECK(ctx, n <= INT_MAX, SK_ERR_TOO_LARGE,
           "linsol.preconditioner=amg: n = %lld exceeds hypre's 32-bit indices", (long long)n);
  SK_CALL(ctx, ensure_mpi(ctx));
  sk__amg *a = sk__calloc(ctx, 1, sizeof *a);
  SK_CHECK(ctx, a != NULL, SK_ERR_NOMEM, "cannot allocate the AMG preconditioner");
  a->ctx = ctx;
  a->n = (HYPRE_Int)n;
  if (params) {
    a->params = *params;
  } else {
    sk__amg_params_default(&a->params);
  }
  sk_status st;
  SK_CALL_GOTO(ctx, st, build_csr(a, colptr, rowind), fail);
  SK_CALL_GOTO(ctx, st, create_hypre_objects(a), fail);
  *amg = a;
  return SK_OK;
fail:
  sk__amg_destroy(&a);
  return st;
}

/* A new BoomerAMG object with the settings, as a preconditioner: one
 * V-cycle from a zero guess, no convergence test, no output. */
static sk_status create_solver(sk__amg *amg)
{
  sk_context *ctx = amg->ctx;
  const sk__amg_params *p = &amg->params;
  HYPRE_Solver s = NULL;
  SK_HYPRE(ctx, HYPRE_BoomerAMGCreate(&s), "HYPRE_BoomerAMGCreate");
  amg->solver = s;
  HYPRE_BoomerAMGSetPrintLevel(s, p->print_level);
  HYPRE_BoomerAMGSetLogging(s, 0);
  HYPRE_BoomerAMGSetMaxIter(s, 1);
  HYPRE_BoomerAMGSetTol(s, 0.0);
  HYPRE_BoomerAMGSetCoarsenType(s, p->coarsen_type);
  HYPRE_BoomerAMGSetInterpType(s, p->interp_type);
  HYPRE_BoomerAMGSetPMaxElmts(s, p->p_max_elmts);
  HYPRE_BoomerAMGSetStrongThreshold(s, p->strong_threshold);
  if (p->relax_type >= 0) {
    HYPRE_BoomerAMGSetRelaxType(s, p->relax_type);
  }
  HYPRE_BoomerAMGSetNumSweeps(s, p->num_sweeps);
  HYPRE_BoomerAMGSetAggNumLevels(s, p->agg_num_levels);
  if (p->max_coarse_size > 0) {
    HYPRE_BoomerAMGSetMaxCoarseSize(s, p->max_coarse_size);
  }
  HYPRE_Int rc = HYPRE_GetError();
  if (rc) {
    return hypre_failure(ctx, rc, __func__, __FILE__, __LINE__, "BoomerAMG settings");
  }
  return SK_OK;
}

sk_status sk__amg_setup(sk__amg *amg, double gamma, const double *values)
{
  if (!amg || !values) {
    return SK_ERR_ARG;
  }
  sk_context *ctx = amg->ctx;
  if (amg->solver) {
    HYPRE_BoomerAMGDestroy(amg->solver);
    amg->solver = NULL;
  }
  const int64_t n = amg->n;
  memset(amg->vals, 0, (size_t)amg->csr_nnz * sizeof *amg->vals);
  for (int64_t p = 0; p < amg->nnz_model; p++) {
    amg->vals[amg->pos[p]] = -gamma * values[p];
  }
  for (int64_t i = 0; i < n; i++) {
    amg->vals[amg->dpos[i]] += 1.0;
  }
  HYPRE_ClearAllErrors();
  /* Initialize again re-opens an assembled matrix for new values */
  SK_HYPRE(ctx, HYPRE_IJMatrixInitialize(amg->A), "HYPRE_IJMatrixInitialize");
  SK_HYPRE(ctx, HYPRE_IJMatrixSetValues(amg->A, amg->n, amg->ncols, amg->rows, amg->cols, amg->vals),
           "HYPRE_IJMatrixSetValues");
  SK_HYPRE(ctx, HYPRE_IJMatrixAssemble(amg->A), "HYPRE_IJMatrixAssemble");
  SK_HYPRE(ctx, HYPRE_IJMatrixGetObject(amg->A, (void **)&amg->parA), "HYPRE_IJMatrixGetObject");
  SK_CALL(ctx, create_solver(amg));
  HYPRE_Int rc = HYPRE_BoomerAMGSetup(amg->solver, amg->parA, amg->parb, amg->parx);
  if (rc) {
    HYPRE_BoomerAMGDestroy(amg->solver);
    amg->solver = NULL;
    return hypre_failure(ctx, rc, __func__, __FILE__, __LINE__, "HYPRE_BoomerAMGSetup");
  }
  return SK_OK;
}

sk_status sk__amg_solve(sk__amg *amg, const double *r, double *z)
{
  if (!amg || !r || !z) {
    return SK_ERR_ARG;
  }
  sk_context *ctx = amg->ctx;
  SK_CHECK(ctx, amg->solver != NULL, SK_ERR_STATE, "AMG preconditioner solve before a setup");
  HYPRE_ClearAllErrors();
  SK_HYPRE(ctx, HYPRE_IJVectorSetValues(amg->b, amg->n, amg->rows, r), "HYPRE_IJVectorSetValues");
  SK_HYPRE(ctx, HYPRE_ParVectorSetConstantValues(amg->parx, 0.0), "HYPRE_ParVectorSetConstantValues");
  /* with MaxIter 1 and Tol 0, BoomerAMG does one cycle and never reports
   * HYPRE_ERROR_CONV; any other bit is a failure */
  HYPRE_Int rc = HYPRE_BoomerAMGSolve(amg->solver, amg->parA, amg->parb, amg->parx);
  if (rc & ~(HYPRE_Int)HYPRE_ERROR_CONV) {
    return hypre_failure(ctx, rc, __func__, __FILE__, __LINE__, "HYPRE_BoomerAMGSolve");
  }
  HYPRE_ClearAllErrors();
  SK_HYPRE(ctx, HYPRE_IJVectorGetValues(amg->x, amg->n, amg->rows, z), "HYPRE_IJVectorGetValues");
  return SK_OK;
}

void sk__amg_destroy(sk__amg **amg)
{
  if (!amg || !*amg) {
    return;
  }
  sk__amg *a = *amg;
  if (a->solver) {
    HYPRE_BoomerAMGDestroy(a->solver);
  }
  if (a->A) {
    HYPRE_IJMatrixDestroy(a->A);
  }
  if (a->b) {
    HYPRE_IJVectorDestroy(a->b);
  }
  if (a->x) {
    HYPRE_IJVectorDestroy(a->x);
  }
  HYPRE_ClearAllErrors();
  sk_context *ctx = a->ctx;
  sk__free(ctx, a->ncols);
  sk__free(ctx, a->rows);
  sk__free(ctx, a->cols);
  sk__free(ctx, a->vals);
  sk__free(ctx, a->pos);
  sk__free(ctx, a->dpos);
  sk__free(ctx, a);
  *amg = NULL;
}

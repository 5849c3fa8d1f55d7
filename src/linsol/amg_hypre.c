/* src/linsol/amg_hypre.c: the hypre module libstiffkit-hypre.so: hypre BoomerAMG on A = I - gamma*J (rows of a ParCSR matrix on a communicator; serial: MPI_COMM_SELF), one V-cycle per solve */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <mpi.h>

#include <HYPRE.h>
#include <HYPRE_IJ_mv.h>
#include <HYPRE_parcsr_ls.h>
#include <HYPRE_parcsr_mv.h>
#include <HYPRE_utilities.h>

#include "core/error.h"
#include "linsol/amg_hypre.h"
#include "linsol/amg_module.h"
#include "linsol/hypre_common.h"

struct sk__amg_impl {
  sk_context *ctx;
  sk__amg_params params;
  MPI_Comm comm; /* the caller's communicator (not duplicated: it must outlive the object) */
  HYPRE_BigInt ilower; /* first global row of this rank */
  HYPRE_Int nlocal;    /* rows of this rank */
  int csc_values;      /* 1: setup takes values in CSC pattern order (sk__amg_create),
                          0: in row order (sk__amg_create_rows) */
  int64_t nnz_model;   /* entries of the model pattern on this rank */
  int64_t csr_nnz;     /* entries of this rank's rows of A */
  /* this rank's rows of A in CSR (global columns increasing within a row, diagonal present) */
  HYPRE_Int *ncols;   /* entries per row */
  HYPRE_BigInt *rows; /* ilower, ..., ilower + nlocal - 1 (row and vector indices) */
  HYPRE_BigInt *cols; /* global column of each CSR entry */
  double *vals;       /* values of A in CSR order */
  int64_t *pos;       /* CSR position of model entry p, in the order setup takes the values */
  int64_t *dpos;      /* CSR position of (i, i) */
  HYPRE_IJMatrix A;
  HYPRE_ParCSRMatrix parA;
  HYPRE_IJVector b, x;
  HYPRE_ParVector parb, parx;
  HYPRE_Solver solver; /* NULL until a setup succeeded */
};

static void amg_destroy(sk__amg_impl **amg);

/* MPI for sk__amg_create_rows: the caller has initialized it (and not yet
 * finalized it); then hypre is initialized (repeated calls are harmless). */
static sk_status require_mpi(sk_context *ctx)
{
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  SK_CHECK(ctx, !finalized, SK_ERR_STATE,
           "distributed AMG preconditioner: MPI was already finalized in this process");
  SK_CHECK(ctx, initialized, SK_ERR_STATE,
           "distributed AMG preconditioner: MPI is not initialized (the caller of "
           "sk__amg_create_rows must call MPI_Init first)");
  SK_HYPRE(ctx, HYPRE_Init(), "HYPRE_Init");
  return SK_OK;
}

/* Build this rank's rows of A: the given rows (rowptr, global columns
 * increasing within each row, each in [0, nglobal)) plus the diagonal where
 * absent, and the position of every given entry in them (amg->pos, in the
 * given row order) and of every diagonal (amg->dpos). */
static sk_status build_rows(sk__amg_impl *amg, const int64_t *rowptr, const int64_t *cols,
                            int64_t nglobal)
{
  sk_context *ctx = amg->ctx;
  const int64_t nl = amg->nlocal;
  const int64_t il = amg->ilower;
  SK_CHECK(ctx, rowptr[0] == 0, SK_ERR_ARG, "AMG rows: rowptr[0] = %lld, expected 0",
           (long long)rowptr[0]);
  int64_t csr_nnz = 0;
  for (int64_t i = 0; i < nl; i++) {
    SK_CHECK(ctx, rowptr[i + 1] >= rowptr[i], SK_ERR_ARG,
             "AMG rows: rowptr decreases at local row %lld", (long long)i);
    int have_diag = 0;
    int64_t prev = -1;
    for (int64_t p = rowptr[i]; p < rowptr[i + 1]; p++) {
      SK_CHECK(ctx, cols[p] > prev && cols[p] < nglobal, SK_ERR_ARG,
               "AMG rows: row %lld: column %lld is not increasing or outside [0, %lld)",
               (long long)(il + i), (long long)cols[p], (long long)nglobal);
      have_diag |= cols[p] == il + i;
      prev = cols[p];
    }
    csr_nnz += rowptr[i + 1] - rowptr[i] + !have_diag;
  }
  SK_CHECK(ctx, csr_nnz <= INT_MAX, SK_ERR_TOO_LARGE,
           "linsol.preconditioner=amg: %lld nonzeros exceed hypre's 32-bit indices",
           (long long)csr_nnz);
  const int64_t nnz = rowptr[nl];
  amg->ncols = sk__malloc(ctx, (size_t)nl * sizeof *amg->ncols);
  amg->rows = sk__malloc(ctx, (size_t)nl * sizeof *amg->rows);
  amg->cols = sk__malloc(ctx, (size_t)(csr_nnz > 0 ? csr_nnz : 1) * sizeof *amg->cols);
  amg->vals = sk__malloc(ctx, (size_t)(csr_nnz > 0 ? csr_nnz : 1) * sizeof *amg->vals);
  amg->pos = sk__malloc(ctx, (size_t)(nnz > 0 ? nnz : 1) * sizeof *amg->pos);
  amg->dpos = sk__malloc(ctx, (size_t)nl * sizeof *amg->dpos);
  SK_CHECK(ctx, amg->ncols && amg->rows && amg->cols && amg->vals && amg->pos && amg->dpos,
           SK_ERR_NOMEM, "cannot allocate the AMG matrix (%lld nonzeros)", (long long)csr_nnz);
  /* merge a missing diagonal into its place, so every row stays sorted */
  int64_t q = 0;
  for (int64_t i = 0; i < nl; i++) {
    const int64_t row = il + i;
    const int64_t start = q;
    int have_diag = 0;
    for (int64_t p = rowptr[i]; p < rowptr[i + 1]; p++) {
      if (!have_diag && cols[p] > row) {
        amg->cols[q] = (HYPRE_BigInt)row;
        amg->dpos[i] = q++;
        have_diag = 1;
      }
      amg->cols[q] = (HYPRE_BigInt)cols[p];
      amg->pos[p] = q;
      if (cols[p] == row) {
        amg->dpos[i] = q;
        have_diag = 1;
      }
      q++;
    }
    if (!have_diag) {
      amg->cols[q] = (HYPRE_BigInt)row;
      amg->dpos[i] = q++;
    }
    amg->ncols[i] = (HYPRE_Int)(q - start);
    amg->rows[i] = (HYPRE_BigInt)row;
  }
  amg->nnz_model = nnz;
  amg->csr_nnz = csr_nnz;
  return SK_OK;
}

/* Create the IJ matrix (rows preallocated with their counts of columns
 * inside [ilower, iupper] (diag block) and outside (offd block)) and the IJ
 * vectors, all on the object's communicator and row range. Collective. */
static sk_status create_hypre_objects(sk__amg_impl *amg)
{
  sk_context *ctx = amg->ctx;
  const HYPRE_BigInt lo = amg->ilower;
  const HYPRE_BigInt hi = amg->ilower + amg->nlocal - 1;
  HYPRE_Int *diag = sk__calloc(ctx, (size_t)amg->nlocal, sizeof *diag);
  HYPRE_Int *offd = sk__calloc(ctx, (size_t)amg->nlocal, sizeof *offd);
  if (!diag || !offd) {
    sk__free(ctx, diag);
    sk__free(ctx, offd);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the AMG row sizes");
  }
  int64_t q = 0;
  for (HYPRE_Int i = 0; i < amg->nlocal; i++) {
    for (HYPRE_Int k = 0; k < amg->ncols[i]; k++, q++) {
      if (amg->cols[q] >= lo && amg->cols[q] <= hi) {
        diag[i]++;
      } else {
        offd[i]++;
      }
    }
  }
  HYPRE_ClearAllErrors();
  HYPRE_Int rc = HYPRE_IJMatrixCreate(amg->comm, lo, hi, lo, hi, &amg->A);
  if (rc == 0) {
    rc = HYPRE_IJMatrixSetObjectType(amg->A, HYPRE_PARCSR);
  }
  if (rc == 0) {
    rc = HYPRE_IJMatrixSetDiagOffdSizes(amg->A, diag, offd);
  }
  sk__free(ctx, diag);
  sk__free(ctx, offd);
  if (rc) {
    return sk__hypre_failure(ctx, rc, __func__, __FILE__, __LINE__, "HYPRE_IJMatrixCreate");
  }
  HYPRE_IJVector *vecs[2] = {&amg->b, &amg->x};
  HYPRE_ParVector *pars[2] = {&amg->parb, &amg->parx};
  for (int k = 0; k < 2; k++) {
    SK_HYPRE(ctx, HYPRE_IJVectorCreate(amg->comm, lo, hi, vecs[k]), "HYPRE_IJVectorCreate");
    SK_HYPRE(ctx, HYPRE_IJVectorSetObjectType(*vecs[k], HYPRE_PARCSR),
             "HYPRE_IJVectorSetObjectType");
    SK_HYPRE(ctx, HYPRE_IJVectorInitialize(*vecs[k]), "HYPRE_IJVectorInitialize");
    SK_HYPRE(ctx, HYPRE_IJVectorAssemble(*vecs[k]), "HYPRE_IJVectorAssemble");
    SK_HYPRE(ctx, HYPRE_IJVectorGetObject(*vecs[k], (void **)pars[k]), "HYPRE_IJVectorGetObject");
  }
  return SK_OK;
}

/* The row-based core of both creates (MPI up, hypre initialized): checks
 * this rank's block against the others' (contiguous blocks in rank order),
 * builds its rows of A and the hypre objects. Every rank returns an error
 * when one rank's rows are rejected, so that no rank is left waiting in a
 * collective hypre call. Collective over comm. */
static sk_status create_core(sk_context *ctx, MPI_Comm comm, int64_t ilower, int64_t nlocal,
                             const int64_t *rowptr, const int64_t *cols,
                             const sk__amg_params *params, sk__amg_impl **out)
{
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  sk_status st = SK_OK;
  if (nlocal < 1 || ilower < 0) {
    st = SK_ERROR(ctx, SK_ERR_ARG,
                  "AMG rows on rank %d: ilower = %lld, nlocal = %lld (need "
                  "ilower >= 0 and nlocal >= 1)",
                  rank, (long long)ilower, (long long)nlocal);
  }
  /* the global size, and the rows the ranks before this one hold */
  int64_t mine = st == SK_OK ? nlocal : 0, nglobal = 0, before = 0;
  MPI_Allreduce(&mine, &nglobal, 1, MPI_INT64_T, MPI_SUM, comm);
  MPI_Exscan(&mine, &before, 1, MPI_INT64_T, MPI_SUM, comm);
  if (rank == 0) {
    before = 0; /* MPI_Exscan leaves rank 0's result undefined */
  }
  if (st == SK_OK && ilower != before) {
    st = SK_ERROR(ctx, SK_ERR_ARG,
                  "AMG rows on rank %d: ilower = %lld, but the ranks before it "
                  "hold %lld rows (row blocks must be contiguous, in rank order)",
                  rank, (long long)ilower, (long long)before);
  }
  if (st == SK_OK && nglobal > INT_MAX) {
    st = SK_ERROR(ctx, SK_ERR_TOO_LARGE,
                  "linsol.preconditioner=amg: n = %lld exceeds hypre's "
                  "32-bit indices",
                  (long long)nglobal);
  }
  sk__amg_impl *a = NULL;
  if (st == SK_OK) {
    a = sk__calloc(ctx, 1, sizeof *a);
    if (!a) {
      st = SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the AMG preconditioner");
    }
  }
  if (st == SK_OK) {
    a->ctx = ctx;
    a->comm = comm;
    a->ilower = (HYPRE_BigInt)ilower;
    a->nlocal = (HYPRE_Int)nlocal;
    if (params) {
      a->params = *params;
    } else {
      sk__amg_params_default(&a->params);
    }
    SK_CALL_GOTO(ctx, st, build_rows(a, rowptr, cols, nglobal), agree);
  }
agree:;
  /* all ranks go on to hypre, or none */
  int local = (int)st, worst = 0;
  MPI_Allreduce(&local, &worst, 1, MPI_INT, MPI_MIN, comm);
  if (worst < 0 && st == SK_OK) {
    st = SK_ERROR(ctx, (sk_status)worst,
                  "AMG rows: another rank of the communicator rejected "
                  "its rows (%s)",
                  sk_status_name((sk_status)worst));
  }
  if (st == SK_OK) {
    SK_CALL_GOTO(ctx, st, create_hypre_objects(a), fail);
    *out = a;
    return SK_OK;
  }
fail:
  amg_destroy(&a);
  return st;
}

static sk_status amg_create_rows(sk_context *ctx, const void *comm, int64_t ilower,
                                 int64_t nlocal, const int64_t *rowptr, const int64_t *cols,
                                 const sk__amg_params *params, sk__amg_impl **amg)
{
  if (amg) {
    *amg = NULL;
  }
  SK_CHECK(ctx, ctx && comm && amg && rowptr && (cols || nlocal < 1 || rowptr[nlocal] == 0),
           SK_ERR_ARG, "sk__amg_create_rows: NULL argument");
  SK_CALL(ctx, require_mpi(ctx));
  SK_CALL(ctx,
          create_core(ctx, *(const MPI_Comm *)comm, ilower, nlocal, rowptr, cols, params, amg));
  return SK_OK;
}

static sk_status amg_create(sk_context *ctx, int64_t n, const int64_t *colptr,
                            const int64_t *rowind, const sk__amg_params *params,
                            sk__amg_impl **amg)
{
  if (amg) {
    *amg = NULL;
  }
  SK_CHECK(ctx, ctx && amg && colptr && n >= 1 && (rowind || colptr[n] == 0), SK_ERR_ARG,
           "sk__amg_create: NULL argument or n < 1");
  SK_CHECK(ctx, n <= INT_MAX, SK_ERR_TOO_LARGE,
           "linsol.preconditioner=amg: n = %lld exceeds hypre's 32-bit indices", (long long)n);
  const int64_t nnz = colptr[n];
  for (int64_t p = 0; p < nnz; p++) {
    SK_CHECK(ctx, rowind[p] >= 0 && rowind[p] < n, SK_ERR_ARG,
             "sk__amg_create: row index %lld outside [0, %lld)", (long long)rowind[p],
             (long long)n);
  }
  SK_CALL(ctx, sk__hypre_ensure_mpi(ctx, "linsol.preconditioner=amg"));
  /* the pattern by rows (a transpose; columns come out increasing) and the
   * row-order position `where[p]` of each CSC entry p */
  int64_t *rowptr = sk__calloc(ctx, (size_t)n + 1, sizeof *rowptr);
  int64_t *cols = sk__malloc(ctx, (size_t)(nnz > 0 ? nnz : 1) * sizeof *cols);
  int64_t *where = sk__malloc(ctx, (size_t)(nnz > 0 ? nnz : 1) * sizeof *where);
  int64_t *next = sk__malloc(ctx, (size_t)n * sizeof *next);
  const MPI_Comm self = MPI_COMM_SELF;
  sk__amg_impl *a = NULL;
  sk_status st = SK_OK;
  if (!rowptr || !cols || !where || !next) {
    st = SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the AMG pattern (%lld nonzeros)",
                  (long long)nnz);
    goto done;
  }
  for (int64_t p = 0; p < nnz; p++) {
    rowptr[rowind[p] + 1]++;
  }
  for (int64_t i = 0; i < n; i++) {
    rowptr[i + 1] += rowptr[i];
    next[i] = rowptr[i];
  }
  for (int64_t j = 0; j < n; j++) {
    for (int64_t p = colptr[j]; p < colptr[j + 1]; p++) {
      const int64_t q = next[rowind[p]]++;
      cols[q] = j;
      where[p] = q;
    }
  }
  SK_CALL_GOTO(ctx, st, amg_create_rows(ctx, &self, 0, n, rowptr, cols, params, amg), done);
  /* setup takes the values in CSC order: compose the two position maps */
  a = *amg;
  for (int64_t p = 0; p < nnz; p++) {
    where[p] = a->pos[where[p]];
  }
  sk__free(ctx, a->pos);
  a->pos = where;
  where = NULL;
  a->csc_values = 1;
done:
  sk__free(ctx, next);
  sk__free(ctx, where);
  sk__free(ctx, cols);
  sk__free(ctx, rowptr);
  return st;
}

/* A new BoomerAMG object with the settings, as a preconditioner: one
 * V-cycle from a zero guess, no convergence test, no output. */
static sk_status create_solver(sk__amg_impl *amg)
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
    return sk__hypre_failure(ctx, rc, __func__, __FILE__, __LINE__, "BoomerAMG settings");
  }
  return SK_OK;
}

/* Assemble A = I - gamma*J from `values` (in the order of amg->pos) and
 * build the hierarchy: the body of both setups. */
static sk_status setup_values(sk__amg_impl *amg, double gamma, const double *values)
{
  sk_context *ctx = amg->ctx;
  if (amg->solver) {
    HYPRE_BoomerAMGDestroy(amg->solver);
    amg->solver = NULL;
  }
  memset(amg->vals, 0, (size_t)amg->csr_nnz * sizeof *amg->vals);
  for (int64_t p = 0; p < amg->nnz_model; p++) {
    amg->vals[amg->pos[p]] = -gamma * values[p];
  }
  for (int64_t i = 0; i < amg->nlocal; i++) {
    amg->vals[amg->dpos[i]] += 1.0;
  }
  HYPRE_ClearAllErrors();
  /* Initialize again re-opens an assembled matrix for new values */
  SK_HYPRE(ctx, HYPRE_IJMatrixInitialize(amg->A), "HYPRE_IJMatrixInitialize");
  SK_HYPRE(
      ctx,
      HYPRE_IJMatrixSetValues(amg->A, amg->nlocal, amg->ncols, amg->rows, amg->cols, amg->vals),
      "HYPRE_IJMatrixSetValues");
  SK_HYPRE(ctx, HYPRE_IJMatrixAssemble(amg->A), "HYPRE_IJMatrixAssemble");
  SK_HYPRE(ctx, HYPRE_IJMatrixGetObject(amg->A, (void **)&amg->parA), "HYPRE_IJMatrixGetObject");
  SK_CALL(ctx, create_solver(amg));
  HYPRE_Int rc = HYPRE_BoomerAMGSetup(amg->solver, amg->parA, amg->parb, amg->parx);
  if (rc) {
    HYPRE_BoomerAMGDestroy(amg->solver);
    amg->solver = NULL;
    return sk__hypre_failure(ctx, rc, __func__, __FILE__, __LINE__, "HYPRE_BoomerAMGSetup");
  }
  return SK_OK;
}

static sk_status amg_setup(sk__amg_impl *amg, double gamma, const double *values)
{
  if (!amg || !values) {
    return SK_ERR_ARG;
  }
  SK_CHECK(amg->ctx, amg->csc_values, SK_ERR_ARG,
           "sk__amg_setup: the object was made by sk__amg_create_rows (use sk__amg_setup_rows)");
  SK_CALL(amg->ctx, setup_values(amg, gamma, values));
  return SK_OK;
}

static sk_status amg_setup_rows(sk__amg_impl *amg, double gamma, const double *values)
{
  if (!amg || !values) {
    return SK_ERR_ARG;
  }
  SK_CHECK(amg->ctx, !amg->csc_values, SK_ERR_ARG,
           "sk__amg_setup_rows: the object was made by sk__amg_create (use sk__amg_setup)");
  SK_CALL(amg->ctx, setup_values(amg, gamma, values));
  return SK_OK;
}

static sk_status amg_solve(sk__amg_impl *amg, const double *r, double *z)
{
  if (!amg || !r || !z) {
    return SK_ERR_ARG;
  }
  sk_context *ctx = amg->ctx;
  SK_CHECK(ctx, amg->solver != NULL, SK_ERR_STATE, "AMG preconditioner solve before a setup");
  HYPRE_ClearAllErrors();
  SK_HYPRE(ctx, HYPRE_IJVectorSetValues(amg->b, amg->nlocal, amg->rows, r),
           "HYPRE_IJVectorSetValues");
  SK_HYPRE(ctx, HYPRE_ParVectorSetConstantValues(amg->parx, 0.0),
           "HYPRE_ParVectorSetConstantValues");
  /* with MaxIter 1 and Tol 0, BoomerAMG does one cycle and never reports
   * HYPRE_ERROR_CONV; any other bit is a failure */
  HYPRE_Int rc = HYPRE_BoomerAMGSolve(amg->solver, amg->parA, amg->parb, amg->parx);
  if (rc & ~(HYPRE_Int)HYPRE_ERROR_CONV) {
    return sk__hypre_failure(ctx, rc, __func__, __FILE__, __LINE__, "HYPRE_BoomerAMGSolve");
  }
  HYPRE_ClearAllErrors();
  SK_HYPRE(ctx, HYPRE_IJVectorGetValues(amg->x, amg->nlocal, amg->rows, z),
           "HYPRE_IJVectorGetValues");
  return SK_OK;
}

static void amg_destroy(sk__amg_impl **amg)
{
  if (!amg || !*amg) {
    return;
  }
  sk__amg_impl *a = *amg;
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

__attribute__((visibility("default"))) const sk__amg_module sk__amg_hypre_module = {
    .head = {SK__AMG_MODULE_ABI, sizeof(sk__amg_module)},
    .create = amg_create,
    .create_rows = amg_create_rows,
    .setup = amg_setup,
    .setup_rows = amg_setup_rows,
    .solve = amg_solve,
    .destroy = amg_destroy,
};

/* src/backends/sundials_linsol.c: linear-algebra pieces shared by the CVODE, IDA and KINSOL adapters (model Jacobian as a SUNMatrix, dense/band/sparse direct and Krylov solvers, failure diagnosis) */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <klu.h>
#include <sunlinsol/sunlinsol_band.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_band.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>
#include <umfpack.h>

#include "backends/sundials_backend.h"
#include "core/error.h"
#include "core/stop.h"
#include "linsol/linsol.h"
#include "linsol/linsol_types.h"
#include "core/csc.h"
#include "core/model_impl.h"
#include "linsol/linsol_keys.h"

sk_status sk__sun_jac_init(sk_context *ctx, sk_model *m, sk__sun_jac *J)
{
  memset(J, 0, sizeof *J);
  SK_CALL_STOP(ctx, sk__model_pattern(m)); /* a lazy pattern is built here (a stop may end it) */
  J->n = sk_model_get_n(m);
  sk_model_get_jac_pattern(m, &J->colptr, &J->rowind, &J->nnz);
  if (!J->colptr) {
    return SK_OK;
  }
  J->vals = sk__malloc(ctx, (size_t)(J->nnz > 0 ? J->nnz : 1) * sizeof *J->vals);
  SK_CHECK(ctx, J->vals != NULL, SK_ERR_NOMEM, "cannot allocate Jacobian values (%lld nonzeros)",
           (long long)J->nnz);
  return SK_OK;
}

sk_status sk__sun_jac_sparse_matrix(sk_context *ctx, sk__sun_jac *J, SUNContext sunctx,
                                    SUNMatrix *A)
{
  const int64_t n = J->n;
  SK_CALL(ctx, sk__csc_with_diagonal(ctx, n, J->colptr, J->rowind, &J->mcolptr, &J->mrowind,
                                     &J->map, &J->diag));
  J->mnnz = J->mcolptr[n];
  *A = SUNSparseMatrix(n, n, J->mnnz, CSC_MAT, sunctx);
  SK_CHECK(ctx, *A != NULL, SK_ERR_NOMEM, "cannot allocate a sparse matrix (%lld nonzeros)",
           (long long)J->mnnz);
  memcpy(SUNSparseMatrix_IndexPointers(*A), J->mcolptr, (size_t)(n + 1) * sizeof(sunindextype));
  memcpy(SUNSparseMatrix_IndexValues(*A), J->mrowind, (size_t)J->mnnz * sizeof(sunindextype));
  return SK_OK;
}

/* scale * J into the CSC matrix A (pattern rewritten), shift added on the diagonal. */
static void fill_csc(const sk__sun_jac *J, double scale, double shift, SUNMatrix A)
{
  sunindextype *cp = SUNSparseMatrix_IndexPointers(A);
  sunindextype *ri = SUNSparseMatrix_IndexValues(A);
  sk_sunreal *v = SUNSparseMatrix_Data(A);
  memcpy(cp, J->mcolptr, (size_t)(J->n + 1) * sizeof *cp);
  memcpy(ri, J->mrowind, (size_t)J->mnnz * sizeof *ri);
  if (J->mnnz != J->nnz) {
    memset(v, 0, (size_t)J->mnnz * sizeof *v);
  }
  for (int64_t p = 0; p < J->nnz; p++) {
    v[J->map[p]] = scale * J->vals[p];
  }
  for (int64_t j = 0; shift != 0.0 && j < J->n; j++) {
    v[J->diag[j]] += shift;
  }
}

/* A = scale * J + shift * I for a CSC matrix of sk__sun_jac_sparse_matrix,
 * or a dense or band matrix (zeroed by the package before each evaluation;
 * the diagonal is always stored there). */
void sk__sun_jac_fill_shifted(const sk__sun_jac *J, double scale, double shift, SUNMatrix A)
{
  const SUNMatrix_ID id = SUNMatGetID(A);
  if (id == SUNMATRIX_SPARSE) {
    fill_csc(J, scale, shift, A);
    return;
  }
  for (int64_t j = 0; j < J->n; j++) {
    for (int64_t p = J->colptr[j]; p < J->colptr[j + 1]; p++) {
      if (id == SUNMATRIX_DENSE) {
        SM_ELEMENT_D(A, J->rowind[p], j) = scale * J->vals[p];
      } else {
        SM_ELEMENT_B(A, J->rowind[p], j) = scale * J->vals[p];
      }
    }
  }
  for (int64_t j = 0; shift != 0.0 && j < J->n; j++) {
    if (id == SUNMATRIX_DENSE) {
      SM_ELEMENT_D(A, j, j) += shift;
    } else {
      SM_ELEMENT_B(A, j, j) += shift;
    }
  }
}

void sk__sun_jac_fill(const sk__sun_jac *J, SUNMatrix A)
{
  sk__sun_jac_fill_shifted(J, 1.0, 0.0, A);
}

void sk__sun_jac_diagonal(const sk__sun_jac *J, double *d)
{
  for (int64_t j = 0; j < J->n; j++) {
    d[j] = 0.0;
    for (int64_t p = J->colptr[j]; p < J->colptr[j + 1]; p++) {
      if (J->rowind[p] == j) {
        d[j] = J->vals[p];
      }
    }
  }
}

void sk__sun_jac_free(sk_context *ctx, sk__sun_jac *J)
{
  sk__free(ctx, J->vals);
  sk__free(ctx, J->mcolptr);
  sk__free(ctx, J->mrowind);
  sk__free(ctx, J->map);
  sk__free(ctx, J->diag);
  J->vals = NULL;
  J->mcolptr = J->mrowind = J->map = J->diag = NULL;
  J->mnnz = 0;
}

void sk__sun_note_unused_prec(sk_context *ctx, const char *ls, const char *prec)
{
  if (!sk__linsol_is(ctx, ls, SK__LS_KRYLOV) && strcmp(prec, "auto") && strcmp(prec, "none")) {
    sk__log(ctx, SK_LOG_WARN,
            "linsol.type = %s takes no preconditioner: linsol.preconditioner = %s is not used",
            ls, prec);
  }
}

const char *sk__sun_ordering_used(const sk_context *ctx, const char *linsol, const char *ordering)
{
  return sk_linear_solver_type_find(ctx, linsol) ? "none"
         : strcmp(linsol, "klu")                 ? "package-default"
                                                 : ordering;
}

sk_status sk__sun_sparse_direct(sk_context *ctx, const char *name, const char *ordering,
                                sk_model *m, N_Vector y, SUNMatrix A, SUNContext sunctx,
                                SUNLinearSolver *LS)
{
  const sk_linear_solver_type *user = sk_linear_solver_type_find(ctx, name);
  if (user) {
    return sk__sunlinsol_user(ctx, user, m, y, 0, SUN_PREC_NONE, sunctx, LS);
  }
  if (strcmp(name, "klu") != 0) {
    return sk__sunlinsol_umfpack(ctx, y, A, sunctx, LS);
  }
  *LS = SUNLinSol_KLU(y, A, sunctx);
  SK_CHECK(ctx, *LS != NULL, SK_ERR_NOMEM, "cannot create the KLU solver");
  if (!strcmp(ordering, "metis-nd")) {
    return sk__klu_use_metis_nd(ctx, SUNLinSol_KLUGetCommon(*LS));
  }
  /* SUNDIALS' KLU wrapper defaults to COLAMD (1); AMD is 0 */
  SK_CHECK(ctx,
           SUNLinSol_KLUSetOrdering(*LS, !strcmp(ordering, "colamd") ? 1 : 0) == SUNLS_SUCCESS,
           SK_ERR_SOLVER, "cannot set the KLU ordering");
  return SK_OK;
}

sk_status sk__sun_linsol_fresh(sk_context *ctx, const char *name, SUNLinearSolver LS, SUNMatrix A)
{
  if (LS && A && !strcmp(name, "klu")) {
    const int flag = SUNLinSol_KLUReInit(LS, A, SUNSparseMatrix_NNZ(A), SUNKLU_REINIT_PARTIAL);
    SK_CHECK(ctx, flag == SUNLS_SUCCESS, SK_ERR_SOLVER,
             "cannot reset the KLU factorization for a restart (%s)", sk__sunls_flag_name(flag));
  }
  return SK_OK;
}

/* The KLU part of a failure description; returns 1 for a singular matrix. */
static int describe_klu(SUNLinearSolver LS, const sk_model *m, char *buf, size_t len)
{
  sun_klu_common *common = SUNLinSol_KLUGetCommon(LS);
  const int singular = common->status == KLU_SINGULAR;
  int w = common->rcond >= 0 /* -1: not computed (a first factorization) */
              ? snprintf(buf, len, ", %s (rcond %.2e)", sk__klu_status_name(common->status),
                         common->rcond)
              : snprintf(buf, len, ", %s", sk__klu_status_name(common->status));
  const size_t used = w > 0 ? (size_t)w : 0;
  const int64_t col = (int64_t)common->singular_col;
  if (singular && m && col >= 0 && col < sk_model_get_n(m) && used < len) {
    char cname[96];
    sk_model_component_name(m, col, cname, sizeof cname);
    snprintf(buf + used, len - used, ", first singular column %lld (d f / d %s)", (long long)col,
             cname);
  }
  return singular;
}

int sk__sun_linear_failure(SUNLinearSolver LS, const char *name, const sk_model *m, char *buf,
                           size_t len)
{
  buf[0] = '\0';
  if (!LS) {
    return 0;
  }
  const int lsflag = (int)SUNLinSolLastFlag(LS);
  const int lu_pivot =
      (sk__linsol_is(NULL, name, SK__LS_DENSE) || sk__linsol_is(NULL, name, SK__LS_BAND)) &&
      lsflag > 0;
  int w = snprintf(buf, len, "; linear solver %s: %s", name,
                   lu_pivot ? "LU factorization failed" : sk__sunls_flag_name(lsflag));
  const size_t used = w > 0 ? (size_t)w : 0;
  if (used >= len) {
    return 0;
  }
  if (!strcmp(name, "klu")) {
    return describe_klu(LS, m, buf + used, len - used);
  }
  const sk_status user = sk__sunlinsol_user_last_status(LS);
  if (user != SK_OK) { /* a type registered at run time: what it returned */
    snprintf(buf + used, len - used, ", the type returned %s (%s)", sk_status_name(user),
             sk_status_str(user));
    return 0;
  }
  if (!strcmp(name, "umfpack")) {
    const int status = sk__sunlinsol_umfpack_last_status(LS);
    snprintf(buf + used, len - used, ", %s", sk__umfpack_status_name(status));
    return status == UMFPACK_WARNING_singular_matrix;
  }
  if (lu_pivot) {
    /* the LU factorization reports the 1-based column of a zero pivot */
    const int64_t col = (int64_t)lsflag - 1;
    if (m && col < sk_model_get_n(m)) {
      char cname[96];
      sk_model_component_name(m, col, cname, sizeof cname);
      snprintf(buf + used, len - used, ", zero pivot in column %lld (d f / d %s)", (long long)col,
               cname);
    }
    return 1;
  }
  return 0;
}

double sk__sun_physical_memory_bytes(void)
{
  long pages = sysconf(_SC_PHYS_PAGES);
  long size = sysconf(_SC_PAGESIZE);
  return pages > 0 && size > 0 ? (double)pages * (double)size : 8e9;
}

sk_status sk__sun_check_band_size(sk_context *ctx, int64_t n, int64_t ml, int64_t mu, int sharers,
                                  const char *what, const char *remedy)
{
  const double mem = sk__sun_physical_memory_bytes() / (sharers > 1 ? sharers : 1);
  const int64_t smu = (mu + ml < n - 1) ? mu + ml : n - 1;             /* the LU's fill above */
  const double bytes = 8.0 * (double)n * (double)(smu + ml + 1) * 2.0; /* matrix + saved copy */
  SK_CHECK(
      ctx,
      bytes<0.5 * mem, SK_ERR_TOO_LARGE,
            "%s for n=%lld with bandwidths (%lld, %lld) needs %.3g GB, more than half of the "
            "%.3g GB of memory %s: %s",
            what, (long long)n, (long long)ml, (long long)mu, bytes * 1e-9, mem * 1e-9, sharers> 1
          ? "this process's share of the machine holds"
          : "this machine holds",
      remedy);
  return SK_OK;
}

sk_status sk__sun_check_dense_size(sk_context *ctx, int64_t n, const char *key)
{
  const double mem = sk__sun_physical_memory_bytes();
  const double bytes = 8.0 * (double)n * (double)n * 2.0; /* matrix + saved copy */
  SK_CHECK(ctx, bytes < 0.5 * mem, SK_ERR_TOO_LARGE,
           "%s=dense for n=%lld needs %.3g GB (two n x n matrices), more than half of this "
           "machine's %.3g GB: use klu or a Krylov solver",
           key, (long long)n, bytes * 1e-9, mem * 1e-9);
  return SK_OK;
}

sk_status sk__sun_matrix_direct(sk_context *ctx, const char *engine, const char *name,
                                const sk__sun_jac *J, N_Vector y, SUNContext sunctx, SUNMatrix *A,
                                SUNLinearSolver *LS)
{
  const int64_t n = J->n;
  *A = NULL;
  *LS = NULL;
  if (sk__linsol_is(NULL, name, SK__LS_DENSE)) {
    SK_CALL(ctx, sk__sun_check_dense_size(ctx, n, sk__linsol_key(SK__LINSOL_KEY_type)));
    *A = SUNDenseMatrix(n, n, sunctx);
    SK_CHECK(ctx, *A != NULL, SK_ERR_NOMEM, "cannot allocate the dense matrix (n=%lld)",
             (long long)n);
    *LS = SUNLinSol_Dense(y, *A, sunctx);
  } else {
    SK_CHECK(ctx, J->colptr != NULL, SK_ERR_UNSUPPORTED,
             "%s: linsol.type=band needs the model's Jacobian pattern to find the bandwidth, and "
             "the model has none; supported without a pattern: dense or a Krylov solver (spgmr, "
             "spfgmr, spbcgs, sptfqmr, pcg)",
             engine);
    int64_t ml, mu;
    sk__csc_bandwidth(n, J->colptr, J->rowind, &ml, &mu);
    SK_CALL(ctx, sk__sun_check_band_size(ctx, n, ml, mu, 1, "linsol.type=band",
                                         "use klu or a Krylov solver"));
    *A = SUNBandMatrix(n, mu, ml, sunctx);
    SK_CHECK(ctx, *A != NULL, SK_ERR_NOMEM,
             "cannot allocate the band matrix (n=%lld, bandwidths %lld, %lld)", (long long)n,
             (long long)ml, (long long)mu);
    *LS = SUNLinSol_Band(y, *A, sunctx);
  }
  SK_CHECK(ctx, *LS != NULL, SK_ERR_NOMEM, "cannot create the %s solver", name);
  return SK_OK;
}

sk_status sk__sun_krylov(sk_context *ctx, const char *name, sk_model *m, N_Vector y, int pretype,
                         int maxl, SUNContext sunctx, SUNLinearSolver *LS)
{
  const sk_linear_solver_type *user = sk_linear_solver_type_find(ctx, name);
  if (user && user->kind == SK_LINSOL_ITERATIVE) {
    return sk__sunlinsol_user(ctx, user, m, y, maxl, pretype, sunctx, LS);
  }
  const sk__linsol_type *t = sk__linsol_type_find(name);
  SK_CHECK(ctx, t && t->kind == SK__LS_KRYLOV, SK_ERR_ARG, "'%s' is not a Krylov solver", name);
  *LS = t->krylov(y, pretype, maxl, sunctx);
  SK_CHECK(ctx, *LS != NULL, SK_ERR_NOMEM, "cannot create the %s solver", name);
  return SK_OK;
}

/* src/linsol/linsol_choice.c: linsol.type=auto from the Jacobian's structure: AMD's fill and flop prediction against the preconditioners at hand */
#include <stdio.h>
#include <string.h>

#include <amd.h>

#include "core/error.h"
#include "linsol/linsol_choice.h"

_Static_assert(sizeof(SuiteSparse_long) == sizeof(int64_t),
               "AMD's SuiteSparse_long must be int64_t");

sk_status sk__lu_predict(sk_context *ctx, int64_t n, const int64_t *colptr, const int64_t *rowind,
                         sk__lu_prediction *p)
{
  memset(p, 0, sizeof *p);
  p->nnz = (double)colptr[n];
  SuiteSparse_long *perm = sk__malloc(ctx, (size_t)(n > 0 ? n : 1) * sizeof *perm);
  SK_CHECK(ctx, perm != NULL, SK_ERR_NOMEM, "cannot allocate the ordering of %lld unknowns",
           (long long)n);
  double control[AMD_CONTROL], info[AMD_INFO];
  amd_l_defaults(control);
  const int rc = amd_l_order((SuiteSparse_long)n, (const SuiteSparse_long *)colptr,
                             (const SuiteSparse_long *)rowind, perm, control, info);
  sk__free(ctx, perm);
  SK_CHECK(ctx, rc != AMD_OUT_OF_MEMORY, SK_ERR_NOMEM,
           "out of memory in the symbolic analysis of a %lld x %lld pattern", (long long)n,
           (long long)n);
  SK_CHECK(ctx, rc == AMD_OK || rc == AMD_OK_BUT_JUMBLED, SK_ERR_INPUT,
           "the symbolic analysis refused the Jacobian pattern (AMD status %d)", rc);
  /* L is unit lower and U upper with the same pattern as L^T (no pivoting):
   * AMD_LNZ counts L below the diagonal; the LU work is one division per
   * entry of L and two flops per multiply-subtract pair */
  p->lu_nnz = 2.0 * info[AMD_LNZ] + (double)n;
  p->lu_flops = info[AMD_NDIV] + 2.0 * info[AMD_NMULTSUBS_LU];
  return SK_OK;
}

sk_status sk__linsol_auto(sk_context *ctx, int64_t n, const int64_t *colptr,
                          const int64_t *rowind, const char *engine, int model_prec,
                          int krylov_prec_ok, sk__linsol_choice *c)
{
  memset(c, 0, sizeof *c);
  snprintf(c->prec, sizeof c->prec, "auto");
  if (!colptr && model_prec && krylov_prec_ok) {
    snprintf(c->linsol, sizeof c->linsol, "spgmr");
    snprintf(c->prec, sizeof c->prec, "model");
    snprintf(
        c->reason, sizeof c->reason,
        "spgmr with the model's preconditioner: the model has no Jacobian pattern to factor");
    return SK_OK;
  }
  if (!colptr) {
    const int dense = n <= SK__DENSE_MAX_N;
    snprintf(c->linsol, sizeof c->linsol, "%s", dense ? "dense" : "spgmr");
    snprintf(c->reason, sizeof c->reason,
             dense ? "the model has no Jacobian pattern and n = %lld is at most %d: dense "
                     "difference quotients"
                   : "the model has no Jacobian pattern and n = %lld exceeds %d: matrix-free "
                     "spgmr",
             (long long)n, SK__DENSE_MAX_N);
    return SK_OK;
  }
  if (colptr[n] == n * n && n <= SK__DENSE_MAX_N) { /* a dense Jacobian (full pattern) */
    snprintf(c->linsol, sizeof c->linsol, "dense");
    snprintf(c->reason, sizeof c->reason,
             "dense: the Jacobian pattern is full and n = %lld is at most %d", (long long)n,
             SK__DENSE_MAX_N);
    return SK_OK;
  }
  SK_CALL(ctx, sk__lu_predict(ctx, n, colptr, rowind, &c->lu));
  const double per_nnz = c->lu.lu_flops / (c->lu.nnz > 0 ? c->lu.nnz : 1.0);
  const int costly = per_nnz > SK__KRYLOV_FLOPS_PER_NNZ;
  const int prec = model_prec && krylov_prec_ok;
  char figures[200];
  snprintf(figures, sizeof figures,
           "predicted LU factors %.3g entries (fill %.3g x the pattern's %.0f), %.3g flops per "
           "factorization (%.3g per entry, the crossover is %.0f)",
           c->lu.lu_nnz, c->lu.lu_nnz / (c->lu.nnz > 0 ? c->lu.nnz : 1.0), c->lu.nnz,
           c->lu.lu_flops, per_nnz, SK__KRYLOV_FLOPS_PER_NNZ);
  if (costly && prec) {
    snprintf(c->linsol, sizeof c->linsol, "spgmr");
    snprintf(c->prec, sizeof c->prec, "model");
    snprintf(c->reason, sizeof c->reason,
             "spgmr with the model's preconditioner: a sparse factorization would be costly (%s)",
             figures);
    return SK_OK;
  }
  snprintf(c->linsol, sizeof c->linsol, "klu");
  if (!costly) {
    snprintf(c->reason, sizeof c->reason, "klu: the factorization is cheap: %s", figures);
  } else if (model_prec) {
    snprintf(c->reason, sizeof c->reason,
             "klu: %s; the factorization is costly, but %s has no preconditioner for its "
             "Newton matrix",
             figures, engine);
  } else {
    snprintf(c->reason, sizeof c->reason,
             "klu: %s; the factorization is costly, but the model has no preconditioner of its "
             "own (linsol.type=spgmr with linsol.preconditioner=amg may be faster)",
             figures);
  }
  return SK_OK;
}

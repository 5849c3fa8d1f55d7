/* src/linsol/klu_metis.c: METIS nested-dissection ordering as a KLU user ordering, KLU fill and status names */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdlib.h>

#include <klu.h>
#include "core/error.h"
#include "linsol/linsol.h"
#include "linsol/metis_module.h"

_Static_assert(sizeof(SuiteSparse_long) == sizeof(sunindextype),
               "KLU's SuiteSparse_long must match sunindextype (64-bit SUNDIALS build)");

/* Symmetrized adjacency graph of a square pattern, in METIS' idx_t. */
typedef struct {
  idx_t n;
  idx_t *xadj;   /* n+1 */
  idx_t *adjncy; /* xadj[n] (at least 1 entry allocated) */
} nd_graph;

/* nd_graph_build: the graph of C + C^T without the diagonal and without
 * duplicates, for the n x n CSC pattern (cp, ci) (rows in any order within
 * a column, no duplicates within a column, as KLU guarantees for its
 * blocks).
 *   *peak_bytes  set to the workspace peak of the build
 * Returns 1 on success, 0 on allocation failure, -1 when the graph does not
 * fit idx_t. */
static int nd_graph_build(SuiteSparse_long n, const SuiteSparse_long *cp,
                          const SuiteSparse_long *ci, nd_graph *g, size_t *peak_bytes)
{
  SuiteSparse_long nz = cp[n];
  SuiteSparse_long *tp = NULL; /* transpose (rows of C): tp[n+1], ti[nz] */
  SuiteSparse_long *ti = NULL;
  SuiteSparse_long *mark = NULL;
  SuiteSparse_long j, p, k, total;
  int rc = 0;

  g->n = (idx_t)n;
  g->xadj = NULL;
  g->adjncy = NULL;
  *peak_bytes = 0;

  tp = calloc((size_t)n + 1, sizeof *tp);
  ti = malloc(((size_t)nz > 0 ? (size_t)nz : 1) * sizeof *ti);
  mark = malloc((size_t)n * sizeof *mark);
  g->xadj = malloc(((size_t)n + 1) * sizeof *g->xadj);
  if (!tp || !ti || !mark || !g->xadj) {
    goto done;
  }

  /* transpose pattern: row i of C lists the columns j with C(i,j) != 0 */
  for (p = 0; p < nz; p++) {
    tp[ci[p] + 1]++;
  }
  for (j = 0; j < n; j++) {
    tp[j + 1] += tp[j];
  }
  for (j = 0; j < n; j++) {
    mark[j] = tp[j];
  }
  for (j = 0; j < n; j++) {
    for (p = cp[j]; p < cp[j + 1]; p++) {
      ti[mark[ci[p]]++] = j;
    }
  }

  /* pass 1: degree of each vertex in C + C^T (off-diagonal, deduplicated) */
  for (j = 0; j < n; j++) {
    mark[j] = -1;
  }
  total = 0;
  for (j = 0; j < n; j++) {
    SuiteSparse_long deg = 0;
    mark[j] = j;
    for (p = cp[j]; p < cp[j + 1]; p++) {
      if (mark[ci[p]] != j) {
        mark[ci[p]] = j;
        deg++;
      }
    }
    for (p = tp[j]; p < tp[j + 1]; p++) {
      if (mark[ti[p]] != j) {
        mark[ti[p]] = j;
        deg++;
      }
    }
    total += deg;
    if (total > (SuiteSparse_long)IDX_MAX) {
      rc = -1;
      goto done;
    }
  }

  g->adjncy = malloc(((size_t)total > 0 ? (size_t)total : 1) * sizeof *g->adjncy);
  if (!g->adjncy) {
    goto done;
  }
  *peak_bytes = ((size_t)n + 1 + (size_t)nz + (size_t)n) * sizeof(SuiteSparse_long) +
                ((size_t)n + 1 + (size_t)total) * sizeof(idx_t);

  /* pass 2: fill the adjacency lists */
  for (j = 0; j < n; j++) {
    mark[j] = -1;
  }
  k = 0;
  for (j = 0; j < n; j++) {
    g->xadj[j] = (idx_t)k;
    mark[j] = j;
    for (p = cp[j]; p < cp[j + 1]; p++) {
      if (mark[ci[p]] != j) {
        mark[ci[p]] = j;
        g->adjncy[k++] = (idx_t)ci[p];
      }
    }
    for (p = tp[j]; p < tp[j + 1]; p++) {
      if (mark[ti[p]] != j) {
        mark[ti[p]] = j;
        g->adjncy[k++] = (idx_t)ti[p];
      }
    }
  }
  g->xadj[n] = (idx_t)k;
  rc = 1;

done:
  free(tp);
  free(ti);
  free(mark);
  if (rc != 1) {
    free(g->xadj);
    free(g->adjncy);
    g->xadj = NULL;
    g->adjncy = NULL;
  }
  return rc;
}

/* nd_cholesky_nnz: nnz of the Cholesky factor L (diagonal included) of the
 * graph's matrix under the elimination order perm (perm[k] = vertex
 * eliminated k-th, iperm its inverse): the elimination tree (Liu's
 * algorithm with path compression), then the row subtrees, O(nnz(L)).
 *   parent, work  workspace of g->n entries each
 * Returns the count (>= n). */
static int64_t nd_cholesky_nnz(const nd_graph *g, const idx_t *perm, const idx_t *iperm,
                               idx_t *parent, idx_t *work)
{
  idx_t n = g->n;
  idx_t k, p, i, inext;
  int64_t lnz = n;

  /* elimination tree; work[] is the path-compressed ancestor */
  for (k = 0; k < n; k++) {
    idx_t v = perm[k];
    parent[k] = -1;
    work[k] = -1;
    for (p = g->xadj[v]; p < g->xadj[v + 1]; p++) {
      for (i = iperm[g->adjncy[p]]; i != -1 && i < k; i = inext) {
        inext = work[i];
        work[i] = k;
        if (inext == -1) {
          parent[i] = k;
        }
      }
    }
  }
  /* row counts: row k of L is the union of the tree paths from each
   * neighbour i < k up to k; work[] marks nodes visited for row k */
  for (k = 0; k < n; k++) {
    idx_t v = perm[k];
    work[k] = k;
    for (p = g->xadj[v]; p < g->xadj[v + 1]; p++) {
      i = iperm[g->adjncy[p]];
      if (i >= k) {
        continue;
      }
      for (; work[i] != k; i = parent[i]) {
        work[i] = k;
        lnz++;
      }
    }
  }
  return lnz;
}

/* metis_nd_order: KLU user ordering (Common->ordering = 3). KLU calls it for
 * each BTF diagonal block of size nk > 3 (or for the whole matrix when
 * btf = 0), with the block's own 0-based CSC pattern.
 *   inputs, not modified: n (block size), Ap[n+1], Ai[Ap[n]]
 *   output: Perm[n], the elimination order (Perm[k] = row/column of the
 *           block placed k-th), symmetric: KLU applies it to rows and columns
 * Returns the exact nnz(L) (diagonal included) of the Cholesky factor of the
 * symmetrized block under Perm, which KLU uses to size L and U; 0 on
 * failure (n or nnz over idx_t, METIS error, out of memory). */
static SuiteSparse_long metis_nd_order(SuiteSparse_long n, SuiteSparse_long *Ap,
                                       SuiteSparse_long *Ai, SuiteSparse_long *Perm,
                                       klu_l_common *Common)
{
  nd_graph g;
  idx_t options[METIS_NOPTIONS];
  idx_t nv;
  idx_t *perm = NULL;
  idx_t *iperm = NULL;
  idx_t *parent = NULL;
  idx_t *work = NULL;
  size_t build_peak = 0;
  size_t bytes = 0;
  SuiteSparse_long k;
  SuiteSparse_long result = 0;
  int rc;

  if (n <= 0 || !Ap || !Ai || !Perm || !Common) {
    return 0;
  }
  if (n > (SuiteSparse_long)IDX_MAX - 1) {
    return 0;
  }
  if (Ap[n] < 0) {
    return 0;
  }
  const sk__metis_module *metis = sk__metis(); /* opened by sk__klu_use_metis_nd */
  if (!metis) {
    return 0;
  }

  rc = nd_graph_build(n, Ap, Ai, &g, &build_peak);
  if (rc != 1) {
    return 0;
  }

  if (g.xadj[n] == 0) {
    /* no off-diagonal entries: any order is fill-free (METIS is not asked
     * to bisect an edgeless graph) */
    for (k = 0; k < n; k++) {
      Perm[k] = k;
    }
    result = n;
    bytes = build_peak;
    goto done;
  }

  perm = malloc((size_t)n * sizeof *perm);
  iperm = malloc((size_t)n * sizeof *iperm);
  if (!perm || !iperm) {
    goto done;
  }
  metis->set_default_options(options);
  options[METIS_OPTION_NUMBERING] = 0;
  nv = g.n;
  /* METIS (GKlib) traps SIGTERM and SIGABRT for its own error handling while
   * it runs: a SIGTERM meant for the application would abort the ordering.
   * Hold SIGINT and SIGTERM until METIS has restored the handlers. */
  sigset_t hold, saved;
  sigemptyset(&hold);
  sigaddset(&hold, SIGINT);
  sigaddset(&hold, SIGTERM);
  sigprocmask(SIG_BLOCK, &hold, &saved);
  const int metis_rc = metis->node_nd(&nv, g.xadj, g.adjncy, NULL, options, perm, iperm);
  sigprocmask(SIG_SETMASK, &saved, NULL);
  if (metis_rc != METIS_OK) {
    goto done;
  }

  /* METIS: row i of the permuted matrix is row perm[i] of the original, the
   * same convention as KLU's Perm. Check it is a permutation. */
  for (k = 0; k < n; k++) {
    Perm[k] = -1;
  }
  for (k = 0; k < n; k++) {
    idx_t v = perm[k];
    if (v < 0 || (SuiteSparse_long)v >= n || Perm[v] != -1 || iperm[v] != (idx_t)k) {
      goto done;
    }
    Perm[v] = k; /* temporarily the inverse, as a seen-marker */
  }
  for (k = 0; k < n; k++) {
    Perm[k] = perm[k];
  }

  parent = malloc((size_t)n * sizeof *parent);
  work = malloc((size_t)n * sizeof *work);
  if (!parent || !work) {
    goto done;
  }
  result = (SuiteSparse_long)nd_cholesky_nnz(&g, perm, iperm, parent, work);
  bytes = ((size_t)n + 1 + (size_t)g.xadj[n] + 4 * (size_t)n) * sizeof(idx_t);
  if (build_peak > bytes) {
    bytes = build_peak;
  }

done:
  if (result > 0 && Common->mempeak < Common->memusage + bytes) {
    Common->mempeak = Common->memusage + bytes;
  }
  free(g.xadj);
  free(g.adjncy);
  free(perm);
  free(iperm);
  free(parent);
  free(work);
  return result;
}

sk_status sk__klu_use_metis_nd(sk_context *ctx, sun_klu_common *common)
{
  SK_CHECK(ctx, common, SK_ERR_ARG, "sk__klu_use_metis_nd: NULL KLU common");
  const sk__metis_module *metis = NULL;
  SK_CALL(ctx, sk__metis_open(ctx, &metis));
  common->ordering = 3;
  common->user_order = metis_nd_order;
  return SK_OK;
}

int64_t sk__klu_factor_nnz(SUNLinearSolver S)
{
  sun_klu_numeric *num;

  if (!S || SUNLinSolGetID(S) != SUNLINEARSOLVER_KLU) {
    return 0;
  }
  num = SUNLinSol_KLUGetNumeric(S);
  if (!num) {
    return 0;
  }
  return (int64_t)num->lnz + (int64_t)num->unz;
}

/* src/core/jacobian_check.c: analytic Jacobian against central finite differences, colored batches */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/stop.h"
#include "core/jacobian_check.h"
#include "core/model_impl.h"

typedef struct {
  sk_model *m;
  sk_context *ctx;
  int64_t n;
  double t;
  const double *y;
  const int64_t *colptr, *rowind;
  const double *vals; /* analytic values in pattern order */
  double jscale;      /* max |analytic entry| */
  double *yp, *ym, *fp, *fm;
  int64_t *covered; /* covered[i] = stamp: row i belongs to a column of the batch */
  int64_t stamp;
  double sum_j2, sum_d2;
  sk__jac_check_result *res;
} jc_state;

static double fd_step(double yj)
{
  return cbrt(DBL_EPSILON) * fmax(1.0, fabs(yj));
}

/* Keep the SK__JAC_CHECK_WORST largest |analytic - fd|, largest first. */
static void note_entry(sk__jac_check_result *res, int64_t i, int64_t j, double a, double fd)
{
  const double d = fabs(a - fd);
  int pos = res->nworst;
  while (pos > 0 && fabs(res->worst[pos - 1].analytic - res->worst[pos - 1].fd) < d) {
    pos--;
  }
  if (pos >= SK__JAC_CHECK_WORST) {
    return;
  }
  const int last = res->nworst < SK__JAC_CHECK_WORST ? res->nworst : SK__JAC_CHECK_WORST - 1;
  for (int k = last; k > pos; k--) {
    res->worst[k] = res->worst[k - 1];
  }
  res->worst[pos] = (sk__jac_entry){.row = i, .col = j, .analytic = a, .fd = fd};
  if (res->nworst < SK__JAC_CHECK_WORST) {
    res->nworst++;
  }
}

/* One RHS evaluation at a perturbed state, after a stop check (one load
 * per RHS evaluation costs nothing measurable). */
static sk_status eval_one(jc_state *s, const double *y, double *f)
{
  SK_CALL_STOP(s->ctx, sk__stop_check(s->ctx, "checking the Jacobian against finite differences; "
                                              "nothing was written"));
  const sk_status st = sk_model_eval_rhs(s->m, s->t, y, f);
  SK_CALL(s->ctx, st);
  SK_CHECK(s->ctx, st == SK_OK, SK_ERR_CALLBACK,
           "Jacobian check: the right-hand side asked for a smaller step (recoverable failure) "
           "at a perturbed state, t=%.6e",
           s->t);
  return SK_OK;
}

static sk_status eval_pair(jc_state *s)
{
  SK_CALL_STOP(s->ctx, eval_one(s, s->yp, s->fp));
  SK_CALL_STOP(s->ctx, eval_one(s, s->ym, s->fm));
  s->res->rhs_evals += 2;
  s->res->nbatches++;
  return SK_OK;
}

/* An entry that the batch cannot vouch for: FD and analytic values differ
 * beyond the FD noise (a batch mate's undeclared dependency would show so). */
static int suspicious(const jc_state *s, double a, double fd)
{
  return fabs(a - fd) > 1e-7 * fmax(fabs(a), fabs(fd)) + 1e-9 * s->jscale;
}

/* Changes of row i outside the pattern of the batch's columns above the noise. */
static int outside_change(const jc_state *s, int64_t i, double hmin)
{
  const double df = s->fp[i] - s->fm[i];
  const double noise = 100.0 * DBL_EPSILON * (fabs(s->fp[i]) + fabs(s->fm[i]));
  return fabs(df) > noise && fabs(df) / (2.0 * hmin) > 1e-6 * s->jscale;
}

/* Perturb the columns cols[0..nc) together and compare their pattern
 * entries. A batch of several columns in which some entry disagrees, or a
 * row outside the pattern changes, is redone column by column, so that each
 * reported entry is attributed to its own column. */
static sk_status check_batch(jc_state *s, const int64_t *cols, int64_t nc)
{
  double hmin = HUGE_VAL;
  for (int64_t k = 0; k < nc; k++) {
    const int64_t j = cols[k];
    const double h = fd_step(s->y[j]);
    s->yp[j] = s->y[j] + h;
    s->ym[j] = s->y[j] - h;
    hmin = fmin(hmin, 0.5 * (s->yp[j] - s->ym[j]));
  }
  sk_status st = eval_pair(s);
  s->stamp++;
  int redo = 0;
  for (int64_t k = 0; k < nc && st == SK_OK; k++) {
    const int64_t j = cols[k];
    const double h2 = s->yp[j] - s->ym[j];
    for (int64_t p = s->colptr[j]; p < s->colptr[j + 1]; p++) {
      const int64_t i = s->rowind[p];
      s->covered[i] = s->stamp;
      redo |= nc > 1 && suspicious(s, s->vals[p], (s->fp[i] - s->fm[i]) / h2);
    }
  }
  for (int64_t i = 0; i < s->n && st == SK_OK && !redo; i++) {
    redo = nc > 1 && s->covered[i] != s->stamp && outside_change(s, i, hmin);
  }
  for (int64_t k = 0; k < nc && st == SK_OK && !redo; k++) {
    const int64_t j = cols[k];
    const double h2 = s->yp[j] - s->ym[j];
    for (int64_t p = s->colptr[j]; p < s->colptr[j + 1]; p++) {
      const int64_t i = s->rowind[p];
      const double fd = (s->fp[i] - s->fm[i]) / h2;
      const double a = s->vals[p];
      s->sum_j2 += a * a;
      s->sum_d2 += (a - fd) * (a - fd);
      s->res->nentries++;
      note_entry(s->res, i, j, a, fd);
    }
  }
  for (int64_t i = 0; i < s->n && st == SK_OK && !redo; i++) {
    if (s->covered[i] != s->stamp && outside_change(s, i, hmin)) {
      const double fd = (s->fp[i] - s->fm[i]) / (s->yp[cols[0]] - s->ym[cols[0]]);
      s->sum_d2 += fd * fd;
      s->res->outside_pattern++;
      note_entry(s->res, i, cols[0], 0.0, fd);
    }
  }
  for (int64_t k = 0; k < nc; k++) {
    s->yp[cols[k]] = s->y[cols[k]];
    s->ym[cols[k]] = s->y[cols[k]];
  }
  SK_CALL_STOP(s->ctx, st);
  for (int64_t k = 0; redo && k < nc; k++) {
    SK_CALL_STOP(s->ctx, check_batch(s, &cols[k], 1));
  }
  return SK_OK;
}

/* How many columns the check compares: all of them up to max_full, else a sample. */
static int64_t column_count(int64_t n, int64_t max_full, int64_t nsample, int *sampled)
{
  *sampled = !(n <= max_full || nsample >= n);
  return *sampled ? nsample : n;
}

/* The value at position i of the permuted identity whose changed positions
 * are pos[0..nmoved) with values val[]. */
static int64_t permuted(const int64_t *pos, const int64_t *val, int64_t nmoved, int64_t i)
{
  for (int64_t m = 0; m < nmoved; m++) {
    if (pos[m] == i) {
      return val[m];
    }
  }
  return i;
}

/* Set position i of that permutation to v. */
static void permute_set(int64_t *pos, int64_t *val, int64_t *nmoved, int64_t i, int64_t v)
{
  for (int64_t m = 0; m < *nmoved; m++) {
    if (pos[m] == i) {
      val[m] = v;
      return;
    }
  }
  pos[*nmoved] = i;
  val[(*nmoved)++] = v;
}

/* The nc columns to compare into cols: all (nc = n), or the first nsample
 * of a partial Fisher-Yates shuffle of 0..n-1 (seeded LCG), kept as the
 * positions it changed (at most 2 nsample) instead of an array of n.
 * Returns 0, or -1 without memory. */
static int choose_columns(sk_context *ctx, int64_t n, int64_t nc, int sampled, uint64_t seed,
                          int64_t *cols)
{
  if (!sampled) {
    for (int64_t j = 0; j < n; j++) {
      cols[j] = j;
    }
    return 0;
  }
  int64_t *pos = sk__malloc(ctx, 2 * (size_t)nc * sizeof *pos);
  int64_t *val = sk__malloc(ctx, 2 * (size_t)nc * sizeof *val);
  if (!pos || !val) {
    sk__free(ctx, pos);
    sk__free(ctx, val);
    return -1;
  }
  int64_t nmoved = 0;
  uint64_t x = seed ? seed : 0x9e3779b97f4a7c15ULL;
  for (int64_t k = 0; k < nc; k++) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const int64_t r = k + (int64_t)((x >> 11) % (uint64_t)(n - k));
    const int64_t at_k = permuted(pos, val, nmoved, k);
    const int64_t at_r = permuted(pos, val, nmoved, r);
    permute_set(pos, val, &nmoved, k, at_r);
    permute_set(pos, val, &nmoved, r, at_k);
    cols[k] = at_r;
  }
  sk__free(ctx, pos);
  sk__free(ctx, val);
  return 0;
}

/* One entry (row, index of its column among the chosen ones) of the chosen columns. */
typedef struct {
  int64_t row, k;
} chosen_entry;

static int by_row(const void *a, const void *b)
{
  const chosen_entry *x = a, *y = b;
  return x->row != y->row ? (x->row < y->row ? -1 : 1) : (x->k < y->k ? -1 : x->k > y->k);
}

/* The first entry of `row` in the sorted entries e[0..ne), or ne. */
static int64_t first_of_row(const chosen_entry *e, int64_t ne, int64_t row)
{
  int64_t lo = 0, hi = ne;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (e[mid].row < row) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

/* Greedy coloring of the chosen columns cols[0..nc), in that order: columns of
 * one color share no row. Works on the chosen columns' entries only (memory
 * of a sample, not of the matrix). On return order[] lists the columns
 * grouped by color, start[c]..start[c+1] the c-th group; returns the number
 * of colors (or -1: no memory). */
static int64_t color_columns(sk_context *ctx, const int64_t *colptr, const int64_t *rowind,
                             const int64_t *cols, int64_t nc, int64_t *order, int64_t **start_out)
{
  int64_t ne = 0;
  for (int64_t k = 0; k < nc; k++) {
    ne += colptr[cols[k] + 1] - colptr[cols[k]];
  }
  chosen_entry *e = sk__malloc(ctx, (size_t)(ne > 0 ? ne : 1) * sizeof *e);
  int64_t *color = sk__malloc(ctx, (size_t)(nc > 0 ? nc : 1) * sizeof *color);
  int64_t *forbid = sk__malloc(ctx, (size_t)(nc + 1) * sizeof *forbid);
  int64_t *count = sk__calloc(ctx, (size_t)nc + 2, sizeof *count);
  int64_t ncolors = -1;
  if (!e || !color || !forbid || !count) {
    goto done;
  }
  ne = 0;
  for (int64_t k = 0; k < nc; k++) {
    color[k] = -1;
    for (int64_t p = colptr[cols[k]]; p < colptr[cols[k] + 1]; p++) {
      e[ne++] = (chosen_entry){rowind[p], k};
    }
  }
  qsort(e, (size_t)ne, sizeof *e, by_row);
  for (int64_t c = 0; c <= nc; c++) {
    forbid[c] = -1;
  }
  ncolors = 0;
  for (int64_t k = 0; k < nc; k++) {
    for (int64_t p = colptr[cols[k]]; p < colptr[cols[k] + 1]; p++) {
      for (int64_t q = first_of_row(e, ne, rowind[p]); q < ne && e[q].row == rowind[p]; q++) {
        if (color[e[q].k] >= 0) {
          forbid[color[e[q].k]] = k;
        }
      }
    }
    int64_t c = 0;
    while (forbid[c] == k) {
      c++;
    }
    color[k] = c;
    count[c + 1]++;
    ncolors = c + 1 > ncolors ? c + 1 : ncolors;
  }
  for (int64_t c = 0; c < ncolors; c++) {
    count[c + 1] += count[c];
  }
  for (int64_t k = 0; k < nc; k++) {
    order[count[color[k]]++] = cols[k];
  }
  for (int64_t c = ncolors; c > 0; c--) {
    count[c] = count[c - 1];
  }
  count[0] = 0;
done:
  sk__free(ctx, e);
  sk__free(ctx, color);
  sk__free(ctx, forbid);
  if (ncolors < 0) {
    sk__free(ctx, count);
    count = NULL;
  }
  *start_out = count;
  return ncolors;
}

sk_status sk__jacobian_check(sk_model *m, double t, const double *y, int64_t max_full,
                             int64_t nsample, uint64_t seed, sk__jac_check_result *res)
{
  sk_context *ctx = sk_model_get_context(m);
  memset(res, 0, sizeof *res);
  const int64_t n = sk_model_get_n(m);
  const int64_t *colptr, *rowind;
  int64_t nnz;
  sk_model_get_jac_pattern(m, &colptr, &rowind, &nnz);
  SK_CHECK(ctx, colptr != NULL && sk_model_has_jacobian_values(m), SK_ERR_UNSUPPORTED,
           "model '%s' has no analytic Jacobian to check", sk_model_get_name(m));
  jc_state s = {
      .m = m, .ctx = ctx, .n = n, .t = t, .y = y, .colptr = colptr, .rowind = rowind, .res = res};
  double *vals = sk__malloc(ctx, (size_t)(nnz > 0 ? nnz : 1) * sizeof *vals);
  double *f0 = sk__malloc(ctx, (size_t)n * sizeof *f0);
  s.yp = sk__malloc(ctx, (size_t)n * sizeof *s.yp);
  s.ym = sk__malloc(ctx, (size_t)n * sizeof *s.ym);
  s.fp = sk__malloc(ctx, (size_t)n * sizeof *s.fp);
  s.fm = sk__malloc(ctx, (size_t)n * sizeof *s.fm);
  s.covered = sk__calloc(ctx, (size_t)n, sizeof *s.covered);
  const int64_t nc = column_count(n, max_full, nsample, &res->sampled);
  int64_t *cols = sk__malloc(ctx, (size_t)(nc > 0 ? nc : 1) * sizeof *cols);
  int64_t *order = sk__malloc(ctx, (size_t)(nc > 0 ? nc : 1) * sizeof *order);
  int64_t *start = NULL;
  sk_status st = SK_OK;
  if (!vals || !f0 || !s.yp || !s.ym || !s.fp || !s.fm || !s.covered || !cols || !order) {
    st = SK_ERROR(ctx, SK_ERR_NOMEM, "Jacobian check: cannot allocate work arrays for n=%lld",
                  (long long)n);
    goto done;
  }
  s.vals = vals;
  memcpy(s.yp, y, (size_t)n * sizeof *y);
  memcpy(s.ym, y, (size_t)n * sizeof *y);
  SK_CALL_GOTO(ctx, st, sk_model_eval_rhs(m, t, y, f0), done);
  SK_CALL_GOTO(ctx, st, sk_model_eval_jac(m, t, y, f0, vals), done);
  res->rhs_evals = 1;
  for (int64_t p = 0; p < nnz; p++) {
    s.jscale = fmax(s.jscale, fabs(vals[p]));
  }
  const int64_t ncolors = choose_columns(ctx, n, nc, res->sampled, seed, cols) == 0
                              ? color_columns(ctx, colptr, rowind, cols, nc, order, &start)
                              : -1;
  if (ncolors < 0) {
    st = SK_ERROR(ctx, SK_ERR_NOMEM, "Jacobian check: cannot allocate the column coloring");
    goto done;
  }
  res->ncols = nc;
  for (int64_t c = 0; c < ncolors; c++) {
    st = check_batch(&s, &order[start[c]], start[c + 1] - start[c]);
    if (st != SK_OK) { /* an error, or a stop request (SK_INTERRUPTED) */
      sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
      goto done;
    }
  }
  res->norm_j = sqrt(s.sum_j2);
  res->norm_diff = sqrt(s.sum_d2);
  res->rel_err = res->norm_j > 0 ? res->norm_diff / res->norm_j : res->norm_diff;
done:
  sk__free(ctx, vals);
  sk__free(ctx, f0);
  sk__free(ctx, s.yp);
  sk__free(ctx, s.ym);
  sk__free(ctx, s.fp);
  sk__free(ctx, s.fm);
  sk__free(ctx, s.covered);
  sk__free(ctx, cols);
  sk__free(ctx, order);
  sk__free(ctx, start);
  return st;
}

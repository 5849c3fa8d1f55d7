/* src/core/fd_jacobian.c: colored finite-difference Jacobian values in the order of a CSC pattern */
#include <float.h>
#include <math.h>
#include <string.h>

#include "core/error.h"
#include "core/threads.h"
#include "core/coloring.h"
#include "core/fd_jacobian.h"

struct sk__fd_jac {
  sk_context *ctx;
  int64_t n;
  const int64_t *colptr, *rowind; /* borrowed */
  int64_t ncolors;
  int64_t *color;      /* n */
  int64_t *start;      /* ncolors + 1: columns of color c are cols[start[c]..start[c+1]) */
  int64_t *cols;       /* n, grouped by color */
  double *yp, *fp;     /* n each */
  double *inc;         /* n, by position k in cols: the increment of column cols[k] */
  unsigned char *mark; /* n, by position in cols: columns of a color to difference again */
  double *tbuf;        /* 2 n per thread (y moved, f) for parallel colour groups */
  /* parallel colour groups write their columns' values packed in cols order (each colour's
     entries contiguous: no two threads share a cache line), then scattered by column */
  int64_t *ppos;  /* n + 1: start of column cols[k] in packed */
  int64_t *kpos;  /* n: position k of column j in cols */
  double *packed; /* nnz */
  int nthreads;   /* threads tbuf has room for */
};

void sk__fd_jac_destroy(sk__fd_jac **fdp)
{
  if (!fdp || !*fdp) {
    return;
  }
  sk__fd_jac *fd = *fdp;
  sk_context *ctx = fd->ctx;
  sk__free(ctx, fd->color);
  sk__free(ctx, fd->start);
  sk__free(ctx, fd->cols);
  sk__free(ctx, fd->yp);
  sk__free(ctx, fd->fp);
  sk__free(ctx, fd->inc);
  sk__free(ctx, fd->mark);
  sk__free(ctx, fd->tbuf);
  sk__free(ctx, fd->ppos);
  sk__free(ctx, fd->kpos);
  sk__free(ctx, fd->packed);
  sk__free(ctx, fd);
  *fdp = NULL;
}

sk_status sk__fd_jac_create(sk_context *ctx, int64_t n, const int64_t *colptr,
                            const int64_t *rowind, sk__fd_jac **out)
{
  *out = NULL;
  sk__fd_jac *fd = sk__calloc(ctx, 1, sizeof *fd);
  SK_CHECK(ctx, fd != NULL, SK_ERR_NOMEM, "cannot allocate the finite-difference Jacobian");
  fd->ctx = ctx;
  fd->n = n;
  fd->colptr = colptr;
  fd->rowind = rowind;
  fd->color = sk__malloc(ctx, (size_t)n * sizeof *fd->color);
  fd->cols = sk__malloc(ctx, (size_t)n * sizeof *fd->cols);
  fd->yp = sk__malloc(ctx, (size_t)n * sizeof *fd->yp);
  fd->fp = sk__malloc(ctx, (size_t)n * sizeof *fd->fp);
  fd->inc = sk__malloc(ctx, (size_t)n * sizeof *fd->inc);
  fd->mark = sk__malloc(ctx, (size_t)n * sizeof *fd->mark);
  if (!fd->color || !fd->cols || !fd->yp || !fd->fp || !fd->inc || !fd->mark) {
    sk__fd_jac_destroy(&fd);
    return SK_ERROR(ctx, SK_ERR_NOMEM,
                    "cannot allocate the finite-difference Jacobian work arrays (n %lld)",
                    (long long)n);
  }
  sk_status st = sk__csc_color_columns(ctx, n, colptr, rowind, fd->color, &fd->ncolors);
  if (st == SK_OK) {
    fd->start = sk__calloc(ctx, (size_t)fd->ncolors + 1, sizeof *fd->start);
    if (!fd->start) {
      st = SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the color groups");
    }
  }
  if (st != SK_OK) {
    sk__fd_jac_destroy(&fd);
    sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
    return st;
  }
  for (int64_t j = 0; j < n; j++) {
    fd->start[fd->color[j] + 1]++;
  }
  for (int64_t c = 0; c < fd->ncolors; c++) {
    fd->start[c + 1] += fd->start[c];
  }
  for (int64_t j = 0; j < n; j++) {
    fd->cols[fd->start[fd->color[j]]++] = j;
  }
  for (int64_t c = fd->ncolors; c > 0; c--) {
    fd->start[c] = fd->start[c - 1];
  }
  fd->start[0] = 0;
  *out = fd;
  return SK_OK;
}

int64_t sk__fd_jac_colors(const sk__fd_jac *fd)
{
  return fd ? fd->ncolors : 0;
}

int64_t sk__fd_jac_color(const sk__fd_jac *fd, int64_t j)
{
  return fd->color[j];
}

/* Move the columns k0..k1 of fd->cols (those with mark[k - k0] != 0, or all
 * when mark is NULL) by their increment sigma(j), evaluate f there into fp
 * and restore yp (which holds y on entry and on return). */
static sk_status eval_moved(sk__fd_jac *fd, sk__fd_rhs_fn rhs, void *data, double t,
                            const double *y, int64_t k0, int64_t k1, const unsigned char *mark,
                            double *yp, double *fp, int64_t *rhs_calls)
{
  for (int64_t k = k0; k < k1; k++) {
    if (!mark || mark[k - k0]) {
      const int64_t j = fd->cols[k];
      yp[j] = y[j] + fd->inc[k];
      fd->inc[k] = yp[j] - y[j]; /* the increment actually applied */
    }
  }
  const sk_status st = rhs(data, t, yp, fp);
  (*rhs_calls)++;
  for (int64_t k = k0; k < k1; k++) {
    yp[fd->cols[k]] = y[fd->cols[k]];
  }
  return st;
}

/* Differences of column cols[k] into its entries: values in pattern order
 * (packed == NULL) or packed at ppos[k]; returns 1 when the change of f is
 * lost in rounding: below 1000 ulps of the largest |f_i| of its rows. */
static int column_values(const sk__fd_jac *fd, int64_t k, const double *fp, const double *fy,
                         double *values, double *packed)
{
  const int64_t j = fd->cols[k];
  const double rinc = 1.0 / fd->inc[k];
  double *out = packed ? packed : values;
  const int64_t off = packed ? fd->ppos[k] - fd->colptr[j] : 0;
  double change = 0.0, scale = 0.0;
  for (int64_t p = fd->colptr[j]; p < fd->colptr[j + 1]; p++) {
    const int64_t i = fd->rowind[p];
    const double d = fp[i] - fy[i];
    out[p + off] = d * rinc;
    change = fmax(change, fabs(d));
    scale = fmax(scale, fabs(fy[i]));
  }
  return change <= 1e3 * DBL_EPSILON * scale;
}

/* The columns of colour c: increments, one RHS call (two when some column
 * drowned in rounding), their values (into values, or packed: see
 * column_values). Touches only the colour's own entries of inc, mark and
 * values (or packed), and yp, fp: colours can run in parallel with a yp,
 * fp pair each. */
static sk_status eval_color(sk__fd_jac *fd, sk__fd_rhs_fn rhs, void *data, double t,
                            const double *y, const double *fy, double rtol, double atol,
                            const double *atolv, double *values, double *packed, int64_t c,
                            double *yp, double *fp, int64_t *rhs_calls)
{
  const double srur = sqrt(DBL_EPSILON);
  const int64_t k0 = fd->start[c], k1 = fd->start[c + 1];
  unsigned char *mark = fd->mark + k0;
  for (int64_t k = k0; k < k1; k++) {
    const int64_t j = fd->cols[k];
    const double inv_w = rtol > 0 ? rtol * fabs(y[j]) + (atolv ? atolv[j] : atol) : 1.0;
    fd->inc[k] = fmax(srur * fabs(y[j]), srur * inv_w);
  }
  sk_status st = eval_moved(fd, rhs, data, t, y, k0, k1, NULL, yp, fp, rhs_calls);
  if (st != SK_OK) {
    return st;
  }
  /* columns whose change drowned in rounding (a component far below its
     tolerance scale, e.g. zero with a tiny atol): once more with the unit-scale
     increment sqrt(uround) max(1, |y_j|) */
  int retry = 0;
  for (int64_t k = k0; k < k1; k++) {
    const double unit = srur * fmax(1.0, fabs(y[fd->cols[k]]));
    mark[k - k0] = column_values(fd, k, fp, fy, values, packed) && fd->inc[k] < unit;
    if (mark[k - k0]) {
      fd->inc[k] = unit;
      retry = 1;
    }
  }
  if (retry) {
    st = eval_moved(fd, rhs, data, t, y, k0, k1, mark, yp, fp, rhs_calls);
    if (st != SK_OK) {
      return st;
    }
    for (int64_t k = k0; k < k1; k++) {
      if (mark[k - k0]) {
        column_values(fd, k, fp, fy, values, packed);
      }
    }
  }
  return SK_OK;
}

sk_status sk__fd_jac_eval(sk__fd_jac *fd, sk__fd_rhs_fn rhs, void *data, double t,
                          const double *y, const double *fy, double rtol, double atol,
                          const double *atolv, double *values, int64_t *rhs_calls)
{
  int64_t calls = 0;
  memcpy(fd->yp, y, (size_t)fd->n * sizeof *y);
  sk_status st = SK_OK;
  for (int64_t c = 0; c < fd->ncolors && st == SK_OK; c++) {
    st = eval_color(fd, rhs, data, t, y, fy, rtol, atol, atolv, values, NULL, c, fd->yp, fd->fp,
                    &calls);
  }
  if (rhs_calls) {
    *rhs_calls += calls;
  }
  return st;
}

sk_status sk__fd_jac_eval_concurrent(sk__fd_jac *fd, sk__fd_rhs_fn quiet, sk__fd_rhs_fn rhs,
                                     void *data, double t, const double *y, const double *fy,
                                     double rtol, double atol, const double *atolv,
                                     double *values, int64_t *rhs_calls)
{
  const int64_t n = fd->n;
  const int nt = sk__threads_max();
  if (nt < 2 || fd->ncolors < 2 || !sk__threaded(n * fd->ncolors)) {
    return sk__fd_jac_eval(fd, rhs, data, t, y, fy, rtol, atol, atolv, values, rhs_calls);
  }
  if (!fd->packed) { /* the packed layout, kept for the next call */
    const int64_t nnz = fd->colptr[n];
    fd->ppos = sk__malloc(fd->ctx, ((size_t)n + 1) * sizeof *fd->ppos);
    fd->kpos = sk__malloc(fd->ctx, (size_t)n * sizeof *fd->kpos);
    fd->packed = sk__malloc(fd->ctx, (size_t)(nnz > 0 ? nnz : 1) * sizeof *fd->packed);
    SK_CHECK(fd->ctx, fd->ppos && fd->kpos && fd->packed, SK_ERR_NOMEM,
             "cannot allocate the packed values of the FD Jacobian (%lld entries)",
             (long long)nnz);
    fd->ppos[0] = 0;
    for (int64_t k = 0; k < n; k++) {
      const int64_t j = fd->cols[k];
      fd->kpos[j] = k;
      fd->ppos[k + 1] = fd->ppos[k] + fd->colptr[j + 1] - fd->colptr[j];
    }
  }
  if (fd->nthreads < nt) { /* a (moved y, f) pair per thread, kept for the next call */
    sk__free(fd->ctx, fd->tbuf);
    fd->nthreads = 0;
    fd->tbuf = sk__malloc(fd->ctx, 2 * (size_t)n * (size_t)nt * sizeof *fd->tbuf);
    SK_CHECK(fd->ctx, fd->tbuf != NULL, SK_ERR_NOMEM,
             "cannot allocate the per-thread work vectors of the FD Jacobian (%d x 2 x %lld)", nt,
             (long long)n);
    fd->nthreads = nt;
  }
  int64_t calls = 0;
  int failed = 0;
  SK__OMP(parallel num_threads(nt) reduction(+ : calls) reduction(| : failed))
  {
    double *yp = fd->tbuf + 2 * (size_t)n * (size_t)sk__thread_id(), *fp = yp + n;
    memcpy(yp, y, (size_t)n * sizeof *y);
    SK__OMP(for schedule(dynamic, 1))
    for (int64_t c = 0; c < fd->ncolors; c++) {
      if (!failed && eval_color(fd, quiet, data, t, y, fy, rtol, atol, atolv, values, fd->packed,
                                c, yp, fp, &calls) != SK_OK) {
        failed = 1; /* this thread skips its remaining colours */
      }
    }
  }
  if (rhs_calls) {
    *rhs_calls += calls;
  }
  if (!failed) { /* scatter by column: each thread writes one contiguous range of values */
    SK__OMP(parallel for num_threads(nt) schedule(static))
    for (int64_t j = 0; j < n; j++) {
      const int64_t p0 = fd->colptr[j];
      memcpy(values + p0, fd->packed + fd->ppos[fd->kpos[j]],
             (size_t)(fd->colptr[j + 1] - p0) * sizeof *values);
    }
  }
  if (failed) { /* again one colour after the other: the failure recorded as in serial */
    return sk__fd_jac_eval(fd, rhs, data, t, y, fy, rtol, atol, atolv, values, rhs_calls);
  }
  return SK_OK;
}

/* src/models/adi_prec.c: Thomas factors of every grid line in every direction, and the line-by-line ADI solve */
/*
 * For direction d the unknowns form independent lines; along a line with
 * positions p = 0..m-1 the matrix I - gamma J_d is tridiagonal with
 * sub = -gamma a_p, diag = 1 - gamma b_p, sup = -gamma c_p. Thomas LU:
 *   mult_0 = 0,  piv_0 = diag_0,
 *   mult_p = sub_p / piv_{p-1},  piv_p = diag_p - mult_p sup_{p-1},
 * stored as mult and 1/piv per node. Solve: y_p = r_p - mult_p y_{p-1};
 * z_{m-1} = y_{m-1}/piv_{m-1}; z_p = (y_p - sup_p z_{p+1}) / piv_p.
 * Node idx = ii + s (p + m o) with s = stride_d: the loops run over the
 * outer block o, the position p, then the s lines ii of that block, so
 * the innermost loop is contiguous and every (ii, o) line is independent.
 *
 * Threads (OpenMP): setup and solve split the lines among threads (blocks
 * of whole lines: groups of SK__ADI_LANES x-lines, or (o, chunk of ii)
 * pairs for strided directions). Every entry sees the same operations in
 * the same order as with one thread, so factors and solutions are bitwise
 * identical for any thread count.
 */
#include <math.h>

#include "core/error.h"
#include "core/threads.h"
#include "models/adi_prec.h"

struct sk__adi {
  sk_context *ctx;
  sk__grid g;
  int uniform_upper;
  int uniform_lines; /* one line of factors per direction (mult, rpiv of length n_d) */
  double *mult[3];   /* per direction, per node (per position with uniform_lines) */
  double *rpiv[3];
  double *sup[3]; /* per node (NULL when uniform_upper) */
  double sup0[3], sup1[3];
};

sk_status sk__adi_create(sk_context *ctx, const sk__grid *g, int uniform_upper, int uniform_lines,
                         sk__adi **adi)
{
  *adi = NULL;
  sk__adi *a = sk__calloc(ctx, 1, sizeof *a);
  SK_CHECK(ctx, a != NULL, SK_ERR_NOMEM, "cannot allocate the ADI preconditioner");
  a->ctx = ctx;
  a->g = *g;
  a->uniform_lines = uniform_lines ? 1 : 0;
  a->uniform_upper = (uniform_upper || uniform_lines) ? 1 : 0;
  int ok = 1;
  for (int d = 0; d < g->dim; d++) {
    const size_t bytes = (size_t)(a->uniform_lines ? g->n[d] : g->total) * sizeof(double);
    a->mult[d] = sk__malloc(ctx, bytes);
    a->rpiv[d] = sk__malloc(ctx, bytes);
    ok = ok && a->mult[d] && a->rpiv[d];
    if (!a->uniform_upper) {
      a->sup[d] = sk__malloc(ctx, (size_t)g->total * sizeof(double));
      ok = ok && a->sup[d];
    }
  }
  if (!ok) {
    sk__adi_destroy(&a);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the ADI factors (%d x %lld nodes)",
                    g->dim * (uniform_upper ? 2 : 3), (long long)g->total);
  }
  *adi = a;
  return SK_OK;
}

void sk__adi_destroy(sk__adi **adi)
{
  if (!adi || !*adi) {
    return;
  }
  sk__adi *a = *adi;
  for (int d = 0; d < 3; d++) {
    sk__free(a->ctx, a->mult[d]);
    sk__free(a->ctx, a->rpiv[d]);
    sk__free(a->ctx, a->sup[d]);
  }
  sk__free(a->ctx, a);
  *adi = NULL;
}

/* Upper coefficient of I - gamma J_d in the row at (idx, p). */
static double upper_of(const sk__adi *a, int d, int64_t idx, int64_t p)
{
  if (a->sup[d]) {
    return a->sup[d][idx];
  }
  return p == 0 ? a->sup0[d] : a->sup1[d];
}

/* Uniform lines: factor the first line of each direction only. */
static int setup_uniform(sk__adi *a, double gamma, sk__adi_row_fn row, void *data)
{
  int bad = 0;
  const sk__grid *g = &a->g;
  for (int d = 0; d < g->dim; d++) {
    const int64_t s = g->stride[d], m = g->n[d];
    double *mult = a->mult[d], *rpiv = a->rpiv[d];
    double prev_up = 0.0;
    for (int64_t p = 0; p < m; p++) {
      double ca = 0.0, cb = 0.0, cc = 0.0;
      row(d, s * p, p, 0, &ca, &cb, &cc, data);
      const double diag = 1.0 - gamma * cb;
      const double up = (p < m - 1) ? -gamma * cc : 0.0;
      if (p <= 1) {
        if (p == 0) {
          a->sup0[d] = up;
        } else {
          a->sup1[d] = up;
        }
      }
      double mu = 0.0, piv = diag;
      if (p > 0) {
        mu = (-gamma * ca) * rpiv[p - 1];
        piv = diag - mu * prev_up;
      }
      mult[p] = mu;
      rpiv[p] = 1.0 / piv;
      prev_up = up;
      if (!isfinite(rpiv[p]) || !isfinite(mu)) {
        bad = 1;
      }
    }
  }
  return bad;
}

/* Lines of direction d handled together by one thread: (outer block o,
 * positions ii in [c0, c1)) for task tk of ntasks = nouter * chunks. */
#define SK__ADI_CHUNK 128
static void line_task(int64_t s, int64_t tk, int64_t *o, int64_t *c0, int64_t *c1)
{
  const int64_t chunks = (s + SK__ADI_CHUNK - 1) / SK__ADI_CHUNK;
  *o = tk / chunks;
  *c0 = (tk % chunks) * SK__ADI_CHUNK;
  *c1 = *c0 + SK__ADI_CHUNK < s ? *c0 + SK__ADI_CHUNK : s;
}

int sk__adi_setup(sk__adi *a, double gamma, sk__adi_row_fn row, void *data)
{
  if (a->uniform_lines) {
    return setup_uniform(a, gamma, row, data);
  }
  int bad = 0;
  const sk__grid *g = &a->g;
  const int par = sk__threaded(g->total);
  for (int d = 0; d < g->dim; d++) {
    const int64_t s = g->stride[d], m = g->n[d];
    const int64_t nouter = g->total / (s * m);
    const int64_t ntasks = nouter * ((s + SK__ADI_CHUNK - 1) / SK__ADI_CHUNK);
    double *mult = a->mult[d], *rpiv = a->rpiv[d], *sup = a->sup[d];
    a->sup0[d] = a->sup1[d] = 0.0;
    if (!sup) { /* the two upper values every line uses: those of the first line */
      for (int64_t p = 0; p < m && p <= 1; p++) {
        double ca = 0.0, cb = 0.0, cc = 0.0;
        row(d, s * p, p, 0, &ca, &cb, &cc, data);
        const double up = (p < m - 1) ? -gamma * cc : 0.0;
        if (p == 0) {
          a->sup0[d] = up;
        } else {
          a->sup1[d] = up;
        }
      }
    }
    SK__OMP(parallel for if(parallel: par) schedule(static) reduction(| : bad))
    for (int64_t tk = 0; tk < ntasks; tk++) {
      int64_t o, c0, c1;
      line_task(s, tk, &o, &c0, &c1);
      for (int64_t p = 0; p < m; p++) {
        const int64_t base = s * (p + m * o);
        for (int64_t ii = c0; ii < c1; ii++) {
          const int64_t idx = base + ii;
          double ca = 0.0, cb = 0.0, cc = 0.0;
          row(d, idx, p, ii + s * o, &ca, &cb, &cc, data);
          const double diag = 1.0 - gamma * cb;
          const double up = (p < m - 1) ? -gamma * cc : 0.0;
          if (sup) {
            sup[idx] = up;
          }
          double mu = 0.0, piv = diag;
          if (p > 0) {
            mu = (-gamma * ca) * rpiv[idx - s];
            piv = diag - mu * upper_of(a, d, idx - s, p - 1);
          }
          mult[idx] = mu;
          rpiv[idx] = 1.0 / piv;
          if (!isfinite(rpiv[idx]) || !isfinite(mu)) {
            bad = 1;
          }
        }
      }
    }
  }
  return bad;
}

/* One contiguous line of length m (unit stride). */
static void solve_line(double *zl, const double *ml, const double *rl, const double *up,
                       double up0, double up1, int64_t m)
{
  for (int64_t p = 1; p < m; p++) {
    zl[p] -= ml[p] * zl[p - 1];
  }
  zl[m - 1] *= rl[m - 1];
  for (int64_t p = m - 2; p >= 0; p--) {
    const double u = up ? up[p] : (p == 0 ? up0 : up1);
    zl[p] = (zl[p] - u * zl[p + 1]) * rl[p];
  }
}

/* Direction d with unit stride (x-lines): the recurrences are latency bound,
 * so SK__ADI_LANES lines advance together (independent chains); the rest
 * one by one. */
#define SK__ADI_LANES 8
static void solve_contiguous(const sk__adi *a, int d, double *z, int64_t nlines)
{
  const int64_t m = a->g.n[d];
  const double *mult = a->mult[d], *rpiv = a->rpiv[d], *sup = a->sup[d];
  const double up0 = a->sup0[d], up1 = a->sup1[d];
  const int64_t nblocks = nlines / SK__ADI_LANES;
  SK__OMP(parallel for if(parallel: sk__threaded(nlines * m)) schedule(static))
  for (int64_t blk = 0; blk < nblocks; blk++) {
    const int64_t o = blk * SK__ADI_LANES;
    double *zb = z + m * o;
    const double *mb = mult + m * o, *rb = rpiv + m * o;
    for (int64_t p = 1; p < m; p++) {
      for (int l = 0; l < SK__ADI_LANES; l++) {
        zb[l * m + p] -= mb[l * m + p] * zb[l * m + p - 1];
      }
    }
    for (int l = 0; l < SK__ADI_LANES; l++) {
      zb[l * m + m - 1] *= rb[l * m + m - 1];
    }
    for (int64_t p = m - 2; p >= 0; p--) {
      for (int l = 0; l < SK__ADI_LANES; l++) {
        const double u = sup ? sup[m * o + l * m + p] : (p == 0 ? up0 : up1);
        zb[l * m + p] = (zb[l * m + p] - u * zb[l * m + p + 1]) * rb[l * m + p];
      }
    }
  }
  for (int64_t o = nblocks * SK__ADI_LANES; o < nlines; o++) {
    solve_line(z + m * o, mult + m * o, rpiv + m * o, sup ? sup + m * o : NULL, up0, up1, m);
  }
}

/* Uniform lines, unit stride: SK__ADI_LANES lines at a time against the
 * one factored line. */
static void solve_uniform_contiguous(const sk__adi *a, int d, double *z, int64_t nlines)
{
  const int64_t m = a->g.n[d];
  const double *mult = a->mult[d], *rpiv = a->rpiv[d];
  const double up0 = a->sup0[d], up1 = a->sup1[d];
  const int64_t nblocks = nlines / SK__ADI_LANES;
  SK__OMP(parallel for if(parallel: sk__threaded(nlines * m)) schedule(static))
  for (int64_t blk = 0; blk < nblocks; blk++) {
    double *zb = z + m * (blk * SK__ADI_LANES);
    for (int64_t p = 1; p < m; p++) {
      const double mp = mult[p];
      for (int l = 0; l < SK__ADI_LANES; l++) {
        zb[l * m + p] -= mp * zb[l * m + p - 1];
      }
    }
    for (int l = 0; l < SK__ADI_LANES; l++) {
      zb[l * m + m - 1] *= rpiv[m - 1];
    }
    for (int64_t p = m - 2; p >= 0; p--) {
      const double u = p == 0 ? up0 : up1, rp = rpiv[p];
      for (int l = 0; l < SK__ADI_LANES; l++) {
        zb[l * m + p] = (zb[l * m + p] - u * zb[l * m + p + 1]) * rp;
      }
    }
  }
  for (int64_t o = nblocks * SK__ADI_LANES; o < nlines; o++) {
    solve_line(z + m * o, mult, rpiv, NULL, up0, up1, m);
  }
}

/* Uniform lines, stride s > 1: the s lines of a block advance together,
 * in column chunks small enough for the forward and backward sweeps to
 * stay in cache. */
static void solve_uniform_strided(const sk__adi *a, int d, double *z)
{
  const sk__grid *g = &a->g;
  const int64_t s = g->stride[d], m = g->n[d];
  const int64_t nouter = g->total / (s * m);
  const double *mult = a->mult[d], *rpiv = a->rpiv[d];
  const double up0 = a->sup0[d], up1 = a->sup1[d];
  const int64_t ntasks = nouter * ((s + SK__ADI_CHUNK - 1) / SK__ADI_CHUNK);
  SK__OMP(parallel for if(parallel: sk__threaded(g->total)) schedule(static))
  for (int64_t tk = 0; tk < ntasks; tk++) {
    int64_t o, c0, c1;
    line_task(s, tk, &o, &c0, &c1);
    double *zl = z + s * m * o;
    {
      for (int64_t p = 1; p < m; p++) {
        double *zp = zl + s * p;
        const double *zq = zp - s;
        const double mp = mult[p];
        for (int64_t ii = c0; ii < c1; ii++) {
          zp[ii] -= mp * zq[ii];
        }
      }
      {
        double *zp = zl + s * (m - 1);
        const double rp = rpiv[m - 1];
        for (int64_t ii = c0; ii < c1; ii++) {
          zp[ii] *= rp;
        }
      }
      for (int64_t p = m - 2; p >= 0; p--) {
        double *zp = zl + s * p;
        const double *zn = zp + s;
        const double u = p == 0 ? up0 : up1, rp = rpiv[p];
        for (int64_t ii = c0; ii < c1; ii++) {
          zp[ii] = (zp[ii] - u * zn[ii]) * rp;
        }
      }
    }
  }
}

void sk__adi_solve(const sk__adi *a, const double *r, double *z)
{
  const sk__grid *g = &a->g;
  const int par = sk__threaded(g->total);
  if (z != r) {
    SK__OMP(parallel for if(parallel: par) schedule(static))
    for (int64_t i = 0; i < g->total; i++) {
      z[i] = r[i];
    }
  }
  if (a->uniform_lines) {
    for (int d = 0; d < g->dim; d++) {
      const int64_t s = g->stride[d];
      if (s == 1) {
        solve_uniform_contiguous(a, d, z, g->total / g->n[d]);
      } else {
        solve_uniform_strided(a, d, z);
      }
    }
    return;
  }
  for (int d = 0; d < g->dim; d++) {
    const int64_t s = g->stride[d], m = g->n[d];
    const int64_t nouter = g->total / (s * m);
    const double *mult = a->mult[d], *rpiv = a->rpiv[d], *sup = a->sup[d];
    if (s == 1) {
      solve_contiguous(a, d, z, nouter);
      continue;
    }
    /* strided lines: (o, chunk of ii) tasks; each entry as in one sweep */
    const int64_t ntasks = nouter * ((s + SK__ADI_CHUNK - 1) / SK__ADI_CHUNK);
    SK__OMP(parallel for if(parallel: par) schedule(static))
    for (int64_t tk = 0; tk < ntasks; tk++) {
      int64_t o, c0, c1;
      line_task(s, tk, &o, &c0, &c1);
      double *zl = z + s * m * o;
      const double *ml = mult + s * m * o, *rl = rpiv + s * m * o;
      for (int64_t p = 1; p < m; p++) {
        double *zp = zl + s * p;
        const double *zq = zp - s, *mp = ml + s * p;
        for (int64_t ii = c0; ii < c1; ii++) {
          zp[ii] -= mp[ii] * zq[ii];
        }
      }
      {
        double *zp = zl + s * (m - 1);
        const double *rp = rl + s * (m - 1);
        for (int64_t ii = c0; ii < c1; ii++) {
          zp[ii] *= rp[ii];
        }
      }
      for (int64_t p = m - 2; p >= 0; p--) {
        double *zp = zl + s * p;
        const double *zn = zp + s, *rp = rl + s * p;
        if (sup) {
          const double *up = sup + s * m * o + s * p;
          for (int64_t ii = c0; ii < c1; ii++) {
            zp[ii] = (zp[ii] - up[ii] * zn[ii]) * rp[ii];
          }
        } else {
          const double up = p == 0 ? a->sup0[d] : a->sup1[d];
          for (int64_t ii = c0; ii < c1; ii++) {
            zp[ii] = (zp[ii] - up * zn[ii]) * rp[ii];
          }
        }
      }
    }
  }
}

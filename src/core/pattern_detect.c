/* src/core/pattern_detect.c: Jacobian sparsity detection by probing the RHS (sk_model_detect_pattern) */
#include <float.h>
#include <math.h>
#include <string.h>

#include "core/error.h"
#include "core/model_impl.h"
#include "core/csc.h"
#include "core/stop.h"

/* one column at a time up to this n; above it, group testing by residues */
#define SK__DETECT_FULL_MAX 20000
/* seed of the randomized probing states (documented in model.h) */
#define SK__DETECT_SEED 0x5d1f2c3b4a596877ULL

typedef struct {
  sk_model *m;
  sk_context *ctx;
  int64_t n;
  double t;
  double *ys, *yp, *fs, *fp; /* sample state, perturbed state, their RHS */
  double *h;                 /* perturbation per column at this sample */
  int64_t *ti, *tj;          /* triplets found */
  int64_t nt, cap;
  int64_t rhs_calls;
} detect_state;

static double next_uniform(uint64_t *x)
{
  *x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(*x >> 11) * (1.0 / 9007199254740992.0); /* [0, 1) */
}

static sk_status push(detect_state *d, int64_t i, int64_t j)
{
  if (d->nt == d->cap) {
    const int64_t cap = d->cap ? 2 * d->cap : 1024;
    int64_t *ti = sk__malloc(d->ctx, (size_t)cap * sizeof *ti);
    int64_t *tj = sk__malloc(d->ctx, (size_t)cap * sizeof *tj);
    if (!ti || !tj) {
      sk__free(d->ctx, ti);
      sk__free(d->ctx, tj);
      return SK_ERROR(d->ctx, SK_ERR_NOMEM,
                      "pattern detection: cannot grow the entry list (%lld)", (long long)cap);
    }
    if (d->nt) {
      memcpy(ti, d->ti, (size_t)d->nt * sizeof *ti);
      memcpy(tj, d->tj, (size_t)d->nt * sizeof *tj);
    }
    sk__free(d->ctx, d->ti);
    sk__free(d->ctx, d->tj);
    d->ti = ti;
    d->tj = tj;
    d->cap = cap;
  }
  d->ti[d->nt] = i;
  d->tj[d->nt] = j;
  d->nt++;
  return SK_OK;
}

/* One probe: f(t, y), after a stop check (a probe of a large model is one
 * RHS evaluation: checking before each costs nothing measurable). */
static sk_status eval(detect_state *d, const double *y, double *f)
{
  SK_CALL_STOP(d->ctx,
               sk__stop_check(d->ctx, "detecting the Jacobian pattern; nothing was written"));
  d->rhs_calls++;
  const sk_status st = sk_model_eval_rhs(d->m, d->t, y, f);
  SK_CALL(d->ctx, st);
  SK_CHECK(d->ctx, st == SK_OK, SK_ERR_CALLBACK,
           "pattern detection: the right-hand side of model '%s' reported a recoverable failure "
           "at a probing state near t=%.6e",
           d->m->name, d->t);
  return SK_OK;
}

/* Any change of output i counts (conservative: an output that does not
 * depend on the perturbed inputs is recomputed bit for bit). */
static int changed(const detect_state *d, int64_t i)
{
  return fabs(d->fp[i] - d->fs[i]) > DBL_MIN;
}

/* Perturb the columns j with j mod g == r together; rows that change go to
 * the residue lists (rows[], start per residue). */
static sk_status probe_residues(detect_state *d, int64_t g, int64_t **start_out,
                                int64_t **rows_out)
{
  int64_t *start = sk__calloc(d->ctx, (size_t)g + 1, sizeof *start);
  int64_t cap = d->n, len = 0;
  int64_t *rows = sk__malloc(d->ctx, (size_t)cap * sizeof *rows);
  sk_status st = SK_OK;
  if (!start || !rows) {
    st = SK_ERROR(d->ctx, SK_ERR_NOMEM, "pattern detection: cannot allocate residue lists");
    goto fail;
  }
  for (int64_t r = 0; r < g; r++) {
    for (int64_t j = r; j < d->n; j += g) {
      d->yp[j] = d->ys[j] + d->h[j];
    }
    st = eval(d, d->yp, d->fp);
    for (int64_t j = r; j < d->n; j += g) {
      d->yp[j] = d->ys[j];
    }
    if (st != SK_OK) {
      goto fail;
    }
    for (int64_t i = 0; i < d->n; i++) {
      if (!changed(d, i)) {
        continue;
      }
      if (len == cap) {
        int64_t *nr = sk__malloc(d->ctx, (size_t)(2 * cap) * sizeof *nr);
        if (!nr) {
          st = SK_ERROR(d->ctx, SK_ERR_NOMEM, "pattern detection: cannot grow residue lists");
          goto fail;
        }
        memcpy(nr, rows, (size_t)len * sizeof *nr);
        sk__free(d->ctx, rows);
        rows = nr;
        cap *= 2;
      }
      rows[len++] = i;
    }
    start[r + 1] = len;
  }
  *start_out = start;
  *rows_out = rows;
  return SK_OK;
fail:
  sk__free(d->ctx, start);
  sk__free(d->ctx, rows);
  return st;
}

/* Row-wise view of residue lists: for each row the residues in which it changed. */
static sk_status by_row(detect_state *d, int64_t g, const int64_t *start, const int64_t *rows,
                        int64_t **rp_out, int64_t **res_out)
{
  const int64_t len = start[g];
  int64_t *rp = sk__calloc(d->ctx, (size_t)d->n + 1, sizeof *rp);
  int64_t *res = sk__malloc(d->ctx, (size_t)(len > 0 ? len : 1) * sizeof *res);
  if (!rp || !res) {
    sk__free(d->ctx, rp);
    sk__free(d->ctx, res);
    return SK_ERROR(d->ctx, SK_ERR_NOMEM, "pattern detection: cannot allocate the row view");
  }
  for (int64_t p = 0; p < len; p++) {
    rp[rows[p] + 1]++;
  }
  for (int64_t i = 0; i < d->n; i++) {
    rp[i + 1] += rp[i];
  }
  for (int64_t r = 0; r < g; r++) {
    for (int64_t p = start[r]; p < start[r + 1]; p++) {
      res[rp[rows[p]]++] = r;
    }
  }
  for (int64_t i = d->n; i > 0; i--) {
    rp[i] = rp[i - 1];
  }
  rp[0] = 0;
  *rp_out = rp;
  *res_out = res;
  return SK_OK;
}

static int64_t gcd64(int64_t a, int64_t b)
{
  while (b) {
    const int64_t r = a % b;
    a = b;
    b = r;
  }
  return a;
}

/* Large n: three coprime moduli g1, g2 (g1 g2 >= n) and g3. Column j is
 * perturbed in residue class j mod g of each. Entry (i, j) is taken when
 * row i changed in class j mod g1 and j mod g2 (which fix j, Chinese
 * remainders) and j mod g3; a spurious combination that passes all three
 * only adds an entry (conservative). */
static sk_status sample_grouped(detect_state *d)
{
  const int64_t n = d->n;
  int64_t g1 = (int64_t)ceil(sqrt((double)n)) + 1;
  int64_t g2 = g1 + 1;
  int64_t g3 = g2 + 1;
  while (gcd64(g3, g1) != 1 || gcd64(g3, g2) != 1) {
    g3++;
  }
  const int64_t g[3] = {g1, g2, g3};
  int64_t *start[3] = {NULL, NULL, NULL}, *rows[3] = {NULL, NULL, NULL};
  int64_t *rp[3] = {NULL, NULL, NULL}, *res[3] = {NULL, NULL, NULL};
  int64_t *mark = NULL;
  sk_status st = SK_OK;
  for (int k = 0; k < 3 && st == SK_OK; k++) {
    st = probe_residues(d, g[k], &start[k], &rows[k]);
    if (st == SK_OK) {
      st = by_row(d, g[k], start[k], rows[k], &rp[k], &res[k]);
    }
  }
  if (st == SK_OK) {
    mark = sk__malloc(d->ctx, (size_t)g3 * sizeof *mark);
    if (!mark) {
      st = SK_ERROR(d->ctx, SK_ERR_NOMEM, "pattern detection: cannot allocate marks");
    }
  }
  /* inverse of g1 modulo g2 for the Chinese remainder step */
  int64_t inv = 1;
  for (int64_t x = 1; x < g2; x++) {
    if ((g1 % g2) * x % g2 == 1) {
      inv = x;
      break;
    }
  }
  for (int64_t c = 0; st == SK_OK && c < g3; c++) {
    mark[c] = -1;
  }
  for (int64_t i = 0; st == SK_OK && i < n; i++) {
    for (int64_t q = rp[2][i]; q < rp[2][i + 1]; q++) {
      mark[res[2][q]] = i;
    }
    for (int64_t a = rp[0][i]; a < rp[0][i + 1] && st == SK_OK; a++) {
      for (int64_t b = rp[1][i]; b < rp[1][i + 1] && st == SK_OK; b++) {
        const int64_t r1 = res[0][a], r2 = res[1][b];
        /* j = r1 + g1 k with j = r2 (mod g2) */
        const int64_t k = (((r2 - r1) % g2 + g2) % g2) * inv % g2;
        const int64_t j = r1 + g1 * k;
        if (j < n && mark[j % g3] == i) {
          st = push(d, i, j);
        }
      }
    }
  }
  for (int k = 0; k < 3; k++) {
    sk__free(d->ctx, start[k]);
    sk__free(d->ctx, rows[k]);
    sk__free(d->ctx, rp[k]);
    sk__free(d->ctx, res[k]);
  }
  sk__free(d->ctx, mark);
  return st;
}

/* Small n: one column at a time. */
static sk_status sample_columns(detect_state *d)
{
  for (int64_t j = 0; j < d->n; j++) {
    d->yp[j] = d->ys[j] + d->h[j];
    const sk_status st = eval(d, d->yp, d->fp);
    d->yp[j] = d->ys[j];
    SK_CALL_STOP(d->ctx, st);
    for (int64_t i = 0; i < d->n; i++) {
      if (changed(d, i)) {
        SK_CALL(d->ctx, push(d, i, j));
      }
    }
  }
  return SK_OK;
}

sk_status sk_model_detect_pattern(sk_model *m, double t, const double *y, int nsamples)
{
  if (!m) {
    return SK_ERR_ARG;
  }
  sk_context *ctx = m->ctx;
  SK_CHECK(ctx, y != NULL && nsamples > 0, SK_ERR_ARG,
           "sk_model_detect_pattern: y is NULL or nsamples (%d) < 1", nsamples);
  SK_CHECK(ctx, m->rhs != NULL, SK_ERR_STATE, "model '%s' has no right-hand side", m->name);
  const int64_t n = m->n;
  detect_state d = {.m = m, .ctx = ctx, .n = n, .t = t};
  d.ys = sk__malloc(ctx, (size_t)n * sizeof *d.ys);
  d.yp = sk__malloc(ctx, (size_t)n * sizeof *d.yp);
  d.fs = sk__malloc(ctx, (size_t)n * sizeof *d.fs);
  d.fp = sk__malloc(ctx, (size_t)n * sizeof *d.fp);
  d.h = sk__malloc(ctx, (size_t)n * sizeof *d.h);
  int64_t *cp = NULL, *ri = NULL;
  sk_status st = SK_OK;
  if (!d.ys || !d.yp || !d.fs || !d.fp || !d.h) {
    st = SK_ERROR(ctx, SK_ERR_NOMEM, "pattern detection: cannot allocate work arrays (n %lld)",
                  (long long)n);
    goto done;
  }
  uint64_t seed = SK__DETECT_SEED;
  for (int s = 0; s < nsamples; s++) {
    for (int64_t j = 0; j < n; j++) {
      const double scale = fmax(1.0, fabs(y[j]));
      d.ys[j] = y[j] + 1e-3 * scale * (2.0 * next_uniform(&seed) - 1.0);
      const double sign = next_uniform(&seed) < 0.5 ? -1.0 : 1.0;
      d.h[j] = sign * 1e-4 * scale * (0.5 + next_uniform(&seed));
    }
    memcpy(d.yp, d.ys, (size_t)n * sizeof *d.ys);
    st = eval(&d, d.ys, d.fs);
    if (st == SK_OK) {
      st = n <= SK__DETECT_FULL_MAX ? sample_columns(&d) : sample_grouped(&d);
    }
    if (st != SK_OK) { /* an error, or a stop request (SK_INTERRUPTED) */
      sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
      goto done;
    }
  }
  for (int64_t j = 0; j < n; j++) {
    SK_CALL_GOTO(ctx, st, push(&d, j, j), done);
  }
  SK_CALL_GOTO(ctx, st, sk__csc_from_triplets(ctx, n, d.nt, d.ti, d.tj, &cp, &ri), done);
  SK_CALL_GOTO(ctx, st, sk_model_set_jac_pattern(m, cp, ri), done);
  sk__log(ctx, SK_LOG_WARN,
          "model '%s': Jacobian pattern detected by probing the right-hand side (%lld entries, "
          "%d randomized state(s) near t=%.6e, %lld RHS calls); it assumes the dependence "
          "structure does not change with the state: an entry that was zero at every probe is "
          "left out, so an RHS with state-dependent branches may need its own pattern",
          m->name, (long long)cp[n], nsamples, t, (long long)d.rhs_calls);
done:
  sk__free(ctx, d.ys);
  sk__free(ctx, d.yp);
  sk__free(ctx, d.fs);
  sk__free(ctx, d.fp);
  sk__free(ctx, d.h);
  sk__free(ctx, d.ti);
  sk__free(ctx, d.tj);
  sk__free(ctx, cp);
  sk__free(ctx, ri);
  return st;
}

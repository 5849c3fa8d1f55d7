/* src/core/jacobian_selftest.c: refuse a run whose analytic Jacobian disagrees with finite differences */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "core/error.h"
#include "core/stop.h"
#include "core/jacobian_check.h"
#include "core/jacobian_selftest.h"
#include "core/model_impl.h"

sk_status sk__jacobian_selftest(sk_model *m, double t, const double *y)
{
  if (!sk_model_has_jacobian_values(m)) {
    return SK_OK;
  }
  sk_context *ctx = m->ctx;
  sk__jac_check_result res;
  SK_CALL_STOP(ctx, sk__jacobian_check(m, t, y, SK__JAC_SELFTEST_FULL_MAX,
                                       SK__JAC_SELFTEST_SAMPLE, SK__JAC_SELFTEST_SEED, &res));
  if (res.rel_err <= SK__JAC_SELFTEST_TOL && res.outside_pattern == 0) {
    return SK_OK;
  }
  char worst[700];
  size_t used = 0;
  worst[0] = '\0';
  for (int k = 0; k < res.nworst && k < 3 && used < sizeof worst; k++) {
    const sk__jac_entry *e = &res.worst[k];
    const double scale = fmax(fabs(e->analytic), fabs(e->fd));
    if (k > 0 && fabs(e->analytic - e->fd) <= SK__JAC_SELFTEST_TOL * scale) {
      break; /* the rest agree: only disagreeing entries are named */
    }
    char ri[64], cj[64];
    sk_model_component_name(m, e->row, ri, sizeof ri);
    sk_model_component_name(m, e->col, cj, sizeof cj);
    const int w =
        snprintf(worst + used, sizeof worst - used,
                 "%s(row %lld %s, column %lld %s): analytic %.6g, FD %.6g%s", k ? "; " : "",
                 (long long)e->row, ri, (long long)e->col, cj, e->analytic, e->fd,
                 e->analytic == 0.0 ? " (outside the declared pattern)" : "");
    used += w > 0 ? (size_t)w : 0;
  }
  return SK_ERROR(ctx, SK_ERR_INPUT,
                  "model '%s': the Jacobian self-test failed at t=%.6e: ||J - J_fd||/||J|| = "
                  "%.3e (limit %.0e), %lld RHS dependence(s) outside the pattern, over %s%lld "
                  "columns; worst entries: %s. Fix the Jacobian (or its pattern), or set "
                  "solver.check_jacobian=false to run anyway",
                  m->name, t, res.rel_err, SK__JAC_SELFTEST_TOL, (long long)res.outside_pattern,
                  res.sampled ? "a sample of " : "", (long long)res.ncols, worst);
}

/* Buffers of one J v comparison. */
typedef struct {
  double *v, *jv, *fd, *yp, *fp, *fm;
} jtv_work;

/* A direction with entries of random sign and size in [0.5, 1.5) (xorshift64). */
static void random_direction(uint64_t *state, double *v, int64_t n)
{
  for (int64_t i = 0; i < n; i++) {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    const double u = (double)(*state >> 11) / 9007199254740992.0; /* [0, 1) */
    v[i] = (u < 0.5 ? -1.0 : 1.0) * (0.5 + 2.0 * fmod(u, 0.5));
  }
}

/* Central difference of f along v into w->fd; the model's J v into w->jv. */
static sk_status compare_direction(sk_model *m, double t, const double *y, jtv_work *w)
{
  const int64_t n = m->n;
  double ynorm = 1.0, vnorm = 0.0;
  for (int64_t i = 0; i < n; i++) {
    ynorm = fmax(ynorm, fabs(y[i]));
    vnorm = fmax(vnorm, fabs(w->v[i]));
  }
  const double sigma = cbrt(DBL_EPSILON) * ynorm / vnorm;
  for (int64_t i = 0; i < n; i++) {
    w->yp[i] = y[i] + sigma * w->v[i];
  }
  SK_CALL(m->ctx, sk_model_eval_rhs(m, t, w->yp, w->fp));
  for (int64_t i = 0; i < n; i++) {
    w->yp[i] = y[i] - sigma * w->v[i];
  }
  SK_CALL(m->ctx, sk_model_eval_rhs(m, t, w->yp, w->fm));
  for (int64_t i = 0; i < n; i++) {
    w->fd[i] = (w->fp[i] - w->fm[i]) / (2.0 * sigma);
  }
  /* f(t, y) for the callback's reuse: the mean of the two sides is f to O(sigma^2), so evaluate it */
  SK_CALL(m->ctx, sk_model_eval_rhs(m, t, y, w->fp));
  return sk_model_eval_jtimes(m, t, y, w->fp, w->v, w->jv);
}

static sk_status jtimes_verdict(sk_model *m, double t, const jtv_work *w, int k)
{
  double d2 = 0.0, f2 = 0.0, worst = -1.0;
  int64_t iw = 0;
  for (int64_t i = 0; i < m->n; i++) {
    const double d = fabs(w->jv[i] - w->fd[i]);
    d2 += d * d;
    f2 += w->fd[i] * w->fd[i];
    if (d > worst) {
      worst = d;
      iw = i;
    }
  }
  const double rel = sqrt(d2) / fmax(sqrt(f2), DBL_MIN);
  if (rel <= SK__JAC_SELFTEST_TOL) {
    return SK_OK;
  }
  char name[64];
  sk_model_component_name(m, iw, name, sizeof name);
  return SK_ERROR(m->ctx, SK_ERR_INPUT,
                  "model '%s': the Jacobian-vector product self-test failed at t=%.6e: "
                  "||Jv - Jv_fd||/||Jv_fd|| = %.3e (limit %.0e) for test direction %d; worst "
                  "component %lld %s: J v %.6g, central difference %.6g. Fix the J v callback, "
                  "or set solver.check_jacobian=false to run anyway",
                  m->name, t, rel, SK__JAC_SELFTEST_TOL, k + 1, (long long)iw, name, w->jv[iw],
                  w->fd[iw]);
}

sk_status sk__jtimes_selftest(sk_model *m, double t, const double *y)
{
  if (!sk_model_has_jtimes(m)) {
    return SK_OK;
  }
  sk_context *ctx = m->ctx;
  const size_t n = (size_t)m->n;
  double *buf = sk__malloc(ctx, 6 * n * sizeof *buf);
  SK_CHECK(ctx, buf != NULL, SK_ERR_NOMEM, "cannot allocate the J v self-test");
  jtv_work w = {buf, buf + n, buf + 2 * n, buf + 3 * n, buf + 4 * n, buf + 5 * n};
  uint64_t state = SK__JAC_SELFTEST_SEED;
  sk_status st = SK_OK;
  for (int k = 0; k < 3 && st == SK_OK; k++) {
    random_direction(&state, w.v, m->n);
    st = compare_direction(m, t, y, &w);
    st = st == SK_OK ? jtimes_verdict(m, t, &w, k) : st;
  }
  sk__free(ctx, buf);
  return st;
}

sk_status sk__dae_jacobian_selftest(sk_model *m, double t, const double *y, const double *yp)
{
  if (!sk__model_has_analytic_dae_jac(m)) {
    return SK_OK;
  }
  sk_context *ctx = m->ctx;
  const int64_t *cp, *ri;
  int64_t nnz;
  sk_model_get_jac_pattern(m, &cp, &ri, &nnz);
  const size_t nz = (size_t)(nnz > 0 ? nnz : 1);
  double *a = sk__malloc(ctx, (2 * nz + (size_t)m->n) * sizeof *a), *f = a + nz, *r = f + nz;
  SK_CHECK(ctx, a != NULL, SK_ERR_NOMEM, "cannot allocate the DAE Jacobian self-test");
  sk_status st = sk_model_eval_residual(m, t, y, yp, r); /* r = F, which the values may reuse */
  for (int part = 0; part < 2 && st == SK_OK; part++) {  /* cj = 0: dF/dy; cj = 1: + dF/dy' */
    st = sk_model_eval_dae_jac(m, t, (double)part, y, yp, r, a);
    if (st == SK_OK) {
      st = sk__model_eval_fd_dae_jac(m, t, (double)part, y, yp, f);
    }
    double d2 = 0, f2 = 0, worst = -1;
    int64_t wp = 0, wc = 0;
    for (int64_t c = 0; st == SK_OK && c < m->n; c++) {
      for (int64_t p = cp[c]; p < cp[c + 1]; p++) {
        const double d = fabs(a[p] - f[p]);
        d2 += d * d;
        f2 += f[p] * f[p];
        if (d > worst) {
          worst = d;
          wp = p;
          wc = c;
        }
      }
    }
    const double rel = sqrt(d2) / fmax(sqrt(f2), DBL_MIN);
    if (st == SK_OK && rel > SK__JAC_SELFTEST_TOL) {
      char rn[64], cn[64];
      sk_model_residual_name(m, ri[wp], rn, sizeof rn);
      sk_model_component_name(m, wc, cn, sizeof cn);
      st = SK_ERROR(ctx, SK_ERR_INPUT,
                    "model '%s': the DAE Jacobian self-test failed at t=%.6e: %s "
                    "||J - J_fd||/||J_fd|| = %.3e (limit %.0e); worst entry (row %lld %s, "
                    "column %lld %s): analytic %.6g, FD %.6g%s. Fix the Jacobian, or set "
                    "solver.check_jacobian=false to run anyway",
                    m->name, t, part ? "dF/dy + dF/dy' (cj = 1)" : "dF/dy (cj = 0)", rel,
                    SK__JAC_SELFTEST_TOL, (long long)ri[wp], rn, (long long)wc, cn, a[wp], f[wp],
                    part ? " (dF/dy was right: the dF/dy' part differs)" : "");
    }
  }
  sk__free(ctx, a);
  return st;
}

/* src/models/bvp.c: the boundary-value problem object: callbacks, parameters, checked evaluations, difference-quotient Jacobians, solutions on a mesh */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "models/bvp_impl.h"

sk_status sk_bvp_create(sk_context *ctx, int d, double a, double b, sk_bvp **bvp)
{
  SK_CHECK(ctx, bvp != NULL, SK_ERR_ARG, "sk_bvp_create: NULL output");
  *bvp = NULL;
  SK_CHECK(ctx, d >= 1 && d <= SK_BVP_MAX_DIM, SK_ERR_ARG,
           "sk_bvp_create: the system size d = %d must lie in [1, %d]", d, SK_BVP_MAX_DIM);
  SK_CHECK(ctx, isfinite(a) && isfinite(b) && a < b, SK_ERR_ARG,
           "sk_bvp_create: the interval [%g, %g] must be finite with a < b", a, b);
  sk_bvp *p = sk__calloc(ctx, 1, sizeof *p);
  SK_CHECK(ctx, p != NULL, SK_ERR_NOMEM, "sk_bvp_create: out of memory");
  p->ctx = ctx;
  p->d = d;
  p->a = a;
  p->b = b;
  snprintf(p->name, sizeof p->name, "bvp");
  for (int i = 0; i < d; i++) {
    snprintf(p->cnames[i], sizeof p->cnames[i], "y[%d]", i);
  }
  *bvp = p;
  return SK_OK;
}

void sk_bvp_destroy(sk_bvp **bvp)
{
  if (!bvp || !*bvp) {
    return;
  }
  sk_bvp *p = *bvp;
  if (p->free_fn) {
    p->free_fn(p->user_data);
  }
  sk__free(p->ctx, p);
  *bvp = NULL;
}

#define BVP_ARG(p)     \
  if (!(p)) {          \
    return SK_ERR_ARG; \
  }

sk_status sk_bvp_set_user_data(sk_bvp *bvp, void *user_data, void (*free_fn)(void *))
{
  BVP_ARG(bvp);
  bvp->user_data = user_data;
  bvp->free_fn = free_fn;
  return SK_OK;
}

sk_status sk_bvp_set_name(sk_bvp *bvp, const char *name)
{
  BVP_ARG(bvp);
  snprintf(bvp->name, sizeof bvp->name, "%s", name ? name : "bvp");
  return SK_OK;
}

sk_status sk_bvp_set_rhs(sk_bvp *bvp, sk_bvp_rhs_fn rhs, sk_bvp_jac_fn jac)
{
  BVP_ARG(bvp);
  bvp->rhs = rhs;
  bvp->jac = jac;
  return SK_OK;
}

sk_status sk_bvp_set_bc(sk_bvp *bvp, sk_bvp_bc_fn bc, sk_bvp_bc_jac_fn bc_jac, int n_left,
                        int n_right)
{
  BVP_ARG(bvp);
  SK_CHECK(bvp->ctx, n_left >= 0 && n_right >= 0 && n_left + n_right <= bvp->d, SK_ERR_ARG,
           "sk_bvp_set_bc: %d conditions at the left end and %d at the right do not fit a "
           "system of %d equations (n_left + n_right <= d)",
           n_left, n_right, bvp->d);
  bvp->bc = bc;
  bvp->bc_jac = bc_jac;
  bvp->n_left = n_left;
  bvp->n_right = n_right;
  return SK_OK;
}

sk_status sk_bvp_set_guess(sk_bvp *bvp, sk_bvp_guess_fn guess)
{
  BVP_ARG(bvp);
  bvp->guess = guess;
  return SK_OK;
}

sk_status sk_bvp_set_exact(sk_bvp *bvp, sk_bvp_exact_fn exact)
{
  BVP_ARG(bvp);
  bvp->exact = exact;
  return SK_OK;
}

sk_status sk_bvp_set_parameters(sk_bvp *bvp, int np, const double *p, const char *const *names)
{
  BVP_ARG(bvp);
  SK_CHECK(bvp->ctx, np >= 0 && np <= SK_BVP_MAX_PARAMS && (np == 0 || p), SK_ERR_ARG,
           "sk_bvp_set_parameters: %d parameters (at most %d, values required)", np,
           SK_BVP_MAX_PARAMS);
  for (int k = 0; k < np; k++) {
    SK_CHECK(bvp->ctx, isfinite(p[k]), SK_ERR_ARG, "sk_bvp_set_parameters: p[%d] is not finite",
             k);
  }
  bvp->np = np;
  for (int k = 0; k < np; k++) {
    bvp->p[k] = p[k];
    if (names && names[k]) {
      snprintf(bvp->pnames[k], sizeof bvp->pnames[k], "%s", names[k]);
    } else {
      snprintf(bvp->pnames[k], sizeof bvp->pnames[k], "p%d", k);
    }
  }
  return SK_OK;
}

sk_status sk_bvp_set_parameter(sk_bvp *bvp, int k, double value)
{
  BVP_ARG(bvp);
  SK_CHECK(bvp->ctx, k >= 0 && k < bvp->np && isfinite(value), SK_ERR_ARG,
           "sk_bvp_set_parameter: no parameter %d, or a value that is not finite", k);
  bvp->p[k] = value;
  return SK_OK;
}

sk_status sk_bvp_set_component_names(sk_bvp *bvp, const char *const *names)
{
  BVP_ARG(bvp);
  for (int i = 0; i < bvp->d; i++) { /* an absent or empty name keeps "y[i]" */
    if (names && names[i] && names[i][0]) {
      snprintf(bvp->cnames[i], sizeof bvp->cnames[i], "%s", names[i]);
    } else {
      snprintf(bvp->cnames[i], sizeof bvp->cnames[i], "y[%d]", i);
    }
  }
  return SK_OK;
}

sk_status sk_bvp_set_condition_names(sk_bvp *bvp, const char *const *names)
{
  BVP_ARG(bvp);
  for (int i = 0; i < bvp->d; i++) {
    snprintf(bvp->bcnames[i], sizeof bvp->bcnames[i], "%s", names && names[i] ? names[i] : "");
  }
  return SK_OK;
}

void sk__bvp_condition_name(const sk_bvp *bvp, int k, char *buf, size_t len)
{
  if (bvp->bcnames[k][0]) {
    snprintf(buf, len, "'%s'", bvp->bcnames[k]);
  } else {
    snprintf(buf, len, "#%d", k);
  }
}

int sk_bvp_get_dim(const sk_bvp *bvp)
{
  return bvp ? bvp->d : 0;
}

void sk_bvp_get_interval(const sk_bvp *bvp, double *a, double *b)
{
  if (a) {
    *a = bvp ? bvp->a : 0.0;
  }
  if (b) {
    *b = bvp ? bvp->b : 0.0;
  }
}

int sk_bvp_get_nparams(const sk_bvp *bvp)
{
  return bvp ? bvp->np : 0;
}

const double *sk_bvp_get_parameters(const sk_bvp *bvp)
{
  return bvp && bvp->np ? bvp->p : NULL;
}

const char *sk_bvp_get_parameter_name(const sk_bvp *bvp, int k)
{
  return bvp && k >= 0 && k < bvp->np ? bvp->pnames[k] : NULL;
}

int sk_bvp_find_parameter(const sk_bvp *bvp, const char *name)
{
  for (int k = 0; bvp && name && k < bvp->np; k++) {
    if (!strcmp(bvp->pnames[k], name)) {
      return k;
    }
  }
  return -1;
}

const char *sk_bvp_get_component_name(const sk_bvp *bvp, int i)
{
  return bvp && i >= 0 && i < bvp->d ? bvp->cnames[i] : NULL;
}

const char *sk_bvp_get_name(const sk_bvp *bvp)
{
  return bvp ? bvp->name : NULL;
}

int sk_bvp_has_exact(const sk_bvp *bvp)
{
  return bvp && bvp->exact;
}

/* ---- checked evaluations ------------------------------------------------- */

/* The status of a callback's return code rc and its n outputs. */
static sk_status checked(sk_bvp *bvp, const char *what, int rc, double x, const double *out,
                         int n, int components)
{
  sk_context *ctx = bvp->ctx;
  if (rc < 0) {
    return SK_ERROR(ctx, SK_ERR_CALLBACK, "%s failed at x = %.9g (returned %d)", what, x, rc);
  }
  if (rc > 0) {
    SK_ERROR(ctx, SK_ERR_CALLBACK, "%s failed recoverably at x = %.9g (returned %d)", what, x,
             rc);
    return SK_RECOVERABLE;
  }
  for (int i = 0; i < n; i++) {
    if (!isfinite(out[i])) {
      if (components) {
        return SK_ERROR(ctx, SK_ERR_NONFINITE, "%s gave %g in component %s at x = %.9g", what,
                        out[i], sk_bvp_get_component_name(bvp, i % bvp->d), x);
      }
      return SK_ERROR(ctx, SK_ERR_NONFINITE, "%s gave %g in entry %d at x = %.9g", what, out[i],
                      i, x);
    }
  }
  return SK_OK;
}

sk_status sk_bvp_eval_rhs(sk_bvp *bvp, double x, const double *y, double *f)
{
  SK_CHECK(bvp->ctx, bvp->rhs != NULL, SK_ERR_STATE, "the boundary-value problem has no f");
  bvp->nf++;
  return checked(bvp, "f(x, y)", bvp->rhs(x, y, bvp->p, f, bvp->user_data), x, f, bvp->d, 1);
}

/* Forward-difference increment for value v. */
static double dq_increment(double v)
{
  return sqrt(DBL_EPSILON) * fmax(1.0, fabs(v));
}

sk_status sk_bvp_eval_jac(sk_bvp *bvp, double x, const double *y, const double *f, double *dfdy)
{
  const int d = bvp->d;
  if (bvp->jac) {
    return checked(bvp, "df/dy", bvp->jac(x, y, bvp->p, dfdy, bvp->user_data), x, dfdy, d * d, 0);
  }
  double yj[SK_BVP_MAX_DIM], f0[SK_BVP_MAX_DIM], fj[SK_BVP_MAX_DIM];
  if (!f) {
    SK_CALL(bvp->ctx, sk_bvp_eval_rhs(bvp, x, y, f0));
    f = f0;
  }
  memcpy(yj, y, (size_t)d * sizeof *yj);
  for (int j = 0; j < d; j++) {
    const double h = dq_increment(y[j]);
    yj[j] = y[j] + h;
    const sk_status st = sk_bvp_eval_rhs(bvp, x, yj, fj);
    yj[j] = y[j];
    if (st != SK_OK) {
      return st;
    }
    for (int i = 0; i < d; i++) {
      dfdy[i + d * j] = (fj[i] - f[i]) / (yj[j] + h - yj[j]);
    }
  }
  return SK_OK;
}

sk_status sk_bvp_eval_bc(sk_bvp *bvp, const double *ya, const double *yb, double *g)
{
  SK_CHECK(bvp->ctx, bvp->bc != NULL, SK_ERR_STATE,
           "the boundary-value problem has no boundary conditions");
  const int rc = bvp->bc(ya, yb, bvp->p, g, bvp->user_data);
  if (rc != 0) {
    return checked(bvp, "the boundary conditions g(y(a), y(b))", rc, bvp->a, g, 0, 0);
  }
  for (int k = 0; k < bvp->d; k++) {
    if (!isfinite(g[k])) {
      char name[48];
      sk__bvp_condition_name(bvp, k, name, sizeof name);
      return SK_ERROR(bvp->ctx, SK_ERR_NONFINITE,
                      "boundary condition %s gave %g at x = %.9g (%s)", name, g[k],
                      k < bvp->d - bvp->n_right ? bvp->a : bvp->b,
                      k < bvp->n_left             ? "the left end"
                      : k < bvp->d - bvp->n_right ? "a coupled condition"
                                                  : "the right end");
    }
  }
  return SK_OK;
}

sk_status sk_bvp_eval_bc_jac(sk_bvp *bvp, const double *ya, const double *yb, const double *g,
                             double *dga, double *dgb)
{
  const int d = bvp->d;
  if (bvp->bc_jac) {
    const sk_status st =
        checked(bvp, "dg/dy(a)", bvp->bc_jac(ya, yb, bvp->p, dga, dgb, bvp->user_data), bvp->a,
                dga, d * d, 0);
    return st != SK_OK ? st : checked(bvp, "dg/dy(b)", 0, bvp->b, dgb, d * d, 0);
  }
  double g0[SK_BVP_MAX_DIM], gj[SK_BVP_MAX_DIM], w[2][SK_BVP_MAX_DIM];
  if (!g) {
    SK_CALL(bvp->ctx, sk_bvp_eval_bc(bvp, ya, yb, g0));
    g = g0;
  }
  memcpy(w[0], ya, (size_t)d * sizeof(double));
  memcpy(w[1], yb, (size_t)d * sizeof(double));
  for (int end = 0; end < 2; end++) {
    double *out = end ? dgb : dga;
    for (int j = 0; j < d; j++) {
      const double v = w[end][j], h = dq_increment(v);
      w[end][j] = v + h;
      const sk_status st = sk_bvp_eval_bc(bvp, w[0], w[1], gj);
      const double dh = w[end][j] - v;
      w[end][j] = v;
      if (st != SK_OK) {
        return st;
      }
      for (int i = 0; i < d; i++) {
        out[i + d * j] = (gj[i] - g[i]) / dh;
      }
    }
  }
  return SK_OK;
}

sk_status sk_bvp_eval_guess(sk_bvp *bvp, double x, double *y)
{
  if (!bvp->guess) {
    memset(y, 0, (size_t)bvp->d * sizeof *y);
    return SK_OK;
  }
  return checked(bvp, "the guess", bvp->guess(x, bvp->p, y, bvp->user_data), x, y, bvp->d, 1);
}

sk_status sk_bvp_eval_exact(sk_bvp *bvp, double x, double *y)
{
  SK_CHECK(bvp->ctx, bvp->exact != NULL, SK_ERR_STATE,
           "the boundary-value problem has no exact solution");
  return checked(bvp, "the exact solution", bvp->exact(x, bvp->p, y, bvp->user_data), x, y,
                 bvp->d, 1);
}

/* ---- solutions ------------------------------------------------------------ */

sk_status sk_bvp_solution_alloc(sk_context *ctx, int64_t n, int d, sk_bvp_solution *s)
{
  SK_CHECK(ctx, s && n >= 2 && d >= 1, SK_ERR_ARG,
           "sk_bvp_solution_alloc: %lld points of %d components (n >= 2, d >= 1)", (long long)n,
           d);
  memset(s, 0, sizeof *s);
  s->x = sk__calloc(ctx, (size_t)n, sizeof *s->x);
  s->y = sk__calloc(ctx, (size_t)(n * d), sizeof *s->y);
  s->err = sk__calloc(ctx, (size_t)(n * d), sizeof *s->err);
  if (!s->x || !s->y || !s->err) {
    sk__free(ctx, s->x);
    sk__free(ctx, s->y);
    sk__free(ctx, s->err);
    memset(s, 0, sizeof *s);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate a solution of %lld points", (long long)n);
  }
  s->n = n;
  s->d = d;
  return SK_OK;
}

void sk_bvp_solution_free(sk_bvp_solution *s)
{
  if (!s) {
    return;
  }
  free(s->x);
  free(s->y);
  free(s->err);
  memset(s, 0, sizeof *s);
}

sk_status sk_bvp_solution_interp(const sk_bvp_solution *s, sk_bvp *bvp, double x, double *y)
{
  if (!s || s->n < 2 || !y) {
    return SK_ERR_ARG;
  }
  const int d = s->d;
  x = fmin(fmax(x, s->x[0]), s->x[s->n - 1]);
  int64_t lo = 0, hi = s->n - 1; /* x[lo] <= x <= x[hi] */
  while (hi - lo > 1) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (s->x[mid] <= x) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  const double h = s->x[hi] - s->x[lo], t = (x - s->x[lo]) / h;
  const double *y0 = s->y + d * lo, *y1 = s->y + d * hi;
  double f0[SK_BVP_MAX_DIM], f1[SK_BVP_MAX_DIM];
  const int hermite = bvp && d == bvp->d && sk_bvp_eval_rhs(bvp, s->x[lo], y0, f0) == SK_OK &&
                      sk_bvp_eval_rhs(bvp, s->x[hi], y1, f1) == SK_OK;
  for (int c = 0; c < d; c++) {
    if (hermite) {
      const double h00 = (1 + 2 * t) * (1 - t) * (1 - t), h10 = t * (1 - t) * (1 - t);
      const double h01 = t * t * (3 - 2 * t), h11 = t * t * (t - 1);
      y[c] = h00 * y0[c] + h10 * h * f0[c] + h01 * y1[c] + h11 * h * f1[c];
    } else {
      y[c] = (1 - t) * y0[c] + t * y1[c];
    }
  }
  return SK_OK;
}

const char *sk_bvp_method_name(sk_bvp_method m)
{
  switch (m) {
  case SK_BVP_FD:
    return "fd";
  case SK_BVP_SHOOTING:
    return "shooting";
  case SK_BVP_MULTIPLE_SHOOTING:
    return "multiple-shooting";
  }
  return "unknown";
}

/* src/models/bvp_formulas.c: a boundary-value problem written as muparser formulas (equations, boundary conditions, guess, exact solution) in x, the components and named parameters */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "models/bvp_formulas.h"
#include "core/formula_expr.h"

struct sk__bvp_formulas {
  sk_context *ctx;
  int m, order, d, np;
  double x;
  double yv[SK_BVP_MAX_DIM], ya[SK_BVP_MAX_DIM], yb[SK_BVP_MAX_DIM];
  double pv[SK_BVP_MAX_PARAMS];
  sk__formula eq[SK_BVP_MAX_DIM];    /* m: the highest derivative of each variable */
  sk__formula bc[SK_BVP_MAX_DIM];    /* d, left conditions first */
  sk__formula guess[SK_BVP_MAX_DIM]; /* d, NULL: 0 (or the derivative of the guess) */
  sk__formula exact[SK_BVP_MAX_DIM]; /* d, all or none */
  int n_left, n_right;
  double a, b;
};

void sk__bvp_formulas_free(void *data)
{
  sk__bvp_formulas *F = data;
  if (!F) {
    return;
  }
  for (int i = 0; i < SK_BVP_MAX_DIM; i++) {
    sk__formula *all[4] = {&F->eq[i], &F->bc[i], &F->guess[i], &F->exact[i]};
    for (int k = 0; k < 4; k++) {
      sk__formula_free(*all[k]);
    }
  }
  sk__free(F->ctx, F);
}

sk_status sk__bvp_formulas_create(sk_context *ctx, int m, int order, int np, double a, double b,
                                  sk__bvp_formulas **out)
{
  *out = NULL;
  sk__bvp_formulas *F = sk__calloc(ctx, 1, sizeof *F);
  SK_CHECK(ctx, F != NULL, SK_ERR_NOMEM, "cannot allocate the BVP formulas");
  F->ctx = ctx;
  F->m = m;
  F->order = order;
  F->d = m * order;
  F->np = np;
  F->a = a;
  F->b = b;
  *out = F;
  return SK_OK;
}

/* Which variables a formula may read. */
enum { VARS_STATE, VARS_LEFT, VARS_RIGHT, VARS_BOTH, VARS_X_ONLY };

sk_status sk__bvp_formulas_parse(sk__bvp_formulas *F, sk_bvp *bvp, int kind, int slot,
                                 const char *expr, const char *where)
{
  const int vars = kind == SK__BVP_F_BC_LEFT    ? VARS_LEFT
                   : kind == SK__BVP_F_BC_RIGHT ? VARS_RIGHT
                   : kind == SK__BVP_F_BC_BOTH  ? VARS_BOTH
                   : kind == SK__BVP_F_EQUATION ? VARS_STATE
                                                : VARS_X_ONLY;
  sk__formula_var v[1 + 2 * SK_BVP_MAX_DIM + SK_BVP_MAX_PARAMS];
  int nv = 0;
  v[nv++] = (sk__formula_var){"x", &F->x};
  char both[SK_BVP_MAX_DIM][2][40];
  for (int i = 0; vars == VARS_BOTH && i < F->d; i++) {
    for (int end = 0; end < 2; end++) {
      snprintf(both[i][end], sizeof both[i][end], "%s_%c", sk_bvp_get_component_name(bvp, i),
               end ? 'b' : 'a');
      v[nv++] = (sk__formula_var){both[i][end], end ? &F->yb[i] : &F->ya[i]};
    }
  }
  for (int i = 0; vars != VARS_X_ONLY && vars != VARS_BOTH && i < F->d; i++) {
    double *slotv = vars == VARS_LEFT ? &F->ya[i] : vars == VARS_RIGHT ? &F->yb[i] : &F->yv[i];
    v[nv++] = (sk__formula_var){sk_bvp_get_component_name(bvp, i), slotv};
  }
  for (int k = 0; k < F->np; k++) {
    v[nv++] = (sk__formula_var){sk_bvp_get_parameter_name(bvp, k), &F->pv[k]};
  }
  F->x = 0.5 * (F->a + F->b);
  sk__formula *dst = kind == SK__BVP_F_EQUATION ? &F->eq[slot]
                     : kind == SK__BVP_F_GUESS  ? &F->guess[slot]
                     : kind == SK__BVP_F_EXACT  ? &F->exact[slot]
                                                : &F->bc[slot];
  return sk__formula_compile(F->ctx, expr, where, v, nv, dst);
}

static void load(sk__bvp_formulas *F, double x, const double *p)
{
  F->x = x;
  memcpy(F->pv, p, (size_t)F->np * sizeof *F->pv);
}

static int rhs(double x, const double *y, const double *p, double *f, void *data)
{
  sk__bvp_formulas *F = data;
  load(F, x, p);
  memcpy(F->yv, y, (size_t)F->d * sizeof *y);
  const int lower = F->d - F->m; /* order 2: y_i' = y_{m+i} */
  for (int i = 0; i < lower; i++) {
    f[i] = y[F->m + i];
  }
  for (int i = 0; i < F->m; i++) {
    f[lower + i] = sk__formula_eval(F->eq[i]);
  }
  return 0;
}

static int bc(const double *ya, const double *yb, const double *p, double *g, void *data)
{
  sk__bvp_formulas *F = data;
  memcpy(F->ya, ya, (size_t)F->d * sizeof *ya);
  memcpy(F->yb, yb, (size_t)F->d * sizeof *yb);
  memcpy(F->pv, p, (size_t)F->np * sizeof *F->pv);
  for (int k = 0; k < F->d; k++) {
    F->x = k < F->d - F->n_right ? F->a : F->b;
    g[k] = sk__formula_eval(F->bc[k]);
  }
  return 0;
}

/* Evaluate the d formulas of `set` at x (NULL formulas give 0, or for a
 * derivative component of an order-2 problem the central difference of the
 * variable's formula). */
static void eval_set(sk__bvp_formulas *F, sk__formula *set, double x, const double *p, double *y)
{
  load(F, x, p);
  for (int i = 0; i < F->d; i++) {
    y[i] = set[i] ? sk__formula_eval(set[i]) : 0.0;
  }
  if (F->order != 2) {
    return;
  }
  const double h = 1e-6 * (F->b - F->a);
  for (int i = 0; i < F->m; i++) {
    if (set[F->m + i] || !set[i]) {
      continue;
    }
    const double hi = fmin(x + h, F->b), lo = fmax(x - h, F->a); /* inside [a, b] */
    F->x = hi;
    const double up = sk__formula_eval(set[i]);
    F->x = lo;
    y[F->m + i] = (up - sk__formula_eval(set[i])) / (hi - lo);
  }
}

static int guess(double x, const double *p, double *y, void *data)
{
  sk__bvp_formulas *F = data;
  eval_set(F, F->guess, x, p, y);
  return 0;
}

static int exact(double x, const double *p, double *y, void *data)
{
  sk__bvp_formulas *F = data;
  eval_set(F, F->exact, x, p, y);
  return 0;
}

int sk__bvp_formulas_uses(const sk__bvp_formulas *F, const char *name)
{
  for (int i = 0; i < SK_BVP_MAX_DIM; i++) {
    const sk__formula all[4] = {F->eq[i], F->bc[i], F->guess[i], F->exact[i]};
    for (int k = 0; k < 4; k++) {
      if (sk__formula_reads(all[k], name)) {
        return 1;
      }
    }
  }
  return 0;
}

void sk__bvp_formulas_attach(sk__bvp_formulas *F, sk_bvp *bvp, int n_left, int n_right)
{
  F->n_left = n_left;
  F->n_right = n_right;
  sk_bvp_set_rhs(bvp, rhs, NULL);
  sk_bvp_set_bc(bvp, bc, NULL, n_left, n_right);
  sk_bvp_set_guess(bvp, guess);
  int all = 1;
  for (int i = 0; i < F->m; i++) {
    all &= F->exact[i] != NULL;
  }
  sk_bvp_set_exact(bvp, all ? exact : NULL);
  sk_bvp_set_user_data(bvp, F, sk__bvp_formulas_free);
}

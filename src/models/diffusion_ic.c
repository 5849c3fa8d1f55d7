/* src/models/diffusion_ic.c: the diffusion models' initial state written as a formula in x, y, z (model.ic = formula) */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "models/diffusion_ic.h"
#include "models/grid.h"
#include "models/grid_keys.h"
#include "core/formula_expr.h"

#define SK__IC_NVARS 9

struct sk__diffusion_ic {
  sk_context *ctx;
  sk__formula f;
  int dim;
  double v[SK__IC_NVARS]; /* x, y, z, Lx, Ly, Lz, k0, beta, source */
  char *text;             /* the formula, for messages */
  char where[sizeof(((sk_diffusion_params *)0)->ic_formula_where)];
};

static const char *const ic_names[SK__IC_NVARS] = {"x",  "y",  "z",    "Lx",    "Ly",
                                                   "Lz", "k0", "beta", "source"};

/* The parameters of p into the formula's storage. */
static void bind_params(sk__diffusion_ic *ic, const sk_diffusion_params *p)
{
  for (int d = 0; d < 3; d++) {
    ic->v[3 + d] = p->length[d];
  }
  ic->v[6] = p->k0;
  ic->v[7] = p->beta;
  ic->v[8] = p->source_const;
}

sk_status sk__diffusion_ic_create(sk_context *ctx, const sk_diffusion_params *p,
                                  sk__diffusion_ic **out)
{
  *out = NULL;
  const char *where = p->ic_formula_where[0] ? p->ic_formula_where
                                             : sk__diffusion_key(SK__DIFFUSION_KEY_ic_formula);
  SK_CHECK(ctx, p->ic_formula != NULL, SK_ERR_INPUT,
           "%s: model.ic = formula needs the formula of the initial state (for example "
           "model.ic_formula: \"16*x*(1-x)*y*(1-y)\")",
           where);
  sk__diffusion_ic *ic = sk__calloc(ctx, 1, sizeof *ic);
  const size_t len = strlen(p->ic_formula);
  char *text = ic ? sk__malloc(ctx, len + 1) : NULL;
  if (!text) {
    sk__free(ctx, ic);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "%s: cannot allocate the formula", where);
  }
  memcpy(text, p->ic_formula, len + 1);
  ic->ctx = ctx;
  ic->dim = p->dim;
  ic->text = text;
  snprintf(ic->where, sizeof ic->where, "%s", where);
  bind_params(ic, p);
  sk__formula_var vars[SK__IC_NVARS];
  for (int k = 0; k < SK__IC_NVARS; k++) {
    vars[k] = (sk__formula_var){ic_names[k], &ic->v[k]};
  }
  const sk_status st = sk__formula_compile(ctx, text, ic->where, vars, SK__IC_NVARS, &ic->f);
  if (st != SK_OK) {
    sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
    sk__diffusion_ic_destroy(&ic);
    return st;
  }
  *out = ic;
  return SK_OK;
}

double sk__diffusion_ic_value(sk__diffusion_ic *ic, const sk_diffusion_params *p,
                              const double x[3])
{
  bind_params(ic, p);
  for (int d = 0; d < 3; d++) {
    ic->v[d] = x[d];
  }
  return sk__formula_eval(ic->f);
}

sk_status sk__diffusion_ic_nonfinite(sk__diffusion_ic *ic, const double x[3], const char *node,
                                     double u)
{
  char point[160];
  if (ic->dim == 1) {
    snprintf(point, sizeof point, "x = %.10g", x[0]);
  } else if (ic->dim == 2) {
    snprintf(point, sizeof point, "(x, y) = (%.10g, %.10g)", x[0], x[1]);
  } else {
    snprintf(point, sizeof point, "(x, y, z) = (%.10g, %.10g, %.10g)", x[0], x[1], x[2]);
  }
  return SK_ERROR(ic->ctx, SK_ERR_INPUT,
                  "%s: the initial state '%s' evaluates to %s at the grid point %s (%s): it "
                  "must be finite at every node",
                  ic->where, ic->text,
                  isnan(u) ? "NaN"
                  : u > 0  ? "Inf"
                           : "-Inf",
                  point, node);
}

void sk__diffusion_ic_destroy(sk__diffusion_ic **ic)
{
  if (!ic || !*ic) {
    return;
  }
  sk_context *ctx = (*ic)->ctx;
  sk__formula_free((*ic)->f);
  sk__free(ctx, (*ic)->text);
  sk__free(ctx, *ic);
  *ic = NULL;
}

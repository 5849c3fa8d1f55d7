/* src/models/diffusion_ic.h: the diffusion models' initial state written as a formula in x, y, z (model.ic = formula) */
#ifndef SK_MODELS_DIFFUSION_IC_H
#define SK_MODELS_DIFFUSION_IC_H

#include "stiffkit/context.h"
#include "stiffkit/diffusion.h"
#include "stiffkit/status.h"

/* A compiled initial-state formula with the storage of the names it reads. */
typedef struct sk__diffusion_ic sk__diffusion_ic;

/* sk__diffusion_ic_create: compile p->ic_formula (muparser, through
 * models/formula_expr.h) over x, y, z (the node's coordinates, 0 beyond
 * dim), Lx, Ly, Lz (the domain) and the model parameters k0, beta and
 * source. Messages start with p->ic_formula_where (the key and where it
 * was set; "" reads as `model.ic_formula`). Errors: SK_ERR_INPUT (no or an
 * empty formula, or one that does not parse, naming the names known),
 * SK_ERR_NOMEM. */
sk_status sk__diffusion_ic_create(sk_context *ctx, const sk_diffusion_params *p,
                                  sk__diffusion_ic **out);

/* sk__diffusion_ic_value: the formula's value at the point x with the
 * parameters as p holds them now. */
double sk__diffusion_ic_value(sk__diffusion_ic *ic, const sk_diffusion_params *p,
                              const double x[3]);

/* sk__diffusion_ic_nonfinite: the error for a value u that is NaN or Inf
 * at x: SK_ERR_INPUT naming the key with its location, the formula, the
 * value, the point's coordinates and `node` (the unknown's name). */
sk_status sk__diffusion_ic_nonfinite(sk__diffusion_ic *ic, const double x[3], const char *node,
                                     double u);

/* sk__diffusion_ic_destroy: frees *ic and sets it to NULL (accepts NULL). */
void sk__diffusion_ic_destroy(sk__diffusion_ic **ic);

#endif

/* src/models/bvp_formulas.h: boundary-value problems from muparser formulas (the YAML description's engine) */
#ifndef SK_MODELS_BVP_FORMULAS_H
#define SK_MODELS_BVP_FORMULAS_H

#include "models/bvp_impl.h"

typedef struct sk__bvp_formulas sk__bvp_formulas;

/* What a formula defines. */
enum {
  SK__BVP_F_EQUATION, /* the highest derivative of variable `slot`: reads x, components, parameters */
  SK__BVP_F_BC_LEFT,  /* boundary condition `slot` (= 0) at a: reads x, y(a), parameters */
  SK__BVP_F_BC_RIGHT, /* boundary condition `slot` at b: reads x, y(b), parameters */
  SK__BVP_F_BC_BOTH,  /* a coupled condition: reads <component>_a = y(a), <component>_b = y(b) */
  SK__BVP_F_GUESS,    /* the guess of component `slot`: reads x and parameters */
  SK__BVP_F_EXACT     /* the exact solution of component `slot`: reads x and parameters */
};

/* sk__bvp_formulas_create: formulas for m variables of order 1 or 2
 * (d = m order components: the variables, then their derivatives) with
 * np parameters on [a, b]. Errors: SK_ERR_NOMEM. */
sk_status sk__bvp_formulas_create(sk_context *ctx, int m, int order, int np, double a, double b,
                                  sk__bvp_formulas **F);

/* sk__bvp_formulas_parse: parse `expr` as formula `kind` for `slot`, the
 * names being bvp's component and parameter names (set before); `where`
 * prefixes messages ("file:line:col: key"). Errors: SK_ERR_INPUT (muparser's
 * message, the character, the known names), SK_ERR_NOMEM. */
sk_status sk__bvp_formulas_parse(sk__bvp_formulas *F, sk_bvp *bvp, int kind, int slot,
                                 const char *expr, const char *where);

/* sk__bvp_formulas_attach: make the formulas bvp's f, boundary conditions
 * (the first n_left at a, the others at b), guess and, when every variable
 * has one, exact solution; the conditions are n_left at a, then the
 * coupled ones, then n_right at b; bvp takes ownership of F. */
void sk__bvp_formulas_attach(sk__bvp_formulas *F, sk_bvp *bvp, int n_left, int n_right);

/* sk__bvp_formulas_uses: 1 when some parsed formula reads the variable `name`. */
int sk__bvp_formulas_uses(const sk__bvp_formulas *F, const char *name);

/* sk__bvp_formulas_free: frees F (accepts NULL). */
void sk__bvp_formulas_free(void *F);

#endif

/* src/steppers/mass_form.h: the model an engine integrates for M y' = f(t, y) (a DAE residual for ida-bdf, y' = M^{-1} f for the others) */
#ifndef SK_MODELS_MASS_FORM_H
#define SK_MODELS_MASS_FORM_H

#include "stiffkit/model.h"

/* sk__mass_form_create: the form of `model` (an ODE model with a mass
 * matrix, see sk_model_set_mass) that engine `solver` integrates: with
 * dae != 0 the DAE F = M y' - f(t, y) (iteration matrix c M - J in the
 * union pattern, ids from the zero columns of M), else the ODE
 * y' = M^{-1} f (diagonal M: Jacobian D^{-1} J in J's pattern; general M:
 * KLU factors of M and the preconditioner (M - gamma J)^{-1} M). Names,
 * initial state, exact solution, events and end time are those of
 * `model`, which must outlive the form. Output: *form (NULL on error).
 * Errors: SK_ERR_INPUT (dae == 0 and M singular: a zero row or KLU finds
 * it singular; the message names M, the row when known, and ida-bdf),
 * SK_ERR_LINSOL (another KLU failure), SK_ERR_NOMEM. */
sk_status sk__mass_form_create(sk_context *ctx, sk_model *model, int dae, const char *solver,
                               sk_model **form);

/* sk__mass_form_is_dense: 1 when `form` is the ODE form of a non-diagonal
 * M (no Jacobian pattern: only Krylov solvers or explicit steppers). */
int sk__mass_form_is_dense(const sk_model *form);

#endif

/* src/steppers/newton_klu.h: modified Newton iteration for x = psi + gamma f(t, x) (or a DAE's F(t, x, (x - psi) / gamma) = 0) with the model's sparse Jacobian and KLU */
#ifndef SK_STEPPERS_NEWTON_KLU_H
#define SK_STEPPERS_NEWTON_KLU_H

#include <stdint.h>

#include "stiffkit/model.h"
#include "stiffkit/stats.h"

typedef struct sk__newton sk__newton;

/* sk__newton_create: analyze the pattern of I - gamma J once (the model's
 * CSC pattern plus its diagonal, klu_l_analyze). The model must have a
 * Jacobian pattern; values come from its Jacobian callback, or, without
 * one, from column-by-column finite differences into the same pattern.
 *   name  the stepper's name, for messages
 * Errors: SK_ERR_UNSUPPORTED (no pattern), SK_ERR_NOMEM, SK_ERR_LINSOL. */
sk_status sk__newton_create(sk_context *ctx, sk_model *m, const char *name, sk__newton **nw);

/* sk__newton_reset: forget the Jacobian, the factors (the next factor
 * pivots afresh, as a new helper's first does) and the convergence rate;
 * the pattern's analysis stays. */
void sk__newton_reset(sk__newton *nw);

/* sk__newton_destroy: free everything; NULLs *nw; accepts NULL. */
void sk__newton_destroy(sk__newton **nw);

/* sk__newton_solve: solve G(x) = x - psi - gamma f(t, x) = 0 (a DAE model:
 * G(x) = gamma F(t, x, (x - psi) / gamma), iteration matrix
 * gamma dF/dy + dF/dy', both formed from one Jacobian evaluation) by modified
 * Newton, starting from the predictor in x (length n, overwritten by the
 * solution; left as the last iterate on failure). The iteration matrix
 * I - gamma J is refactored (klu_l_refactor, rcond check, full factor as
 * fallback) when gamma moves by more than 30%; when the iteration fails,
 * the solve is retried once from the predictor with full Newton (J
 * re-evaluated and refactored at every iterate).
 * Convergence: the WRMS norm of the update, with weights
 * 1 / (rtol |x_i| + atol_i), times min(1, rate) <= tol; at most 5 iterations.
 *   inputs: t, gamma > 0, psi[n], wt[n] (the weights), tol
 *   counts: rhs_evals, rhs_evals_dq, jac_evals, lin_setups, factorizations,
 *           newton_iters and newton_fails of st are incremented
 * Returns SK_OK, SK_RECOVERABLE (no convergence, singular matrix, or a
 * recoverable RHS: cut the step) or an error. */
sk_status sk__newton_solve(sk__newton *nw, double t, double gamma, const double *psi,
                           const double *wt, double tol, double *x, sk_stats *st);

/* sk__newton_dae_initial: consistent initial values of a DAE model at t:
 * F(t, y, y') = 0 solved by full Newton for y'_j of the differential
 * components (id[j] != 0; id NULL: all) and y_j of the algebraic ones, from
 * the guess in y[n], yp[n] (both updated). Converged when the WRMS norm of
 * the update (weights wt[n]) is <= tol, within 10 iterations. The Newton
 * state is reset afterwards (the stepping factors afresh).
 * Errors: SK_ERR_CONV (no convergence or a singular matrix: not of index 1;
 * the message names the largest residual left), the model's errors. */
sk_status sk__newton_dae_initial(sk__newton *nw, double t, const int *id, const double *wt,
                                 double tol, double *y, double *yp, sk_stats *st);

#endif

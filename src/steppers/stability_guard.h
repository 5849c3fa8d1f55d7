/* src/steppers/stability_guard.h: the run-time guards of every stepper: an explicit fixed step against the method's stability region at the Jacobian's dominant eigenvalue, and the blow-up check of the state */
#ifndef SK_STEPPERS_STABILITY_GUARD_H
#define SK_STEPPERS_STABILITY_GUARD_H

#include <stdint.h>

#include "stiffkit/stability.h"
#include "stiffkit/stepper.h"

/* Default of solver.max_growth. The eigenvalue check runs every
 * SK__GUARD_CHECK_EVERY accepted steps; the interval doubles (up to
 * SK__GUARD_CHECK_MAX) after each check whose estimate moved by less than
 * SK__GUARD_SAME relative to the previous one (a Jacobian that does not
 * change, as in a linear model, is not estimated again and again), and
 * falls back to SK__GUARD_CHECK_EVERY when it moved more. */
#define SK__GUARD_MAX_GROWTH_DEFAULT 1e8
#define SK__GUARD_CHECK_EVERY 100
#define SK__GUARD_CHECK_MAX 6400
#define SK__GUARD_SAME 0.05

/* The guards' state, part of the generic stepper's body. */
typedef struct {
  int eig_active; /* the eigenvalue check runs (explicit method, fixed step, known to
                          * the stability table) */
  sk_stability_method method;
  int warned;                  /* solver.allow_unstable: the one warning was logged */
  double scale;                /* max(||y0||_inf, 1): the growth reference */
  int64_t next_check;          /* accepted steps after which the eigenvalue is estimated again */
  int64_t interval;            /* the present check interval in steps */
  double lambda_re, lambda_im; /* the last estimate of the dominant eigenvalue */
  double limit;                /* the step limit it gave (INFINITY: none) */
  int64_t rhs_evals;           /* RHS calls of the estimates */
} sk__guard;

/* sk__guard_setup: at setup, with y0 in the state buffer: the growth
 * reference, the check that y0 is finite, and for an explicit fixed-step
 * method the stability check of its step at (t0, y0). Returns SK_OK,
 * SK_ERR_BLOWUP (a non-finite y0), SK_ERR_UNSTABLE (the step is refused;
 * message names the limit, the eigenvalue, the step and the way out), or
 * the estimate's errors (model callbacks, SK_ERR_NOMEM). */
sk_status sk__guard_setup(sk_stepper *s);

/* sk__guard_reinit: at sk_stepper_reinit, with the new state in the state
 * buffer at t0: the growth reference becomes the larger of the old one and
 * max(||y||_inf, 1), and an active stability check runs at (t0, y) as at
 * setup, the next one after SK__GUARD_CHECK_EVERY more accepted steps.
 * Returns as sk__guard_setup. */
sk_status sk__guard_reinit(sk_stepper *s);

/* sk__guard_after_step: after an accepted step to time t (state buffer
 * current): the blow-up check (a non-finite component, or a differential
 * one beyond solver.max_growth times the growth reference: SK_ERR_BLOWUP naming t,
 * the component's index, name and value), then at the check interval
 * (above) the stability check again (as in sk__guard_setup). */
sk_status sk__guard_after_step(sk_stepper *s, double t, int64_t steps);

/* sk__guard_step_limit: the largest stable fixed step of method m for the
 * dominant eigenvalue lambda = re + i im (the sign of im does not matter:
 * the regions are symmetric about the real axis). INFINITY when lambda = 0
 * or when the dominant mode grows (Re lambda > 1e-3 |lambda|: the problem
 * itself grows there, and |zeta| > 1 is the right answer). Else the step
 * where h lambda leaves the region {max |zeta| <= 1}, except where that
 * happens within |h lambda| < 0.1 (the region touches the ray only at 0:
 * the imaginary axis for euler or ab2, an undamped oscillation); there the
 * excess |zeta| - 1 = O(|h lambda|^(p+1)) is the method's own dissipation
 * error of that mode, which the step size controls as it does the
 * accuracy, and the limit is where it reaches 1e-3 per step (an
 * e-fold in 1000 steps; *weak = 1). */
double sk__guard_step_limit(const sk_stability_method *m, double re, double im, int *weak);

#endif

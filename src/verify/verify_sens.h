/* src/verify/verify_sens.h: the check of forward sensitivities against central differences of the full solution */
#ifndef SK_VERIFY_VERIFY_SENS_H
#define SK_VERIFY_VERIFY_SENS_H

#include "verify/verify_ivp.h"
#include "verify/verify_report.h"

/* The production sensitivities at the output times (np x ntimes x n, parameter j and
 * time k at S + (j ntimes + k) n), collected during the production solve. */
typedef struct {
  sk_stepper *s;
  size_t ntimes;
  int64_t n;
  int np;
  double *S;
  int failed; /* a sensitivity could not be read (the error is in the context) */
} sk__verify_sens;

/* sk__verify_sens_init: allocate the store for the stepper's sensitivities (S NULL and np 0
 * when it computes none). Errors: SK_ERR_NOMEM. */
sk_status sk__verify_sens_init(sk_context *ctx, sk_stepper *s, size_t ntimes,
                               sk__verify_sens *vs);

/* sk__verify_sens_collect: a state_fn of the production solve: store the sensitivities at
 * output k. */
void sk__verify_sens_collect(void *data, size_t k, const double *y);

/* sk__verify_sens_check: for each parameter p_j, two extra solves at p_j (1 +- 1e-4) pbar_j
 * relative steps (tolerances the production's / 1000, no sensitivities) and the central
 * difference (y(p + d) - y(p - d)) / 2d against the production sensitivity at every output
 * time: the agreement in digits relative to max |dy/dp| there, the worst over the times per
 * parameter (one row each); passes when every relative difference is at most
 * max(100 rtol, 1e-4). Adds nothing when the run has no sensitivities. y0: the initial state. */
void sk__verify_sens_check(const sk__verify_ivp *job, const sk__verify_sens *vs, const double *y0,
                           sk_verify_report *r);

/* sk__verify_sens_compare: one parameter's row of check c: the central differences
 * (yp - ym) / 2d (ntimes x n) against the computed dy/dp (time t at S + t stride, n
 * values), the worst relative difference over the times (returned) and the fewest digits
 * (*digits); the finding grows by the parameter's part (at *used). `floor` is what the
 * differences resolve (0: exact): a time whose max |central difference| is at most floor is
 * not compared (when none is, the parameter passes if max |dy/dp| is at most floor too), and
 * the relative difference counts only what exceeds floor. */
double sk__verify_sens_compare(sk__verify_check *c, int j, const char *name, double p,
                               double pbar, double d, const double *S, const double *yp,
                               const double *ym, const double *times, size_t ntimes, int64_t n,
                               size_t stride, double floor, size_t *used, double *digits);

/* sk__verify_sens_conclude: the finding's tail (the solves' tolerances fd_rtol and atol fd_rtol /
 * rtol), the check's figures and its verdict: pass when the worst relative difference is at
 * most max(100 rtol, 1e-4). */
void sk__verify_sens_conclude(sk__verify_check *c, size_t used, double rtol, double atol,
                              double fd_rtol, size_t ntimes, double worst_rel,
                              double worst_digits);

/* sk__verify_sens_fd_failed: check c cannot conclude: the solves at p +- d of parameter `name`
 * failed (the context's error says why). */
void sk__verify_sens_fd_failed(sk_context *ctx, sk__verify_check *c, const char *name, double p,
                               double d);

/* sk__verify_sens_free: frees the store (accepts a zeroed struct). */
void sk__verify_sens_free(sk__verify_sens *vs);

#endif

/* stiffkit/verify.h: checking an answer by independent means (tolerance refinement, a reference method, exact solutions, Jacobian self-tests, invariants, sensitivities; for BVPs and mechanisms their second formulation) and the report of what was verified */
#ifndef STIFFKIT_VERIFY_H
#define STIFFKIT_VERIFY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stiffkit/bvp.h"
#include "stiffkit/context.h"
#include "stiffkit/multibody.h"
#include "stiffkit/options.h"
#include "stiffkit/stepper.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the public API: exported from libstiffkit, which hides everything else */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* The verdict of one check. */
typedef enum {
  SK_VERIFY_PASS = 0,
  SK_VERIFY_FAIL = 1,
  SK_VERIFY_NOT_VERIFIED = 2 /* the check could not be made (its finding says why) */
} sk_verify_verdict;

/* The findings of one verification: a list of checks, each with a name, a
 * verdict, whether it is independent of the production method, a finding in
 * words, named numbers and (for some) a table of rows; for an initial-value
 * problem also the claimed and (with an exact solution) the true error at
 * every output time. */
typedef struct sk_verify_report sk_verify_report;

/* An initial-value problem's production run to verify. */
typedef struct {
  sk_stepper *stepper;       /* at its initial state, never advanced (set up here if not) */
  const sk_options *options; /* what the stepper was configured from: the reruns at rtol/10 and
                                rtol/100 and the sensitivities' solves take the same settings;
                                NULL: those solves take the method's defaults (tolerances and
                                step budget are always the production's) */
  const double *times;       /* output times, increasing, after the initial time */
  size_t ntimes;             /* >= 1 */
  const int64_t *probes;     /* components whose claimed error is tabulated (may be NULL) */
  const char *const *probe_names; /* their labels (nprobes entries, none NULL) */
  size_t nprobes;
} sk_verify_ivp_job;

/* sk_verify_ivp: integrate job->stepper through the output times (the
 * production answer), then check it: (1) the production statistics; (2)
 * tolerance refinement: reruns of the same method (and settings, from
 * job->options) at rtol/10 and rtol/100, whose error ratio must lie in
 * [3, 30]; (3) an independent
 * reference method (bdf2 for stiff engines, rk45 otherwise, cvode-adams
 * for a model with events) within 10x of the error level; from these the
 * claimed error and the digits vouched for at every output time; (4) the
 * exact solution where the model has one: the claim must cover the true
 * error at every time; (5) the analytic Jacobian against central finite
 * differences at the initial and final states (relative Frobenius error
 * <= 1e-4, no entry outside the pattern); (6) a network's energy balance;
 * (7) forward sensitivities against central differences of two extra
 * solves per parameter. The report fails when a check fails or no
 * independent check could be made (sk_verify_report_failed).
 * Errors: those of the production solve (the report is not made),
 * SK_ERR_ARG (a NULL or inconsistent job), SK_ERR_STATE (a stepper that
 * has advanced), SK_ERR_NOMEM, those of the stepper's setup. A check that
 * cannot run is a finding, not an error. */
sk_status sk_verify_ivp(sk_context *ctx, const sk_verify_ivp_job *job, sk_verify_report **report);

/* sk_verify_bvp: solve the problem by finite differences (settings, with
 * method set to finite differences) and by multiple shooting on the same
 * mesh; checks their agreement (within 10 tol, independent), the Richardson
 * estimate, the Newton residuals, and the exact solution where the problem
 * has one. Errors: those of sk_bvp_solve. */
sk_status sk_verify_bvp(sk_context *ctx, sk_bvp *bvp, const sk_bvp_settings *settings,
                        sk_verify_report **report);

/* A mechanism's production run to verify. */
typedef struct {
  sk_multibody *mechanism; /* assembled */
  const sk_options
      *options; /* multibody.formulation, multibody.compare, the engine's settings (required) */
  const char *method;    /* the production engine (ida-bdf, cvode-bdf, ...) */
  const double *q0, *v0; /* a consistent initial state at t0 */
  double t0;
  const double *times; /* output times after t0 */
  size_t ntimes;
  double rtol, atol;
} sk_verify_multibody_job;

/* sk_verify_multibody: simulate the mechanism in its formulation and in
 * the compared one (multibody.compare); checks positions and reaction forces of
 * the two against each other (within 100 rtol), the constraint drift of
 * each, the energy balance E - E0 = W, and the forward sensitivities when
 * the options ask for them. Errors: SK_ERR_ARG (a NULL or incomplete job,
 * tolerances not > 0), those of sk_multibody_simulate. */
sk_status sk_verify_multibody(sk_context *ctx, const sk_verify_multibody_job *job,
                              sk_verify_report **report);

/* sk_verify_report_failed: 1 when a check failed or nothing independent
 * could be checked, else 0. */
int sk_verify_report_failed(const sk_verify_report *r);

/* sk_verify_report_ncheck: the number of checks; sk_verify_report_check:
 * check k (0 <= k < ncheck): its name (a JSON key such as
 * "tolerance_refinement"), verdict, whether it is independent and was made,
 * and its finding in words. Returns -1 for a k out of range. */
int sk_verify_report_ncheck(const sk_verify_report *r);
int sk_verify_report_check(const sk_verify_report *r, int k, const char **name,
                           sk_verify_verdict *verdict, int *independent, const char **finding);

/* sk_verify_report_find: the index of the check named `name`, -1 when the
 * report has none. */
int sk_verify_report_find(const sk_verify_report *r, const char *name);

/* sk_verify_report_number: the number `key` of check k (such as
 * "true_err_max" of "exact_solution"), NAN when it has none. */
double sk_verify_report_number(const sk_verify_report *r, int k, const char *key);

/* sk_verify_report_time: at output time k (0 <= k < ntimes of an
 * initial-value problem's report): the claimed error bound and the digits
 * vouched for, the true error and its digits (NAN without an exact
 * solution; every digit count relative to max |y| there); an output
 * pointer may be NULL. Returns -1 for a k out of range or a report without
 * a per-time series. */
int sk_verify_report_time(const sk_verify_report *r, size_t k, double *t, double *claimed_err,
                          double *vouched_digits, double *true_err, double *true_digits);

/* sk_verify_report_print: the report in words (one paragraph per check,
 * then what was verified, what failed and what could not be). */
void sk_verify_report_print(const sk_verify_report *r, FILE *out);

/* sk_verify_report_write_json: the report as one JSON object. */
void sk_verify_report_write_json(const sk_verify_report *r, FILE *out);

/* sk_verify_report_destroy: frees the report and sets *r to NULL; accepts
 * NULL and *r == NULL. */
void sk_verify_report_destroy(sk_verify_report **r);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

/* Earlier names of the multibody check (define SK_NO_RETIRED_NAMES to drop them). */
#ifndef SK_NO_RETIRED_NAMES
#define sk_verify_mechanism sk_verify_multibody
#define sk_verify_mechanism_job sk_verify_multibody_job
#endif

#ifdef __cplusplus
}
#endif

#endif

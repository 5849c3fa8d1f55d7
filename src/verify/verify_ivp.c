/* src/verify/verify_ivp.c: verifying an initial-value problem's answer: tolerance refinement, a reference method, the claimed error, the exact solution, Jacobian self-tests, invariants, sensitivities */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/jacobian_check.h"
#include "verify/verify_ivp.h"
#include "verify/verify_report.h"
#include "stiffkit/model_type.h"
#include "stiffkit/network.h"
#include "verify/verify_sens.h"

/* Jacobian self-test: every column up to this size, else a column sample. */
#define VERIFY_JAC_FULL_MAX 20000
#define VERIFY_JAC_SAMPLE 200
#define VERIFY_JAC_TOL 1e-4

/* Everything the checks share. */
typedef struct {
  sk_context *ctx;
  const sk__verify_ivp *job;
  sk_verify_report *report;
  int64_t n;
  double *y0;
  double *prod;             /* production states at the output times, ntimes x n */
  double *fine;             /* rtol/100 states, NULL when that solve did not run */
  double *mid;              /* rtol/10 states, NULL when that solve did not run */
  double *ref;              /* reference stepper states, NULL when it did not run */
  sk__verify_check *refine; /* the tolerance-refinement check (its claim is filled last) */
  const char *refine_text;  /* its verdict in words */
  double ratio;             /* R = max |y(rtol) - y(rtol/100)| / max |y(rtol/10) - y(rtol/100)| */
  double ymax;              /* max |y| over the output times (production) */
  int have_est;
  double est_max;   /* max over times and components of |y(rtol) - y(rtol/100)| */
  double claim_max; /* max over times of the claimed error bound (see check_refinement) */
  double fine_err;  /* max over times of |y(rtol/100) - y_exact| (exact models) */
} verify_ctx;

/* The error message of the context's last error, without traceback. */
static void last_error(sk_context *ctx, char *buf, size_t len)
{
  sk_error_format(sk_context_get_error(ctx), 0, buf, len);
}

/* max_i |a_i - b_i| and sqrt(mean (a_i - b_i)^2) */
static void diff_norms(int64_t n, const double *a, const double *b, double *maxd, double *rms)
{
  double m = 0, s2 = 0;
  for (int64_t i = 0; i < n; i++) {
    const double d = fabs(a[i] - b[i]);
    m = d > m ? d : m;
    s2 += d * d;
  }
  *maxd = m;
  *rms = sqrt(s2 / (double)n);
}

static void value_norms(int64_t n, const double *a, double *maxv, double *rms)
{
  double m = 0, s2 = 0;
  for (int64_t i = 0; i < n; i++) {
    m = fabs(a[i]) > m ? fabs(a[i]) : m;
    s2 += a[i] * a[i];
  }
  *maxv = m;
  *rms = sqrt(s2 / (double)n);
}

/* ---- 1. production ------------------------------------------------------ */

static void check_production(verify_ctx *v, sk_verify_report *r)
{
  sk__verify_check *c = sk__verify_report_add(r, "production", "production solve");
  sk_stats st;
  sk_stepper_get_stats(v->job->stepper, &st);
  c->verdict = SK_VERIFY_PASS;
  snprintf(c->finding, sizeof c->finding,
           "%s reached t = %.6e in %lld steps (%lld RHS evaluations, %lld error test "
           "failures); max |y| over the output times %.6e",
           v->job->method, st.t, (long long)st.steps, (long long)st.rhs_evals,
           (long long)st.failed_steps, v->ymax);
  sk__verify_check_num(c, "steps", (double)st.steps);
  sk__verify_check_num(c, "rhs_evals", (double)st.rhs_evals);
  sk__verify_check_num(c, "max_abs_y", v->ymax);
}

/* ---- 2. tolerance refinement -------------------------------------------- */

static void check_refinement(verify_ctx *v, sk_verify_report *r)
{
  const sk__verify_ivp *job = v->job;
  sk__verify_check *c = sk__verify_report_add(r, "tolerance_refinement", "tolerance refinement");
  v->refine = c;
  const sk_stepper_type *type = sk_stepper_get_type(job->stepper);
  if (!(type->flags & SK_STEPPER_ADAPTIVE) && sk_stepper_get_fixed_step(job->stepper) > 0) {
    snprintf(c->finding, sizeof c->finding,
             "%s runs with the fixed step %.3e: its tolerances do not control its error, so "
             "refining rtol says nothing (no error estimate, no digits vouched)",
             job->method, sk_stepper_get_fixed_step(job->stepper));
    return;
  }
  const int64_t n = v->n;
  const size_t nt = job->ntimes;
  v->fine = malloc(nt * (size_t)n * sizeof *v->fine);
  v->mid = malloc(nt * (size_t)n * sizeof *v->mid);
  sk_stepper *fine = NULL, *mid = NULL;
  char msg[SK_ERROR_MSG_LEN + 64];
  sk_status st = v->fine && v->mid ? SK_OK : SK_ERR_NOMEM;
  const char *which = "rtol/100";
  if (st == SK_OK) {
    st = sk__verify_stepper(job, job->method, 1, 1, 0.01, 100, v->y0, &fine);
  }
  if (st == SK_OK) {
    st = sk__verify_solve(job, fine, v->fine, NULL, NULL);
  }
  if (st == SK_OK) {
    which = "rtol/10";
    st = sk__verify_stepper(job, job->method, 1, 1, 0.1, 10, v->y0, &mid);
  }
  if (st == SK_OK) {
    st = sk__verify_solve(job, mid, v->mid, NULL, NULL);
  }
  sk_stepper_destroy(&fine);
  sk_stepper_destroy(&mid);
  if (st != SK_OK) {
    if (st == SK_ERR_NOMEM && !(v->fine && v->mid)) {
      snprintf(msg, sizeof msg, "cannot allocate %zu x %lld states", nt, (long long)n);
    } else {
      last_error(v->ctx, msg, sizeof msg);
    }
    snprintf(c->finding, sizeof c->finding,
             "the %s solve failed, so there is no error estimate (no digits vouched): %s", which,
             msg);
    free(v->fine);
    free(v->mid);
    v->fine = v->mid = NULL;
    return;
  }
  /* the raw estimate |y(rtol) - y(rtol/100)| and the ratio R */
  double est_max = 0, mid_max = 0;
  for (size_t k = 0; k < nt; k++) {
    const size_t o = k * (size_t)n;
    double d, rms;
    diff_norms(n, v->prod + o, v->fine + o, &d, &rms);
    est_max = d > est_max ? d : est_max;
    diff_norms(n, v->mid + o, v->fine + o, &d, &rms);
    mid_max = d > mid_max ? d : mid_max;
  }
  const double ratio = mid_max > 0 ? est_max / mid_max : NAN;
  const double roundoff = 1e3 * 2.2e-16 * (v->ymax > 0 ? v->ymax : 1.0);
  v->have_est = 1;
  v->est_max = est_max;
  v->ratio = ratio;
  sk__verify_check_num(c, "est_err_max_all_times", est_max);
  sk__verify_check_num(c, "err_rtol10_max_all_times", mid_max);
  sk__verify_check_num(c, "scaling_ratio", ratio);
  if (est_max <= roundoff) {
    c->verdict = SK_VERIFY_NOT_VERIFIED;
    v->refine_text = "the differences are at the roundoff level, so the scaling with the "
                     "tolerance cannot be measured";
  } else if (isfinite(ratio) && ratio >= 3 && ratio <= 30) {
    c->verdict = SK_VERIFY_PASS;
    v->refine_text = "the error scales with the tolerance (ratio within [3, 30])";
  } else {
    c->verdict = SK_VERIFY_FAIL;
    v->refine_text = "the error does NOT scale with the tolerance (ratio outside [3, 30]): the "
                     "error control is not in charge of the error";
  }
}

/* ---- 3. reference stepper ----------------------------------------------- */

/* The reference: implicit (bdf2) for stiff engines, rk45 otherwise; never
 * the production method itself. A model with events needs an engine that
 * locates them, which the reference steppers do not: the other multistep
 * family of CVODE (Adams-Moulton against BDF); a DAE with events has no
 * second such engine (ida-bdf is the only one), and the check says so. */
static const char *reference_method(const sk_stepper_type *prod, const sk_model *m)
{
  if (sk_model_get_nevents(m) > 0 && sk_model_get_kind(m) == SK_MODEL_ODE) {
    return strcmp(prod->name, "cvode-adams") ? "cvode-adams" : "cvode-bdf";
  }
  if (prod->flags & SK_STEPPER_STIFF) {
    return strcmp(prod->name, "bdf2") ? "bdf2" : "cvode-bdf";
  }
  return strcmp(prod->name, "rk45") ? "rk45" : "bdf2";
}

typedef struct {
  verify_ctx *v;
  double maxd;
  size_t kworst;
  int64_t iworst;
} ref_cmp;

static void compare_ref(void *data, size_t k, const double *y)
{
  ref_cmp *m = data;
  const double *p = m->v->prod + k * (size_t)m->v->n;
  if (m->v->ref) {
    memcpy(m->v->ref + k * (size_t)m->v->n, y, (size_t)m->v->n * sizeof *y);
  }
  for (int64_t i = 0; i < m->v->n; i++) {
    const double d = fabs(y[i] - p[i]);
    if (d > m->maxd) {
      m->maxd = d;
      m->kworst = k;
      m->iworst = i;
    }
  }
}

static void check_reference(verify_ctx *v, sk_verify_report *r)
{
  const sk__verify_ivp *job = v->job;
  sk__verify_check *c =
      sk__verify_report_add(r, "reference_stepper", "independent reference stepper");
  const char *ref = reference_method(sk_stepper_get_type(job->stepper), job->model);
  sk_stepper *s = NULL;
  ref_cmp rc = {.v = v};
  v->ref = malloc(job->ntimes * (size_t)v->n * sizeof *v->ref); /* NULL: no states kept */
  sk_status st = sk__verify_stepper(job, ref, 0, 1, 0.01, 10, v->y0, &s);
  if (st == SK_OK) {
    st = sk__verify_solve(job, s, NULL, compare_ref, &rc);
  }
  sk_stats stats;
  memset(&stats, 0, sizeof stats);
  if (s) {
    sk_stepper_get_stats(s, &stats);
  }
  sk_stepper_destroy(&s);
  if (st != SK_OK) {
    char msg[SK_ERROR_MSG_LEN + 64];
    free(v->ref);
    v->ref = NULL;
    last_error(v->ctx, msg, sizeof msg);
    snprintf(c->finding, sizeof c->finding,
             "the reference stepper %s (rtol %.1e) could not run on this model: %s", ref,
             job->rtol * 0.01, msg);
    return;
  }
  c->independent = 1;
  const double tol_level = job->rtol * v->ymax + job->atol;
  const double level = v->have_est && v->est_max > tol_level ? v->est_max : tol_level;
  const double rel = rc.maxd / level;
  const int fixed_step = sk_stepper_get_fixed_step(job->stepper) > 0 &&
                         !(sk_stepper_get_type(job->stepper)->flags & SK_STEPPER_ADAPTIVE);
  char name[96];
  sk_model_component_name(job->model, rc.iworst, name, sizeof name);
  sk__verify_check_num(c, "max_diff", rc.maxd);
  sk__verify_check_num(c, "error_level", level);
  sk__verify_check_num(c, "max_diff_over_error_level", rel);
  sk__verify_check_num(c, "max_diff_over_est_err",
                       v->have_est && v->est_max > 0 ? rc.maxd / v->est_max : NAN);
  sk__verify_check_num(c, "reference_steps", (double)stats.steps);
  c->verdict = rel <= 10 ? SK_VERIFY_PASS : SK_VERIFY_FAIL;
  snprintf(c->finding, sizeof c->finding,
           "%s (adaptive, rtol %.1e, atol %.1e, %lld steps) against the production answer: max "
           "difference at the output times %.3e (at t = %.6e, component %s), %.3g x the "
           "tolerance-level error %.3e (%s). %s%s",
           ref, job->rtol * 0.01, job->atol * 0.01, (long long)stats.steps, rc.maxd,
           job->times[rc.kworst], name, rel, level,
           v->have_est && v->est_max > tol_level ? "the estimated error" : "rtol max|y| + atol",
           rel <= 10 ? "They agree (within 10x)." : "They DISAGREE (more than 10x).",
           fixed_step ? " The production method runs with a fixed step: its error is set by the "
                        "step, not by rtol."
                      : "");
}

/* ---- the claimed error and the digits vouched ------------------------- */

/*
 * The error the report claims for the production answer y1 = y(rtol) at an
 * output time, from the reruns y10 = y(rtol/10), y100 = y(rtol/100) and the
 * independent reference yr:
 *
 *   claimed = max(S max(|y1 - y10|, |y1 - y100|, |y1 - yr|), rtol |y1| + atol),
 *   S = rho / (rho - 1),
 *
 * where rho is the measured reduction of the error per decade of
 * tolerance (10 when the error is proportional to the tolerance): if each
 * decade divides the error by rho, the ratio R = max_t |y1 - y100| /
 * max_t |y10 - y100| is (rho^2 - 1) / (rho - 1) = rho + 1, so rho = R - 1.
 * Each difference is e1 - e_k (e = error), so |e1| <= |y1 - y10| + |e10|,
 * and a reduction by rho makes |e10| <= |e1| / rho: |e1| <= S |y1 - y10|.
 * The other two estimators cover the output times where y10 happens to err
 * like y1: an adaptive solver's error is not tolerance-proportional at every
 * output time (on data/heat2d.yaml, n = 20, semidiscrete, rtol 1e-3, the
 * final-time errors at rtol, rtol/10 and rtol/100 are 5.0e-5, 2.0e-5 and
 * 2.9e-5), and the reruns share the production method's error pattern,
 * which the reference stepper (another method) does not. Where all three
 * still err alike (the first output time of that run at rtol 1e-4: true
 * 9.7e-6, the largest difference 7.7e-6), the floor rtol |y1| + atol
 * holds: verify never vouches for more digits than the tolerance asked
 * for, since accuracy beyond it is not under the error control. R <= 2 (no
 * reduction measured) makes S infinite: no digit is vouched. The digits
 * vouched are -log10(claimed / max|y1|), at every output time.
 */

/* The factor S = rho / (rho - 1), rho = R - 1, of a measured ratio R (infinite when R <= 2). */
static double safety_factor(double ratio)
{
  const double rho = ratio - 1.0;
  return isfinite(rho) && rho > 1.0 ? rho / (rho - 1.0) : INFINITY;
}

/* The claim at output time k: max and RMS norms. */
static void claimed_norms(const verify_ctx *v, double S, size_t k, double *maxd, double *rms)
{
  const size_t o = k * (size_t)v->n;
  const double *others[] = {v->mid + o, v->fine + o, v->ref ? v->ref + o : NULL};
  double ym, yr;
  value_norms(v->n, v->prod + o, &ym, &yr);
  *maxd = v->job->rtol * ym + v->job->atol;
  *rms = v->job->rtol * yr + v->job->atol;
  for (size_t j = 0; j < sizeof others / sizeof others[0]; j++) {
    double m, r;
    if (others[j]) {
      diff_norms(v->n, v->prod + o, others[j], &m, &r);
      *maxd = fmax(*maxd, S * m);
      *rms = fmax(*rms, S * r);
    }
  }
}

/* The same for component i at output time k. */
static double claimed_component(const verify_ctx *v, double S, size_t k, int64_t i)
{
  const size_t o = k * (size_t)v->n + (size_t)i;
  const double y = v->prod[o];
  double e = fmax(fabs(y - v->mid[o]), fabs(y - v->fine[o]));
  e = S * (v->ref ? fmax(e, fabs(y - v->ref[o])) : e);
  return fmax(e, v->job->rtol * fabs(y) + v->job->atol);
}

/* Fill the tolerance-refinement check with the claim (after the reference stepper ran). */
static void finish_claims(verify_ctx *v, sk_verify_report *r)
{
  const sk__verify_ivp *job = v->job;
  sk__verify_check *c = v->refine;
  if (!c || !v->have_est) {
    return;
  }
  const size_t nt = job->ntimes;
  const double S = safety_factor(v->ratio);
  double claim_max = 0, claim_last = 0, claim_rms_last = 0, ymax_last = 0, yrms_last = 0;
  for (size_t k = 0; k < nt; k++) {
    double cm, cr, ym, yr;
    claimed_norms(v, S, k, &cm, &cr);
    value_norms(v->n, v->prod + k * (size_t)v->n, &ym, &yr);
    claim_max = cm > claim_max ? cm : claim_max;
    if (k + 1 == nt) {
      claim_last = cm;
      claim_rms_last = cr;
      ymax_last = ym;
      yrms_last = yr;
    }
    if (r->times) {
      r->times[k].claimed_err = cm;
      r->times[k].vouched_digits = sk__verify_digits(cm, ym);
    }
  }
  v->claim_max = claim_max;
  const double *ylast = v->prod + (nt - 1) * (size_t)v->n;
  for (size_t p = 0; p < job->nprobes; p++) {
    const int64_t i = job->probes[p];
    const double e = claimed_component(v, S, nt - 1, i);
    sk__verify_row *row = sk__verify_row_add(c, job->probe_names[p]);
    sk__verify_row_num(row, "value", ylast[i]);
    sk__verify_row_num(row, "claimed_err", e);
    sk__verify_row_num(row, "digits",
                       sk__verify_digits(e, fabs(ylast[i]) > 0 ? fabs(ylast[i]) : job->atol));
  }
  double est_last, est_rms;
  diff_norms(v->n, ylast, v->fine + (nt - 1) * (size_t)v->n, &est_last, &est_rms);
  const double dig_max = sk__verify_digits(claim_last, ymax_last);
  const double dig_rms = sk__verify_digits(claim_rms_last, yrms_last);
  sk__verify_check_num(c, "est_err_max", est_last);
  sk__verify_check_num(c, "safety_factor", S);
  sk__verify_check_num(c, "claimed_err_max", claim_last);
  sk__verify_check_num(c, "claimed_err_rms", claim_rms_last);
  sk__verify_check_num(c, "claimed_err_max_all_times", claim_max);
  sk__verify_check_num(c, "digits_max_norm", dig_max);
  sk__verify_check_num(c, "digits_rms_norm", dig_rms);
  snprintf(c->finding, sizeof c->finding,
           "claimed error of the production answer at t = %.6e: max %.3e (%.1f significant "
           "digits vouched), RMS %.3e (%.1f digits); over all output times max %.3e. The claim "
           "is %.3g x the largest of |y(rtol) - y(rtol/10)|, |y(rtol) - y(rtol/100)|%s, the "
           "factor rho/(rho - 1) of the error reduction per decade rho = R - 1, R = "
           "err(rtol)/err(rtol/10) = %.3g, and never below rtol |y| + atol (|y(rtol) - "
           "y(rtol/100)| alone: %.3e at the final time); %s",
           job->times[nt - 1], claim_last, dig_max, claim_rms_last, dig_rms, claim_max, S,
           v->ref ? " and the reference stepper's difference" : "", v->ratio, est_last,
           v->refine_text);
}

/* ---- 4. exact solution -------------------------------------------------- */

static void check_exact(verify_ctx *v, sk_verify_report *r)
{
  const sk__verify_ivp *job = v->job;
  sk__verify_check *c =
      sk__verify_report_add(r, "exact_solution", "true error against the exact solution");
  if (!sk_model_has_exact(job->model)) {
    snprintf(c->finding, sizeof c->finding,
             "the model has no exact solution: the true error is unknown");
    return;
  }
  const int64_t n = v->n;
  double true_max = 0, true_fine = 0, max_last = 0, rms_last = 0;
  size_t over = 0, first_over = 0; /* output times where the claim does not cover the error */
  double worst_over = 0;
  for (size_t k = 0; k < job->ntimes; k++) {
    if (sk_model_eval_exact(job->model, job->times[k], job->exact) != SK_OK) {
      char msg[SK_ERROR_MSG_LEN + 64];
      last_error(v->ctx, msg, sizeof msg);
      snprintf(c->finding, sizeof c->finding, "the exact solution could not be evaluated: %s",
               msg);
      return;
    }
    double d, rms, ym, yr;
    diff_norms(n, v->prod + k * (size_t)n, job->exact, &d, &rms);
    value_norms(n, v->prod + k * (size_t)n, &ym, &yr);
    true_max = d > true_max ? d : true_max;
    if (k + 1 == job->ntimes) {
      max_last = d;
      rms_last = rms;
    }
    if (r->times) {
      r->times[k].true_err = d;
      r->times[k].true_digits = sk__verify_digits(d, ym);
      if (v->have_est && r->times[k].vouched_digits > r->times[k].true_digits) {
        first_over = over++ ? first_over : k;
        worst_over = fmax(worst_over, r->times[k].vouched_digits - r->times[k].true_digits);
      }
    }
    if (v->fine) {
      diff_norms(n, v->fine + k * (size_t)n, job->exact, &d, &rms);
      true_fine = d > true_fine ? d : true_fine;
    }
  }
  double exmax, exrms;
  value_norms(n, job->exact, &exmax, &exrms);
  c->independent = 1;
  const double dig = sk__verify_digits(max_last, exmax);
  sk__verify_check_num(c, "true_err_max", max_last);
  sk__verify_check_num(c, "true_err_rms", rms_last);
  sk__verify_check_num(c, "true_err_max_all_times", true_max);
  sk__verify_check_num(c, "digits_max_norm", dig);
  char head[640];
  snprintf(head, sizeof head,
           "true error of the production answer at t = %.6e: max %.3e (%.1f significant digits), "
           "RMS %.3e; over all output times max %.3e.",
           job->times[job->ntimes - 1], max_last, dig, rms_last, true_max);
  if (!v->have_est) {
    c->verdict = SK_VERIFY_NOT_VERIFIED;
    c->independent = 0;
    snprintf(c->finding, sizeof c->finding,
             "%s There is no error estimate to check against it (see tolerance refinement).",
             head);
    return;
  }
  const double q = true_max > 0 ? v->est_max / true_max : (v->est_max > 0 ? INFINITY : 1.0);
  sk__verify_check_num(c, "true_err_rtol100_max_all_times", true_fine);
  sk__verify_check_num(c, "est_over_true", q);
  sk__verify_check_num(c, "claimed_over_true", true_max > 0 ? v->claim_max / true_max : NAN);
  sk__verify_check_num(c, "times_over_claimed", (double)over);
  if (q < 0.1 && true_fine > 0.5 * true_max) {
    /* the diffusion models have an exact solution of the discretized system to offer */
    const char *type = "";
    if (job->opts) {
      (void)sk_options_get_string(job->opts, SK_MODEL_TYPE_KEY, &type);
    }
    const int hint = !strcmp(type, "diffusion");
    c->verdict = SK_VERIFY_NOT_VERIFIED;
    c->independent = 0;
    snprintf(c->finding, sizeof c->finding,
             "%s It does not shrink with the tolerance (the rtol/100 answer is off by %.3e too): "
             "the exact solution is not that of the discretized system (a spatial discretization "
             "error dominates), so the time-integration error estimate %.3e (estimate/true = "
             "%.3g) cannot be checked against it.%s",
             head, true_fine, v->est_max, q,
             hint ? " --set model.semidiscrete=true compares with the exact solution of the "
                    "discretized system."
                  : "");
  } else if (over > 0) {
    c->verdict = SK_VERIFY_FAIL;
    snprintf(c->finding, sizeof c->finding,
             "%s The claimed error does NOT cover the true error at %zu of the %zu output times "
             "(first at t = %.6e; up to %.2f digits more vouched than are true): the claim is "
             "not to be trusted.",
             head, over, job->ntimes, job->times[first_over], worst_over);
  } else if (q >= 0.1 && q <= 10) {
    c->verdict = SK_VERIFY_PASS;
    snprintf(c->finding, sizeof c->finding,
             "%s The error estimate %.3e is within a factor 10 of it (estimate/true = %.3g), and "
             "the claimed error covers it at every output time: the digits vouched are never "
             "more than the true ones.",
             head, v->est_max, q);
  } else {
    c->verdict = SK_VERIFY_FAIL;
    snprintf(c->finding, sizeof c->finding,
             "%s The error estimate %.3e is NOT within a factor 10 of it (estimate/true = %.3g): "
             "the estimate is not to be trusted.",
             head, v->est_max, q);
  }
}

/* ---- 5. Jacobian self-test ---------------------------------------------- */

static void check_jacobian_at(verify_ctx *v, sk_verify_report *r, const char *name,
                              const char *title, double t, const double *y)
{
  const sk__verify_ivp *job = v->job;
  sk__verify_check *c = sk__verify_report_add(r, name, title);
  if (!sk_model_has_jacobian_values(job->model)) {
    snprintf(
        c->finding, sizeof c->finding,
        "the model provides no analytic Jacobian: nothing to test against finite differences");
    return;
  }
  sk__jac_check_result res;
  if (sk__jacobian_check(job->model, t, y, VERIFY_JAC_FULL_MAX, VERIFY_JAC_SAMPLE, 20261201u,
                         &res) != SK_OK) {
    char msg[SK_ERROR_MSG_LEN + 64];
    last_error(v->ctx, msg, sizeof msg);
    snprintf(c->finding, sizeof c->finding, "the Jacobian check could not run: %s", msg);
    return;
  }
  c->independent = 1;
  const int ok = res.rel_err <= VERIFY_JAC_TOL && res.outside_pattern == 0;
  c->verdict = ok ? SK_VERIFY_PASS : SK_VERIFY_FAIL;
  sk__verify_check_num(c, "t", t);
  sk__verify_check_num(c, "rel_err_fro", res.rel_err);
  sk__verify_check_num(c, "columns", (double)res.ncols);
  sk__verify_check_num(c, "sampled", res.sampled);
  sk__verify_check_num(c, "entries", (double)res.nentries);
  sk__verify_check_num(c, "outside_pattern", (double)res.outside_pattern);
  sk__verify_check_num(c, "rhs_evals", (double)res.rhs_evals);
  char cols[160];
  if (res.sampled) {
    snprintf(cols, sizeof cols, "a random sample of %lld of the %lld columns (n > %d)",
             (long long)res.ncols, (long long)v->n, VERIFY_JAC_FULL_MAX);
  } else {
    snprintf(cols, sizeof cols, "all %lld columns", (long long)res.ncols);
  }
  snprintf(c->finding, sizeof c->finding,
           "analytic Jacobian against central finite differences at t = %.6e, %s (%lld entries, "
           "%lld batches): ||J - J_fd||_F / ||J||_F = %.3e (limit %.0e)%s%s; worst entries:",
           t, cols, (long long)res.nentries, (long long)res.nbatches, res.rel_err, VERIFY_JAC_TOL,
           res.outside_pattern ? ", and FD entries outside the declared pattern: " : "",
           res.outside_pattern ? "the pattern is incomplete" : "");
  for (int k = 0; k < res.nworst; k++) {
    char ri[96], cj[96], label[256];
    sk_model_component_name(job->model, res.worst[k].row, ri, sizeof ri);
    sk_model_component_name(job->model, res.worst[k].col, cj, sizeof cj);
    snprintf(label, sizeof label, "(%lld, %lld) d %s / d %s", (long long)res.worst[k].row,
             (long long)res.worst[k].col, ri, cj);
    sk__verify_row *row = sk__verify_row_add(c, label);
    sk__verify_row_num(row, "row", (double)res.worst[k].row);
    sk__verify_row_num(row, "col", (double)res.worst[k].col);
    sk__verify_row_num(row, "analytic", res.worst[k].analytic);
    sk__verify_row_num(row, "fd", res.worst[k].fd);
  }
}

/* ---- 6. invariants ------------------------------------------------------ */

/* A thermal network's energy balance at every output time: heat stored
 * (from the temperatures) against the integrated heat flows (extra states).
 * BDF keeps this linear invariant up to its Newton tolerance, so the check
 * proves the flow accounting and the convergence, not the time error. */
static void check_invariants(verify_ctx *v, sk_verify_report *r)
{
  sk__verify_check *c = sk__verify_report_add(r, "invariants", "residual and invariant checks");
  const sk__verify_ivp *job = v->job;
  sk_network_energy e;
  double worst = 0.0;
  size_t at = 0;
  for (size_t k = 0; k < job->ntimes; k++) {
    if (sk_network_energy_balance(job->model, v->prod + k * (size_t)v->n, &e) != SK_OK) {
      snprintf(c->finding, sizeof c->finding,
               "no invariants provided by the model (no energy, balance or constraint residual "
               "to check; a network needs model.energy_balance = true)");
      return;
    }
    if (e.relative > worst) {
      worst = e.relative;
      at = k;
    }
  }
  const double limit = fmax(10.0 * job->rtol, 1e-10);
  c->verdict = worst <= limit ? SK_VERIFY_PASS : SK_VERIFY_FAIL;
  snprintf(c->finding, sizeof c->finding,
           "energy balance of the network (heat stored against the integrated flows in and "
           "out) at the %zu output times: worst relative imbalance %.3e at t = %.6e (limit "
           "%.0e = max(10 rtol, 1e-10)); it checks the flow accounting and the Newton "
           "convergence, not the time error",
           job->ntimes, worst, job->times[at], limit);
  sk__verify_check_num(c, "worst_relative_imbalance", worst);
  sk__verify_check_num(c, "limit", limit);
}

/* ---- driver ------------------------------------------------------------- */

static void fill_header(const sk__verify_ivp *job, sk_verify_report *r)
{
  snprintf(r->model, sizeof r->model, "%s", sk_model_get_name(job->model));
  r->n = (long long)sk_model_get_n(job->model);
  snprintf(r->method, sizeof r->method, "%s", job->method);
  snprintf(r->linsol, sizeof r->linsol, "%s", sk_stepper_get_linear_solver(job->stepper));
  snprintf(r->prec, sizeof r->prec, "%s", sk_stepper_get_preconditioner(job->stepper));
  r->rtol = job->rtol;
  r->atol = job->atol;
  r->t0 = job->t0;
  r->t_last = job->times[job->ntimes - 1];
  r->ntimes = job->ntimes;
}

/* The job's fields, checked, as the checks see them. */
static sk_status ivp_from_job(sk_context *ctx, const sk_verify_ivp_job *j, sk__verify_ivp *ivp)
{
  SK_CHECK(ctx, j && j->stepper && j->times && j->ntimes > 0, SK_ERR_ARG,
           "sk_verify_ivp: a job with a stepper and at least one output time is required");
  SK_CHECK(ctx, j->nprobes == 0 || (j->probes && j->probe_names), SK_ERR_ARG,
           "sk_verify_ivp: %zu probes without their components or names", j->nprobes);
  /* the production run starts here: set up (the model's initial state in the buffer),
     never advanced, so that every extra solve starts where it starts */
  SK_CALL(ctx, sk_stepper_setup(j->stepper));
  sk_stats st;
  SK_CALL(ctx, sk_stepper_get_stats(j->stepper, &st));
  SK_CHECK(ctx, st.steps == 0 && sk_stepper_get_time(j->stepper) == sk_stepper_get_t0(j->stepper),
           SK_ERR_STATE,
           "sk_verify_ivp: the stepper has advanced already (t = %.17g after %lld steps, t0 = "
           "%.17g): verify a stepper at its initial state",
           sk_stepper_get_time(j->stepper), (long long)st.steps, sk_stepper_get_t0(j->stepper));
  *ivp = (sk__verify_ivp){.ctx = ctx,
                          .opts = j->options,
                          .model = sk_stepper_get_model(j->stepper),
                          .stepper = j->stepper,
                          .method = sk_stepper_get_type(j->stepper)->name,
                          .t0 = sk_stepper_get_t0(j->stepper),
                          .rtol = sk_stepper_get_rtol(j->stepper),
                          .atol = sk_stepper_get_atol(j->stepper),
                          .max_steps = sk_stepper_get_max_steps(j->stepper),
                          .times = j->times,
                          .ntimes = j->ntimes,
                          .probes = j->probes,
                          .probe_names = j->probe_names,
                          .nprobes = j->nprobes};
  const int64_t n = sk_model_get_n(ivp->model);
  for (size_t k = 0; k < j->ntimes; k++) {
    SK_CHECK(ctx, j->times[k] > (k ? j->times[k - 1] : ivp->t0), SK_ERR_ARG,
             "sk_verify_ivp: output time %zu (%.17g) is not after the one before it (%.17g)", k,
             j->times[k], k ? j->times[k - 1] : ivp->t0);
  }
  for (size_t p = 0; p < j->nprobes; p++) {
    SK_CHECK(ctx, j->probes[p] >= 0 && j->probes[p] < n, SK_ERR_ARG,
             "sk_verify_ivp: probe %zu is component %lld, outside [0, %lld)", p,
             (long long)j->probes[p], (long long)n);
    SK_CHECK(ctx, j->probe_names[p] != NULL, SK_ERR_ARG, "sk_verify_ivp: probe %zu has no name",
             p);
  }
  return SK_OK;
}

/* The production solve and the checks of its answer into r. */
static sk_status run_checks(verify_ctx *v, sk_verify_report *r)
{
  const sk__verify_ivp *job = v->job;
  const size_t n = (size_t)v->n;
  memcpy(v->y0, sk_stepper_get_state(job->stepper), n * sizeof *v->y0);
  sk__verify_sens vs; /* the production sensitivities, checked against central differences */
  sk_status st = sk__verify_sens_init(v->ctx, job->stepper, job->ntimes, &vs);
  if (st == SK_OK) {
    st =
        sk__verify_solve(job, job->stepper, v->prod, vs.np ? sk__verify_sens_collect : NULL, &vs);
  }
  if (st != SK_OK) {
    sk__verify_sens_free(&vs);
    return st;
  }
  for (size_t i = 0; i < job->ntimes * n; i++) {
    v->ymax = fabs(v->prod[i]) > v->ymax ? fabs(v->prod[i]) : v->ymax;
  }
  fill_header(job, r);
  check_production(v, r);
  check_refinement(v, r);
  check_reference(v, r);
  finish_claims(v, r);
  check_exact(v, r);
  check_jacobian_at(v, r, "jacobian_initial", "Jacobian self-test at the initial state", job->t0,
                    v->y0);
  check_jacobian_at(v, r, "jacobian_final", "Jacobian self-test at the final state",
                    job->times[job->ntimes - 1], v->prod + (job->ntimes - 1) * n);
  check_invariants(v, r);
  sk__verify_sens_check(job, &vs, v->y0, r);
  sk__verify_sens_free(&vs);
  sk__verify_report_conclude(r);
  return SK_OK;
}

sk_status sk_verify_ivp(sk_context *ctx, const sk_verify_ivp_job *j, sk_verify_report **report)
{
  SK_CHECK(ctx, report != NULL, SK_ERR_ARG, "sk_verify_ivp: report is NULL");
  *report = NULL;
  sk__verify_ivp ivp;
  SK_CALL(ctx, ivp_from_job(ctx, j, &ivp));
  verify_ctx v = {.ctx = ctx, .job = &ivp, .n = sk_model_get_n(ivp.model)};
  const size_t n = (size_t)v.n;
  sk_verify_report *r = NULL;
  sk_status st = sk__verify_report_create(ctx, ivp.times, ivp.ntimes, &r);
  if (st == SK_OK) {
    v.report = r;
    v.y0 = malloc(n * sizeof *v.y0);
    v.prod = malloc(ivp.ntimes * n * sizeof *v.prod);
    ivp.exact = sk_model_has_exact(ivp.model) ? malloc(n * sizeof *ivp.exact) : NULL;
    st = v.y0 && v.prod && (ivp.exact || !sk_model_has_exact(ivp.model))
             ? run_checks(&v, r)
             : SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate %zu x %zu states for verify",
                        ivp.ntimes, n);
  }
  free(v.y0);
  free(v.prod);
  free(v.fine);
  free(v.mid);
  free(v.ref);
  free(ivp.exact);
  if (st != SK_OK) {
    sk_verify_report_destroy(&r);
  }
  *report = r;
  return st;
}

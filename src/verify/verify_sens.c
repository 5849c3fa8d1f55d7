/* src/verify/verify_sens.c: the forward sensitivities of a verified run against central finite differences of two extra solves per parameter */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "verify/verify_sens.h"

sk_status sk__verify_sens_init(sk_context *ctx, sk_stepper *s, size_t ntimes, sk__verify_sens *vs)
{
  memset(vs, 0, sizeof *vs);
  vs->s = s;
  vs->ntimes = ntimes;
  vs->n = sk_model_get_n(sk_stepper_get_model(s));
  vs->np = sk_stepper_get_nsens(s);
  if (vs->np == 0) {
    return SK_OK;
  }
  vs->S = malloc((size_t)vs->np * ntimes * (size_t)vs->n * sizeof *vs->S);
  SK_CHECK(ctx, vs->S != NULL, SK_ERR_NOMEM,
           "cannot allocate %d x %zu x %lld sensitivities for verify", vs->np, ntimes,
           (long long)vs->n);
  return SK_OK;
}

void sk__verify_sens_collect(void *data, size_t k, const double *y)
{
  (void)y;
  sk__verify_sens *vs = data;
  for (int j = 0; j < vs->np && !vs->failed; j++) {
    double *out = vs->S + ((size_t)j * vs->ntimes + k) * (size_t)vs->n;
    vs->failed = sk_stepper_get_sensitivity(vs->s, j, out) != SK_OK;
  }
}

void sk__verify_sens_free(sk__verify_sens *vs)
{
  free(vs->S);
  vs->S = NULL;
}

/* One solve without sensitivities at the current parameter values, tolerances / 1000:
 * the states at the output times into out (ntimes x n). */
static sk_status fd_solve(const sk__verify_ivp *job, const double *y0, double *out)
{
  sk_stepper *s = NULL;
  sk_status st = sk__verify_stepper(job, job->method, 1, 0, 1e-3, 100, y0, &s);
  if (st == SK_OK) {
    st = sk__verify_solve(job, s, out, NULL, NULL);
  }
  sk_stepper_destroy(&s);
  return st;
}

double sk__verify_sens_compare(sk__verify_check *c, int j, const char *name, double p,
                               double pbar, double d, const double *S, const double *yp,
                               const double *ym, const double *times, size_t ntimes, int64_t n,
                               size_t stride, double floor, size_t *used, double *digits)
{
  double rel_j = 0, digits_j = 16, t_worst = times[0], s_max = 0;
  size_t compared = 0;
  for (size_t t = 0; t < ntimes; t++) {
    const double *St = S + t * stride;
    double maxd = 0, scale = 0;
    for (int64_t i = 0; i < n; i++) {
      const double fd = (yp[t * (size_t)n + i] - ym[t * (size_t)n + i]) / (2.0 * d);
      maxd = fmax(maxd, fabs(St[i] - fd));
      scale = fmax(scale, fabs(fd));
      s_max = fmax(s_max, fabs(St[i]));
    }
    /* dy/dp = 0 at this time (t0), or below what the differences resolve: nothing to compare */
    if (!(scale > floor)) {
      continue;
    }
    compared++;
    const double rel = fmax(0.0, maxd - floor) / scale; /* beyond what the differences resolve */
    if (rel > rel_j) {
      rel_j = rel;
      t_worst = times[t];
    }
    digits_j = fmin(digits_j, sk__verify_digits(maxd, scale));
  }
  if (compared == 0 && floor > 0) { /* the parameter moves nothing the differences see */
    rel_j = s_max > floor ? 1.0 : 0.0;
    digits_j = s_max > floor ? 0.0 : 16.0;
  }
  sk__verify_row *row = sk__verify_row_add(c, name);
  sk__verify_row_num(row, "value", p);
  sk__verify_row_num(row, "pbar", pbar);
  sk__verify_row_num(row, "max_rel_diff", rel_j);
  sk__verify_row_num(row, "digits", digits_j);
  sk__verify_row_num(row, "t_worst", t_worst);
  if (*used + 1 < sizeof c->finding) {
    const int w =
        compared == 0 && floor > 0
            ? snprintf(c->finding + *used, sizeof c->finding - *used,
                       "%s%s: |dy/dp| below the differences' resolution %.1e at every output "
                       "(computed: max %.2e%s)",
                       j ? "; " : "", name, floor, s_max, s_max > floor ? ", above it" : "")
        : floor > 0
            ? snprintf(c->finding + *used, sizeof c->finding - *used,
                       "%s%s: %.1f digits (beyond the differences' resolution %.1e: max relative "
                       "difference %.2e)",
                       j ? "; " : "", name, digits_j, floor, rel_j)
            : snprintf(c->finding + *used, sizeof c->finding - *used,
                       "%s%s: %.1f digits (max relative difference %.2e at t = %.6e)",
                       j ? "; " : "", name, digits_j, rel_j, t_worst);
    *used += w > 0 ? (size_t)w : 0;
  }
  *digits = digits_j;
  return rel_j;
}

void sk__verify_sens_conclude(sk__verify_check *c, size_t used, double rtol, double atol,
                              double fd_rtol, size_t ntimes, double worst_rel,
                              double worst_digits)
{
  const double limit = fmax(100.0 * rtol, 1e-4);
  if (used + 1 < sizeof c->finding) {
    snprintf(c->finding + used, sizeof c->finding - used,
             ". Central differences of two solves per parameter at p +- 1e-4 pbar (rtol %.1e, "
             "atol %.1e) against the computed sensitivities at the %zu output times; the "
             "limit is %.1e relative to max |dy/dp|",
             fd_rtol, atol * fd_rtol / rtol, ntimes, limit);
  }
  sk__verify_check_num(c, "max_rel_diff", worst_rel);
  sk__verify_check_num(c, "digits", worst_digits);
  sk__verify_check_num(c, "limit", limit);
  c->independent = 1;
  c->verdict = worst_rel <= limit ? SK_VERIFY_PASS : SK_VERIFY_FAIL;
}

void sk__verify_sens_fd_failed(sk_context *ctx, sk__verify_check *c, const char *name, double p,
                               double d)
{
  char msg[SK_ERROR_MSG_LEN + 64] = "";
  sk_error_format(sk_context_get_error(ctx), 0, msg, sizeof msg);
  snprintf(c->finding, sizeof c->finding,
           "the finite-difference solves for '%s' (at %.17g +- %.3g) failed: %s", name, p, d,
           msg);
  c->verdict = SK_VERIFY_NOT_VERIFIED;
}

void sk__verify_sens_check(const sk__verify_ivp *job, const sk__verify_sens *vs, const double *y0,
                           sk_verify_report *r)
{
  sk_context *ctx = job->ctx;
  if (vs->np == 0) {
    return;
  }
  sk__verify_check *c = sk__verify_report_add(r, "sensitivities", "forward sensitivities");
  if (!c) {
    return;
  }
  const int64_t n = vs->n;
  const size_t len = job->ntimes * (size_t)n;
  double *yp = malloc(len * sizeof *yp), *ym = malloc(len * sizeof *ym);
  if (vs->failed || !yp || !ym) {
    char msg[SK_ERROR_MSG_LEN + 64] = "";
    sk_error_format(sk_context_get_error(ctx), 0, msg, sizeof msg);
    snprintf(c->finding, sizeof c->finding, "the sensitivities could not be checked: %s",
             vs->failed ? msg : "out of memory");
    free(yp);
    free(ym);
    return;
  }
  double worst_rel = 0, worst_digits = 16;
  size_t used = 0;
  for (int j = 0; j < vs->np; j++) {
    const int k = sk_stepper_get_sens_param(vs->s, j);
    const char *name = sk_model_get_param_name(job->model, k);
    const double p = sk_model_get_param(job->model, k);
    const double pbar = sk_stepper_get_sens_pbar(vs->s, j), d = 1e-4 * pbar;
    sk_status st = sk_model_set_param(job->model, k, p + d);
    if (st == SK_OK) {
      st = fd_solve(job, y0, yp);
    }
    if (st == SK_OK) {
      st = sk_model_set_param(job->model, k, p - d);
    }
    if (st == SK_OK) {
      st = fd_solve(job, y0, ym);
    }
    sk_model_set_param(job->model, k, p);
    if (st != SK_OK) {
      sk__verify_sens_fd_failed(ctx, c, name, p, d);
      free(yp);
      free(ym);
      return;
    }
    double digits;
    const double rel =
        sk__verify_sens_compare(c, j, name, p, pbar, d, vs->S + (size_t)j * len, yp, ym,
                                job->times, job->ntimes, n, (size_t)n, 0.0, &used, &digits);
    worst_rel = fmax(worst_rel, rel);
    worst_digits = fmin(worst_digits, digits);
  }
  sk__verify_sens_conclude(c, used, job->rtol, job->atol, job->rtol * 1e-3, job->ntimes,
                           worst_rel, worst_digits);
  free(yp);
  free(ym);
}

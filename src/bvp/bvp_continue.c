/* src/bvp/bvp_continue.c: natural-parameter continuation of a boundary-value problem, with step halving and a turning-point diagnosis */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "bvp/bvp_solver.h"

static void record(const sk_bvp *bvp, const sk_bvp_solution *sol, const sk_bvp_report *rep,
                   double value, sk_bvp_continuation_point *pt)
{
  memset(pt, 0, sizeof *pt);
  pt->value = value;
  for (int c = 0; c < 2 && c < bvp->d; c++) {
    for (int64_t i = 0; i < sol->n; i++) {
      pt->max_abs[c] = fmax(pt->max_abs[c], fabs(sol->y[bvp->d * i + c]));
    }
  }
  pt->newton_iters = rep->newton_iters;
  pt->points = sol->n;
  pt->error_estimate = rep->error_estimate;
}

/* Copy a solution; with `coarsen`, every other point (the mesh a finite-
 * difference solve with error estimate started from, so that meshes do not
 * double at every continuation step). */
static sk_status copy_solution(sk_context *ctx, const sk_bvp_solution *from, int coarsen,
                               sk_bvp_solution *to)
{
  const int64_t stride = coarsen && from->n % 2 == 1 && from->n >= 5 ? 2 : 1;
  const int64_t n = (from->n - 1) / stride + 1;
  const int d = from->d;
  sk_bvp_solution_free(to);
  SK_CALL(ctx, sk_bvp_solution_alloc(ctx, n, d, to));
  for (int64_t i = 0; i < n; i++) {
    to->x[i] = from->x[stride * i];
    memcpy(to->y + d * i, from->y + d * stride * i, (size_t)d * sizeof *to->y);
    memcpy(to->err + d * i, from->err + d * stride * i, (size_t)d * sizeof *to->err);
  }
  return SK_OK;
}

/* The failure message after the smallest step failed at p + step. */
static sk_status fold_error(sk_context *ctx, sk_bvp *bvp, const sk_bvp_continuation *c,
                            const sk_bvp_continuation_point *path, size_t npath, double last,
                            double step, sk_status cause)
{
  char why[SK_ERROR_MSG_LEN];
  snprintf(why, sizeof why, "%s", sk_context_get_error(ctx)->message);
  const char *name = bvp->pnames[c->param];
  double slope_first = NAN, slope_last = NAN;
  if (npath >= 3) { /* d max|y_0| / dp at the start and at the end of the path */
    slope_first = (path[1].max_abs[0] - path[0].max_abs[0]) / (path[1].value - path[0].value);
    slope_last = (path[npath - 1].max_abs[0] - path[npath - 2].max_abs[0]) /
                 (path[npath - 1].value - path[npath - 2].value);
  }
  const int grew = isfinite(slope_last) && fabs(slope_last) > 3.0 * fabs(slope_first);
  if (grew || cause == SK_ERR_SINGULAR) {
    return SK_ERROR(ctx, SK_ERR_CONV,
                    "continuation in %s stopped at %s = %.10g: no solution was found at "
                    "%s = %.10g (step %.3g; half of it is below min_step); d max|%s| / d%s grew "
                    "from %.4g "
                    "to %.4g along the path, so a turning point (fold) is likely near %s = %.6g, "
                    "past which this branch has no solution (arc-length continuation would "
                    "follow it around); last failure: %s",
                    name, name, last, name, last + step, step, sk_bvp_get_component_name(bvp, 0),
                    name, slope_first, slope_last, name, last, why);
  }
  return SK_ERROR(ctx, cause == SK_ERR_SINGULAR ? SK_ERR_SINGULAR : SK_ERR_CONV,
                  "continuation in %s stopped at %s = %.10g: no solution was found at %s = %.10g "
                  "(step %.3g; half of it is below bvp.continuation.min_step); last failure: %s",
                  name, name, last, name, last + step, step, why);
}

sk_status sk_bvp_continue(sk_context *ctx, sk_bvp *bvp, const sk_bvp_settings *s,
                          const sk_bvp_continuation *c, sk_bvp_solution *sol,
                          sk_bvp_continuation_point *path, size_t max_path, size_t *npath,
                          sk_bvp_report *rep)
{
  SK_CHECK(ctx, bvp && c && sol && npath && rep, SK_ERR_ARG, "sk_bvp_continue: NULL argument");
  SK_CHECK(ctx, c->param >= 0 && c->param < bvp->np, SK_ERR_INPUT,
           "continuation: the problem has no parameter %d", c->param);
  SK_CHECK(ctx, isfinite(c->to) && c->step > 0 && c->min_step > 0 && c->min_step <= c->step,
           SK_ERR_INPUT, "continuation: to = %g, step = %g, min_step = %g (0 < min_step <= step)",
           c->to, c->step, c->min_step);
  *npath = 0;
  const double start = bvp->p[c->param], dir = c->to >= start ? 1.0 : -1.0;
  SK_CHECK(ctx, c->min_step >= 1e-12 * fmax(1.0, fmax(fabs(start), fabs(c->to))), SK_ERR_INPUT,
           "continuation: min_step %g is below the resolution of the parameter (1e-12 of its "
           "magnitude)",
           c->min_step);
  SK_CALL(ctx, sk_bvp_solve(ctx, bvp, s, sol, rep));
  if (max_path > 0) {
    record(bvp, sol, rep, start, &path[(*npath)++]);
  }
  sk_bvp_solution guess = {0}, best = {0}; /* the next guess; the last converged solution */
  const int coarsen = s->method == SK_BVP_FD && s->estimate;
  sk_status st = copy_solution(ctx, sol, coarsen, &guess);
  if (st == SK_OK) {
    st = copy_solution(ctx, sol, 0, &best);
  }
  double value = start, step = c->step;
  int64_t total_newton = rep->newton_iters;
  while (st == SK_OK && dir * (c->to - value) > 1e-12 * fmax(1.0, fabs(c->to))) {
    const double next = dir * (c->to - value) < step ? c->to : value + dir * step;
    if (next == value) { /* the step fell below the spacing of doubles near the value */
      st = fold_error(ctx, bvp, c, path, *npath, value, dir * step, SK_ERR_CONV);
      break;
    }
    bvp->p[c->param] = next;
    SK_CALL_GOTO(ctx, st, copy_solution(ctx, &guess, 0, sol), out);
    sk_bvp_report r;
    const sk_status sst = sk_bvp_solve(ctx, bvp, s, sol, &r);
    total_newton += r.newton_iters;
    if (sst == SK_OK) {
      value = next;
      *rep = r;
      if (*npath < max_path) {
        record(bvp, sol, &r, value, &path[(*npath)++]);
      }
      SK_CALL_GOTO(ctx, st, copy_solution(ctx, sol, coarsen, &guess), out);
      SK_CALL_GOTO(ctx, st, copy_solution(ctx, sol, 0, &best), out);
      step = fmin(2.0 * step, c->step);
      sk__log(ctx, SK_LOG_INFO, "continuation: %s = %.10g converged (%lld Newton iterations)",
              bvp->pnames[c->param], value, (long long)r.newton_iters);
      continue;
    }
    if (sst != SK_ERR_CONV && sst != SK_ERR_SINGULAR) { /* a mesh limit or bad input: as it is */
      st = sst; /* not a convergence failure: report it as it is */
      break;
    }
    if (step * 0.5 < c->min_step) {
      bvp->p[c->param] = value;
      st = fold_error(ctx, bvp, c, path, *npath, value, dir * step, sst);
      break;
    }
    step *= 0.5;
  }
out:
  bvp->p[c->param] = value;
  rep->newton_iters = total_newton;
  if (best.n > 0 && copy_solution(ctx, &best, 0, sol) != SK_OK && st == SK_OK) {
    st = SK_ERR_NOMEM;
  }
  sk_bvp_solution_free(&guess);
  sk_bvp_solution_free(&best);
  return st;
}

/* src/bvp/bvp_solve.c: sk_bvp_solve: settings, checks, dispatch to finite differences or shooting */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/error.h"
#include "bvp/bvp_solver.h"

void sk_bvp_settings_default(sk_bvp_settings *s)
{
  memset(s, 0, sizeof *s);
  s->method = SK_BVP_FD;
  s->tol = 1e-6;
  s->mesh_n = 32;
  s->mesh_ratio = 1.0;
  s->refine = 1;
  s->estimate = 1;
  s->max_points = 1000000;
  s->max_refinements = 20;
  s->fnormtol = 0.0;
  s->max_iters = 50;
  s->linesearch = 1;
  s->shoot_intervals = 10;
  snprintf(s->ivp_method, sizeof s->ivp_method, "cvode-bdf");
  s->sensitivity_limit = 1e8;
  s->output_points = 101;
}

/* A problem ready to solve (f and boundary conditions set) and settings in range.
 * Errors: SK_ERR_INPUT / SK_ERR_ARG naming the field. */
static sk_status check_problem(sk_context *ctx, const sk_bvp *bvp, const sk_bvp_settings *s)
{
  SK_CHECK(ctx, bvp && s, SK_ERR_ARG, "sk_bvp_solve: NULL problem or settings");
  SK_CHECK(ctx, bvp->rhs != NULL, SK_ERR_INPUT, "the boundary-value problem '%s' has no f",
           bvp->name);
  SK_CHECK(ctx, bvp->bc != NULL, SK_ERR_INPUT,
           "the boundary-value problem '%s' has no boundary conditions", bvp->name);
  SK_CHECK(ctx, s->tol > 0 && s->tol < 1, SK_ERR_INPUT, "bvp tolerance %g must lie in (0, 1)",
           s->tol);
  SK_CHECK(ctx, s->mesh_n >= 1 && s->mesh_ratio > 0 && isfinite(s->mesh_ratio), SK_ERR_INPUT,
           "bvp mesh: %lld intervals with grading ratio %g (>= 1 interval, ratio > 0)",
           (long long)s->mesh_n, s->mesh_ratio);
  SK_CHECK(
      ctx, s->max_iters >= 1 && s->fnormtol >= 0 && s->max_points >= 3, SK_ERR_INPUT,
      "bvp Newton settings: max_iters %lld (>= 1), fnormtol %g (>= 0), max_points %lld (>= 3)",
      (long long)s->max_iters, s->fnormtol, (long long)s->max_points);
  SK_CHECK(ctx, s->method >= SK_BVP_FD && s->method <= SK_BVP_MULTIPLE_SHOOTING, SK_ERR_INPUT,
           "bvp method %d is not fd, shooting or multiple-shooting", (int)s->method);
  SK_CHECK(ctx, s->max_refinements >= 0 && s->output_points >= 2, SK_ERR_INPUT,
           "bvp settings: max_refinements %d (>= 0), output points %lld (>= 2)",
           s->max_refinements, (long long)s->output_points);
  SK_CHECK(ctx, (double)(s->mesh_n - 1) * fabs(log(s->mesh_ratio)) <= log(1e8), SK_ERR_INPUT,
           "bvp mesh: grading ratio %g over %lld intervals makes the largest interval %.3g times "
           "the smallest (at most 1e8)",
           s->mesh_ratio, (long long)s->mesh_n,
           exp(fmin((double)(s->mesh_n - 1) * fabs(log(s->mesh_ratio)), 700.0)));
  SK_CHECK(ctx, s->method != SK_BVP_FD || !s->estimate || 2 * s->mesh_n + 1 <= s->max_points,
           SK_ERR_TOO_LARGE,
           "bvp mesh: %lld intervals need %lld points for the error estimate, more than "
           "bvp.mesh.max_points = %lld",
           (long long)s->mesh_n, (long long)(2 * s->mesh_n + 1), (long long)s->max_points);
  SK_CHECK(ctx, s->ivp_rtol >= 0 && s->ivp_atol >= 0 && s->sensitivity_limit > 1, SK_ERR_INPUT,
           "bvp shooting settings: IVP tolerances %g, %g (>= 0) and sensitivity limit %g (> 1)",
           s->ivp_rtol, s->ivp_atol, s->sensitivity_limit);
  return SK_OK;
}

/* The largest error against the exact solution, relative as the estimate. */
static sk_status exact_error(sk_bvp *bvp, const sk_bvp_solution *sol, double *err)
{
  double ye[SK_BVP_MAX_DIM];
  *err = 0.0;
  for (int64_t i = 0; i < sol->n; i++) {
    SK_CALL(bvp->ctx, sk_bvp_eval_exact(bvp, sol->x[i], ye));
    for (int c = 0; c < bvp->d; c++) {
      *err = fmax(*err, fabs(sol->y[bvp->d * i + c] - ye[c]) / (1.0 + fabs(ye[c])));
    }
  }
  return SK_OK;
}

sk_status sk_bvp_solve(sk_context *ctx, sk_bvp *bvp, const sk_bvp_settings *s,
                       sk_bvp_solution *sol, sk_bvp_report *rep)
{
  SK_CHECK(ctx, sol != NULL, SK_ERR_ARG, "sk_bvp_solve: NULL solution");
  SK_CALL(ctx, check_problem(ctx, bvp, s));
  SK_CHECK(ctx, sol->n == 0 || (sol->n >= 2 && sol->d == bvp->d && sol->x && sol->y), SK_ERR_ARG,
           "sk_bvp_solve: the guess has %lld points of %d components (the problem has %d)",
           (long long)sol->n, sol->d, bvp->d);
  if (sol->n > 0) {
    const double tol_x = 1e-12 * (bvp->b - bvp->a);
    SK_CHECK(ctx, fabs(sol->x[0] - bvp->a) <= tol_x && fabs(sol->x[sol->n - 1] - bvp->b) <= tol_x,
             SK_ERR_INPUT, "the guess spans [%g, %g], not the interval [%g, %g]", sol->x[0],
             sol->x[sol->n - 1], bvp->a, bvp->b);
    for (int64_t i = 1; i < sol->n; i++) {
      SK_CHECK(ctx, sol->x[i] > sol->x[i - 1], SK_ERR_INPUT,
               "the guess mesh must increase strictly (x[%lld] = %g after %g)", (long long)i,
               sol->x[i], sol->x[i - 1]);
    }
  }
  sk_bvp_report local;
  if (!rep) {
    rep = &local;
  }
  memset(rep, 0, sizeof *rep);
  rep->method = s->method;
  rep->error_estimate = -1.0;
  rep->error_exact = -1.0;
  const int64_t nf0 = bvp->nf;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  sk_status st = s->method == SK_BVP_FD ? sk__bvp_solve_fd(ctx, bvp, s, sol, rep)
                                        : sk__bvp_solve_shooting(ctx, bvp, s, sol, rep);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  rep->wall_time = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  rep->f_evals = bvp->nf - nf0;
  if (st == SK_OK) {
    rep->converged = 1;
    if (bvp->exact && exact_error(bvp, sol, &rep->error_exact) != SK_OK) {
      sk__log(ctx, SK_LOG_WARN, "the exact solution could not be compared: %s",
              sk_context_get_error(ctx)->message);
      rep->error_exact = -1.0;
    }
  }
  return st;
}

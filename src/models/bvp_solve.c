/* src/models/bvp_solve.c: sk_bvp_solve: settings, checks, dispatch to finite differences or shooting, the Newton settings and failure messages they share */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/error.h"
#include "linsol/dense_small.h"
#include "models/bvp_impl.h"

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

sk_status sk__bvp_check(sk_context *ctx, const sk_bvp *bvp, const sk_bvp_settings *s)
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

void sk__bvp_newton_settings(const sk_bvp_settings *s, double fnormtol, sk_steady_settings *k)
{
  sk_steady_settings_default(k);
  snprintf(k->strategy, sizeof k->strategy, "%s", s->linesearch ? "linesearch" : "none");
  snprintf(k->linsol, sizeof k->linsol, "klu");
  snprintf(k->ordering, sizeof k->ordering, "amd");
  k->fnormtol = fnormtol;
  k->scsteptol = 1e-14;
  k->max_iters = s->max_iters;
  k->check_jacobian = 0;
}

sk_status sk__bvp_newton_failure(sk_context *ctx, sk_status st, const char *method,
                                 const sk_steady_report *kr, int diverged, const char *suggestion)
{
  const sk_error *e = sk_context_get_error(ctx);
  char cause[SK_ERROR_MSG_LEN];
  snprintf(cause, sizeof cause, "%s", e->message);
  if (st == SK_ERR_SINGULAR) {
    return SK_ERROR(ctx, st,
                    "%s: the Newton matrix is singular (%s): the boundary conditions may be "
                    "redundant or conflicting, or the guess sits where the problem has no "
                    "unique solution (a fold); %s",
                    method, cause, suggestion);
  }
  if (diverged) {
    return SK_ERROR(ctx, SK_ERR_CONV, "%s: Newton diverged after %lld iterations (%s); %s",
                    method, (long long)kr->newton_iters, cause, suggestion);
  }
  if (st == SK_ERR_CONV) {
    return SK_ERROR(ctx, st,
                    "%s: Newton did not converge after %lld iterations: residual max %.3e "
                    "(largest in %s), from %.3e at the guess (KINSOL: %s); %s",
                    method, (long long)kr->newton_iters, kr->fnorm_max_scaled,
                    kr->worst_name[0] ? kr->worst_name : "?", kr->fnorm_initial,
                    kr->kinsol_flag_name, suggestion);
  }
  return st;
}

sk_status sk__bvp_newton_system(sk_context *ctx, sk_bvp *bvp, const sk_bvp_settings *s,
                                const sk__bvp_system *sys, double *u, sk_bvp_report *rep,
                                sk_steady_report *kr)
{
  const int d = bvp->d;
  const int64_t n = sys->n;
  memset(kr, 0, sizeof *kr);
  sk_model *model = NULL;
  int64_t *colptr = sk__malloc(ctx, (size_t)(n + 1) * sizeof *colptr), *rowind = NULL;
  double *uscale = sk__malloc(ctx, (size_t)n * sizeof *uscale);
  sk_status st = SK_OK;
  if (!colptr || !uscale) {
    st = SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the Newton system (%lld unknowns)",
                  (long long)n);
    goto done;
  }
  const int64_t nnz = sys->walk(sys->data, NULL, NULL, colptr, NULL, NULL);
  rowind = sk__malloc(ctx, (size_t)nnz * sizeof *rowind);
  if (!rowind) {
    st = SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the Jacobian pattern (%lld entries)",
                  (long long)nnz);
    goto done;
  }
  sys->walk(sys->data, NULL, NULL, NULL, rowind, NULL);
  for (int64_t j = 0; j < n; j++) {
    uscale[j] = sys->comp_scale[j % d];
  }
  SK_CALL_GOTO(ctx, st, sk_model_create(ctx, SK_MODEL_ODE, n, &model), done);
  sk_model_set_name(model, bvp->name);
  sk_model_set_user_data(model, sys->data, NULL);
  sk_model_set_rhs(model, sys->residual);
  sk_model_set_jac_values(model, sys->jacobian);
  sk_model_set_component_name(model, sys->row_name);
  SK_CALL_GOTO(ctx, st, sk_model_set_jac_pattern(model, colptr, rowind), done);
  sk_steady_settings ks;
  sk__bvp_newton_settings(s, sys->fnormtol, &ks);
  ks.u_scale_v = uscale;
  st = sk_steady_solve(ctx, model, &ks, u, kr);
  rep->newton_iters += kr->newton_iters;
  rep->newton_solves++;
  rep->jac_evals += kr->jac_evals;
  rep->residual = kr->fnorm_max_scaled;
  snprintf(rep->worst, sizeof rep->worst, "%s", kr->worst_name);
done:
  sk_model_destroy(&model);
  sk__free(ctx, colptr);
  sk__free(ctx, rowind);
  sk__free(ctx, uscale);
  return st;
}

int sk__bvp_callback_code(sk__bvp_failure *f, sk_context *ctx, sk_status st)
{
  if (st == SK_OK) {
    return 0;
  }
  if (!f->failed) {
    f->failed = 1;
    f->saved = *sk_context_get_error(ctx);
  }
  return st == SK_RECOVERABLE ? 1 : -1;
}

void sk__bvp_scales(const sk_bvp_solution *s, double *scale)
{
  for (int c = 0; c < s->d; c++) {
    double m = 0.0;
    for (int64_t i = 0; i < s->n; i++) {
      m = fmax(m, fabs(s->y[s->d * i + c]));
    }
    scale[c] = 1.0 / (1.0 + m);
  }
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
  SK_CALL(ctx, sk__bvp_check(ctx, bvp, s));
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

sk_status sk__bvp_check_conditions(sk_context *ctx, sk_bvp *bvp, const double *ya,
                                   const double *yb)
{
  const int d = bvp->d, nl = bvp->n_left, nr = bvp->n_right;
  double *dga = sk__malloc(ctx, (size_t)(4 * d * d) * sizeof *dga);
  SK_CHECK(ctx, dga != NULL, SK_ERR_NOMEM, "cannot allocate the boundary-condition Jacobians");
  double *dgb = dga + d * d, *A = dgb + d * d;
  sk_status st = sk_bvp_eval_bc_jac(bvp, ya, yb, NULL, dga, dgb);
  /* the groups: left (rows 0..nl, dg/dy(a)), right (rows d-nr..d, dg/dy(b)), all ([dga dgb]) */
  const int first[3] = {0, d - nr, 0}, count[3] = {nl, nr, d};
  static const char *const what[3] = {"at the left end", "at the right end", "in all"};
  for (int grp = 0; st == SK_OK && grp < 3; grp++) {
    const int r = count[grp], cols = grp == 2 ? 2 * d : d;
    for (int i = 0; i < r; i++) {
      const int row = first[grp] + i;
      for (int j = 0; j < d; j++) {
        A[i * cols + j] = grp == 1 ? dgb[row + d * j] : dga[row + d * j];
        if (grp == 2) {
          A[i * cols + d + j] = dgb[row + d * j];
        }
      }
    }
    const int rank = r > 0 ? sk__dense_row_rank(A, r, cols, NULL) : 0;
    if (rank < r) {
      char names[512] = "", one[48];
      for (int i = 0; i < r; i++) {
        sk__bvp_condition_name(bvp, first[grp] + i, one, sizeof one);
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "", one);
      }
      st = SK_ERROR(ctx, SK_ERR_SINGULAR,
                    "the boundary conditions %s (%s) are redundant or conflicting: their "
                    "Jacobian has rank %d < %d at the guess, so they do not fix %d "
                    "independent values; replace one of them%s",
                    what[grp], names, rank, r, r,
                    bvp->d == 2 && bvp->n_left + bvp->n_right == 2
                        ? " (a second-order equation needs one condition at each end, or two "
                          "independent ones at one end)"
                        : "");
    }
  }
  sk__free(ctx, dga);
  return st;
}

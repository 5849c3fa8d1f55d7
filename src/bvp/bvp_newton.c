/* src/bvp/bvp_newton.c: what the finite-difference and shooting solvers share: the Newton solve of a discrete system with KINSOL + KLU, its failure messages, callback codes, scales and the independence of the boundary conditions */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bvp/bvp_solver.h"
#include "core/error.h"
#include "linsol/dense_small.h"

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

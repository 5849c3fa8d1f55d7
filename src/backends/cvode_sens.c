/* src/backends/cvode_sens.c: forward sensitivities of the cvode-* engines through CVODES (parameters, right-hand sides, restarts, reader) */
#include <math.h>
#include <string.h>

#include <cvodes/cvodes.h>

#include "backends/cvode_state.h"
#include "backends/sens_stencil.h"
#include "core/error.h"
#include "core/model_impl.h"

sk_status sk__cvode_sens_sync(sk__cvode *cv)
{
  return sk__stepper_sens_write(cv->s, cv->p);
}

sk_status sk__cvode_sens_nominal(sk__cvode *cv)
{
  return sk__stepper_sens_write(cv->s, cv->p + cv->np);
}

/* df/dp_j at (t, y) into out (length n): the model's own, else centered differences in p_j
 * alone (increment eps^(1/3) max(|p_j|, pbar_j); y is not moved, so the increment is not
 * shrunk by the sensitivity's error weights as a joint quotient in y and p would be); tmp: n
 * values of work. Returns SK_OK or the failed evaluation's status. */
static sk_status dfdp(sk__cvode *cv, double t, const double *y, const double *fy, int j,
                      double *out, double *tmp)
{
  sk_model *m = cv->model;
  const sk__sens *S = &cv->s->sens;
  const int64_t n = sk_model_get_n(m);
  if (sk_model_has_rhs_param(m)) {
    return sk_model_eval_rhs_param(m, t, y, fy, S->param[j], out);
  }
  const double p = cv->p[j];
  const double dp = 6.0554544523933395e-06 * fmax(fabs(p), S->pbar[j]); /* eps^(1/3) */
  cv->p[j] = p + dp;
  sk_status st = sk__cvode_sens_sync(cv);
  if (st == SK_OK) {
    st = sk_model_eval_rhs(m, t, y, out);
  }
  cv->p[j] = p - dp;
  if (st == SK_OK) {
    st = sk__cvode_sens_sync(cv);
  }
  if (st == SK_OK) {
    st = sk_model_eval_rhs(m, t, y, tmp);
  }
  cv->p[j] = p;
  const sk_status back = sk__cvode_sens_sync(cv);
  cv->sens_rhs_calls += 2;
  SK_CALL(cv->ctx, st);
  SK_CALL(cv->ctx, back);
  const double r = 1.0 / (2.0 * dp);
  for (int64_t i = 0; i < n; i++) {
    out[i] = (out[i] - tmp[i]) * r;
  }
  return SK_OK;
}

/* CVSensRhsFn for a model with its own Jacobian values: s_j' = J s_j + df/dp_j, J from the
 * model once per call, df/dp_j from dfdp above. */
static int sens_rhs(int ns, sk_sunreal t, N_Vector y, N_Vector ydot, N_Vector *yS,
                    N_Vector *ySdot, void *ud, N_Vector tmp1, N_Vector tmp2)
{
  (void)tmp2;
  sk__cvode *cv = ud;
  sk_model *m = cv->model;
  const int64_t n = sk_model_get_n(m);
  const double *yv = N_VGetArrayPointer(y), *fy = N_VGetArrayPointer(ydot);
  if (sk__cvode_sens_sync(cv) != SK_OK ||
      sk_model_eval_jac(m, t, yv, fy, cv->sens_jac) != SK_OK) {
    sk__cvode_callback_failed(cv);
    return -1;
  }
  const int64_t *colptr, *rowind;
  int64_t nnz;
  sk_model_get_jac_pattern(m, &colptr, &rowind, &nnz);
  for (int j = 0; j < ns; j++) {
    double *out = N_VGetArrayPointer(ySdot[j]);
    const double *sj = N_VGetArrayPointer(yS[j]);
    const sk_status st = dfdp(cv, t, yv, fy, j, out, N_VGetArrayPointer(tmp1));
    if (st != SK_OK) {
      sk__cvode_callback_failed(cv);
      return st == SK_RECOVERABLE ? 1 : -1;
    }
    for (int64_t c = 0; c < n; c++) {
      const double v = sj[c];
      if (v != 0.0) {
        for (int64_t k = colptr[c]; k < colptr[c + 1]; k++) {
          out[rowind[k]] += cv->sens_jac[k] * v;
        }
      }
    }
  }
  return 0;
}

/* CVSensRhsFn for a model without Jacobian values: s_j' = f_y s_j + df/dp_j as the directional
 * derivative of f along (s_j, e_j), by the difference stencil of backends/sens_stencil.h
 * (instead of CVODES' own second-order quotients, whose noise near rtol cut the steps). */
static int sens_rhs_directional(int ns, sk_sunreal t, N_Vector y, N_Vector ydot, N_Vector *yS,
                                N_Vector *ySdot, void *ud, N_Vector tmp1, N_Vector tmp2)
{
  (void)ydot;
  sk__cvode *cv = ud;
  const int64_t n = sk_model_get_n(cv->model);
  const double *yv = N_VGetArrayPointer(y);
  double *w = N_VGetArrayPointer(tmp1), *fw = N_VGetArrayPointer(tmp2);
  sk_status st = SK_OK;
  for (int j = 0; j < ns && st == SK_OK; j++) {
    double *out = N_VGetArrayPointer(ySdot[j]);
    const double *sj = N_VGetArrayPointer(yS[j]);
    const double p = cv->p[j], d = sk__sens_stencil_increment(p, cv->s->sens.pbar[j]);
    memset(out, 0, (size_t)n * sizeof *out);
    for (int k = 0; k < SK__SENS_STENCIL_POINTS && st == SK_OK; k++) {
      const double e = sk__sens_stencil_step[k] * d;
      for (int64_t i = 0; i < n; i++) {
        w[i] = yv[i] + e * sj[i];
      }
      cv->p[j] = p + e;
      st = sk__cvode_sens_sync(cv);
      if (st == SK_OK) {
        st = sk_model_eval_rhs(cv->model, t, w, fw);
      }
      for (int64_t i = 0; st == SK_OK && i < n; i++) {
        out[i] += sk__sens_stencil_weight[k] * fw[i];
      }
    }
    cv->p[j] = p;
    const sk_status back = sk__cvode_sens_sync(cv);
    st = st == SK_OK ? back : st;
    cv->sens_rhs_calls += SK__SENS_STENCIL_POINTS;
    const double div = sk__sens_stencil_divisor(d);
    for (int64_t i = 0; i < n; i++) {
      out[i] /= div;
    }
  }
  if (st != SK_OK) {
    sk__cvode_callback_failed(cv);
    return st == SK_RECOVERABLE ? 1 : -1;
  }
  return 0;
}

#define SK__CVS(call, what)                                                                   \
  do {                                                                                        \
    const int sk__f = (call);                                                                 \
    if (sk__f < 0) {                                                                          \
      return SK_ERROR(cv->ctx, SK_ERR_SOLVER, "CVODES: cannot %s (flag %d): %s", what, sk__f, \
                      cv->messages.msg);                                                      \
    }                                                                                         \
  } while (0)

/* The reader of sk_stepper_get_sensitivity: dy/dp_j at the stepper's time. */
static sk_status get_sens(sk_stepper *s, int j, double *out)
{
  sk__cvode *cv = sk_stepper_get_impl(s);
  const int64_t n = sk_model_get_n(cv->model);
  long nst = 0;
  CVodeGetNumSteps(cv->mem, &nst);
  if (nst == 0) { /* at the start (also after a restart): CVODES' own start values */
    memcpy(out, N_VGetArrayPointer(cv->yS[j]), (size_t)n * sizeof *out);
    return SK_OK;
  }
  SK__CVS(CVodeGetSensDky1(cv->mem, s->t, 0, j, cv->sens_tmp), "interpolate a sensitivity");
  memcpy(out, N_VGetArrayPointer(cv->sens_tmp), (size_t)n * sizeof *out);
  return SK_OK;
}

/* Start values of the sensitivity vectors: the stepper's (consumed), else at the first start
 * the model's (sk_model_set_sens_initial), else zero. */
static sk_status start_values(sk__cvode *cv, int first)
{
  sk__sens *S = &cv->s->sens;
  sk_model *um = cv->s->user_model;
  const int64_t n = sk_model_get_n(cv->model);
  for (int j = 0; j < cv->np; j++) {
    double *v = N_VGetArrayPointer(cv->yS[j]);
    if (first && !S->have_init && sk_model_has_sens_initial(um)) {
      SK_CALL(cv->ctx,
              sk_model_eval_sens_initial(um, sk_stepper_get_t0(cv->s), S->param[j], v, NULL));
    } else if (S->have_init) {
      memcpy(v, S->init + (size_t)j * (size_t)n, (size_t)n * sizeof *v);
    } else {
      memset(v, 0, (size_t)n * sizeof *v);
    }
  }
  S->have_init = 0;
  return SK_OK;
}

sk_status sk__cvode_sens_setup(sk__cvode *cv)
{
  sk_stepper *s = cv->s;
  sk_context *ctx = cv->ctx;
  const sk__sens *S = &s->sens;
  if (S->np == 0) {
    return SK_OK;
  }
  const int np = S->np;
  cv->p = sk__malloc(ctx, 2 * (size_t)np * sizeof *cv->p); /* p[], then the nominal values */
  int *plist = sk__malloc(ctx, (size_t)np * sizeof *plist);
  sk_sunreal *pbar = sk__malloc(ctx, (size_t)np * sizeof *pbar);
  cv->yS = N_VCloneVectorArray(np, cv->y);
  cv->np = np; /* the count sk__cvode_sens_free destroys yS with */
  cv->sens_tmp = N_VClone(cv->y);
  if (!cv->p || !plist || !pbar || !cv->yS || !cv->sens_tmp) {
    sk__free(ctx, plist);
    sk__free(ctx, pbar);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the sensitivities");
  }
  for (int j = 0; j < np; j++) {
    cv->p[j] = cv->p[np + j] = sk_model_get_param(s->user_model, S->param[j]);
    plist[j] = j;
    pbar[j] = S->pbar[j];
  }
  SK_CALL(ctx, start_values(cv, 1));
  /* a model with its own Jacobian values: J s from them and df/dp (its own or differences in
     p alone); else directional differences in y and p together */
  const int analytic = cv->model == s->user_model && sk_model_has_jacobian_values(cv->model);
  if (analytic) {
    const int64_t *colptr, *rowind;
    int64_t nnz;
    sk_model_get_jac_pattern(cv->model, &colptr, &rowind, &nnz);
    cv->sens_jac = sk__malloc(ctx, (size_t)(nnz > 0 ? nnz : 1) * sizeof *cv->sens_jac);
  }
  sk_status st = SK_OK;
  if (analytic && !cv->sens_jac) {
    st = SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the sensitivity right-hand sides");
  }
  const int ism = S->staggered ? CV_STAGGERED : CV_SIMULTANEOUS;
  int f = st == SK_OK ? CVodeSensInit(cv->mem, np, ism,
                                      analytic ? sens_rhs : sens_rhs_directional, cv->yS)
                      : 0;
  if (st == SK_OK && f >= 0) {
    f = CVodeSetSensParams(cv->mem, cv->p, pbar, plist);
  }
  if (st == SK_OK && f >= 0) {
    f = CVodeSensEEtolerances(cv->mem);
  }
  if (st == SK_OK && f >= 0) {
    f = CVodeSetSensErrCon(cv->mem, S->errcon ? SUNTRUE : SUNFALSE);
  }
  sk__free(ctx, plist);
  sk__free(ctx, pbar); /* CVODES keeps its own copy of pbar and plist */
  SK_CALL(ctx, st);
  SK_CHECK(ctx, f >= 0, SK_ERR_SOLVER, "CVODES: cannot set up the sensitivities (flag %d): %s", f,
           cv->messages.msg);
  s->sens.get = get_sens;
  return SK_OK;
}

sk_status sk__cvode_sens_restart(sk__cvode *cv, double t, int fresh)
{
  if (cv->np == 0) {
    return SK_OK;
  }
  if (cv->s->sens.have_init || fresh) {
    SK_CALL(cv->ctx, start_values(cv, 0));
  } else {
    for (int j = 0; j < cv->np; j++) {
      SK__CVS(CVodeGetSensDky1(cv->mem, t, 0, j, cv->yS[j]), "read the sensitivities");
    }
  }
  SK__CVS(
      CVodeSensReInit(cv->mem, cv->s->sens.staggered ? CV_STAGGERED : CV_SIMULTANEOUS, cv->yS),
      "restart the sensitivities");
  return SK_OK;
}

void sk__cvode_sens_free(sk__cvode *cv)
{
  if (cv->yS) {
    N_VDestroyVectorArray(cv->yS, cv->np);
    cv->yS = NULL;
  }
  if (cv->sens_tmp) {
    N_VDestroy(cv->sens_tmp);
    cv->sens_tmp = NULL;
  }
  sk__free(cv->ctx, cv->p);
  sk__free(cv->ctx, cv->sens_jac);
  cv->p = cv->sens_jac = NULL;
  cv->np = 0;
  cv->sens_rhs_calls = 0;
}

int64_t sk__cvode_sens_rhs_evals(const sk__cvode *cv)
{
  long nfes = 0; /* calls of f in the sensitivities' difference quotients */
  if (cv->np > 0) {
    CVodeGetNumRhsEvalsSens(cv->mem, &nfes);
  }
  return (int64_t)nfes + cv->sens_rhs_calls;
}

void sk__cvode_sens_nonlinear(const sk__cvode *cv, int64_t *iters, int64_t *fails)
{
  long ni = 0, nf = 0;
  if (cv->np > 0 && cv->s->sens.staggered) { /* the simultaneous corrector counts them with y */
    CVodeGetSensNumNonlinSolvIters(cv->mem, &ni);
    CVodeGetSensNumNonlinSolvConvFails(cv->mem, &nf);
  }
  *iters = ni;
  *fails = nf;
}

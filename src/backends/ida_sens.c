/* src/backends/ida_sens.c: forward sensitivities of the ida-bdf engine through IDAS (parameters, start values, restarts, reader) */
#include <math.h>
#include <string.h>

#include <idas/idas.h>

#include "backends/ida_impl.h"
#include "backends/sens_stencil.h"
#include "core/context_impl.h"
#include "core/error.h"
#include "core/model_impl.h"

#define SK__IDAS(call, what)                                                                 \
  do {                                                                                       \
    const int sk__f = (call);                                                                \
    if (sk__f < 0) {                                                                         \
      return SK_ERROR(ida->ctx, SK_ERR_SOLVER, "IDAS: cannot %s (flag %d): %s", what, sk__f, \
                      ida->messages.msg);                                                    \
    }                                                                                        \
  } while (0)

sk_status sk__ida_sens_sync(sk__ida *ida)
{
  return sk__stepper_sens_write(ida->s, ida->p);
}

sk_status sk__ida_sens_nominal(sk__ida *ida)
{
  return sk__stepper_sens_write(ida->s, ida->p + ida->np);
}

/* F(t, y, y') with the model's parameters at IDAS' p[] (an ODE model as y' - f). */
static sk_status eval_F(sk__ida *ida, double t, const double *y, const double *yp, double *out)
{
  SK_CALL(ida->ctx, sk__ida_sens_sync(ida));
  if (!ida->ode) {
    return sk_model_eval_residual(ida->model, t, y, yp, out);
  }
  SK_CALL(ida->ctx, sk_model_eval_rhs(ida->model, t, y, out));
  for (int64_t i = 0; i < sk_model_get_n(ida->model); i++) {
    out[i] = (yp ? yp[i] : 0.0) - out[i];
  }
  return SK_OK;
}

/* The directional derivative of F along (s_j, s_j', e_j) at (t, y, y'): F_y s_j + F_y' s_j' +
 * dF/dp_j, by the difference stencil of backends/sens_stencil.h (increment d in p_j, d s_j in y,
 * d s_j' in y'); sp NULL: s_j' = 0 and no y' term (an ODE's start values, whose result is then
 * -(f_y s_j + df/dp_j)). Four evaluations of F; w1, w2, w3: n values of work. */
static sk_status sens_residual(sk__ida *ida, int j, double t, const double *y, const double *yp,
                               const double *sj, const double *sp, double *out, double *w1,
                               double *w2, double *w3)
{
  const int64_t n = sk_model_get_n(ida->model);
  const double p = ida->p[j];
  const double d = sk__sens_stencil_increment(p, ida->s->sens.pbar[j]);
  sk_status st = SK_OK;
  memset(out, 0, (size_t)n * sizeof *out);
  for (int k = 0; k < SK__SENS_STENCIL_POINTS && st == SK_OK; k++) {
    const double e = sk__sens_stencil_step[k] * d;
    for (int64_t i = 0; i < n; i++) {
      w1[i] = y[i] + e * sj[i];
      w2[i] = sp ? yp[i] + e * sp[i] : 0.0;
    }
    ida->p[j] = p + e;
    st = eval_F(ida, t, w1, sp ? w2 : NULL, w3);
    for (int64_t i = 0; st == SK_OK && i < n; i++) {
      out[i] += sk__sens_stencil_weight[k] * w3[i];
    }
  }
  ida->p[j] = p;
  const sk_status back = sk__ida_sens_nominal(ida);
  ida->sens_res_calls += SK__SENS_STENCIL_POINTS;
  SK_CALL(ida->ctx, st);
  SK_CALL(ida->ctx, back);
  const double div = sk__sens_stencil_divisor(d);
  for (int64_t i = 0; i < n; i++) {
    out[i] /= div;
  }
  return SK_OK;
}

/* IDASensResFn: the sensitivity residuals, each from sens_residual. */
static int sens_res_fn(int ns, sk_sunreal t, N_Vector y, N_Vector yp, N_Vector r, N_Vector *yS,
                       N_Vector *ypS, N_Vector *rS, void *ud, N_Vector t1, N_Vector t2,
                       N_Vector t3)
{
  (void)r;
  sk__ida *ida = ud;
  for (int j = 0; j < ns; j++) {
    const sk_status st = sens_residual(ida, j, t, N_VGetArrayPointer(y), N_VGetArrayPointer(yp),
                                       N_VGetArrayPointer(yS[j]), N_VGetArrayPointer(ypS[j]),
                                       N_VGetArrayPointer(rS[j]), N_VGetArrayPointer(t1),
                                       N_VGetArrayPointer(t2), N_VGetArrayPointer(t3));
    if (st != SK_OK) {
      ida->callback_error = ida->ctx->err;
      ida->have_callback_error = 1;
      return st == SK_RECOVERABLE ? 1 : -1;
    }
  }
  return 0;
}

/* For an ODE model (F = y' - f, no consistent initialization): s_j' = f_y s_j + df/dp_j. */
static sk_status ode_sens_derivatives(sk__ida *ida, double t)
{
  const int64_t n = sk_model_get_n(ida->model);
  double *w[3] = {N_VGetArrayPointer(ida->sens_tmp), N_VGetArrayPointer(ida->sens_tmp2),
                  N_VGetArrayPointer(ida->sens_tmp3)};
  for (int j = 0; j < ida->np; j++) {
    double *out = N_VGetArrayPointer(ida->ypS[j]);
    SK_CALL(ida->ctx, sens_residual(ida, j, t, N_VGetArrayPointer(ida->y), NULL,
                                    N_VGetArrayPointer(ida->yS[j]), NULL, out, w[0], w[1], w[2]));
    for (int64_t i = 0; i < n; i++) {
      out[i] = -out[i];
    }
  }
  return SK_OK;
}

/* 1 when the model gives consistent start sensitivities and their derivatives (its initial
 * values are consistent by construction, so no IDACalcIC computes them). */
static int sens_given(const sk__ida *ida)
{
  return !ida->ode && sk_model_get_dae_consistent(ida->model, NULL) &&
         sk_model_has_sens_initial(ida->s->user_model);
}

/* Start values: the stepper's s_j (consumed), else at the first start the model's
 * (sk_model_set_sens_initial; with s_j' for a model whose initial values are given consistent),
 * else zero; s_j' from the ODE's
 * right-hand side, the model's, or zero for a DAE (IDACalcIC computes the algebraic s_j and the
 * differential s_j' before the first step, as it does for y). */
static sk_status start_values(sk__ida *ida, double t, int first)
{
  sk__sens *S = &ida->s->sens;
  const int64_t n = sk_model_get_n(ida->model);
  sk_model *um = ida->s->user_model;
  const int from_model = first && !S->have_init && sk_model_has_sens_initial(um);
  for (int j = 0; j < ida->np; j++) {
    double *v = N_VGetArrayPointer(ida->yS[j]), *vp = N_VGetArrayPointer(ida->ypS[j]);
    memset(vp, 0, (size_t)n * sizeof *vp);
    if (from_model) {
      SK_CALL(ida->ctx,
              sk_model_eval_sens_initial(um, t, S->param[j], v, sens_given(ida) ? vp : NULL));
    } else if (S->have_init) {
      memcpy(v, S->init + (size_t)j * (size_t)n, (size_t)n * sizeof *v);
    } else {
      memset(v, 0, (size_t)n * sizeof *v);
    }
  }
  S->have_init = 0;
  return ida->ode ? ode_sens_derivatives(ida, t) : SK_OK;
}

/* The reader of sk_stepper_get_sensitivity: dy/dp_j at the stepper's time. */
static sk_status get_sens(sk_stepper *s, int j, double *out)
{
  sk__ida *ida = sk_stepper_get_impl(s);
  const int64_t n = sk_model_get_n(ida->model);
  long nst = 0;
  IDAGetNumSteps(ida->mem, &nst);
  if (nst == 0 || !ida->ic_done) { /* before the first step: the start (or consistent) values */
    memcpy(out, N_VGetArrayPointer(ida->yS[j]), (size_t)n * sizeof *out);
    return SK_OK;
  }
  SK__IDAS(IDAGetSensDky1(ida->mem, s->t, 0, j, ida->sens_tmp), "interpolate a sensitivity");
  memcpy(out, N_VGetArrayPointer(ida->sens_tmp), (size_t)n * sizeof *out);
  return SK_OK;
}

/* The corrector until the consistent initialization: staggered for a DAE (IDACalcIC with the
 * simultaneous corrector failed its line search on idasRoberts_FSA_dns, from zero start
 * derivatives and with exact sensitivity residuals alike; sk__ida_sens_after_ic switches),
 * else the one asked for. */
static int corrector_before_ic(const sk__ida *ida)
{
  return ida->s->sens.staggered || (!ida->ode && !sens_given(ida)) ? IDA_STAGGERED
                                                                   : IDA_SIMULTANEOUS;
}

sk_status sk__ida_sens_after_ic(sk__ida *ida)
{
  if (ida->np == 0) {
    return SK_OK;
  }
  SK__IDAS(IDAGetSensConsistentIC(ida->mem, ida->yS, ida->ypS),
           "read the consistent sensitivities");
  if (!ida->s->sens.staggered) {
    SK__IDAS(IDASensReInit(ida->mem, IDA_SIMULTANEOUS, ida->yS, ida->ypS),
             "switch the sensitivities to the simultaneous corrector");
  }
  return SK_OK;
}

sk_status sk__ida_sens_setup(sk__ida *ida)
{
  sk_stepper *s = ida->s;
  sk_context *ctx = ida->ctx;
  const sk__sens *S = &s->sens;
  if (S->np == 0) {
    return SK_OK;
  }
  SK_CHECK(ctx, ida->ode || !sk_model_get_dae_consistent(ida->model, NULL) || sens_given(ida),
           SK_ERR_UNSUPPORTED,
           "ida-bdf: model '%s' gives consistent initial values but not their sensitivities "
           "(sk_model_set_sens_initial), and no consistent initialization computes the "
           "sensitivities' start values: sensitivities of such a model are not available",
           sk_model_get_name(ida->model));
  const int np = S->np;
  ida->p = sk__malloc(ctx, 2 * (size_t)np * sizeof *ida->p); /* p[], then the nominal values */
  int *plist = sk__malloc(ctx, (size_t)np * sizeof *plist);
  sk_sunreal *pbar = sk__malloc(ctx, (size_t)np * sizeof *pbar);
  ida->yS = N_VCloneVectorArray(np, ida->y);
  ida->ypS = N_VCloneVectorArray(np, ida->y);
  ida->np = np; /* the count sk__ida_sens_free destroys them with */
  ida->sens_tmp = N_VClone(ida->y);
  ida->sens_tmp2 = N_VClone(ida->y);
  ida->sens_tmp3 = N_VClone(ida->y);
  if (!ida->p || !plist || !pbar || !ida->yS || !ida->ypS || !ida->sens_tmp || !ida->sens_tmp2 ||
      !ida->sens_tmp3) {
    sk__free(ctx, plist);
    sk__free(ctx, pbar);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the sensitivities");
  }
  for (int j = 0; j < np; j++) {
    ida->p[j] = ida->p[np + j] = sk_model_get_param(s->user_model, S->param[j]);
    plist[j] = j;
    pbar[j] = S->pbar[j];
  }
  sk_status st = start_values(ida, sk_stepper_get_t0(s), 1);
  /* the sensitivity residuals: stiffkit's centered directional differences (IDAS' own
     difference quotients, forward in (y, y', p) together, made IDACalcIC's line search fail
     with the simultaneous corrector on idasRoberts_FSA_dns) */
  const int ism = corrector_before_ic(ida);
  int f = st == SK_OK ? IDASensInit(ida->mem, np, ism, sens_res_fn, ida->yS, ida->ypS) : 0;
  if (st == SK_OK && f >= 0) {
    f = IDASetSensParams(ida->mem, ida->p, pbar, plist);
  }
  if (st == SK_OK && f >= 0) {
    f = IDASensEEtolerances(ida->mem);
  }
  if (st == SK_OK && f >= 0) {
    f = IDASetSensErrCon(ida->mem, S->errcon ? SUNTRUE : SUNFALSE);
  }
  sk__free(ctx, plist);
  sk__free(ctx, pbar); /* IDAS keeps its own copy of pbar and plist */
  SK_CALL(ctx, st);
  SK_CHECK(ctx, f >= 0, SK_ERR_SOLVER, "IDAS: cannot set up the sensitivities (flag %d): %s", f,
           ida->messages.msg);
  s->sens.get = get_sens;
  return SK_OK;
}

sk_status sk__ida_sens_restart(sk__ida *ida, double t, int fresh)
{
  if (ida->np == 0) {
    return SK_OK;
  }
  if (ida->s->sens.have_init || fresh) {
    SK_CALL(ida->ctx, start_values(ida, t, 0));
  } else {
    for (int j = 0; j < ida->np; j++) {
      SK__IDAS(IDAGetSensDky1(ida->mem, t, 0, j, ida->yS[j]), "read the sensitivities");
      SK__IDAS(IDAGetSensDky1(ida->mem, t, 1, j, ida->ypS[j]), "read their derivatives");
    }
  }
  return SK_OK;
}

sk_status sk__ida_sens_reinit(sk__ida *ida)
{
  if (ida->np == 0) {
    return SK_OK;
  }
  SK__IDAS(IDASensReInit(ida->mem, corrector_before_ic(ida), ida->yS, ida->ypS),
           "restart the sensitivities");
  return SK_OK;
}

void sk__ida_sens_free(sk__ida *ida)
{
  if (ida->yS) {
    N_VDestroyVectorArray(ida->yS, ida->np);
  }
  if (ida->ypS) {
    N_VDestroyVectorArray(ida->ypS, ida->np);
  }
  N_Vector *tmp[3] = {&ida->sens_tmp, &ida->sens_tmp2, &ida->sens_tmp3};
  for (int k = 0; k < 3; k++) {
    if (*tmp[k]) {
      N_VDestroy(*tmp[k]);
      *tmp[k] = NULL;
    }
  }
  sk__free(ida->ctx, ida->p);
  ida->yS = ida->ypS = NULL;
  ida->p = NULL;
  ida->np = 0;
  ida->sens_res_calls = 0;
}

int64_t sk__ida_sens_res_evals(const sk__ida *ida)
{
  long n = 0; /* calls of F in the sensitivities' difference quotients */
  if (ida->np > 0) {
    IDAGetSensNumResEvals(ida->mem, &n);
  }
  return (int64_t)n + ida->sens_res_calls;
}

void sk__ida_sens_nonlinear(const sk__ida *ida, int64_t *iters, int64_t *fails)
{
  long ni = 0, nf = 0;
  if (ida->np > 0 && ida->s->sens.staggered) { /* the simultaneous corrector counts them with y */
    IDAGetSensNumNonlinSolvIters(ida->mem, &ni);
    IDAGetSensNumNonlinSolvConvFails(ida->mem, &nf);
  }
  *iters = ni;
  *fails = nf;
}

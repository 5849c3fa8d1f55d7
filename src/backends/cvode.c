/* src/backends/cvode.c: the CVODE engines (cvode-bdf, cvode-adams; linked as CVODES) as entries of the stepper type table */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cvodes/cvodes.h>
#include <cvodes/cvodes_bandpre.h>
#include <cvodes/cvodes_bbdpre.h>
#include <cvodes/cvodes_ls.h>
#include <cvodes/cvodes_proj.h>

#include "backends/cvode_keys.h"
#include "backends/cvode_state.h"
#include "core/context_impl.h"
#include "core/error.h"
#include "core/model_dist.h"
#include "core/stop.h"

/* CVRhsFn: checked model RHS. A non-finite value is recoverable twice in a
 * row (CVODE cuts the step), then fatal, so a persistent NaN ends the run
 * with the component named instead of looping. */
static int rhs(sk_sunreal t, N_Vector y, N_Vector ydot, void *ud)
{
  sk__cvode *cv = ud;
  /* with sensitivities the model reads CVODES' p[], which its difference quotients move */
  sk_status rc = cv->np > 0 ? sk__cvode_sens_sync(cv) : SK_OK;
  if (rc == SK_OK) {
    rc = sk_model_eval_rhs(cv->model, t, N_VGetArrayPointer(y), N_VGetArrayPointer(ydot));
  }
  if (cv->np > 0) {
    const sk_status back = sk__cvode_sens_nominal(cv);
    rc = rc == SK_OK ? back : rc;
  }
  if (rc == SK_OK) {
    cv->nonfinite_streak = 0;
    return 0;
  }
  sk__cvode_callback_failed(cv);
  if (rc == SK_RECOVERABLE) {
    return 1;
  }
  if (rc == SK_ERR_NONFINITE && ++cv->nonfinite_streak <= 2) {
    return 1;
  }
  return -1;
}

/* CVProjFn: the model's projection after an accepted step (the error estimate is left
 * unprojected). */
static int proj(sk_sunreal t, N_Vector y, N_Vector corr, sk_sunreal eps, N_Vector err, void *ud)
{
  (void)eps;
  (void)err;
  sk__cvode *cv = ud;
  const sk_status rc =
      sk_model_eval_projection(cv->model, t, N_VGetArrayPointer(y), N_VGetArrayPointer(corr));
  if (rc != SK_OK) {
    sk__cvode_callback_failed(cv);
  }
  return rc == SK_OK ? 0 : rc == SK_RECOVERABLE ? 1 : -1;
}

/* CVRootFn: the model's event functions. */
static int root_fn(sk_sunreal t, N_Vector y, sk_sunreal *g, void *ud)
{
  sk__cvode *cv = ud;
  if (sk_model_eval_events(cv->model, t, N_VGetArrayPointer(y), g) != SK_OK) {
    sk__cvode_callback_failed(cv);
    return -1;
  }
  return 0;
}

static sk_status cvode_create(sk_stepper *s, int lmm)
{
  sk_context *ctx = sk_stepper_get_context(s);
  sk__cvode *cv = sk__calloc(ctx, 1, sizeof *cv);
  SK_CHECK(ctx, cv != NULL, SK_ERR_NOMEM, "cannot allocate the CVODE adapter");
  cv->s = s;
  cv->ctx = ctx;
  cv->model = sk_stepper_get_model(s);
  cv->lmm = lmm;
  sk_stepper_set_impl(s, cv);
  return SK_OK;
}

static sk_status create_bdf(sk_stepper *s)
{
  return cvode_create(s, CV_BDF);
}
static sk_status create_adams(sk_stepper *s)
{
  return cvode_create(s, CV_ADAMS);
}

/* Free every SUNDIALS object of the adapter (safe on a partial setup). */
static void release(sk__cvode *cv)
{
  if (cv->mem) {
    CVodeFree(&cv->mem);
  }
  sk__cvode_sens_free(cv);
  sk__cvode_free_linear_solver(cv);
  if (cv->y) {
    N_VDestroy(cv->y);
    cv->y = NULL;
  }
  if (cv->abstol) {
    N_VDestroy(cv->abstol);
    cv->abstol = NULL;
  }
  if (cv->sunctx) {
    SUNContext_Free(&cv->sunctx);
  }
  sk__free(cv->ctx, cv->roots);
  cv->roots = NULL;
}

static void cvode_destroy(sk_stepper *s)
{
  sk__cvode *cv = sk_stepper_get_impl(s);
  if (!cv) {
    return;
  }
  release(cv);
  sk__free(cv->ctx, cv);
  sk_stepper_set_impl(s, NULL);
}

#define SK__CV(call, what)                                                   \
  do {                                                                       \
    int sk__f = (call);                                                      \
    if (sk__f < 0) {                                                         \
      const char *sk__name;                                                  \
      sk_status sk__st = sk__status_from_cvode(sk__f, &sk__name);            \
      SK_ERROR(ctx, sk__st, "CVODE: cannot %s: %s", what, cv->messages.msg); \
      sk__error_set_foreign(ctx, sk__f, sk__name);                           \
      return sk__st;                                                         \
    }                                                                        \
  } while (0)

static sk_status cvode_setup(sk_stepper *s)
{
  sk__cvode *cv = sk_stepper_get_impl(s);
  sk_context *ctx = cv->ctx;
  const int64_t n = sk_model_get_n(cv->model);
  SK_CALL(ctx, sk__sun_check_adaptive(s));
  release(cv); /* a setup retried after a failure starts clean */
  memset(&cv->before, 0, sizeof cv->before);
  cv->restarted = 0;
  /* one SUNContext per engine: SUNDIALS 7 attaches error handlers to it */
  SK_CHECK(ctx, SK_SUNCONTEXT_CREATE(&cv->sunctx) == 0 && cv->sunctx != NULL, SK_ERR_NOMEM,
           "cannot create the SUNDIALS context");
  /* wrap the stepper's state buffer: no copy */
  cv->y = sk__sun_state_vector(cv->model, sk_stepper_state_buffer(s), cv->sunctx,
                               sk__stepper_fast_vector_ops(s));
  SK_CHECK(ctx, cv->y != NULL, SK_ERR_NOMEM, "cannot create the state vector");
  cv->mem = CVodeCreate(cv->lmm, cv->sunctx);
  SK_CHECK(ctx, cv->mem != NULL, SK_ERR_NOMEM, "cannot create CVODE");
  SK_CHECK(ctx, sk__cvode_capture_messages(cv->mem, cv->sunctx, &cv->messages) == 0,
           SK_ERR_SOLVER, "cannot install the CVODE message handler");
  SK__CV(CVodeInit(cv->mem, rhs, sk_stepper_get_t0(s), cv->y), "initialize");
  SK__CV(CVodeSetUserData(cv->mem, cv), "set user data");
  if (sk_model_has_projection(cv->model) && cv->lmm == CV_BDF) {
    SK__CV(CVodeSetProjFn(cv->mem, proj), "set the projection");
  }
  const double *atolv = sk_stepper_get_atol_vector(s);
  if (atolv) {
    cv->abstol = N_VClone(cv->y);
    SK_CHECK(ctx, cv->abstol != NULL, SK_ERR_NOMEM, "cannot allocate the tolerance vector");
    memcpy(N_VGetArrayPointer(cv->abstol), atolv, (size_t)n * sizeof *atolv);
    SK__CV(CVodeSVtolerances(cv->mem, sk_stepper_get_rtol(s), cv->abstol), "set tolerances");
  } else {
    SK__CV(CVodeSStolerances(cv->mem, sk_stepper_get_rtol(s), sk_stepper_get_atol(s)),
           "set tolerances");
  }
  N_Vector con = NULL; /* the package keeps its own copy */
  SK_CALL(ctx, sk__sundials_constraints(ctx, cv->model, cv->y, &con));
  if (con) {
    const int cf = CVodeSetConstraints(cv->mem, con);
    N_VDestroy(con);
    SK__CV(cf, "set the constraints");
  }
  /* at most one internal step per CVode call, also in CV_NORMAL mode (it then returns
     CV_TOO_MUCH_WORK after each step short of tout): the stepping loop
     (sundials_stepping.c) enforces the total budget and runs the monitor after every step */
  SK__CV(CVodeSetMaxNumSteps(cv->mem, 1), "set the step limit");
  if (sk_stepper_get_max_order(s) > 0) {
    SK__CV(CVodeSetMaxOrd(cv->mem, sk_stepper_get_max_order(s)), "set the maximum order");
  }
  double h0, hmin, hmax, tstop;
  sk_stepper_get_step_limits(s, &h0, &hmin, &hmax);
  if (h0 > 0) {
    SK__CV(CVodeSetInitStep(cv->mem, h0), "set the initial step");
  }
  if (hmin > 0) {
    SK__CV(CVodeSetMinStep(cv->mem, hmin), "set the minimum step");
  }
  if (hmax > 0) {
    SK__CV(CVodeSetMaxStep(cv->mem, hmax), "set the maximum step");
  }
  if (sk_stepper_get_stop_time(s, &tstop)) {
    SK_CHECK(ctx, tstop > sk_stepper_get_t0(s), SK_ERR_INPUT,
             "solver.stop_time (%g) must be after solver.t0 (%g)", tstop, sk_stepper_get_t0(s));
  }
  SK_CALL_STOP(ctx, sk__cvode_attach_linear_solver(cv));
  SK_CALL(ctx, sk__cvode_sens_setup(cv));
  const int nev = sk_model_get_nevents(cv->model);
  if (nev > 0) {
    cv->roots = sk__calloc(ctx, (size_t)nev, sizeof *cv->roots);
    SK_CHECK(ctx, cv->roots != NULL, SK_ERR_NOMEM, "cannot allocate the event flags");
    SK__CV(CVodeRootInit(cv->mem, nev, root_fn), "set the event functions");
    const int *dir = sk_model_get_event_directions(cv->model);
    if (dir) { /* the package copies them: the flags array serves as the copy it reads */
      memcpy(cv->roots, dir, (size_t)nev * sizeof *dir);
      SK__CV(CVodeSetRootDirection(cv->mem, cv->roots), "set the event directions");
    }
  }
  cv->fd_rhs_base = sk_model_get_fd_rhs_evals(cv->model);
  /* the model's Jacobian values enter the run through a direct solver, a preconditioner
     assembled from them (jacobi, amg) or the sensitivities' J s; otherwise (a Krylov solver
     with the model's own or no preconditioner) only J v is tested, and the values test's
     work arrays (about 20 doubles per unknown) are never allocated */
  s->jac_values_unused = !cv->direct && strcmp(cv->prec, "jacobi") && strcmp(cv->prec, "amg") &&
                         strcmp(cv->prec, "mg") && sk_stepper_get_nsens(s) == 0;
  if (((cv->jac.vals && !s->jac_values_unused) || sk_model_has_jtimes(cv->model)) &&
      strcmp(cv->linsol, "none")) {
    SK_CALL_STOP(ctx, sk__stepper_jacobian_selftest(s));
  }
  /* report the resolved choices through the generic getters */
  snprintf(s->linsol, sizeof s->linsol, "%s", cv->linsol);
  snprintf(s->prec, sizeof s->prec, "%s",
           cv->direct || sk__linsol_is(NULL, cv->linsol, SK__LS_NONE) ? "none" : cv->prec);
  snprintf(s->ordering, sizeof s->ordering, "%s",
           sk__sun_ordering_used(ctx, cv->linsol, cv->ordering));
  return SK_OK;
}

/* Append the components with the largest weighted local error estimates. */
static void describe_local_errors(sk__cvode *cv, char *buf, size_t len)
{
  const int64_t n = sk_model_get_n(cv->model);
  N_Vector ewt = N_VClone(cv->y), ele = N_VClone(cv->y);
  buf[0] = '\0';
  if (!ewt || !ele || CVodeGetErrWeights(cv->mem, ewt) != CV_SUCCESS ||
      CVodeGetEstLocalErrors(cv->mem, ele) != CV_SUCCESS) {
    goto done;
  }
  const sk_sunreal *w = N_VGetArrayPointer(ewt), *e = N_VGetArrayPointer(ele);
  double total = 0.0;
  int64_t top[3] = {-1, -1, -1};
  double val[3] = {0, 0, 0};
  for (int64_t i = 0; i < n; i++) {
    const double v = (w[i] * e[i]) * (w[i] * e[i]);
    total += v;
    for (int k = 0; k < 3; k++) {
      if (v > val[k]) {
        for (int m = 2; m > k; m--) {
          val[m] = val[m - 1];
          top[m] = top[m - 1];
        }
        val[k] = v;
        top[k] = i;
        break;
      }
    }
  }
  if (!(total > 0)) {
    goto done;
  }
  size_t used = (size_t)snprintf(buf, len, "; largest local errors:");
  for (int k = 0; k < 3 && top[k] >= 0 && used < len; k++) {
    char name[96];
    sk_model_component_name(cv->model, top[k], name, sizeof name);
    int w2 = snprintf(buf + used, len - used, "%s %s %.0f%%", k ? "," : "", name,
                      100.0 * val[k] / total);
    used += w2 > 0 ? (size_t)w2 : 0;
  }
done:
  if (ewt) {
    N_VDestroy(ewt);
  }
  if (ele) {
    N_VDestroy(ele);
  }
}

static const char *hint_for(int flag)
{
  switch (flag) {
  case CV_ERR_FAILURE:
    return "; hint: check the Jacobian and the model for discontinuities, or loosen the "
           "tolerances";
  case CV_CONV_FAILURE:
    return "; hint: a wrong Jacobian stalls Newton (check it against finite differences), or try "
           "another linear solver or preconditioner";
  case CV_LSETUP_FAIL:
  case CV_LSOLVE_FAIL:
    return "; hint: the iteration matrix may be singular, or the preconditioner failed";
  case CV_TOO_MUCH_ACC:
    return "; hint: the tolerances are too tight for double precision";
  default:
    return "";
  }
}

/* Turn a failed CVode() call into the error record. */
static sk_status cvode_failure(sk__cvode *cv, int flag)
{
  sk_context *ctx = cv->ctx;
  if (cv->have_callback_error && cv->callback_error.code == SK_INTERRUPTED) {
    /* a stop request seen inside a callback (the coloring of a Jacobian built on first use):
       the run stops at its last step, as after the monitor's stop */
    sk__error_restore(ctx, &cv->callback_error);
    return SK_INTERRUPTED;
  }
  const char *name;
  sk_status st = sk__status_from_cvode(flag, &name);
  sk_sunreal t = 0, h = 0;
  CVodeGetCurrentTime(cv->mem, &t);
  CVodeGetCurrentStep(cv->mem, &h);
  char local[400] = "";
  if (flag == CV_ERR_FAILURE || flag == CV_CONV_FAILURE) {
    describe_local_errors(cv, local, sizeof local);
  }
  if (flag == CV_LSETUP_FAIL || flag == CV_LSOLVE_FAIL ||
      (flag == CV_CONV_FAILURE && cv->LS && SUNLinSolLastFlag(cv->LS) != SUNLS_SUCCESS)) {
    /* a recoverable linear failure (a singular matrix) repeated is a convergence failure */
    const size_t used = strlen(local);
    sk__sun_linear_failure(cv->LS, cv->linsol, cv->model, local + used, sizeof local - used);
  }
  char cause[SK_ERROR_MSG_LEN / 2] = "";
  if (cv->have_callback_error) {
    snprintf(cause, sizeof cause, "; cause: %.480s", cv->callback_error.message);
  }
  if (cv->have_callback_error && flag <= CV_RHSFUNC_FAIL && flag >= CV_UNREC_RHSFUNC_ERR) {
    st = cv->callback_error.code == SK_ERR_NONFINITE ? SK_ERR_NONFINITE : st;
  }
  if (cv->have_callback_error && cv->callback_error.code == SK_ERR_NOMEM) {
    st = SK_ERR_NOMEM; /* a callback (the preconditioner's setup) ran out of memory */
  }
  SK_ERROR(ctx, st, "CVODE failed at t=%.6e (h=%.3e): %s%s%s%s", t, h, sk_status_str(st), local,
           cause, st == SK_ERR_NOMEM ? "" : hint_for(flag));
  sk__error_set_foreign(ctx, flag, name);
  return st;
}

/* One internal step; returns SK_OK, SK_INTERRUPTED or an error. On a
 * failure the state buffer and s->t hold the last successful step. */
static sk_status cvode_get_stats(sk_stepper *s, sk_stats *st);

/* Restart CVODE at t from the state buffer, keeping the counters
 * (CVodeReInit zeroes them): after an event, or (fresh) at
 * sk_stepper_reinit, where the linear solver also factors afresh and the
 * AMG preconditioner takes a new Jacobian, as in a newly set-up engine. */
static sk_status restart(sk_stepper *s, sk__cvode *cv, double t, int fresh, const char *what)
{
  sk_context *ctx = cv->ctx;
  sk_stats now;
  memset(&now, 0, sizeof now); /* also the counters this engine does not keep */
  cvode_get_stats(s, &now);
  if (fresh) {
    SK_CALL(ctx, sk__sun_linsol_fresh(ctx, cv->linsol, cv->LS, cv->A));
    cv->amg_have_jac = 0;
    cv->amg_built = 0;
    cv->nonfinite_streak = 0;
  }
  SK_CALL(ctx, sk__cvode_sens_restart(cv, t, fresh));
  SK__CV(CVodeReInit(cv->mem, t, cv->y), what);
  sk__cvode_mg_handoff_reset(cv, fresh);
  cv->before = now;
  cv->restarted = 1;
  cv->fd_rhs_base = sk_model_get_fd_rhs_evals(cv->model);
  cv->prec_jac_evals = 0;
  cv->amg_hierarchies = 0;
  return SK_OK;
}

/* The reinit op: sk_stepper_reinit has set the time and the state buffer. */
static sk_status cvode_reinit(sk_stepper *s, const double *yp)
{
  (void)yp;
  return restart(s, sk_stepper_get_impl(s), sk_stepper_get_t0(s), 1, "restart (reinit)");
}

/* ---- the engine as the shared stepping loop sees it ---------------------- */

/* CVode's first test in normal mode (the integration runs forward): a step was taken since
 * the (re)initialization and it reached or passed tout */
static int passed(sk__cvode *cv, double tout)
{
  long nst = 0;
  sk_sunreal tn = 0;
  CVodeGetNumSteps(cv->mem, &nst);
  CVodeGetCurrentTime(cv->mem, &tn);
  return nst > 0 && tn >= tout;
}

static sk_status eng_step(void *eng, double tout, int normal, int use_stop, double stop,
                          double *t, sk__sun_return *what)
{
  sk__cvode *cv = eng;
  sk_context *ctx = cv->ctx;
  if (use_stop) {
    /* SUNDIALS 6 forgets the stop time once it has returned there: set it each step */
    SK__CV(CVodeSetStopTime(cv->mem, stop), "set the stop time");
  }
  cv->have_callback_error = 0;
  sk_sunreal tret = *t;
  /* Without root functions normal mode is CV_ONE_STEP and CVodeGetDky at tout once tn has
     passed it: CVODE 6.4's CVode runs the same step loop and the same tstop adjustments
     in both modes and interpolates tout with CVodeGetDky, so the steps and the output are
     CV_NORMAL's, without the CV_TOO_MUCH_WORK message that mxstep = 1 formats after every
     step. With root functions CV_NORMAL itself runs: it searches roots only up to tout. */
  const int emulate = normal && sk_model_get_nevents(cv->model) == 0;
  if (emulate && passed(cv, tout)) {
    SK__CV(CVodeGetDky(cv->mem, tout, 0, cv->y), "interpolate the state");
    *t = tout;
    *what = SK__SUN_REACHED;
    return SK_OK;
  }
  sk__stop_region_enter("a CVODE call (its steps' Newton iterations and linear-solver setups)");
  const int flag =
      CVode(cv->mem, tout, cv->y, &tret, normal && !emulate ? CV_NORMAL : CV_ONE_STEP);
  sk__stop_region_leave();
  cv->restarted = 0;
  if (cv->np > 0) { /* the model's parameters back at their nominal values (p[] restored) */
    SK_CALL(ctx, sk__cvode_sens_sync(cv));
  }
  if (emulate && flag >= 0 && tret >= tout) { /* CV_SUCCESS or CV_TSTOP_RETURN past tout */
    SK__CV(CVodeGetDky(cv->mem, tout, 0, cv->y), "interpolate the state");
    *t = tout;
    *what = SK__SUN_REACHED;
    return SK_OK;
  }
  if (flag == CV_TOO_MUCH_WORK && normal) { /* mxstep is 1 (setup): one step taken, with
                                               y(tn) in y; not a failure */
    cv->messages.msg[0] = '\0';
    cv->messages.last_code = 0;
    *t = tret;
    *what = SK__SUN_STEPPED;
    return SK_OK;
  }
  if (flag < 0) {
    CVodeGetCurrentTime(cv->mem, &tret); /* with the last successful step's solution in y */
    *t = tret;
    return cvode_failure(cv, flag);
  }
  *t = tret;
  *what = flag == CV_ROOT_RETURN   ? SK__SUN_ROOT
          : normal && tret >= tout ? SK__SUN_REACHED
                                   : SK__SUN_STEPPED;
  return SK_OK;
}

static sk_status eng_roots(void *eng, int *fired)
{
  sk__cvode *cv = eng;
  sk_context *ctx = cv->ctx;
  SK__CV(CVodeGetRootInfo(cv->mem, fired), "read the event flags");
  return SK_OK;
}

static sk_status eng_restart(void *eng, double t)
{
  return restart(((sk__cvode *)eng)->s, eng, t, 0, "restart after an event");
}

static int64_t eng_total_steps(void *eng)
{
  sk__cvode *cv = eng;
  long nst = 0;
  CVodeGetNumSteps(cv->mem, &nst);
  return (int64_t)nst + cv->before.steps;
}

static double eng_current_time(void *eng)
{
  sk_sunreal t = 0;
  CVodeGetCurrentTime(((sk__cvode *)eng)->mem, &t);
  return t;
}

static double eng_last_step(void *eng)
{
  sk_sunreal h = 0;
  CVodeGetLastStep(((sk__cvode *)eng)->mem, &h);
  return h;
}

static sk__sun_engine engine_of(sk__cvode *cv)
{
  sk__sun_engine e = {cv,          cv->roots,       eng_step,         eng_roots,
                      eng_restart, eng_total_steps, eng_current_time, eng_last_step};
  return e;
}

static sk_status cvode_step(sk_stepper *s, double tout, double *tret)
{
  sk__cvode *cv = sk_stepper_get_impl(s);
  const sk__sun_engine e = engine_of(cv);
  double t = s->t;
  const sk_status rc = sk__sun_one_step(s, &e, tout, &t);
  *tret = t;
  return rc;
}

static sk_status cvode_advance(sk_stepper *s, double tout, double *tret)
{
  sk__cvode *cv = sk_stepper_get_impl(s);
  const sk__sun_engine e = engine_of(cv);
  return sk__sun_advance(s, &e, tout, tret);
}

static sk_status cvode_get_stats(sk_stepper *s, sk_stats *st)
{
  sk__cvode *cv = sk_stepper_get_impl(s);
  long v[14] = {0};
  CVodeGetNumSteps(cv->mem, &v[0]);
  CVodeGetNumErrTestFails(cv->mem, &v[1]);
  CVodeGetNumRhsEvals(cv->mem, &v[2]);
  CVodeGetNumNonlinSolvIters(cv->mem, &v[3]);
  CVodeGetNumNonlinSolvConvFails(cv->mem, &v[4]);
  if (cv->LS) {
    CVodeGetNumLinSolvSetups(cv->mem, &v[7]); /* CVODE's own, zeroed by CVodeReInit */
  }
  if (cv->LS && !cv->restarted) { /* the interface's (cvode_ls.c), zeroed by the next call */
    CVodeGetNumLinRhsEvals(cv->mem, &v[5]);
    CVodeGetNumJacEvals(cv->mem, &v[6]);
    CVodeGetNumLinIters(cv->mem, &v[8]);
    CVodeGetNumLinConvFails(cv->mem, &v[9]);
    CVodeGetNumPrecEvals(cv->mem, &v[10]);
    CVodeGetNumPrecSolves(cv->mem, &v[11]);
    if (!cv->direct && !strcmp(cv->prec, "bbd")) { /* CVBANDPRE's or CVBBDPRE's quotients */
      if (sk__model_get_distribution(cv->model)) {
        CVBBDPrecGetNumGfnEvals(cv->mem, &v[12]);
      } else {
        CVBandPrecGetNumRhsEvals(cv->mem, &v[12]);
      }
    }
  }
  st->steps = v[0];
  st->failed_steps = v[1];
  /* colored FD Jacobians of a model without values are difference quotients too */
  const int64_t fd_rhs = sk_model_get_fd_rhs_evals(cv->model) - cv->fd_rhs_base;
  /* and so are the sensitivities' (CVODES; zeroed by CVodeSensReInit like the others) and
     CVBANDPRE's (v[12]) */
  const int64_t sens_rhs = sk__cvode_sens_rhs_evals(cv);
  st->rhs_evals = v[2] + v[5] + v[12] + fd_rhs + sens_rhs;
  st->rhs_evals_dq = v[5] + v[12] + fd_rhs + sens_rhs;
  int64_t sens_iters, sens_fails; /* a staggered sensitivity corrector's */
  sk__cvode_sens_nonlinear(cv, &sens_iters, &sens_fails);
  st->newton_iters = v[3] + sens_iters;
  st->newton_fails = v[4] + sens_fails;
  /* bbd's preconditioner evaluations are difference-quotient Jacobians of its band */
  st->jac_evals = v[6] + cv->prec_jac_evals + (!strcmp(cv->prec, "bbd") ? v[10] : 0);
  st->lin_setups = v[7];
  st->factorizations = sk__cvode_linsol_factorizations(cv, v[7]);
  st->lin_iters = v[8];
  st->lin_conv_fails = v[9];
  /* CVODE counts only setups with fresh Jacobian data (jok false) as
   * preconditioner evaluations; every Krylov linear setup is one setup call */
  st->prec_setups = (cv->LS && !cv->direct && strcmp(cv->prec, "none")) ? v[7] : 0;
  st->prec_solves = v[11];
  st->amg_hierarchies = cv->amg_hierarchies;
  int q = 0;
  sk_sunreal h = 0;
  CVodeGetLastOrder(cv->mem, &q);
  CVodeGetLastStep(cv->mem, &h);
  st->last_order = q;
  st->last_h = h;
  sk__cvode_prec_report(cv, s->prec_report, sizeof s->prec_report);
  sk_stats now = *st;
  *st = cv->before; /* plus the runs before the last restart at an event */
  sk_stats_add(st, &now);
  return SK_OK;
}

const sk_stepper_type sk__stepper_cvode_bdf = {
    .name = "cvode-bdf",
    .description = "CVODE variable-order BDF (orders 1-5) with Newton and a linear solver",
    .order = 5,
    .flags = SK_STEPPER_IMPLICIT | SK_STEPPER_ADAPTIVE | SK_STEPPER_STIFF |
             SK_STEPPER_VARIABLE_ORDER | SK_STEPPER_MATRIX_FREE | SK_STEPPER_EVENTS |
             SK_STEPPER_CONSTRAINTS | SK_STEPPER_SENSITIVITY | SK_STEPPER_DISTRIBUTED,
    .create = create_bdf,
    .setup = cvode_setup,
    .step = cvode_step,
    .advance = cvode_advance,
    .get_stats = cvode_get_stats,
    .set_from_options = sk__cvode_set_from_options,
    .options = sk__cvode_options,
    .destroy = cvode_destroy,
    .reinit = cvode_reinit,
};

const sk_stepper_type sk__stepper_cvode_adams = {
    .name = "cvode-adams",
    .description =
        "CVODE variable-order Adams-Moulton (orders 1-12), fixed-point iteration by default",
    .order = 12,
    .flags = SK_STEPPER_ADAPTIVE | SK_STEPPER_VARIABLE_ORDER | SK_STEPPER_EVENTS |
             SK_STEPPER_CONSTRAINTS | SK_STEPPER_SENSITIVITY,
    .create = create_adams,
    .setup = cvode_setup,
    .step = cvode_step,
    .advance = cvode_advance,
    .get_stats = cvode_get_stats,
    .set_from_options = sk__cvode_set_from_options,
    .options = sk__cvode_options,
    .destroy = cvode_destroy,
    .reinit = cvode_reinit,
};

/* src/backends/ida.c: the IDA engine (ida-bdf) for DAE models F(t, y, y') = 0 (and ODE models as y' - f): KLU/UMFPACK/band/dense/Krylov, stepping past output times (normal mode, one step per call) */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <idas/idas.h>
#include <idas/idas_ls.h>

#include "backends/ida_impl.h"
#include "backends/ida_keys.h"
#include "steppers/stepper_impl.h"
#include "core/context_impl.h"
#include "core/model_impl.h"
#include "core/error.h"
#include "core/stop.h"
#include "linsol/linsol_choice.h"

#define SK__IDA(call, what)                                                 \
  do {                                                                      \
    int sk__f = (call);                                                     \
    if (sk__f < 0) {                                                        \
      const char *sk__name;                                                 \
      sk_status sk__st = sk__status_from_ida(sk__f, &sk__name);             \
      SK_ERROR(ctx, sk__st, "IDA: cannot %s: %s", what, ida->messages.msg); \
      sk__error_set_foreign(ctx, sk__f, sk__name);                          \
      return sk__st;                                                        \
    }                                                                       \
  } while (0)

/* IDAResFn: the checked residual; a non-finite value is recoverable twice
 * in a row (IDA cuts the step), then fatal. */
static int residual(sk_sunreal t, N_Vector y, N_Vector yp, N_Vector r, void *ud)
{
  sk__ida *ida = ud;
  /* with sensitivities the model reads IDAS' p[], which its difference quotients move */
  sk_status rc = ida->np > 0 ? sk__ida_sens_sync(ida) : SK_OK;
  if (rc == SK_OK && ida->ode) { /* an ODE model y' = f(t, y) as F = y' - f(t, y) */
    double *rr = N_VGetArrayPointer(r);
    const double *ypp = N_VGetArrayPointer(yp);
    rc = sk_model_eval_rhs(ida->model, t, N_VGetArrayPointer(y), rr);
    for (int64_t i = 0; rc == SK_OK && i < sk_model_get_n(ida->model); i++) {
      rr[i] = ypp[i] - rr[i];
    }
  } else if (rc == SK_OK) {
    rc = sk_model_eval_residual(ida->model, t, N_VGetArrayPointer(y), N_VGetArrayPointer(yp),
                                N_VGetArrayPointer(r));
  }
  if (ida->np > 0) {
    const sk_status back = sk__ida_sens_nominal(ida);
    rc = rc == SK_OK ? back : rc;
  }
  if (rc == SK_OK) {
    ida->nonfinite_streak = 0;
    return 0;
  }
  ida->callback_error = ida->ctx->err;
  ida->have_callback_error = 1;
  if (rc == SK_RECOVERABLE || (rc == SK_ERR_NONFINITE && ++ida->nonfinite_streak <= 2)) {
    return 1;
  }
  return -1;
}

/* IDALsJacFn: dF/dy + cj dF/dy' into the sparse, dense or band matrix. */
static int jacobian(sk_sunreal t, sk_sunreal cj, N_Vector y, N_Vector yp, N_Vector r, SUNMatrix A,
                    void *ud, N_Vector t1, N_Vector t2, N_Vector t3)
{
  (void)t2;
  (void)t3;
  sk__ida *ida = ud;
  sk_status rc;
  if (ida->ode) { /* f(t, y) = y' - F: the model's df/dy, as cj I - df/dy below */
    double *f = N_VGetArrayPointer(t1);
    N_VLinearSum(1.0, yp, -1.0, r, t1);
    rc = sk_model_eval_jac(ida->model, t, N_VGetArrayPointer(y), f, ida->jac.vals);
  } else {
    rc = sk_model_eval_dae_jac(ida->model, t, cj, N_VGetArrayPointer(y), N_VGetArrayPointer(yp),
                               N_VGetArrayPointer(r), ida->jac.vals);
  }
  if (rc != SK_OK) {
    ida->callback_error = ida->ctx->err;
    ida->have_callback_error = 1;
    return rc == SK_RECOVERABLE ? 1 : -1;
  }
  if (ida->ode) { /* whatever the matrix kind (the diagonal is stored in each) */
    sk__sun_jac_fill_shifted(&ida->jac, -1.0, cj, A);
  } else {
    sk__sun_jac_fill(&ida->jac, A);
  }
  return 0;
}

/* IDARootFn: the model's event functions. */
static int root_fn(sk_sunreal t, N_Vector y, N_Vector yp, sk_sunreal *g, void *ud)
{
  (void)yp;
  sk__ida *ida = ud;
  if (sk_model_eval_events(ida->model, t, N_VGetArrayPointer(y), g) != SK_OK) {
    ida->callback_error = ida->ctx->err;
    ida->have_callback_error = 1;
    return -1;
  }
  return 0;
}

static sk_status ida_create(sk_stepper *s)
{
  sk_context *ctx = sk_stepper_get_context(s);
  sk__ida *ida = sk__calloc(ctx, 1, sizeof *ida);
  SK_CHECK(ctx, ida != NULL, SK_ERR_NOMEM, "cannot allocate the IDA adapter");
  ida->s = s;
  ida->ctx = ctx;
  ida->model = sk_stepper_get_model(s);
  sk_stepper_set_impl(s, ida);
  return SK_OK;
}

static void release(sk__ida *ida)
{
  if (ida->mem) {
    IDAFree(&ida->mem);
  }
  if (ida->LS) {
    SUNLinSolFree(ida->LS);
    ida->LS = NULL;
  }
  if (ida->A) {
    SUNMatDestroy(ida->A);
    ida->A = NULL;
  }
  sk__sun_jac_free(ida->ctx, &ida->jac);
  sk__ida_sens_free(ida);
  N_Vector *vs[] = {&ida->y, &ida->yp, &ida->id, &ida->abstol};
  for (size_t k = 0; k < sizeof vs / sizeof vs[0]; k++) {
    if (*vs[k]) {
      N_VDestroy(*vs[k]);
      *vs[k] = NULL;
    }
  }
  if (ida->sunctx) {
    SUNContext_Free(&ida->sunctx);
  }
  sk__free(ida->ctx, ida->roots);
  ida->roots = NULL;
}

static void ida_destroy(sk_stepper *s)
{
  sk__ida *ida = sk_stepper_get_impl(s);
  if (!ida) {
    return;
  }
  release(ida);
  sk__free(ida->ctx, ida);
  sk_stepper_set_impl(s, NULL);
}

/* Linear solver: KLU/UMFPACK on the model's pattern, band with its
 * bandwidths, dense (IDA's difference quotients without a pattern, or
 * without values under linsol.dq_jacobian = sundials, as band), or a
 * matrix-free Krylov solver without preconditioner. "auto": as
 * sk__linsol_auto (klu with a pattern, else dense up to n = 2000, else
 * spgmr), its reason recorded. Errors:
 * SK_ERR_UNSUPPORTED naming what is supported, SK_ERR_TOO_LARGE,
 * SK_ERR_NOMEM, SK_ERR_SOLVER. */
static sk_status attach_linear_solver(sk__ida *ida)
{
  sk_context *ctx = ida->ctx;
  const int64_t n = sk_model_get_n(ida->model);
  SK_CALL_STOP(ctx, sk__sun_jac_init(ctx, ida->model, &ida->jac));
  const char *ls = sk_stepper_get_linear_solver(ida->s);
  sk__linsol_choice auto_choice;
  if (!strcmp(ls, "auto")) {
    SK_CALL(ctx, sk__linsol_auto(ctx, n, ida->jac.colptr, ida->jac.rowind, "ida-bdf",
                                 sk_model_has_preconditioner(ida->model), 0, &auto_choice));
    ls = auto_choice.linsol;
    sk__stepper_set_linsol_reason(ida->s, auto_choice.reason);
  }
  snprintf(ida->linsol, sizeof ida->linsol, "%s", ls);
  const int krylov = sk__linsol_is(ctx, ls, SK__LS_KRYLOV);
  int maxl;
  double eps_lin;
  sk_stepper_get_krylov(ida->s, &maxl, &eps_lin);
  sk__krylov_resolve(1, &maxl, &eps_lin);
  char names[256]; /* ("auto" is resolved above) */
  SK_CHECK(ctx, sk__linsol_accepts(ctx, ls, SK__ENGINE_IDA, names, sizeof names),
           SK_ERR_UNSUPPORTED, "ida-bdf supports linsol.type = auto, %s; got %s%s", names, ls,
           sk__linsol_is(NULL, ls, SK__LS_NONE)
               ? " (IDA has no fixed-point iteration: its Newton iteration needs "
                 "a linear solver)"
               : "");
  const char *prec = sk_stepper_get_preconditioner(ida->s);
  SK_CHECK(ctx, !krylov || !strcmp(prec, "auto") || !strcmp(prec, "none"), SK_ERR_UNSUPPORTED,
           "ida-bdf supports linsol.preconditioner = auto, none with linsol.type=%s (its Krylov "
           "solvers run unpreconditioned); got %s: use cvode-bdf for a preconditioned Krylov "
           "solve, or a direct solver (klu, umfpack, band, dense)",
           ls, prec);
  sk__sun_note_unused_prec(ctx, ls, prec); /* said, not ignored in silence */
  if (sk__linsol_is(ctx, ls, SK__LS_SPARSE)) {
    SK_CHECK(ctx, ida->jac.colptr != NULL, SK_ERR_UNSUPPORTED,
             "ida-bdf: linsol.type=%s needs a model with a sparse Jacobian pattern, and model "
             "'%s' has none; supported without a pattern: dense or a Krylov solver (spgmr, "
             "spfgmr, spbcgs, sptfqmr, pcg)",
             ls, sk_model_get_name(ida->model));
    SK_CALL(ctx, sk__sun_jac_sparse_matrix(ctx, &ida->jac, ida->sunctx, &ida->A));
    const char *ord = sk_stepper_get_ordering(ida->s);
    SK_CALL(ctx, sk__sun_sparse_direct(ctx, ls, ord, ida->model, ida->y, ida->A, ida->sunctx,
                                       &ida->LS));
  } else if (!krylov) {
    SK_CALL(ctx, sk__sun_matrix_direct(ctx, "ida-bdf", ls, &ida->jac, ida->y, ida->sunctx,
                                       &ida->A, &ida->LS));
  } else {
    SK_CALL(ctx, sk__sun_krylov(ctx, ls, ida->model, ida->y, SUN_PREC_NONE, maxl, ida->sunctx,
                                &ida->LS));
  }
  if (IDASetLinearSolver(ida->mem, ida->LS, ida->A) != IDALS_SUCCESS) {
    return SK_ERROR(ctx, SK_ERR_SOLVER, "cannot attach the %s solver to IDA", ls);
  }
  /* dense and band: a model without Jacobian values gets IDA's own difference quotients
     when linsol.dq_jacobian = sundials */
  const int has_values = ida->ode ? sk_model_has_jacobian_values(ida->model)
                                  : sk__model_has_analytic_dae_jac(ida->model);
  const int package_dq =
      sk_stepper_get_dq_jacobian(ida->s) == SK_DQ_JACOBIAN_SUNDIALS &&
      ((sk__linsol_is(NULL, ls, SK__LS_DENSE) || sk__linsol_is(NULL, ls, SK__LS_BAND))) &&
      !has_values;
  const int use_model_jac = ida->A && ida->jac.colptr && !package_dq;
  ida->model_jac = use_model_jac && has_values;
  if (use_model_jac && IDASetJacFn(ida->mem, jacobian) != IDALS_SUCCESS) {
    return SK_ERROR(ctx, SK_ERR_SOLVER, "cannot set the IDA Jacobian function");
  }
  if (krylov && IDASetEpsLin(ida->mem, eps_lin) != IDALS_SUCCESS) {
    return SK_ERROR(ctx, SK_ERR_SOLVER, "cannot set the IDA linear tolerance factor");
  }
  return SK_OK;
}

static sk_status ida_setup(sk_stepper *s)
{
  sk__ida *ida = sk_stepper_get_impl(s);
  sk_context *ctx = ida->ctx;
  const int64_t n = sk_model_get_n(ida->model);
  SK_CALL(ctx, sk__sun_check_adaptive(s));
  release(ida);
  memset(&ida->before, 0, sizeof ida->before);
  ida->restarted = 0;
  SK_CHECK(ctx, SK_SUNCONTEXT_CREATE(&ida->sunctx) == 0 && ida->sunctx != NULL, SK_ERR_NOMEM,
           "cannot create the SUNDIALS context");
  ida->y = sk__sun_state_vector(ida->model, sk_stepper_state_buffer(s), ida->sunctx, 0);
  SK_CHECK(ctx, ida->y != NULL, SK_ERR_NOMEM, "cannot create the state vector");
  double *ypbuf = sk__stepper_derivative_buffer(s);
  SK_CHECK(ctx, ypbuf != NULL, SK_ERR_NOMEM, "cannot create the derivative vector");
  ida->yp = sk__sun_state_vector(ida->model, ypbuf, ida->sunctx, 0);
  SK_CHECK(ctx, ida->yp != NULL, SK_ERR_NOMEM, "cannot create the derivative vector");
  const double t0 = sk_stepper_get_t0(s);
  ida->ode = sk_model_get_kind(ida->model) == SK_MODEL_ODE;
  if (s->have_yp0 && s->have_y0) {
    /* a restart from a saved (y, y'): consistent initialization still checks it */
  } else if (ida->ode) { /* consistent as given: y'0 = f(t0, y0) */
    SK_CALL(ctx, sk_model_eval_rhs(ida->model, t0, N_VGetArrayPointer(ida->y),
                                   N_VGetArrayPointer(ida->yp)));
  } else {
    SK_CALL(ctx, sk_model_eval_dae_initial(ida->model, t0, N_VGetArrayPointer(ida->y),
                                           N_VGetArrayPointer(ida->yp)));
  }
  ida->mem = IDACreate(ida->sunctx);
  SK_CHECK(ctx, ida->mem != NULL, SK_ERR_NOMEM, "cannot create IDA");
  SK_CHECK(ctx, sk__ida_capture_messages(ida->mem, ida->sunctx, &ida->messages) == 0,
           SK_ERR_SOLVER, "cannot install the IDA message handler");
  SK__IDA(IDAInit(ida->mem, residual, t0, ida->y, ida->yp), "initialize");
  SK__IDA(IDASetUserData(ida->mem, ida), "set user data");
  const double *atolv = sk_stepper_get_atol_vector(s);
  if (atolv) {
    ida->abstol = N_VClone(ida->y);
    SK_CHECK(ctx, ida->abstol != NULL, SK_ERR_NOMEM, "cannot allocate the tolerance vector");
    memcpy(N_VGetArrayPointer(ida->abstol), atolv, (size_t)n * sizeof *atolv);
    SK__IDA(IDASVtolerances(ida->mem, sk_stepper_get_rtol(s), ida->abstol), "set tolerances");
  } else {
    SK__IDA(IDASStolerances(ida->mem, sk_stepper_get_rtol(s), sk_stepper_get_atol(s)),
            "set tolerances");
  }
  N_Vector con = NULL; /* the package keeps its own copy */
  SK_CALL(ctx, sk__sundials_constraints(ctx, ida->model, ida->y, &con));
  if (con) {
    const int cf = IDASetConstraints(ida->mem, con);
    N_VDestroy(con);
    SK__IDA(cf, "set the constraints");
  }
  /* the ids (all differential when the model gives none) also tell IDACalcIC what to compute */
  const int *id = sk_model_get_differential(ida->model);
  ida->id = N_VClone(ida->y);
  SK_CHECK(ctx, ida->id != NULL, SK_ERR_NOMEM, "cannot allocate the differential ids");
  for (int64_t i = 0; i < n; i++) {
    N_VGetArrayPointer(ida->id)[i] = id ? id[i] : 1.0;
  }
  SK__IDA(IDASetId(ida->mem, ida->id), "set the differential/algebraic ids");
  if (sk_stepper_get_suppress_alg(s)) { /* solver.suppress_alg or the model's consistent mark */
    SK__IDA(IDASetSuppressAlg(ida->mem, SUNTRUE), "leave the algebraic variables out of the "
                                                  "error test");
  }
  /* at most one internal step per IDASolve call, also in IDA_NORMAL mode (IDA_TOO_MUCH_WORK
     after each step short of tout): the stepping loop enforces the budget (see cvode.c) */
  SK__IDA(IDASetMaxNumSteps(ida->mem, 1), "set the step limit");
  if (sk_stepper_get_max_order(s) > 0) {
    SK__IDA(IDASetMaxOrd(ida->mem, sk_stepper_get_max_order(s)), "set the maximum order");
  }
  double h0, hmin, hmax;
  sk_stepper_get_step_limits(s, &h0, &hmin, &hmax);
  if (h0 > 0) {
    SK__IDA(IDASetInitStep(ida->mem, h0), "set the initial step");
  }
  if (hmax > 0) {
    SK__IDA(IDASetMaxStep(ida->mem, hmax), "set the maximum step");
  }
  SK_CALL_STOP(ctx, attach_linear_solver(ida));
  if (ida->model_jac) { /* the model's own values drive the Newton iteration: test them */
    SK_CALL_STOP(ctx, sk__stepper_jacobian_selftest(s));
  }
  SK_CALL(ctx, sk__ida_sens_setup(ida));
  const int nev = sk_model_get_nevents(ida->model);
  if (nev > 0) {
    ida->roots = sk__calloc(ctx, (size_t)nev, sizeof *ida->roots);
    SK_CHECK(ctx, ida->roots != NULL, SK_ERR_NOMEM, "cannot allocate the event flags");
    SK__IDA(IDARootInit(ida->mem, nev, root_fn), "set the event functions");
    const int *dir = sk_model_get_event_directions(ida->model);
    if (dir) { /* the package copies them: the flags array serves as the copy it reads */
      memcpy(ida->roots, dir, (size_t)nev * sizeof *dir);
      SK__IDA(IDASetRootDirection(ida->mem, ida->roots), "set the event directions");
    }
  }
  ida->fd_rhs_base = sk_model_get_fd_rhs_evals(ida->model);
  ida->ic_done = 0;
  snprintf(s->linsol, sizeof s->linsol, "%s", ida->linsol);
  snprintf(s->prec, sizeof s->prec, "none");
  snprintf(s->ordering, sizeof s->ordering, "%s",
           sk__sun_ordering_used(ctx, ida->linsol, sk_stepper_get_ordering(s)));
  return SK_OK;
}

/* Turn a failed IDASolve() into the error record. */
static sk_status ida_failure(sk__ida *ida, int flag)
{
  const char *name;
  sk_status st = sk__status_from_ida(flag, &name);
  sk_sunreal t = 0, h = 0;
  IDAGetCurrentTime(ida->mem, &t);
  IDAGetCurrentStep(ida->mem, &h);
  char local[400] = "";
  if (flag == IDA_LSETUP_FAIL || flag == IDA_LSOLVE_FAIL ||
      (flag == IDA_CONV_FAIL && ida->LS && SUNLinSolLastFlag(ida->LS) != SUNLS_SUCCESS)) {
    /* a recoverable linear failure (a singular matrix) repeated is a convergence failure */
    sk__sun_linear_failure(ida->LS, ida->linsol, ida->model, local, sizeof local);
  }
  char cause[SK_ERROR_MSG_LEN / 2] = "";
  if (ida->have_callback_error) {
    snprintf(cause, sizeof cause, "; cause: %.480s", ida->callback_error.message);
    st = ida->callback_error.code == SK_ERR_NONFINITE ? SK_ERR_NONFINITE : st;
    st = ida->callback_error.code == SK_ERR_NOMEM ? SK_ERR_NOMEM : st; /* out of memory */
  }
  const char *hint =
      flag == IDA_CONV_FAIL || flag == IDA_ERR_FAIL
          ? "; hint: check the Jacobian, the index (an index-2 or higher DAE fails "
            "so), and the model for discontinuities"
          : "";
  SK_ERROR(ida->ctx, st, "IDA failed at t=%.6e (h=%.3e): %s%s%s%s", t, h, sk_status_str(st),
           local, cause, hint);
  sk__error_set_foreign(ida->ctx, flag, name);
  return st;
}

static sk_status ida_get_stats(sk_stepper *s, sk_stats *st);

/* Restart IDA at t from the state buffer, keeping the counters (IDAReInit
 * zeroes them): y' = f for an ODE model unless keep_yp (y' given), new
 * consistent values for a DAE before the next step (from the y' there as
 * the guess). After an event, or (fresh) at sk_stepper_reinit, where the
 * linear solver also factors afresh, as in a newly set-up engine. */
static sk_status restart(sk_stepper *s, sk__ida *ida, double t, int keep_yp, int fresh,
                         const char *what)
{
  sk_context *ctx = ida->ctx;
  sk_stats now;
  memset(&now, 0, sizeof now); /* also the counters this engine does not keep */
  ida_get_stats(s, &now);
  if (ida->ode && !keep_yp) {
    SK_CALL(ctx, sk_model_eval_rhs(ida->model, t, N_VGetArrayPointer(ida->y),
                                   N_VGetArrayPointer(ida->yp)));
  }
  if (fresh) {
    SK_CALL(ctx, sk__sun_linsol_fresh(ctx, ida->linsol, ida->LS, ida->A));
    ida->nonfinite_streak = 0;
  }
  SK_CALL(ctx, sk__ida_sens_restart(ida, t, fresh));
  SK__IDA(IDAReInit(ida->mem, t, ida->y, ida->yp), what);
  SK_CALL(ctx, sk__ida_sens_reinit(ida));
  ida->ic_done = ida->ode; /* a DAE: IDACalcIC before the next step */
  ida->before = now;
  ida->restarted = 1;
  ida->fd_rhs_base = sk_model_get_fd_rhs_evals(ida->model);
  return SK_OK;
}

/* The reinit op: sk_stepper_reinit has set the time and the state buffer;
 * yp (y'(t), or NULL) as its contract says. */
static sk_status ida_reinit(sk_stepper *s, const double *yp)
{
  sk__ida *ida = sk_stepper_get_impl(s);
  sk_context *ctx = ida->ctx;
  SK_CHECK(ctx, yp || ida->ode || !sk_model_get_dae_consistent(ida->model, NULL), SK_ERR_ARG,
           "sk_stepper_reinit: ida-bdf needs y' (yp) for model '%s': it is marked consistent "
           "(sk_model_set_dae_consistent), so no consistent initialization computes y' at the "
           "restart",
           sk_model_get_name(ida->model));
  if (yp) {
    memcpy(N_VGetArrayPointer(ida->yp), yp, (size_t)sk_model_get_n(ida->model) * sizeof *yp);
  }
  return restart(s, ida, sk_stepper_get_t0(s), yp != NULL, 1, "restart (reinit)");
}

/* The consistent initial values at t0 before the first step (sk_stepper_initialize). */
static sk_status ida_initialize(sk_stepper *s, double tout1)
{
  sk__ida *ida = sk_stepper_get_impl(s);
  if (!ida->ic_done && !ida->ode) {
    SK_CALL(ida->ctx, sk__ida_consistent_init(ida, sk_stepper_get_t0(s), tout1));
  }
  ida->ic_done = 1;
  return SK_OK;
}

/* ---- the engine as the shared stepping loop sees it ---------------------- */

static sk_status eng_interpolate(sk__ida *ida, double t);

/* One IDASolve call; consistent initial values first (at t0, and after an event). */
static sk_status eng_step(void *eng, double tout, int normal, int use_stop, double stop,
                          double *t, sk__sun_return *what)
{
  sk__ida *ida = eng;
  sk_context *ctx = ida->ctx;
  if (!ida->ic_done) {
    if (!ida->ode) {
      SK_CALL(ctx, sk__ida_consistent_init(ida, *t, tout));
    }
    ida->ic_done = 1;
  }
  if (use_stop) {
    SK__IDA(IDASetStopTime(ida->mem, stop), "set the stop time");
  }
  ida->have_callback_error = 0;
  sk_sunreal tret = *t;
  sk__stop_region_enter("an IDA call (its steps' Newton iterations and linear-solver setups)");
  const int flag =
      IDASolve(ida->mem, tout, &tret, ida->y, ida->yp, normal ? IDA_NORMAL : IDA_ONE_STEP);
  sk__stop_region_leave();
  ida->restarted = 0;
  if (flag == IDA_TOO_MUCH_WORK && normal) { /* mxstep is 1 (setup): one step taken; not a
                                                failure. (y, y') at tn as IDA_ONE_STEP gives them */
    ida->messages.msg[0] = '\0';
    ida->messages.last_code = 0;
    *t = tret;
    *what = SK__SUN_STEPPED;
    return eng_interpolate(ida, tret);
  }
  if (flag < 0) {
    IDAGetCurrentTime(ida->mem, &tret);
    *t = tret;
    return ida_failure(ida, flag);
  }
  *t = tret;
  *what = flag == IDA_ROOT_RETURN  ? SK__SUN_ROOT
          : normal && tret >= tout ? SK__SUN_REACHED
                                   : SK__SUN_STEPPED;
  return SK_OK;
}

static sk_status eng_roots(void *eng, int *fired)
{
  sk__ida *ida = eng;
  sk_context *ctx = ida->ctx;
  SK__IDA(IDAGetRootInfo(ida->mem, fired), "read the event flags");
  return SK_OK;
}

static sk_status eng_restart(void *eng, double t)
{
  return restart(((sk__ida *)eng)->s, eng, t, 0, 0, "restart after an event");
}

/* (y, y') at t within the last step, into the stepper's buffers. */
static sk_status eng_interpolate(sk__ida *ida, double t)
{
  sk_context *ctx = ida->ctx;
  SK__IDA(IDAGetDky(ida->mem, t, 0, ida->y), "interpolate the state");
  SK__IDA(IDAGetDky(ida->mem, t, 1, ida->yp), "interpolate y'");
  return SK_OK;
}

static int64_t eng_total_steps(void *eng)
{
  sk__ida *ida = eng;
  long nst = 0;
  IDAGetNumSteps(ida->mem, &nst);
  return (int64_t)nst + ida->before.steps;
}

/* Before the consistent initial values IDA has not started: the stepper's time. */
static double eng_current_time(void *eng)
{
  sk__ida *ida = eng;
  sk_sunreal t = ida->s->t;
  if (ida->ic_done) {
    IDAGetCurrentTime(ida->mem, &t);
  }
  return t;
}

static double eng_last_step(void *eng)
{
  sk_sunreal h = 0;
  IDAGetLastStep(((sk__ida *)eng)->mem, &h);
  return h;
}

static sk__sun_engine engine_of(sk__ida *ida)
{
  sk__sun_engine e = {ida,         ida->roots,      eng_step,         eng_roots,
                      eng_restart, eng_total_steps, eng_current_time, eng_last_step};
  return e;
}

static sk_status ida_step(sk_stepper *s, double tout, double *tret)
{
  sk__ida *ida = sk_stepper_get_impl(s);
  const sk__sun_engine e = engine_of(ida);
  double t = s->t;
  const sk_status rc = sk__sun_one_step(s, &e, tout, &t);
  *tret = t;
  return rc;
}

static sk_status ida_advance(sk_stepper *s, double tout, double *tret)
{
  sk__ida *ida = sk_stepper_get_impl(s);
  const sk__sun_engine e = engine_of(ida);
  return sk__sun_advance(s, &e, tout, tret);
}

static sk_status ida_get_stats(sk_stepper *s, sk_stats *st)
{
  sk__ida *ida = sk_stepper_get_impl(s);
  long v[10] = {0};
  IDAGetNumSteps(ida->mem, &v[0]);
  IDAGetNumErrTestFails(ida->mem, &v[1]);
  IDAGetNumResEvals(ida->mem, &v[2]);
  IDAGetNumNonlinSolvIters(ida->mem, &v[3]);
  IDAGetNumNonlinSolvConvFails(ida->mem, &v[4]);
  if (ida->LS) {
    IDAGetNumLinSolvSetups(ida->mem, &v[7]); /* IDA's own, zeroed by IDAReInit */
  }
  if (ida->LS && !ida->restarted) { /* the interface's (ida_ls.c), zeroed by the next call */
    IDAGetNumLinResEvals(ida->mem, &v[5]);
    IDAGetNumJacEvals(ida->mem, &v[6]);
    IDAGetNumLinIters(ida->mem, &v[8]);
    IDAGetNumLinConvFails(ida->mem, &v[9]);
  }
  const int64_t fd = sk_model_get_fd_rhs_evals(ida->model) - ida->fd_rhs_base;
  st->steps = v[0];
  st->failed_steps = v[1];
  /* and so are the sensitivities' (IDAS; zeroed by IDASensReInit like the others) */
  const int64_t sens_res = sk__ida_sens_res_evals(ida);
  st->rhs_evals = v[2] + v[5] + fd + sens_res;
  st->rhs_evals_dq = v[5] + fd + sens_res;
  int64_t sens_iters, sens_fails;
  sk__ida_sens_nonlinear(ida, &sens_iters, &sens_fails);
  st->newton_iters = v[3] + sens_iters;
  st->newton_fails = v[4] + sens_fails;
  st->jac_evals = v[6];
  st->lin_setups = v[7];
  st->factorizations = ida->A ? v[7] : 0;
  st->lin_iters = v[8];
  st->lin_conv_fails = v[9];
  int q = 0;
  sk_sunreal h = 0;
  IDAGetLastOrder(ida->mem, &q);
  IDAGetLastStep(ida->mem, &h);
  st->last_order = q;
  st->last_h = h;
  sk_stats now = *st;
  *st = ida->before; /* plus the runs before the last restart at an event */
  sk_stats_add(st, &now);
  return SK_OK;
}

const sk_stepper_type sk__stepper_ida_bdf = {
    .name = "ida-bdf",
    .description = "IDA variable-order BDF (orders 1-5) for DAEs F(t, y, y') = 0 of index 1, "
                   "with consistent initialization (ODE models as F = y' - f)",
    .order = 5,
    .flags = SK_STEPPER_IMPLICIT | SK_STEPPER_ADAPTIVE | SK_STEPPER_STIFF |
             SK_STEPPER_VARIABLE_ORDER | SK_STEPPER_HANDLES_DAE | SK_STEPPER_MATRIX_FREE |
             SK_STEPPER_EVENTS | SK_STEPPER_CONSTRAINTS | SK_STEPPER_SENSITIVITY,
    .create = ida_create,
    .setup = ida_setup,
    .step = ida_step,
    .advance = ida_advance,
    .get_stats = ida_get_stats,
    .set_from_options = sk__ida_set_from_options,
    .options = sk__ida_options,
    .destroy = ida_destroy,
    .reinit = ida_reinit,
    .initialize = ida_initialize,
};

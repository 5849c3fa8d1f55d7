/* src/backends/kinsol.c: steady states f(t_s, u) = 0 with KINSOL (Newton, line search, KLU/UMFPACK/dense/SPGMR), the residual verified independently */
/*
 * MATHEMATICS
 *
 * A steady state of u' = f(t, u) at the frozen time t_s is a root of
 * F(u) = f(t_s, u). KINSOL's Newton iteration solves J(u_k) d_k = -F(u_k)
 * with J = dF/du = df/du (the model's Jacobian: analytic values or colored
 * finite differences in the model's CSC pattern), then takes
 * u_{k+1} = u_k + lambda d_k, lambda = 1 (strategy none) or chosen by a
 * backtracking line search on ||D_F F||_2^2 / 2 (strategy linesearch). It
 * stops when ||D_F F(u)||_inf <= fnormtol or when the scaled step
 * max_i |d_i| / (|u_i| + 1/D_u,i) falls below scsteptol; D_u = u_scale,
 * D_F = f_scale.
 *
 * The second stop says nothing about F: near a singular Jacobian (a
 * conservation law makes sum_i w_i f_i = 0 identically, so J has the left
 * null vector w and the steady states form a family), or where F has no
 * root, the steps shrink while ||F|| stays large. So the answer is taken
 * only after F is evaluated once more at the returned u and
 * ||D_F F(u)||_inf <= fnormtol holds.
 *
 * Matrix-free Newton-Krylov (spgmr): J v by KINSOL's difference quotients,
 * right preconditioners M ~ J: diag(J) (jacobi), or from the model's own
 * P(gamma) ~ I - gamma J (built for implicit time steps):
 * J = -(I - gamma J)/gamma + I/gamma, so M^-1 = -gamma P(gamma)^-1
 * approximates J^-1 up to the shift 1/gamma.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <kinsol/kinsol.h>
#include <kinsol/kinsol_ls.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_spgmr.h>
#include <sunmatrix/sunmatrix_dense.h>

#include "backends/sundials_backend.h"
#include "core/context_impl.h"
#include "core/error.h"
#include "core/stop.h"
#include "core/jacobian_selftest.h"
#include "core/model_impl.h"
#include "linsol/linsol_choice.h"
#include "linsol/linsol_keys.h"
#include "stiffkit/steady.h"

/* "auto" ordering: nested dissection from this n (as the CVODE adapter) */
#define SK__STEADY_ND_MIN 1000

typedef struct {
  sk_context *ctx;
  sk_model *model;
  const sk_steady_settings *set;
  int64_t n;
  double t;
  SUNContext sunctx;
  void *mem;
  N_Vector u, uscale, fscale, work;
  SUNMatrix A;
  SUNLinearSolver LS;
  sk__sun_jac jac;
  N_Vector pinv; /* jacobi: 1 / diag(J) */
  double *zero;  /* DAE models: y' = 0, length n (NULL for ODE models) */
  char linsol[16], prec[16], ordering[16];
  int64_t sys_evals;      /* calls of the system function (KINSOL's and its J v / DQ calls) */
  int64_t prec_jac_evals; /* Jacobians evaluated by the jacobi preconditioner */
  int64_t fd_base;        /* the model's FD-Jacobian RHS count at the start */
  int64_t pattern_evals;  /* f calls of the pattern detection (find_pattern) */
  sk__sundials_messages messages;
  sk_error callback_error;
  int have_callback_error;
  int nonfinite_streak;
} sk__kin;

static double now_seconds(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- callbacks ------------------------------------------------------------ */

/* Map a checked model evaluation to SUNDIALS' three-way return. A
 * non-finite value is recoverable twice in a row (KINSOL may shorten the
 * step), then fatal, so that a persistent NaN ends the solve with the
 * component named. */
static int three_way(sk__kin *k, sk_status rc)
{
  if (rc == SK_OK) {
    k->nonfinite_streak = 0;
    return 0;
  }
  k->callback_error = *sk_context_get_error(k->ctx);
  k->have_callback_error = 1;
  if (rc == SK_RECOVERABLE || (rc == SK_ERR_NONFINITE && ++k->nonfinite_streak <= 2)) {
    return 1;
  }
  return -1;
}

sk_status sk_steady_eval(sk_model *model, double t, const double *u, double *f)
{
  if (sk_model_get_kind(model) != SK_MODEL_DAE) {
    return sk_model_eval_rhs(model, t, u, f);
  }
  sk_context *ctx = sk_model_get_context(model);
  const int64_t n = sk_model_get_n(model);
  double *zero = sk__calloc(ctx, (size_t)n, sizeof *zero);
  SK_CHECK(ctx, zero != NULL, SK_ERR_NOMEM, "cannot allocate y' = 0");
  const sk_status st = sk_model_eval_residual(model, t, u, zero, f);
  sk__free(ctx, zero);
  return st;
}

/* The steady system at u (sk_steady_eval without its allocation). */
static sk_status steady_f(sk__kin *k, const double *u, double *f)
{
  return k->zero ? sk_model_eval_residual(k->model, k->t, u, k->zero, f)
                 : sk_model_eval_rhs(k->model, k->t, u, f);
}

/* KINSysFn: the steady system. */
static int sys_fn(N_Vector u, N_Vector f, void *ud)
{
  sk__kin *k = ud;
  k->sys_evals++;
  return three_way(k, steady_f(k, N_VGetArrayPointer(u), N_VGetArrayPointer(f)));
}

/* Evaluate its Jacobian at u into k->jac.vals (model order): df/du, or dF/dy at y' = 0. */
static int eval_jac(sk__kin *k, N_Vector u, N_Vector fu)
{
  const double *fp = fu ? N_VGetArrayPointer(fu) : NULL;
  return three_way(
      k, k->zero ? sk_model_eval_dae_jac(k->model, k->t, 0.0, N_VGetArrayPointer(u), k->zero, fp,
                                         k->jac.vals)
                 : sk_model_eval_jac(k->model, k->t, N_VGetArrayPointer(u), fp, k->jac.vals));
}

/* KINLsJacFn: the model's Jacobian into KINSOL's sparse or dense matrix. */
static int jac_fn(N_Vector u, N_Vector fu, SUNMatrix J, void *ud, N_Vector t1, N_Vector t2)
{
  (void)t1;
  (void)t2;
  sk__kin *k = ud;
  const int rc = eval_jac(k, u, fu);
  if (rc == 0) {
    sk__sun_jac_fill(&k->jac, J);
  }
  return rc;
}

/* Jacobi: M = diag(J), a zero diagonal entry taken as 1. */
static int prec_setup_jacobi(N_Vector u, N_Vector us, N_Vector fu, N_Vector fs, void *ud)
{
  (void)us;
  (void)fs;
  sk__kin *k = ud;
  const int rc = eval_jac(k, u, fu);
  if (rc != 0) {
    return rc;
  }
  k->prec_jac_evals++;
  sk_sunreal *pinv = N_VGetArrayPointer(k->pinv);
  sk__sun_jac_diagonal(&k->jac, pinv);
  for (int64_t j = 0; j < k->n; j++) {
    pinv[j] = pinv[j] != 0.0 ? 1.0 / pinv[j] : 1.0;
  }
  return 0;
}

static int prec_solve_jacobi(N_Vector u, N_Vector us, N_Vector fu, N_Vector fs, N_Vector v,
                             void *ud)
{
  (void)u;
  (void)us;
  (void)fu;
  (void)fs;
  sk__kin *k = ud;
  N_VProd(v, k->pinv, v);
  return 0;
}

/* The model's P(gamma) ~ I - gamma J, used as M^-1 = -gamma P^-1 ~ J^-1. */
static int prec_setup_model(N_Vector u, N_Vector us, N_Vector fu, N_Vector fs, void *ud)
{
  (void)us;
  (void)fu;
  (void)fs;
  sk__kin *k = ud;
  return three_way(
      k, sk_model_eval_prec_setup(k->model, k->t, N_VGetArrayPointer(u), k->set->prec_gamma, 1));
}

static int prec_solve_model(N_Vector u, N_Vector us, N_Vector fu, N_Vector fs, N_Vector v,
                            void *ud)
{
  (void)us;
  (void)fu;
  (void)fs;
  sk__kin *k = ud;
  N_VScale(1.0, v, k->work);
  const int rc =
      three_way(k, sk_model_eval_prec_solve(k->model, k->t, N_VGetArrayPointer(u),
                                            N_VGetArrayPointer(k->work), N_VGetArrayPointer(v),
                                            k->set->prec_gamma));
  if (rc == 0) {
    N_VScale(-k->set->prec_gamma, v, v);
  }
  return rc;
}

/* ---- settings -------------------------------------------------------------- */

static int one_of(const char *v, const char *const *names)
{
  for (; *names; names++) {
    if (!strcmp(v, *names)) {
      return 1;
    }
  }
  return 0;
}

static sk_status check_names(sk_context *ctx, const sk_steady_settings *s)
{
  static const char *const strategies[] = {"linesearch", "none", NULL};
  SK_CHECK(ctx, one_of(s->strategy, strategies), SK_ERR_ARG,
           "steady.strategy '%s': must be linesearch or none", s->strategy);
  char names[256];
  SK_CHECK(ctx, sk__linsol_accepts(ctx, s->linsol, SK__ENGINE_KINSOL, names, sizeof names),
           SK_ERR_UNSUPPORTED, "linsol.type = %s: the steady solve (KINSOL) supports auto, %s",
           s->linsol, names);
  SK_CHECK(ctx, sk__prec_accepts(ctx, s->prec, SK__ENGINE_KINSOL, names, sizeof names),
           SK_ERR_UNSUPPORTED,
           "linsol.preconditioner = %s: the steady solve (KINSOL) supports auto, %s", s->prec,
           names);
  sk__ordering_names(names, sizeof names);
  SK_CHECK(ctx, !strcmp(s->ordering, "auto") || sk__ordering_known(s->ordering), SK_ERR_ARG,
           "linsol.ordering '%s': must be auto, %s", s->ordering, names);
  return SK_OK;
}

static sk_status check_scale_vector(sk_context *ctx, const double *v, int64_t n, const char *what)
{
  for (int64_t i = 0; v && i < n; i++) {
    SK_CHECK(ctx, isfinite(v[i]) && v[i] > 0.0, SK_ERR_ARG,
             "%s[%lld] = %g: scales must be finite and > 0", what, (long long)i, v[i]);
  }
  return SK_OK;
}

static sk_status check_settings(sk_context *ctx, const sk_steady_settings *s, int64_t n)
{
  SK_CALL(ctx, check_names(ctx, s));
  SK_CHECK(ctx, isfinite(s->t), SK_ERR_ARG, "steady.t = %g: must be finite", s->t);
  SK_CHECK(ctx, isfinite(s->fnormtol) && s->fnormtol > 0, SK_ERR_ARG,
           "steady.fnormtol = %g: must be finite and > 0", s->fnormtol);
  SK_CHECK(ctx, isfinite(s->scsteptol) && s->scsteptol > 0, SK_ERR_ARG,
           "steady.scsteptol = %g: must be finite and > 0", s->scsteptol);
  SK_CHECK(ctx, isfinite(s->u_scale) && s->u_scale > 0 && isfinite(s->f_scale) && s->f_scale > 0,
           SK_ERR_ARG, "steady.u_scale = %g, steady.f_scale = %g: must be finite and > 0",
           s->u_scale, s->f_scale);
  SK_CHECK(ctx, s->max_iters >= 1 && s->max_setup_calls >= 1, SK_ERR_ARG,
           "steady.max_iters (%lld) and steady.max_setup_calls (%lld) must be >= 1",
           (long long)s->max_iters, (long long)s->max_setup_calls);
  SK_CHECK(ctx, s->maxl >= 1 && s->max_restarts >= 0, SK_ERR_ARG,
           "linsol.maxl (%d) must be >= 1 and steady.max_restarts (%d) >= 0", s->maxl,
           s->max_restarts);
  SK_CHECK(ctx, isfinite(s->prec_gamma) && s->prec_gamma > 0, SK_ERR_ARG,
           "steady.prec_gamma = %g: must be finite and > 0", s->prec_gamma);
  SK_CHECK(ctx, isfinite(s->max_step) && s->max_step >= 0, SK_ERR_ARG,
           "steady.max_step = %g: must be finite and >= 0 (0 = automatic)", s->max_step);
  SK_CALL(ctx, check_scale_vector(ctx, s->u_scale_v, n, "u_scale_v"));
  SK_CALL(ctx, check_scale_vector(ctx, s->f_scale_v, n, "f_scale_v"));
  return SK_OK;
}

/* Resolve the "auto" choices and check them against the model. */
static sk_status resolve(sk__kin *k)
{
  sk_context *ctx = k->ctx;
  const sk_steady_settings *s = k->set;
  const int has_jac = sk_model_has_jacobian(k->model);
  const char *name = sk_model_get_name(k->model);
  if (strcmp(s->linsol, "auto")) {
    snprintf(k->linsol, sizeof k->linsol, "%s", s->linsol);
  } else {
    /* the model preconditioners approximate I - gamma J of a time step,
       not the steady Newton matrix J: KINSOL's auto never uses them */
    sk__linsol_choice c;
    const int64_t *cp = NULL, *ri = NULL;
    if (has_jac) {
      int64_t nnz = 0;
      sk_model_get_jac_pattern(k->model, &cp, &ri, &nnz);
    }
    SK_CALL(ctx, sk__linsol_auto(ctx, k->n, cp, ri, "kinsol",
                                 sk_model_has_preconditioner(k->model), 0, &c));
    snprintf(k->linsol, sizeof k->linsol, "%s", c.linsol);
    snprintf(ctx->linsol_reason, sizeof ctx->linsol_reason, "%s", c.reason);
  }
  const sk__prec_model pm = {has_jac ? SK__PREC_NEEDS_VALUES | SK__PREC_NEEDS_PATTERN : 0u, k->n,
                             0};
  snprintf(k->prec, sizeof k->prec, "%s",
           !sk__linsol_is(ctx, k->linsol, SK__LS_KRYLOV) ? "none"
           : strcmp(s->prec, "auto")                     ? s->prec
                                     : sk__prec_auto(SK__ENGINE_KINSOL, &pm, NULL));
  snprintf(k->ordering, sizeof k->ordering, "%s",
           strcmp(k->linsol, "klu")      ? "none"
           : strcmp(s->ordering, "auto") ? s->ordering
           : k->n >= SK__STEADY_ND_MIN   ? "metis-nd"
                                         : "amd");
  SK_CHECK(ctx, has_jac || !sk__linsol_is(ctx, k->linsol, SK__LS_SPARSE), SK_ERR_UNSUPPORTED,
           "linsol.type=%s needs a model with a sparse Jacobian (pattern); model '%s' has none: "
           "use dense or spgmr",
           k->linsol, name);
  /* what the preconditioner of a Krylov solver needs of the model */
  if (sk__linsol_is(ctx, k->linsol, SK__LS_KRYLOV)) {
    const unsigned has = (has_jac ? SK__PREC_NEEDS_VALUES | SK__PREC_NEEDS_PATTERN : 0u) |
                         (sk_model_has_preconditioner(k->model) ? SK__PREC_NEEDS_MODEL : 0u);
    SK_CALL(ctx, sk__prec_check_needs(ctx, k->prec, SK__ENGINE_KINSOL, has, name));
  }
  if (sk__linsol_is(NULL, k->linsol, SK__LS_DENSE)) {
    SK_CALL(ctx, sk__sun_check_dense_size(ctx, k->n, sk__linsol_key(SK__LINSOL_KEY_type)));
  }
  return SK_OK;
}

/* ---- set-up --------------------------------------------------------------- */

static sk_status make_scale(sk__kin *k, double scalar, const double *v, N_Vector *out)
{
  *out = N_VClone(k->u);
  SK_CHECK(k->ctx, *out != NULL, SK_ERR_NOMEM, "cannot allocate a scaling vector");
  if (v) {
    memcpy(N_VGetArrayPointer(*out), v, (size_t)k->n * sizeof *v);
  } else {
    N_VConst(scalar, *out);
  }
  return SK_OK;
}

#define SK__KIN(call, what)                                                     \
  do {                                                                          \
    int sk__f = (call);                                                         \
    if (sk__f < 0) {                                                            \
      const char *sk__name;                                                     \
      sk_status sk__st = sk__status_from_kinsol(sk__f, &sk__name);              \
      SK_ERROR(k->ctx, sk__st, "KINSOL: cannot %s: %s", what, k->messages.msg); \
      sk__error_set_foreign(k->ctx, sk__f, sk__name);                           \
      return sk__st;                                                            \
    }                                                                           \
  } while (0)

static sk_status attach_krylov(sk__kin *k)
{
  const int prec = strcmp(k->prec, "none") != 0;
  SK_CALL(k->ctx,
          sk__sun_krylov(k->ctx, k->linsol, k->model, k->u, prec ? SUN_PREC_RIGHT : SUN_PREC_NONE,
                         k->set->maxl, k->sunctx, &k->LS));
  if (!strcmp(k->linsol, "spgmr")) {
    SK__KIN(SUNLinSol_SPGMRSetMaxRestarts(k->LS, k->set->max_restarts), "set the restarts");
  }
  SK__KIN(KINSetLinearSolver(k->mem, k->LS, NULL), "attach the Krylov solver");
  if (!strcmp(k->prec, "jacobi")) {
    k->pinv = N_VClone(k->u);
    SK_CHECK(k->ctx, k->pinv != NULL, SK_ERR_NOMEM, "cannot allocate the Jacobi preconditioner");
    SK__KIN(KINSetPreconditioner(k->mem, prec_setup_jacobi, prec_solve_jacobi),
            "set the preconditioner");
  } else if (prec) {
    SK__KIN(KINSetPreconditioner(k->mem, prec_setup_model, prec_solve_model),
            "set the preconditioner");
  }
  return SK_OK;
}

static sk_status attach_linear_solver(sk__kin *k)
{
  sk_context *ctx = k->ctx;
  if (sk__linsol_is(ctx, k->linsol, SK__LS_KRYLOV)) {
    return attach_krylov(k);
  }
  if (sk__linsol_is(NULL, k->linsol, SK__LS_DENSE)) {
    k->A = SUNDenseMatrix(k->n, k->n, k->sunctx);
    SK_CHECK(ctx, k->A != NULL, SK_ERR_NOMEM, "cannot allocate the dense matrix");
    k->LS = SUNLinSol_Dense(k->u, k->A, k->sunctx);
    SK_CHECK(ctx, k->LS != NULL, SK_ERR_NOMEM, "cannot create the dense solver");
  } else {
    SK_CALL(ctx, sk__sun_jac_sparse_matrix(ctx, &k->jac, k->sunctx, &k->A));
    SK_CALL(ctx, sk__sun_sparse_direct(ctx, k->linsol, k->ordering, k->model, k->u, k->A,
                                       k->sunctx, &k->LS));
  }
  SK__KIN(KINSetLinearSolver(k->mem, k->LS, k->A), "attach the linear solver");
  if (k->jac.colptr) { /* else dense: KINSOL's own difference quotients */
    SK__KIN(KINSetJacFn(k->mem, jac_fn), "set the Jacobian function");
  }
  return SK_OK;
}

/* The longest scaled step: steady.max_step, or 1000 max(||D_u u0||_2,
 * ||D_u||_2). KINSOL's default drops the second term, so that from u0 = 0
 * every step is cut to length 1 and a large model stops with
 * KIN_MXNEWT_5X_EXCEEDED before it gets anywhere. */
static double max_step(const sk__kin *k)
{
  if (k->set->max_step > 0) {
    return k->set->max_step;
  }
  N_VConst(1.0, k->work);
  const double unit = N_VWL2Norm(k->work, k->uscale);
  const double guess = N_VWL2Norm(k->u, k->uscale);
  return 1000.0 * (guess > unit ? guess : unit);
}

static sk_status setup(sk__kin *k, double *u)
{
  sk_context *ctx = k->ctx;
  const sk_steady_settings *s = k->set;
  SK_CHECK(ctx, SK_SUNCONTEXT_CREATE(&k->sunctx) == 0 && k->sunctx != NULL, SK_ERR_NOMEM,
           "cannot create the SUNDIALS context");
  k->u = N_VMake_Serial(k->n, u, k->sunctx); /* the caller's buffer: no copy */
  SK_CHECK(ctx, k->u != NULL, SK_ERR_NOMEM, "cannot create the state vector");
  sk__nvector_guard_clone(k->u);
  k->work = N_VClone(k->u);
  SK_CHECK(ctx, k->work != NULL, SK_ERR_NOMEM, "cannot allocate a work vector");
  SK_CALL(ctx, make_scale(k, s->u_scale, s->u_scale_v, &k->uscale));
  SK_CALL(ctx, make_scale(k, s->f_scale, s->f_scale_v, &k->fscale));
  SK_CALL_STOP(ctx, sk__sun_jac_init(ctx, k->model, &k->jac));
  k->mem = KINCreate(k->sunctx);
  SK_CHECK(ctx, k->mem != NULL, SK_ERR_NOMEM, "cannot create KINSOL");
  SK_CHECK(ctx, sk__kinsol_capture_messages(k->mem, k->sunctx, &k->messages) == 0, SK_ERR_SOLVER,
           "cannot install the KINSOL message handler");
  SK_CALL(ctx, sk__model_check_constraints(k->model, u)); /* KINSOL needs a feasible guess */
  SK__KIN(KINInit(k->mem, sys_fn, k->u), "initialize");
  SK__KIN(KINSetUserData(k->mem, k), "set user data");
  SK__KIN(KINSetFuncNormTol(k->mem, s->fnormtol), "set steady.fnormtol");
  SK__KIN(KINSetScaledStepTol(k->mem, s->scsteptol), "set steady.scsteptol");
  SK__KIN(KINSetNumMaxIters(k->mem, (long)s->max_iters), "set steady.max_iters");
  SK__KIN(KINSetMaxSetupCalls(k->mem, (long)s->max_setup_calls), "set steady.max_setup_calls");
  SK__KIN(KINSetMaxNewtonStep(k->mem, max_step(k)), "set steady.max_step");
  N_Vector con = NULL; /* the package keeps its own copy */
  SK_CALL(ctx, sk__sundials_constraints(ctx, k->model, k->u, &con));
  if (con) {
    const int cf = KINSetConstraints(k->mem, con);
    N_VDestroy(con);
    SK__KIN(cf, "set the constraints");
  }
  return attach_linear_solver(k);
}

static void release(sk__kin *k)
{
  if (k->mem) {
    KINFree(&k->mem);
  }
  if (k->LS) {
    SUNLinSolFree(k->LS);
  }
  if (k->A) {
    SUNMatDestroy(k->A);
  }
  N_Vector *vecs[] = {&k->u, &k->uscale, &k->fscale, &k->work, &k->pinv};
  for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++) {
    if (*vecs[i]) {
      N_VDestroy(*vecs[i]);
      *vecs[i] = NULL;
    }
  }
  sk__sun_jac_free(k->ctx, &k->jac);
  sk__free(k->ctx, k->zero);
  k->zero = NULL;
  if (k->sunctx) {
    SUNContext_Free(&k->sunctx);
  }
}

/* ---- the verified residual ------------------------------------------------ */

/* Evaluate f(t_s, u) into k->work and fill the residual figures of r. */
static sk_status measure_residual(sk__kin *k, const double *u, sk_steady_report *r)
{
  double *f = N_VGetArrayPointer(k->work);
  const double *fs = N_VGetArrayPointer(k->fscale);
  k->sys_evals++;
  SK_CALL(k->ctx, steady_f(k, u, f));
  double maxf = 0.0, maxs = 0.0, sum2 = 0.0;
  int64_t worst = -1;
  for (int64_t i = 0; i < k->n; i++) {
    const double a = fabs(f[i]), sa = fs[i] * a;
    maxf = a > maxf ? a : maxf;
    sum2 += sa * sa;
    if (worst < 0 || sa > maxs) {
      maxs = sa;
      worst = i;
    }
  }
  r->fnorm_max = maxf;
  r->fnorm_max_scaled = maxs;
  r->fnorm_l2_scaled = sqrt(sum2);
  r->worst = worst;
  r->worst_value = worst >= 0 ? f[worst] : 0.0;
  sk_model_component_name(k->model, worst, r->worst_name, sizeof r->worst_name);
  r->converged = maxs <= k->set->fnormtol;
  return SK_OK;
}

static void collect_stats(sk__kin *k, sk_steady_report *r)
{
  long v[8] = {0};
  KINGetNumNonlinSolvIters(k->mem, &v[0]);
  KINGetNumBacktrackOps(k->mem, &v[1]);
  KINGetNumJacEvals(k->mem, &v[2]);
  KINGetNumLinFuncEvals(k->mem, &v[3]);
  KINGetNumLinIters(k->mem, &v[4]);
  KINGetNumLinConvFails(k->mem, &v[5]);
  KINGetNumPrecEvals(k->mem, &v[6]);
  KINGetNumPrecSolves(k->mem, &v[7]);
  const int64_t fd = sk_model_get_fd_rhs_evals(k->model) - k->fd_base;
  r->newton_iters = v[0];
  r->backtracks = v[1];
  r->jac_evals = v[2] + k->prec_jac_evals;
  r->f_evals = k->sys_evals + fd + k->pattern_evals;
  r->f_evals_dq = v[3] + fd;
  r->lin_iters = v[4];
  r->lin_conv_fails = v[5];
  r->prec_setups = v[6];
  r->prec_solves = v[7];
  long nfe = 0, nbcf = 0;
  KINGetNumFuncEvals(k->mem, &nfe);
  KINGetNumBetaCondFails(k->mem, &nbcf);
  r->kinsol_f_evals = nfe;
  r->beta_fails = nbcf;
  sk_sunreal fnorm = 0.0, steplength = 0.0;
  KINGetFuncNorm(k->mem, &fnorm);
  KINGetStepLength(k->mem, &steplength);
  r->kinsol_fnorm = fnorm;
  r->step_length = steplength;
}

/* ---- failures --------------------------------------------------------------- */

/* What the message says about a failed solve. */
typedef struct {
  sk_status st;
  const char *what; /* the failure, in words */
  const char *hint; /* likely causes */
} failure_text;

static failure_text describe_flag(int flag, int singular)
{
  switch (flag) {
  case KIN_SUCCESS:
  case KIN_INITIAL_GUESS_OK:
    return (failure_text){SK_ERR_CONV,
                          "KINSOL reported convergence, but the residual recomputed "
                          "at its answer is too large",
                          "scaled tolerances that do not match steady.f_scale"};
  case KIN_STEP_LT_STPTOL:
    return (failure_text){
        SK_ERR_CONV,
        "stalled: the Newton step became too small (below steady.scsteptol) "
        "while the residual is still too large",
        "a singular or wrong Jacobian, a bad initial guess (steady.guess), or no "
        "steady state near the guess"};
  case KIN_LINESEARCH_NONCONV:
    return (failure_text){
        SK_ERR_CONV, "the line search found no step that reduces the residual",
        "an inaccurate or wrong Jacobian, a poor initial guess (steady.guess, "
        "or a state from a time integration), or no steady state near the guess"};
  case KIN_MAXITER_REACHED:
    return (failure_text){SK_ERR_CONV, "no convergence within steady.max_iters Newton iterations",
                          "a poor initial guess, a wrong Jacobian (full Newton: "
                          "steady.max_setup_calls=1), or no steady state near the guess"};
  case KIN_MXNEWT_5X_EXCEEDED:
    return (failure_text){SK_ERR_CONV,
                          "five successive Newton steps had the maximum length: the iterates run "
                          "away",
                          "no steady state within reach of the guess, or a residual that only "
                          "decreases as |u| grows"};
  case KIN_LINESEARCH_BCFAIL:
    return (failure_text){
        SK_ERR_CONV, "the line search failed the beta condition repeatedly",
        "a badly scaled problem (steady.u_scale, steady.f_scale) or a poor guess"};
  case KIN_LSETUP_FAIL:
  case KIN_LSOLVE_FAIL:
  case KIN_LINSOLV_NO_RECOVERY:
    if (singular) {
      return (failure_text){
          SK_ERR_SINGULAR, "the Jacobian df/du is singular at the current iterate",
          "a conservation law of the model (a combination w^T f of the f_i "
          "that does not depend on u: where it is zero, e.g. a mass balance, the "
          "steady states form a family, not a point; where it is not, e.g. a "
          "heat source with insulated sides, there is none), a state that f "
          "does not depend on, or a degenerate guess"};
    }
    return (failure_text){SK_ERR_LINSOL, "the linear solver failed",
                          "a nearly singular Jacobian; for spgmr raise linsol.maxl or "
                          "steady.max_restarts, or use a preconditioner"};
  case KIN_SYSFUNC_FAIL:
  case KIN_FIRST_SYSFUNC_ERR:
  case KIN_REPTD_SYSFUNC_ERR:
    return (failure_text){SK_ERR_CALLBACK, "the model's right-hand side failed",
                          "a guess outside the model's domain"};
  default:
    return (failure_text){SK_ERR_SOLVER, "KINSOL failed", "see the KINSOL message"};
  }
}

/* Turn a solve that did not verify into the error record. */
static sk_status solve_failure(sk__kin *k, int flag, const sk_steady_report *r)
{
  sk_context *ctx = k->ctx;
  const char *name;
  const sk_status mapped = sk__status_from_kinsol(flag, &name);
  char lin[320] = "";
  int singular = 0;
  if (flag == KIN_LSETUP_FAIL || flag == KIN_LSOLVE_FAIL || flag == KIN_LINSOLV_NO_RECOVERY) {
    singular = sk__sun_linear_failure(k->LS, k->linsol, k->model, lin, sizeof lin);
  }
  failure_text ft = describe_flag(flag, singular);
  if (ft.st == SK_ERR_SOLVER && mapped < 0) {
    ft.st = mapped;
  }
  char cause[SK_ERROR_MSG_LEN / 2] = "";
  /* a callback failure the iteration recovered from is not the cause of a
   * later failure of another kind */
  const int callback_flag =
      ft.st == SK_ERR_CALLBACK || ft.st == SK_ERR_LINSOL || ft.st == SK_ERR_SINGULAR;
  if (k->have_callback_error && callback_flag) {
    snprintf(cause, sizeof cause, "; cause: %.400s", k->callback_error.message);
    if (k->callback_error.code == SK_ERR_NONFINITE || k->callback_error.code == SK_ERR_NOMEM) {
      ft.st = k->callback_error.code;
    }
  } else if (ft.st == SK_ERR_SOLVER && k->messages.msg[0]) {
    snprintf(cause, sizeof cause, "; KINSOL: %.400s", k->messages.msg);
  }
  SK_ERROR(ctx, ft.st,
           "steady state at t=%.6e: %s%s; residual ||f||_inf = %.3e (scaled %.3e, "
           "steady.fnormtol %.1e), largest in %s = %.3e, after %lld Newton iteration%s%s; "
           "likely causes: %s",
           k->t, ft.what, lin, r->fnorm_max, r->fnorm_max_scaled, k->set->fnormtol, r->worst_name,
           r->worst_value, (long long)r->newton_iters, r->newton_iters == 1 ? "" : "s", cause,
           ft.hint);
  sk__error_set_foreign(ctx, flag, name);
  return ft.st;
}

/* ---- the solve ---------------------------------------------------------------- */

static sk_status check_guess(sk__kin *k, const double *u)
{
  for (int64_t i = 0; i < k->n; i++) {
    if (!isfinite(u[i])) {
      char name[96];
      sk_model_component_name(k->model, i, name, sizeof name);
      return SK_ERROR(k->ctx, SK_ERR_INPUT,
                      "steady state: the initial guess is %g in component "
                      "%lld (%s)",
                      u[i], (long long)i, name);
    }
  }
  return SK_OK;
}

/* Everything between the checks and the report. */
/* A sparse direct solver asked for an ODE model without a Jacobian pattern:
 * the pattern found by probing f at the guess, as the steppers find it
 * (solver.detect_pattern), so that one config serves run and steady. */
static sk_status find_pattern(sk__kin *k, const double *u)
{
  const char *ls = k->set->linsol;
  if (!sk__linsol_is(k->ctx, ls, SK__LS_SPARSE) || sk_model_has_jacobian(k->model) || k->zero) {
    return SK_OK;
  }
  const int64_t before = sk_model_get_rhs_evals(k->model);
  const sk_status st = sk_model_detect_pattern(k->model, k->t, u, 2);
  k->pattern_evals = sk_model_get_rhs_evals(k->model) - before;
  return st;
}

static sk_status run(sk__kin *k, double *u, sk_steady_report *r)
{
  sk_context *ctx = k->ctx;
  SK_CALL(ctx, check_guess(k, u));
  SK_CALL_STOP(ctx, find_pattern(k, u));
  SK_CALL(ctx, resolve(k));
  snprintf(r->linsol, sizeof r->linsol, "%s", k->linsol);
  snprintf(r->prec, sizeof r->prec, "%s", k->prec);
  snprintf(r->ordering, sizeof r->ordering, "%s", k->ordering);
  SK_CALL(ctx, setup(k, u));
  const int uses_jac =
      !sk__linsol_is(ctx, k->linsol, SK__LS_KRYLOV) || !strcmp(k->prec, "jacobi");
  if (k->set->check_jacobian && uses_jac && k->jac.colptr && !k->zero) {
    SK_CALL(ctx, sk__jacobian_selftest(k->model, k->t, u));
  }
  k->fd_base = sk_model_get_fd_rhs_evals(k->model);
  SK_CALL(ctx, measure_residual(k, u, r));
  r->fnorm_initial = r->fnorm_max_scaled;
  const int strategy = !strcmp(k->set->strategy, "none") ? KIN_NONE : KIN_LINESEARCH;
  sk__stop_region_enter("the KINSOL solve (its Newton iterations and linear-solver setups)");
  const int flag = KINSol(k->mem, k->u, strategy, k->uscale, k->fscale);
  sk__stop_region_leave();
  r->kinsol_flag = flag;
  const char *fname;
  sk__status_from_kinsol(flag, &fname);
  snprintf(r->kinsol_flag_name, sizeof r->kinsol_flag_name, "%s", fname);
  const sk_status st = measure_residual(k, u, r);
  collect_stats(k, r); /* the check's evaluation included */
  SK_CALL(ctx, st);
  if (flag == KIN_INITIAL_GUESS_OK && r->converged) {
    sk__log(ctx, SK_LOG_WARN,
            "steady state: the initial guess already satisfies max |f_scale f| = %.3e <= "
            "steady.fnormtol = %.1e, so no Newton step was taken; if f is small by nature, lower "
            "steady.fnormtol or raise steady.f_scale",
            r->fnorm_max_scaled, k->set->fnormtol);
  }
  return r->converged ? SK_OK : solve_failure(k, flag, r);
}

sk_status sk_steady_solve(sk_context *ctx, sk_model *model, const sk_steady_settings *s,
                          double *u, sk_steady_report *report)
{
  SK_CHECK(ctx, model != NULL && s != NULL && u != NULL, SK_ERR_ARG,
           "sk_steady_solve: NULL argument");
  const double start = now_seconds();
  sk_steady_report local;
  sk_steady_report *r = report ? report : &local;
  memset(r, 0, sizeof *r);
  r->worst = -1;
  const sk_model_kind kind = sk_model_get_kind(model);
  SK_CHECK(ctx, kind == SK_MODEL_ODE || kind == SK_MODEL_DAE, SK_ERR_UNSUPPORTED,
           "steady state: model '%s' is neither an ODE u' = f(t, u) nor a DAE F(t, y, y') = 0",
           sk_model_get_name(model));
  const int64_t n = sk_model_get_n(model);
  SK_CALL(ctx, check_settings(ctx, s, n));
  sk__kin *k = sk__calloc(ctx, 1, sizeof *k);
  SK_CHECK(ctx, k != NULL, SK_ERR_NOMEM, "cannot allocate the KINSOL adapter");
  k->ctx = ctx;
  k->model = model;
  k->set = s;
  k->n = n;
  k->t = s->t;
  if (kind == SK_MODEL_DAE) { /* the steady state of F(t, y, y') = 0 solves F(t_s, y, 0) = 0 */
    k->zero = sk__calloc(ctx, (size_t)n, sizeof *k->zero);
    if (!k->zero) {
      sk__free(ctx, k);
      return SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the steady DAE system");
    }
  }
  const sk_status st = run(k, u, r);
  release(k);
  sk__free(ctx, k);
  r->wall_time = now_seconds() - start;
  if (st < 0) {
    sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
  }
  return st;
}

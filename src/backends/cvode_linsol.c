/* src/backends/cvode_linsol.c: linear solvers for CVODE: dense, band, KLU, UMFPACK, Krylov with none/Jacobi/model/AMG/structured-multigrid preconditioners */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cvodes/cvodes.h>
#include <cvodes/cvodes_bandpre.h>
#include <cvodes/cvodes_bbdpre.h>
#include <cvodes/cvodes_ls.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include "backends/cvode_state.h"
#include "core/csc.h"
#include "core/error.h"
#include "core/stop.h"
#include "core/model_impl.h"
#include "linsol/amg_hypre.h"
#include "linsol/linsol_choice.h"
#include "linsol/mg_struct.h"

/* n at or above which "auto" ordering means nested dissection */
#define SK_ND_THRESHOLD 1000

/* Map a checked model evaluation to SUNDIALS' three-way return. */
static int three_way(sk__cvode *cv, sk_status rc)
{
  if (rc == SK_OK) {
    return 0;
  }
  sk__cvode_callback_failed(cv);
  return rc == SK_RECOVERABLE || rc == SK_ERR_NONFINITE ? 1 : -1;
}

/* Evaluate the model Jacobian at (t, y) into cv->jac.vals (model order). */
static int eval_model_jac(sk__cvode *cv, double t, N_Vector y, N_Vector fy)
{
  sk_status rc = sk_model_eval_jac(cv->model, t, N_VGetArrayPointer(y), N_VGetArrayPointer(fy),
                                   cv->jac.vals);
  return three_way(cv, rc);
}

/* CVLsJacFn: the model's sparse Jacobian into CVODE's matrix. */
static int jac_fn(sk_sunreal t, N_Vector y, N_Vector fy, SUNMatrix J, void *ud, N_Vector t1,
                  N_Vector t2, N_Vector t3)
{
  (void)t1;
  (void)t2;
  (void)t3;
  sk__cvode *cv = ud;
  int rc = eval_model_jac(cv, t, y, fy);
  if (rc) {
    return rc;
  }
  sk__sun_jac_fill(&cv->jac, J);
  return 0;
}

/* Model preconditioner. */
static int prec_setup_model(sk_sunreal t, N_Vector y, N_Vector fy, sk_sunbool jok,
                            sk_sunbool *jcur, sk_sunreal gamma, void *ud)
{
  (void)fy;
  sk__cvode *cv = ud;
  *jcur = jok ? SK_SUN_FALSE : SK_SUN_TRUE;
  return three_way(cv,
                   sk_model_eval_prec_setup(cv->model, t, N_VGetArrayPointer(y), gamma, !jok));
}

static int prec_solve_model(sk_sunreal t, N_Vector y, N_Vector fy, N_Vector r, N_Vector z,
                            sk_sunreal gamma, sk_sunreal delta, int lr, void *ud)
{
  (void)fy;
  (void)delta;
  (void)lr;
  sk__cvode *cv = ud;
  return three_way(cv,
                   sk_model_eval_prec_solve(cv->model, t, N_VGetArrayPointer(y),
                                            N_VGetArrayPointer(r), N_VGetArrayPointer(z), gamma));
}

/* The model's own J v for the Krylov solvers (CVLsJacTimesVecFn). */
static int jtimes_model(N_Vector v, N_Vector jv, sk_sunreal t, N_Vector y, N_Vector fy, void *ud,
                        N_Vector tmp)
{
  (void)tmp;
  sk__cvode *cv = ud;
  return three_way(cv, sk_model_eval_jtimes(cv->model, t, N_VGetArrayPointer(y),
                                            N_VGetArrayPointer(fy), N_VGetArrayPointer(v),
                                            N_VGetArrayPointer(jv)));
}

/* Jacobi preconditioner: P = I - gamma diag(J), diag(J) refreshed when CVODE asks. */
static int prec_setup_jacobi(sk_sunreal t, N_Vector y, N_Vector fy, sk_sunbool jok,
                             sk_sunbool *jcur, sk_sunreal gamma, void *ud)
{
  sk__cvode *cv = ud;
  const int64_t n = sk_model_get_n(cv->model);
  if (!jok) {
    int rc = eval_model_jac(cv, t, y, fy);
    if (rc) {
      return rc;
    }
    cv->prec_jac_evals++;
    sk__sun_jac_diagonal(&cv->jac, cv->jdiag);
  }
  *jcur = jok ? SK_SUN_FALSE : SK_SUN_TRUE;
  sk_sunreal *pinv = N_VGetArrayPointer(cv->pinv);
  for (int64_t j = 0; j < n; j++) {
    const double d = 1.0 - gamma * cv->jdiag[j];
    if (d == 0.0) {
      return 1; /* recoverable: CVODE retries with another gamma */
    }
    pinv[j] = 1.0 / d;
  }
  return 0;
}

static int prec_solve_jacobi(sk_sunreal t, N_Vector y, N_Vector fy, N_Vector r, N_Vector z,
                             sk_sunreal gamma, sk_sunreal delta, int lr, void *ud)
{
  (void)t;
  (void)y;
  (void)fy;
  (void)gamma;
  (void)delta;
  (void)lr;
  sk__cvode *cv = ud;
  N_VProd(r, cv->pinv, z);
  return 0;
}

/* A registered preconditioner type: the model's Jacobian refreshed when CVODE asks (!jok) and
 * the type needs it, then the type's setup. */
static int prec_setup_user(sk_sunreal t, N_Vector y, N_Vector fy, sk_sunbool jok,
                           sk_sunbool *jcur, sk_sunreal gamma, void *ud)
{
  sk__cvode *cv = ud;
  const int needs_jac = (cv->uprec->needs & SK_PREC_NEEDS_JACOBIAN) != 0;
  if (needs_jac && !jok) {
    const int rc = eval_model_jac(cv, t, y, fy);
    if (rc) {
      return rc;
    }
    cv->prec_jac_evals++;
  }
  *jcur = jok ? SK_SUN_FALSE : SK_SUN_TRUE;
  const sk_jacobian_view view = {cv->jac.n, cv->jac.colptr, cv->jac.rowind, cv->jac.vals};
  return three_way(cv, cv->uprec->setup(cv->uprec_state, t, N_VGetArrayPointer(y), gamma,
                                        needs_jac ? &view : NULL, !jok));
}

static int prec_solve_user(sk_sunreal t, N_Vector y, N_Vector fy, N_Vector r, N_Vector z,
                           sk_sunreal gamma, sk_sunreal delta, int lr, void *ud)
{
  (void)fy;
  (void)delta;
  (void)lr;
  sk__cvode *cv = ud;
  return three_way(cv, cv->uprec->solve(cv->uprec_state, t, N_VGetArrayPointer(y),
                                        N_VGetArrayPointer(r), N_VGetArrayPointer(z), gamma));
}

/* 1 when the hierarchy built for gamma0 may serve gamma: CVODE keeps its Jacobian (jok) and
 * gamma / gamma0 lies within [1/ratio, ratio] (linsol.amg_reuse_gamma_ratio; 1 = never). */
static int amg_reusable(const sk__cvode *cv, int jok, double gamma)
{
  const double ratio = cv->s->amg_reuse_ratio;
  return jok && cv->amg_built && ratio > 1.0 && gamma <= cv->amg_gamma * ratio &&
         gamma * ratio >= cv->amg_gamma;
}

/* AMG preconditioner: BoomerAMG hierarchy of I - gamma J, the model Jacobian refreshed when
 * CVODE asks (!jok); a new hierarchy unless the one held may serve (amg_reusable): then the
 * preconditioner stays (I - gamma0 J)^-1, which the Krylov iteration corrects for. */
static int prec_setup_amg(sk_sunreal t, N_Vector y, N_Vector fy, sk_sunbool jok, sk_sunbool *jcur,
                          sk_sunreal gamma, void *ud)
{
  sk__cvode *cv = ud;
  if (amg_reusable(cv, jok, gamma)) {
    *jcur = SK_SUN_FALSE;
    return 0;
  }
  const int fresh = !jok || !cv->amg_have_jac;
  if (fresh) {
    int rc = eval_model_jac(cv, t, y, fy);
    if (rc) {
      cv->amg_have_jac = 0;
      return rc;
    }
    cv->prec_jac_evals++;
    cv->amg_have_jac = 1;
  }
  *jcur = fresh ? SK_SUN_TRUE : SK_SUN_FALSE;
  cv->amg_built = 0;
  sk_status st = sk__amg_setup(cv->amg, gamma, cv->jac.vals);
  if (st != SK_OK) {
    sk__cvode_callback_failed(cv);
    return -1;
  }
  cv->amg_built = 1;
  cv->amg_gamma = gamma;
  cv->amg_hierarchies++;
  return 0;
}

static int prec_solve_amg(sk_sunreal t, N_Vector y, N_Vector fy, N_Vector r, N_Vector z,
                          sk_sunreal gamma, sk_sunreal delta, int lr, void *ud)
{
  (void)t;
  (void)y;
  (void)fy;
  (void)gamma;
  (void)delta;
  (void)lr;
  sk__cvode *cv = ud;
  sk_status st = sk__amg_solve(cv->amg, N_VGetArrayPointer(r), N_VGetArrayPointer(z));
  if (st != SK_OK) {
    sk__cvode_callback_failed(cv);
    return -1;
  }
  return 0;
}

/* ||J||_1, the largest column sum of |J|: a bound on J's spectral radius. */
static double jac_norm1(const sk__sun_jac *J)
{
  double norm = 0.0;
  for (int64_t j = 0; j < J->n; j++) {
    double sum = 0.0;
    for (int64_t p = J->colptr[j]; p < J->colptr[j + 1]; p++) {
      sum += fabs(J->vals[p]);
    }
    norm = sum > norm ? sum : norm;
  }
  return norm;
}

/* Structured multigrid preconditioner: hypre PFMG/SMG/SysPFMG on I - gamma J
 * of the model's grid, the Jacobian refreshed when CVODE asks (!jok); the
 * grid, stencil and matrix are kept, the values and the hierarchy are
 * renewed for every gamma (linsol/mg_struct.h). A model with a
 * preconditioner of its own sets up and solves with that one instead
 * (mg_hands_off) where it converges as fast as a V-cycle at a fraction of
 * its cost (benchmarks/README.md, "Multigrid hand-off"). */

/* Whether a setup may go to the model's preconditioner at all. */
static int mg_may_hand_off(const sk__cvode *cv)
{
  return sk_model_has_preconditioner(cv->model) && cv->s->mg.model_below > 0;
}

/* Whether the setup for gamma goes to the model's preconditioner: never when
 * linsol.mg_model_below is 0; always while gamma ||J||_1 is below it (I -
 * gamma J close to the identity); above it while gamma is below cv->mg_cap,
 * the gamma of the first interval above the bound, between two of the
 * model's setups, in which the Krylov iterations per nonlinear iteration
 * exceeded linsol.mg_model_max_lin (a smooth solution keeps a line
 * preconditioner good at any gamma; all modes present do not). Not with
 * sensitivities: their Krylov solves count in CVODE's linear iterations but
 * not in its nonlinear ones. */
static int mg_hands_off(sk__cvode *cv, double gamma)
{
  const sk__mg_params *p = &cv->s->mg;
  const int adaptive = p->model_max_lin > 0 && sk_stepper_get_nsens(cv->s) == 0;
  long lin = 0, nl = 0;
  CVodeGetNumLinIters(cv->mem, &lin);
  CVodeGetNumNonlinSolvIters(cv->mem, &nl);
  if (adaptive && cv->mg_via_model && cv->mg_above && nl > cv->mg_nl0 && lin >= cv->mg_lin0 &&
      (double)(lin - cv->mg_lin0) > p->model_max_lin * (double)(nl - cv->mg_nl0) &&
      cv->mg_gamma0 < cv->mg_cap) {
    cv->mg_cap = cv->mg_gamma0;
  }
  cv->mg_lin0 = lin;
  cv->mg_nl0 = nl;
  cv->mg_gamma0 = gamma;
  const int below = gamma * cv->jac_norm1 < p->model_below;
  cv->mg_above = !below;
  return mg_may_hand_off(cv) && (below || (adaptive && gamma < cv->mg_cap));
}

void sk__cvode_mg_handoff_reset(sk__cvode *cv, int fresh)
{
  cv->mg_via_model = 0;
  cv->mg_lin0 = cv->mg_nl0 = 0; /* CVodeReInit zeroes CVODE's counters */
  if (fresh) {
    cv->mg_cap = HUGE_VAL;
    cv->model_prec_ready = 0;
  }
}

static int prec_setup_mg(sk_sunreal t, N_Vector y, N_Vector fy, sk_sunbool jok, sk_sunbool *jcur,
                         sk_sunreal gamma, void *ud)
{
  sk__cvode *cv = ud;
  const int fresh = !jok || !cv->amg_have_jac;
  if (fresh) {
    int rc = eval_model_jac(cv, t, y, fy);
    if (rc) {
      cv->amg_have_jac = 0;
      return rc;
    }
    cv->prec_jac_evals++;
    cv->amg_have_jac = 1;
    cv->jac_norm1 = mg_may_hand_off(cv) ? jac_norm1(&cv->jac) : 0.0;
    cv->model_prec_ready = 0; /* CVODE counts the new Jacobian as current (jcur) from here */
  }
  *jcur = fresh ? SK_SUN_TRUE : SK_SUN_FALSE;
  cv->mg_via_model = mg_hands_off(cv, gamma);
  if (cv->mg_via_model) {
    const int recompute = fresh || !cv->model_prec_ready;
    const int rc = three_way(
        cv, sk_model_eval_prec_setup(cv->model, t, N_VGetArrayPointer(y), gamma, recompute));
    cv->model_prec_ready = rc == 0;
    cv->mg_model_setups += rc == 0;
    return rc;
  }
  if (sk__mg_setup(cv->mg, gamma, cv->jac.vals) != SK_OK) {
    sk__cvode_callback_failed(cv);
    return -1;
  }
  return 0;
}

static int prec_solve_mg(sk_sunreal t, N_Vector y, N_Vector fy, N_Vector r, N_Vector z,
                         sk_sunreal gamma, sk_sunreal delta, int lr, void *ud)
{
  sk__cvode *cv = ud;
  if (cv->mg_via_model) {
    return prec_solve_model(t, y, fy, r, z, gamma, delta, lr, ud);
  }
  if (sk__mg_solve(cv->mg, N_VGetArrayPointer(r), N_VGetArrayPointer(z)) != SK_OK) {
    sk__cvode_callback_failed(cv);
    return -1;
  }
  return 0;
}

/* CVBBDPRE's local function and exchange: a distributed model's (core/model_dist.h). */
static int bbd_local(sunindextype nlocal, sk_sunreal t, N_Vector y, N_Vector g, void *ud)
{
  (void)nlocal;
  sk__cvode *cv = ud;
  const sk__model_distribution *dist = sk__model_get_distribution(cv->model);
  return three_way(cv,
                   dist->bbd_local(dist->data, t, N_VGetArrayPointer(y), N_VGetArrayPointer(g)));
}

static int bbd_exchange(sunindextype nlocal, sk_sunreal t, N_Vector y, void *ud)
{
  (void)nlocal;
  sk__cvode *cv = ud;
  const sk__model_distribution *dist = sk__model_get_distribution(cv->model);
  return three_way(cv, dist->bbd_exchange(dist->data, t, N_VGetArrayPointer(y)));
}

/* bbd: CVBBDPRE on a distributed model's local blocks (its half-bandwidth); on one process
 * one block, CVBANDPRE's band of the whole J (difference quotients of f over the pattern's
 * half-bandwidths). */
static sk_status attach_bbd(sk__cvode *cv)
{
  sk_context *ctx = cv->ctx;
  const int64_t n = sk_model_get_n(cv->model);
  const sk__model_distribution *dist = sk__model_get_distribution(cv->model);
  int flag;
  if (dist) {
    const sunindextype b = (sunindextype)dist->bbd_band;
    flag = CVBBDPrecInit(cv->mem, (sunindextype)n, b, b, b, b, 0.0, bbd_local, bbd_exchange);
  } else {
    int64_t ml = 0, mu = 0;
    sk__csc_bandwidth(n, cv->jac.colptr, cv->jac.rowind, &ml, &mu);
    SK_CALL(ctx, sk__sun_check_band_size(ctx, n, ml, mu, 1, "linsol.preconditioner=bbd",
                                         "use linsol.preconditioner=amg or jacobi"));
    flag = CVBandPrecInit(cv->mem, (sunindextype)n, (sunindextype)mu, (sunindextype)ml);
  }
  SK_CHECK(ctx, flag == CVLS_SUCCESS, flag == CVLS_MEM_FAIL ? SK_ERR_NOMEM : SK_ERR_SOLVER,
           "cannot set the bbd preconditioner (flag %d, %lld states): %s", flag, (long long)n,
           cv->messages.msg);
  return SK_OK;
}

/* What the model provides of the preconditioners' needs (SK__PREC_NEEDS_* bits); a
 * distributed model gives bbd its band as a pattern would. */
static unsigned model_provides(const sk__cvode *cv)
{
  return (sk_model_has_jacobian(cv->model) ? SK__PREC_NEEDS_VALUES : 0u) |
         (cv->jac.colptr || sk__model_get_distribution(cv->model) ? SK__PREC_NEEDS_PATTERN : 0u) |
         (sk_model_has_preconditioner(cv->model) ? SK__PREC_NEEDS_MODEL : 0u) |
         (sk__model_get_grid(cv->model) ? SK__PREC_NEEDS_GRID : 0u) |
         (sk_model_has_jacobian_values(cv->model) ? SK__PREC_NEEDS_ANALYTIC : 0u);
}

/* What linsol.preconditioner = auto takes for this model (linsol/linsol_types.h,
 * SK__PREC_AUTO); *strong: whether it makes the Krylov path compete with a factorization. */
static const char *prec_auto(const sk__cvode *cv, int *strong)
{
  const sk__model_grid *g = sk__model_get_grid(cv->model);
  const sk__prec_model m = {model_provides(cv), sk_model_get_n(cv->model), g ? g->dim : 0};
  return sk__prec_auto(SK__ENGINE_CVODE, &m, strong);
}

/* The model's pattern and a values buffer in cv->jac, once. */
static sk_status jac_init_once(sk__cvode *cv)
{
  return cv->jac.n != 0 ? SK_OK : sk__sun_jac_init(cv->ctx, cv->model, &cv->jac);
}

/* The resolved solver reads the model's Jacobian (pattern or values): a direct solver, a
 * preconditioner built from it, or the sensitivities' J s. A Krylov solver with the model's
 * own or no preconditioner does not: then the pattern is never built (a grid model's is
 * built on first use) and no values buffer is allocated. */
static int reads_jacobian(const sk__cvode *cv)
{
  if (sk__linsol_is(NULL, cv->linsol, SK__LS_NONE)) { /* the fixed-point iteration */
    return 0;
  }
  const sk_preconditioner_type *u = sk_preconditioner_type_find(cv->ctx, cv->prec);
  return !sk__linsol_is(cv->ctx, cv->linsol, SK__LS_KRYLOV) ||
         (sk__prec_needs(cv->prec) & (SK__PREC_NEEDS_VALUES | SK__PREC_NEEDS_PATTERN)) ||
         (u && (u->needs & SK_PREC_NEEDS_JACOBIAN)) || sk_stepper_get_nsens(cv->s) > 0;
}

/* Resolve "auto" choices from the engine and the model. */
static sk_status resolve_names(sk__cvode *cv)
{
  sk_stepper *s = cv->s;
  const int64_t n = sk_model_get_n(cv->model);
  const int has_jac = sk_model_has_jacobian(cv->model);
  snprintf(cv->linsol, sizeof cv->linsol, "%s", sk_stepper_get_linear_solver(s));
  snprintf(cv->prec, sizeof cv->prec, "%s", sk_stepper_get_preconditioner(s));
  snprintf(cv->ordering, sizeof cv->ordering, "%s", sk_stepper_get_ordering(s));
  if (!strcmp(cv->linsol, "auto") && cv->lmm == CV_ADAMS) {
    snprintf(cv->linsol, sizeof cv->linsol, "none");
    sk__stepper_set_linsol_reason(s, "none: cvode-adams runs a fixed-point iteration");
  } else if (!strcmp(cv->linsol, "auto")) {
    SK_CALL_STOP(cv->ctx, jac_init_once(cv)); /* the choice reads the pattern */
    /* the preconditioner auto would take decides whether the Krylov path competes (a grid
       model where mg wins has one even without a preconditioner of its own: the Brusselator) */
    int strong = 0;
    const char *pa = prec_auto(cv, &strong);
    const int named = strcmp(cv->prec, "auto") != 0;
    const int mg = !named && !strcmp(pa, "mg");
    sk__linsol_choice c;
    SK_CALL(cv->ctx, sk__linsol_auto(
                         cv->ctx, n, cv->jac.colptr, cv->jac.rowind, sk_stepper_get_type(s)->name,
                         named ? sk_model_has_preconditioner(cv->model) : strong, 1, &c));
    snprintf(cv->linsol, sizeof cv->linsol, "%s", c.linsol);
    if (mg && !strcmp(c.prec, "model")) {
      const char *why = strchr(c.reason, ':');
      char reason[sizeof c.reason];
      snprintf(reason, sizeof reason,
               "spgmr with the structured multigrid (mg, a %dD grid of %lld states)%s",
               sk__model_get_grid(cv->model)->dim, (long long)n, why ? why : "");
      snprintf(c.reason, sizeof c.reason, "%s", reason);
      snprintf(c.prec, sizeof c.prec, "mg");
    }
    if (!strcmp(cv->prec, "auto") && strcmp(c.prec, "auto")) {
      snprintf(cv->prec, sizeof cv->prec, "%s", c.prec);
    }
    sk__stepper_set_linsol_reason(s, c.reason);
  }
  if (!strcmp(cv->prec, "auto")) { /* the registry's rule (a named linear solver, or none) */
    snprintf(cv->prec, sizeof cv->prec, "%s", prec_auto(cv, NULL));
  }
  if (!strcmp(cv->ordering, "auto")) {
    snprintf(cv->ordering, sizeof cv->ordering, "%s", n >= SK_ND_THRESHOLD ? "metis-nd" : "amd");
  }
  if (reads_jacobian(cv)) {
    SK_CALL_STOP(cv->ctx, jac_init_once(cv));
  }
  const char *ls = cv->linsol;
  /* a preconditioner named for a solver that takes none (a config written for a Krylov run,
     its linear solver changed): said, not ignored in silence */
  sk__sun_note_unused_prec(cv->ctx, ls, sk_stepper_get_preconditioner(s));
  SK_CHECK(cv->ctx,
           !sk__model_get_distribution(cv->model) || sk__linsol_is(NULL, ls, SK__LS_KRYLOV),
           SK_ERR_UNSUPPORTED,
           "linsol.type=%s: model '%s' is distributed over MPI ranks; a Krylov solver (spgmr, "
           "spfgmr, spbcgs, sptfqmr, pcg) solves its Newton systems (not a type registered at "
           "run time: it sees one process's vectors only)",
           ls, sk_model_get_name(cv->model));
  if (sk__linsol_is(cv->ctx, ls, SK__LS_SPARSE)) {
    SK_CHECK(
        cv->ctx, has_jac, SK_ERR_UNSUPPORTED,
        "linsol.type=%s needs a model with a sparse Jacobian (pattern and values); model '%s' "
        "has none; supported without a pattern: dense, a Krylov solver (spgmr, spfgmr, "
        "spbcgs, sptfqmr, pcg) or none (fixed-point iteration)",
        ls, sk_model_get_name(cv->model));
  }
  if (sk__linsol_is(cv->ctx, ls, SK__LS_KRYLOV)) {
    SK_CALL(cv->ctx, sk__prec_check_needs(cv->ctx, cv->prec, SK__ENGINE_CVODE, model_provides(cv),
                                          sk_model_get_name(cv->model)));
    const sk_preconditioner_type *u = sk_preconditioner_type_find(cv->ctx, cv->prec);
    SK_CHECK(cv->ctx,
             !u || !(u->needs & SK_PREC_NEEDS_JACOBIAN) || sk_model_has_jacobian(cv->model),
             SK_ERR_UNSUPPORTED,
             "linsol.preconditioner=%s needs the model's sparse Jacobian (pattern and values); "
             "model '%s' has none",
             cv->prec, sk_model_get_name(cv->model));
  }
  return SK_OK; /* dense and band are checked where they are built (sk__sun_matrix_direct) */
}

static sk_status make_sparse(sk__cvode *cv, const char *ls)
{
  SK_CALL(cv->ctx, sk__sun_jac_sparse_matrix(cv->ctx, &cv->jac, cv->sunctx, &cv->A));
  SK_CALL(cv->ctx, sk__sun_sparse_direct(cv->ctx, ls, cv->ordering, cv->model, cv->y, cv->A,
                                         cv->sunctx, &cv->LS));
  return SK_OK;
}

static sk_status make_krylov(sk__cvode *cv, const char *ls)
{
  int maxl;
  double eps_lin;
  sk_stepper_get_krylov(cv->s, &maxl, &eps_lin);
  sk__krylov_resolve(0, &maxl, &eps_lin);
  const int pretype = strcmp(cv->prec, "none") ? SUN_PREC_LEFT : SUN_PREC_NONE;
  SK_CALL(cv->ctx,
          sk__sun_krylov(cv->ctx, ls, cv->model, cv->y, pretype, maxl, cv->sunctx, &cv->LS));
  return SK_OK;
}

sk_status sk__cvode_attach_linear_solver(sk__cvode *cv)
{
  sk_context *ctx = cv->ctx;
  const int64_t n = sk_model_get_n(cv->model);
  memset(&cv->jac, 0, sizeof cv->jac);  /* n = 0: not fetched yet (jac_init_once) */
  SK_CALL_STOP(ctx, resolve_names(cv)); /* fills cv->jac when the run reads the Jacobian */
  const char *ls = cv->linsol;
  if (sk__linsol_is(NULL, ls, SK__LS_NONE)) {
    cv->NLS = SUNNonlinSol_FixedPoint(cv->y, 0, cv->sunctx);
    SK_CHECK(ctx, cv->NLS != NULL, SK_ERR_NOMEM, "cannot create the fixed-point iteration");
    SK_CHECK(ctx, CVodeSetNonlinearSolver(cv->mem, cv->NLS) == CV_SUCCESS, SK_ERR_SOLVER,
             "cannot attach the fixed-point iteration to CVODE");
    return SK_OK;
  }
  CVLsJacFn jac = NULL;
  if ((sk__linsol_is(NULL, ls, SK__LS_DENSE) || sk__linsol_is(NULL, ls, SK__LS_BAND))) {
    SK_CALL(ctx, sk__sun_matrix_direct(ctx, sk_stepper_get_type(cv->s)->name, ls, &cv->jac, cv->y,
                                       cv->sunctx, &cv->A, &cv->LS));
    /* CVODE's own difference quotients without a pattern, or without values when
       linsol.dq_jacobian = sundials */
    const int package_dq = sk_stepper_get_dq_jacobian(cv->s) == SK_DQ_JACOBIAN_SUNDIALS &&
                           !sk_model_has_jacobian_values(cv->model);
    jac = sk_model_has_jacobian(cv->model) && !package_dq ? jac_fn : NULL;
    cv->direct = 1;
  } else if (sk__linsol_is(ctx, ls, SK__LS_SPARSE)) {
    SK_CALL(ctx, make_sparse(cv, ls));
    jac = jac_fn;
    cv->direct = 1;
  } else {
    SK_CALL(ctx, make_krylov(cv, ls));
  }
  int flag = CVodeSetLinearSolver(cv->mem, cv->LS, cv->A);
  SK_CHECK(ctx, flag == CVLS_SUCCESS, SK_ERR_SOLVER,
           "cannot attach the %s solver to CVODE (flag %d)", ls, flag);
  if (cv->direct) {
    if (jac) {
      SK_CHECK(ctx, CVodeSetJacFn(cv->mem, jac) == CVLS_SUCCESS, SK_ERR_SOLVER,
               "cannot set the Jacobian function");
    }
    return SK_OK;
  }
  int maxl;
  double eps_lin;
  sk_stepper_get_krylov(cv->s, &maxl, &eps_lin);
  sk__krylov_resolve(0, &maxl, &eps_lin);
  SK_CHECK(ctx, CVodeSetEpsLin(cv->mem, eps_lin) == CVLS_SUCCESS, SK_ERR_SOLVER,
           "cannot set the linear tolerance factor");
  if (!strcmp(cv->prec, "model")) {
    flag = CVodeSetPreconditioner(cv->mem, prec_setup_model, prec_solve_model);
  } else if (!strcmp(cv->prec, "jacobi")) {
    cv->jdiag = sk__calloc(ctx, (size_t)n, sizeof *cv->jdiag);
    cv->pinv = N_VClone(cv->y);
    SK_CHECK(ctx, cv->jdiag != NULL && cv->pinv != NULL, SK_ERR_NOMEM,
             "cannot allocate the Jacobi preconditioner");
    flag = CVodeSetPreconditioner(cv->mem, prec_setup_jacobi, prec_solve_jacobi);
  } else if (!strcmp(cv->prec, "amg")) {
    SK_CALL(ctx, sk__amg_create(ctx, n, cv->jac.colptr, cv->jac.rowind, NULL, &cv->amg));
    cv->amg_have_jac = 0;
    cv->amg_built = 0;
    flag = CVodeSetPreconditioner(cv->mem, prec_setup_amg, prec_solve_amg);
  } else if (!strcmp(cv->prec, "mg")) {
    SK_CALL(ctx, sk__mg_create(ctx, sk__model_get_grid(cv->model), n, cv->jac.colptr,
                               cv->jac.rowind, &cv->s->mg, &cv->mg));
    cv->amg_have_jac = 0;
    cv->mg_model_setups = 0;
    sk__cvode_mg_handoff_reset(cv, 1);
    flag = CVodeSetPreconditioner(cv->mem, prec_setup_mg, prec_solve_mg);
  } else if ((cv->uprec = sk_preconditioner_type_find(ctx, cv->prec)) != NULL) {
    if (cv->uprec->create) {
      SK_CALL(ctx, cv->uprec->create(cv->model, &cv->uprec_state));
    }
    cv->uprec_created = 1;
    flag = CVodeSetPreconditioner(cv->mem, prec_setup_user, prec_solve_user);
  } else if (!strcmp(cv->prec, "bbd")) {
    SK_CALL(ctx, attach_bbd(cv));
    flag = CVLS_SUCCESS;
  } else {
    flag = CVLS_SUCCESS;
  }
  SK_CHECK(ctx, flag == CVLS_SUCCESS, SK_ERR_SOLVER, "cannot set the preconditioner (flag %d)",
           flag);
  if (sk_model_has_jtimes(cv->model)) { /* else CVODE's difference quotient */
    SK_CHECK(ctx, CVodeSetJacTimes(cv->mem, NULL, jtimes_model) == CVLS_SUCCESS, SK_ERR_SOLVER,
             "cannot set the Jacobian-vector product");
  }
  return SK_OK;
}

void sk__cvode_free_linear_solver(sk__cvode *cv)
{
  if (cv->LS) {
    SUNLinSolFree(cv->LS);
    cv->LS = NULL;
  }
  if (cv->A) {
    SUNMatDestroy(cv->A);
    cv->A = NULL;
  }
  if (cv->NLS) {
    SUNNonlinSolFree(cv->NLS);
    cv->NLS = NULL;
  }
  if (cv->pinv) {
    N_VDestroy(cv->pinv);
    cv->pinv = NULL;
  }
  sk__amg_destroy(&cv->amg);
  sk__mg_destroy(&cv->mg);
  if (cv->uprec_created && cv->uprec->destroy) {
    cv->uprec->destroy(cv->uprec_state);
  }
  cv->uprec = NULL;
  cv->uprec_state = NULL;
  cv->uprec_created = 0;
  cv->amg_have_jac = 0;
  cv->amg_built = 0;
  sk__free(cv->ctx, cv->jdiag);
  cv->jdiag = NULL;
  sk__sun_jac_free(cv->ctx, &cv->jac);
}

int64_t sk__cvode_linsol_factorizations(const sk__cvode *cv, long lin_setups)
{
  return cv->direct ? (int64_t)lin_setups : 0;
}

void sk__cvode_prec_report(const sk__cvode *cv, char *buf, size_t cap)
{
  sk__mg_report(cv->mg, cv->s->mg.cycles, buf, cap);
  const size_t len = strlen(buf);
  if (cv->mg && sk_model_has_preconditioner(cv->model) && len < cap) {
    char above[64] = "";
    if (isfinite(cv->mg_cap)) {
      snprintf(above, sizeof above, ", mg from gamma %.3g on", cv->mg_cap);
    }
    snprintf(buf + len, cap - len,
             "; %lld more by the model's preconditioner (linsol.mg_model_below %g, "
             "mg_model_max_lin %g%s)",
             (long long)cv->mg_model_setups, cv->s->mg.model_below, cv->s->mg.model_max_lin,
             above);
  }
}

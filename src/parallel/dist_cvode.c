/* src/parallel/dist_cvode.c: one rank's distributed run: construction, the agreed RHS, CVODE BDF + SPGMR on NVECTOR_PARALLEL, advance, stats */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cvodes/cvodes.h>
#include <cvodes/cvodes_bbdpre.h>
#include <cvodes/cvodes_ls.h>
#include <sunlinsol/sunlinsol_spgmr.h>

#include "core/error.h"
#include "parallel/dist_impl.h"
#include "steppers/stepper_impl.h"

/* Global component (serial ordering) of local state m. */
static int64_t global_component(const sk__dist *d, int64_t m, int64_t *node)
{
  const sk__dist_layout *L = &d->L;
  const int64_t ln = m / L->ncomp;
  const int64_t a = ln % L->cnt[0], b = (ln / L->cnt[0]) % L->cnt[1],
                c = ln / (L->cnt[0] * L->cnt[1]);
  *node = (L->lo[0] + a) + L->n[0] * ((L->lo[1] + b) + L->n[1] * (L->lo[2] + c));
  return *node * L->ncomp + m % L->ncomp;
}

/* Halo, local RHS and the NaN/Inf check on this rank only (not agreed). */
static sk_status eval_local(sk__dist *d, double t, const double *y, double *f)
{
  sk_context *ctx = d->ctx;
  if (sk__halo_exchange(d, y)) {
    return SK_ERROR(ctx, SK_ERR_SOLVER, "%s", d->halo.msg);
  }
  sk__dist_local_rhs(d, t, f);
  if (d->inject_local >= 0 && t >= d->inject_t) {
    f[d->inject_local] = NAN;
  }
  for (int64_t m = 0; m < d->L.nlocal; m++) {
    if (isfinite(f[m])) {
      continue;
    }
    int64_t node;
    const int64_t comp = global_component(d, m, &node);
    char name[96];
    const char *var = d->s.model->var(d->bm, (int)(comp % d->L.ncomp));
    sk__grid_node_name(d->B.g, var, node, name, sizeof name);
    return SK_ERROR(ctx, SK_ERR_NONFINITE,
                    "right-hand side of model '%s' returned %g at t=%.6e in component %lld (%s) "
                    "on rank %d",
                    d->s.model->name(d->bm), f[m], t, (long long)comp, name, d->L.rank);
  }
  return SK_OK;
}

/* CVRhsFn: the RHS with its failure agreed, so that CVODE takes the same
 * path on every rank. NaN/Inf is recoverable twice in a row (CVODE cuts
 * the step), then fatal, as in the serial backend; a halo failure is fatal. */
static int rhs_cb(sk_sunreal t, N_Vector y, N_Vector ydot, void *ud)
{
  sk__dist *d = ud;
  const sk_status st = eval_local(d, t, N_VGetArrayPointer(y), N_VGetArrayPointer(ydot));
  if (st != SK_OK) {
    sk__dist_callback_failed(d);
  }
  int flags = st == SK_OK ? 0 : (st == SK_ERR_NONFINITE ? 1 : 2);
  MPI_Allreduce(MPI_IN_PLACE, &flags, 1, MPI_INT, MPI_MAX, d->comm);
  if (!flags) { /* an earlier failure was recovered from: it is no cause of a later one */
    d->nonfinite_streak = 0;
    d->have_cb_error = 0;
    return 0;
  }
  return flags == 1 && ++d->nonfinite_streak <= 2 ? 1 : -1;
}

sk_status sk__dist_eval_rhs(sk__dist *d, double t, const double *y_local, double *f_local)
{
  SK_CALL(d->ctx, sk__dist_agree(d->ctx, d->comm, eval_local(d, t, y_local, f_local)));
  return SK_OK;
}

sk_status sk__dist_halo_values(sk__dist *d, const double *y_local, const double **ghosted)
{
  sk_status st = SK_OK;
  if (sk__halo_exchange(d, y_local)) {
    st = SK_ERROR(d->ctx, SK_ERR_SOLVER, "%s", d->halo.msg);
  }
  SK_CALL(d->ctx, sk__dist_agree(d->ctx, d->comm, st));
  *ghosted = d->B.ug;
  return SK_OK;
}

sk_status sk__dist_inject_nan(sk__dist *d, int64_t global_component, double t)
{
  const sk__dist_layout *L = &d->L;
  SK_CHECK(d->ctx, global_component >= 0 && global_component < L->nglobal, SK_ERR_ARG,
           "NaN injection: component %lld outside [0, %lld)", (long long)global_component,
           (long long)L->nglobal);
  const int64_t node = global_component / L->ncomp;
  const int64_t ijk[3] = {node % L->n[0], (node / L->n[0]) % L->n[1], node / (L->n[0] * L->n[1])};
  d->inject_local = -1;
  d->inject_global = global_component;
  d->inject_t = t;
  int64_t l[3];
  for (int k = 0; k < 3; k++) {
    l[k] = ijk[k] - L->lo[k];
    if (l[k] < 0 || l[k] >= L->cnt[k]) {
      return SK_OK; /* another rank's */
    }
  }
  d->inject_local =
      L->ncomp * (l[0] + L->cnt[0] * (l[1] + L->cnt[1] * l[2])) + global_component % L->ncomp;
  return SK_OK;
}

void sk__dist_inject_halo_short(sk__dist *d, int missing)
{
  d->halo.missing = missing;
}

/* A CVODE setter's flag as our status, with the call named. */
static sk_status cv_check(sk__dist *d, int flag, const char *what)
{
  if (flag >= 0) {
    return SK_OK;
  }
  const char *name = NULL;
  const sk_status st = sk__status_from_cvode(flag, &name);
  SK_ERROR(d->ctx, st, "CVODE: cannot %s: %s", what, d->messages.msg);
  sk__error_set_foreign(d->ctx, flag, name);
  return st;
}

/* Vectors, CVODE, SPGMR (local calls only). */
static sk_status setup_cvode(sk__dist *d)
{
  sk_context *ctx = d->ctx;
  const sk__dist_settings *s = &d->s;
  SK_CHECK(ctx, SK_SUNCONTEXT_CREATE(&d->sunctx) == 0 && d->sunctx, SK_ERR_NOMEM,
           "cannot create the SUNDIALS context");
  d->y =
      N_VNew_Parallel(d->comm, (sunindextype)d->L.nlocal, (sunindextype)d->L.nglobal, d->sunctx);
  SK_CHECK(ctx, d->y != NULL, SK_ERR_NOMEM, "cannot create the parallel state vector");
  sk__dist_nvector_guard_clone(d->y);
  if (s->fast_ops) { /* before CVodeInit: CVODE's vectors are clones of y */
    sk__dist_nvector_use_fast_ops(d->y);
  }
  s->model->initial(d->bm, &d->B, s->t0, N_VGetArrayPointer(d->y));
  d->mem = CVodeCreate(CV_BDF, d->sunctx);
  SK_CHECK(ctx, d->mem != NULL, SK_ERR_NOMEM, "cannot create CVODE");
  SK_CHECK(ctx, sk__cvode_capture_messages(d->mem, d->sunctx, &d->messages) == 0, SK_ERR_SOLVER,
           "cannot install the CVODE message handler");
  SK_CALL(ctx, cv_check(d, CVodeInit(d->mem, rhs_cb, s->t0, d->y), "initialize"));
  SK_CALL(ctx, cv_check(d, CVodeSetUserData(d->mem, d), "set user data"));
  SK_CALL(ctx, cv_check(d, CVodeSStolerances(d->mem, s->rtol, s->atol), "set tolerances"));
  /* one step per CVode call: the budget solver.max_steps is checked by sk__dist_advance */
  SK_CALL(ctx, cv_check(d, CVodeSetMaxNumSteps(d->mem, 1000000000L), "set the step limit"));
  if (s->max_order > 0) {
    SK_CALL(ctx, cv_check(d, CVodeSetMaxOrd(d->mem, (int)s->max_order), "set the maximum order"));
  }
  if (s->h0 > 0) {
    SK_CALL(ctx, cv_check(d, CVodeSetInitStep(d->mem, s->h0), "set the initial step"));
  }
  if (s->hmin > 0) {
    SK_CALL(ctx, cv_check(d, CVodeSetMinStep(d->mem, s->hmin), "set the minimum step"));
  }
  if (s->hmax > 0) {
    SK_CALL(ctx, cv_check(d, CVodeSetMaxStep(d->mem, s->hmax), "set the maximum step"));
  }
  const int pretype = strcmp(s->prec, "none") ? SUN_PREC_LEFT : SUN_PREC_NONE;
  int maxl = (int)s->maxl; /* 0: stiffkit's defaults, as the serial cvode-bdf */
  double eps_lin = s->eps_lin;
  sk__krylov_resolve(0, &maxl, &eps_lin);
  d->LS = SUNLinSol_SPGMR(d->y, pretype, maxl, d->sunctx);
  SK_CHECK(ctx, d->LS != NULL, SK_ERR_NOMEM, "cannot create SPGMR");
  SK_CALL(ctx, cv_check(d, CVodeSetLinearSolver(d->mem, d->LS, NULL), "attach SPGMR"));
  SK_CALL(ctx, cv_check(d, CVodeSetEpsLin(d->mem, eps_lin), "set linsol.eps_lin"));
  return SK_OK;
}

/* Everything after the settings; every step agreed before the next collective one. */
static sk_status build(sk__dist *d, MPI_Comm comm, const sk_options *opts)
{
  sk_context *ctx = d->ctx;
  SK_CALL(ctx, sk__dist_agree(ctx, comm, sk__dist_setup_layout(d, comm)));
  sk_status st = d->s.model->create(ctx, opts, &d->B, &d->bm);
  st = st == SK_OK ? sk__halo_init(d) : st;
  /* agreed before setup_cvode, whose N_VNew_Parallel is collective */
  SK_CALL(ctx, sk__dist_agree(ctx, d->comm, st));
  SK_CALL(ctx, sk__dist_agree(ctx, d->comm, setup_cvode(d)));
  SK_CALL(ctx, sk__dist_attach_prec(d));
  return SK_OK;
}

sk_status sk__dist_create(sk_context *ctx, MPI_Comm comm, const sk_options *opts, sk__dist **out)
{
  SK_CHECK(ctx, out != NULL && opts != NULL, SK_ERR_ARG, "sk__dist_create: NULL argument");
  *out = NULL;
  int nranks = 1;
  MPI_Comm_size(comm, &nranks);
  sk__dist_settings s;
  SK_CALL(ctx, sk__dist_agree(ctx, comm, sk__dist_read_settings(ctx, opts, nranks, &s)));
  sk__dist *d = sk__calloc(ctx, 1, sizeof *d);
  sk_status st = d ? SK_OK : SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the distributed run");
  st = sk__dist_agree(ctx, comm, st);
  if (st != SK_OK) {
    sk__free(ctx, d);
    return st;
  }
  d->ctx = ctx;
  d->s = s;
  d->t_out = s.t0;
  d->comm = MPI_COMM_NULL;
  d->inject_local = -1;
  d->inject_global = -1;
  st = build(d, comm, opts);
  if (st != SK_OK) {
    sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
    sk__dist_destroy(&d);
    return st;
  }
  *out = d;
  return SK_OK;
}

const sk__dist_layout *sk__dist_get_layout(const sk__dist *d)
{
  return &d->L;
}

void sk__dist_set_monitor(sk__dist *d, int (*fn)(double t, double h, void *data), void *data)
{
  d->monitor = fn;
  d->monitor_data = data;
}

/* A failed CVode() call as this rank's error record. */
static sk_status cvode_failure(sk__dist *d, int flag)
{
  const char *name = NULL;
  sk_status st = sk__status_from_cvode(flag, &name);
  sk_sunreal t = 0, h = 0;
  CVodeGetCurrentTime(d->mem, &t);
  CVodeGetCurrentStep(d->mem, &h);
  char cause[SK_ERROR_MSG_LEN / 2] = "";
  if (d->have_cb_error) {
    snprintf(cause, sizeof cause, "; cause: %.480s", d->cb_error.message);
    if (d->cb_error.code == SK_ERR_NONFINITE && flag <= CV_RHSFUNC_FAIL &&
        flag >= CV_UNREC_RHSFUNC_ERR) {
      st = SK_ERR_NONFINITE;
    }
  }
  SK_ERROR(d->ctx, st,
           "CVODE failed at t=%.6e (h=%.3e): %s (spgmr, preconditioner %s, %d ranks)%s", t, h,
           sk_status_str(st), d->L.prec, d->L.nranks, cause);
  sk__error_set_foreign(d->ctx, flag, name);
  return st;
}

sk_status sk__dist_advance(sk__dist *d, double tout, double *t)
{
  sk_context *ctx = d->ctx;
  const double w0 = MPI_Wtime();
  sk_sunreal tcur = 0;
  sk_status st = SK_OK;
  CVodeGetCurrentTime(d->mem, &tcur);
  d->have_cb_error = 0;
  if (!(tout >= d->s.t0) || !isfinite(tout)) {
    st = SK_ERROR(ctx, SK_ERR_ARG, "output time %g is before solver.t0 = %g", tout, d->s.t0);
  }
  while (st == SK_OK && tcur < tout) {
    long nst = 0;
    CVodeGetNumSteps(d->mem, &nst);
    if (nst >= d->s.max_steps) {
      st = SK_ERROR(ctx, SK_ERR_TOO_MUCH_WORK,
                    "solver.max_steps = %lld steps taken at t=%.6e before the output time %g",
                    (long long)d->s.max_steps, tcur, tout);
      break;
    }
    const int flag = CVode(d->mem, tout, d->y, &tcur, CV_ONE_STEP);
    if (flag < 0) {
      st = cvode_failure(d, flag);
      break;
    }
    sk_sunreal h = 0;
    CVodeGetLastStep(d->mem, &h);
    if (d->monitor && d->monitor(tcur, h, d->monitor_data)) {
      st = SK_INTERRUPTED;
    }
  }
  /* the state at tout, or at the last successful step */
  CVodeGetCurrentTime(d->mem, &tcur);
  const double tget = st == SK_OK ? tout : tcur;
  if (CVodeGetDky(d->mem, tget, 0, d->y) == CV_SUCCESS) {
    *t = tget;
  } else {
    *t = tcur;
  }
  d->t_out = *t;
  d->wall += MPI_Wtime() - w0;
  st = sk__dist_agree_ex(ctx, d->comm, st, d->have_cb_error);
  return st;
}

void sk__dist_get_stats(const sk__dist *d, sk_stats *st)
{
  memset(st, 0, sizeof *st);
  long nst = 0, nfe = 0, nsetups = 0, netf = 0, nni = 0, ncfn = 0, nli = 0, nlcf = 0, nps = 0,
       npe = 0, nfels = 0, ngloc = 0;
  int qlast = 0, qcur = 0;
  sk_sunreal h0u = 0, hlast = 0, hcur = 0, tcur = 0;
  CVodeGetIntegratorStats(d->mem, &nst, &nfe, &nsetups, &netf, &qlast, &qcur, &h0u, &hlast, &hcur,
                          &tcur);
  CVodeGetNonlinSolvStats(d->mem, &nni, &ncfn);
  CVodeGetNumLinIters(d->mem, &nli);
  CVodeGetNumLinConvFails(d->mem, &nlcf);
  CVodeGetNumPrecEvals(d->mem, &npe);
  CVodeGetNumPrecSolves(d->mem, &nps);
  CVodeGetNumLinRhsEvals(d->mem, &nfels);
  const int bbd = !strcmp(d->L.prec, "bbd");
  if (bbd) {
    CVBBDPrecGetNumGfnEvals(d->mem, &ngloc); /* local RHS calls of the difference quotients */
  }
  st->steps = nst;
  st->failed_steps = netf;
  st->rhs_evals = nfe + nfels + ngloc;
  st->rhs_evals_dq = nfels + ngloc;
  st->newton_iters = nni;
  st->newton_fails = ncfn;
  st->jac_evals = bbd ? npe : d->prec_jac_evals;
  st->lin_setups = nsetups;
  st->lin_iters = nli;
  st->lin_conv_fails = nlcf;
  st->prec_setups = strcmp(d->L.prec, "none") ? nsetups : 0;
  st->prec_solves = nps;
  st->amg_hierarchies = d->amg ? nsetups : 0; /* one at every setup */
  st->last_order = qlast;
  st->last_h = hlast;
  st->t = d->t_out;
  st->wall_time = d->wall;
}

void sk__dist_describe_yaml(const sk__dist *d, FILE *out)
{
  const sk__dist_layout *L = &d->L;
  int64_t halo = 0;
  for (int k = 0; k < L->dim; k++) {
    for (int s = 0; s < 2; s++) {
      halo += d->halo.nb[k][s] != MPI_PROC_NULL ? d->halo.face[k] : 0;
    }
  }
  fprintf(out, "ranks: %d\n", L->nranks);
  fprintf(out, "process_grid: [%d", L->procs[0]);
  for (int k = 1; k < L->dim; k++) {
    fprintf(out, ", %d", L->procs[k]);
  }
  fprintf(out, "]\nblock_nodes: [%lld", (long long)L->cnt[0]);
  for (int k = 1; k < L->dim; k++) {
    fprintf(out, ", %lld", (long long)L->cnt[k]);
  }
  fprintf(out, "]\nrank: %d\nblock_first_node: [%lld", L->rank, (long long)L->lo[0]);
  for (int k = 1; k < L->dim; k++) {
    fprintf(out, ", %lld", (long long)L->lo[k]);
  }
  fprintf(out, "]\nlocal_states: %lld\n", (long long)L->nlocal);
  fprintf(out, "preconditioner: %s\n", L->prec);
  if (!strcmp(L->prec, "bbd")) {
    fprintf(out, "bbd_half_bandwidth: {difference_quotient: %lld, kept: %lld}\n",
            (long long)L->bbd_band[0], (long long)L->bbd_band[1]);
  }
  if (d->mg) {
    char line[256];
    sk__mg_report(d->mg, d->s.mg.cycles, line, sizeof line);
    fprintf(out, "multigrid: \"%s\"\n", line);
  }
  fprintf(out, "halo_bytes_per_exchange: %lld\n", (long long)(halo * (int64_t)sizeof(double)));
}

void sk__dist_prec_report(const sk__dist *d, char *buf, size_t cap)
{
  sk__mg_report(d->mg, d->s.mg.cycles, buf, cap);
}

void sk__dist_destroy(sk__dist **dp)
{
  if (!dp || !*dp) {
    return;
  }
  sk__dist *d = *dp;
  sk_context *ctx = d->ctx;
  if (d->mem) {
    CVodeFree(&d->mem);
  }
  if (d->LS) {
    SUNLinSolFree(d->LS);
  }
  if (d->y) {
    N_VDestroy(d->y);
  }
  if (d->sunctx) {
    SUNContext_Free(&d->sunctx);
  }
  sk__dist_free_prec(d);
  sk__halo_free(d);
  if (d->bm) {
    d->s.model->destroy(&d->bm);
  }
  sk__free(ctx, d->B.ug);
  sk__free(ctx, d->rank_of);
  if (d->comm != MPI_COMM_NULL) {
    MPI_Comm_free(&d->comm);
  }
  sk__free(ctx, d);
  *dp = NULL;
}

/* src/multibody/multibody_simulate.c: the simulation loop of a mechanism: engine, output times, drift and energy monitoring, projection and repartitioning restarts, event log */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "models/multibody_impl.h"
#include "linsol/linsol_keys.h"
#include "stiffkit/stepper.h"

/* The Newton-test weight of the GGL multipliers: values from 1e-4 to 1e6 ran the pendula, the
 * slider-crank and the four-bar to the same drift and energy balance (1e-6 failed at t0); the
 * multipliers agree with the block-system ones to ~3e-6 relative at rtol 1e-8 from 1e-3 down. */
#define ALG_ATOL 1e-3

/* One engine segment: a model of the formulation from (t, q, v) and its stepper. */
typedef struct {
  sk_model *model;
  sk_stepper *stepper;
  double w0;     /* the work done before this segment */
  double h0_cap; /* GGL: start from the positions' Taylor step, at most this (ggl_first_step) */
} segment;

static void segment_free(segment *g)
{
  sk_stepper_destroy(&g->stepper);
  sk_model_destroy(&g->model);
}

sk_status sk_multibody_check_method(sk_multibody *mech, const sk_multibody_settings *s,
                                    const char *method)
{
  sk_context *ctx = mech->ctx;
  const sk_stepper_type *type = sk_stepper_type_find(ctx, method);
  SK_CHECK(ctx, type != NULL, SK_ERR_INPUT, "solver.method: no engine named '%s'", method);
  SK_CHECK(ctx, s->formulation != SK_MULTIBODY_GGL || (type->flags & SK_STEPPER_HANDLES_DAE),
           SK_ERR_UNSUPPORTED,
           "the GGL formulation is a DAE: '%s' cannot integrate it (use ida-bdf, or "
           "multibody.formulation index1 / reduced)",
           method);
  SK_CHECK(ctx, mech->ne == 0 || (type->flags & SK_STEPPER_EVENTS), SK_ERR_UNSUPPORTED,
           "'%s' does not locate events, and the mechanism has %d (events: in the file); use "
           "%s, or remove the events",
           method, mech->ne,
           s->formulation == SK_MULTIBODY_GGL ? "ida-bdf" : "cvode-bdf or cvode-adams");
  SK_CHECK(
      ctx, !s->project || s->formulation == SK_MULTIBODY_INDEX1, SK_ERR_INPUT,
      "multibody.projection applies to the index1 formulation only (%s keeps the constraints by "
      "construction)",
      s->formulation == SK_MULTIBODY_GGL ? "ggl" : "reduced");
  SK_CHECK(ctx, !s->project || !strcmp(method, "cvode-bdf"), SK_ERR_UNSUPPORTED,
           "projection after every step needs cvode-bdf (CVODE's projection interface); '%s' "
           "cannot project",
           method);
  return SK_OK;
}

/* GGL's first step when none is given. IDA's own estimate bounds h ||y'0||_WRMS by 1/2; with
 * the velocities' weight 1/atol at rest that made h0 about 1e-15 at rtol 1e-11, where the
 * index-2 Newton iteration (condition ~ 1/h^2) failed at t0 for every h after it (the double
 * pendulum, the slider-crank, the four-bar from rtol 1e-11 on), or the steps stayed near 1e-13
 * (the pendulum at 1e-12). The positions' Taylor term instead: h^2/2 ||a0||_WRMS = 1 (a0 = v'0,
 * the weights of q), at most `cap` (1e-3 of the first output interval, IDA's own bound): every
 * mechanism of data/ then runs from rtol 1e-6 to 1e-12. */
static sk_status ggl_first_step(sk_stepper *st, const sk_model *model, int n, double t,
                                double rtol, double atol, double cap)
{
  double h0, hmin, hmax;
  sk_stepper_get_step_limits(st, &h0, &hmin, &hmax);
  if (h0 > 0) {
    return SK_OK;
  }
  const int64_t ny = sk_model_get_n(model);
  sk_context *ctx = sk_model_get_context(model);
  double *y = sk__malloc(ctx, 2 * (size_t)ny * sizeof *y), *yp = y + ny;
  SK_CHECK(ctx, y != NULL, SK_ERR_NOMEM, "cannot allocate the first step's estimate");
  sk_status rc = sk_model_eval_dae_initial((sk_model *)model, t, y, yp);
  double sum = 0.0;
  for (int i = 0; rc == SK_OK && i < n; i++) {
    const double w = (yp[n + i]) / (rtol * fabs(y[i]) + atol); /* a0 over the weight of q_i */
    sum += w * w;
  }
  sk__free(ctx, y);
  SK_CALL(ctx, rc);
  const double norm = sqrt(sum / (double)n);
  return norm > 0 ? sk_stepper_set_step_limits(st, fmin(sqrt(2.0 / norm), cap), hmin, hmax)
                  : SK_OK;
}

/* 1 when the database gives linsol.type (linsol/linsol_keys.h) */
static int linsol_given(const sk_options *opts)
{
  sk__linsol_settings ls;
  uint64_t given = 0;
  return opts && sk__linsol_keys_registered(opts) &&
         sk__linsol_settings_read(opts, &ls, &given) == SK_OK && SK__LINSOL_GIVEN(given, type);
}

static sk_status segment_start(sk_multibody *mech, const sk_multibody_settings *s,
                               const char *method, double rtol, double atol,
                               const sk_options *opts, double t, const double *q, const double *v,
                               double w0, segment *g)
{
  sk_context *ctx = mech->ctx;
  g->w0 = w0;
  SK_CALL(ctx, sk_multibody_model(mech, s, t, q, v, &g->model));
  sk_status st = sk_stepper_create(ctx, method, g->model, &g->stepper);
  if (st == SK_OK && opts) {
    st = sk_stepper_set_from_options(g->stepper, opts);
  }
  if (st == SK_OK) {
    st = sk_stepper_set_tolerances(g->stepper, rtol, atol);
  }
  if (st == SK_OK && s->formulation == SK_MULTIBODY_GGL) {
    /* the index-2 multipliers are out of the error test; in the Newton convergence test their
       corrections scale like 1/h, so they get a loose weight there (their accuracy follows from
       the differential components) */
    const int64_t ny = sk_model_get_n(g->model);
    const int *id = sk_model_get_differential(g->model);
    double *atolv = sk__malloc(ctx, (size_t)ny * sizeof *atolv);
    st = atolv ? SK_OK : SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the tolerances");
    for (int64_t i = 0; st == SK_OK && i < ny; i++) {
      atolv[i] = id[i] ? atol : ALG_ATOL;
    }
    if (st == SK_OK) {
      st = sk_stepper_set_atol_vector(g->stepper, atolv);
    }
    sk__free(ctx, atolv);
  }
  if (st == SK_OK) {
    const int64_t ny = sk_model_get_n(g->model);
    double *y0 = sk__malloc(ctx, (size_t)ny * sizeof *y0);
    st = y0 ? SK_OK : SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the initial state");
    if (st == SK_OK) {
      if (sk_model_get_kind(g->model) == SK_MODEL_DAE) {
        double *yp0 = sk__malloc(ctx, (size_t)ny * sizeof *yp0);
        st = yp0 ? sk_model_eval_dae_initial(g->model, t, y0, yp0)
                 : SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the initial state");
        sk__free(ctx, yp0);
      } else {
        st = sk_model_eval_initial(g->model, t, y0);
      }
    }
    if (st == SK_OK) {
      st = sk_stepper_set_initial(g->stepper, t, y0);
    }
    sk__free(ctx, y0);
  }
  /* dense unless linsol.type is given: the mechanisms are small and their Jacobians full */
  if (st == SK_OK && !linsol_given(opts) &&
      (sk_model_get_kind(g->model) == SK_MODEL_DAE || !strncmp(method, "cvode", 5))) {
    st = sk_stepper_set_linear_solver(g->stepper, "dense");
  }
  if (st == SK_OK && s->formulation == SK_MULTIBODY_GGL && g->h0_cap > 0) {
    st = ggl_first_step(g->stepper, g->model, 3 * mech->nb, t, rtol, atol, g->h0_cap);
  }
  if (st == SK_OK) {
    sk_stepper_set_detect_pattern(g->stepper, SK_DETECT_PATTERN_OFF);
    st = sk_stepper_setup(g->stepper);
  }
  if (st != SK_OK) {
    segment_free(g);
    sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
  }
  return st;
}

/* What the monitor carries from output to output. */
typedef struct {
  double t0_kinetic, t0_potential; /* the energies at t0 */
  double scale;                    /* max over outputs of T + |V - V0| + |W| */
  double imbalance;                /* max over outputs of |E - E0 - W| */
  double sum_sq;
  size_t count;
} monitor_state;

/* The monitor at one output: drift, the energy balance relative to the energies in play
 * (not to E, which can be near 0 while T is large), cond(G) and the toggle warning. */
static sk_status monitor(sk_multibody *mech, const sk_multibody_settings *s, double t,
                         const double *q, const double *v, double work, monitor_state *ms,
                         sk_multibody_report *rep, sk_multibody_sample *sample)
{
  double pmax, dmax;
  SK_CALL(mech->ctx, sk_multibody_residuals(mech, t, q, v, &pmax, &dmax));
  rep->phi_max = fmax(rep->phi_max, pmax);
  rep->dphi_max = fmax(rep->dphi_max, dmax);
  ms->sum_sq += pmax * pmax;
  ms->count++;
  rep->phi_rms = sqrt(ms->sum_sq / (double)ms->count);
  rep->length_scale = sk_multibody_length_scale(mech);
  double T, V;
  sk_multibody_energy(mech, q, v, &T, &V);
  const double e0 = ms->t0_kinetic + ms->t0_potential;
  ms->scale = fmax(ms->scale, fmax(T + fabs(V - ms->t0_potential) + fabs(work), ms->t0_kinetic));
  ms->imbalance = fmax(ms->imbalance, fabs(T + V - e0 - work));
  rep->energy_scale = ms->scale;
  rep->balance_max = ms->scale > 0 ? ms->imbalance / ms->scale : ms->imbalance;
  const double cond = sk_multibody_condition(mech, t, q);
  rep->cond_max = fmax(rep->cond_max, cond);
  *sample = (sk_multibody_sample){.phi_max = pmax,
                                  .dphi_max = dmax,
                                  .energy = T + V,
                                  .work = work,
                                  .balance = T + V - e0 - work,
                                  .cond = isfinite(cond) ? cond : 1e300};
  if (cond > s->cond_limit && isnan(rep->cond_warn_t)) {
    rep->cond_warn_t = t;
    sk__log(mech->ctx, SK_LOG_WARN,
            "%s: the constraint Jacobian is nearly singular at t = %.6g: cond(G) = %.3e > %.3e "
            "(rows and columns equilibrated); the mechanism is near a toggle (singular) "
            "configuration, where multipliers and accelerations grow and the engine cuts its "
            "steps",
            mech->file, t, cond, s->cond_limit);
  }
  return SK_OK;
}

/* Log the events located in this segment since `seen`. */
static void log_events(sk_multibody *mech, const segment *g, size_t *seen,
                       sk_multibody_report *rep)
{
  const sk_event_record *ev;
  size_t nev;
  sk_stepper_get_events(g->stepper, &ev, &nev);
  for (; *seen < nev; (*seen)++) {
    const sk__multibody_event *e = &mech->events[ev[*seen].index];
    sk__log(mech->ctx, SK_LOG_INFO, "event '%s' at t = %.9g (%s crossed %g, %s)", e->name,
            ev[*seen].t, mech->bodies[e->body].name, e->value,
            ev[*seen].direction > 0 ? "rising" : "falling");
    if (rep->nevents < SK_MULTIBODY_MAX_EVENT_LOG) {
      rep->events[rep->nevents] = ev[*seen];
    }
    rep->nevents++;
  }
}

static void add_stats(segment *g, sk_multibody_report *rep)
{
  sk_stats st;
  if (g->stepper && sk_stepper_get_stats(g->stepper, &st) == SK_OK) {
    sk_stats_add(&rep->stats, &st);
  }
}

/* Reduced coordinates: after every step, ask for a new partition once cond(G_D) has grown by
 * the settings' factor (the interrupted advance returns SK_INTERRUPTED with this flag set). */
typedef struct {
  const sk_model *model;
  double growth;
  double target; /* the output time being advanced to */
  int wanted;
} repartition_watch;

/* The monitor sees the time the engine returned: a step's end before the output, or the
 * output itself once a step passed it. Only a request before the output interrupts; one at
 * the output stands, and the partition is renewed there. */
static int watch_partition(const sk_stepper *st, double t, double h, void *data)
{
  (void)h;
  repartition_watch *w = data;
  w->wanted =
      w->wanted || sk_multibody_reduced_growth(w->model, t, sk_stepper_get_state(st)) > w->growth;
  return w->wanted && t <= w->target;
}

/* The sensitivities a simulation carries: parameters, scales and dq/dp, dv/dp at a sample. */
typedef struct {
  int np;
  int *param;
  double *pbar, *sens, *y; /* np, np x 2n, the engine's state length */
} sens_sample;

static void sens_free(sk_context *ctx, sens_sample *ss)
{
  sk__free(ctx, ss->param);
  sk__free(ctx, ss->pbar);
  sk__free(ctx, ss->sens);
  sk__free(ctx, ss->y);
  memset(ss, 0, sizeof *ss);
}

/* The sensitivities the first segment's engine integrates (none: np = 0); refused where the
 * formulation moves the state without them. */
static sk_status sens_open(sk_multibody *mech, const sk_multibody_settings *s, const segment *g,
                           sens_sample *ss)
{
  sk_context *ctx = mech->ctx;
  const int n = 3 * mech->nb, np = sk_stepper_get_nsens(g->stepper);
  if (np == 0) {
    return SK_OK;
  }
  SK_CHECK(ctx, s->formulation != SK_MULTIBODY_REDUCED && !s->project, SK_ERR_UNSUPPORTED,
           "solver.sensitivity.parameters: %s moves the state but not its sensitivities; "
           "mechanism sensitivities need multibody.formulation index1 (without "
           "multibody.projection) or ggl",
           s->project ? "the projection after every step"
                      : "a repartition of the reduced "
                        "coordinates");
  ss->param = sk__malloc(ctx, (size_t)np * sizeof *ss->param);
  ss->pbar = sk__malloc(ctx, (size_t)np * sizeof *ss->pbar);
  ss->sens = sk__malloc(ctx, (size_t)np * 2 * (size_t)n * sizeof *ss->sens);
  ss->y = sk__malloc(ctx, (size_t)sk_model_get_n(g->model) * sizeof *ss->y);
  ss->np = np;
  SK_CHECK(ctx, ss->param && ss->pbar && ss->sens && ss->y, SK_ERR_NOMEM,
           "cannot allocate the sensitivities");
  for (int j = 0; j < np; j++) {
    ss->param[j] = sk_stepper_get_sens_param(g->stepper, j);
    ss->pbar[j] = sk_stepper_get_sens_pbar(g->stepper, j);
  }
  return SK_OK;
}

/* dq/dp_j and dv/dp_j at the engine's time into the sample (index1 and GGL states begin with
 * q, v). */
static sk_status sens_fill(sk_multibody *mech, const segment *g, sens_sample *ss,
                           sk_multibody_sample *sample)
{
  const int n = 3 * mech->nb;
  for (int j = 0; j < ss->np; j++) {
    SK_CALL(mech->ctx, sk_stepper_get_sensitivity(g->stepper, j, ss->y));
    memcpy(ss->sens + (size_t)j * 2 * (size_t)n, ss->y, 2 * (size_t)n * sizeof *ss->y);
  }
  sample->nsens = ss->np;
  sample->sens_param = ss->param;
  sample->sens_pbar = ss->pbar;
  sample->sens = ss->np ? ss->sens : NULL;
  return SK_OK;
}

/* A new segment from the current state: the same formulation (a reduced model chooses its
 * partition anew) at (t, q, v), the work so far carried over. */
static sk_status restart(sk_multibody *mech, const sk_multibody_settings *s, const char *method,
                         double rtol, double atol, const sk_options *opts, double t,
                         const double *q, const double *v, double work, segment *g,
                         repartition_watch *w, sk_multibody_report *rep)
{
  add_stats(g, rep);
  segment_free(g);
  rep->restarts++;
  SK_CALL(mech->ctx, segment_start(mech, s, method, rtol, atol, opts, t, q, v, work, g));
  if (s->formulation == SK_MULTIBODY_REDUCED) {
    w->model = g->model;
    w->wanted = 0;
    sk_stepper_set_monitor(g->stepper, watch_partition, w);
  }
  return SK_OK;
}

sk_status sk_multibody_simulate(sk_multibody *mech, const sk_multibody_settings *s, int project,
                                const char *method, double rtol, double atol,
                                const sk_options *opts, double t0, const double *q0,
                                const double *v0, const double *times, size_t ntimes,
                                sk_multibody_output_fn out, void *user_data,
                                sk_multibody_report *rep)
{
  sk_context *ctx = mech->ctx;
  const int n = 3 * mech->nb, m = mech->m;
  memset(rep, 0, sizeof *rep);
  sk_multibody_settings local = *s;
  local.project = local.project || project;
  local.repartition = local.repartition > 1.0 ? local.repartition : 4.0;
  s = &local;
  rep->cond_warn_t = NAN;
  SK_CALL(ctx, sk_multibody_check_method(mech, s, method));
  double *buf = sk__malloc(ctx, (size_t)(2 * n + m + 1) * sizeof *buf);
  SK_CHECK(ctx, buf != NULL, SK_ERR_NOMEM, "cannot allocate the simulation");
  double *q = buf, *v = q + n, *lam = v + n;
  memcpy(q, q0, (size_t)n * sizeof *q);
  memcpy(v, v0, (size_t)n * sizeof *v);
  monitor_state ms = {.scale = 0.0};
  sk_multibody_sample sample;
  sk_multibody_energy(mech, q, v, &ms.t0_kinetic, &ms.t0_potential);
  size_t seen = 0;
  segment g = {.h0_cap = ntimes > 0 ? 1e-3 * fabs(times[0] - t0) : 0.0};
  sens_sample ss = {0};
  repartition_watch w = {.growth = s->repartition};
  sk_status st = restart(mech, s, method, rtol, atol, opts, t0, q, v, 0.0, &g, &w, rep);
  rep->restarts = 0;
  if (st == SK_OK) {
    st = sens_open(mech, s, &g, &ss);
  }
  if (st == SK_OK) {
    st = sk_multibody_accelerations(mech, t0, q, v, 0.0, 0.0, NULL, lam);
  }
  if (st == SK_OK) {
    st = monitor(mech, s, t0, q, v, 0.0, &ms, rep, &sample);
  }
  if (st == SK_OK) {
    st = sens_fill(mech, &g, &ss, &sample);
  }
  if (st == SK_OK && out && out(t0, q, v, lam, &sample, user_data)) {
    st = SK_INTERRUPTED;
  }
  for (size_t k = 0; st == SK_OK && k < ntimes; k++) {
    double tret;
    w.target = times[k];
    st = sk_stepper_advance(g.stepper, times[k], &tret);
    log_events(mech, &g, &seen, rep);
    const int repartition = w.wanted && (st == SK_OK || st == SK_INTERRUPTED);
    if (repartition && st == SK_INTERRUPTED) { /* a new partition from the last step, then on */
      const double ti = sk_stepper_get_time(g.stepper);
      const double *y = sk_stepper_get_state(g.stepper);
      const double work = g.w0 + y[sk_model_get_n(g.model) - 1];
      SK_CALL_GOTO(ctx, st, sk_multibody_state(mech, g.model, ti, y, q, v, NULL), done);
      rep->repartitions++;
      seen = 0;
      SK_CALL_GOTO(ctx, st,
                   restart(mech, s, method, rtol, atol, opts, ti, q, v, work, &g, &w, rep), done);
      k--; /* the same output time again */
      continue;
    }
    if (st != SK_OK) {
      break;
    }
    const double *y = sk_stepper_get_state(g.stepper);
    const double work = g.w0 + y[sk_model_get_n(g.model) - 1];
    SK_CALL_GOTO(ctx, st, sk_multibody_state(mech, g.model, tret, y, q, v, lam), done);
    rep->projection_max = fmax(rep->projection_max, sk_multibody_projection_max(g.model));
    SK_CALL_GOTO(ctx, st, monitor(mech, s, tret, q, v, work, &ms, rep, &sample), done);
    SK_CALL_GOTO(ctx, st, sens_fill(mech, &g, &ss, &sample), done);
    if (out && out(tret, q, v, lam, &sample, user_data)) {
      st = SK_INTERRUPTED;
      break;
    }
    if (repartition && k + 1 < ntimes) {
      rep->repartitions++;
      seen = 0;
      SK_CALL_GOTO(ctx, st,
                   restart(mech, s, method, rtol, atol, opts, tret, q, v, work, &g, &w, rep),
                   done);
    }
  }
done:
  add_stats(&g, rep);
  segment_free(&g);
  sens_free(ctx, &ss);
  sk__free(ctx, buf);
  return st;
}

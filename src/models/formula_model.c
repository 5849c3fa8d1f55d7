/* src/models/formula_model.c: the callbacks of a model written as formulas: right-hand side or residual, analytic Jacobian entries, initial values, events and their actions */
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/model_impl.h"
#include "models/formula_impl.h"

void sk__formula_model_free(void *data)
{
  sk__formula_model *F = data;
  if (!F) {
    return;
  }
  sk_context *ctx = F->ctx;
  for (int64_t i = 0; F->f && i < F->n; i++) {
    sk__formula_free(F->f[i]);
  }
  for (int64_t i = 0; F->exact && i < F->n; i++) {
    sk__formula_free(F->exact[i]);
  }
  for (int64_t k = 0; F->jac && k < F->njac; k++) {
    sk__formula_free(F->jac[k]);
  }
  for (int k = 0; F->ev && k < F->nev; k++) {
    sk__formula_free(F->ev[k].when);
    for (int a = 0; a < F->ev[k].nassign; a++) {
      sk__formula_free(F->ev[k].assign[a].value);
    }
    sk__free(ctx, F->ev[k].assign);
  }
  for (int64_t k = 0; F->mass && k < F->nmass; k++) {
    sk__formula_free(F->mass[k]);
  }
  for (int k = 0; F->inputs && k < F->nin; k++) {
    sk__time_function_destroy(&F->inputs[k]);
  }
  void *blocks[] = {F->names,     F->eq,       F->y,        F->yp,      F->p,          F->u,
                    F->p0,        F->y0,       F->yp0,      F->inputs,  F->f,          F->exact,
                    F->jac_slot,  F->jac,      F->ev,       F->scratch, F->mass_reads, F->mass,
                    F->mass_slot, F->mass_val, F->jac_deriv};
  for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++) {
    sk__free(ctx, blocks[b]);
  }
  sk__free(ctx, F);
}

void sk__formula_model_load(sk__formula_model *F, double t, const double *y, const double *yp)
{
  F->t = t;
  memcpy(F->y, y, (size_t)F->n * sizeof *y);
  if (yp) {
    memcpy(F->yp, yp, (size_t)F->n * sizeof *yp);
  }
  for (int k = 0; k < F->nin; k++) {
    F->u[k] = sk__time_function_eval(F->inputs[k], t);
  }
}

/* The n equations (right-hand sides or residuals) at (t, y, yp) into out. */
static int equations(sk__formula_model *F, double t, const double *y, const double *yp,
                     double *out)
{
  sk__formula_model_load(F, t, y, yp);
  for (int64_t i = 0; i < F->n; i++) {
    out[i] = sk__formula_eval(F->f[i]);
  }
  return 0;
}

static int rhs(double t, const double *y, double *ydot, void *ud)
{
  return equations(ud, t, y, NULL, ydot);
}

static int residual(double t, const double *y, const double *yp, double *r, void *ud)
{
  return equations(ud, t, y, yp, r);
}

static int jac_values(double t, const double *y, const double *fy, double *values, void *ud)
{
  (void)fy;
  sk__formula_model *F = ud;
  sk__formula_model_load(F, t, y, NULL);
  memset(values, 0, (size_t)F->jac_nnz * sizeof *values); /* the diagonal not given: 0 */
  for (int64_t k = 0; k < F->njac; k++) {
    values[F->jac_slot[k]] = sk__formula_eval(F->jac[k]);
  }
  return 0;
}

/* dF/dy + cj dF/dy' from the entries given: the derivative ones times cj. */
static int dae_jac_values(double t, double cj, const double *y, const double *yp, const double *r,
                          double *values, void *ud)
{
  (void)r;
  sk__formula_model *F = ud;
  sk__formula_model_load(F, t, y, yp);
  memset(values, 0, (size_t)F->jac_nnz * sizeof *values);
  for (int64_t k = 0; k < F->njac; k++) {
    values[F->jac_slot[k]] += (F->jac_deriv[k] ? cj : 1.0) * sk__formula_eval(F->jac[k]);
  }
  return 0;
}

static int initial(double t0, double *y0, void *ud)
{
  (void)t0;
  const sk__formula_model *F = ud;
  memcpy(y0, F->y0, (size_t)F->n * sizeof *y0);
  return 0;
}

static int dae_initial(double t0, double *y0, double *yp0, void *ud)
{
  (void)t0;
  const sk__formula_model *F = ud;
  memcpy(y0, F->y0, (size_t)F->n * sizeof *y0);
  memcpy(yp0, F->yp0, (size_t)F->n * sizeof *yp0);
  return 0;
}

static int exact(double t, double *y, void *ud)
{
  sk__formula_model *F = ud;
  F->t = t;
  for (int64_t i = 0; i < F->n; i++) {
    y[i] = sk__formula_eval(F->exact[i]);
  }
  return 0;
}

static void component_name(int64_t i, char *buf, size_t len, void *ud)
{
  const sk__formula_model *F = ud;
  snprintf(buf, len, "%s", i >= 0 && i < F->n ? F->names[i] : "?");
}

static void residual_name(int64_t i, char *buf, size_t len, void *ud)
{
  const sk__formula_model *F = ud;
  snprintf(buf, len, "%s", i >= 0 && i < F->n ? F->eq[i] : "?");
}

static int events(double t, const double *y, double *g, void *ud)
{
  sk__formula_model *F = ud;
  sk__formula_model_load(F, t, y, NULL);
  for (int k = 0; k < F->nev; k++) {
    g[k] = sk__formula_eval(F->ev[k].when);
  }
  return 0;
}

/* M at the current parameters, into the model (the engines' forms follow it). 0 or -1. */
static int refresh_mass(sk__formula_model *F)
{
  for (int64_t k = 0; k < F->nmass; k++) {
    F->mass_val[F->mass_slot[k]] = sk__formula_eval(F->mass[k]);
  }
  return F->nmass == 0 || sk__model_update_mass_values(F->self, F->mass_val) == SK_OK ? 0 : -1;
}

/* The action at the start of a run: the parameters an earlier run's events changed go back
 * to their configured values (and M with them). */
static int reset(double t, const double *y, const int *fired, void *ud)
{
  (void)t;
  (void)y;
  sk__formula_model *F = ud;
  if (!fired) {
    memcpy(F->p, F->p0, (size_t)F->np * sizeof *F->p);
    return refresh_mass(F);
  }
  return 0;
}

/* The actions of the events that fired in their direction: every new value is computed
 * from the values before the event, then all are assigned. */
static int jump(double t, double *y, const int *fired, void *ud)
{
  sk__formula_model *F = ud;
  sk__formula_model_load(F, t, y, NULL);
  int stop = 0, mass_changed = 0;
  for (int k = 0; k < F->nev; k++) {
    const sk__fm_event *e = &F->ev[k];
    if (!fired[k] || (e->direction && e->direction != fired[k])) {
      continue;
    }
    stop |= e->stop;
    for (int a = 0; a < e->nassign; a++) {
      F->scratch[e->assign[a].target] = sk__formula_eval(e->assign[a].value);
    }
  }
  for (int k = 0; k < F->nev; k++) {
    const sk__fm_event *e = &F->ev[k];
    if (!fired[k] || (e->direction && e->direction != fired[k])) {
      continue;
    }
    for (int a = 0; a < e->nassign; a++) {
      const int64_t at = e->assign[a].target;
      if (at < F->n) {
        y[at] = F->scratch[at];
      } else {
        F->p[at - F->n] = F->scratch[at];
        mass_changed |= F->mass_reads && F->mass_reads[at - F->n];
      }
    }
  }
  return mass_changed && refresh_mass(F) ? -1 : stop;
}

sk_status sk__formula_model_attach(sk__formula_model *F, sk_model *m)
{
  sk_context *ctx = F->ctx;
  sk_status st = sk_model_set_user_data(m, F, sk__formula_model_free);
  if (st != SK_OK) {
    sk__formula_model_free(F);
    return SK_ERROR(ctx, st, "formula model: cannot attach its data");
  }
  F->self = m;
  sk_model_set_name(m, "formula");
  sk_model_set_component_name(m, component_name);
  if (F->dae) {
    SK_CALL(ctx, sk_model_set_residual(m, residual));
    SK_CALL(ctx, sk_model_set_dae_initial(m, dae_initial));
    SK_CALL(ctx, sk_model_set_residual_name(m, residual_name));
  } else {
    SK_CALL(ctx, sk_model_set_rhs(m, rhs));
    SK_CALL(ctx, sk_model_set_initial(m, initial));
  }
  if (F->exact) {
    SK_CALL(ctx, sk_model_set_exact(m, exact));
  }
  if (F->nev > 0) {
    SK_CALL(ctx, sk_model_set_events(m, F->nev, events, reset));
    SK_CALL(ctx, sk_model_set_event_jump(m, jump));
    int dir[SK__FM_MAX_EVENTS_ATTACH];
    for (int k = 0; k < F->nev && k < SK__FM_MAX_EVENTS_ATTACH; k++) {
      dir[k] = F->ev[k].direction;
    }
    SK_CALL(ctx, sk_model_set_event_directions(m, dir));
  }
  return SK_OK;
}

sk_status sk__formula_model_use_jacobian(sk__formula_model *F, sk_model *m)
{
  if (F->dae) {
    return sk_model_set_dae_jac_values(m, F->njac > 0 ? dae_jac_values : NULL);
  }
  return sk_model_set_jac_values(m, F->njac > 0 ? jac_values : NULL);
}

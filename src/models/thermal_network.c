/* src/models/thermal_network.c: the thermal network model: node balances C T' = P(t, T) from a parsed netlist, analytic sparse Jacobian, ODE or index-1 DAE, energy-balance states */
/*
 * Mathematics: see stiffkit/network.h. P_i is the heat flowing into unknown
 * node i through the conductive elements and from the sources; the
 * Jacobian dP/dT has the pattern of the network graph (plus the diagonal),
 * its values are accumulated element by element at precomputed positions.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/stop.h"
#include "models/network_impl.h"
#include "core/csc.h"

/* Free the model data (the model's free_fn). */
static void network_free(void *ud)
{
  sk__network *d = ud;
  if (!d) {
    return;
  }
  sk_context *ctx = d->ctx;
  sk__netlist_destroy(ctx, &d->nl);
  void *arrays[] = {d->state_of, d->node_of, d->fixed_by, d->cap,   d->t0,     d->temp,
                    d->id,       d->colptr,  d->rowind,   d->pos,   d->dp,     d->pw,
                    d->sw_elem,  d->elem_on, d->pval,     d->pelem, d->pletter};
  for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++) {
    sk__free(ctx, arrays[k]);
  }
  sk__free(ctx, d);
}

/* The state of netlist node k (-1 for the reference and fixed nodes). */
static int64_t state(const sk__network *d, int64_t k)
{
  return k < 0 ? -1 : d->state_of[k];
}

/* Temperature of netlist node k (the reference is at 0). */
static double temp(const sk__network *d, int64_t k)
{
  return k < 0 ? 0.0 : d->temp[k];
}

/* Heat flow q from a to b of a conductive element, dq/dTa and dq/dTb. */
static double element_flow(const sk__network *d, const sk__net_element *e, double ta, double tb,
                           double *dqa, double *dqb)
{
  const double dt = ta - tb;
  double slope, g;
  switch (e->kind) {
  case SK__NET_TABLE:
    g = sk__net_table_eval(d->nl, e, 0.5 * (ta + tb), &slope);
    *dqa = g + 0.5 * slope * dt;
    *dqb = -g + 0.5 * slope * dt;
    return g * dt;
  case SK__NET_CONV:
    if (e->tlen > 0) {
      g = sk__net_table_eval(d->nl, e, fabs(dt), &slope);
      *dqa = g + slope * fabs(dt);
    } else {
      g = e->value * pow(fabs(dt) / e->dt0, e->exponent);
      *dqa = g * (1.0 + e->exponent);
    }
    *dqb = -*dqa;
    return g * dt;
  case SK__NET_RAD: {
    const double c = SK__NET_SIGMA * e->value, xa = ta + d->kelvin, xb = tb + d->kelvin;
    *dqa = 4.0 * c * xa * xa * xa;
    *dqb = -4.0 * c * xb * xb * xb;
    return c * (xa * xa * xa * xa - xb * xb * xb * xb);
  }
  default:
    *dqa = e->value;
    *dqb = -e->value;
    return e->value * dt;
  }
}

/* Add v at position p of dp (p < 0: no entry). */
static void add_at(double *dp, int64_t p, double v)
{
  if (p >= 0) {
    dp[p] += v;
  }
}

/* The balances P (length n: unknown nodes, then Q_in', Q_out') at (t, y)
 * and, when dp != NULL, dP/dy in pattern order. */
static void balances(sk__network *d, double t, const double *y, double *p, double *dp)
{
  const sk__netlist *nl = d->nl;
  sk__network_fill_temperatures(d, t, y);
  memset(p, 0, (size_t)d->n * sizeof *p);
  if (dp) {
    memset(dp, 0, (size_t)d->colptr[d->n] * sizeof *dp);
  }
  for (int64_t k = 0; k < nl->nelems; k++) {
    const sk__net_element *e = &nl->elems[k];
    const int64_t sa = state(d, e->a), sb = state(d, e->b);
    if ((sa < 0 && sb < 0) || (e->kind == SK__NET_SWITCH && !d->elem_on[k])) {
      continue;
    }
    if (e->kind == SK__NET_SOURCE || (e->kind == SK__NET_SWITCH && e->sw_source)) {
      const double q =
          e->kind == SK__NET_SWITCH ? e->value : sk__net_schedule_eval(nl, &e->sched, t);
      const double in = (sb >= 0 ? q : 0.0) - (sa >= 0 ? q : 0.0);
      if (sb >= 0) {
        p[sb] += q;
      }
      if (sa >= 0) {
        p[sa] -= q;
      }
      if (d->energy) {
        p[d->nu] += in;
      }
      continue;
    }
    if (!sk__network_conductive(e)) {
      continue;
    }
    double dqa, dqb;
    const double q = element_flow(d, e, temp(d, e->a), temp(d, e->b), &dqa, &dqb);
    if (sa >= 0) {
      p[sa] -= q;
    }
    if (sb >= 0) {
      p[sb] += q;
    }
    const int64_t *pos = d->pos + 5 * k;
    if (d->energy && (sa < 0 || sb < 0)) { /* a boundary element: heat leaving the unknowns */
      p[d->nu + 1] += sa >= 0 ? q : -q;
    }
    if (dp) {
      add_at(dp, pos[0], -dqa);
      add_at(dp, pos[1], -dqb);
      add_at(dp, pos[2], dqa);
      add_at(dp, pos[3], dqb);
      add_at(dp, pos[4], sa >= 0 ? dqa : -dqb);
    }
  }
}

/* ---- callbacks ------------------------------------------------------------- */

/* ODE: T_i' = P_i / C_i; Q' = the flows. */
static int network_rhs(double t, const double *y, double *f, void *ud)
{
  sk__network *d = ud;
  balances(d, t, y, f, NULL);
  for (int64_t i = 0; i < d->nu; i++) {
    f[i] /= d->cap[i];
  }
  return 0;
}

/* ODE Jacobian: rows of dP/dT scaled by 1 / C_row. */
static int network_jac(double t, const double *y, const double *fy, double *values, void *ud)
{
  (void)fy;
  sk__network *d = ud;
  balances(d, t, y, d->pw, values);
  for (int64_t p = 0; p < d->colptr[d->n]; p++) {
    const int64_t r = d->rowind[p];
    if (r < d->nu) {
      values[p] /= d->cap[r];
    }
  }
  return 0;
}

/* DAE residual: F_i = C_i T_i' - P_i; F_Q = Q' - flow. */
static int network_residual(double t, const double *y, const double *yp, double *r, void *ud)
{
  sk__network *d = ud;
  balances(d, t, y, r, NULL);
  for (int64_t i = 0; i < d->n; i++) {
    r[i] = (i < d->nu ? d->cap[i] : 1.0) * yp[i] - r[i];
  }
  return 0;
}

/* DAE Jacobian: -dP/dy + cj diag(C, 1, 1). */
static int network_dae_jac(double t, double cj, const double *y, const double *yp,
                           const double *r, double *values, void *ud)
{
  (void)yp;
  (void)r;
  sk__network *d = ud;
  balances(d, t, y, d->pw, values);
  for (int64_t j = 0; j < d->n; j++) {
    for (int64_t p = d->colptr[j]; p < d->colptr[j + 1]; p++) {
      values[p] = -values[p];
      if (d->rowind[p] == j) {
        values[p] += cj * (j < d->nu ? d->cap[j] : 1.0);
      }
    }
  }
  return 0;
}

/* Initial temperatures; Q = 0. */
static int network_initial(double t0, double *y0, void *ud)
{
  (void)t0;
  const sk__network *d = ud;
  for (int64_t i = 0; i < d->n; i++) {
    y0[i] = i < d->nu ? d->t0[i] : 0.0;
  }
  return 0;
}

/* DAE initial values: the temperatures, y' = 0 as the guess (IDACalcIC corrects it). */
static int network_dae_initial(double t0, double *y0, double *yp0, void *ud)
{
  const sk__network *d = ud;
  memset(yp0, 0, (size_t)d->n * sizeof *yp0);
  return network_initial(t0, y0, ud);
}

/* "T(node)", "Q_in", "Q_out". */
static void network_component_name(int64_t i, char *buf, size_t len, void *ud)
{
  const sk__network *d = ud;
  if (i < d->nu) {
    snprintf(buf, len, "T(%s)", d->nl->nodes[d->node_of[i]]);
  } else {
    snprintf(buf, len, "%s", i == d->nu ? "Q_in" : "Q_out");
  }
}

/* ---- construction ---------------------------------------------------------- */

/* "file:line" of element e into buf. */
static const char *where(const sk__network *d, const sk__net_element *e, char *buf, size_t len)
{
  snprintf(buf, len, "%s:%d", d->nl->files[e->file], (int)e->line);
  return buf;
}

/* Fixed nodes, unknown states, capacitances, initial values. */
static sk_status classify_nodes(sk__network *d)
{
  sk_context *ctx = d->ctx;
  sk__netlist *nl = d->nl;
  const size_t nn = (size_t)nl->nnodes;
  d->state_of = sk__malloc(ctx, nn * sizeof *d->state_of);
  d->fixed_by = sk__malloc(ctx, nn * sizeof *d->fixed_by);
  d->node_of = sk__malloc(ctx, (nn + 2) * sizeof *d->node_of);
  d->temp = sk__malloc(ctx, nn * sizeof *d->temp);
  SK_CHECK(ctx, d->state_of && d->fixed_by && d->node_of && d->temp, SK_ERR_NOMEM,
           "network: out of memory");
  for (size_t k = 0; k < nn; k++) {
    d->fixed_by[k] = -1;
  }
  char w1[512], w2[512];
  for (int64_t k = 0; k < nl->nelems; k++) {
    const sk__net_element *e = &nl->elems[k];
    if (e->kind == SK__NET_FIXED) {
      const int64_t prev = d->fixed_by[e->a];
      SK_CHECK(ctx, prev < 0, SK_ERR_INPUT,
               "%s: %s: node '%s' already has a fixed temperature (%s at %s)",
               where(d, e, w1, sizeof w1), e->name, nl->nodes[e->a], nl->elems[prev].name,
               where(d, &nl->elems[prev], w2, sizeof w2));
      d->fixed_by[e->a] = k;
    }
  }
  d->nu = 0;
  for (size_t k = 0; k < nn; k++) {
    d->state_of[k] = d->fixed_by[k] >= 0 ? -1 : d->nu;
    if (d->fixed_by[k] < 0) {
      d->node_of[d->nu++] = (int64_t)k;
    }
  }
  SK_CHECK(ctx, d->nu > 0, SK_ERR_INPUT,
           "%s: every node has a fixed temperature: there is nothing to integrate", nl->files[0]);
  d->n = d->nu + (d->energy ? 2 : 0);
  d->cap = sk__calloc(ctx, (size_t)d->nu, sizeof *d->cap);
  d->t0 = sk__malloc(ctx, (size_t)d->nu * sizeof *d->t0);
  d->id = sk__malloc(ctx, (size_t)d->n * sizeof *d->id);
  d->pw = sk__malloc(ctx, (size_t)d->n * sizeof *d->pw);
  SK_CHECK(ctx, d->cap && d->t0 && d->id && d->pw, SK_ERR_NOMEM, "network: out of memory");
  for (int64_t k = 0; k < nl->nelems; k++) {
    const sk__net_element *e = &nl->elems[k];
    if (e->kind == SK__NET_CAP && d->state_of[e->a] >= 0) {
      d->cap[d->state_of[e->a]] += e->value;
    }
  }
  for (int64_t i = 0; i < d->n; i++) {
    d->id[i] = i >= d->nu || d->cap[i] > 0.0;
    d->dae = d->dae || !d->id[i];
  }
  for (int64_t i = 0; i < d->nu; i++) {
    d->t0[i] = nl->tinit;
  }
  for (int64_t k = 0; k < nl->nic; k++) {
    const int64_t s = d->state_of[nl->ic_node[k]];
    if (s >= 0) {
      d->t0[s] = nl->ic_value[k];
    }
  }
  return SK_OK;
}

/* Position of (row, col) in the pattern (-1 when either is not a state). */
static int64_t position(const sk__network *d, int64_t row, int64_t col)
{
  if (row < 0 || col < 0) {
    return -1;
  }
  int64_t lo = d->colptr[col], hi = d->colptr[col + 1] - 1;
  while (lo <= hi) {
    const int64_t mid = (lo + hi) / 2;
    if (d->rowind[mid] == row) {
      return mid;
    }
    if (d->rowind[mid] < row) {
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return -1;
}

/* The Jacobian pattern from the graph (with the diagonal) and the element positions. */
static sk_status build_pattern(sk__network *d)
{
  sk_context *ctx = d->ctx;
  const sk__netlist *nl = d->nl;
  const int64_t cap = d->n + 5 * nl->nelems;
  int64_t *rows = sk__malloc(ctx, (size_t)cap * sizeof *rows);
  int64_t *cols = sk__malloc(ctx, (size_t)cap * sizeof *cols);
  d->pos = sk__malloc(ctx, (size_t)(5 * nl->nelems + 1) * sizeof *d->pos);
  if (!rows || !cols || !d->pos) {
    sk__free(ctx, rows);
    sk__free(ctx, cols);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "network: out of memory (Jacobian pattern)");
  }
  int64_t nt = 0;
  for (int64_t i = 0; i < d->n; i++) {
    rows[nt] = cols[nt] = i;
    nt++;
  }
  const int64_t qout = d->energy ? d->nu + 1 : -1;
  for (int64_t k = 0; k < nl->nelems; k++) {
    const sk__net_element *e = &nl->elems[k];
    const int64_t sa = state(d, e->a), sb = state(d, e->b);
    if (!sk__network_conductive(e) || (sa < 0 && sb < 0)) {
      continue;
    }
    const int64_t pr[5] = {sa, sa, sb, sb, sa >= 0 && sb >= 0 ? -1 : qout};
    const int64_t pc[5] = {sa, sb, sa, sb, sa >= 0 ? sa : sb};
    for (int q = 0; q < 5; q++) {
      if (pr[q] >= 0 && pc[q] >= 0) {
        rows[nt] = pr[q];
        cols[nt] = pc[q];
        nt++;
      }
    }
  }
  sk_status st = sk__csc_from_triplets(ctx, d->n, nt, rows, cols, &d->colptr, &d->rowind);
  sk__free(ctx, rows);
  sk__free(ctx, cols);
  SK_CALL(ctx, st);
  for (int64_t k = 0; k < nl->nelems; k++) {
    const sk__net_element *e = &nl->elems[k];
    int64_t *pos = d->pos + 5 * k;
    const int64_t sa = state(d, e->a), sb = state(d, e->b);
    const int on = sk__network_conductive(e) && (sa >= 0 || sb >= 0);
    pos[0] = on ? position(d, sa, sa) : -1;
    pos[1] = on ? position(d, sa, sb) : -1;
    pos[2] = on ? position(d, sb, sa) : -1;
    pos[3] = on ? position(d, sb, sb) : -1;
    pos[4] = on && (sa < 0 || sb < 0) ? position(d, qout, sa >= 0 ? sa : sb) : -1;
  }
  d->dp = sk__malloc(ctx, (size_t)(d->colptr[d->n] + 1) * sizeof *d->dp);
  SK_CHECK(ctx, d->dp != NULL, SK_ERR_NOMEM, "network: out of memory");
  return SK_OK;
}

/* The model around d (which it owns from the first call on). */
static sk_status make_model(sk_context *ctx, sk__network *d, sk_model **model)
{
  sk_model *m = NULL;
  sk_status st = sk_model_create(ctx, d->dae ? SK_MODEL_DAE : SK_MODEL_ODE, d->n, &m);
  if (st != SK_OK) {
    network_free(d);
    SK_CALL(ctx, st);
  }
  sk_model_set_user_data(m, d, network_free);
  sk_model_set_name(m, "network");
  sk_model_set_component_name(m, network_component_name);
  st = sk_model_set_jac_pattern(m, d->colptr, d->rowind);
  if (st == SK_OK && d->nsw > 0) {
    st = sk_model_set_events(m, (int)d->nsw, sk__network_events, sk__network_switch_action);
  }
  if (st == SK_OK && d->dae) {
    sk_model_set_residual(m, network_residual);
    sk_model_set_dae_jac_values(m, network_dae_jac);
    sk_model_set_dae_initial(m, network_dae_initial);
    st = sk_model_set_differential(m, d->id);
  } else if (st == SK_OK) {
    sk_model_set_rhs(m, network_rhs);
    sk_model_set_jac_values(m, network_jac);
    sk_model_set_initial(m, network_initial);
  }
  if (st == SK_OK) {
    st = sk__network_declare_params(m, d);
  }
  if (st != SK_OK) {
    sk_model_destroy(&m);
    SK_CALL(ctx, st);
  }
  *model = m;
  return SK_OK;
}

/* Build the model from a parsed netlist (owned from here on). */
static sk_status create_from_netlist(sk_context *ctx, sk__netlist *nl, const sk_network_params *p,
                                     sk_model **model)
{
  sk__network *d = sk__calloc(ctx, 1, sizeof *d);
  if (!d) {
    sk__netlist_destroy(ctx, &nl);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "network: out of memory");
  }
  d->ctx = ctx;
  d->nl = nl;
  d->energy = p->energy_states != 0;
  d->kelvin = nl->celsius ? 273.15 : 0.0;
  sk_status st = classify_nodes(d);
  if (st == SK_OK) {
    st = sk__network_check(d, p->check_steady);
  }
  if (st == SK_OK) {
    st = build_pattern(d);
  }
  if (st == SK_OK) {
    st = sk__network_switches_init(d);
  }
  if (st != SK_OK) {
    network_free(d);
    SK_CALL(ctx, st);
  }
  SK_CALL(ctx, make_model(ctx, d, model));
  return SK_OK;
}

void sk_network_params_default(sk_network_params *p)
{
  memset(p, 0, sizeof *p);
  p->energy_states = 1;
}

sk_status sk_network_create_from_file(sk_context *ctx, const sk_network_params *p,
                                      sk_model **model)
{
  SK_CHECK(ctx, model != NULL && p != NULL && p->netlist != NULL, SK_ERR_ARG,
           "sk_network_create_from_file: NULL argument");
  *model = NULL;
  sk__netlist *nl = NULL;
  SK_CALL_STOP(ctx, sk__netlist_parse_file(ctx, p->netlist, &nl));
  SK_CALL(ctx, create_from_netlist(ctx, nl, p, model));
  return SK_OK;
}

sk_status sk_network_create_from_string(sk_context *ctx, const char *text, const char *name,
                                        const sk_network_params *p, sk_model **model)
{
  SK_CHECK(ctx, model != NULL && p != NULL && text != NULL, SK_ERR_ARG,
           "sk_network_create_from_string: NULL argument");
  *model = NULL;
  sk__netlist *nl = NULL;
  SK_CALL(ctx, sk__netlist_parse_string(ctx, text, name, &nl));
  SK_CALL(ctx, create_from_netlist(ctx, nl, p, model));
  return SK_OK;
}

/* The network data of m, or NULL when m is not a network model. */
static const sk__network *network_of(const sk_model *m)
{
  const char *name = m ? sk_model_get_name(m) : NULL;
  return name && strcmp(name, "network") == 0 ? sk_model_get_user_data(m) : NULL;
}

int sk_network_is_network(const sk_model *m)
{
  return network_of(m) != NULL;
}

/* 1 when element e has a reported heat flow (every kind but C and V). */
static int has_flow(const sk__net_element *e)
{
  return e->kind != SK__NET_CAP && e->kind != SK__NET_FIXED;
}

int64_t sk_network_flow_count(const sk_model *m)
{
  const sk__network *d = network_of(m);
  int64_t count = 0;
  for (int64_t k = 0; d && k < d->nl->nelems; k++) {
    count += has_flow(&d->nl->elems[k]);
  }
  return count;
}

const char *sk_network_flow_name(const sk_model *m, int64_t i)
{
  const sk__network *d = network_of(m);
  for (int64_t k = 0; d && k < d->nl->nelems; k++) {
    if (has_flow(&d->nl->elems[k]) && i-- == 0) {
      return d->nl->elems[k].name;
    }
  }
  return NULL;
}

sk_status sk_network_flows(const sk_model *m, double t, const double *y, double *q)
{
  sk__network *d = (sk__network *)network_of(m); /* its temperature work array only */
  if (!d || !y || !q) {
    return SK_ERR_ARG;
  }
  sk__network_fill_temperatures(d, t, y);
  int64_t i = 0;
  for (int64_t k = 0; k < d->nl->nelems; k++) {
    const sk__net_element *e = &d->nl->elems[k];
    if (!has_flow(e)) {
      continue;
    }
    double dqa, dqb;
    if (e->kind == SK__NET_SWITCH && !d->elem_on[k]) {
      q[i++] = 0.0;
    } else if (e->kind == SK__NET_SOURCE) {
      q[i++] = sk__net_schedule_eval(d->nl, &e->sched, t);
    } else if (e->kind == SK__NET_SWITCH && e->sw_source) {
      q[i++] = e->value;
    } else {
      q[i++] = element_flow(d, e, temp(d, e->a), temp(d, e->b), &dqa, &dqb);
    }
  }
  return SK_OK;
}

const char *sk_network_event_name(const sk_model *m, int64_t k)
{
  const sk__network *d = network_of(m);
  return d && k >= 0 && k < d->nsw ? sk__network_switch_name(d, k) : NULL;
}

int64_t sk_network_get_num_nodes(const sk_model *m)
{
  const sk__network *d = network_of(m);
  return d ? d->nu : 0;
}

sk_status sk_network_energy_balance(const sk_model *m, const double *y, sk_network_energy *e)
{
  const sk__network *d = network_of(m);
  sk_context *ctx = m ? sk_model_get_context(m) : NULL;
  SK_CHECK(ctx, d != NULL && y != NULL && e != NULL, SK_ERR_ARG,
           "sk_network_energy_balance: NULL argument or not a network model");
  SK_CHECK(ctx, d->energy, SK_ERR_STATE,
           "sk_network_energy_balance: the model was built without energy states "
           "(model.energy_balance = false)");
  double stored = 0.0;
  for (int64_t i = 0; i < d->nu; i++) {
    stored += d->cap[i] * (y[i] - d->t0[i]);
  }
  e->stored = stored;
  e->injected = y[d->nu];
  e->leaving = y[d->nu + 1];
  e->imbalance = stored - (e->injected - e->leaving);
  const double scale = fmax(fabs(stored), fmax(fabs(e->injected), fabs(e->leaving)));
  e->relative = scale > 0.0 ? fabs(e->imbalance) / scale : 0.0;
  return SK_OK;
}

sk_status sk_network_find_node(const sk_model *m, const char *name, int64_t *index)
{
  const sk__network *d = network_of(m);
  sk_context *ctx = m ? sk_model_get_context(m) : NULL;
  SK_CHECK(ctx, d != NULL && name != NULL && index != NULL, SK_ERR_ARG,
           "sk_network_find_node: NULL argument or not a network model");
  const int64_t k = sk__netlist_find_node(d->nl, name);
  SK_CHECK(ctx, k >= 0, SK_ERR_INPUT, "network: no node named '%s'%s", name,
           k == -1 ? " (that is the reference node)" : "");
  SK_CHECK(ctx, d->state_of[k] >= 0, SK_ERR_INPUT,
           "network: node '%s' has a fixed temperature (%s): it is not a state", name,
           d->nl->elems[d->fixed_by[k]].name);
  *index = d->state_of[k];
  return SK_OK;
}

/* src/models/network_impl.h: the thermal network model's data, shared by its construction, callbacks and checks */
#ifndef SK_MODELS_NETWORK_IMPL_H
#define SK_MODELS_NETWORK_IMPL_H

#include "io/netlist.h"
#include "stiffkit/network.h"

#define SK__NET_SIGMA \
  5.670374419e-8 /* Stefan-Boltzmann constant, W m^-2 K^-4 (CODATA 2018, exact) */

typedef struct {
  sk_context *ctx;
  sk__netlist *nl;
  int64_t nu;               /* unknown nodes */
  int64_t n;                /* states: nu, + 2 with energy states */
  int energy;               /* energy states Q_in (index nu) and Q_out (nu + 1) */
  int dae;                  /* some unknown node is massless */
  int64_t *state_of;        /* per netlist node: its state index, or -1 for a fixed node */
  int64_t *node_of;         /* per unknown state: its netlist node */
  int64_t *fixed_by;        /* per netlist node: the V element fixing it, or -1 */
  double *cap;              /* per unknown state: its capacitance */
  double *t0;               /* per unknown state: its initial temperature */
  double *temp;             /* work: temperature of every netlist node */
  int *id;                  /* DAE ids (1 differential, 0 algebraic) */
  int64_t *colptr, *rowind; /* Jacobian pattern */
  int64_t
      *pos; /* per element 5 positions: (a,a) (a,b) (b,a) (b,b) (Q_out, unknown end); -1 = none */
  double *dp;             /* work: dP/dT values in pattern order */
  double *pw;             /* work: balances (length n) */
  double kelvin;          /* 273.15 with tunit = C, else 0 */
  int64_t nsw;            /* thermostats (S elements) */
  int64_t *sw_elem;       /* their element indices, in netlist order (event k = switch k) */
  unsigned char *elem_on; /* per element: 1 while a thermostat conducts/heats (others 0) */
  /* parameters (src/models/network_params.c): the value as written per declared one */
  int64_t nparams;
  double *pval;   /* R in K/W, G and H in W/K, C in J/K, a constant I in W */
  int64_t *pelem; /* the element of each */
  char *pletter;  /* R, G, H, C or I */
} sk__network;

/* sk__network_declare_params: declare <element>.R, .G, .H, .C and a
 * constant source's .I as the model's parameters, with the hook that puts
 * a changed value into the element (and the node capacitances). Errors:
 * SK_ERR_NOMEM, those of sk_model_add_param. */
sk_status sk__network_declare_params(sk_model *m, sk__network *d);

/* sk__network_fill_temperatures: the temperature of every netlist node at
 * (t, y) into d->temp (unknowns from y, fixed nodes from their schedules). */
static inline void sk__network_fill_temperatures(sk__network *d, double t, const double *y)
{
  const sk__netlist *nl = d->nl;
  for (int64_t k = 0; k < nl->nnodes; k++) {
    const int64_t s = d->state_of[k];
    d->temp[k] = s >= 0 ? y[s] : sk__net_schedule_eval(nl, &nl->elems[d->fixed_by[k]].sched, t);
  }
}

/* sk__network_switches_init: find the thermostats and set their initial
 * states (given, or from the sense node's initial temperature: heating on
 * below the middle of the band, cooling on above it). Errors: SK_ERR_NOMEM. */
sk_status sk__network_switches_init(sk__network *d);

/* sk__network_switches_reset: every thermostat back to its initial state
 * (called with the initial values, so that each run starts alike). */
void sk__network_switches_reset(sk__network *d);

/* sk__network_events / sk__network_switch_action: the model's event
 * callbacks (sk_event_fn, sk_event_action_fn; user data d). Root k of
 * thermostat k is T_sense - the threshold that ends its present state. */
int sk__network_events(double t, const double *y, double *g, void *ud);
int sk__network_switch_action(double t, const double *y, const int *fired, void *ud);

/* sk__network_switch_name: the name of thermostat k (its element name). */
const char *sk__network_switch_name(const sk__network *d, int64_t k);

/* sk__network_check: the structural checks of sk_network_create_from_file
 * (massless nodes, floating groups) on a built d. Errors: SK_ERR_INPUT
 * naming the nodes, SK_ERR_NOMEM. */
sk_status sk__network_check(sk__network *d, int check_steady);

/* sk__network_conductive: 1 when element e conducts heat between two nodes. */
static inline int sk__network_conductive(const sk__net_element *e)
{
  return e->kind == SK__NET_COND || e->kind == SK__NET_TABLE || e->kind == SK__NET_CONV ||
         e->kind == SK__NET_RAD || (e->kind == SK__NET_SWITCH && !e->sw_source);
}

#endif

/* stiffkit/network.h: lumped thermal networks from netlists (ODE when every node has a capacitance, index-1 DAE with massless nodes), with an integrated energy balance */
#ifndef STIFFKIT_NETWORK_H
#define STIFFKIT_NETWORK_H

#include <stddef.h>
#include <stdint.h>

#include "stiffkit/model.h"
#include "stiffkit/options.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the public API: exported from libstiffkit, which hides everything else */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/*
 * Mathematics. Unknown node temperatures T_i (nodes without a fixed
 * temperature; the reference node 0/gnd is at temperature 0 in the unit of
 * the netlist, fixed nodes follow their schedules T_k(t)):
 *   C_i T_i' = P_i(t, T) = sum_e s_ie q_e(T_a, T_b) + sum_sources s_is I_s(t)
 * where q_e is the heat flow from a to b of a conductive element
 *   R/G:  q = g (Ta - Tb)                 table: q = g((Ta + Tb)/2) (Ta - Tb)
 *   H:    q = hA (|Ta - Tb| / dt0)^n (Ta - Tb)   or  hA(|Ta - Tb|) (Ta - Tb) tabulated
 *   E:    q = sigma eps A F (Ta^4 - Tb^4)  (absolute temperatures: + 273.15 with tunit=C)
 * and s = -1 at the end the flow leaves, +1 where it arrives. Every C_i > 0:
 * the ODE T' = D^{-1} P(t, T) (D = diag C). Some C_i = 0: the semi-explicit
 * index-1 DAE F_i = C_i T_i' - P_i = 0 (id_i = 0 for the massless nodes).
 * The Jacobian pattern comes from the network graph, its values are
 * analytic (4 sigma eps A F T^3 for radiation, table slopes, convection
 * (1 + n) hA (|dT|/dt0)^n).
 *
 * Energy balance (energy_states = 1, the default): the state is extended by
 *   Q_in'  = heat injected by the sources into the unknown nodes,
 *   Q_out' = heat leaving the unknown nodes into fixed nodes and the reference,
 * with Q_in(t0) = Q_out(t0) = 0, integrated by the same engine with the same
 * error control as the temperatures. Then exactly (for the true solution)
 *   sum_i C_i (T_i(t) - T_i(t0)) = Q_in(t) - Q_out(t),
 * and the computed imbalance measures the integration error only.
 */

typedef struct {
  const char *netlist; /* path of the netlist file (required for the file constructor) */
  int energy_states;   /* 1: append Q_in and Q_out to the state (default 1) */
  int check_steady;    /* 1: refuse sub-networks with no conductive path to a fixed node
                          or the reference (their steady state is singular; default 0) */
} sk_network_params;

/* sk_network_params_default: no file, energy states on, no steady check. */
void sk_network_params_default(sk_network_params *p);

/* sk_network_create_from_file: parse p->netlist (see the README section
 * "Thermal networks") and build the model "network": n = unknown nodes
 * (+ 2 with energy states), component names "T(node)", "Q_in", "Q_out".
 * Checks before any integration: a thermostat/switch element (S) is
 * refused (SK_ERR_UNSUPPORTED: not supported yet); a node with two fixed
 * temperatures; a massless node (no capacitance) with no conductive element;
 * a group of massless nodes with no conductive path to a node that has a
 * capacitance, a fixed node or the reference (singular algebraic part);
 * with check_steady, a sub-network with no path to a fixed node or the
 * reference. Each message names the nodes. Errors: SK_ERR_ARG,
 * SK_ERR_MISSING, SK_ERR_INPUT ("file:line:column: ..."), SK_ERR_UNSUPPORTED,
 * SK_ERR_NOMEM. */
sk_status sk_network_create_from_file(sk_context *ctx, const sk_network_params *p,
                                      sk_model **model);

/* sk_network_create_from_string: as above from the netlist text `text`,
 * named `name` in messages (p->netlist is ignored). */
sk_status sk_network_create_from_string(sk_context *ctx, const char *text, const char *name,
                                        const sk_network_params *p, sk_model **model);

/* sk_network_is_network: 1 when m was built by this module (never fails). */
int sk_network_is_network(const sk_model *m);

/* Element heat flows: every element but C and V, in netlist order.
 * sk_network_flow_count: how many (0 for another model);
 * sk_network_flow_name: the name of flow k (NULL out of range);
 * sk_network_flows: q[k] = the heat flow of element k at (t, y), W: from
 * its first node to its second (a source's or thermostat heater's into its
 * second node; 0 while a thermostat is off). Errors: SK_ERR_ARG (NULL
 * argument or not a network model). */
int64_t sk_network_flow_count(const sk_model *m);
const char *sk_network_flow_name(const sk_model *m, int64_t k);
sk_status sk_network_flows(const sk_model *m, double t, const double *y, double *q);

/* sk_network_event_name: the thermostat (S element, hierarchical name)
 * behind event k of a network model -- event k is the k-th thermostat of
 * the netlist; NULL for another model or k out of range. */
const char *sk_network_event_name(const sk_model *m, int64_t k);

/* Energy balance at a state y of the model (length n), in joules. */
typedef struct {
  double stored;    /* sum_i C_i (T_i - T_i(t0)) */
  double injected;  /* Q_in */
  double leaving;   /* Q_out */
  double imbalance; /* stored - (injected - leaving) */
  double relative;  /* |imbalance| / max(|stored|, |injected|, |leaving|) (0 when all are 0) */
} sk_network_energy;

/* sk_network_energy_balance: the balance at y. Errors: SK_ERR_ARG (NULL
 * argument or not a network model), SK_ERR_STATE (built without energy
 * states). */
sk_status sk_network_energy_balance(const sk_model *m, const double *y, sk_network_energy *e);

/* sk_network_find_node: the state index of the unknown node `name` into
 * *index. Errors: SK_ERR_ARG (not a network model), SK_ERR_INPUT (no such
 * node, or a fixed-temperature node, which is not a state). */
sk_status sk_network_find_node(const sk_model *m, const char *name, int64_t *index);

/* sk_network_get_num_nodes: the number of unknown nodes (0 for another model). */
int64_t sk_network_get_num_nodes(const sk_model *m);

/* sk_network_options: the keys of model.type = network (model.netlist,
 * model.energy_balance, output.probe_nodes). `n` (may be NULL) receives
 * the entry count. */
const sk_option_spec *sk_network_options(size_t *n);

/* sk_network_options_set_netlist: configure opts for the network of the
 * netlist file `path` with the default settings (model.type = network,
 * model.netlist = path, as if given on the command line). Errors: those of
 * sk_options_set (the network keys not registered: SK_ERR_UNKNOWN_KEY). */
sk_status sk_network_options_set_netlist(sk_options *opts, const char *path);

/* sk_network_options_for_steady: the defaults a steady-state solve of a
 * network needs, where opts has the network keys and they were not given:
 * model.energy_balance = false (the integrated heat flows grow without
 * bound at a steady state) and model.require_anchor = true (a group of
 * nodes without a conductive path to a fixed temperature has no steady
 * state). Errors: those of sk_options_set. */
sk_status sk_network_options_for_steady(sk_options *opts);

/* sk_network_model_from_options: the model of model.netlist with
 * model.energy_balance. Errors: SK_ERR_INPUT (no model.netlist) and those
 * of sk_network_create_from_file. */
sk_status sk_network_model_from_options(sk_context *ctx, const sk_options *opts,
                                        sk_model **model);

/* sk_network_probes_from_options: the state indices of output.probe_nodes
 * (node names) into a new array *probes (free()) of *count entries; 0 and
 * NULL when the key is empty or m is not a network. Errors: SK_ERR_INPUT
 * (unknown node), SK_ERR_NOMEM. */
sk_status sk_network_probes_from_options(sk_context *ctx, const sk_options *opts,
                                         const sk_model *m, int64_t **probes, size_t *count);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif

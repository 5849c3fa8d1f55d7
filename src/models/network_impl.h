/* src/models/network_impl.h: the thermal network model's data, shared by its construction, callbacks and checks */
#ifndef SK_MODELS_NETWORK_IMPL_H
#define SK_MODELS_NETWORK_IMPL_H

#include "io/netlist.h"
#include "stiffkit/network.h"

#define SK__NET_SIGMA 5.670374419e-8 /* Stefan-Boltzmann constant, W m^-2 K^-4 (CODATA 2018, exact) */

typedef struct {
  sk_context *ctx;
  sk__netlist *nl;
  int64_t nu;       /* unknown nodes */
  int64_t n;        /* states: nu, + 2 with energy states */
  int energy;       /* energy states Q_in (index nu) and Q_out (nu + 1) */
  int dae;          /* some unknown node is massless */
  int64_t *state_of; /* per netlist node: its state index, or -1 for a fixed node */
  int64_t *node_of;  /* per unknown state: its netlist node */
  int64_t *fixed_by; /* per netlist node: the V element fixing it, or -1 */
  double *cap;       /* per unknown state: its capacitance */
  double *t0;        /* per unknown state: its initial temperature */
  double *temp;      /* work: temperature of every netlist node */
  int *id;           /* DAE ids (1 differential, 0 algebraic) */
  int64_t *colptr, *rowind; /* Jacobian pattern */
  int64_t *pos;      /* per element 5 positions: (a,a) (a,b) (b,a) (b,b) (Q_out, unknown end); -1 = none */
  double *dp;        /* work: dP/dT values in pattern order */
  double *pw;        /* work: balances (length n) */
  double kelvin;     /* 273.15 with tunit = C, else 0 */
} sk__network;

/* sk__network_check: the structural checks of sk_network_create_from_file
 * (massless nodes, floating groups) on a built d. Errors: SK_ERR_INPUT
 * naming the nodes, SK_ERR_NOMEM. */
sk_status sk__network_check(sk__network *d, int check_steady);

/* sk__network_conductive: 1 when element e conducts heat between two nodes. */
int sk__network_conductive(const sk__net_element *e);

#endif

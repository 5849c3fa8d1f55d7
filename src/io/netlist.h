/* src/io/netlist.h: the thermal netlist parser (SPICE-like text to a flat list of nodes and elements) */
#ifndef SK_IO_NETLIST_H
#define SK_IO_NETLIST_H

#include <stdint.h>

#include "stiffkit/context.h"

/* Element kinds after expansion (R is stored as its conductance 1/R). */
typedef enum {
  SK__NET_CAP = 0, /* C: capacitance value [J/K] from node a to the reference */
  SK__NET_COND,    /* R or G: conductance value [W/K] between a and b */
  SK__NET_TABLE,   /* G ... TABLE(): conductance g(Tm), Tm = (Ta + Tb) / 2, interpolated */
  SK__NET_CONV, /* H: value = hA [W/K], G = hA (|Ta - Tb| / dt0)^exponent, or a TABLE in |Ta - Tb| */
  SK__NET_RAD,    /* E: value = eps A F [m^2], q = sigma value (Ta^4 - Tb^4) (absolute T) */
  SK__NET_SOURCE, /* I: heat flow schedule from a to b (into b) [W] */
  SK__NET_FIXED,  /* V: T(a) = schedule, b the reference */
  SK__NET_SWITCH  /* S: thermostat: conductance value [W/K] between a and b, or heat flow
                       value [W] from a to b (sw_source), switched by the sense node */
} sk__net_kind;

typedef enum {
  SK__SCHED_CONST = 0, /* v0 */
  SK__SCHED_PWL,       /* (t_k, v_k) pairs, t strictly increasing; constant beyond the ends */
  SK__SCHED_SIN,       /* vo va freq td theta phase(deg) */
  SK__SCHED_PULSE      /* v1 v2 td tr tf pw per */
} sk__sched_kind;

/* Parameters of schedules and tables live in sk__netlist.reals[off .. off+len). */
typedef struct {
  sk__sched_kind kind;
  int64_t off, len;
} sk__net_schedule;

typedef struct {
  sk__net_kind kind;
  int64_t a, b;           /* node indices, -1 = the reference node (0 / gnd) */
  double value;           /* see sk__net_kind */
  double exponent;        /* CONV: exponent n >= 0 (0 = constant hA) */
  double dt0;             /* CONV: reference temperature difference (> 0) */
  int64_t toff, tlen;     /* TABLE / tabulated CONV: tlen (x, y) pairs at reals[toff] */
  sk__net_schedule sched; /* SOURCE, FIXED */
  /* SWITCH: sense node (-1 = reference), hysteresis band [low, high]; heating
     (default: off when T_sense rises through high, on when it falls through low)
     or cooling (on when it rises through high, off when it falls through low);
     initial state sw_on0 = 1 on, 0 off, -1 from the sense node's initial temperature */
  int64_t sense;
  double low, high;
  int sw_source, sw_cool, sw_on0;
  char *name;         /* hierarchical element name ("X1.R3") */
  int32_t file, line; /* origin: files[file], 1-based line */
} sk__net_element;

typedef struct {
  int64_t nnodes; /* nodes other than the reference */
  char **nodes;   /* their (hierarchical) names */
  int64_t nelems;
  sk__net_element *elems;
  int64_t nreals;
  double *reals;
  int32_t nfiles;
  char **files; /* every file read (for messages) */
  int celsius;  /* .option tunit=C: temperatures in degrees Celsius */
  double tinit; /* .option tinit: initial temperature of every unknown node */
  int64_t nic;  /* .ic node=value entries */
  int64_t *ic_node;
  double *ic_value;
  int64_t cap_elems, cap_reals, cap_ic; /* allocated capacities */
} sk__netlist;

/* sk__netlist_parse_file: parse the netlist at `path` (its .include paths
 * relative to the including file), expanding subcircuits and parameters.
 * Output: *out, a new netlist (free with sk__netlist_destroy); NULL on error.
 * Errors: SK_ERR_MISSING (a file cannot be opened or read, naming the
 * including line), SK_ERR_INPUT ("file:line:column: what was expected"),
 * SK_ERR_NOMEM, SK_ERR_ARG (NULL argument). */
sk_status sk__netlist_parse_file(sk_context *ctx, const char *path, sk__netlist **out);

/* sk__netlist_parse_string: as sk__netlist_parse_file for the text `text`
 * named `name` in messages (includes are relative to the working directory). */
sk_status sk__netlist_parse_string(sk_context *ctx, const char *text, const char *name,
                                   sk__netlist **out);

/* sk__netlist_destroy: free *nl and NULL it; accepts NULL. */
void sk__netlist_destroy(sk_context *ctx, sk__netlist **nl);

/* sk__netlist_find_node: the index of the node `name`, -1 for the
 * reference ("0", "gnd"), -2 when there is none (linear search). */
int64_t sk__netlist_find_node(const sk__netlist *nl, const char *name);

/* sk__net_schedule_eval: the value of schedule s at time t (never fails). */
double sk__net_schedule_eval(const sk__netlist *nl, const sk__net_schedule *s, double t);

/* sk__net_table_eval: the piecewise-linear table of e at x (constant beyond
 * the ends) and its slope there (0 beyond the ends) into *slope. */
double sk__net_table_eval(const sk__netlist *nl, const sk__net_element *e, double x,
                          double *slope);

#endif

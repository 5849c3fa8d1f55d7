/* src/models/network_keys.h: the keys of model.type = network (netlist file, energy states, anchoring, probes by node name), each written once and bound to its field */
#ifndef SK_MODELS_NETWORK_KEYS_H
#define SK_MODELS_NETWORK_KEYS_H

#include <stdint.h>

#include "core/options_bind.h"

/* X(field, key, type, default, min, max, choices, help): one row per key. */
#define SK__NETWORK_KEYS(X)                                                                     \
  X(netlist, "model.netlist", SK_OPT_PATH, "", 0, 0, NULL,                                      \
    "model.type = network: the thermal netlist file (SPICE-like: C R G H E I V X elements, "    \
    ".param .include .subckt; see the README section 'Thermal networks'; in a config relative " \
    "to the config's directory, with --set to the working directory)")                          \
  X(energy_balance, "model.energy_balance", SK_OPT_BOOL, "true", 0, 0, NULL,                    \
    "network: append the integrated heat flows Q_in (sources) and Q_out (into fixed nodes and " \
    "the reference) to the state and report the energy balance at the end of the run")          \
  X(require_anchor, "model.require_anchor", SK_OPT_BOOL, "false", 0, 0, NULL,                   \
    "network: refuse a group of nodes with no conductive path to a fixed temperature or the "   \
    "reference (its steady state is singular; `stiffkit steady` turns this on)")                \
  X(probe_nodes, "output.probe_nodes", SK_OPT_STRING, "", 0, 0, NULL,                           \
    "network: probe these nodes by name (separated by commas or blanks; replaces "              \
    "output.probes)")

/* The values of the keys: field `f` of row X(f, ...) has its key's C type. */
typedef struct {
  SK__NETWORK_KEYS(SK__BIND_FIELD)
} sk__network_keys;

/* SK__NETWORK_KEY_<field>: the row's index, its bit in the `given` mask */
enum {
#define SK__NETWORK_KEY_INDEX(f, ...) SK__NETWORK_KEY_##f,
  SK__NETWORK_KEYS(SK__NETWORK_KEY_INDEX)
#undef SK__NETWORK_KEY_INDEX
      SK__NETWORK_KEY_COUNT
};

SK__BIND_DECLARE(sk__network, sk__network_keys)

#endif

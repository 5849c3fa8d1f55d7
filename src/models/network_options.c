/* src/models/network_options.c: the keys of model.type = network (netlist file, energy states, probes by node name) */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/stop.h"
#include "stiffkit/network.h"
#include "stiffkit/model_type.h"

/* the rows of network_table, in order */
enum { KEY_NETLIST, KEY_ENERGY_BALANCE, KEY_REQUIRE_ANCHOR, KEY_PROBE_NODES };

static const sk_option_spec network_table[] = {
    {"model.netlist", SK_OPT_PATH, "", 0, 0, NULL,
     "model.type = network: the thermal netlist file (SPICE-like: C R G H E I V X elements, "
     ".param .include .subckt; see the README section 'Thermal networks'; in a config relative "
     "to the config's directory, with --set to the working directory)"},
    {"model.energy_balance", SK_OPT_BOOL, "true", 0, 0, NULL,
     "network: append the integrated heat flows Q_in (sources) and Q_out (into fixed nodes and "
     "the reference) to the state and report the energy balance at the end of the run"},
    {"model.require_anchor", SK_OPT_BOOL, "false", 0, 0, NULL,
     "network: refuse a group of nodes with no conductive path to a fixed temperature or the "
     "reference (its steady state is singular; `stiffkit steady` turns this on)"},
    {"output.probe_nodes", SK_OPT_STRING, "", 0, 0, NULL,
     "network: probe these nodes by name (separated by commas or blanks; replaces "
     "output.probes)"},
};
_Static_assert(sizeof network_table / sizeof network_table[0] == KEY_PROBE_NODES + 1,
               "one KEY_* a row");

const sk_option_spec *sk_network_options(size_t *n)
{
  if (n) {
    *n = sizeof network_table / sizeof network_table[0];
  }
  return network_table;
}

sk_status sk_network_options_set_netlist(sk_options *opts, const char *path)
{
  sk_context *ctx = sk_options_get_context(opts);
  if (!ctx || !path) {
    return SK_ERR_ARG;
  }
  SK_CALL(ctx, sk_options_set(opts, SK_MODEL_TYPE_KEY, "network", NULL));
  SK_CALL(ctx, sk_options_set(opts, network_table[KEY_NETLIST].key, path, NULL));
  return SK_OK;
}

sk_status sk_network_options_for_steady(sk_options *opts)
{
  sk_context *ctx = sk_options_get_context(opts);
  if (!ctx) {
    return SK_ERR_ARG;
  }
  static const struct {
    int row;
    const char *value;
  } defaults[] = {{KEY_ENERGY_BALANCE, "false"}, {KEY_REQUIRE_ANCHOR, "true"}};
  for (size_t k = 0; k < sizeof defaults / sizeof defaults[0]; k++) {
    const char *key = network_table[defaults[k].row].key;
    if (sk_options_is_key(opts, key) && !sk_options_is_set(opts, key)) {
      SK_CALL(ctx, sk_options_set(opts, key, defaults[k].value, NULL));
    }
  }
  return SK_OK;
}

sk_status sk_network_model_from_options(sk_context *ctx, const sk_options *opts, sk_model **model)
{
  SK_CHECK(ctx, opts != NULL && model != NULL, SK_ERR_ARG,
           "sk_network_model_from_options: NULL argument");
  *model = NULL;
  sk_network_params p;
  sk_network_params_default(&p);
  SK_CALL_STOP(ctx, sk_options_get_input_file(opts, network_table[KEY_NETLIST].key, &p.netlist));
  SK_CHECK(ctx, p.netlist[0] != '\0', SK_ERR_INPUT,
           "model.type = network needs model.netlist (a thermal netlist file)");
  SK_CALL_STOP(
      ctx, sk_options_get_bool(opts, network_table[KEY_ENERGY_BALANCE].key, &p.energy_states));
  SK_CALL_STOP(ctx,
               sk_options_get_bool(opts, network_table[KEY_REQUIRE_ANCHOR].key, &p.check_steady));
  SK_CALL_STOP(ctx, sk_network_create_from_file(ctx, &p, model));
  return SK_OK;
}

sk_status sk_network_probes_from_options(sk_context *ctx, const sk_options *opts,
                                         const sk_model *m, int64_t **probes, size_t *count)
{
  SK_CHECK(ctx, opts && probes && count, SK_ERR_ARG,
           "sk_network_probes_from_options: NULL argument");
  *probes = NULL;
  *count = 0;
  const char *list = "";
  if (!sk_network_is_network(m) || !sk_options_is_key(opts, network_table[KEY_PROBE_NODES].key)) {
    return SK_OK;
  }
  SK_CALL_STOP(ctx, sk_options_get_string(opts, network_table[KEY_PROBE_NODES].key, &list));
  const size_t len = strlen(list);
  int64_t *out = malloc((len / 2 + 1) * sizeof *out);
  char *name = malloc(len + 1);
  if (!out || !name) {
    free(out);
    free(name);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate probes");
  }
  size_t n = 0;
  sk_status st = SK_OK;
  for (size_t i = 0; i < len && st == SK_OK;) {
    while (i < len && (list[i] == ',' || isspace((unsigned char)list[i]))) {
      i++;
    }
    size_t j = i;
    while (j < len && list[j] != ',' && !isspace((unsigned char)list[j])) {
      j++;
    }
    if (j > i) {
      memcpy(name, list + i, j - i);
      name[j - i] = '\0';
      st = sk_network_find_node(m, name, &out[n]);
      if (st != SK_OK) {
        char msg[SK_ERROR_MSG_LEN];
        snprintf(msg, sizeof msg, "%s", sk_context_get_error(ctx)->message);
        st = SK_ERROR(ctx, SK_ERR_INPUT, "output.probe_nodes: %s", msg);
      }
      n++;
    }
    i = j;
  }
  free(name);
  if (st != SK_OK || n == 0) {
    free(out);
    return st;
  }
  *probes = out;
  *count = n;
  return SK_OK;
}

static sk_status create_network(sk_context *ctx, sk_options *opts, sk_model **model)
{
  return sk_network_model_from_options(ctx, opts, model);
}

const sk_model_type sk__model_type_network = {
    .name = "network",
    .description = "a lumped thermal network from a SPICE-like netlist (model.netlist)",
    .driver = SK_MODEL_DRIVER_STEPPER,
    .options = sk_network_options,
    .create = create_network};

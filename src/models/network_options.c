/* src/models/network_options.c: the keys of model.type = network (netlist file, energy states, probes by node name) */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/stop.h"
#include "models/network_keys.h"
#include "stiffkit/network.h"
#include "stiffkit/model_type.h"

#define SK__BIND_STRUCT sk__network_keys
SK__BIND_DEFINE(sk__network, SK__NETWORK_KEYS, sk__network_keys, SK__NETWORK_KEY_COUNT)
#undef SK__BIND_STRUCT

const sk_option_spec *sk_network_options(size_t *n)
{
  return sk__network_options(n);
}

sk_status sk_network_options_set_netlist(sk_options *opts, const char *path)
{
  sk_context *ctx = sk_options_get_context(opts);
  if (!ctx || !path) {
    return SK_ERR_ARG;
  }
  SK_CALL(ctx, sk_options_set(opts, SK_MODEL_TYPE_KEY, "network", NULL));
  SK_CALL(ctx, sk_options_set(opts, sk__network_key(SK__NETWORK_KEY_netlist), path, NULL));
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
  } defaults[] = {{SK__NETWORK_KEY_energy_balance, "false"},
                  {SK__NETWORK_KEY_require_anchor, "true"}};
  for (size_t k = 0; k < sizeof defaults / sizeof defaults[0]; k++) {
    const char *key = sk__network_key(defaults[k].row);
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
  sk__network_keys k;
  SK_CALL_STOP(ctx, sk__network_settings_read(opts, &k, NULL));
  SK_CHECK(ctx, k.netlist[0] != '\0', SK_ERR_INPUT,
           "model.type = network needs model.netlist (a thermal netlist file)");
  SK_CALL_STOP(ctx, sk__network_paths_resolve(opts, &k));
  p.netlist = k.netlist;
  p.energy_states = k.energy_balance;
  p.check_steady = k.require_anchor;
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
  sk__network_keys k;
  if (!sk_network_is_network(m) || !sk__network_keys_registered(opts)) {
    return SK_OK;
  }
  SK_CALL_STOP(ctx, sk__network_settings_read(opts, &k, NULL));
  const char *list = k.probe_nodes;
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

/* src/cli/collect_provenance.c: the provenance hash of a sweep case: what determines its numbers, read from its provenance sidecar, without date, host or timings */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "cli/collect.h"
#include "io/checkpoint.h"
#include "cli/output_keys.h"

/* Hash a text and a separator that no text holds. */
static uint64_t hash_text(uint64_t h, const char *t, char sep)
{
  return sk__fnv1a64(sk__fnv1a64(h, t, strlen(t)), &sep, 1);
}

/* Hash a node: scalars by text, sequences item by item, mappings key by key
 * (output.dir left out: where results go does not change them). */
static uint64_t hash_node(cli_yaml *y, const yaml_node_t *n, uint64_t h, int depth)
{
  const char *t = cli_yaml_text(n);
  if (t || !n || depth > 16) {
    return hash_text(h, t ? t : "", '\x1f');
  }
  if (n->type == YAML_SEQUENCE_NODE) {
    h = hash_text(h, "[", '\x1e');
    for (size_t i = 0; i < cli_yaml_count(n); i++) {
      h = hash_node(y, cli_yaml_item(y, n, i), h, depth + 1);
    }
    return hash_text(h, "]", '\x1e');
  }
  yaml_node_t *k, *v;
  h = hash_text(h, "{", '\x1e');
  for (size_t i = 0; cli_yaml_pair(y, n, i, &k, &v); i++) {
    const char *key = cli_yaml_text(k);
    if (key && !strcmp(key, cli_output_key(CLI_OUTPUT_KEY_dir))) {
      continue;
    }
    h = hash_text(h, key ? key : "", '\x1d');
    h = hash_node(y, v, h, depth + 1);
  }
  return hash_text(h, "}", '\x1e');
}

int collect_provenance_hash(sk_context *ctx, const char *path, char hex[17])
{
  static const char *const parts[] = {"stiffkit", "libraries", "options"};
  hex[0] = '\0';
  cli_yaml y;
  sk_status st = cli_yaml_load(ctx, path, &y);
  const yaml_node_t *prov =
      st == SK_OK ? cli_yaml_get(&y, cli_yaml_root(&y), "provenance") : NULL;
  if (prov && prov->type == YAML_MAPPING_NODE) {
    uint64_t h = SK__FNV1A64_INIT;
    for (size_t k = 0; k < sizeof parts / sizeof parts[0]; k++) {
      h = hash_text(h, parts[k], '\x1c');
      h = hash_node(&y, cli_yaml_get(&y, prov, parts[k]), h, 0);
    }
    snprintf(hex, 17, "%016llx", (unsigned long long)h);
  }
  cli_yaml_free(&y);
  return hex[0] ? 0 : -1;
}

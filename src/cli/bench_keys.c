/* src/cli/bench_keys.c: the bench.* keys of `stiffkit bench` (registered in every CLI job, so that a config with a bench section runs with every subcommand) and the per-stepper keys bench.stepper.NAME.* */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/bench_keys.h"
#include "core/error.h"

#define STEPPER_SECTION "bench.stepper"
#define OPTIONS_FIELD "options."

#define SK__BIND_STRUCT bench_settings
SK__BIND_DEFINE(bench, BENCH_KEYS, bench_settings, BENCH_KEY_COUNT)
#undef SK__BIND_STRUCT

/* The fields of bench.stepper.NAME. */
static const struct {
  const char *field;
  sk_opt_type type;
  double min, max;
  const char *help;
} stepper_fields[] = {
    {"rtols", SK_OPT_REAL_LIST, 1e-15, 1.0, "this stepper's rtol ladder"},
    {"steps", SK_OPT_REAL_LIST, 1e-300, 1e300, "this stepper's fixed-step ladder"},
    {"atol_ratio", SK_OPT_REAL, 0, 1e300, "this stepper's atol = atol_ratio * rtol"},
};
enum { NFIELDS = sizeof stepper_fields / sizeof stepper_fields[0] };

#define KEY_LEN 256
struct bench_keys {
  size_t n;
  sk_option_spec *spec;
  char (*names)[KEY_LEN];
};

void bench_keys_free(struct bench_keys **keys)
{
  if (keys && *keys) {
    free((*keys)->spec);
    free((*keys)->names);
    free(*keys);
    *keys = NULL;
  }
}

/* The spec of one pending key under bench.stepper (NULL help: not a field). */
static sk_status key_spec(sk_context *ctx, const char *key, sk_option_spec *sp)
{
  const char *rest = key + strlen(STEPPER_SECTION) + 1;
  const char *dot = strchr(rest, '.');
  SK_CHECK(ctx, dot && dot > rest, SK_ERR_INPUT,
           "%s: a stepper's settings are bench.stepper.NAME.FIELD (FIELD: rtols, steps, "
           "atol_ratio or options.KEY)",
           key);
  const char *field = dot + 1;
  memset(sp, 0, sizeof *sp);
  sp->key = key;
  sp->def = "";
  if (!strncmp(field, OPTIONS_FIELD, strlen(OPTIONS_FIELD)) && field[strlen(OPTIONS_FIELD)]) {
    sp->type = SK_OPT_STRING;
    sp->help = "an option of this stepper's runs (the key after options.)";
    return SK_OK;
  }
  for (size_t k = 0; k < NFIELDS; k++) {
    if (!strcmp(field, stepper_fields[k].field)) {
      sp->type = stepper_fields[k].type;
      sp->min = stepper_fields[k].min;
      sp->max = stepper_fields[k].max;
      sp->help = stepper_fields[k].help;
      return SK_OK;
    }
  }
  return SK_ERROR(ctx, SK_ERR_INPUT,
                  "%s: unknown stepper setting '%s' (valid: rtols, steps, atol_ratio, "
                  "options.KEY)",
                  key, field);
}

/* The per-stepper keys pending in opts, as a table. */
static sk_status find_keys(sk_context *ctx, const sk_options *opts, struct bench_keys **out)
{
  size_t cap = 0;
  for (; sk_options_pending_key(opts, cap); cap++) {
  }
  struct bench_keys *K = calloc(1, sizeof *K);
  if (K) {
    K->spec = calloc(cap ? cap : 1, sizeof *K->spec);
    K->names = calloc(cap ? cap : 1, sizeof *K->names);
  }
  *out = K;
  SK_CHECK(ctx, K && K->spec && K->names, SK_ERR_NOMEM, "cannot allocate the stepper keys");
  const char *key;
  for (size_t i = 0; (key = sk_options_pending_key(opts, i)) != NULL; i++) {
    int seen = 0; /* a key set twice (config, then --set) is pending twice */
    for (size_t k = 0; k < K->n; k++) {
      seen |= !strcmp(K->names[k], key);
    }
    if (seen || strncmp(key, STEPPER_SECTION ".", strlen(STEPPER_SECTION) + 1)) {
      continue;
    }
    SK_CHECK(ctx, strlen(key) < KEY_LEN, SK_ERR_INPUT, "%s: key too long", key);
    snprintf(K->names[K->n], KEY_LEN, "%s", key);
    SK_CALL(ctx, key_spec(ctx, K->names[K->n], &K->spec[K->n]));
    K->n++;
  }
  return SK_OK;
}

sk_status bench_keys_apply_options(sk_context *ctx, const struct bench_keys *K, sk_options *opts,
                                   const char *method)
{
  char prefix[KEY_LEN];
  bench_keys_key(method, OPTIONS_FIELD, prefix, sizeof prefix);
  const size_t len = strlen(prefix);
  for (size_t k = 0; k < K->n; k++) {
    if (strncmp(K->names[k], prefix, len)) {
      continue;
    }
    const char *value;
    sk_option_origin o;
    SK_CALL(ctx, sk_options_get_string(opts, K->names[k], &value));
    SK_CALL(ctx, sk_options_get_origin(opts, K->names[k], &o));
    SK_CALL(ctx, sk_options_set(opts, K->names[k] + len, value, o.file ? &o : NULL));
  }
  return SK_OK;
}

sk_status bench_keys_defer(sk_options *opts)
{
  sk_context *ctx = sk_options_get_context(opts);
  size_t n = 0;
  const sk_option_spec *table = bench_options(&n);
  SK_CALL(ctx, sk_options_register(opts, table, n));
  SK_CALL(ctx, sk_options_defer_section(opts, STEPPER_SECTION));
  return SK_OK;
}

sk_status bench_keys_register(sk_options *opts, struct bench_keys **keys)
{
  sk_context *ctx = sk_options_get_context(opts);
  bench_keys_free(keys);
  SK_CALL(ctx, find_keys(ctx, opts, keys));
  SK_CALL(ctx, sk_options_register(opts, (*keys)->spec, (*keys)->n));
  return SK_OK;
}

size_t bench_keys_count(const struct bench_keys *keys)
{
  return keys ? keys->n : 0;
}

const char *bench_keys_name(const struct bench_keys *keys, size_t i)
{
  return keys->names[i];
}

void bench_keys_key(const char *method, const char *field, char *buf, size_t len)
{
  snprintf(buf, len, STEPPER_SECTION ".%s.%s", method, field);
}

const char *bench_keys_stepper(const struct bench_keys *keys, size_t i, size_t *len)
{
  const char *name = keys->names[i] + strlen(STEPPER_SECTION) + 1;
  *len = strcspn(name, ".");
  return name;
}

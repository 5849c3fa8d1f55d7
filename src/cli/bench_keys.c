/* src/cli/bench_keys.c: the bench.* keys of `stiffkit bench` (registered in every CLI job, so that a config with a bench section runs with every subcommand) and the per-stepper keys bench.stepper.NAME.* */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/bench_keys.h"
#include "core/error.h"

#define STEPPER_SECTION "bench.stepper"
#define OPTIONS_FIELD "options."

static const sk_option_spec bench_table[] = {
    {"bench.methods", SK_OPT_STRING, "", 0, 0, NULL,
     "steppers to compare, separated by commas (any registered type: `stiffkit info` lists "
     "them; plugin types with solver.plugin); \"\" = the names under bench.stepper"},
    {"bench.rtols", SK_OPT_REAL_LIST, "1e-3, 1e-4, 1e-5, 1e-6, 1e-7", 1e-15, 1.0, NULL,
     "the rtol ladder of adaptive steppers (bench.stepper.NAME.rtols for one stepper)"},
    {"bench.atol_ratio", SK_OPT_REAL, "1e-3", 0, 1e300, NULL,
     "atol = atol_ratio * rtol at every rung; 0 = solver.atol at every rung"},
    {"bench.steps", SK_OPT_REAL_LIST, "", 1e-300, 1e300, NULL,
     "the step ladder (solver.fixed_step values) of fixed-step steppers "
     "(bench.stepper.NAME.steps for one stepper)"},
    {"bench.repeats", SK_OPT_INT, "3", 1, 1000, NULL,
     "runs per point: the wall time is their median, with min and max"},
    {"bench.error", SK_OPT_CHOICE, "max", 0, 0, "max|rms",
     "error measure over the measured components and times: max |y - y_ref| or the RMS"},
    {"bench.components", SK_OPT_INT_LIST, "", 0, 1e15, NULL,
     "components measured (0-based; empty = all)"},
    {"bench.times", SK_OPT_CHOICE, "all", 0, 0, "all|final",
     "output times measured: all of them, or the last one"},
    {"bench.reference", SK_OPT_CHOICE, "auto", 0, 0, "auto|computed|exact|file",
     "the reference solution: the model's exact one (exact), a CVODE/IDA solve far below the "
     "study's tolerances (computed), a CSV of t and the n states (file); auto = exact where the "
     "model has one, else computed"},
    {"bench.reference_file", SK_OPT_PATH, "", 0, 0, NULL,
     "bench.reference = file: CSV with header t then the n state columns, a row per output "
     "time"},
    {"bench.reference_rtol", SK_OPT_REAL, "0", 0, 1e-2, NULL,
     "rtol of the computed reference; 0 = 1e-3 times the tightest rtol of the study, within "
     "[1e-13, 1e-10]"},
    {"bench.reference_check", SK_OPT_STRING, "auto", 0, 0, NULL,
     "the independent method that checks the computed reference at 10 reference_rtol; auto = "
     "cvode-adams for an ODE, the first other DAE stepper for a DAE; \"none\" = no check"},
    {"bench.target_error", SK_OPT_REAL, "0", 0, 1e300, NULL,
     "the error of the side-by-side report; 0 = the smallest error every method reaches"},
    {"bench.external", SK_OPT_PATH_LIST, "", 0, 0, NULL,
     "results of outside codes: CSVs with header tolerance, wall_time[, rhs_evals], t, then "
     "the n state columns, one row per output time and tolerance"},
    {"bench.hdf5", SK_OPT_BOOL, "false", 0, 0, NULL, "also write PREFIX.bench.h5"},
    {"bench.plot", SK_OPT_BOOL, "true", 0, 0, NULL,
     "draw PREFIX.bench.png (python3 with matplotlib; left out with a note when missing)"},
};

const sk_option_spec *bench_options(size_t *n)
{
  *n = sizeof bench_table / sizeof bench_table[0];
  return bench_table;
}

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

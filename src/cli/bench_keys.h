/* src/cli/bench_keys.h: the bench.* keys of `stiffkit bench`, known to every CLI job, and the per-stepper keys bench.stepper.NAME.* */
#ifndef SK_CLI_BENCH_KEYS_H
#define SK_CLI_BENCH_KEYS_H

#include <stddef.h>

#include "stiffkit/stiffkit.h"

struct bench_keys; /* the per-stepper keys found in one options database */

/* bench_options: the table of bench.* keys. */
const sk_option_spec *bench_options(size_t *n);

/* bench_keys_defer: register the bench.* table in opts and let
 * bench.stepper.NAME.* be set before their keys exist (call it before the
 * config is loaded). Errors: those of sk_options_register. */
sk_status bench_keys_defer(sk_options *opts);

/* bench_keys_register: once the config and --set are loaded: register the
 * bench.stepper.NAME.FIELD keys that were set (FIELD: rtols, steps,
 * atol_ratio or options.KEY), their table in *keys (freed first; free it
 * after opts with bench_keys_free). Errors: SK_ERR_INPUT naming the key
 * for an unknown field, SK_ERR_NOMEM. */
sk_status bench_keys_register(sk_options *opts, struct bench_keys **keys);

/* bench_keys_apply_options: set every bench.stepper.METHOD.options.KEY of
 * opts as KEY, with the origin of the original value. Errors: those of
 * sk_options_set (an unknown KEY named at its file:line:col). */
sk_status bench_keys_apply_options(sk_context *ctx, const struct bench_keys *keys,
                                   sk_options *opts, const char *method);

/* bench_keys_count / bench_keys_name / bench_keys_stepper: the number of
 * per-stepper keys, the i-th key, and the stepper NAME in it (its length in
 * *len; not NUL-terminated there). */
size_t bench_keys_count(const struct bench_keys *keys);
const char *bench_keys_name(const struct bench_keys *keys, size_t i);
const char *bench_keys_stepper(const struct bench_keys *keys, size_t i, size_t *len);

/* bench_keys_key: the key of setting `field` of stepper `method`
 * (bench.stepper.METHOD.FIELD) into buf. */
void bench_keys_key(const char *method, const char *field, char *buf, size_t len);

/* bench_keys_free: release the table (accepts NULL and *keys == NULL). */
void bench_keys_free(struct bench_keys **keys);

#endif

/* src/cli/bench_keys.h: the bench.* keys of `stiffkit bench`, known to every CLI job, and the per-stepper keys bench.stepper.NAME.* */
#ifndef SK_CLI_BENCH_KEYS_H
#define SK_CLI_BENCH_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include "core/options_bind.h"
#include "stiffkit/stiffkit.h"

/* X(field, key, type, default, min, max, choices, help): the bench.* keys of a fixed name,
 * each written once here and bound to its field of bench_settings. */
#define BENCH_KEYS(X)                                                                            \
  X(methods, "bench.methods", SK_OPT_STRING, "", 0, 0, NULL,                                     \
    "steppers to compare, separated by commas (any registered type: `stiffkit info` lists "      \
    "them; plugin types with solver.plugin); \"\" = the names under bench.stepper")              \
  X(rtols, "bench.rtols", SK_OPT_REAL_LIST, "1e-3, 1e-4, 1e-5, 1e-6, 1e-7", 1e-15, 1.0, NULL,    \
    "the rtol ladder of adaptive steppers (bench.stepper.NAME.rtols for one stepper)")           \
  X(atol_ratio, "bench.atol_ratio", SK_OPT_REAL, "1e-3", 0, 1e300, NULL,                         \
    "atol = atol_ratio * rtol at every rung; 0 = solver.atol at every rung")                     \
  X(steps, "bench.steps", SK_OPT_REAL_LIST, "", 1e-300, 1e300, NULL,                             \
    "the step ladder (solver.fixed_step values) of fixed-step steppers "                         \
    "(bench.stepper.NAME.steps for one stepper)")                                                \
  X(repeats, "bench.repeats", SK_OPT_INT, "3", 1, 1000, NULL,                                    \
    "runs per point: the wall time is their median, with min and max")                           \
  X(error, "bench.error", SK_OPT_CHOICE, "max", 0, 0, "max|rms",                                 \
    "error measure over the measured components and times: max |y - y_ref| or the RMS")          \
  X(components, "bench.components", SK_OPT_INT_LIST, "", 0, 1e15, NULL,                          \
    "components measured (0-based; empty = all)")                                                \
  X(times, "bench.times", SK_OPT_CHOICE, "all", 0, 0, "all|final",                               \
    "output times measured: all of them, or the last one")                                       \
  X(reference, "bench.reference", SK_OPT_CHOICE, "auto", 0, 0, "auto|computed|exact|file",       \
    "the reference solution: the model's exact one (exact), a CVODE/IDA solve far below the "    \
    "study's tolerances (computed), a CSV of t and the n states (file); auto = exact where the " \
    "model has one, else computed")                                                              \
  X(reference_file, "bench.reference_file", SK_OPT_PATH, "", 0, 0, NULL,                         \
    "bench.reference = file: CSV with header t then the n state columns, a row per output "      \
    "time")                                                                                      \
  X(reference_rtol, "bench.reference_rtol", SK_OPT_REAL, "0", 0, 1e-2, NULL,                     \
    "rtol of the computed reference; 0 = 1e-3 times the tightest rtol of the study, within "     \
    "[1e-13, 1e-10]")                                                                            \
  X(reference_check, "bench.reference_check", SK_OPT_STRING, "auto", 0, 0, NULL,                 \
    "the independent method that checks the computed reference at 10 reference_rtol; auto = "    \
    "cvode-adams for an ODE, the first other DAE stepper for a DAE; \"none\" = no check")        \
  X(target_error, "bench.target_error", SK_OPT_REAL, "0", 0, 1e300, NULL,                        \
    "the error of the side-by-side report; 0 = the smallest error every method reaches")         \
  X(external, "bench.external", SK_OPT_PATH_LIST, "", 0, 0, NULL,                                \
    "results of outside codes: CSVs with header tolerance, wall_time[, rhs_evals], t, then "     \
    "the n state columns, one row per output time and tolerance")                                \
  X(hdf5, "bench.hdf5", SK_OPT_BOOL, "false", 0, 0, NULL, "also write PREFIX.bench.h5")          \
  X(plot, "bench.plot", SK_OPT_BOOL, "true", 0, 0, NULL,                                         \
    "draw PREFIX.bench.png (python3 with matplotlib; left out with a note when missing)")

/* The values of the keys (core/options_bind.h gives each field its C type). */
typedef struct {
  BENCH_KEYS(SK__BIND_FIELD)
} bench_settings;

/* BENCH_KEY_<field>: the row's index, its bit in the `given` mask */
enum {
#define BENCH_INDEX(f, ...) BENCH_KEY_##f,
  BENCH_KEYS(BENCH_INDEX)
#undef BENCH_INDEX
      BENCH_KEY_COUNT
};

/* bench_options, bench_settings_read, bench_key, bench_keys_registered: the
 * table of bench.* keys and its reader (core/options_bind.h). */
SK__BIND_DECLARE(bench, bench_settings)

struct bench_keys; /* the per-stepper keys found in one options database */

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

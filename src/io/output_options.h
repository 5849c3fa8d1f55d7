/* src/io/output_options.h: the output.* option keys, each written once and bound to its field of sk__output_settings */
#ifndef SK_IO_OUTPUT_OPTIONS_H
#define SK_IO_OUTPUT_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "core/options_bind.h"

/* X(field, key, type, default, min, max, choices, help): one row per key. */
#define SK__OUTPUT_KEYS(X)                                                                     \
  X(dir, "output.dir", SK_OPT_STRING, ".", 0, 0, NULL,                                         \
    "directory for the result files (must exist)")                                             \
  X(prefix, "output.prefix", SK_OPT_STRING, "result", 0, 0, NULL,                              \
    "file stem: <dir>/<prefix>.csv, .h5, .provenance.yaml")                                    \
  X(csv, "output.csv", SK_OPT_BOOL, "true", 0, 0, NULL,                                        \
    "write the CSV time series of probes and norms")                                           \
  X(hdf5, "output.hdf5", SK_OPT_BOOL, "true", 0, 0, NULL,                                      \
    "write the HDF5 file (states, grid, statistics, provenance)")                              \
  X(states, "output.states", SK_OPT_BOOL, "true", 0, 0, NULL,                                  \
    "store the full state at every output time in the HDF5 file")                              \
  X(n_times, "output.n_times", SK_OPT_INT, "10", 1, 1000000, NULL,                             \
    "number of equally spaced output times in (t0, t_end] (ignored when output.times is set)") \
  X(times, "output.times", SK_OPT_REAL_LIST, "", -1e300, 1e300, NULL,                          \
    "explicit increasing output times in (t0, t_end]")                                         \
  X(probes, "output.probes", SK_OPT_INT_LIST, "", 0, 9.2e18, NULL,                             \
    "state components written to the CSV (default: the node at the centre of a grid)")

/* The values of the keys: field `f` of the row X(f, ...) has the C type of
 * the key's type (core/options_bind.h). */
typedef struct {
  SK__OUTPUT_KEYS(SK__BIND_FIELD)
} sk__output_settings;

/* SK__OUTPUT_KEY_<field>: the row's index, its bit in the `given` mask */
enum {
#define SK__OUTPUT_INDEX(f, ...) SK__OUTPUT_KEY_##f,
  SK__OUTPUT_KEYS(SK__OUTPUT_INDEX)
#undef SK__OUTPUT_INDEX
      SK__OUTPUT_KEY_COUNT
};

/* SK__OUTPUT_GIVEN(given, f): 1 when the key of field f was set by a config
 * or the command line. */
#define SK__OUTPUT_GIVEN(given, f) SK__BIND_GIVEN(given, SK__OUTPUT_KEY_##f)

/* sk__output_options, sk__output_settings_read, sk__output_key,
 * sk__output_keys_registered: the table and its reader (core/options_bind.h). */
SK__BIND_DECLARE(sk__output, sk__output_settings)

#endif

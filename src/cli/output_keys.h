/* src/cli/output_keys.h: the output.* option keys of the command, each written once and bound to its field of cli_output_settings */
#ifndef SK_CLI_OUTPUT_KEYS_H
#define SK_CLI_OUTPUT_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include "core/options_bind.h"

/* X(field, key, type, default, min, max, choices, help): one row per key. */
#define CLI_OUTPUT_KEYS(X)                                                                     \
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
  CLI_OUTPUT_KEYS(SK__BIND_FIELD)
} cli_output_settings;

/* CLI_OUTPUT_KEY_<field>: the row's index, its bit in the `given` mask */
enum {
#define CLI_OUTPUT_INDEX(f, ...) CLI_OUTPUT_KEY_##f,
  CLI_OUTPUT_KEYS(CLI_OUTPUT_INDEX)
#undef CLI_OUTPUT_INDEX
      CLI_OUTPUT_KEY_COUNT
};

/* CLI_OUTPUT_GIVEN(given, f): 1 when the key of field f was set by a config
 * or the command line. */
#define CLI_OUTPUT_GIVEN(given, f) SK__BIND_GIVEN(given, CLI_OUTPUT_KEY_##f)

/* cli_output_options, cli_output_settings_read, cli_output_key,
 * cli_output_keys_registered: the table and its reader (core/options_bind.h). */
SK__BIND_DECLARE(cli_output, cli_output_settings)

#endif

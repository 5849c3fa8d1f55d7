/* src/io/output_options.c: the output.* option keys (which files, where, output times, probes) */
#include "io/output_options.h"

static const sk_option_spec output_options[] = {
    {"output.dir", SK_OPT_STRING, ".", 0, 0, NULL, "directory for the result files (must exist)"},
    {"output.prefix", SK_OPT_STRING, "result", 0, 0, NULL,
     "file stem: <dir>/<prefix>.csv, .h5, .provenance.yaml"},
    {"output.csv", SK_OPT_BOOL, "true", 0, 0, NULL,
     "write the CSV time series of probes and norms"},
    {"output.hdf5", SK_OPT_BOOL, "true", 0, 0, NULL,
     "write the HDF5 file (states, grid, statistics, provenance)"},
    {"output.states", SK_OPT_BOOL, "true", 0, 0, NULL,
     "store the full state at every output time in the HDF5 file"},
    {"output.n_times", SK_OPT_INT, "10", 1, 1000000, NULL,
     "number of equally spaced output times in (t0, t_end] (ignored when output.times is set)"},
    {"output.times", SK_OPT_REAL_LIST, "", -1e300, 1e300, NULL,
     "explicit increasing output times in (t0, t_end]"},
    {"output.probes", SK_OPT_INT_LIST, "", 0, 9.2e18, NULL,
     "state components written to the CSV (default: the node at the centre of a grid)"},
};

const sk_option_spec *sk__output_options(size_t *n)
{
  *n = sizeof output_options / sizeof output_options[0];
  return output_options;
}

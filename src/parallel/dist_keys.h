/* src/parallel/dist_keys.h: the option keys of distributed runs (parallel.decomposition, linsol.bbd_band), each written once and bound to its field of sk__parallel_settings (no MPI header: also in a build without MPI) */
#ifndef SK_DIST_DIST_KEYS_H
#define SK_DIST_DIST_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include "core/options_bind.h"

/* X(field, key, type, default, min, max, choices, help): one row per key. Every run
 * registers them, so that a config written for mpirun is also a valid serial config (and one
 * for a build without MPI). */
#define SK__DIST_KEYS(X)                                                                        \
  X(decomposition, "parallel.decomposition", SK_OPT_INT_LIST, "", 1, 1e9, NULL,                 \
    "MPI runs: ranks per grid direction, one value per model.dim direction, product = number "  \
    "of ranks, each dividing model.n in its direction (empty = automatic: the most compact "    \
    "process grid that divides the grid)")                                                      \
  X(bbd_band, "linsol.bbd_band", SK_OPT_INT, "0", 0, 1e9, NULL,                                 \
    "MPI runs, linsol.preconditioner=bbd: half-bandwidth of the local band blocks (0 = "        \
    "automatic: ncomp x the local x-line length, which covers the local 2D stencil; in 3D the " \
    "z couplings are dropped; ncomp in 1D)")

/* The values of the keys: field `f` of row X(f, ...) has its key's C type. */
typedef struct {
  SK__DIST_KEYS(SK__BIND_FIELD)
} sk__parallel_settings;

/* SK__DIST_KEY_<field>: the row's index, its bit in the `given` mask */
enum {
#define SK__DIST_KEY_INDEX(f, ...) SK__DIST_KEY_##f,
  SK__DIST_KEYS(SK__DIST_KEY_INDEX)
#undef SK__DIST_KEY_INDEX
      SK__DIST_KEY_COUNT
};

/* sk__parallel_options, sk__parallel_settings_read, sk__parallel_key,
 * sk__parallel_keys_registered, sk__parallel_settings_given: the table and its
 * reader (core/options_bind.h). */
SK__BIND_DECLARE(sk__parallel, sk__parallel_settings)

#endif

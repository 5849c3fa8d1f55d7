/* src/dist/dist_keys.h: the parallel.* option keys of distributed runs (no MPI header: also in a build without MPI) */
#ifndef SK_DIST_DIST_KEYS_H
#define SK_DIST_DIST_KEYS_H

#include <stddef.h>

#include "stiffkit/options.h"

/* sk__dist_options: the parallel.* keys (decomposition, preconditioner,
 * BBD bandwidth). Every run registers them, so that a config written for
 * mpirun is also a valid serial config (and one for a build without MPI). */
const sk_option_spec *sk__dist_options(size_t *n);

#endif

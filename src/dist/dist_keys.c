/* src/dist/dist_keys.c: the option keys of distributed runs (parallel.decomposition, linsol.bbd_band), declared in every build (serial runs accept and ignore them) */
#include "dist/dist_keys.h"

static const sk_option_spec dist_table[] = {
    {"parallel.decomposition", SK_OPT_INT_LIST, "", 1, 1e9, NULL,
     "MPI runs: ranks per grid direction, one value per model.dim direction, product = number "
     "of ranks, each dividing model.n in its direction (empty = automatic: the most compact "
     "process grid that divides the grid)"},
    {"linsol.bbd_band", SK_OPT_INT, "0", 0, 1e9, NULL,
     "MPI runs, linsol.preconditioner=bbd: half-bandwidth of the local band blocks (0 = "
     "automatic: ncomp x the "
     "local x-line length, which covers the local 2D stencil; in 3D the z couplings are "
     "dropped; ncomp in 1D)"},
};

const sk_option_spec *sk__dist_options(size_t *n)
{
  if (n) {
    *n = sizeof dist_table / sizeof dist_table[0];
  }
  return dist_table;
}

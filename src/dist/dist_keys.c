/* src/dist/dist_keys.c: the parallel.* option keys, declared in every build (serial runs accept and ignore them) */
#include "dist/dist_keys.h"

static const sk_option_spec dist_table[] = {
    {"parallel.decomposition", SK_OPT_INT_LIST, "", 1, 1e9, NULL,
     "MPI runs: ranks per grid direction, one value per model.dim direction, product = number "
     "of ranks, each dividing model.n in its direction (empty = automatic: the most compact "
     "process grid that divides the grid)"},
    {"parallel.preconditioner", SK_OPT_CHOICE, "auto", 0, 0, "auto|bbd|amg|none",
     "MPI runs: preconditioner of SPGMR: bbd (CVBBDPRE, band blocks of each rank's local "
     "Jacobian by difference quotients, couplings between blocks dropped), amg (hypre "
     "BoomerAMG on I - gamma J, all ranks), none (auto: amg or none when "
     "linsol.preconditioner says so, else amg for diffusion and bbd for the Brusselator)"},
    {"parallel.bbd.band", SK_OPT_INT, "0", 0, 1e9, NULL,
     "MPI runs, bbd: half-bandwidth of the local band blocks (0 = automatic: ncomp x the "
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

/* src/linsol/amg_params.c: the BoomerAMG settings stiffkit uses (sk__amg_params_default), in the MPI build and in the serial one alike */
#include "linsol/amg_hypre.h"

void sk__amg_params_default(sk__amg_params *p)
{
  p->coarsen_type = 10;
  p->interp_type = 6;
  p->p_max_elmts = 4;
  p->strong_threshold = 0.25;
  p->relax_type = 8;
  p->num_sweeps = 1;
  p->agg_num_levels = 0;
  p->max_coarse_size = 0;
  p->print_level = 0;
}

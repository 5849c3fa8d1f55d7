/* src/linsol/mg_params.c: the structured multigrid settings stiffkit uses (sk__mg_params_default), in every build */
#include "linsol/mg_struct.h"

void sk__mg_params_default(sk__mg_params *p)
{
  p->solver = SK__MG_PFMG;
  p->cycles = 1;
  p->relax = SK__MG_RELAX_AUTO;
}

/* src/linsol/mg_params.c: the structured multigrid settings stiffkit uses (sk__mg_params_default, the smoother names), in every build */
#include <string.h>

#include "linsol/mg_struct.h"

void sk__mg_params_default(sk__mg_params *p)
{
  p->solver = SK__MG_PFMG;
  p->cycles = 1;
  p->relax = SK__MG_RELAX_AUTO;
  p->model_below = SK__MG_MODEL_BELOW_DEFAULT;
  p->model_max_lin = SK__MG_MODEL_MAX_LIN_DEFAULT;
}

sk__mg_relax sk__mg_relax_from_name(const char *name)
{
  static const struct {
    const char *name;
    sk__mg_relax relax;
  } table[] = {{"jacobi", SK__MG_RELAX_JACOBI},
               {"wjacobi", SK__MG_RELAX_WJACOBI},
               {"rbgs", SK__MG_RELAX_RBGS}};
  for (size_t i = 0; name && i < sizeof table / sizeof table[0]; i++) {
    if (!strcmp(name, table[i].name)) {
      return table[i].relax;
    }
  }
  return SK__MG_RELAX_AUTO;
}

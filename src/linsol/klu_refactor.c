/* src/linsol/klu_refactor.c: KLU numeric factors kept current: refactor with the old pivots, rcond check, full factor as the fallback */
#include "linsol/klu_refactor.h"

int sk__klu_factor_or_refactor(SuiteSparse_long *cp, SuiteSparse_long *ri, double *ax,
                               klu_l_symbolic *sym, klu_l_numeric **num, double rcond_min,
                               klu_l_common *common)
{
  if (*num) {
    if (klu_l_refactor(cp, ri, ax, sym, *num, common) && klu_l_rcond(sym, *num, common) &&
        common->rcond >= rcond_min) {
      return 1;
    }
    klu_l_free_numeric(num, common);
  }
  *num = klu_l_factor(cp, ri, ax, sym, common);
  return *num != NULL;
}

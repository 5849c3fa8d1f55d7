/* src/linsol/klu_refactor.h: KLU numeric factors kept current: refactor with the old pivots, rcond check, full factor as the fallback */
#ifndef SK_LINSOL_KLU_REFACTOR_H
#define SK_LINSOL_KLU_REFACTOR_H

/* Internal header: KLU only (no SUNDIALS), 64-bit indices (klu_l_*). */

#include <klu.h>

/* sk__klu_factor_or_refactor: numeric factors of the n x n CSC matrix
 * (cp, ri, ax) whose pattern `sym` analyzed (klu_l_analyze). With factors
 * in *num, klu_l_refactor reuses their pivot order, and they are kept when
 * klu_l_rcond is at least rcond_min; otherwise (and without *num) they are
 * freed and klu_l_factor pivots afresh into *num. This is the sequence of
 * SUNDIALS' SUNLinSolSetup_KLU.
 * Returns 1 with *num current, or 0 with *num NULL and common->status
 * saying why (KLU_SINGULAR, KLU_OUT_OF_MEMORY, KLU_INVALID, ...). */
int sk__klu_factor_or_refactor(SuiteSparse_long *cp, SuiteSparse_long *ri, double *ax,
                               klu_l_symbolic *sym, klu_l_numeric **num, double rcond_min,
                               klu_l_common *common);

#endif

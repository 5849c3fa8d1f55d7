/* src/linsol/klu_factor.h: the one KLU seam of stiffkit's own solvers: analyze once, factor or refactor with an rcond fallback, solve, status as a name and an sk_status */
#ifndef SK_LINSOL_KLU_FACTOR_H
#define SK_LINSOL_KLU_FACTOR_H

/* Internal header: KLU only (no SUNDIALS), 64-bit indices (klu_l_*). Every
 * KLU call of stiffkit's own code goes through these functions; SUNDIALS'
 * SUNLinSol_KLU makes its own (linsol/linsol.h reads its status). */

#include <stdint.h>

#include <klu.h>

#include "stiffkit/status.h"

/* One factorization of an n x n CSC matrix. `common` holds KLU's settings
 * (change them after sk__klu_init, before the call they should affect) and
 * the status of the last call (common.status, numerical_rank, singular_col,
 * rcond, condest). The index arrays and values passed must stay unchanged
 * between the calls that use them; KLU does not write them. */
typedef struct {
  klu_l_common common;
  klu_l_symbolic *sym;
  klu_l_numeric *num;
  int64_t n;
} sk__klu;

/* sk__klu_init: KLU's defaults, no analysis and no factors. */
void sk__klu_init(sk__klu *k);

/* sk__klu_analyze: the symbolic analysis of the pattern (cp, ri) of an
 * n x n matrix (any previous analysis and factors are freed). 1 done, 0
 * failed (common.status says why). */
int sk__klu_analyze(sk__klu *k, int64_t n, const int64_t *cp, const int64_t *ri);

/* sk__klu_factor: numeric factors of the analyzed pattern with values ax.
 * With factors already there and rcond_min > 0, klu_l_refactor reuses their
 * pivot order and they are kept when klu_l_rcond is at least rcond_min (the
 * sequence of SUNDIALS' SUNLinSolSetup_KLU); otherwise, and with
 * rcond_min <= 0, they are freed and klu_l_factor pivots afresh. 1 with
 * current factors, 0 with none (common.status: KLU_SINGULAR,
 * KLU_OUT_OF_MEMORY, KLU_INVALID, ...). */
int sk__klu_factor(sk__klu *k, const int64_t *cp, const int64_t *ri, const double *ax,
                   double rcond_min);

/* sk__klu_rcond: KLU's cheap reciprocal pivot-ratio estimate of the current
 * factors into *rcond (klu_l_rcond). 1 done, 0 without factors or on error. */
int sk__klu_rcond(sk__klu *k, double *rcond);

/* sk__klu_condest: KLU's 1-norm condition number estimate of the factored
 * matrix (klu_l_condest; cp and ax as factored) into *condest. 1 done, 0
 * without factors or on error. */
int sk__klu_condest(sk__klu *k, const int64_t *cp, const double *ax, double *condest);

/* sk__klu_solve: b = A^{-1} b for nrhs right-hand sides stored one after the
 * other (n each). 1 done, 0 without factors or on error. */
int sk__klu_solve(sk__klu *k, double *b, int64_t nrhs);

/* sk__klu_drop_factors: frees the numeric factors, keeps the analysis. */
void sk__klu_drop_factors(sk__klu *k);

/* sk__klu_free: frees the factors and the analysis (k may be reused after
 * sk__klu_init). */
void sk__klu_free(sk__klu *k);

/* sk__klu_status_name: the static name of a KLU status ("KLU_OK",
 * "KLU_SINGULAR", "KLU_OUT_OF_MEMORY", "KLU_INVALID", "KLU_TOO_LARGE"), or
 * "KLU_UNKNOWN_STATUS". */
const char *sk__klu_status_name(int status);

/* sk__klu_status_code: the sk_status of a failed KLU call's status:
 * SK_ERR_NOMEM for KLU_OUT_OF_MEMORY, SK_ERR_SINGULAR for KLU_SINGULAR,
 * SK_ERR_TOO_LARGE for KLU_TOO_LARGE, SK_ERR_LINSOL otherwise. */
sk_status sk__klu_status_code(int status);

#endif

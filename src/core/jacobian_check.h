/* src/core/jacobian_check.h: analytic Jacobian against central finite differences, colored batches */
#ifndef SK_CORE_JACOBIAN_CHECK_H
#define SK_CORE_JACOBIAN_CHECK_H

#include <stdint.h>

#include "stiffkit/model.h"

#define SK__JAC_CHECK_WORST 5

/* One compared entry: analytic value (0 outside the pattern) and FD value. */
typedef struct {
  int64_t row, col;
  double analytic, fd;
} sk__jac_entry;

typedef struct {
  int64_t ncols;           /* columns compared */
  int sampled;             /* 1: a random sample of the columns, 0: every column */
  int64_t nbatches;        /* perturbation batches (one pair of RHS calls each) */
  int64_t rhs_evals;       /* RHS evaluations used */
  int64_t nentries;        /* pattern entries compared */
  double norm_j;           /* ||J||_F over the compared columns */
  double norm_diff;        /* ||J - J_fd||_F over the compared columns */
  double rel_err;          /* norm_diff / norm_j (norm_diff when norm_j == 0) */
  int64_t outside_pattern; /* FD entries above the noise level outside the pattern */
  int nworst;
  sk__jac_entry worst[SK__JAC_CHECK_WORST]; /* largest |analytic - fd| first */
} sk__jac_check_result;

/* sk__jacobian_check: compare the model's analytic Jacobian at (t, y) with
 * central differences of its RHS, f(y + h e_j) - f(y - h e_j) / 2h with
 * h_j = eps^(1/3) max(1, |y_j|). Columns that share no row of the pattern
 * are perturbed together (greedy coloring), so a batch costs two RHS calls;
 * a batch in which some entry disagrees with the analytic value, or a row
 * outside the pattern of its columns changes, is redone column by column,
 * so every reported entry belongs to its own column (an undeclared
 * dependency is counted in outside_pattern and reported with analytic 0). All columns are compared
 * when n <= max_full, else `nsample` distinct columns drawn with a fixed
 * generator from `seed` (res->sampled = 1). y is not modified.
 * Returns SK_OK, SK_ERR_UNSUPPORTED (no Jacobian values or pattern),
 * SK_ERR_NOMEM, or the status of a failed RHS/Jacobian evaluation (the
 * error record of the model's context is filled). */
sk_status sk__jacobian_check(sk_model *m, double t, const double *y, int64_t max_full,
                             int64_t nsample, uint64_t seed, sk__jac_check_result *res);

#endif

/* stiffkit/stats.h: the one statistics record every engine fills, and its printers */
#ifndef STIFFKIT_STATS_H
#define STIFFKIT_STATS_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* the public API: exported from libstiffkit, which hides everything else */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* X(field, label): the counters in print order. rhs_evals counts every
 * call of the model's right-hand side the stepper caused: the engine's own,
 * its difference quotients and colored FD Jacobians (rhs_evals_dq), the
 * sparsity detection at setup (rhs_evals_pattern) and the Jacobian
 * self-tests (rhs_evals_selftest; ida-bdf's index-1 check of a DAE with
 * finite-difference Jacobian values too), the eigenvalue estimates of the
 * explicit fixed-step stability guard (rhs_evals_stability); the last four
 * are parts of it. A stepper's counters cover its whole life: restarts at
 * events and at sk_stepper_reinit included. amg_hierarchies counts the
 * BoomerAMG setups of linsol.preconditioner = amg (at most prec_setups: a
 * setup that keeps the hierarchy, see linsol.amg_reuse_gamma_ratio, builds
 * none). New counters go at the end (checkpoints store them in this order). */
#define SK_STATS_COUNTERS(X)                                      \
  X(steps, "steps")                                               \
  X(failed_steps, "error test failures")                          \
  X(rhs_evals, "RHS evaluations (total)")                         \
  X(rhs_evals_dq, "RHS evaluations in difference quotients")      \
  X(rhs_evals_pattern, "RHS evaluations in sparsity detection")   \
  X(rhs_evals_selftest, "RHS evaluations in Jacobian self-tests") \
  X(rhs_evals_stability, "RHS evaluations in stability checks")   \
  X(jac_evals, "Jacobian evaluations")                            \
  X(lin_setups, "linear solver setups")                           \
  X(factorizations, "matrix factorizations")                      \
  X(newton_iters, "nonlinear iterations")                         \
  X(newton_fails, "nonlinear convergence failures")               \
  X(lin_iters, "linear iterations")                               \
  X(lin_conv_fails, "linear convergence failures")                \
  X(prec_setups, "preconditioner setups")                         \
  X(prec_solves, "preconditioner solves")                         \
  X(amg_hierarchies, "AMG hierarchies built")

typedef struct {
#define SK__STATS_FIELD(f, label) int64_t f;
  SK_STATS_COUNTERS(SK__STATS_FIELD)
#undef SK__STATS_FIELD
  int last_order;   /* method order of the last step (0 if n/a) */
  double last_h;    /* last step size taken */
  double t;         /* time reached */
  double wall_time; /* seconds spent in the engine */
} sk_stats;

/* sk_stats_print_table: aligned "label  value" rows. */
/* sk_stats_add: add the counters and wall_time of `more` to `sum` (the
 * totals of consecutive engines or segments); last_order, last_h and t are
 * taken from `more`. */
void sk_stats_add(sk_stats *sum, const sk_stats *more);

void sk_stats_print_table(const sk_stats *st, FILE *out);

/* sk_stats_print_csv: a header line (when header != 0) and one value line. */
void sk_stats_print_csv(const sk_stats *st, int header, FILE *out);

/* sk_stats_print_json: one JSON object, keys as the field names. */
void sk_stats_print_json(const sk_stats *st, FILE *out);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif

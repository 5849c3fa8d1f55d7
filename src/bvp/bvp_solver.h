/* src/bvp/bvp_solver.h: what the BVP solvers (finite differences, shooting, continuation) share */
#ifndef SK_BVP_BVP_SOLVER_H
#define SK_BVP_BVP_SOLVER_H

#include "models/bvp_impl.h"
#include "stiffkit/steady.h"

/* The first failure of a model callback inside a Newton solve or an
 * integration, kept for the final message (the engines only say "a
 * callback failed"). */
typedef struct {
  int failed;
  sk_error saved;
} sk__bvp_failure;

/* sk__bvp_callback_code: the SUNDIALS-style return code of status st (0 ok,
 * 1 recoverable, -1 fatal); a failure's record is kept in f when it is the
 * first. */
int sk__bvp_callback_code(sk__bvp_failure *f, sk_context *ctx, sk_status st);

/* sk__bvp_newton_settings: KINSOL settings for a BVP system with scaled
 * residuals (line search or not, iterations, fnormtol, KLU, Jacobian check
 * off: the BVP layer assembles its Jacobian from checked pieces). */
void sk__bvp_newton_settings(const sk_bvp_settings *s, double fnormtol, sk_steady_settings *k);

/* One walk over the columns of a BVP system's Jacobian: with values NULL
 * it writes the pattern (colptr and/or rowind, either may be NULL),
 * otherwise the values in pattern order (dga, dgb: the boundary-condition
 * Jacobians). Returns the entry count. */
typedef int64_t (*sk__bvp_walk_fn)(const void *sys, const double *dga, const double *dgb,
                                   int64_t *colptr, int64_t *rowind, double *values);

/* A discrete BVP system r(u) = 0 of n equations with d-periodic unknowns
 * (u[j] is component j mod d), given as the callbacks of a model. */
typedef struct {
  int64_t n;
  sk__bvp_walk_fn walk;
  sk_rhs_fn residual; /* r(u) (t unused) */
  sk_jac_values_fn jacobian;
  sk_component_name_fn row_name;
  void *data;               /* the callbacks' user data */
  const double *comp_scale; /* d scales of u's components (KINSOL's u_scale) */
  double fnormtol;
} sk__bvp_system;

/* sk__bvp_newton_system: solve sys from u (in: guess, out: the answer or
 * KINSOL's last iterate) with KINSOL + KLU on the walked pattern; adds the
 * counts to rep (Newton solves, iterations, Jacobians, residual and where)
 * and fills kr. Returns sk_steady_solve's status, or SK_ERR_NOMEM. */
sk_status sk__bvp_newton_system(sk_context *ctx, sk_bvp *bvp, const sk_bvp_settings *s,
                                const sk__bvp_system *sys, double *u, sk_bvp_report *rep,
                                sk_steady_report *kr);

/* sk__bvp_newton_failure: rewrite the error record of a failed Newton solve
 * (status st, KINSOL report kr) into a BVP message: the method, the
 * iterations, the residual left and where, and a suggestion. `diverged`:
 * an iterate (not the guess) made a callback fail, reported as
 * SK_ERR_CONV with that failure. Returns the status of the message. */
sk_status sk__bvp_newton_failure(sk_context *ctx, sk_status st, const char *method,
                                 const sk_steady_report *kr, int diverged,
                                 const char *suggestion);

/* sk__bvp_solve_fd / sk__bvp_solve_shooting: the two families of
 * sk_bvp_solve (same contract). */
sk_status sk__bvp_solve_fd(sk_context *ctx, sk_bvp *bvp, const sk_bvp_settings *s,
                           sk_bvp_solution *sol, sk_bvp_report *rep);
sk_status sk__bvp_solve_shooting(sk_context *ctx, sk_bvp *bvp, const sk_bvp_settings *s,
                                 sk_bvp_solution *sol, sk_bvp_report *rep);

/* sk__bvp_check_conditions: the boundary conditions at the guess (ya, yb)
 * must be independent: the left ones' dg/dy(a), the right ones' dg/dy(b)
 * and all of them together must have full row rank. Errors: SK_ERR_SINGULAR
 * naming the conditions; those of the evaluations. */
sk_status sk__bvp_check_conditions(sk_context *ctx, sk_bvp *bvp, const double *ya,
                                   const double *yb);

/* sk__bvp_scales: per-component scales 1 / (1 + max_i |y_ic|) of a solution
 * or guess (d values into scale). */
void sk__bvp_scales(const sk_bvp_solution *s, double *scale);

#endif

/* stiffkit/linear_solver.h: direct linear solver types an application registers at run time, named by linsol.type beside the built-in ones */
#ifndef STIFFKIT_LINEAR_SOLVER_H
#define STIFFKIT_LINEAR_SOLVER_H

#include "stiffkit/context.h"
#include "stiffkit/model.h"
#include "stiffkit/preconditioner.h"
#include "stiffkit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the public API: exported from libstiffkit, which hides everything else */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* The longest name a linear solver type may have. */
#define SK_LINSOL_NAME_MAX 15

/* A direct (factorizing) linear solver type for the Newton systems of the
 * cvode-* engines (I - gamma J), ida-bdf (dF/dy + cj dF/dy') and the steady
 * solve (J), on the sparse matrix the engine assembles from the model's
 * Jacobian pattern (so the model needs one, as for klu). The matrix is CSC
 * with every diagonal entry stored, rows increasing within a column; its
 * pattern is the same at every setup of one stepper (restarts included),
 * so a type may keep its symbolic analysis, and each setup factors the
 * values it is given. Every op returns SK_OK, a
 * positive one (SK_RECOVERABLE: a singular matrix; the engine retries with
 * a smaller step or a fresh Jacobian) or a negative one (the run stops).
 *   create (may be NULL): allocate the type's state for `model` (*state;
 *     may stay NULL); a failing create frees what it made;
 *   setup: factor A (the engine's sk_jacobian_view: n, colptr, rowind,
 *     values; valid during the call only);
 *   solve: x = A^-1 b with the last factorization (b and x have n entries
 *     and never alias);
 *   destroy (may be NULL): free the state (called once after a successful
 *     create). */
typedef struct sk_linear_solver_type {
  const char *name; /* the value of linsol.type (at most SK_LINSOL_NAME_MAX characters) */
  const char *description;
  sk_status (*create)(sk_model *model, void **state);
  sk_status (*setup)(void *state, const sk_jacobian_view *A);
  sk_status (*solve)(void *state, const double *b, double *x);
  void (*destroy)(void *state);
} sk_linear_solver_type;

/* sk_linear_solver_type_register: add `type` (not copied: it must outlive
 * ctx) to ctx's linear solvers, so that linsol.type = its name (or
 * sk_stepper_set_linear_solver) selects it for cvode-bdf, cvode-adams,
 * ida-bdf and the steady solve. A plugin may call it from its
 * sk_plugin_register. Errors: SK_ERR_ARG (a table without name, setup or
 * solve, a name longer than SK_LINSOL_NAME_MAX or one that "auto", a
 * built-in or a registered linear solver already has; more than 16
 * types). */
sk_status sk_linear_solver_type_register(sk_context *ctx, const sk_linear_solver_type *type);

/* sk_linear_solver_type_find: the type registered in ctx under `name`, NULL
 * if none (the built-in linear solvers are not types of this table). */
const sk_linear_solver_type *sk_linear_solver_type_find(const sk_context *ctx, const char *name);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif

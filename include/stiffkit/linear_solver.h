/* stiffkit/linear_solver.h: linear solver types (direct or iterative) an application registers at run time, named by linsol.type beside the built-in ones */
#ifndef STIFFKIT_LINEAR_SOLVER_H
#define STIFFKIT_LINEAR_SOLVER_H

#include <stdint.h>

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

/* What a linear solver type is: a direct one factors the assembled matrix,
 * an iterative one solves with products and the preconditioner only. */
typedef enum {
  SK_LINSOL_DIRECT = 0,   /* the default of a table that leaves `kind` out */
  SK_LINSOL_ITERATIVE = 1 /* a Krylov method (spgmr's kind) */
} sk_linear_solver_kind;

/* Where the preconditioner P stands, which decides the residual an
 * iterative type's solve must make small. */
typedef enum {
  SK_KRYLOV_RIGHT = 0, /* ||w .* (b - A x)||_2 <= tol: the steady solve and ida-bdf (whose
                          built-in Krylov solvers precondition on the right or not at all) */
  SK_KRYLOV_LEFT = 1   /* ||w .* P^-1 (b - A x)||_2 <= tol: the cvode-* engines, as their
                          built-in Krylov solvers test it */
} sk_krylov_side;

/* What the engine lends an iterative type for one solve of A x = b (valid
 * during the iterate call only). A is the Newton matrix (I - gamma J for
 * the cvode-* engines, dF/dy + cj dF/dy' for ida-bdf, J for the steady
 * solve), applied as a product; P the preconditioner the run names
 * (linsol.preconditioner; the identity when none), an approximation of A
 * applied as P^-1. Each callback returns SK_OK, a positive status (a
 * recoverable failure: the type should return it at once, and the engine
 * retries with a smaller step or a fresh Jacobian) or a negative one (the
 * run stops; the type returns it). */
typedef struct sk_krylov_system {
  int64_t n;             /* the length of every vector */
  const double *weights; /* w > 0: the engine's residual weights (the error
                             weights 1/(rtol |y| + atol) of an integrator) */
  int maxl;              /* linsol.maxl: the most products the solve may take */
  sk_krylov_side side;   /* the residual the solve makes small */
  void *engine;          /* the first argument of apply and precondition */
  sk_status (*apply)(void *engine, const double *v, double *Av);       /* Av = A v */
  sk_status (*precondition)(void *engine, const double *r, double *z); /* z = P^-1 r */
} sk_krylov_system;

/* A linear solver type for the Newton systems of the cvode-* engines,
 * ida-bdf and the steady solve. Every op returns SK_OK, a positive status
 * (SK_RECOVERABLE: a singular matrix or no convergence; the engine retries
 * with a smaller step or a fresh Jacobian) or a negative one (the run
 * stops).
 *   create (may be NULL): allocate the type's state for `model` (*state;
 *     may stay NULL); a failing create frees what it made;
 *   destroy (may be NULL): free the state (called once after a successful
 *     create).
 * A direct type (kind SK_LINSOL_DIRECT) works on the sparse matrix the
 * engine assembles from the model's Jacobian pattern (so the model needs
 * one, as for klu). The matrix is CSC with every diagonal entry stored,
 * rows increasing within a column; its pattern is the same at every setup
 * of one stepper (restarts included), so a type may keep its symbolic
 * analysis, and each setup factors the values it is given.
 *   setup: factor A (the engine's sk_jacobian_view: n, colptr, rowind,
 *     values; valid during the call only);
 *   solve: x = A^-1 b with the last factorization (b and x have n entries
 *     and never alias).
 * An iterative type (kind SK_LINSOL_ITERATIVE) never sees a matrix, so any
 * model takes it; a distributed model does not (its vectors are split over
 * MPI ranks).
 *   iterate: from x = 0, find x whose residual (A->side: ||w .* (b - A x)||_2
 *     or ||w .* P^-1 (b - A x)||_2) is at most tol, taking at most A->maxl
 *     products; set *iters to the products taken and *resnorm to the last
 *     such norm (SK_RECOVERABLE when it stops above tol: the engines then
 *     treat a resnorm below the residual's norm at x = 0 as SUNDIALS'
 *     Krylov solvers' "residual reduced", which the steady solve and
 *     CVODE's first Newton iteration accept; b and x never alias);
 *   setup and solve are unused (NULL). */
typedef struct sk_linear_solver_type {
  const char *name; /* the value of linsol.type (at most SK_LINSOL_NAME_MAX characters) */
  const char *description;
  sk_status (*create)(sk_model *model, void **state);
  sk_status (*setup)(void *state, const sk_jacobian_view *A);
  sk_status (*solve)(void *state, const double *b, double *x);
  void (*destroy)(void *state);
  sk_linear_solver_kind kind;
  sk_status (*iterate)(void *state, const sk_krylov_system *A, const double *b, double *x,
                       double tol, int *iters, double *resnorm);
} sk_linear_solver_type;

/* sk_linear_solver_type_register: add `type` (not copied: it must outlive
 * ctx) to ctx's linear solvers, so that linsol.type = its name (or
 * sk_stepper_set_linear_solver) selects it for cvode-bdf, cvode-adams,
 * ida-bdf and the steady solve. A plugin may call it from its
 * sk_plugin_register. Errors: SK_ERR_ARG (a table without name, or
 * without setup and solve (direct) or iterate (iterative), a kind that is
 * neither, a name longer than SK_LINSOL_NAME_MAX or one that "auto", a
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

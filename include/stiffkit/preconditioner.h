/* stiffkit/preconditioner.h: preconditioner types an application registers at run time, named by linsol.preconditioner beside the built-in ones */
#ifndef STIFFKIT_PRECONDITIONER_H
#define STIFFKIT_PRECONDITIONER_H

#include <stdint.h>

#include "stiffkit/context.h"
#include "stiffkit/model.h"
#include "stiffkit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the public API: exported from libstiffkit, which hides everything else */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* The longest name a preconditioner type may have. */
#define SK_PREC_NAME_MAX 15

/* What a preconditioner type reads of the model (bits of `needs`). */
enum {
  /* the model's sparse Jacobian J = df/dy (pattern and values), evaluated
     whenever the engine asks for a fresh one */
  SK_PREC_NEEDS_JACOBIAN = 1u
};

/* The model's Jacobian as a setup sees it: CSC, n columns, colptr[n + 1],
 * rowind[colptr[n]] (rows increasing within a column), values at (t, y). */
typedef struct {
  int64_t n;
  const int64_t *colptr;
  const int64_t *rowind;
  const double *values;
} sk_jacobian_view;

/* A preconditioner type: P ~ I - gamma J for the Krylov solvers of the
 * cvode-* engines (left preconditioning). Every op returns SK_OK, a
 * positive status (recoverable: the engine retries with a smaller step)
 * or a negative one (the run stops with it).
 *   create (may be NULL): allocate the type's state for `model` (*state;
 *     may stay NULL); a failing create frees what it made;
 *   setup: prepare P at (t, y) for gamma. `jac` holds the model's Jacobian
 *     when `needs` has SK_PREC_NEEDS_JACOBIAN (else NULL); `jac_fresh` is 1
 *     when it was evaluated for this setup, 0 when the engine reuses the
 *     last one (only gamma changed);
 *   solve: z = P^-1 r (r and z have the model's n entries, never alias);
 *   destroy (may be NULL): free the state (called once after a successful
 *     create, also when a setup failed). */
typedef struct sk_preconditioner_type {
  const char *name; /* the value of linsol.preconditioner (at most SK_PREC_NAME_MAX characters) */
  const char *description;
  unsigned needs; /* SK_PREC_NEEDS_* */
  sk_status (*create)(sk_model *model, void **state);
  sk_status (*setup)(void *state, double t, const double *y, double gamma,
                     const sk_jacobian_view *jac, int jac_fresh);
  sk_status (*solve)(void *state, double t, const double *y, const double *r, double *z,
                     double gamma);
  void (*destroy)(void *state);
} sk_preconditioner_type;

/* sk_preconditioner_type_register: add `type` (not copied: it must outlive
 * ctx) to ctx's preconditioners, so that linsol.preconditioner = its name
 * (or sk_stepper_set_preconditioner) selects it for the cvode-* engines.
 * A plugin may call it from its sk_plugin_register. Errors: SK_ERR_ARG (a
 * table without name, setup or solve, a name longer than SK_PREC_NAME_MAX
 * or one that "auto", a built-in or a registered preconditioner already
 * has; more than 16 types). */
sk_status sk_preconditioner_type_register(sk_context *ctx, const sk_preconditioner_type *type);

/* sk_preconditioner_type_find: the type registered in ctx under `name`,
 * NULL if none (the built-in preconditioners are not types of this table). */
const sk_preconditioner_type *sk_preconditioner_type_find(const sk_context *ctx,
                                                          const char *name);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif

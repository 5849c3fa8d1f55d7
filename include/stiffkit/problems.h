/* stiffkit/problems.h: the standard stiff problem library (ROBER, HIRES, VDPOL, OREGO, E5, 2D Brusselator) by name, with parameters and published reference solutions */
#ifndef STIFFKIT_PROBLEMS_H
#define STIFFKIT_PROBLEMS_H

#include <stddef.h>

#include "stiffkit/model.h"
#include "stiffkit/options.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the public API: exported from libstiffkit, which hides everything else */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* sk_problem_create: the built-in problem `name` (case-insensitive; one of
 * the names sk_problem_name lists: rober, hires, vdpol, orego, e5,
 * brusselator) with its published parameters, initial state, analytic CSC
 * Jacobian, component names and its published interval as the default end
 * time (sk_model_get_default_t_end: ROBER 1e11, HIRES 321.8122, VDPOL 2,
 * OREGO 360, E5 1e13, as the Test Set for IVP Solvers; the Brusselator 2).
 * Output: *m (NULL on error). Errors: SK_ERR_ARG (NULL argument),
 * SK_ERR_INPUT (unknown name: the message lists the valid names),
 * SK_ERR_NOMEM. */
sk_status sk_problem_create(sk_context *ctx, const char *name, sk_model **m);

/* sk_problem_create_with_parameters: as sk_problem_create with the
 * problem's parameters params[0 .. nparams) in the order of
 * sk_problem_parameters (NULL: the published values). Errors: as
 * sk_problem_create, SK_ERR_ARG (wrong count; parameters for the
 * Brusselator, which takes sk_brusselator_create), SK_ERR_INPUT (a value
 * outside its range: the message names the key and the range). */
sk_status sk_problem_create_with_parameters(sk_context *ctx, const char *name,
                                            const double *params, size_t nparams, sk_model **m);

/* sk_problem_from_options: the problem of model.problem with its
 * parameters model.<problem>.<name> (registered by sk_problem_options).
 * Errors: as sk_problem_create_with_parameters, and SK_ERR_INPUT for a set
 * parameter of another problem (named). */
sk_status sk_problem_from_options(sk_context *ctx, const sk_options *opts, sk_model **m);

/* sk_problem_parameters: the option specs of problem `name`'s parameters
 * (key, published value as text, accepted range, help); *n their count (0
 * and NULL for the Brusselator or an unknown name). */
const sk_option_spec *sk_problem_parameters(const char *name, size_t *n);

/* A published reference solution: y(t) of the problem at its published
 * parameters, and the significant digits of each component that can be
 * trusted (0: not usable, e.g. a component below any absolute tolerance). */
typedef struct {
  double t;          /* the end time of the published interval */
  int64_t n;         /* components */
  const double *y;   /* n values (static storage) */
  const int *digits; /* n trusted digit counts */
  const char *source;
} sk_problem_reference;

/* sk_problem_get_reference: the published reference of problem `name` at
 * its end time. Returns SK_OK, or SK_ERR_ARG (NULL argument, unknown name,
 * or a problem without one: the Brusselator). Records no error. */
sk_status sk_problem_get_reference(const char *name, sk_problem_reference *ref);

/* sk_problem_name: the name of built-in problem i (0-based), NULL past the end. */
const char *sk_problem_name(size_t i);

/* sk_problem_options: the model.problem key and every problem's parameter
 * keys model.<problem>.<name> (registered by sk_model_register_options; read
 * by sk_model_from_options when model.type = problem). `n` (may be NULL)
 * receives the entry count. */
const sk_option_spec *sk_problem_options(size_t *n);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif

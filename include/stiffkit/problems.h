/* stiffkit/problems.h: the standard stiff problem library (ROBER, HIRES, VDPOL, OREGO, E5, 2D Brusselator) by name */
#ifndef STIFFKIT_PROBLEMS_H
#define STIFFKIT_PROBLEMS_H

#include <stddef.h>

#include "stiffkit/model.h"
#include "stiffkit/options.h"

#ifdef __cplusplus
extern "C" {
#endif

/* sk_problem_create: the built-in problem `name` (case-insensitive; one of
 * the names sk_problem_name lists: rober, hires, vdpol, orego, e5,
 * brusselator) with its published parameters, initial state, analytic CSC
 * Jacobian, component names and default end time
 * (sk_model_get_default_t_end). Output: *m (NULL on error). Errors:
 * SK_ERR_ARG (NULL argument), SK_ERR_INPUT (unknown name: the message
 * lists the valid names), SK_ERR_NOMEM. */
sk_status sk_problem_create(sk_context *ctx, const char *name, sk_model **m);

/* sk_problem_name: the name of built-in problem i (0-based), NULL past the end. */
const char *sk_problem_name(size_t i);

/* sk_problem_options: the model.problem key (registered by the CLI; read
 * by sk_grid_model_from_options when model.type = problem). `n` (may be
 * NULL) receives the entry count. */
const sk_option_spec *sk_problem_options(size_t *n);

#ifdef __cplusplus
}
#endif
#endif

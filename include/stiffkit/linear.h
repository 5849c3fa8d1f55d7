/* stiffkit/linear.h: linear models M u' = -K u + g(t) b with mass and stiffness matrices from memory or Matrix Market files (FE exports) */
#ifndef STIFFKIT_LINEAR_H
#define STIFFKIT_LINEAR_H

#include <stdint.h>

#include "stiffkit/model.h"
#include "stiffkit/options.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the public API: exported from libstiffkit, which hides everything else */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* The model: M u'(t) = -K u(t) + g(t) b, u(t0) = u0, with n x n sparse
 * matrices M (mass; identity when absent) and K (stiffness), a load vector
 * b (optional) and a scalar amplitude g(t) (default 1). This is what a
 * finite-element code exports for linear heat conduction, diffusion or
 * (first-order) structural damping problems. There is no exact solution.
 *
 * How it is integrated (the contract engines rely on):
 *  - Lumped M (row-sum lumping of M, an approximation that keeps every
 *    row's total mass): the ODE u' = D^{-1} (g(t) b - K u), D > 0, whose
 *    Jacobian -D^{-1} K is constant and given as the pattern of K plus
 *    values: every engine works.
 *  - M as given (diagonal or not, possibly singular): M is the model's mass
 *    matrix (sk_model_set_mass) and f = g(t) b - K u with the Jacobian -K
 *    in K's pattern; each engine integrates its form (see sk_model_set_mass:
 *    ida-bdf the residual with iteration matrix c M + K; the others
 *    u' = M^{-1} f, a nonsingular M required, a non-diagonal one through
 *    GMRES with the exact preconditioner (M + gamma K)^{-1} M).
 * The callbacks never fail. */

typedef enum {
  SK_LINEAR_LUMP_NONE = 0,   /* use M as given */
  SK_LINEAR_LUMP_ROW_SUM = 1 /* M replaced by diag(sum_j M_ij) */
} sk_linear_lumping;

/* Load amplitude g(t). */
typedef double (*sk_amplitude_fn)(double t, void *user_data);

/* A linear system in memory. Matrices are CSC, 0-based, rows strictly
 * increasing within each column; every array is copied by
 * sk_linear_create. */
typedef struct {
  int64_t n;
  const int64_t *k_colptr, *k_rowind; /* K: colptr[n+1], rowind[colptr[n]] (required) */
  const double *k_values;
  const int64_t *m_colptr, *m_rowind; /* M: NULL m_colptr = identity */
  const double *m_values;
  sk_linear_lumping lumping;
  const double *load;        /* b[n]; NULL = no load */
  sk_amplitude_fn amplitude; /* g(t); NULL = 1 */
  void *amplitude_data;
  sk_free_fn amplitude_free; /* frees amplitude_data with the model (and on failure); may be NULL */
  const double *initial;     /* u0[n]; NULL = ic_value everywhere */
  double ic_value;
  const char *k_name, *m_name; /* the matrices in messages (NULL: "K", "M") */
} sk_linear_system;

/* sk_linear_create: the model "linear" of `sys` (see above): n states, RHS,
 * initial state, the Jacobian pattern of K with the values of -D^{-1} K
 * (lumped M) or -K, and M as the model's mass matrix unless lumped.
 * Output: *model (NULL on error).
 * Errors: SK_ERR_ARG (NULL argument, n < 1, missing K), SK_ERR_INPUT (a
 * malformed CSC array, a non-finite value, a negative diagonal entry of a
 * diagonal M or a row sum <= 0 of a lumped M, naming its 1-based row),
 * SK_ERR_NOMEM. */
sk_status sk_linear_create(sk_context *ctx, const sk_linear_system *sys, sk_model **model);

/* Files of a linear model (paths relative to the working directory; NULL
 * or "" = not given). */
typedef struct {
  const char *stiffness; /* K, Matrix Market, square (required) */
  const char *mass;      /* M, Matrix Market, square; none = identity */
  sk_linear_lumping lumping;
  const char *load;           /* b, Matrix Market n x 1 vector */
  const char *load_amplitude; /* g(t) as a formula in t (muparser); none = 1 */
  const char *load_table;     /* g(t) from a CSV of rows "t, g", piecewise linear */
  const char *initial;        /* u0, Matrix Market n x 1 vector; none = ic_value */
  double ic_value;
} sk_linear_params;

/* sk_linear_params_default: every file unset, no lumping, ic_value 0. */
void sk_linear_params_default(sk_linear_params *p);

/* sk_linear_create_from_files: read the files of p and build the model as
 * sk_linear_create. Matrix Market files: coordinate or array; real, integer
 * or pattern; general, symmetric or skew-symmetric (symmetric storage holds
 * the lower triangle and is expanded; duplicate entries are summed).
 * Errors: SK_ERR_ARG (no stiffness file), SK_ERR_MISSING (a file cannot be
 * opened: the message names it and its key), SK_ERR_INPUT ("file:line: ..."
 * format errors; sizes of M, K, b, u0 that disagree, naming both files and
 * sizes; both load_amplitude and load_table, or either without a load; a
 * formula muparser cannot parse, with its message and position; a bad
 * table), and the errors of sk_linear_create. */
sk_status sk_linear_create_from_files(sk_context *ctx, const sk_linear_params *p,
                                      sk_model **model);

/* sk_linear_options: the model.* keys of model.type = linear
 * (model.stiffness, model.mass, model.mass_lumping, model.load,
 * model.load_amplitude, model.load_table, model.initial; the constant
 * initial state is model.ic_value of sk_diffusion_options). `n` (may be
 * NULL) receives the entry count. */
const sk_option_spec *sk_linear_options(size_t *n);

/* sk_linear_params_from_options: fill p from those keys (the strings point
 * into opts). Errors: SK_ERR_INPUT (model.stiffness not set),
 * SK_ERR_UNKNOWN_KEY (the table is not registered). */
sk_status sk_linear_params_from_options(sk_context *ctx, const sk_options *opts,
                                        sk_linear_params *p);

/* sk_linear_model_from_options: sk_linear_params_from_options, then
 * sk_linear_create_from_files. */
sk_status sk_linear_model_from_options(sk_context *ctx, const sk_options *opts, sk_model **model);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif

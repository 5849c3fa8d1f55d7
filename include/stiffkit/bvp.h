/* stiffkit/bvp.h: two-point boundary-value problems y' = f(x, y, p) on [a, b] solved by finite differences (KINSOL + KLU), single or multiple shooting (CVODE + KINSOL) and parameter continuation */
#ifndef STIFFKIT_BVP_H
#define STIFFKIT_BVP_H

#include <stddef.h>
#include <stdint.h>

#include "stiffkit/context.h"
#include "stiffkit/options.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the public API: exported from libstiffkit, which hides everything else */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* A problem is a first-order system of d equations
 *     y'(x) = f(x, y, p),   a <= x <= b,
 * with d boundary conditions g(y(a), y(b), p) = 0, of which the first
 * n_left involve y(a) only, the last n_right y(b) only, and the
 * d - n_left - n_right in between both ends (periodic or other coupled
 * conditions). A second-order equation y'' = F(x, y, y') is written as the
 * system (y, y')' = (y', F). p holds named parameters (np >= 0) that
 * continuation steps. Callbacks follow the SUNDIALS contract: 0 ok, > 0
 * recoverable, < 0 fatal; every output is checked for NaN/Inf. */
typedef int (*sk_bvp_rhs_fn)(double x, const double *y, const double *p, double *f,
                             void *user_data);
/* df/dy at (x, y): d*d values, column-major (dfdy[i + d*j] = df_i/dy_j). */
typedef int (*sk_bvp_jac_fn)(double x, const double *y, const double *p, double *dfdy,
                             void *user_data);
/* The d residuals g(ya, yb, p). */
typedef int (*sk_bvp_bc_fn)(const double *ya, const double *yb, const double *p, double *g,
                            void *user_data);
/* dg/dya and dg/dyb: d*d values each, column-major. */
typedef int (*sk_bvp_bc_jac_fn)(const double *ya, const double *yb, const double *p, double *dga,
                                double *dgb, void *user_data);
/* The initial guess y(x) (length d). */
typedef int (*sk_bvp_guess_fn)(double x, const double *p, double *y, void *user_data);
/* The exact solution y(x) (length d), when known (reported errors, tests). */
typedef int (*sk_bvp_exact_fn)(double x, const double *p, double *y, void *user_data);

typedef struct sk_bvp sk_bvp;

#define SK_BVP_MAX_DIM 64    /* components d at most */
#define SK_BVP_MAX_PARAMS 32 /* named parameters at most */

/* sk_bvp_create: a problem of d >= 1 components on [a, b], a < b finite.
 * Errors: SK_ERR_ARG (naming the bad argument), SK_ERR_NOMEM. */
sk_status sk_bvp_create(sk_context *ctx, int d, double a, double b, sk_bvp **bvp);
/* sk_bvp_destroy: frees the problem (and owned user data); NULLs *bvp; accepts NULL. */
void sk_bvp_destroy(sk_bvp **bvp);

/* Setters (SK_ERR_ARG for a NULL problem or a bad argument, named).
 * user_data is owned by the problem when free_fn != NULL. A problem needs
 * an RHS and boundary conditions; the Jacobians are optional (forward
 * differences otherwise); without a guess the solvers start from y = 0.
 * sk_bvp_set_bc: 0 <= n_left, 0 <= n_right, n_left + n_right <= d.
 * sk_bvp_set_parameters: np >= 0 values and names (copied; names may be
 * NULL: "p0", "p1", ...). sk_bvp_set_component_names: d names (copied; a NULL array or a
 * NULL or empty name keeps "y[i]"). */
sk_status sk_bvp_set_user_data(sk_bvp *bvp, void *user_data, void (*free_fn)(void *));
sk_status sk_bvp_set_name(sk_bvp *bvp, const char *name);
sk_status sk_bvp_set_rhs(sk_bvp *bvp, sk_bvp_rhs_fn rhs, sk_bvp_jac_fn jac);
sk_status sk_bvp_set_bc(sk_bvp *bvp, sk_bvp_bc_fn bc, sk_bvp_bc_jac_fn bc_jac, int n_left,
                        int n_right);
sk_status sk_bvp_set_guess(sk_bvp *bvp, sk_bvp_guess_fn guess);
sk_status sk_bvp_set_exact(sk_bvp *bvp, sk_bvp_exact_fn exact);
sk_status sk_bvp_set_parameters(sk_bvp *bvp, int np, const double *p, const char *const *names);
sk_status sk_bvp_set_component_names(sk_bvp *bvp, const char *const *names);
/* sk_bvp_set_condition_names: d names of the boundary conditions, in the
 * order of g (copied), used in messages. */
sk_status sk_bvp_set_condition_names(sk_bvp *bvp, const char *const *names);
/* sk_bvp_set_parameter: p[k] = value (0 <= k < np). */
sk_status sk_bvp_set_parameter(sk_bvp *bvp, int k, double value);

/* Getters (never fail; NULL/0 when unset). */
int sk_bvp_get_dim(const sk_bvp *bvp);
void sk_bvp_get_interval(const sk_bvp *bvp, double *a, double *b);
int sk_bvp_get_nparams(const sk_bvp *bvp);
const double *sk_bvp_get_parameters(const sk_bvp *bvp);
const char *sk_bvp_get_parameter_name(const sk_bvp *bvp, int k);
/* sk_bvp_find_parameter: the index of the parameter `name`, -1 when none. */
int sk_bvp_find_parameter(const sk_bvp *bvp, const char *name);
const char *sk_bvp_get_component_name(const sk_bvp *bvp, int i); /* "y[i]" when unnamed */
const char *sk_bvp_get_name(const sk_bvp *bvp);
int sk_bvp_has_exact(const sk_bvp *bvp);

/* Checked evaluations (the callback, then a NaN/Inf check naming x and
 * the component). Return SK_OK, SK_RECOVERABLE (callback > 0),
 * SK_ERR_CALLBACK (< 0) or SK_ERR_NONFINITE. Without a Jacobian callback,
 * sk_bvp_eval_jac / sk_bvp_eval_bc_jac difference f / g forward with
 * increments sqrt(eps) max(1, |y_j|). */
sk_status sk_bvp_eval_rhs(sk_bvp *bvp, double x, const double *y, double *f);
sk_status sk_bvp_eval_jac(sk_bvp *bvp, double x, const double *y, const double *f, double *dfdy);
sk_status sk_bvp_eval_bc(sk_bvp *bvp, const double *ya, const double *yb, double *g);
sk_status sk_bvp_eval_bc_jac(sk_bvp *bvp, const double *ya, const double *yb, const double *g,
                             double *dga, double *dgb);
sk_status sk_bvp_eval_guess(sk_bvp *bvp, double x, double *y);
sk_status sk_bvp_eval_exact(sk_bvp *bvp, double x, double *y);

/* ---- solutions ---------------------------------------------------------- */

/* A solution on a mesh a = x[0] < ... < x[n-1] = b: y[d*i + c] is
 * component c at x[i]; err (same layout, may be NULL) the estimated error
 * of each value (finite differences: the Richardson estimate). */
typedef struct {
  int64_t n;
  int d;
  double *x, *y, *err;
} sk_bvp_solution;

/* sk_bvp_solution_alloc: n >= 2 points of d components, zeroed, err
 * allocated too. sk_bvp_solution_free: frees and zeroes (accepts an empty
 * one). sk_bvp_solution_interp: y at x by piecewise-cubic Hermite
 * interpolation with slopes f(x_i, y_i) when bvp is given, linear
 * otherwise; x is clamped to [x0, x_{n-1}]. */
sk_status sk_bvp_solution_alloc(sk_context *ctx, int64_t n, int d, sk_bvp_solution *s);
void sk_bvp_solution_free(sk_bvp_solution *s);
sk_status sk_bvp_solution_interp(const sk_bvp_solution *s, sk_bvp *bvp, double x, double *y);

/* ---- solvers ------------------------------------------------------------ */

typedef enum {
  SK_BVP_FD = 0,               /* trapezoidal box scheme on a mesh, KINSOL + KLU */
  SK_BVP_SHOOTING = 1,         /* single shooting: CVODE + KINSOL (dense) */
  SK_BVP_MULTIPLE_SHOOTING = 2 /* multiple shooting: CVODE per interval, KINSOL + KLU */
} sk_bvp_method;

typedef struct {
  sk_bvp_method method;
  double tol; /* requested error: max |err_i| / (1 + |y_i|) <= tol (FD: the Richardson
                       * estimate; shooting: the IVP tolerances derive from it) */
  /* finite differences */
  int64_t mesh_n;     /* intervals of the initial mesh when no mesh is given (>= 1) */
  double mesh_ratio;  /* geometric grading h_{i+1}/h_i of the initial mesh (1 = uniform) */
  int refine;         /* 1: cut where the local defect is large until the estimate <= tol;
                       * 0: no refinement (with estimate on, the mesh and its bisection are
                       * solved once and the bisected solution is returned with its estimate) */
  int estimate;       /* 1: estimate the error by solving again on the bisected mesh; 0: one
                       * solve on the mesh, no estimate (error_estimate -1) */
  int64_t max_points; /* meshes beyond this many points (also the initial mesh's bisection)
                       * are refused: SK_ERR_TOO_LARGE */
  int max_refinements;
  /* Newton (KINSOL) for every method */
  double fnormtol; /* accept when max |scaled residual| <= fnormtol, checked at the answer */
  int64_t max_iters;
  int linesearch; /* 1: KINSOL's line search, 0: full Newton steps */
  /* shooting */
  int64_t shoot_intervals;   /* multiple shooting: subintervals (uniform nodes); 1 = single */
  const double *shoot_nodes; /* or explicit nodes a = n0 < ... < nK = b (count shoot_nnodes) */
  int64_t shoot_nnodes;
  double ivp_rtol, ivp_atol; /* 0: tol / 100 and tol / 1000 */
  char ivp_method[24];       /* stepper type integrating the IVPs ("cvode-bdf") */
  double sensitivity_limit; /* warn (and explain a failure) when ||dy(x_k+1)/dy(x_k)|| exceeds it */
  int64_t output_points;    /* shooting: solution points (uniform) reported (>= 2) */
  const double *output_x;   /* or these abscissae (count n_output_x), e.g. an FD mesh */
  int64_t n_output_x;
  int verbose; /* log one line per refinement / Newton solve (SK_LOG_INFO) */
} sk_bvp_settings;

/* What a solve did (filled on success and on failure). */
typedef struct {
  int converged;
  sk_bvp_method method;
  int64_t points; /* FD: mesh points; shooting: nodes */
  int64_t unknowns;
  int refinements;      /* FD: meshes solved after the first */
  int64_t newton_iters; /* summed over every Newton solve */
  int64_t newton_solves;
  int64_t f_evals; /* evaluations of f (system residuals, Jacobians, IVPs) */
  int64_t jac_evals;
  int64_t ivp_steps;     /* shooting: CVODE steps in all */
  double residual;       /* max |scaled residual| at the answer, recomputed */
  char worst[96];        /* where it is largest ("y at x = 0.5", "BC 'left'") */
  double error_estimate; /* max |err_i| / (1 + |y_i|) (FD: Richardson; -1 when none) */
  double
      error_exact; /* max |y - y_exact| / (1 + |y_exact|) when the exact solution is known, else -1 */
  double sensitivity;      /* shooting: largest ||dy(x_k+1)/dy(x_k)||_inf seen */
  double sensitivity_x[2]; /* on which subinterval */
  int sensitivity_warned;
  double wall_time;
} sk_bvp_report;

/* sk_bvp_settings_default: FD, tol 1e-6, mesh 32 uniform intervals,
 * refinement and estimate on, 10^6 points and 20 refinements at most,
 * fnormtol 0 (automatic: fd max(1e-3 tol, 10 eps (b - a) / h_min), shooting
 * tol / 10), 50 Newton iterations, line search, single shooting,
 * IVP tolerances from tol, cvode-bdf, sensitivity limit 1e8, 101 output
 * points. Never fails. */
void sk_bvp_settings_default(sk_bvp_settings *s);

/* sk_bvp_solve: solve the problem by s->method.
 *   sol  in: a guess (sol->n >= 2 points on [a, b]: FD uses this mesh and
 *        these values; shooting takes its node values from it by
 *        interpolation), or an empty solution (n == 0: the initial mesh of
 *        the settings and the problem's guess); out: the solution (FD: on
 *        the final mesh, err the Richardson estimate; shooting: at the
 *        output points, err NULL-free but zero), replacing the input.
 * Finite differences: the trapezoidal box scheme
 *     (y_{i+1} - y_i) / h_i - (f(x_i, y_i) + f(x_{i+1}, y_{i+1})) / 2 = 0
 * (second order on any mesh, conservative for flux forms), with the
 * boundary conditions as the first n_left and the last d - n_left rows;
 * the sparse Jacobian assembled from df/dy and dg/dy and solved by KLU
 * inside KINSOL. The error is estimated by solving on the bisected mesh:
 * err = (y_h - y_{h/2}) / 3 at the common points (Richardson for order
 * 2), and the finer solution is returned. With refinement, the intervals
 * whose local defect (the coarse scheme's residual evaluated on the fine
 * solution) is within a factor 10 of the largest are cut into 2, 4 or 8
 * pieces (as many as a second-order error needs to meet tol) until the
 * estimate meets tol. The automatic Newton tolerance (fnormtol 0) is
 * max(1e-3 tol, the rounding level of the scaled residual); a mesh whose
 * rounding level exceeds tol / 10 is refused (SK_ERR_INPUT).
 * Shooting: unknowns s_k = y(x_k) at the nodes; the residuals are the
 * boundary conditions and the continuity defects y(x_{k+1}; x_k, s_k) -
 * s_{k+1}, each IVP integrated by s->ivp_method with its variational
 * equations Y' = (df/dy) Y for the Newton Jacobian. Every Newton solve is
 * KINSOL's, and the residual is recomputed at the answer.
 * Returns SK_OK, or: SK_ERR_ARG / SK_ERR_INPUT (bad settings, a problem
 * without RHS or boundary conditions, a guess off the interval),
 * SK_ERR_CONV (Newton failed: the message gives the iterations, the
 * residual left, where it is largest, and a suggestion; for shooting with
 * a sensitivity above the limit it says the IVP is unstable and
 * recommends multiple shooting or finite differences), SK_ERR_SINGULAR
 * (singular Jacobian: at the guess, or a rank-deficient set of boundary
 * conditions), SK_ERR_TOO_LARGE (max_points or max_refinements reached
 * before tol: the estimate left is named), IVP failures (the x where the
 * integration stopped), SK_ERR_CALLBACK / SK_ERR_NONFINITE, SK_ERR_NOMEM. */
sk_status sk_bvp_solve(sk_context *ctx, sk_bvp *bvp, const sk_bvp_settings *s,
                       sk_bvp_solution *sol, sk_bvp_report *rep);

/* One converged step of a continuation. */
typedef struct {
  double value;      /* the parameter */
  double max_abs[2]; /* max |y_c| over the mesh for components 0 and (d > 1) 1 */
  int64_t newton_iters;
  int64_t points;
  double error_estimate;
} sk_bvp_continuation_point;

/* Continuation settings: parameter index k, from p[k] (its current value)
 * to `to` in steps of `step` (sign taken from to - p[k]); a failed step is
 * halved down to `min_step`. */
typedef struct {
  int param;
  double to, step, min_step;
} sk_bvp_continuation;

/* sk_bvp_continue: natural-parameter continuation: solve at p[k], then at
 * p[k] + step, ..., each from the previous solution; after a failure the
 * step is halved (and the last solution reused) until min_step. On return
 * p[k] holds the last converged value, sol that solution and path[0..*npath)
 * the converged steps (path has room for max_path entries; later points
 * are dropped from it but still solved). Returns SK_OK when `to` was
 * reached; SK_ERR_CONV when Newton failed even at min_step: the message
 * names the last converged value, the growth of d max|y| / dp along the
 * path and, when it grew (or the Jacobian became singular), says a turning
 * point (fold) is likely near that value and that no nearby solution on
 * this branch exists past it; other errors as sk_bvp_solve (the first
 * solve failing is returned as it is). */
sk_status sk_bvp_continue(sk_context *ctx, sk_bvp *bvp, const sk_bvp_settings *s,
                          const sk_bvp_continuation *c, sk_bvp_solution *sol,
                          sk_bvp_continuation_point *path, size_t max_path, size_t *npath,
                          sk_bvp_report *rep);

/* ---- problems described by options (YAML) --------------------------------- */

/* sk_bvp_options: the bvp.* option table (register it with
 * sk_options_register). `n` (may be NULL) receives the entry count. */
const sk_option_spec *sk_bvp_options(size_t *n);

/* sk_bvp_defer_sections: let the database keep the keys a description
 * names itself (bvp.equations.<variable>, bvp.parameters.<name>,
 * bvp.bc.<label>.at / .condition, bvp.guess.<component>,
 * bvp.exact.<component>) until sk_bvp_from_options declares them. Call it
 * before loading a config. Errors: those of sk_options_defer_section. */
sk_status sk_bvp_defer_sections(sk_options *opts);

/* The named keys of one description; the options database points into
 * them, so destroy them after the database. */
typedef struct sk_bvp_keys sk_bvp_keys;
void sk_bvp_keys_destroy(sk_bvp_keys **keys);

/* sk_bvp_from_options: the problem of the bvp.* keys: bvp.variables (order
 * 1: y' = f per variable; order 2: y'' = f, the derivative of v named dv),
 * one muparser formula per variable in x, the components and the
 * parameters, boundary conditions as formulas that vanish at the end they
 * name (bvp.bc.<label>.at: left, right, or the x of an end), and optional
 * guess and exact formulas in x (exact: for every variable or none).
 * Conditions hold at `left` (or `a`, or the x of a), `right` (`b`, the x of
 * b), or `both` (coupled: they read <component>_a and <component>_b).
 * Declares the named keys first (*keys), so that a misspelt one is an
 * unknown key with the nearest valid one; a parameter no formula reads is
 * an error too. Messages name file:line:column and the key where the
 * value has one. On failure *bvp is NULL. Errors: SK_ERR_INPUT (no
 * variables, a missing equation, a formula muparser cannot parse, a
 * condition outside or inside the interval, a count of conditions that does
 * not match the order), SK_ERR_UNKNOWN_KEY, SK_ERR_NOMEM. */
sk_status sk_bvp_from_options(sk_context *ctx, sk_options *opts, sk_bvp **bvp,
                              sk_bvp_keys **keys);

/* sk_bvp_settings_from_options: defaults, then the bvp.* solver keys. The
 * settings point into the database (bvp.shooting.nodes). Errors: those of
 * the getters. */
sk_status sk_bvp_settings_from_options(sk_context *ctx, const sk_options *opts,
                                       sk_bvp_settings *s);

/* sk_bvp_continuation_from_options: *enabled = 1 and c filled when
 * bvp.continuation.parameter names a parameter of bvp. Errors:
 * SK_ERR_INPUT (an unknown parameter: the known ones are listed; no
 * bvp.continuation.to; min_step > step). */
sk_status sk_bvp_continuation_from_options(sk_context *ctx, const sk_options *opts,
                                           const sk_bvp *bvp, sk_bvp_continuation *c,
                                           int *enabled);

/* sk_bvp_method_name: "fd", "shooting", "multiple-shooting". */
const char *sk_bvp_method_name(sk_bvp_method m);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif

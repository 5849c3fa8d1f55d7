/* stiffkit/model.h: a model is data plus callbacks (size, kind, RHS, Jacobian pattern and values, exact solution) */
#ifndef STIFFKIT_MODEL_H
#define STIFFKIT_MODEL_H

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

typedef enum {
  SK_MODEL_ODE = 0,      /* y' = f(t, y) */
  SK_MODEL_DAE = 1,      /* F(t, y, y') = 0 with a differential/algebraic id (later issue) */
  SK_MODEL_ALGEBRAIC = 2 /* F(u) = 0 (later issue) */
} sk_model_kind;

/* Callback contract (SUNDIALS' three-way return): 0 ok, > 0 recoverable
 * (the integrator cuts the step and retries), < 0 fatal. Every output is
 * checked for NaN/Inf by the layer. */

/* ydot = f(t, y). y and ydot have length n. */
typedef int (*sk_rhs_fn)(double t, const double *y, double *ydot, void *user_data);

/* Jacobian values df/dy at (t, y) in the order of the pattern given to
 * sk_model_set_jac_pattern (CSC: column by column, rows as listed).
 * fy = f(t, y) is supplied for reuse. Optional: a model with a pattern and
 * no values callback gets colored finite differences of its RHS. */
typedef int (*sk_jac_values_fn)(double t, const double *y, const double *fy, double *values,
                                void *user_data);

/* Dense Jacobian df/dy at (t, y), as SUNDIALS users give it with
 * CVodeSetJacFn and a SUNDenseMatrix: J is an n x n column-major array,
 * J[i + j*n] = df_i/dy_j, zeroed on entry (write the nonzero entries
 * only); fy = f(t, y) is supplied for reuse. */
typedef int (*sk_dense_jac_fn)(double t, const double *y, const double *fy, double *J,
                               void *user_data);

/* Exact or reference solution y(t) (length n). */
typedef int (*sk_exact_fn)(double t, double *y, void *user_data);

/* Initial state at t0 (length n). */
typedef int (*sk_initial_fn)(double t0, double *y0, void *user_data);

/* Model preconditioner for P ~ I - gamma*J: setup at (t, y), then solve
 * P z = r. `jac_current` is 1 when the integrator asks for a fresh setup. */
typedef int (*sk_prec_setup_fn)(double t, const double *y, double gamma, int jac_current,
                                void *user_data);
typedef int (*sk_prec_solve_fn)(double t, const double *y, const double *r, double *z,
                                double gamma, void *user_data);

/* Jacobian-vector product jv = (df/dy)(t, y) v for the matrix-free Krylov
 * path; fy = f(t, y) is supplied for reuse. Optional: without it CVODE
 * uses its difference quotient (f(t, y + sigma v) - f(t, y)) / sigma. */
typedef int (*sk_jtimes_fn)(double t, const double *y, const double *fy, const double *v,
                            double *jv, void *user_data);

/* DAE models (SK_MODEL_DAE): the residual r = F(t, y, y') (length n). */
typedef int (*sk_residual_fn)(double t, const double *y, const double *yp, double *r,
                              void *user_data);

/* DAE Jacobian values dF/dy + cj dF/dy' at (t, y, y') in the order of the
 * pattern (which must hold the entries of both); r = F(t, y, y') is
 * supplied for reuse. Optional: without it, colored finite differences of
 * the residual (y_j and y'_j moved together by sigma and cj sigma). */
typedef int (*sk_dae_jac_fn)(double t, double cj, const double *y, const double *yp,
                             const double *r, double *values, void *user_data);

/* Dense DAE Jacobian dF/dy + cj dF/dy' at (t, y, y') into the zeroed
 * n x n column-major J (J[i + j*n] = dF_i/dy_j + cj dF_i/dy'_j); r =
 * F(t, y, y') is supplied for reuse. */
typedef int (*sk_dae_dense_jac_fn)(double t, double cj, const double *y, const double *yp,
                                   const double *r, double *J, void *user_data);

/* DAE initial values at t0: y0 and a guess of y'0 (both length n); the
 * engine makes them consistent (IDACalcIC). */
typedef int (*sk_dae_initial_fn)(double t0, double *y0, double *yp0, void *user_data);

/* Events (switches, thermostats): nevents root functions g_k(t, y) whose
 * sign changes the engine locates (g has length nevents). */
typedef int (*sk_event_fn)(double t, const double *y, double *g, void *user_data);

/* Called at a located event time t with the state there: fired[k] is +1
 * (g_k rose through 0), -1 (fell) or 0. It may change the model's
 * discrete state (switch a conductance, a source); the engine restarts
 * after it (an ODE at order 1; a DAE with new consistent values). Returns
 * 0, or < 0 to stop the run with an error. At the start of every run
 * (stepper setup) it is called with fired == NULL and y == NULL: reset the
 * discrete state to its initial value (verify and sweeps run one model
 * several times). */
typedef int (*sk_event_action_fn)(double t, const double *y, const int *fired, void *user_data);

/* Called at a located event time t after the action (sk_event_action_fn),
 * with the state there in y (length n), which it may change in place (a
 * velocity reversed at an impact); the engine restarts from the changed y
 * (a DAE with new consistent values). Returns 0 to go on, 1 to end the run
 * at t (the stepper's advance returns there, sk_stepper_get_event_stop), or
 * < 0 to stop the run with an error. Not called at the start of a run. */
typedef int (*sk_event_jump_fn)(double t, double *y, const int *fired, void *user_data);

/* Name of component i, for messages: writes at most len bytes ("u[3,7]"). */
typedef void (*sk_component_name_fn)(int64_t i, char *buf, size_t len, void *user_data);

/* Projection onto an invariant manifold (constraints) after each accepted
 * step: corr (length n) receives the correction that moves y onto it
 * (y + corr). Engines with projection: cvode-bdf (CVodeSetProjFn). */
typedef int (*sk_projection_fn)(double t, const double *y, double *corr, void *user_data);

/* Frees user data owned by the model. */
typedef void (*sk_free_fn)(void *user_data);

typedef struct sk_model sk_model;

/* sk_model_create: a model of `kind` with n > 0 states. Errors: SK_ERR_ARG,
 * SK_ERR_NOMEM. */
sk_status sk_model_create(sk_context *ctx, sk_model_kind kind, int64_t n, sk_model **model);

/* sk_model_destroy: frees the model (and owned user data); NULLs *model; accepts NULL. */
void sk_model_destroy(sk_model **model);

/* Setters: store the callback (NULL removes it). Return SK_OK, or
 * SK_ERR_ARG for a NULL model. user_data is owned by the model when
 * free_fn != NULL (freed by sk_model_destroy). A model needs at least an
 * RHS, and an initial-state or exact-solution callback to start from. */
sk_status sk_model_set_name(sk_model *m, const char *name);
sk_status sk_model_set_user_data(sk_model *m, void *user_data, sk_free_fn free_fn);
sk_status sk_model_set_rhs(sk_model *m, sk_rhs_fn rhs);
sk_status sk_model_set_initial(sk_model *m, sk_initial_fn initial);
sk_status sk_model_set_exact(sk_model *m, sk_exact_fn exact);
sk_status sk_model_set_jac_values(sk_model *m, sk_jac_values_fn jac);
sk_status sk_model_set_preconditioner(sk_model *m, sk_prec_setup_fn setup,
                                      sk_prec_solve_fn solve);
sk_status sk_model_set_component_name(sk_model *m, sk_component_name_fn name);
/* sk_model_set_jtimes: the model's own J v (used by the Krylov linear
 * solvers instead of difference quotients, and checked against central
 * differences by the Jacobian self-test, solver.check_jacobian). */
sk_status sk_model_set_jtimes(sk_model *m, sk_jtimes_fn jtimes);
/* sk_model_inject_nan: a testing aid for a program's failure paths: from
 * now on the model's checked right-hand side returns NaN in component comp
 * at every t >= t_from, so that the stepper stops as it would on a model
 * that breaks down there (stiffkit run --inject nan:comp=C:t=T). An ODE
 * model's right-hand side only: a DAE's residual is not touched. Errors:
 * SK_ERR_ARG (NULL model, comp outside [0, n), t_from NaN). */
sk_status sk_model_inject_nan(sk_model *m, int64_t comp, double t_from);

/* sk_model_set_projection: the projection applied by cvode-bdf after every
 * accepted step (CVODE's projection interface); other engines ignore it. */
sk_status sk_model_set_projection(sk_model *m, sk_projection_fn projection);
int sk_model_has_projection(const sk_model *m);
/* sk_model_eval_projection: the checked call (corr checked for NaN/Inf;
 * SK_ERR_STATE without a projection). */
sk_status sk_model_eval_projection(sk_model *m, double t, const double *y, double *corr);

/* sk_model_set_jac_pattern: the Jacobian sparsity in CSC, given once and
 * copied: colptr[n+1], rowind[colptr[n]], rows strictly increasing within a
 * column, 0 <= row < n. Errors: SK_ERR_INPUT naming the bad column/row. */
sk_status sk_model_set_jac_pattern(sk_model *m, const int64_t *colptr, const int64_t *rowind);

/* sk_model_set_dense_jacobian: df/dy of an ODE model (also the steady
 * system f(t_s, u) = 0 of sk_steady_solve) as one dense n x n array
 * (sk_dense_jac_fn); sk_model_set_dae_dense_jacobian: dF/dy + cj dF/dy' of
 * a DAE model (sk_dae_dense_jac_fn). Either is one more source of the
 * values of the model's Jacobian pattern, so every engine and linear
 * solver uses it, and no finite differences are taken:
 *  - without a pattern the model gets the full one (every entry of every
 *    column; sk_model_has_jacobian is then 1), whose order is the dense
 *    array's: the callback writes the values in place. The dense linear
 *    solvers (cvode-bdf, cvode-adams and ida-bdf with linsol.type=dense,
 *    the steady solve with linsol.type=dense) copy them into their
 *    matrix; linsol auto picks dense for a full pattern up to n = 2000.
 *    klu and umfpack accept the full pattern too (a dense factorization
 *    in sparse storage: correct, slower), and the reference steppers,
 *    whose Newton iteration has no dense path, factor it with KLU.
 *  - with a pattern (sk_model_set_jac_pattern, before or after) the array
 *    is gathered into it (klu and umfpack then factor only its entries);
 *    a nonzero outside the pattern is an SK_ERR_INPUT naming the entry.
 * The Jacobian self-test (solver.check_jacobian) compares it with finite
 * differences as it does the values callback. A model has one values
 * source: the dense callback and sk_model_set_jac_values (or
 * sk_model_set_dae_jac_values) exclude each other. NULL removes the
 * callback (and the full pattern it brought). Errors: SK_ERR_ARG (NULL
 * model, a model of the other kind, naming the other setter, or a values
 * callback already set), SK_ERR_TOO_LARGE (n > 8192: an n x n array over
 * 512 MiB; the message names the sparse setters), SK_ERR_NOMEM. */
sk_status sk_model_set_dense_jacobian(sk_model *m, sk_dense_jac_fn jac);
sk_status sk_model_set_dae_dense_jacobian(sk_model *m, sk_dae_dense_jac_fn jac);
/* sk_model_has_dense_jacobian: 1 when either dense callback is set. */
int sk_model_has_dense_jacobian(const sk_model *m);

/* sk_model_set_mass: a constant mass matrix M (n x n, CSC, copied):
 * the ODE model then reads M y' = f(t, y), its RHS callback giving f and
 * its Jacobian pattern and values those of df/dy. colptr[n+1],
 * rowind[colptr[n]] (0 <= row < n, strictly increasing within a column),
 * values[colptr[n]] (finite). NULL colptr removes M (identity). How the
 * engines integrate it (src/models/mass_form.c):
 *  - ida-bdf: the residual F = M y' - f(t, y), iteration matrix c M - J in
 *    the union of both patterns (every IDA linear solver works from it).
 *    y_j is algebraic when column j of M holds no nonzero value (y'_j is
 *    in no equation), differential otherwise; a zero row of M is then an
 *    algebraic equation 0 = f_i. Consistent y0, y'0 come from IDACalcIC
 *    after the index-1 check.
 *  - every other engine (cvode-bdf, cvode-adams, the reference steppers):
 *    M must be nonsingular. Diagonal M: y' = D^{-1} f with the Jacobian
 *    D^{-1} J in J's pattern (every linear solver). General M: y' = M^{-1} f
 *    with M factored once by KLU; M^{-1} J is dense, so there is no pattern:
 *    the Newton systems go to GMRES with the exact preconditioner
 *    (I - gamma M^{-1} J)^{-1} = (M - gamma J)^{-1} M (M - gamma J analyzed
 *    once, refactored when gamma or J changes); klu, umfpack and band are
 *    refused with a message naming ida-bdf.
 * Errors: SK_ERR_ARG (NULL model, not an ODE model, NULL rowind/values),
 * SK_ERR_INPUT (a malformed pattern or a non-finite value, naming the row
 * and column), SK_ERR_NOMEM. */
sk_status sk_model_set_mass(sk_model *m, const int64_t *colptr, const int64_t *rowind,
                            const double *values);
/* sk_model_get_mass: the stored M (NULL pointers and nnz 0 when none). */
void sk_model_get_mass(const sk_model *m, const int64_t **colptr, const int64_t **rowind,
                       const double **values, int64_t *nnz);
/* sk_model_has_mass: 1 when the model has a mass matrix. */
int sk_model_has_mass(const sk_model *m);

/* DAE setters (a model of kind SK_MODEL_DAE; SK_ERR_ARG for another kind
 * or a NULL model): the residual, the Jacobian values (optional, see
 * sk_dae_jac_fn), the initial values (required unless the model has an
 * exact solution, which then gives y0 with y'0 = 0 as the guess), and the
 * differential/algebraic split: id[i] = 1 when y_i is differential (y'_i
 * appears in F), 0 when algebraic (copied; NULL = all differential; other
 * values are SK_ERR_ARG). */
sk_status sk_model_set_residual(sk_model *m, sk_residual_fn residual);
sk_status sk_model_set_dae_jac_values(sk_model *m, sk_dae_jac_fn jac);
sk_status sk_model_set_dae_initial(sk_model *m, sk_dae_initial_fn initial);
sk_status sk_model_set_differential(sk_model *m, const int *id);

/* sk_model_set_residual_name: names of a DAE model's residual equations
 * for messages (equation i of F need not belong to component i; a formula
 * model names them by their labels). Errors: SK_ERR_ARG (not a DAE model). */
sk_status sk_model_set_residual_name(sk_model *m, sk_component_name_fn name);
/* sk_model_residual_name: the name of residual i: the model's, or
 * "F[i] (row of <component i>)" without one. */
void sk_model_residual_name(const sk_model *m, int64_t i, char *buf, size_t len);

/* sk_model_set_dae_consistent: the model's initial values (y0, y'0) are
 * consistent by construction, as for a stabilized index-2 formulation
 * (GGL) that is not index 1: the engine skips its index-1 check and
 * IDACalcIC (also at event restarts); with suppress_alg the algebraic
 * variables are left out of the local error test (IDASetSuppressAlg), as
 * index-2 multipliers should be (suppression with IDACalcIC still run:
 * sk_stepper_set_suppress_alg). Errors: SK_ERR_ARG (not a DAE model). */
sk_status sk_model_set_dae_consistent(sk_model *m, int suppress_alg);
/* sk_model_get_dae_consistent: 1 when set above (*suppress_alg, may be NULL, gets the flag). */
int sk_model_get_dae_consistent(const sk_model *m, int *suppress_alg);

/* sk_model_get_differential: the id array (NULL when all differential). */
const int *sk_model_get_differential(const sk_model *m);

/* sk_model_set_constraints: inequality constraints on the state, a
 * property of the model (non-negative concentrations, positive
 * temperatures), so that every engine solving it sees them. c has n
 * entries with SUNDIALS' meaning: 0 none, 1 y_i >= 0, -1 y_i <= 0, 2 y_i > 0,
 * -2 y_i < 0 (copied; NULL or all zero = none). Honoured by cvode-bdf,
 * cvode-adams (CVodeSetConstraints), ida-bdf (IDASetConstraints) and the
 * KINSOL steady solve (KINSetConstraints); every other stepper refuses a
 * model with constraints at setup (SK_ERR_INPUT naming those engines). The
 * initial state must satisfy them. Errors: SK_ERR_ARG (NULL model),
 * SK_ERR_INPUT (a code outside the set, naming the component and value),
 * SK_ERR_NOMEM. */
sk_status sk_model_set_constraints(sk_model *m, const int *c);
/* sk_model_get_constraints: the n codes, NULL when none. */
const int *sk_model_get_constraints(const sk_model *m);
/* sk_model_constraints_from_options: apply solver.constraints when the
 * database sets it: one code for all components or a list of n ("" = none).
 * Errors: SK_ERR_INPUT (wrong length, or a code outside the set: the message
 * names the file:line, the index and the value), SK_ERR_NOMEM. */
sk_status sk_model_constraints_from_options(sk_model *m, const sk_options *opts);

/* sk_model_set_events: nevents >= 1 root functions and their action (NULL
 * action: events are only located and logged); nevents = 0 removes them.
 * Engines with event location: cvode-bdf, cvode-adams, ida-bdf (the
 * reference steppers refuse a model with events). Errors: SK_ERR_ARG. */
sk_status sk_model_set_events(sk_model *m, int nevents, sk_event_fn g, sk_event_action_fn action);
/* sk_model_set_event_directions: the crossings the engines locate, per
 * event: +1 only rising (g from - to +), -1 only falling, 0 both (the
 * default); copied, NULL restores both. Passed to CVodeSetRootDirection /
 * IDASetRootDirection. The events must be set first. Errors: SK_ERR_ARG
 * (NULL model, no events, a value outside -1, 0, 1), SK_ERR_NOMEM. */
sk_status sk_model_set_event_directions(sk_model *m, const int *direction);
/* sk_model_get_event_directions: the directions set above, NULL when both for every event. */
const int *sk_model_get_event_directions(const sk_model *m);
/* sk_model_set_event_jump: the state jump of the model's events (see
 * sk_event_jump_fn; NULL removes it). The events must be set first.
 * Errors: SK_ERR_ARG (NULL model, or a model without events). */
sk_status sk_model_set_event_jump(sk_model *m, sk_event_jump_fn jump);
/* sk_model_eval_event_jump: the checked call (y checked for NaN/Inf after
 * it); *stop = 1 when the jump ended the run. SK_OK without a jump. */
sk_status sk_model_eval_event_jump(sk_model *m, double t, double *y, const int *fired, int *stop);
/* sk_model_has_event_jump: 1 when the events have a state jump. */
int sk_model_has_event_jump(const sk_model *m);
/* sk_model_has_event_action: 1 when the events have an action (they may
 * change the model, so the engines restart at them); 0 when events are only
 * located and logged (the integration goes on without a restart). A state
 * jump (sk_model_set_event_jump) counts as an action. */
int sk_model_has_event_action(const sk_model *m);
/* sk_model_get_nevents: the number of root functions (0 when none). */
int sk_model_get_nevents(const sk_model *m);
/* sk_model_eval_events / sk_model_eval_event_action: checked calls of the
 * two callbacks (SK_ERR_STATE without events). */
sk_status sk_model_eval_events(sk_model *m, double t, const double *y, double *g);
sk_status sk_model_eval_event_action(sk_model *m, double t, const double *y, const int *fired);

/* sk_model_set_second_order: mark an ODE model as a separable second-order
 * system q'' = a(t, q) written as y = (q, v), n = 2 nq: the first nq
 * components are the positions q, the next nq the velocities v, and the
 * RHS must be f(t, (q, v)) = (v, a(t, q)) -- its first half is v itself and
 * its second half does not depend on v. Steppers for such systems
 * (Stoermer-Verlet, flag SK_STEPPER_SECOND_ORDER) read a(t, q) from the
 * second half of f. nq = 0 clears the mark. Errors: SK_ERR_ARG (NULL model,
 * nq < 0, n != 2 nq, or a model that is not an ODE). */
sk_status sk_model_set_second_order(sk_model *m, int64_t nq);

/* sk_model_set_thread_safe: yes != 0 declares that the model's RHS may be
 * called from several threads at once (with different y and f arrays):
 * the callback keeps no scratch in its user data and calls nothing that is
 * not itself safe. Colored finite-difference Jacobians of such a model
 * evaluate their colour groups in parallel (OpenMP builds, one work vector
 * per thread; values bitwise identical to the serial evaluation). Default
 * 0: one call at a time. Errors: SK_ERR_ARG (NULL model). */
sk_status sk_model_set_thread_safe(sk_model *m, int yes);

/* sk_model_get_thread_safe: 1 when sk_model_set_thread_safe declared the
 * RHS safe for concurrent calls, else 0 (also for NULL). */
int sk_model_get_thread_safe(const sk_model *m);

/* sk_model_set_default_t_end: the model's natural end time (a published
 * problem's interval end; 0 = none), used by drivers when no end time is
 * configured. Errors: SK_ERR_ARG (NULL model, t_end < 0 or not finite). */
sk_status sk_model_set_default_t_end(sk_model *m, double t_end);
/* sk_model_get_default_t_end: the value set above, 0 when none (never fails). */
double sk_model_get_default_t_end(const sk_model *m);

/* sk_model_detect_pattern: find the Jacobian sparsity of the RHS by probing
 * and store it as the model's pattern (as sk_model_set_jac_pattern), so that
 * a model given by f alone gets colored finite-difference Jacobians. At each
 * of nsamples states y_s = y + 1e-3 max(1, |y_j|) u_j (u_j uniform in
 * [-1, 1) from a fixed generator, seed 0x5d1f2c3b4a596877) the components
 * are moved by +-1e-4 max(1, |y_j|) (random sign and factor in [0.5, 1.5)):
 * one at a time for n <= 20000 (n + 1 RHS calls per sample); for larger n in
 * residue classes j mod g of three coprime moduli g ~ sqrt(n) (about
 * 3 sqrt(n) RHS calls per sample), an entry (i, j) being taken when output i
 * changed in the class of j for all three. Every output that changes at all
 * (bit-exact comparison) is marked, the union over the samples is taken and
 * the diagonal is always included. The bias is conservative: an extra entry
 * costs a little work, a missing one would make the Jacobian wrong; what
 * remains assumed is that a dependence shows at one of the probed states
 * (an RHS whose structure changes with the state needs its own pattern).
 * A warning stating this assumption is logged (SK_LOG_WARN). y is not
 * modified. Errors: SK_ERR_ARG (NULL y, nsamples < 1), SK_ERR_STATE (no
 * RHS), SK_ERR_NOMEM, or the status of a failed RHS evaluation (a
 * recoverable failure at a probing state is an SK_ERR_CALLBACK). */
sk_status sk_model_detect_pattern(sk_model *m, double t, const double *y, int nsamples);

/* ---- parameters addressable by name (forward sensitivities) ------------ */

/* Called after sk_model_set_param changed parameter `index` (its new value
 * is already in the model's field): a model that precomputes coefficients
 * from a parameter recomputes them here. Returns 0, or < 0 on failure. */
typedef int (*sk_param_changed_fn)(int index, void *user_data);

/* df/dp_k at (t, y) for parameter k (the model's index) into dfdp (length
 * n, zeroed on entry); fy = f(t, y) is supplied for reuse. Optional: without
 * it the sensitivity engines take difference quotients in p_k. */
typedef int (*sk_rhs_param_fn)(double t, const double *y, const double *fy, int k, double *dfdp,
                               void *user_data);

/* sk_model_add_param: declare a parameter of the model: its name (letters,
 * digits, '_', '.', '[', ']', ',' and '-'; at most 63 bytes; unique within the
 * model, "R1.R" for a netlist element's resistance) and `value`, the field
 * the model reads it from on every callback (it must live as long as the
 * model; its current content is the parameter's nominal value). Parameters
 * are numbered 0, 1, ... in the order declared. Errors: SK_ERR_ARG (NULL
 * argument, a bad or taken name, naming it), SK_ERR_NOMEM. */
sk_status sk_model_add_param(sk_model *m, const char *name, double *value);
/* sk_model_set_param_changed: the hook run by sk_model_set_param (NULL: the
 * model reads its fields directly and needs none). Errors: SK_ERR_ARG. */
sk_status sk_model_set_param_changed(sk_model *m, sk_param_changed_fn fn);
/* sk_model_set_rhs_param: the model's analytic df/dp (NULL removes it).
 * Errors: SK_ERR_ARG (NULL model, not an ODE model). */
sk_status sk_model_set_rhs_param(sk_model *m, sk_rhs_param_fn fn);
int sk_model_has_rhs_param(const sk_model *m);
/* sk_model_get_nparams: the number of declared parameters (0 for NULL). */
int sk_model_get_nparams(const sk_model *m);
/* sk_model_get_param_name: the name of parameter k, NULL out of range. */
const char *sk_model_get_param_name(const sk_model *m, int k);
/* sk_model_find_param: the index of the parameter named `name`, -1 if none. */
int sk_model_find_param(const sk_model *m, const char *name);
/* sk_model_get_param: the current value of parameter k (0 out of range). */
double sk_model_get_param(const sk_model *m, int k);
/* sk_model_set_param: write v into parameter k's field and, when it
 * differs from the value there, run the changed hook. Errors: SK_ERR_ARG
 * (k out of range, v not finite), SK_ERR_CALLBACK (the hook failed). */
sk_status sk_model_set_param(sk_model *m, int k, double v);
/* sk_model_param_names: the declared names joined by ", " into buf
 * (truncated to len; "none" when the model declares none), for messages. */
void sk_model_param_names(const sk_model *m, char *buf, size_t len);
/* sk_model_eval_rhs_param: the checked df/dp_k call (SK_ERR_STATE without
 * the callback; dfdp zeroed before the call). */
sk_status sk_model_eval_rhs_param(sk_model *m, double t, const double *y, const double *fy, int k,
                                  double *dfdp);

/* The start values of the sensitivities of a model whose initial state
 * depends on its parameters, or of a DAE model that gives consistent initial
 * values itself (sk_model_set_dae_consistent: no IDACalcIC computes them):
 * dy0/dp_k into s and, for a DAE model, dy'0/dp_k into sp (both length n,
 * zeroed on entry; sp is NULL for an ODE model) for parameter k (the model's
 * index) at t0. Returns 0, or < 0 on failure. */
typedef int (*sk_sens_initial_fn)(double t0, int k, double *s, double *sp, void *user_data);
/* sk_model_set_sens_initial: the callback above (NULL removes it); the
 * engines start the sensitivities from it unless sk_stepper_set_sens_initial
 * gave start values (without either, from zero; ida-bdf refuses
 * sensitivities of a model whose initial values are given consistent and
 * that has no callback). Errors: SK_ERR_ARG (NULL model). */
sk_status sk_model_set_sens_initial(sk_model *m, sk_sens_initial_fn fn);
int sk_model_has_sens_initial(const sk_model *m);
/* sk_model_eval_sens_initial: the checked call (sp NULL for an ODE model;
 * SK_ERR_STATE without the callback, SK_ERR_ARG for k out of range,
 * SK_ERR_NONFINITE naming the component). */
sk_status sk_model_eval_sens_initial(sk_model *m, double t0, int k, double *s, double *sp);

/* sk_model_get_grid: the structured grid the model's states live on (the
 * diffusion and Brusselator models): *dim in 1..3, n[d] points along axis
 * d (1 beyond dim), *ncomp states per point, interleaved: state
 * c + ncomp (i + n[0] (j + n[1] k)). Returns SK_ERR_UNSUPPORTED (nothing
 * recorded, outputs untouched) when the model has no grid, SK_ERR_ARG for a
 * NULL argument. */
sk_status sk_model_get_grid(const sk_model *m, int *dim, int64_t n[3], int *ncomp);

/* Getters (NULL / 0 when not set); they never fail. */
int64_t sk_model_get_n(const sk_model *m);
sk_model_kind sk_model_get_kind(const sk_model *m);
const char *sk_model_get_name(const sk_model *m);
void *sk_model_get_user_data(const sk_model *m);
int sk_model_has_exact(const sk_model *m);
/* sk_model_has_jacobian: 1 when the model has a Jacobian pattern (a dense
 * Jacobian callback brings the full one); its values come from the model's
 * callback (values or dense) or, without one, from colored finite
 * differences (sk_model_eval_jac). */
int sk_model_has_jacobian(const sk_model *m);
/* sk_model_has_jacobian_values: 1 when the model has a pattern and gives
 * the values itself (a values or dense callback), 0 when they would come
 * from colored finite differences or there is no pattern. */
int sk_model_has_jacobian_values(const sk_model *m);
int sk_model_has_preconditioner(const sk_model *m);
int sk_model_has_jtimes(const sk_model *m);
int64_t sk_model_get_second_order(const sk_model *m); /* nq, 0 when not marked second order */
sk_context *sk_model_get_context(const sk_model *m);

/* sk_model_get_jac_pattern: stored pattern (NULL pointers when none); nnz = colptr[n]. */
void sk_model_get_jac_pattern(const sk_model *m, const int64_t **colptr, const int64_t **rowind,
                              int64_t *nnz);

/* sk_model_get_jac_colors: the number of colors of the pattern's column
 * coloring (columns of one color share no row), i.e. the RHS calls of one
 * finite-difference Jacobian; 0 without a pattern, -1 when the coloring
 * could not be allocated. Computed on first use and kept with the pattern. */
int64_t sk_model_get_jac_colors(const sk_model *m);

/* sk_model_get_fd_rhs_evals: RHS calls spent so far in finite-difference
 * Jacobians of sk_model_eval_jac (one per color, plus f(t, y) when the
 * caller did not pass it). */
int64_t sk_model_get_fd_rhs_evals(const sk_model *m);

/* sk_model_get_rhs_evals: every call of the model's right-hand side so far,
 * whoever made it (engines, finite differences, pattern detection,
 * Jacobian self-tests, eigenvalue estimates); 0 for NULL. */
int64_t sk_model_get_rhs_evals(const sk_model *m);

/* sk_model_component_name: the model's name for component i, or "y[i]". */
void sk_model_component_name(const sk_model *m, int64_t i, char *buf, size_t len);

/* Checked evaluations: call the callback, then check every output for
 * NaN/Inf. Return SK_OK, SK_RECOVERABLE (callback > 0), SK_ERR_CALLBACK
 * (callback < 0) or SK_ERR_NONFINITE (message names t and the component).
 * The error record of the context is filled on failure. */
sk_status sk_model_eval_rhs(sk_model *m, double t, const double *y, double *ydot);
/* sk_model_eval_jac: the values callback, or colored forward differences
 * (one RHS call per color; fy may be NULL, then f(t, y) costs one more) when
 * the model has a pattern only. SK_ERR_STATE without a pattern. */
sk_status sk_model_eval_jac(sk_model *m, double t, const double *y, const double *fy,
                            double *values);
/* sk_model_eval_jtimes: the model's J v (SK_ERR_STATE without one). */
sk_status sk_model_eval_jtimes(sk_model *m, double t, const double *y, const double *fy,
                               const double *v, double *jv);
/* DAE evaluations (checked like the RHS): the residual; the Jacobian
 * dF/dy + cj dF/dy' (the callback, or colored forward differences when the
 * model has a pattern only; r = F(t, y, y') may be NULL, then it costs one
 * more residual); the initial values (the callback, or the exact solution
 * with y'0 = 0). SK_ERR_STATE when the model lacks what is asked. */
sk_status sk_model_eval_residual(sk_model *m, double t, const double *y, const double *yp,
                                 double *r);
sk_status sk_model_eval_dae_jac(sk_model *m, double t, double cj, const double *y,
                                const double *yp, const double *r, double *values);
sk_status sk_model_eval_dae_initial(sk_model *m, double t0, double *y0, double *yp0);
sk_status sk_model_eval_exact(sk_model *m, double t, double *y);
sk_status sk_model_eval_initial(sk_model *m, double t0, double *y0);
sk_status sk_model_eval_prec_setup(sk_model *m, double t, const double *y, double gamma,
                                   int jac_current);
sk_status sk_model_eval_prec_solve(sk_model *m, double t, const double *y, const double *r,
                                   double *z, double gamma);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif

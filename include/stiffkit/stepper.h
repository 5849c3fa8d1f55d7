/* stiffkit/stepper.h: engines (SUNDIALS backends and reference steppers) behind one stepper type table */
#ifndef STIFFKIT_STEPPER_H
#define STIFFKIT_STEPPER_H

#include <stddef.h>
#include <stdint.h>

#include "stiffkit/context.h"
#include "stiffkit/model.h"
#include "stiffkit/options.h"
#include "stiffkit/stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the public API: exported from libstiffkit, which hides everything else */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

typedef struct sk_stepper sk_stepper;

/* Capability flags of a stepper type. */
enum {
  SK_STEPPER_EXPLICIT = 1u << 0,       /* no linear algebra */
  SK_STEPPER_IMPLICIT = 1u << 1,       /* uses Newton and a linear solver */
  SK_STEPPER_ADAPTIVE = 1u << 2,       /* controls its step size */
  SK_STEPPER_STIFF = 1u << 3,          /* suitable for stiff problems */
  SK_STEPPER_HANDLES_DAE = 1u << 4,    /* accepts SK_MODEL_DAE */
  SK_STEPPER_VARIABLE_ORDER = 1u << 5, /* order changes during the run */
  SK_STEPPER_SECOND_ORDER = 1u << 6,   /* needs a model marked second order
                                        * (sk_model_set_second_order): y = (q, v) */
  SK_STEPPER_MATRIX_FREE = 1u << 7,    /* implicit, and can solve its linear systems
                                        * matrix-free (linsol.type = spgmr, ...) */
  SK_STEPPER_EVENTS = 1u << 8,         /* locates a model's events (root finding) */
  SK_STEPPER_CONSTRAINTS = 1u << 9,    /* honours sk_model_set_constraints (else refused) */
  SK_STEPPER_SENSITIVITY = 1u << 10,   /* forward sensitivities (sk_stepper_set_sensitivity) */
  SK_STEPPER_DISTRIBUTED = 1u << 11    /* integrates a model whose state is spread over MPI ranks
                                          (the distributed runs' blocks) */
};

/* An event the engine located: its time, the root function's index and the
 * direction of the crossing (+1 rising, -1 falling). */
typedef struct {
  double t;
  int index;
  int direction;
} sk_event_record;

/* The stepper type table. One `const sk_stepper_type` per engine; the
 * registry lists the built-in ones, and users may register their own.
 * Every op receives the generic stepper, whose common settings are read
 * with the sk_stepper_get_* functions; `impl` is the type's own state.
 *   create: allocate impl (sk_stepper_set_impl); setup: build engine state
 *   from the settings (called once, lazily); step: take one internal step
 *   toward tout (may pass it), setting *tret; advance: reach tout exactly;
 *   get_stats: fill st; set_from_options: read type-specific keys;
 *   destroy: free impl. A failing step or advance leaves the last
 *   successful state in place. */
typedef struct sk_stepper_type {
  const char *name;
  const char *description;
  int order;      /* declared (maximum) order */
  unsigned flags; /* SK_STEPPER_* */
  sk_status (*create)(sk_stepper *s);
  sk_status (*setup)(sk_stepper *s);
  sk_status (*step)(sk_stepper *s, double tout, double *tret);
  sk_status (*advance)(sk_stepper *s, double tout, double *tret);
  sk_status (*get_stats)(sk_stepper *s, sk_stats *st);
  sk_status (*set_from_options)(sk_stepper *s, const sk_options *opts);
  void (*destroy)(sk_stepper *s);
  /* reinit (optional; plugin ABI 2, see stiffkit/plugin.h): restart the
   * engine after setup at sk_stepper_get_t0 (the new time, also
   * sk_stepper_get_time) from the state buffer (the new state, copied
   * there by sk_stepper_reinit, which has checked its arguments), with yp
   * the caller's y'(t) or NULL, as if set up afresh there (history, step
   * size and order of a fresh start) but keeping the engine's memory, its
   * linear solver and its settings; its statistics go on counting from
   * where they were. On an error the generic stepper restores the time
   * and state. NULL: sk_stepper_reinit destroys the type's state and
   * creates and sets it up again (destroy, create, setup). */
  sk_status (*reinit)(sk_stepper *s, const double *yp);
  /* initialize (optional; plugin ABI 3): after setup and before the first
   * step, compute what the engine corrects in the initial values at
   * sk_stepper_get_t0 (an index-1 DAE's algebraic components and y'), with
   * tout1 the first output time (the engine's scale of t, as IDACalcIC
   * takes it), and leave them in the state and derivative buffers; the
   * first advance then starts from them without computing them again.
   * NULL: the initial values are taken as given. */
  sk_status (*initialize)(sk_stepper *s, double tout1);
  /* options (optional; plugin ABI 4): the keys the type owns, beside the
   * shared solver.* and linsol.* ones (NULL: none); sk_stepper_register_options
   * registers them, the type's set_from_options reads them, and
   * sk_stepper_check_options refuses them for a stepper of another type.
   * Types may share one table (every reference stepper has the same). */
  const sk_option_spec *(*options)(size_t *n);
} sk_stepper_type;

/* Monitor called once per internal step with the time and state the engine
 * returned for it: the step's end, a located root, or, for the cvode-* and
 * ida-bdf engines, the output time of sk_stepper_advance when that step
 * passed it (they step past output times and interpolate, as CVODE's and
 * IDA's normal mode do). h is the step size taken. Return nonzero to stop
 * the run: advance then returns SK_INTERRUPTED with that time and state.
 * sk_stepper_step right after an advance that stopped inside a step
 * returns that step's end without taking a new one. */
typedef int (*sk_monitor_fn)(const sk_stepper *s, double t, double h, void *user_data);

/* ---- registry ----------------------------------------------------------- */

/* sk_stepper_type_find: built-in or registered type by name, NULL if none. */
const sk_stepper_type *sk_stepper_type_find(const sk_context *ctx, const char *name);

/* sk_stepper_type_list: the i-th known type (built-ins, then registered),
 * NULL past the end. */
const sk_stepper_type *sk_stepper_type_list(const sk_context *ctx, size_t i);

/* sk_stepper_type_from_options: the type named by solver.method (built-in
 * or registered on ctx). Errors: SK_ERR_ARG (NULL argument),
 * SK_ERR_UNKNOWN_KEY (solver.method not registered), SK_ERR_INPUT for a name
 * no type has: the message names where solver.method was set
 * ("case.yaml:3:11: "), the name and the valid ones. */
sk_status sk_stepper_type_from_options(sk_context *ctx, const sk_options *opts,
                                       const sk_stepper_type **type);

/* sk_stepper_type_register: add a user type (the table must outlive ctx).
 * Errors: SK_ERR_ARG for a NULL table/op or a name already taken. */
sk_status sk_stepper_type_register(sk_context *ctx, const sk_stepper_type *type);

/* ---- lifecycle ---------------------------------------------------------- */

/* sk_stepper_create: a stepper of type `name` for `model` (not owned).
 * Errors: SK_ERR_ARG (unknown name: message lists the valid names),
 * SK_ERR_UNSUPPORTED (model kind not handled), SK_ERR_NOMEM. */
sk_status sk_stepper_create(sk_context *ctx, const char *name, sk_model *model, sk_stepper **s);

/* sk_stepper_create_with_type: as sk_stepper_create, for the type table
 * `type` itself (registered or not; it must outlive the stepper). Errors:
 * SK_ERR_ARG (NULL argument), SK_ERR_UNSUPPORTED, SK_ERR_NOMEM. */
sk_status sk_stepper_create_with_type(sk_context *ctx, const sk_stepper_type *type,
                                      sk_model *model, sk_stepper **s);

/* sk_stepper_destroy: free the stepper and its engine; NULLs *s; accepts NULL. */
void sk_stepper_destroy(sk_stepper **s);

/* Common settings (read by every engine at setup; errors SK_ERR_ARG for
 * values out of range, SK_ERR_STATE after setup). */
/* rtol in [0, 1] (0 = pure absolute control, as SUNDIALS allows), atol > 0 */
sk_status sk_stepper_set_tolerances(sk_stepper *s, double rtol, double atol);
/* one atol > 0 per component (copied, length n; NULL = back to the scalar);
 * errors name the component */
sk_status sk_stepper_set_atol_vector(sk_stepper *s, const double *atol);
sk_status sk_stepper_set_initial(sk_stepper *s, double t0, const double *y0); /* copied */
/* sk_stepper_set_initial_derivative: y'(t0) (copied, length n) for an
 * engine that integrates F(t, y, y') = 0 (ida-bdf). Together with
 * sk_stepper_set_initial it replaces the model's initial values (a restart
 * from a saved state); consistent initialization still runs on them. Other
 * engines ignore it. Errors: SK_ERR_ARG (NULL), SK_ERR_STATE, SK_ERR_NOMEM. */
sk_status sk_stepper_set_initial_derivative(sk_stepper *s, const double *yp0);
/* sk_stepper_set_max_steps: the total step budget of the stepper's whole
 * life, all advance/step calls together (default 500000, as
 * solver.max_steps; 0 = unlimited). When it is spent, advance fails with
 * SK_ERR_TOO_MUCH_WORK naming t, h and the likely cause. */
sk_status sk_stepper_set_max_steps(sk_stepper *s, int64_t max_steps);
/* sk_stepper_set_max_order: the highest order a variable-order engine may
 * use (0 = the method's default); a fixed-order method accepts only a limit
 * at or above its order (setup: SK_ERR_UNSUPPORTED otherwise). */
sk_status sk_stepper_set_max_order(sk_stepper *s, int order);
sk_status sk_stepper_set_step_limits(sk_stepper *s, double h0, double hmin,
                                     double hmax); /* 0 = default */
sk_status sk_stepper_set_stop_time(sk_stepper *s, double tstop);
/* fixed step size h >= 0 (solver.fixed_step): 0 = adaptive where the method
 * allows; fixed-step-only methods need h > 0 (setup: SK_ERR_INPUT); the
 * engines that always adapt (cvode-*, ida-bdf) refuse h > 0 at setup
 * (SK_ERR_UNSUPPORTED: running adaptively would silently change the method) */
sk_status sk_stepper_set_fixed_step(sk_stepper *s, double h);
/* linear solver: auto, none, dense, band, klu, umfpack, spgmr, spfgmr, spbcgs,
 * sptfqmr, pcg, or a type registered in the context (stiffkit/linear_solver.h);
 * another name: SK_ERR_ARG listing them */
sk_status sk_stepper_set_linear_solver(sk_stepper *s, const char *name);
/* preconditioner: auto, none, jacobi, model, amg. amg (one hypre BoomerAMG
 * V-cycle on I - gamma J; needs the model's sparse Jacobian, else setup
 * gives SK_ERR_UNSUPPORTED) starts MPI when the application has not: MPI
 * is then initialized once per process and finalized when the context that
 * started it is destroyed, after which amg cannot be used again in that
 * process (SK_ERR_STATE); an application that starts MPI itself keeps
 * control of it. mpirun is not needed. */
sk_status sk_stepper_set_preconditioner(sk_stepper *s, const char *name);
/* Krylov: maximum subspace size and linear tolerance factor (CVODE's / IDA's
 * eplifac). 0 = the default: maxl 20 (cvode-* and ida-bdf), eps_lin 1e-3 for
 * cvode-* with any preconditioner and SUNDIALS' 0.05 for ida-bdf (measured
 * in benchmarks/README.md, "Krylov tolerances"). Any other value is passed
 * as given: (5, 0.05) runs CVODE and IDA exactly as their own defaults do. */
sk_status sk_stepper_set_krylov(sk_stepper *s, int maxl, double eps_lin);
/* sk_stepper_set_amg_reuse: with preconditioner amg (cvode-*), keep the
 * BoomerAMG hierarchy built for I - gamma0 J while CVODE keeps its Jacobian
 * and gamma / gamma0 stays within [1/gamma_ratio, gamma_ratio]; 1 builds one
 * at every preconditioner setup (default 2; linsol.amg_reuse_gamma_ratio).
 * The statistics count the hierarchies built (amg_hierarchies). Errors:
 * SK_ERR_ARG outside [1, 1e6], SK_ERR_STATE after setup. */
sk_status sk_stepper_set_amg_reuse(sk_stepper *s, double gamma_ratio);
/* ordering for the sparse direct solvers: amd, colamd, metis-nd */
sk_status sk_stepper_set_ordering(sk_stepper *s, const char *name);
sk_status sk_stepper_set_monitor(sk_stepper *s, sk_monitor_fn fn, void *user_data);
/* Jacobian self-test (solver.check_jacobian, default on): engines that use
 * the model's own Jacobian values or J v (cvode-*, and the implicit
 * reference steppers) compare them with finite differences at the initial
 * state and at the states after accepted steps 1, 10 and 100, and refuse
 * to run on (SK_ERR_INPUT, the worst entries named) when they disagree;
 * 0 runs anyway. */
sk_status sk_stepper_set_check_jacobian(sk_stepper *s, int on);
int sk_stepper_get_check_jacobian(const sk_stepper *s);
/* sk_stepper_set_suppress_alg (solver.suppress_alg, default off): ida-bdf
 * leaves the model's algebraic variables (sk_model_set_differential ids 0)
 * out of the local error test (IDASetSuppressAlg), as SUNDIALS' idaHeat2D
 * examples do, independently of the consistent initialization: IDACalcIC
 * (IDA_YA_YDP_INIT) still runs unless the model is marked consistent. The
 * other engines integrate ODEs only, where it has no effect. The getter is
 * 1 when set here or by sk_model_set_dae_consistent(m, 1), which keeps its
 * meaning (no IDACalcIC, and suppression). Errors: SK_ERR_STATE after setup. */
sk_status sk_stepper_set_suppress_alg(sk_stepper *s, int on);
int sk_stepper_get_suppress_alg(const sk_stepper *s);

/* Stability guard (solver.allow_unstable, default 0): an explicit method
 * the stability table knows (euler, rk4, rk45, ab2, am2pc) run with a
 * fixed step estimates the dominant eigenvalue lambda of the Jacobian at
 * t0 and after every 100 accepted steps (the interval doubling, up to
 * 6400, while the estimate moves by less than 5%; restarted Arnoldi, with the
 * model's sparse Jacobian or difference quotients; the RHS calls are
 * counted as rhs_evals_stability) and compares h lambda with the method's
 * stability region; outside it, setup or advance fails with
 * SK_ERR_UNSTABLE, the message naming the largest stable h, lambda and
 * the time. 1 logs one warning instead and runs on. Implicit methods
 * (A-stable) and adaptive runs are not checked. Errors: SK_ERR_STATE. */
sk_status sk_stepper_set_allow_unstable(sk_stepper *s, int on);
int sk_stepper_get_allow_unstable(const sk_stepper *s);
/* Blow-up guard (solver.max_growth, default 1e8): every engine stops with
 * SK_ERR_BLOWUP (the time, the component's index, name and value named)
 * after an accepted step that leaves a state component non-finite or a
 * differential one (every component of an ODE) larger in magnitude than
 * factor * max(max_i |y0_i|, 1), y0 the state the stepper starts from
 * (a DAE's algebraic variables take their constraints' scale). 0 keeps
 * only the non-finite check. Errors:
 * SK_ERR_ARG (factor not 0 and not >= 1), SK_ERR_STATE. */
sk_status sk_stepper_set_max_growth(sk_stepper *s, double factor);
double sk_stepper_get_max_growth(const sk_stepper *s);

typedef enum {
  SK_DETECT_PATTERN_AUTO = 0, /* when it would otherwise be dense or missing (see below) */
  SK_DETECT_PATTERN_ON = 1,   /* always for a model without a pattern */
  SK_DETECT_PATTERN_OFF = 2
} sk_detect_pattern_mode;

/* Sparsity detection (solver.detect_pattern): at setup, an implicit
 * stepper on a model with an RHS but no Jacobian pattern probes the
 * pattern at the initial state (sk_model_detect_pattern, 2 samples;
 * stored in the model, with a logged warning stating the assumption),
 * so that it gets colored finite-difference Jacobians and sparse direct
 * solvers. AUTO does so for steppers that need a matrix (no
 * SK_STEPPER_MATRIX_FREE flag: the reference steppers), and for the others
 * when the linear solver is klu or umfpack, or auto on a model without its
 * own preconditioner (one with a preconditioner goes matrix-free); ON for
 * any linear solver; OFF never. */
sk_status sk_stepper_set_detect_pattern(sk_stepper *s, sk_detect_pattern_mode mode);

typedef enum {
  SK_VECTOR_KERNELS_AUTO = 0, /* stiffkit's where measured faster (every size, today) */
  SK_VECTOR_KERNELS_ON = 1,   /* stiffkit's optimized kernels */
  SK_VECTOR_KERNELS_OFF = 2   /* the packaged SUNDIALS serial kernels */
} sk_vector_kernels_mode;

/* sk_stepper_set_vector_kernels (solver.fast_vector_ops): the N_Vector
 * kernels of the cvode-* engines. stiffkit's give bitwise the results of
 * the packaged SUNDIALS 6.4.1 serial kernels (same operations per element,
 * sums in index order) for every thread count, so a run takes the same
 * steps either way; they are only faster. After setup,
 * sk_stepper_get_vector_kernels names what ran ("stiffkit" or
 * "sundials"; before: "auto", "on" or "off"). Errors: SK_ERR_ARG,
 * SK_ERR_STATE after setup. */
sk_status sk_stepper_set_vector_kernels(sk_stepper *s, sk_vector_kernels_mode mode);
const char *sk_stepper_get_vector_kernels(const sk_stepper *s);

typedef enum {
  SK_DQ_JACOBIAN_STIFFKIT = 0, /* colored finite differences on the model's pattern */
  SK_DQ_JACOBIAN_SUNDIALS = 1  /* the package's own dense or band difference quotients */
} sk_dq_jacobian_mode;

/* sk_stepper_set_dq_jacobian (linsol.dq_jacobian, default stiffkit): who
 * computes the Jacobian of a model that has a pattern but no Jacobian
 * values, for the dense and band solvers of cvode-* and ida-bdf: stiffkit
 * (colored finite differences on the pattern, one RHS or residual call
 * per color) or SUNDIALS (the package's own difference quotients: n calls
 * for dense, ml + mu + 1 for band, with its increments, as SUNDIALS'
 * examples that set no Jacobian function get; the band's bandwidths still
 * come from the pattern). Both count in rhs_evals_dq. klu and umfpack
 * always take stiffkit's values (the packages have no sparse difference
 * quotients), and models with Jacobian values always use them. Errors:
 * SK_ERR_ARG, SK_ERR_STATE after setup. */
sk_status sk_stepper_set_dq_jacobian(sk_stepper *s, sk_dq_jacobian_mode mode);
sk_dq_jacobian_mode sk_stepper_get_dq_jacobian(const sk_stepper *s);

/* sk_stepper_set_threads (solver.threads): OpenMP threads of the run's
 * kernels, applied process-wide at setup. 0 (default) = auto:
 * OMP_NUM_THREADS when set, else the processors not already busy (from
 * the load average and the runnable count in /proc/loadavg), at least 1;
 * n > 0 = exactly n; -1 = leave OpenMP as the application set it. Loops
 * shorter than 32768 items never use threads. Errors: SK_ERR_ARG,
 * SK_ERR_STATE after setup. */
sk_status sk_stepper_set_threads(sk_stepper *s, int threads);

/* sk_stepper_set_from_options: apply the solver.* and linsol.* keys that
 * the database sets (from a config file or the command line), then the
 * type's own keys. Keys left at their built-in default change nothing: a
 * value set earlier with a setter (sk_stepper_set_initial,
 * sk_stepper_set_tolerances, ...) stays, and a setter called afterwards
 * overrides the database. Errors: as the setters; SK_ERR_INPUT for
 * solver.atol_list of the wrong length (the message names the key, its
 * position and the model's size); SK_ERR_STATE after setup. */
sk_status sk_stepper_set_from_options(sk_stepper *s, const sk_options *opts);

/* sk_stepper_setup: validate and build the engine (idempotent; called by
 * advance). Errors: SK_ERR_UNSUPPORTED (e.g. a linear solver the engine or
 * model cannot use), SK_ERR_INPUT, SK_ERR_NOMEM, solver errors. */
sk_status sk_stepper_setup(sk_stepper *s);

/* sk_stepper_advance: integrate to tout (> current t) and return the state
 * there. The total step budget and the stop time hold across calls.
 * Returns SK_OK, SK_INTERRUPTED (monitor), or an error (the error record
 * names t, h and the likely cause). */
sk_status sk_stepper_advance(sk_stepper *s, double tout, double *tret);

/* sk_stepper_initialize: set up, then compute the consistent initial values
 * the first advance would start from, so that sk_stepper_get_state and
 * sk_stepper_get_derivative return them at t0 (ida-bdf on a DAE model:
 * IDACalcIC with tout1 as its scale of t; pass the tout of the first
 * advance and the steps are those of a run without this call). Nothing
 * changes for an engine or model with nothing to correct, after the first
 * step, or on a second call. tout1 must differ from t0 and be finite.
 * Errors: those of setup; SK_ERR_ARG (tout1); SK_ERR_CONV when the
 * consistent values cannot be computed (the message names the component
 * and the residuals left). */
sk_status sk_stepper_initialize(sk_stepper *s, double tout1);

/* sk_stepper_reinit: restart a set-up stepper at time t from the state y
 * (length n, copied) and, for an engine that integrates F(t, y, y') = 0,
 * the derivative yp (length n, copied; may be NULL), as CVodeReInit and
 * IDAReInit do: for restarts at a discontinuity (the application changes
 * the model between two calls of advance) or from a saved state. The
 * engine then starts afresh at t, with the history, step size and order
 * of a fresh start (the multistep reference steppers start up again; an
 * adaptive one estimates its first step anew, or takes solver.h0), and it
 * takes the steps that a stepper newly created with the same settings and
 * started at (t, y) (and the same y') would take, bitwise for the built-in
 * engines (tests/numerics/test_stepper_reinit.c). It keeps its memory, the
 * linear solver and its symbolic analysis (numeric factors are computed
 * afresh), the tolerances, the options, the stop time, the monitor, the
 * log of events and the model's discrete (event) state, which the
 * application owns. t may lie before or after the current time;
 * sk_stepper_get_t0 and sk_stepper_get_time return t afterwards.
 *   yp: ida-bdf takes it as y'(t); NULL means y' = f(t, y) for an ODE
 *   model, and for a DAE the current y' as the guess from which the
 *   consistent initialization (IDACalcIC, as at setup) computes y'_d and
 *   y_a; a DAE model marked consistent (sk_model_set_dae_consistent) runs
 *   none, so it needs yp. The other engines ignore it.
 *   Jacobian self-test (solver.check_jacobian): not run again; the checks
 *   after accepted steps 1, 10 and 100 count the stepper's steps over its
 *   whole life, across restarts.
 *   Stability and blow-up guards: the explicit fixed-step stability check
 *   runs at (t, y), as at setup; the growth reference becomes the larger
 *   of the old one and max(max_i |y_i|, 1).
 *   Statistics and the step budget (solver.max_steps) go on accumulating
 *   over the stepper's whole life (CVODE 6.4.1's CVodeReInit and IDAReInit
 *   zero their counters; the engines add the counts from before).
 *   A type without a reinit op (registered without one, or from a plugin
 *   built for plugin ABI 1) is restarted by destroying its state and
 *   creating and setting it up again with the same settings; its counters
 *   are carried over in the statistics (a step budget it enforces itself
 *   starts again).
 * Errors, after which the time and the state are those from before:
 * SK_ERR_ARG (s or y NULL; n not the model's size; t not finite or not
 * before the stop time; a non-finite y or yp component, named; ida-bdf on
 * a DAE marked consistent without yp), SK_ERR_INPUT (y violates the
 * model's constraints, the component named), SK_ERR_STATE (before setup:
 * set the start with sk_stepper_set_initial), SK_ERR_NOMEM,
 * SK_ERR_UNSTABLE (the stability guard refuses the fixed step at (t, y)),
 * an engine's restart failure (SK_ERR_SOLVER), or the error of a
 * re-created type's create or setup (its old state then stays). */
sk_status sk_stepper_reinit(sk_stepper *s, double t, int64_t n, const double *y,
                            const double *yp);

/* sk_stepper_step: one internal step toward tout (it may pass tout; it never
 * passes the stop time); *tret is the new time. Returns as sk_stepper_advance,
 * plus SK_ERR_UNSUPPORTED for a type without a single-step mode. */
sk_status sk_stepper_step(sk_stepper *s, double tout, double *tret);

/* Getters: they never fail and never record errors. The state (length n)
 * is the one at sk_stepper_get_time, also after a failed advance (the last
 * successful step); settings read back as set, with "auto" choices
 * replaced by the engine's resolved names after setup. */
const double *sk_stepper_get_state(const sk_stepper *s); /* length n, at the last tret */

/* sk_stepper_get_events: the model's events located so far, in time order
 * (*log stays valid until the next advance or step; n = 0 when none). */
void sk_stepper_get_events(const sk_stepper *s, const sk_event_record **log, size_t *n);

/* sk_stepper_get_event_stop: 1 when an event's state jump ended the run
 * (sk_event_jump_fn returned 1): the advance that located it returned at
 * that time, *t (may be NULL), with the state there, and a driver stops
 * asking for later output times (a later advance or step returns at once
 * at *t with SK_OK); 0 otherwise. Reset by setup. */
int sk_stepper_get_event_stop(const sk_stepper *s, double *t);
double sk_stepper_get_time(const sk_stepper *s);
/* y' (length n) at sk_stepper_get_time for engines that keep it (ida-bdf,
 * after setup), else NULL */
const double *sk_stepper_get_derivative(const sk_stepper *s);
sk_status sk_stepper_get_stats(sk_stepper *s, sk_stats *st);
const sk_stepper_type *sk_stepper_get_type(const sk_stepper *s);
/* sk_stepper_get_model: the model the engine integrates: the one given to
 * sk_stepper_create, or for a model with a mass matrix its engine form
 * (same n, names, initial state; see sk_model_set_mass), owned by s. */
sk_model *sk_stepper_get_model(const sk_stepper *s);
/* sk_stepper_get_user_model: the model given to sk_stepper_create (the
 * same as sk_stepper_get_model unless the model has a mass matrix). */
sk_model *sk_stepper_get_user_model(const sk_stepper *s);
sk_context *sk_stepper_get_context(const sk_stepper *s);
double sk_stepper_get_t0(const sk_stepper *s);
double sk_stepper_get_rtol(const sk_stepper *s);
double sk_stepper_get_atol(const sk_stepper *s);
const double *sk_stepper_get_atol_vector(const sk_stepper *s); /* NULL when scalar */
int64_t sk_stepper_get_max_steps(const sk_stepper *s);
int sk_stepper_get_max_order(const sk_stepper *s);
void sk_stepper_get_step_limits(const sk_stepper *s, double *h0, double *hmin, double *hmax);
int sk_stepper_get_stop_time(const sk_stepper *s, double *tstop); /* 1 when set */
double sk_stepper_get_fixed_step(const sk_stepper *s);            /* 0 = adaptive */
const char *sk_stepper_get_linear_solver(const sk_stepper *s);
const char *sk_stepper_get_preconditioner(const sk_stepper *s);
void sk_stepper_get_krylov(const sk_stepper *s, int *maxl, double *eps_lin);
const char *sk_stepper_get_ordering(const sk_stepper *s);
/* sk_stepper_get_linear_solver_reason: after setup with linsol.type=auto,
 * one sentence saying what the engine chose and why (for a sparse pattern:
 * the predicted fill and flops of the LU factors against the crossover,
 * and whether the model has a preconditioner); "" when the linear solver
 * was named or the stepper has none. */
const char *sk_stepper_get_linear_solver_reason(const sk_stepper *s);
/* sk_stepper_get_preconditioner_report: after sk_stepper_get_stats of a
 * run with linsol.preconditioner=mg, one line saying what the structured
 * multigrid did (solver, stencil, cycles per solve, setups and their total
 * and mean seconds); "" for the other preconditioners. */
const char *sk_stepper_get_preconditioner_report(const sk_stepper *s);
/* sk_stepper_get_initial_correction: after the first step of a DAE engine
 * (ida-bdf), one line saying what its consistent initialization at t0
 * changed: the residual before and after, and each component of y (the
 * algebraic ones) and y' that moved, with its value given and computed
 * ("" before, for other engines, or when the model declares its values
 * consistent). */
const char *sk_stepper_get_initial_correction(const sk_stepper *s);

/* For implementations of stepper types: the type's own state, and the
 * writable state buffer the engine integrates in place (length n). */
void sk_stepper_set_impl(sk_stepper *s, void *impl);
void *sk_stepper_get_impl(const sk_stepper *s);
double *sk_stepper_state_buffer(sk_stepper *s); /* writable state, length n */

/* ---- forward sensitivities ---------------------------------------------- */

/* Corrector of the sensitivity systems (CVODES' CV_SIMULTANEOUS, CV_STAGGERED). */
typedef enum { SK_SENS_SIMULTANEOUS = 0, SK_SENS_STAGGERED = 1 } sk_sens_method;

/* sk_stepper_set_sensitivity: integrate with the solution the sensitivities
 * s_j = dy/dp_j of np >= 1 parameters of the model (params: the model's
 * parameter indices, sk_model_find_param; copied), with s_j(t0) = 0 unless
 * sk_stepper_set_sens_initial gives them. pbar: the parameters' scales
 * (copied; NULL = |p_j|, the nominal values), which scale the difference
 * quotients of the sensitivity right-hand sides and the sensitivities'
 * error weights as CVodeSetSensParams does. The right-hand sides are
 * J s_j + df/dp_j with J from the model's own Jacobian values when it has
 * them (df/dp_j from sk_model_set_rhs_param, else centered differences in
 * p_j alone, increment eps^(1/3) max(|p_j|, pbar_j)), else CVODES' internal
 * difference quotients (centered, in y and p together). error_control != 0 puts the
 * sensitivities in the local error test (CVodeSetSensErrCon). np = 0
 * switches them off. A restart at an event carries them on unchanged (a
 * jump of the state at the event is not differentiated); sk_stepper_reinit
 * starts them from sk_stepper_set_sens_initial's values, else from zero. Engines: those with SK_STEPPER_SENSITIVITY
 * (cvode-bdf, cvode-adams). Errors (before setup): SK_ERR_UNSUPPORTED (an
 * engine without sensitivities: the message names those that have them),
 * SK_ERR_ARG (an index out of range or given twice, a non-positive or
 * non-finite pbar), SK_ERR_INPUT (a parameter whose value is 0 without a
 * pbar: the message asks for solver.sensitivity.pbar), SK_ERR_STATE,
 * SK_ERR_NOMEM. */
sk_status sk_stepper_set_sensitivity(sk_stepper *s, int np, const int *params, const double *pbar,
                                     sk_sens_method method, int error_control);
/* sk_stepper_get_nsens: the number of sensitivity parameters (0 = none). */
int sk_stepper_get_nsens(const sk_stepper *s);
/* sk_stepper_get_sens_param / sk_stepper_get_sens_pbar: the model index and
 * the scale of sensitivity j (-1 / 0 out of range). */
int sk_stepper_get_sens_param(const sk_stepper *s, int j);
double sk_stepper_get_sens_pbar(const sk_stepper *s, int j);
/* sk_stepper_set_sens_initial: the sensitivities at the start (np x n,
 * parameter j at S + j n; copied): read at setup, or by the next
 * sk_stepper_reinit (a checkpoint's restart). Errors: SK_ERR_ARG (NULL,
 * non-finite value), SK_ERR_STATE (no sensitivities set), SK_ERR_NOMEM. */
sk_status sk_stepper_set_sens_initial(sk_stepper *s, const double *S);
/* sk_stepper_get_sensitivity: dy/dp_j (length n) at sk_stepper_get_time,
 * after setup. Errors: SK_ERR_ARG (j out of range, NULL out), SK_ERR_STATE
 * (before setup), SK_ERR_SOLVER. */
sk_status sk_stepper_get_sensitivity(sk_stepper *s, int j, double *out);
/* sk_stepper_sensitivity_options: the solver.sensitivity.* option table,
 * read by sk_stepper_set_from_options where the database registers it. */
const sk_option_spec *sk_stepper_sensitivity_options(size_t *n);

/* sk_stepper_options: every solver.* and linsol.* key of the built-in
 * stepper types, as one table for sk_options_register: the keys every
 * stepper shares, the linear solvers' keys, and each built-in type's own
 * (its `options`). A program that also loads plugin types registers with
 * sk_stepper_register_options instead, which adds theirs. */
const sk_option_spec *sk_stepper_options(size_t *n);

/* sk_stepper_register_options: register in opts the table of
 * sk_stepper_options and the own keys of every stepper type registered in
 * opts' context at the time of the call (a table already registered, or
 * shared with an earlier type, is skipped). Errors: as sk_options_register. */
sk_status sk_stepper_register_options(sk_options *opts);

/* sk_stepper_check_options: refuse a key that opts sets (a config or the
 * command line) and that belongs to other stepper types only, not to s's
 * type nor to the shared tables: SK_ERR_INPUT naming the key, where it was
 * set, and the types that take it. A program that runs one stepper from a
 * config calls it after sk_stepper_set_from_options, so that no given key
 * goes unused; one that builds several types from one config (a
 * comparison of methods) does not. Errors: SK_ERR_ARG (NULL argument),
 * SK_ERR_INPUT. */
sk_status sk_stepper_check_options(const sk_stepper *s, const sk_options *opts);

/* sk_stepper_check_names: the names opts gives to solver.method, linsol.type
 * and linsol.preconditioner are those of built-in types or of types
 * registered in ctx (load the plugins first), before any stepper exists (a
 * sweep checks every case without plugins this way before it runs one). Errors:
 * SK_ERR_INPUT naming where the name was set and the valid ones; SK_ERR_ARG
 * (NULL options). A database without the stepper options passes. */
sk_status sk_stepper_check_names(sk_context *ctx, const sk_options *opts);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif

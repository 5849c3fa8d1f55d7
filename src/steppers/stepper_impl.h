/* src/steppers/stepper_impl.h: the generic stepper's body (common settings, state, budget) and internal hooks */
#ifndef SK_STEPPERS_STEPPER_IMPL_H
#define SK_STEPPERS_STEPPER_IMPL_H

#include "linsol/mg_struct.h"
#include "steppers/stability_guard.h"
#include "stiffkit/stepper.h"

/* Forward sensitivities of the stepper (src/steppers/stepper_sens.c). */
/* The Krylov settings when linsol.maxl / linsol.eps_lin are 0 (benchmarks/README.md, "Krylov
 * tolerances"): maxl 20 for cvode-* and ida-bdf, eps_lin 1e-3 for cvode-* (with any
 * preconditioner) and SUNDIALS' 0.05 for ida-bdf (unpreconditioned, where a tighter one costs
 * steps); an explicit value is passed to the package as given. */
#define SK__KRYLOV_MAXL_DEFAULT 20
#define SK__KRYLOV_EPS_LIN_DEFAULT 1e-3
#define SK__KRYLOV_EPS_LIN_DEFAULT_IDA 0.05

/* sk__krylov_resolve: the Krylov settings a cvode-* run (ida: an ida-bdf run) uses, serial and
 * distributed: 0 in *maxl or *eps_lin becomes the default above, any other value stays. */
void sk__krylov_resolve(int ida, int *maxl, double *eps_lin);

/* linsol.amg_reuse_gamma_ratio's default (benchmarks/README.md, "AMG setup re-use") */
#define SK__AMG_REUSE_RATIO_DEFAULT 2.0

typedef struct sk__sens {
  int np;        /* 0 = none */
  int *param;    /* np model parameter indices */
  double *pbar;  /* np scales */
  int staggered; /* corrector: 0 simultaneous, 1 staggered */
  int errcon;    /* sensitivities in the local error test */
  double *init;  /* np x n start values (sk_stepper_set_sens_initial), NULL = 0 */
  int have_init; /* init not yet consumed by a setup or a reinit */
  /* the engine's reader, installed at its setup */
  sk_status (*get)(sk_stepper *s, int j, double *out);
} sk__sens;

struct sk_stepper {
  sk_context *ctx;
  const sk_stepper_type *type;
  sk_model *model;      /* what the engine integrates: user_model, or its mass form */
  sk_model *user_model; /* the model given to sk_stepper_create */
  void *impl;
  int is_setup;
  /* settings */
  double rtol, atol;
  double *atol_vec;
  double t0;
  double *y; /* state at t (length n) */
  int have_y0;
  double *yp;   /* y' at t for engines that keep it (sk__stepper_derivative_buffer) */
  int have_yp0; /* yp holds y'(t0) from sk_stepper_set_initial_derivative */
  double t;
  int64_t max_steps;
  int max_order;
  double h0, hmin, hmax;
  double fixed_step; /* solver.fixed_step: 0 = adaptive where the method allows */
  int have_tstop;
  double tstop;
  char linsol[16];
  char prec[16];
  char ordering[16];
  char linsol_reason[512]; /* why linsol.type=auto chose what it chose; "" when not auto */
  char init_report[1024];  /* what a DAE engine's consistent initialization corrected */
  int maxl;
  double eps_lin;
  double amg_reuse_ratio; /* linsol.amg_reuse_gamma_ratio: keep a BoomerAMG hierarchy while
                             gamma stays within this factor of the one it was built for */
  sk__mg_params mg;       /* linsol.mg_*: the structured multigrid's settings */
  char prec_report[256];  /* what the preconditioner did (sk_stepper_get_preconditioner_report) */
  sk_vector_kernels_mode vector_kernels; /* solver.fast_vector_ops */
  const char *kernels_used; /* "stiffkit" or "sundials" once an engine chose; NULL before */
  int threads;              /* solver.threads: -1 leave OpenMP alone, 0 auto, n */
  int check_jacobian;       /* solver.check_jacobian */
  int suppress_alg;         /* solver.suppress_alg: algebraic variables out of the error test */
  int allow_unstable;       /* solver.allow_unstable: warn instead of refusing an unstable step */
  double max_growth;        /* solver.max_growth: 0 = no growth check */
  sk__guard guard;          /* the stability and blow-up guards (steppers/stability_guard.h) */
  sk_detect_pattern_mode detect_pattern; /* solver.detect_pattern */
  sk_dq_jacobian_mode dq_jacobian;       /* linsol.dq_jacobian */
  int jac_selftest;      /* armed by sk__stepper_jacobian_selftest: test again at later steps */
  int jac_values_unused; /* set by an engine whose run never reads the model's Jacobian values
                            (a Krylov solver with a matrix-free preconditioner): the self-test
                            then checks J v alone, and its state-sized work is never allocated */
  int64_t steps_seen;    /* accepted steps reported through sk__stepper_after_step */
  int64_t rhs_pattern, rhs_selftest; /* RHS calls of sparsity detection and self-tests */
  double wall_time;                  /* seconds spent in advance/step */
  sk_stats recreated; /* counters of the type's states destroyed by a reinit (no reinit op) */
  sk_event_record *events; /* located events, in time order */
  size_t nevents, cap_events;
  int event_stop;      /* an event's jump ended the run (sk_stepper_get_event_stop) */
  double event_stop_t; /* at this time */
  sk_monitor_fn monitor;
  void *monitor_data;
  sk__sens sens; /* forward sensitivities (np 0 = none) */
};

/* sk__stepper_sens_free: drop the sensitivity settings (sk_stepper_destroy). */
void sk__stepper_sens_free(sk_stepper *s);

/* sk__stepper_sens_write: write v (one value per sensitivity parameter, in
 * the order of s->sens.param) into the user model's parameters, those that
 * differ from it, running its changed hook: how an engine passes its
 * package's p[] (moved by difference quotients) to the model, and puts the
 * nominal values back. Returns SK_OK or the hook's error. */
sk_status sk__stepper_sens_write(sk_stepper *s, const double *v);

/* sk__stepper_sens_from_options: solver.sensitivity.* when the database
 * registers them (sk_stepper_set_from_options). Errors: SK_ERR_INPUT (an
 * unknown parameter name, listing the model's; a pbar list of the wrong
 * length), and those of sk_stepper_set_sensitivity. */
sk_status sk__stepper_sens_from_options(sk_stepper *s, const sk_options *opts);

/* sk__stepper_type_abi: the plugin ABI `type` was registered with
 * (SK_PLUGIN_ABI_VERSION for a built-in type): the library reads the
 * optional operations only up to the fields that version had. */
int sk__stepper_type_abi(const sk_context *ctx, const sk_stepper_type *type);

/* sk__stepper_type_reinit: the reinit op of `type`, or NULL when it has
 * none or was registered by a plugin built for plugin ABI 1, whose tables
 * end at destroy (the field is then never read). */
typedef sk_status (*sk__reinit_op)(sk_stepper *s, const double *yp);
sk__reinit_op sk__stepper_type_reinit(const sk_context *ctx, const sk_stepper_type *type);

/* sk__stepper_derivative_buffer: the writable y' buffer (length n) an
 * engine that integrates F(t, y, y') = 0 keeps current with the state, so
 * that sk_stepper_get_derivative can return it; allocated on first use
 * (NULL when out of memory, with the error recorded). When have_yp0 is set
 * it holds y'(t0) from sk_stepper_set_initial_derivative. */
double *sk__stepper_derivative_buffer(sk_stepper *s);

/* sk__stepper_after_step: called by engines after every accepted internal
 * step; runs the monitor. Returns SK_OK or SK_INTERRUPTED. */
sk_status sk__stepper_after_step(sk_stepper *s, double t, double h);

/* sk__stepper_jacobian_selftest: for engines that use the model's
 * Jacobian values, called at setup with the initial state in the state
 * buffer: when solver.check_jacobian is on and the model has an analytic
 * Jacobian (unless the engine set jac_values_unused) or its own J v, run
 * the self-tests (core/jacobian_selftest.h) at (t0, y0) and
 * arm it for the states after accepted steps 1, 10 and 100 (checked in
 * sk__stepper_after_step, which then needs the state buffer current).
 * Returns SK_OK or the self-test's error. */
sk_status sk__stepper_jacobian_selftest(sk_stepper *s);

/* sk__stepper_events_fired: called by an engine at a located event time t
 * (state buffer current): log every k with fired[k] != 0 (its sign the
 * direction), then run the model's action and state jump (which may change
 * the state buffer, or end the run: sk_stepper_get_event_stop). Returns SK_OK (the engine then
 * restarts its history), SK_ERR_NOMEM, or the action's error. */
sk_status sk__stepper_events_fired(sk_stepper *s, double t, const int *fired);

/* sk__stepper_fast_vector_ops: 1 when the engine should use the project's
 * vector kernels (solver.fast_vector_ops; auto resolved by the model size);
 * records the choice for sk_stepper_get_vector_kernels and the provenance. */
int sk__stepper_fast_vector_ops(sk_stepper *s);

/* sk__stepper_set_linsol_reason: record why the engine resolved
 * linsol.type=auto as it did (sk_stepper_get_linear_solver_reason, the
 * provenance). */
void sk__stepper_set_linsol_reason(sk_stepper *s, const char *reason);

/* sk__stepper_set_init_report: record what the consistent initialization
 * at t0 corrected (sk_stepper_get_initial_correction). */
void sk__stepper_set_init_report(sk_stepper *s, const char *report);

/* sk__stepper_budget_message: fill the error record for an exhausted total
 * step budget at (t, h), with the likely cause. Returns SK_ERR_TOO_MUCH_WORK. */
sk_status sk__stepper_budget_error(sk_stepper *s, double t, double h, int64_t steps);

/* SK__NOT_AFTER_SETUP(s): SK_ERR_STATE from a setter called after setup */
#define SK__NOT_AFTER_SETUP(s)                                                               \
  SK_CHECK((s)->ctx, !(s)->is_setup, SK_ERR_STATE, "%s: settings cannot change after setup", \
           __func__)

#endif

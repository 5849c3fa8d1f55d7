/* src/backends/ida_impl.h: state of the IDA adapter shared by the integrator and its consistent initialization */
#ifndef SK_BACKENDS_IDA_IMPL_H
#define SK_BACKENDS_IDA_IMPL_H

#include "backends/sundials_backend.h"
#include "steppers/stepper_impl.h"

typedef struct {
  sk_stepper *s;
  sk_model *model;
  sk_context *ctx;
  void *mem;
  SUNContext sunctx;
  N_Vector y, yp, id, abstol;
  SUNMatrix A;
  SUNLinearSolver LS;
  sk__sun_jac jac; /* the model's pattern and values of dF/dy + cj dF/dy' */
  char linsol[16];
  int ode;             /* an ODE model, integrated as F = y' - f(t, y) */
  int ic_done;         /* consistent initial values computed */
  int model_jac;       /* the direct solver reads the model's Jacobian values */
  int64_t fd_rhs_base; /* the model's FD residual count at setup */
  sk__sundials_messages messages;
  sk_error callback_error;
  int have_callback_error;
  int nonfinite_streak;
  int *roots;      /* IDAGetRootInfo's result, one per model event */
  sk_stats before; /* counters of the runs before the last restart (an event, a reinit) */
  int restarted;   /* no IDACalcIC or IDASolve call since that restart: the linear solver
                      interface's counters still hold the old run's (that call zeroes them) */
  /* forward sensitivities (src/backends/ida_sens.c); np 0 = none */
  int np;
  N_Vector *yS, *ypS;     /* np sensitivity vectors and their derivatives */
  double *p;              /* IDAS' p[], synced into the model; then (p + np) the nominal values */
  int64_t sens_res_calls; /* model calls of stiffkit's own start-value differences */
  N_Vector sens_tmp, sens_tmp2, sens_tmp3;
} sk__ida;

/* sk__ida_sens_setup: with the stepper's sensitivities set, attach them to
 * IDAS after IDAInit: start values (the stepper's, else 0; an ODE model's
 * s' = f_y s + df/dp by centered differences; a DAE's are made consistent
 * by IDACalcIC with y), IDASensInit with stiffkit's centered-difference
 * sensitivity residuals, tolerances estimated from pbar, the error control, and the
 * reader of sk_stepper_get_sensitivity. Errors: SK_ERR_UNSUPPORTED (a
 * model marked consistent: nothing computes its sensitivities' start),
 * SK_ERR_NOMEM, SK_ERR_SOLVER, a failed model call. */
sk_status sk__ida_sens_setup(sk__ida *ida);

/* sk__ida_sens_sync: copy IDAS' p[] into the model's parameters (before
 * every residual: the difference quotients move p[]); sk__ida_sens_nominal:
 * the nominal values back (after every residual, so that the Jacobian's
 * differences and event functions see them). Errors: the changed hook's. */
sk_status sk__ida_sens_sync(sk__ida *ida);
sk_status sk__ida_sens_nominal(sk__ida *ida);

/* sk__ida_sens_restart: before IDAReInit at t (the state buffer holds the
 * new y): the start values again at a fresh reinit or from a checkpoint's,
 * else (an event) the sensitivities and their derivatives at t;
 * sk__ida_sens_reinit: IDASensReInit with them, after IDAReInit. Errors:
 * SK_ERR_SOLVER, a failed model call. */
sk_status sk__ida_sens_restart(sk__ida *ida, double t, int fresh);
sk_status sk__ida_sens_reinit(sk__ida *ida);

/* sk__ida_sens_after_ic: after IDACalcIC, the consistent sensitivities
 * into yS, ypS and, for the simultaneous corrector, IDASensReInit with it
 * (the initialization runs with the staggered one). Errors: SK_ERR_SOLVER. */
sk_status sk__ida_sens_after_ic(sk__ida *ida);

/* sk__ida_sens_free: release the sensitivity vectors (release at setup). */
void sk__ida_sens_free(sk__ida *ida);

/* sk__ida_sens_res_evals: residual calls made for the sensitivities;
 * sk__ida_sens_nonlinear: a staggered corrector's Newton iterations and
 * convergence failures (0 for the simultaneous one, counted with y's). */
int64_t sk__ida_sens_res_evals(const sk__ida *ida);
void sk__ida_sens_nonlinear(const sk__ida *ida, int64_t *iters, int64_t *fails);

/* sk__ida_consistent_init: make (y, y') at t (t0, or the time of an
 * event after which the model switched) consistent before the next step: check that the DAE is index 1 there (the matrix [dF/dy'_d, dF/dy_a]
 * of the differential columns' dF/dy' and the algebraic columns' dF/dy is
 * nonsingular; models with a pattern), then IDACalcIC(IDA_YA_YDP_INIT,
 * tout1): the algebraic y_a and the differential y'_d are computed, y_d
 * kept. The residual before and after and how far the values moved are
 * logged (SK_LOG_INFO). Errors: SK_ERR_INPUT (not index 1, the singular
 * column named), SK_ERR_CONV (IDACalcIC failed: its flag, the residual
 * left and its worst component, and the likely causes), SK_ERR_NOMEM, or a
 * failed model evaluation. */
sk_status sk__ida_consistent_init(sk__ida *ida, double t, double tout1);

#endif

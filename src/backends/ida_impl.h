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
  int64_t fd_rhs_base; /* the model's FD residual count at setup */
  sk__sundials_messages messages;
  sk_error callback_error;
  int have_callback_error;
  int nonfinite_streak;
  int *roots;      /* IDAGetRootInfo's result, one per model event */
  sk_stats before; /* counters of the runs before the last restart (an event, a reinit) */
  int restarted;   /* no IDACalcIC or IDASolve call since that restart: the linear solver
                      interface's counters still hold the old run's (that call zeroes them) */
} sk__ida;

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

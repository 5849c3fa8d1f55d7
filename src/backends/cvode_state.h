/* src/backends/cvode_state.h: state of the CVODE adapter shared by the integrator and its linear-solver builder */
#ifndef SK_BACKENDS_CVODE_STATE_H
#define SK_BACKENDS_CVODE_STATE_H

#include <sundials/sundials_matrix.h>
#include <sundials/sundials_nonlinearsolver.h>

#include "core/context_impl.h"
#include "backends/sundials_backend.h"
#include "steppers/stepper_impl.h"

typedef struct {
  sk_stepper *s;
  sk_model *model;
  sk_context *ctx;
  int lmm; /* CV_BDF or CV_ADAMS */
  void *mem;
  SUNContext sunctx;
  N_Vector y, abstol;
  SUNMatrix A;
  SUNLinearSolver LS;
  SUNNonlinearSolver NLS;
  char linsol[16]; /* resolved names */
  char prec[16];
  char ordering[16];
  int direct;      /* matrix-based linear solver */
  sk__sun_jac jac; /* model pattern, pattern with diagonal, model-order values */
  /* Jacobi preconditioner */
  double *jdiag;
  int64_t fd_rhs_base;    /* the model's FD-Jacobian RHS count at setup */
  int64_t prec_jac_evals; /* model Jacobians evaluated by the Jacobi preconditioner */
  N_Vector pinv;
  /* AMG preconditioner (src/linsol/amg_hypre.h) on I - gamma*J */
  struct sk__amg *amg;
  int amg_have_jac;        /* cv->jac.vals holds a Jacobian the AMG or the mg may reuse */
  int amg_built;           /* the AMG holds a hierarchy (for amg_gamma) */
  double amg_gamma;        /* the gamma of the hierarchy the AMG holds */
  int64_t amg_hierarchies; /* hierarchies built since the last restart */
  /* structured multigrid preconditioner (src/linsol/mg_struct.h) on I - gamma*J */
  struct sk__mg *mg;
  double jac_norm1;        /* ||J||_1 of the Jacobian cv->jac.vals holds, when mg may hand off */
  int mg_via_model;        /* the last mg setup handed off to the model's preconditioner */
  int model_prec_ready;    /* the model's preconditioner holds a setup for the current Jacobian */
  int64_t mg_model_setups; /* setups handed off to it (linsol.mg_model_below) */
  double mg_cap;           /* above linsol.mg_model_below, the gamma from which mg serves */
  double mg_gamma0;        /* the last setup's gamma, and the counters then */
  long mg_lin0, mg_nl0;
  int mg_above; /* that setup's gamma ||J||_1 was at or above linsol.mg_model_below */
  /* a preconditioner type registered at run time (stiffkit/preconditioner.h) and its state */
  const sk_preconditioner_type *uprec;
  void *uprec_state;
  int uprec_created;
  /* messages and callback failures */
  sk__sundials_messages messages;
  sk_error callback_error;
  int have_callback_error;
  int nonfinite_streak;
  int *roots;      /* CVodeGetRootInfo's result, one per model event */
  sk_stats before; /* counters of the runs before the last restart (an event, a reinit) */
  int restarted;   /* no CVode call since that restart: the linear solver interface's
                      counters still hold the old run's (its first call zeroes them) */
  /* forward sensitivities (src/backends/cvode_sens.c); np 0 = none */
  int np;
  N_Vector *yS; /* np sensitivity vectors */
  double *p;    /* CVODES' p[]: the np parameters' values, synced into the model; then (p + np)
                their nominal values */
  double *sens_jac;       /* nnz: df/dy for stiffkit's sensitivity right-hand sides */
  int64_t sens_rhs_calls; /* RHS calls of their differences in p (cvode_sens.c) */
  N_Vector sens_tmp;
} sk__cvode;

/* sk__cvode_sens_setup: with the stepper's sensitivities set, attach them
 * to CVODES (CVodeSensInit, tolerances estimated from pbar, CVodeSetSensParams
 * with the model's parameters, the error control) and install the reader of
 * sk_stepper_get_sensitivity. Errors: SK_ERR_NOMEM, SK_ERR_SOLVER. */
sk_status sk__cvode_sens_setup(sk__cvode *cv);

/* sk__cvode_sens_sync: copy CVODES' p[] into the model's parameters (before
 * every RHS call: the difference quotients move p[]). Returns SK_OK or the
 * error of the model's changed hook. */
sk_status sk__cvode_sens_sync(sk__cvode *cv);

/* sk__cvode_sens_nominal: put the nominal values back into the model's
 * parameters (after every RHS call: CVODES' difference quotients leave the
 * last perturbed p[] there, which the Jacobian's finite differences, the
 * preconditioners, event functions and projections called between two
 * right-hand sides would otherwise see). Errors: as sk__cvode_sens_sync. */
sk_status sk__cvode_sens_nominal(sk__cvode *cv);

/* sk__cvode_sens_restart: before CVodeReInit at t: the sensitivities start
 * again from the stepper's start values when given (a reinit from a
 * checkpoint), else from zero at a fresh reinit, else (an event restart)
 * from their values at t. Errors: SK_ERR_SOLVER. */
sk_status sk__cvode_sens_restart(sk__cvode *cv, double t, int fresh);

/* sk__cvode_sens_nonlinear: the staggered corrector's own nonlinear iterations and
 * convergence failures since the last restart (0 otherwise). */
void sk__cvode_sens_nonlinear(const sk__cvode *cv, int64_t *iters, int64_t *fails);

/* sk__cvode_sens_free: free the sensitivity vectors and buffers. */
void sk__cvode_sens_free(sk__cvode *cv);

/* sk__cvode_sens_rhs_evals: RHS calls made for the sensitivities (difference quotients),
 * CVODES' (zeroed by CVodeSensReInit) plus stiffkit's since the last restart. */
int64_t sk__cvode_sens_rhs_evals(const sk__cvode *cv);

/* sk__cvode_attach_linear_solver: resolve linsol/preconditioner/ordering
 * from the stepper settings and the model, build the SUNMatrix and
 * SUNLinearSolver (or the fixed-point nonlinear solver for "none") and
 * attach them to CVODE. Errors: SK_ERR_UNSUPPORTED (a combination the model
 * or engine cannot use), SK_ERR_TOO_LARGE (dense/band storage over the
 * memory of this machine), SK_ERR_NOMEM, SK_ERR_SOLVER. */
sk_status sk__cvode_attach_linear_solver(sk__cvode *cv);

/* sk__cvode_free_linear_solver: free what attach created. */
void sk__cvode_free_linear_solver(sk__cvode *cv);

/* sk__cvode_callback_failed: remember the context's current error as the
 * cause of a callback failure (for the final diagnosis). */
static inline void sk__cvode_callback_failed(sk__cvode *cv)
{
  cv->callback_error = cv->ctx->err;
  cv->have_callback_error = 1;
}

/* sk__cvode_linsol_factorizations: factorizations done by a direct solver. */
int64_t sk__cvode_linsol_factorizations(const sk__cvode *cv, long lin_setups);

/* sk__cvode_mg_handoff_reset: the multigrid hand-off's state after a
 * restart (CVodeReInit zeroes the counters it compares); fresh: as in a
 * newly set-up engine (no gamma learned, the model's preconditioner to be
 * set up anew). */
void sk__cvode_mg_handoff_reset(sk__cvode *cv, int fresh);

/* sk__cvode_prec_report: one line on what the structured multigrid
 * preconditioner did (sk_stepper_get_preconditioner_report), "" without it. */
void sk__cvode_prec_report(const sk__cvode *cv, char *buf, size_t cap);

#endif

/* src/steppers/ref_driver.h: the generic driver shared by the reference steppers (step control, advance to tout, budget, monitor, statistics, a DAE's consistent start) */
#ifndef SK_STEPPERS_REF_DRIVER_H
#define SK_STEPPERS_REF_DRIVER_H

#include <stdint.h>

#include "steppers/newton_klu.h"
#include "steppers/reference_keys.h"
#include "steppers/stepper_impl.h"

typedef struct sk__ref sk__ref;

/* What one reference method provides to the driver. */
typedef struct {
  int fixed_only;    /* 1: needs solver.fixed_step > 0 */
  int implicit;      /* 1: uses the Newton/KLU helper (needs a Jacobian pattern) */
  int nwork;         /* work vectors of length n (r->w[0..nwork-1]), at most SK__REF_MAX_WORK */
  double max_growth; /* largest step-size ratio of the adaptive controller */
  int dense;         /* 1: in adaptive mode, step past tout and interpolate there
                      * (Hermite cubic from y, f at both ends of the step; the
                      * method must leave f(t+h, ynew) in r->fnew); 0: clip */
  /* attempt: try one step of size h from (r->t, r->y) and write the result
   * to r->ynew; never modifies r->y or r->t. In adaptive mode set *err to
   * the scaled local error norm (<= 1 accepts) and r->q to the order of the
   * error estimate (the controller uses the exponent 1/(q+1)). A method may
   * put f(t+h, ynew) into r->fnew and set r->fnew_valid. Returns SK_OK,
   * SK_RECOVERABLE (the RHS asked to cut the step, or Newton failed: the
   * driver retries with a smaller h, or fails in fixed mode), or an error. */
  sk_status (*attempt)(sk__ref *r, double h, double *err);
  /* accepted: the driver accepted the step of size h; r->y, r->f still hold
   * the old state (so multistep methods can keep it as history). May be NULL. */
  void (*accepted)(sk__ref *r, double h);
} sk__ref_method;

#define SK__REF_MAX_WORK 8

struct sk__ref {
  sk_stepper *s;
  sk_context *ctx;
  sk_model *model;
  int64_t n;
  const sk__ref_method *m;
  int dae;   /* 1: a DAE model F(t, y, y') = 0 (bdf2): r->f holds y', kept consistent */
  int fixed; /* 1: fixed step r->hfix */
  double hfix;
  double h; /* next step size (adaptive) */
  double hmin, hmax;
  double t;            /* time of r->y, the internal state */
  double *y;           /* internal state: the stepper's state buffer, or (dense
                         * output) a copy that may run ahead of the output time */
  int own_y;           /* 1: r->y is allocated here (dense output) */
  int dense;           /* dense output active (method dense, adaptive mode) */
  double *yold, *fold; /* dense output: y, f at told, the start of the last step */
  double told;
  double *ynew;
  double *f; /* f(t, y) when f_valid */
  int f_valid;
  double *fnew; /* f(t+h, ynew) when fnew_valid (set by attempt) */
  int fnew_valid;
  double *w[SK__REF_MAX_WORK];
  /* history of multistep methods: the state before the last accepted step */
  double *yprev, *fprev;
  double hprev;
  int64_t naccepted; /* accepted steps since the start */
  int q;             /* order of the current error estimate */
  int order;         /* order of the last step */
  double rtol, atol;
  const double *atolv; /* NULL: scalar atol */
  sk__newton *nw;      /* implicit methods only */
  sk_stats st;
};

/* sk__ref_create: the create op of a reference stepper type: allocates the
 * driver state for method m and attaches it as the stepper's impl.
 * Errors: SK_ERR_NOMEM. */
sk_status sk__ref_create(sk_stepper *s, const sk__ref_method *m);

/* The other ops of the type table, shared by every reference stepper. */
sk_status sk__ref_setup(sk_stepper *s);
sk_status sk__ref_step(sk_stepper *s, double tout, double *tret);
sk_status sk__ref_advance(sk_stepper *s, double tout, double *tret);
sk_status sk__ref_get_stats(sk_stepper *s, sk_stats *st);
void sk__ref_destroy(sk_stepper *s);
/* sk__ref_reinit: the reinit op: the driver starts again at the stepper's
 * time and state buffer as setup leaves it (no accepted step, so the
 * multistep methods start up again; step size solver.h0, else estimated
 * anew; no f cached; the Newton helper refactors afresh), keeping its
 * memory and statistics; yp is unused. */
sk_status sk__ref_reinit(sk_stepper *s, const double *yp);

/* sk__ref_rhs: out = f(t, y) through the checked model RHS, counted.
 * Returns SK_OK, SK_RECOVERABLE or an error (record filled). */
sk_status sk__ref_rhs(sk__ref *r, double t, const double *y, double *out);

/* sk__ref_f: make r->f = f(r->t, r->y) valid (evaluating it if needed). */
sk_status sk__ref_f(sk__ref *r);

/* sk__ref_euler_step: r->ynew = y_n + h f(t_n, y_n), the explicit Euler
 * step (forward Euler's update, backward Euler's predictor); order 1. */
sk_status sk__ref_euler_step(sk__ref *r, double h);

/* sk__ref_error_norm: RMS over i of e_i / (atol_i + rtol max(|y_i|, |ynew_i|)). */
double sk__ref_error_norm(const sk__ref *r, const double *e, const double *y, const double *ynew);

/* sk__ref_newton: solve x = psi + gamma f(t, x) for x, starting from the
 * predictor in x (overwritten by the solution). Implicit methods reserve
 * their last work vector, r->w[nwork-1], for the Newton weights
 * 1 / (rtol |x_i| + atol_i). The Newton tolerance is 0.1 (adaptive) or
 * 0.01 (fixed step) in that WRMS norm. Returns SK_OK,
 * SK_RECOVERABLE (no convergence, singular matrix or a recoverable RHS:
 * cut the step) or an error. Counts the statistics. */
sk_status sk__ref_newton(sk__ref *r, double t, double gamma, const double *psi, double *x);

/* SK__REF_STEPPER_TYPE: the stepper type table of a reference method (every
 * op but create is the shared driver's). */
#define SK__REF_STEPPER_TYPE(ident, type_name, desc, declared_order, type_flags, create_fn) \
  const sk_stepper_type ident = {                                                           \
      .name = type_name,                                                                    \
      .description = desc,                                                                  \
      .order = declared_order,                                                              \
      .flags = type_flags,                                                                  \
      .create = create_fn,                                                                  \
      .setup = sk__ref_setup,                                                               \
      .step = sk__ref_step,                                                                 \
      .advance = sk__ref_advance,                                                           \
      .get_stats = sk__ref_get_stats,                                                       \
      .set_from_options = sk__reference_set_from_options,                                   \
      .destroy = sk__ref_destroy,                                                           \
      .reinit = sk__ref_reinit,                                                             \
      .options = sk__reference_options,                                                     \
  }

#endif

/* stiffkit/diagnose.h: how stiff a model is along its solution: extreme eigenvalue estimates of the Jacobian, stiffness ratio, explicit step bounds and a solver recommendation with its reasons */
#ifndef STIFFKIT_DIAGNOSE_H
#define STIFFKIT_DIAGNOSE_H

#include <stdint.h>

#include "stiffkit/stats.h"
#include "stiffkit/status.h"
#include "stiffkit/stepper.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the public API: exported from libstiffkit, which hides everything else */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* A (possibly complex) eigenvalue estimate. */
typedef struct {
  double re, im;
} sk_eigenvalue;

/* Which method produced lambda_min. */
typedef enum {
  SK_EIG_MIN_KLU_INVERSE = 0,    /* Arnoldi on (J - shift I)^{-1}, KLU factors (n up to
                                    SK_EIG_KLU_MAX_N, a model with a sparse Jacobian) */
  SK_EIG_MIN_SHIFTED_ARNOLDI = 1 /* Arnoldi on J - sigma I, sigma = Re(lambda_max): its accuracy
                                    is relative to |lambda_max|, so a lambda_min much smaller
                                    than |lambda_max| is only roughly located */
} sk_eig_min_method;

/* The lambda_min method switches from KLU to the shifted iteration above this size. */
#define SK_EIG_KLU_MAX_N 200000

/* The estimates at one state. */
typedef struct {
  sk_eigenvalue lambda_max;             /* largest magnitude */
  sk_eigenvalue lambda_min;             /* smallest magnitude */
  double max_resid, min_resid;          /* relative Ritz residuals of the two iterations */
  int have_gershgorin;                  /* 1 when the model has Jacobian values */
  double gersh_lo, gersh_hi, gersh_rho; /* Re(lambda) in [lo, hi], |lambda| <= rho */
  int sparse_jv; /* 1: J v from the sparse Jacobian, 0: difference quotient of f */
  sk_eig_min_method min_method;
  double shift;    /* the shift of the lambda_min iteration */
  int64_t matvecs; /* J v products (or RHS calls) and solves together */
} sk_eig_estimate;

/* Real-axis stability limits h |lambda| <= c of the explicit methods a
 * diagnosis quotes (forward Euler, the classical RK4). */
#define SK_DIAGNOSE_FE_LIMIT 2.0
#define SK_DIAGNOSE_RK4_LIMIT 2.785
/* The states a diagnosis samples: t0 and three times along the solution. */
#define SK_DIAGNOSE_SAMPLES 4
/* An explicit method is recommended when the stiffness ratio is below
 * SK_DIAGNOSE_RATIO_EXPLICIT, or when RK4's predicted steps are fewer than
 * SK_DIAGNOSE_STEPS_FACTOR times the steps the stepper took. */
#define SK_DIAGNOSE_RATIO_EXPLICIT 100.0
#define SK_DIAGNOSE_STEPS_FACTOR 10.0

typedef struct {
  double t;
  sk_eig_estimate e;
  double mag_max, mag_min, ratio; /* |lambda_max|, |lambda_min|, their ratio */
} sk_diagnose_sample;

typedef struct {
  sk_diagnose_sample s[SK_DIAGNOSE_SAMPLES];
  int nsamples;
  sk_stats stats; /* of the stepper that integrated between the samples */
  double t0, t_end;
  double worst_max, worst_ratio; /* the largest |lambda_max| and ratio over the samples */
  double h_fe, h_rk4;            /* the explicit step bounds from worst_max */
  double steps_fe, steps_rk4;    /* the explicit steps those bounds need over [t0, t_end] */
  char method[32], linsol[16], prec[16]; /* the stepper's */
  char reasons[4][600];
  int nreasons;
  char recommendation[160]; /* "explicit: ..." or "stiff: cvode-bdf with ..." */
  char settings[200];       /* the command-line settings that apply it */
  int explicit_ok;          /* 1: an explicit method is recommended */
} sk_diagnose_report;

/* sk_diagnose: integrate the set-up stepper s of an ODE model from its
 * current time t0 to t_end, estimating the extreme eigenvalues of df/dy
 * (of the model given to sk_stepper_create, mass matrix or not) at
 * t0 and at three equally spaced times after it (the last at t_end), and
 * fill *r: the samples, the stiffness ratio, the explicit step bounds, the
 * predicted explicit step counts against the steps s took, and a
 * recommendation (an explicit method, or cvode-bdf with the linear solver
 * linsol.type = auto would choose) with its reasons. Errors: SK_ERR_ARG
 * (NULL arguments; no error record then), SK_ERR_UNSUPPORTED (a DAE model), the stepper's
 * failures (SK_RECOVERABLE ones reported as the stopping time), the
 * estimates' (SK_ERR_NOMEM, SK_ERR_CALLBACK, SK_ERR_SOLVER). */
sk_status sk_diagnose(sk_stepper *s, double t_end, sk_diagnose_report *r);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif

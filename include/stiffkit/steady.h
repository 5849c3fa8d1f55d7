/* stiffkit/steady.h: steady states f(t_s, u) = 0 of an ODE model by Newton's method (KINSOL), with an independently verified residual */
#ifndef STIFFKIT_STEADY_H
#define STIFFKIT_STEADY_H

#include <stddef.h>
#include <stdint.h>

#include "stiffkit/context.h"
#include "stiffkit/model.h"
#include "stiffkit/options.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the public API: exported from libstiffkit, which hides everything else */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* The settings of one steady-state solve. Names are the option choices of
 * the steady.* keys (sk_steady_options). */
typedef struct {
  double t;          /* time t_s at which f(t_s, u) = 0 is solved */
  char guess[16];    /* "initial" (the model's initial state at solver.t0) or "zero": the
                      * guess a caller that builds u itself (the stiffkit command) starts from */
  char strategy[16]; /* "linesearch" (KIN_LINESEARCH) or "none" (plain Newton, KIN_NONE) */
  char linsol[16];   /* "auto", "klu", "umfpack", "dense", "spgmr" (matrix-free) or a type
                      * registered in the context (stiffkit/linear_solver.h) */
  char prec[16];     /* spgmr, an iterative type: "auto", "none", "jacobi" (diag(J)), "model" */
  char ordering[16]; /* klu: "auto", "amd", "colamd" or "metis-nd" */
  double fnormtol;   /* accept u when ||f_scale * f(t_s, u)||_inf <= fnormtol */
  double scsteptol;  /* KINSOL's scaled step tolerance (a smaller step ends the iteration) */
  double u_scale;    /* scalar scale of u (> 0), used when u_scale_v is NULL */
  double f_scale;    /* scalar scale of f (> 0), used when f_scale_v is NULL */
  const double *u_scale_v, *f_scale_v; /* per-component scales (length n, > 0), or NULL */
  double max_step;         /* longest scaled Newton step ||u_scale d||_2 (0: 1000 times the larger
                        * of ||u_scale u_guess||_2 and ||u_scale||_2) */
  int64_t max_iters;       /* Newton iterations at most */
  int64_t max_setup_calls; /* Newton iterations per Jacobian (1 = full Newton) */
  int maxl;                /* spgmr, an iterative type: Krylov subspace size */
  int max_restarts;        /* spgmr: restarts per linear solve */
  double prec_gamma;  /* prec "model": the model's P(gamma) ~ I - gamma J at this gamma > 0 */
  int check_jacobian; /* compare an analytic Jacobian with finite differences at the guess
                        * first (solver.check_jacobian) and refuse when they disagree */
} sk_steady_settings;

/* What a solve did, filled on success and on failure. The residual figures
 * come from one more evaluation of f at the returned u, not from KINSOL. */
typedef struct {
  int converged;          /* 1 when ||f_scale * f(u)||_inf <= fnormtol was verified */
  int64_t newton_iters;   /* KINSOL's nonlinear iterations */
  int64_t f_evals;        /* evaluations of f in all (system, difference quotients, checks) */
  int64_t f_evals_dq;     /* of them in difference-quotient Jacobians or J v products */
  int64_t jac_evals;      /* Jacobian evaluations (analytic or colored finite differences) */
  int64_t lin_iters;      /* Krylov iterations (0 for direct solvers) */
  int64_t lin_conv_fails; /* Krylov convergence failures */
  int64_t prec_setups, prec_solves;
  int64_t backtracks;      /* line-search backtracking steps */
  int64_t beta_fails;      /* line-search beta-condition failures */
  int64_t kinsol_f_evals;  /* KINSOL's own count of f calls (KINGetNumFuncEvals: the "nfe" of
                            * its examples; not the difference quotients, nor the checks) */
  double kinsol_fnorm;     /* KINSOL's last ||f_scale * f||_2 (KINGetFuncNorm) */
  double step_length;      /* KINSOL's last scaled step length (KINGetStepLength) */
  double fnorm_initial;    /* ||f_scale * f(guess)||_inf */
  double fnorm_max;        /* ||f(u)||_inf, unscaled */
  double fnorm_max_scaled; /* ||f_scale * f(u)||_inf (the acceptance test) */
  double fnorm_l2_scaled;  /* ||f_scale * f(u)||_2 (KINSOL's own norm) */
  int64_t worst;           /* component with the largest |f_scale_i f_i| (-1 if none) */
  char worst_name[96];     /* its name (sk_model_component_name) */
  double worst_value;      /* f_worst(u), unscaled */
  double wall_time;        /* seconds in sk_steady_solve */
  char linsol[16], prec[16], ordering[16]; /* the resolved choices */
  int kinsol_flag;                         /* KINSOL's return flag and its name ("KIN_SUCCESS") */
  char kinsol_flag_name[32];
} sk_steady_report;

/* sk_steady_settings_default: t 0, line search, linsol/prec/ordering auto,
 * fnormtol 1e-8, scsteptol 1e-12, unit scales, max_step 0 (automatic),
 * 200 iterations, full Newton
 * (max_setup_calls 1), maxl 50, 5 restarts, prec_gamma 1e-3, Jacobian check
 * on. Never fails. */
void sk_steady_settings_default(sk_steady_settings *s);

/* sk_steady_options: the steady.* option table (register it with
 * sk_options_register). `n` (may be NULL) receives the entry count. */
const sk_option_spec *sk_steady_options(size_t *n);

/* sk_steady_settings_from_options: defaults, then the steady.* keys. The
 * time is steady.t when set, else solver.t0 when that key is registered,
 * else 0; the Jacobian self-test follows solver.check_jacobian when that
 * key is registered. The linear solver comes from the keys every engine
 * shares, when registered (sk_stepper_options): linsol.type,
 * linsol.preconditioner, linsol.ordering and linsol.maxl (0 keeps 50); a
 * linsol.type the steady solve does not have is refused here (SK_ERR_INPUT,
 * naming where it was set and the ones it has), another unsupported choice
 * by sk_steady_solve (SK_ERR_UNSUPPORTED). With klu or umfpack and an
 * ODE model without a Jacobian, sk_steady_solve first finds the pattern by
 * probing f at the guess (sk_model_detect_pattern; the probes count in
 * f_evals), as the steppers do. Errors: SK_ERR_ARG (NULL argument), SK_ERR_UNKNOWN_KEY (the
 * table is not registered), SK_ERR_INPUT (linsol.type, above). */
sk_status sk_steady_settings_from_options(sk_context *ctx, const sk_options *opts,
                                          sk_steady_settings *s);

/* sk_steady_solve: solve f(s->t, u) = 0 for an ODE model with KINSOL's
 * Newton iteration (line search or none), the linear systems J d = -f
 * solved with the model's Jacobian df/du (analytic values, or the colored
 * finite differences of sk_model_eval_jac) by KLU/UMFPACK, with a dense
 * matrix (the model's values, or KINSOL's difference quotients for a model
 * without pattern), or matrix-free by SPGMR (J v by difference quotients;
 * right preconditioner none, jacobi = diag(J) with zero entries taken as 1,
 * or model = -gamma P(gamma)^-1 with the model's P(gamma) ~ I - gamma J,
 * i.e. M ~ J - I/gamma: a shifted J, exact for gamma -> infinity when P is
 * exact; an approximate-factorization P such as the diffusion model's ADI
 * degrades at large gamma, and gamma ~ 1/sqrt(|lambda_max lambda_min|) of
 * J is then best).
 * "auto": dense for a full Jacobian pattern (a dense Jacobian callback,
 * sk_model_set_dense_jacobian) up to n = 2000, klu with another pattern;
 * without a pattern dense up to n = 2000, else spgmr; preconditioner
 * jacobi with a pattern, else none; ordering metis-nd from n = 1000, else
 * amd.
 *   ctx, model  the model (SK_MODEL_ODE), not modified apart from its
 *               counters and scratch
 *   s           the settings
 *   u           in: the initial guess (length n); out: the solution, or on
 *               failure KINSOL's last iterate
 *   report      out (may be NULL): counts and the verified residual
 * The answer is accepted only when the residual recomputed at u satisfies
 * ||f_scale * f||_inf <= fnormtol, whatever KINSOL returned: a KINSOL
 * KIN_STEP_LT_STPTOL with a larger residual is reported as a stall.
 * Returns SK_OK, or: SK_ERR_ARG / SK_ERR_INPUT (bad settings, NULL
 * arguments, non-finite guess), SK_ERR_UNSUPPORTED (a model that is not an
 * ODE, or a solver/preconditioner the model cannot use), SK_ERR_TOO_LARGE
 * (dense for a huge n), SK_ERR_CONV (stall, line search or iteration
 * limit), SK_ERR_SINGULAR (the linear solver found J singular),
 * SK_ERR_LINSOL (another linear-solver failure), SK_ERR_CALLBACK /
 * SK_ERR_NONFINITE (a model evaluation failed), SK_ERR_NOMEM,
 * SK_ERR_SOLVER. Every numerical failure message names the residual
 * ||f||_inf, its largest component (by name) and the likely causes; the
 * error record carries the KINSOL flag. */
sk_status sk_steady_solve(sk_context *ctx, sk_model *model, const sk_steady_settings *s,
                          double *u, sk_steady_report *report);

/* sk_steady_eval: the steady system at u into f (length n): f(t, u) for an
 * ODE model, F(t, u, 0) for a DAE model (whose steady states sk_steady_solve
 * also finds: F(t_s, y, y' = 0) = 0 with the Jacobian dF/dy). Errors: those
 * of the model's evaluation, SK_ERR_NOMEM. */
sk_status sk_steady_eval(sk_model *model, double t, const double *u, double *f);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif

/* src/core/model_impl.h: the model's body (size, kind, callbacks, CSC pattern) */
#ifndef SK_CORE_MODEL_IMPL_H
#define SK_CORE_MODEL_IMPL_H

#include "core/fd_jacobian.h"
#include "core/model_dist.h"
#include "core/model_grid.h"
#include "stiffkit/model.h"

/* sk__model_pattern_fn: build the Jacobian pattern of the model from arg
 * (malloc'ed with sk__malloc: colptr n + 1 entries, rowind colptr[n],
 * strictly increasing rows per column). */
typedef sk_status (*sk__model_pattern_fn)(sk_context *ctx, const void *arg, int64_t **colptr,
                                          int64_t **rowind);

struct sk_model {
  sk_context *ctx;
  sk_model_kind kind;
  int64_t n;
  char name[64];
  void *user_data;
  sk_free_fn free_fn;
  sk_rhs_fn rhs;
  sk_initial_fn initial;
  sk_exact_fn exact;
  sk_jac_values_fn jac;
  sk_dense_jac_fn dense_jac; /* n x n column-major df/dy (src/core/model_dense_jac.c) */
  sk_prec_setup_fn prec_setup;
  sk_prec_solve_fn prec_solve;
  sk_component_name_fn component_name;
  sk_component_name_fn residual_name; /* a DAE's equations (model_dae.c) */
  sk_jtimes_fn jtimes;
  sk_projection_fn projection;
  /* events (src/core/model_events.c) */
  int nevents;
  sk_event_fn events;
  sk_event_action_fn event_action;
  sk_event_jump_fn event_jump;
  int *event_dir; /* nevents crossing directions, NULL: both */
  /* DAE models: F(t, y, y') = 0 (src/core/model_dae.c) */
  sk_residual_fn residual;
  sk_dae_jac_fn dae_jac;
  sk_dae_dense_jac_fn dae_dense_jac; /* n x n column-major dF/dy + cj dF/dy' */
  sk_dae_initial_fn dae_initial;
  int *dae_id;          /* n: 1 differential, 0 algebraic; NULL = all differential */
  int dae_consistent;   /* (y0, y'0) consistent by construction: no index-1 check, no IDACalcIC */
  int dae_suppress_alg; /* algebraic variables left out of the error test */
  int *constraints;     /* n SUNDIALS codes (0, +-1, +-2), NULL = none (model_constraints.c) */
  int64_t *colptr;      /* n + 1 */
  int64_t *rowind;      /* colptr[n] */
  int dense_pattern;    /* the pattern is the full one a dense Jacobian brought */
  /* a pattern built on first use (sk__model_set_lazy_pattern): colptr stays NULL until then */
  sk__model_pattern_fn pattern_fn;
  void *pattern_arg;  /* owned copy */
  double *dense_work; /* n x n: a dense Jacobian gathered into a smaller pattern */
  /* colored finite differences for a pattern without a values callback */
  sk__fd_jac *fd;          /* built on first use, dropped when the pattern changes */
  int64_t fd_rhs_evals;    /* RHS calls spent in FD Jacobians */
  int64_t rhs_calls;       /* every RHS call (sk_model_get_rhs_evals) */
  double fd_rtol, fd_atol; /* error weights of the increments (rtol 0: scale 1) */
  double *fd_atolv;        /* n, or NULL: scalar fd_atol */
  int64_t nq; /* > 0: second order, y = (q, v) with nq positions (sk_model_set_second_order) */
  /* fault injection (tests): from time fault_t on, RHS component fault_comp is NaN */
  int64_t fault_comp; /* -1 = off */
  double fault_t;
  double default_t_end; /* > 0: the model's natural end time (sk_model_set_default_t_end) */
  sk__model_distribution dist; /* dist.rhs != NULL: a distributed model (core/model_dist.h) */
  int thread_safe;             /* RHS safe for concurrent calls (sk_model_set_thread_safe) */
  /* constant mass matrix of M y' = f(t, y) (src/core/model_mass.c); NULL = identity */
  int64_t *mass_colptr, *mass_rowind;
  double *mass_values;
  char mass_name[192];   /* M in messages ("mass matrix" unless named) */
  unsigned mass_version; /* counts sk__model_update_mass_values calls */
  /* parameters addressable by name (src/core/model_params.c) */
  struct sk__model_param *params;
  int nparams, cap_params;
  sk_param_changed_fn param_changed;
  sk_rhs_param_fn rhs_param;
  sk_sens_initial_fn sens_initial; /* consistent start sensitivities (given y0, y'0) */
  sk__model_grid grid; /* the structured grid of the states (core/model_grid.h); dim 0: none */
};

/* One declared parameter: its name and the field the model reads. */
typedef struct sk__model_param {
  char name[64];
  double *value;
} sk__model_param;

/* sk__model_fd_engine: the colored FD engine of the pattern, built on first use. */
sk_status sk__model_fd_engine(sk_model *m);

/* sk__model_set_lazy_pattern: the model's Jacobian pattern is built by
 * fn(ctx, arg copy) the first time it is needed (sk_model_get_jac_pattern,
 * a Jacobian evaluation, the coloring), so that a run that never uses it
 * (a Krylov solver with a matrix-free preconditioner) never holds it; until
 * then sk_model_has_jacobian is true. arg (arg_size bytes) is copied.
 * Replaces any pattern. Errors: SK_ERR_NOMEM. */
sk_status sk__model_set_lazy_pattern(sk_model *m, sk__model_pattern_fn fn, const void *arg,
                                     size_t arg_size);

/* sk__model_pattern: build a lazy pattern now (no-op when there is none to
 * build or it is built). Errors: those of the builder. */
sk_status sk__model_pattern(const sk_model *m);

/* sk__model_checked: turn a callback's return code rc into a status and
 * check its len outputs for NaN/Inf (messages name `what`, t, and the
 * component when values_are_components, else the entry). */
sk_status sk__model_checked(sk_model *m, const char *what, int rc, double t, const double *out,
                            int64_t len, int values_are_components);

/* sk__model_has_analytic_dae_jac: 1 when a DAE model has its own
 * dF/dy + cj dF/dy' values callback (not colored finite differences). */
int sk__model_has_analytic_dae_jac(const sk_model *m);

/* sk__model_eval_fd_dae_jac: dF/dy + cj dF/dy' by the colored finite
 * differences of the residual, whether or not the model has its own values
 * (the DAE Jacobian self-test compares the two). Errors: as
 * sk_model_eval_dae_jac. */
sk_status sk__model_eval_fd_dae_jac(sk_model *m, double t, double cj, const double *y,
                                    const double *yp, double *values);

/* sk__model_eval_dense_jac / sk__model_eval_dae_dense_jac: the dense
 * callback (on a zeroed n x n array), checked for NaN/Inf, gathered into
 * values in the pattern's order. SK_ERR_INPUT when a nonzero entry lies
 * outside the pattern; otherwise as sk_model_eval_jac. */
sk_status sk__model_eval_dense_jac(sk_model *m, double t, const double *y, const double *fy,
                                   double *values);
sk_status sk__model_eval_dae_dense_jac(sk_model *m, double t, double cj, const double *y,
                                       const double *yp, const double *r, double *values);

/* sk__model_set_fd_weights: error weights w_j = 1/(rtol |y_j| + atol_j) for
 * the increments of the FD Jacobian (atolv: length n, copied, or NULL for
 * the scalar atol; rtol <= 0 restores the unit scale). Errors: SK_ERR_NOMEM. */
sk_status sk__model_set_fd_weights(sk_model *m, double rtol, double atol, const double *atolv);

/* sk__model_check_constraints: SK_ERR_INPUT naming the first component of
 * y (length n) that violates the model's constraints, its value and code;
 * SK_OK without constraints. */
sk_status sk__model_check_constraints(sk_model *m, const double *y);

/* sk__model_mass_free: drop the mass matrix (sk_model_destroy). */
void sk__model_mass_free(sk_model *m);

/* sk__model_set_mass_name: how messages name M (a file and its key, say);
 * NULL restores "mass matrix". */
void sk__model_set_mass_name(sk_model *m, const char *name);

/* sk__model_mass_name: the name above. */
const char *sk__model_mass_name(const sk_model *m);

/* sk__model_update_mass_values: new values of M in its pattern (nnz of
 * them, written in place, so the arrays sk_model_get_mass gave stay valid),
 * for a model whose M changes at events (parameters set by an event
 * action); the version sk__model_mass_version reads goes up by one, and the
 * engine forms built from M (steppers/mass_form.c) refresh themselves from
 * it after every event action. Errors: SK_ERR_STATE (no mass matrix),
 * SK_ERR_INPUT (a non-finite value, naming the entry). */
sk_status sk__model_update_mass_values(sk_model *m, const double *values);
unsigned sk__model_mass_version(const sk_model *m);

#endif

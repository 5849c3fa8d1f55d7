/* tests/numerics/run_helper.h: integrate a model to t_end with a chosen engine configuration (for numerical tests) */
#ifndef SK_TEST_RUN_HELPER_H
#define SK_TEST_RUN_HELPER_H

#include "test.h"

typedef struct {
  const char *method, *linsol, *prec, *ordering;
  double rtol, atol, t_end;
  int fast_ops;
  const double *atol_vec; /* per-component atol (length n) instead of atol; NULL: none */
  int64_t max_steps;      /* the step budget; 0: the stepper's default */
} run_cfg;

/* Integrate `m` from its initial state at t = 0 to cfg->t_end; copy the
 * final state into y (length n) and the statistics into st (may be NULL).
 * Returns the status of the run. */
static sk_status run_model(sk_context *ctx, sk_model *m, const run_cfg *cfg, double *y,
                           sk_stats *st)
{
  sk_stepper *s = NULL;
  sk_status rc = sk_stepper_create(ctx, cfg->method ? cfg->method : "cvode-bdf", m, &s);
  if (rc == SK_OK) {
    rc = sk_stepper_set_tolerances(s, cfg->rtol, cfg->atol);
  }
  if (rc == SK_OK && cfg->atol_vec) {
    rc = sk_stepper_set_atol_vector(s, cfg->atol_vec);
  }
  if (rc == SK_OK && cfg->max_steps > 0) {
    rc = sk_stepper_set_max_steps(s, cfg->max_steps);
  }
  if (rc == SK_OK && cfg->linsol) {
    rc = sk_stepper_set_linear_solver(s, cfg->linsol);
  }
  if (rc == SK_OK && cfg->prec) {
    rc = sk_stepper_set_preconditioner(s, cfg->prec);
  }
  if (rc == SK_OK && cfg->ordering) {
    rc = sk_stepper_set_ordering(s, cfg->ordering);
  }
  double tret = 0;
  if (rc == SK_OK) {
    rc = sk_stepper_advance(s, cfg->t_end, &tret);
  }
  if (rc == SK_OK) {
    memcpy(y, sk_stepper_get_state(s), (size_t)sk_model_get_n(m) * sizeof *y);
    if (st) {
      sk_stepper_get_stats(s, st);
    }
  }
  sk_stepper_destroy(&s);
  return rc;
}

/* max_i |a_i - b_i| */
static inline double max_abs_diff(const double *a, const double *b, int64_t n)
{
  double m = 0;
  for (int64_t i = 0; i < n; i++) {
    const double d = fabs(a[i] - b[i]);
    m = d > m ? d : m;
  }
  return m;
}

#endif

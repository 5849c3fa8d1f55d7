/* src/core/model_impl.h: the model's body (size, kind, callbacks, CSC pattern) */
#ifndef SK_CORE_MODEL_IMPL_H
#define SK_CORE_MODEL_IMPL_H

#include "stiffkit/model.h"

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
  sk_prec_setup_fn prec_setup;
  sk_prec_solve_fn prec_solve;
  sk_component_name_fn component_name;
  int64_t *colptr; /* n + 1 */
  int64_t *rowind; /* colptr[n] */
  int64_t nq;      /* > 0: second order, y = (q, v) with nq positions (sk_model_set_second_order) */
  /* fault injection (tests): from time fault_t on, RHS component fault_comp is NaN */
  int64_t fault_comp; /* -1 = off */
  double fault_t;
};

/* sk__model_inject_nan: make the checked RHS return NaN in component comp
 * at every t >= t_from (a testing aid for the failure paths). */
sk_status sk__model_inject_nan(sk_model *m, int64_t comp, double t_from);

#endif

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
};

#endif

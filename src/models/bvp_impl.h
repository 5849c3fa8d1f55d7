/* src/models/bvp_impl.h: the boundary-value problem's body (read by its solvers in src/bvp/) */
#ifndef SK_MODELS_BVP_IMPL_H
#define SK_MODELS_BVP_IMPL_H

#include <stdlib.h>

#include "stiffkit/bvp.h"

struct sk_bvp {
  sk_context *ctx;
  int d;
  double a, b;
  char name[64];
  void *user_data;
  void (*free_fn)(void *);
  sk_bvp_rhs_fn rhs;
  sk_bvp_jac_fn jac;
  sk_bvp_bc_fn bc;
  sk_bvp_bc_jac_fn bc_jac;
  int n_left, n_right;
  sk_bvp_guess_fn guess;
  sk_bvp_exact_fn exact;
  int np;
  double p[SK_BVP_MAX_PARAMS];
  char pnames[SK_BVP_MAX_PARAMS][32];
  char cnames[SK_BVP_MAX_DIM][32];
  char bcnames[SK_BVP_MAX_DIM][32]; /* "" when unnamed */
  int64_t nf;                       /* evaluations of f so far */
};

/* sk__bvp_condition_name: condition k's name ("'inlet'" or "#k"). */
void sk__bvp_condition_name(const sk_bvp *bvp, int k, char *buf, size_t len);

#endif

/* tests/unit/fd_models.h: built-in models and an "f and pattern only" copy of one, for the FD Jacobian tests */
#ifndef SK_TEST_FD_MODELS_H
#define SK_TEST_FD_MODELS_H

#include "test.h"

#define FD_NMODELS 5

/* Built-in model k (diffusion 1D, 2D nonlinear k + Robin, 3D, Brusselator, 2D linear heat). */
static inline sk_model *fd_builtin(sk_context *ctx, int k, int64_t nn)
{
  sk_model *m = NULL;
  if (k == 3) {
    sk_brusselator_params b;
    sk_brusselator_params_default(&b);
    b.n = nn > 0 ? nn : 8;
    sk_brusselator_create(ctx, &b, &m);
    return m;
  }
  sk_diffusion_params p;
  sk_diffusion_params_default(&p);
  p.dim = k == 0 ? 1 : (k == 2 ? 3 : 2);
  for (int d = 0; d < p.dim; d++) {
    p.n[d] = nn > 0 ? nn : (k == 0 ? 40 : (k == 2 ? 6 : 12));
  }
  if (k == 1) {
    p.beta = 0.5;
    p.exact = SK_DIFFUSION_EXACT_MANUFACTURED;
    p.bc[0][1].type = SK_BC_ROBIN;
    p.bc[0][1].value = 0.7;
    p.bc[0][1].coeff = 2.0;
  }
  if (sk_diffusion_create(ctx, &p, &m) != SK_OK) {
    char buf[2048];
    sk_error_format(sk_context_get_error(ctx), 1, buf, sizeof buf);
    fprintf(stderr, "%s\n", buf);
  }
  return m;
}

/* The same RHS and pattern, no values callback. */
static inline int fd_wrap_rhs(double t, const double *y, double *ydot, void *ud)
{
  return sk_model_eval_rhs(ud, t, y, ydot) == SK_OK ? 0 : -1;
}

static inline sk_model *fd_copy(sk_context *ctx, sk_model *orig)
{
  sk_model *m = NULL;
  const int64_t *cp, *ri;
  int64_t nnz;
  sk_model_get_jac_pattern(orig, &cp, &ri, &nnz);
  sk_model_create(ctx, SK_MODEL_ODE, sk_model_get_n(orig), &m);
  sk_model_set_rhs(m, fd_wrap_rhs);
  sk_model_set_user_data(m, orig, NULL);
  sk_model_set_jac_pattern(m, cp, ri);
  return m;
}

#endif

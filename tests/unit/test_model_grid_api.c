/* tests/unit/test_model_grid_api.c: sk_model_get_grid gives the grid a model's states live on (diffusion in 1D/2D/3D, the two-species Brusselator) and refuses a model without one */
#include "test.h"

/* a diffusion model's grid: the dimensions and per-axis counts it was built with, one
   component, and the state count as their product; node coordinates agree with the layout */
static void check_diffusion(sk_context *ctx, int dim, int64_t n0, int64_t n1, int64_t n2)
{
  sk_diffusion_params p;
  sk_diffusion_params_default(&p);
  p.dim = dim;
  p.n[0] = n0;
  p.n[1] = n1;
  p.n[2] = n2;
  p.exact = SK_DIFFUSION_EXACT_NONE;
  p.ic = SK_DIFFUSION_IC_CONSTANT;
  p.ic_value = 1.0;
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_diffusion_create(ctx, &p, &m));
  int gdim = 0, ncomp = 0;
  int64_t n[3] = {0, 0, 0};
  CHECK_OK(ctx, sk_model_get_grid(m, &gdim, n, &ncomp));
  CHECK_EQ_INT(gdim, dim);
  CHECK_EQ_INT(ncomp, 1);
  CHECK(n[0] == n0 && n[1] == (dim > 1 ? n1 : 1) && n[2] == (dim > 2 ? n2 : 1));
  CHECK(n[0] * n[1] * n[2] == sk_model_get_n(m));
  /* the last state is the far corner: coordinate d grows with its index along axis d */
  double x0[3], x1[3];
  CHECK_OK(ctx, sk_diffusion_node_coords(m, 0, x0));
  CHECK_OK(ctx, sk_diffusion_node_coords(m, sk_model_get_n(m) - 1, x1));
  for (int d = 0; d < dim; d++) {
    CHECK(x1[d] > x0[d]);
  }
  sk_model_destroy(&m);
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  check_diffusion(ctx, 1, 9, 1, 1);
  check_diffusion(ctx, 2, 5, 7, 1);
  check_diffusion(ctx, 3, 3, 4, 5);

  /* the Brusselator: n x n points, two interleaved species */
  sk_brusselator_params bp;
  sk_brusselator_params_default(&bp);
  bp.n = 6;
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_brusselator_create(ctx, &bp, &m));
  int dim = 0, ncomp = 0;
  int64_t n[3];
  CHECK_OK(ctx, sk_model_get_grid(m, &dim, n, &ncomp));
  CHECK(dim == 2 && n[0] == 6 && n[1] == 6 && n[2] == 1 && ncomp == 2);
  CHECK(sk_model_get_n(m) == 72);
  CHECK(sk_model_get_grid(m, NULL, n, &ncomp) == SK_ERR_ARG);
  sk_model_destroy(&m);

  /* a model without a grid: refused, the outputs untouched */
  CHECK_OK(ctx, sk_problem_create(ctx, "rober", &m));
  dim = -7;
  CHECK(sk_model_get_grid(m, &dim, n, &ncomp) == SK_ERR_UNSUPPORTED);
  CHECK_EQ_INT(dim, -7);
  sk_model_destroy(&m);
  CHECK(sk_model_get_grid(NULL, &dim, n, &ncomp) == SK_ERR_ARG);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

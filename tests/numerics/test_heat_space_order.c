/* tests/numerics/test_heat_space_order.c: spatial error is second order under grid refinement (1D, 2D, 3D, nonlinear MMS) */
#include "numerics/run_helper.h"

/* Error at t_end against the continuous exact solution with a time
 * tolerance far below the spatial error, on grids with spacing h, h/2, h/4.
 * The observed order log2(e_h / e_{h/2}) must be 2 +- 0.2 (vertex-centred
 * finite volumes are second order; RELIABILITY N2). */

typedef struct {
  const char *name;
  int dim;
  int64_t n0; /* unknowns per direction on the coarsest grid */
  int manufactured;
  const char *linsol, *prec;
} space_case;

/* With homogeneous Dirichlet sides, n unknowns give h = 1/(n+1): n0, 2 n0 + 1,
 * 4 n0 + 3 halve h. Neumann/Robin sides (manufactured case) add the boundary
 * node: h = 1/(n - 1 + D); the doubling sequence is computed the same way. */
static int64_t refine(int64_t n, int dirichlet_sides)
{
  /* h = 1/(n - 1 + D) -> n' - 1 + D = 2 (n - 1 + D) */
  return 2 * (n - 1 + dirichlet_sides) + 1 - dirichlet_sides;
}

static double run_case(sk_context *ctx, const space_case *c, const int64_t n[3])
{
  sk_diffusion_params p;
  sk_diffusion_params_default(&p);
  p.dim = c->dim;
  for (int d = 0; d < 3; d++) {
    p.n[d] = n[d];
  }
  double t_end = 0.05;
  if (c->manufactured) {
    p.exact = SK_DIFFUSION_EXACT_MANUFACTURED;
    p.k0 = 0.5;
    p.beta = 0.3;
    p.kgrad[0] = 0.5;
    p.offset = 1.0;
    p.bc[0][0].type = SK_BC_ROBIN;
    p.bc[0][0].coeff = 2.0;
    p.bc[0][1].type = SK_BC_NEUMANN;
    t_end = 0.2;
  } else {
    p.exact = SK_DIFFUSION_EXACT_MODE;
    p.exact_semidiscrete = 0;
  }
  sk_model *m = NULL;
  sk_status rc = sk_diffusion_create(ctx, &p, &m);
  CHECK_OK(ctx, rc);
  if (rc != SK_OK) {
    return NAN;
  }
  const int64_t nn = sk_model_get_n(m);
  double *y = malloc((size_t)nn * sizeof *y), *ex = malloc((size_t)nn * sizeof *ex);
  run_cfg cfg = {
      .linsol = c->linsol, .prec = c->prec, .rtol = 1e-10, .atol = 1e-13, .t_end = t_end};
  CHECK_OK(ctx, run_model(ctx, m, &cfg, y, NULL));
  CHECK_OK(ctx, sk_model_eval_exact(m, t_end, ex));
  const double err = max_abs_diff(y, ex, nn);
  free(y);
  free(ex);
  sk_model_destroy(&m);
  return err;
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  const space_case cases[] = {
      {"1D sine mode", 1, 15, 0, "klu", NULL},
      {"2D sine mode", 2, 15, 0, "klu", NULL},
      {"3D sine mode", 3, 7, 0, "spgmr", "model"},
      {"2D nonlinear k(u,x), Robin/Neumann, manufactured", 2, 9, 1, "klu", NULL},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    const space_case *c = &cases[k];
    /* Dirichlet sides per direction: x has none in the manufactured case */
    int dsides[3] = {2, 2, 2};
    int64_t n[3];
    for (int d = 0; d < 3; d++) {
      n[d] = c->n0;
    }
    if (c->manufactured) {
      dsides[0] = 0;
      n[0] = c->n0 + 2; /* same spacing as the Dirichlet directions */
    }
    double e[3];
    for (int r = 0; r < 3; r++) {
      e[r] = run_case(ctx, c, n);
      printf("%s: n = %lld x %lld  max error %.4e\n", c->name, (long long)n[0], (long long)n[1],
             e[r]);
      for (int d = 0; d < 3; d++) {
        n[d] = refine(n[d], dsides[d]);
      }
    }
    for (int r = 1; r < 3; r++) {
      const double order = log2(e[r - 1] / e[r]);
      printf("%s: observed order %.3f\n", c->name, order);
      CHECK(order > 1.8 && order < 2.2);
    }
  }
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

/* tests/unit/test_diffusion_params.c: diffusion parameter validation (codes and messages naming the field), limits, names, coordinates, initial states */
#include "test.h"

static double cond_fn(const double *x, double u, double *dk, void *ud)
{
  (void)x;
  (void)ud;
  *dk = 0.0;
  return 1.0 + 0.0 * u;
}

/* Expect sk_diffusion_create to fail with `code` and a message containing `needle`. */
static void expect_fail(sk_context *ctx, const sk_diffusion_params *p, sk_status code,
                        const char *needle)
{
  int dummy = 0;
  sk_model *m = (sk_model *)(void *)&dummy; /* any non-NULL value: must be reset to NULL */
  const sk_status st = sk_diffusion_create(ctx, p, &m);
  CHECK_EQ_INT(st, code);
  CHECK(m == NULL);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, needle);
  if (st == code) {
    printf("%-22s %s\n", sk_status_name(st), sk_context_get_error(ctx)->message);
  }
  if (m && st == SK_OK) {
    sk_model_destroy(&m);
  }
  sk_context_clear_error(ctx);
}

static void test_bad(sk_context *ctx)
{
  sk_diffusion_params p;
  sk_diffusion_params_default(&p);
  p.n[0] = 0;
  expect_fail(ctx, &p, SK_ERR_INPUT, "model.n[0] = 0");

  sk_diffusion_params_default(&p);
  p.n[1] = -3;
  expect_fail(ctx, &p, SK_ERR_INPUT, "model.n[1] = -3");

  sk_diffusion_params_default(&p);
  p.dim = 4;
  expect_fail(ctx, &p, SK_ERR_INPUT, "model.dim = 4");

  sk_diffusion_params_default(&p);
  p.dim = 0;
  expect_fail(ctx, &p, SK_ERR_INPUT, "model.dim = 0");

  sk_diffusion_params_default(&p);
  p.beta = 0.2;
  expect_fail(ctx, &p, SK_ERR_INPUT,
              "model.exact: 'mode' needs constant conductivity (model.beta = 0.2)");

  sk_diffusion_params_default(&p);
  p.kgrad[1] = 0.5;
  expect_fail(ctx, &p, SK_ERR_INPUT, "model.kgrad[1] = 0.5");

  sk_diffusion_params_default(&p);
  p.conductivity = cond_fn;
  expect_fail(ctx, &p, SK_ERR_INPUT, "a conductivity function is set");

  sk_diffusion_params_default(&p);
  p.source_const = 1.0;
  expect_fail(ctx, &p, SK_ERR_INPUT, "model.source = 1");

  sk_diffusion_params_default(&p);
  p.bc[0][1].type = SK_BC_ROBIN;
  p.bc[0][1].coeff = 1.0;
  expect_fail(ctx, &p, SK_ERR_INPUT, "model.bc.x1.type = robin");

  sk_diffusion_params_default(&p);
  p.bc[1][0].type = SK_BC_NEUMANN;
  expect_fail(ctx, &p, SK_ERR_INPUT, "model.bc.y0.type = neumann, model.bc.y1.type = dirichlet");

  sk_diffusion_params_default(&p);
  p.bc[1][0].value = 1.0;
  expect_fail(ctx, &p, SK_ERR_INPUT, "model.bc.y0.value = 1");

  sk_diffusion_params_default(&p);
  p.mode[0] = 0;
  expect_fail(ctx, &p, SK_ERR_INPUT, "model.mode[0] = 0");

  sk_diffusion_params_default(&p);
  p.exact = SK_DIFFUSION_EXACT_NONE;
  expect_fail(ctx, &p, SK_ERR_INPUT, "model.ic");

  sk_diffusion_params_default(&p);
  p.dim = 1;
  p.n[0] = 1;
  p.bc[0][0].type = p.bc[0][1].type = SK_BC_NEUMANN;
  expect_fail(ctx, &p, SK_ERR_INPUT, "model.n[0] = 1");

  sk_diffusion_params_default(&p);
  p.bc[0][0].coeff = -1.0;
  expect_fail(ctx, &p, SK_ERR_INPUT, "model.bc.x0.coeff = -1");

  sk_diffusion_params_default(&p);
  p.k0 = 0.0;
  expect_fail(ctx, &p, SK_ERR_INPUT, "model.k0 = 0");

  sk_diffusion_params_default(&p);
  p.length[1] = 0.0;
  expect_fail(ctx, &p, SK_ERR_INPUT, "model.length[1] = 0");

  sk_diffusion_params_default(&p);
  p.beta = NAN;
  expect_fail(ctx, &p, SK_ERR_INPUT, "model.beta");

  sk_diffusion_params_default(&p);
  p.exact = SK_DIFFUSION_EXACT_MANUFACTURED;
  p.conductivity = cond_fn;
  expect_fail(ctx, &p, SK_ERR_INPUT, "model.exact: 'manufactured'");

  sk_diffusion_params_default(&p);
  p.exact = SK_DIFFUSION_EXACT_MANUFACTURED;
  p.bc[0][1].type = SK_BC_ROBIN;
  expect_fail(ctx, &p, SK_ERR_INPUT, "model.bc.x1.coeff = 0");

  sk_diffusion_params_default(&p);
  p.n[0] = p.n[1] = 100000;
  expect_fail(ctx, &p, SK_ERR_TOO_LARGE, "model.n: 100000 x 100000 = 1e+10 unknowns exceeds");

  sk_diffusion_params_default(&p);
  p.dim = 3;
  p.n[0] = p.n[1] = p.n[2] = 700; /* 3.4e8 < 2^31 unknowns, but far over 8 GiB */
  expect_fail(ctx, &p, SK_ERR_TOO_LARGE, "GiB");

  sk_model *m = NULL;
  CHECK_EQ_INT(sk_diffusion_create(ctx, NULL, &m), SK_ERR_ARG);
  sk_context_clear_error(ctx);
}

static void test_names_coords(sk_context *ctx)
{
  sk_diffusion_params p;
  sk_diffusion_params_default(&p);
  p.n[0] = 5; /* Dirichlet both: h = 1/6, x_i = (i + 1)/6 */
  p.n[1] = 4; /* Neumann both: h = 0.6/3, y_j = 0.2 j */
  p.length[1] = 0.6;
  p.bc[1][0].type = p.bc[1][1].type = SK_BC_NEUMANN;
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_diffusion_create(ctx, &p, &m));
  if (!m) {
    return;
  }
  CHECK_EQ_INT(sk_model_get_n(m), 20);
  CHECK(sk_model_has_exact(m));
  CHECK(sk_model_has_jacobian(m));
  CHECK(sk_model_has_preconditioner(m));
  CHECK_STR_CONTAINS(sk_model_get_name(m), "diffusion");
  char buf[64];
  sk_model_component_name(m, 7, buf, sizeof buf);
  CHECK(strcmp(buf, "u[2,1]") == 0);
  sk_model_component_name(m, 19, buf, sizeof buf);
  CHECK(strcmp(buf, "u[4,3]") == 0);
  double x[3];
  CHECK_OK(ctx, sk_diffusion_node_coords(m, 7, x));
  CHECK_NEAR(x[0], 3.0 / 6.0, 1e-15, 0.0);
  CHECK_NEAR(x[1], 0.2, 1e-15, 0.0);
  CHECK_NEAR(x[2], 0.0, 0.0, 0.0);
  CHECK_OK(ctx, sk_diffusion_node_coords(m, 19, x));
  CHECK_NEAR(x[0], 5.0 / 6.0, 1e-15, 0.0);
  CHECK(x[1] == 0.6); /* the boundary node sits exactly on the boundary */
  CHECK_EQ_INT(sk_diffusion_node_coords(m, 20, x), SK_ERR_ARG);
  CHECK_EQ_INT(sk_diffusion_node_coords(m, -1, x), SK_ERR_ARG);
  sk_context_clear_error(ctx);
  /* the pattern: rows strictly increasing, the diagonal in every column, nnz = 5-point count */
  const int64_t *colptr, *rowind;
  int64_t nnz;
  sk_model_get_jac_pattern(m, &colptr, &rowind, &nnz);
  CHECK_EQ_INT(nnz, 20 + 2 * (4 * 4 + 5 * 3));
  for (int64_t j = 0; j < 20; j++) {
    int diag = 0;
    for (int64_t q = colptr[j]; q < colptr[j + 1]; q++) {
      diag += rowind[q] == j;
      CHECK(q == colptr[j] || rowind[q] > rowind[q - 1]);
    }
    CHECK_EQ_INT(diag, 1);
  }
  sk_model_destroy(&m);

  /* 1D and 3D names */
  sk_diffusion_params_default(&p);
  p.dim = 3;
  p.n[0] = 3;
  p.n[1] = 4;
  p.n[2] = 5;
  CHECK_OK(ctx, sk_diffusion_create(ctx, &p, &m));
  if (m) {
    sk_model_component_name(m, 1 + 3 * (2 + 4 * 3), buf, sizeof buf);
    CHECK(strcmp(buf, "u[1,2,3]") == 0);
    sk_model_destroy(&m);
  }
  p.dim = 1;
  CHECK_OK(ctx, sk_diffusion_create(ctx, &p, &m));
  if (m) {
    sk_model_component_name(m, 2, buf, sizeof buf);
    CHECK(strcmp(buf, "u[2]") == 0);
    sk_model_destroy(&m);
  }

  /* not a diffusion model */
  sk_brusselator_params bp;
  sk_brusselator_params_default(&bp);
  bp.n = 4;
  CHECK_OK(ctx, sk_brusselator_create(ctx, &bp, &m));
  if (m) {
    CHECK_EQ_INT(sk_diffusion_node_coords(m, 0, x), SK_ERR_ARG);
    sk_context_clear_error(ctx);
    sk_model_destroy(&m);
  }
}

static void test_initial(sk_context *ctx)
{
  sk_diffusion_params p;
  sk_diffusion_params_default(&p);
  p.n[0] = 6;
  p.n[1] = 5;
  p.exact = SK_DIFFUSION_EXACT_NONE;
  p.ic = SK_DIFFUSION_IC_CONSTANT;
  p.ic_value = 3.25;
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_diffusion_create(ctx, &p, &m));
  if (m) {
    double y[30];
    CHECK(!sk_model_has_exact(m));
    CHECK_OK(ctx, sk_model_eval_initial(m, 0.0, y));
    for (int i = 0; i < 30; i++) {
      CHECK(y[i] == 3.25);
    }
    sk_model_destroy(&m);
  }
  /* IC = exact at t0 for the manufactured solution: e^{-t0} sin sin + offset */
  p.exact = SK_DIFFUSION_EXACT_MANUFACTURED;
  p.ic = SK_DIFFUSION_IC_EXACT;
  p.offset = 0.5;
  CHECK_OK(ctx, sk_diffusion_create(ctx, &p, &m));
  if (m) {
    double y[30];
    const double t0 = 0.7, pi = 3.14159265358979323846;
    CHECK_OK(ctx, sk_model_eval_initial(m, t0, y));
    for (int j = 0; j < 5; j++) {
      for (int i = 0; i < 6; i++) {
        const double e = exp(-t0) * sin(pi * (i + 1) / 7.0) * sin(pi * (j + 1) / 6.0) + 0.5;
        CHECK_NEAR(y[i + 6 * j], e, 1e-14, 0.0);
      }
    }
    sk_model_destroy(&m);
  }
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  test_bad(ctx);
  test_names_coords(ctx);
  test_initial(ctx);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

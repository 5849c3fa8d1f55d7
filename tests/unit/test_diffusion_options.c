/* tests/unit/test_diffusion_options.c: the model.* option tables: defaults, reading keys into parameters, errors naming the key, building a grid model */
#include <math.h>

#include "test.h"

static sk_options *make(sk_context *ctx)
{
  sk_options *o = NULL;
  CHECK_OK(ctx, sk_options_create(ctx, &o));
  if (!o) {
    return NULL;
  }
  size_t n = 0;
  (void)sk_grid_options(&n);
  CHECK(n == 3); /* dim, n, length */
  (void)sk_diffusion_options(&n);
  CHECK(n > 20);
  (void)sk_brusselator_options(&n);
  CHECK(n == 4);
  CHECK_OK(ctx, sk_model_register_options(o));
  CHECK(sk_options_is_key(o, "model.type") && sk_options_is_key(o, "model.dim") &&
        sk_options_is_key(o, "model.brusselator.a"));
  return o;
}

static void set(sk_context *ctx, sk_options *o, const char *assignment)
{
  CHECK_OK(ctx, sk_options_set_assignment(o, assignment));
}

static void test_defaults(sk_context *ctx)
{
  sk_options *o = make(ctx);
  if (!o) {
    return;
  }
  sk_diffusion_params p, d;
  sk_diffusion_params_default(&d);
  CHECK_OK(ctx, sk_diffusion_params_from_options(ctx, o, &p));
  CHECK_EQ_INT(p.dim, 2);
  CHECK_EQ_INT(p.n[0], 64);
  CHECK_EQ_INT(p.n[1], 64);
  CHECK(p.length[0] == 1.0 && p.length[1] == 1.0);
  CHECK(p.k0 == d.k0 && p.beta == 0.0 && p.kgrad[0] == 0.0 && p.kgrad[1] == 0.0);
  CHECK_EQ_INT(p.exact, SK_DIFFUSION_EXACT_MODE);
  CHECK_EQ_INT(p.ic, SK_DIFFUSION_IC_EXACT);
  CHECK_EQ_INT(p.mode[0], 1);
  CHECK_EQ_INT(p.mode[1], 1);
  CHECK(p.amplitude == 1.0 && p.offset == 0.0 && p.ic_value == 0.0 && p.source_const == 0.0);
  CHECK_EQ_INT(p.exact_semidiscrete, 0);
  for (int k = 0; k < 2; k++) {
    for (int s = 0; s < 2; s++) {
      CHECK_EQ_INT(p.bc[k][s].type, SK_BC_DIRICHLET);
      CHECK(p.bc[k][s].value == 0.0 && p.bc[k][s].coeff == 0.0);
    }
  }
  sk_brusselator_params b;
  CHECK_OK(ctx, sk_brusselator_params_from_options(ctx, o, &b));
  CHECK_EQ_INT(b.n, 64);
  CHECK(b.a == 1.0 && b.b == 3.4 && b.alpha == 2e-3 && b.perturbation == 0.1 && b.length == 1.0);
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_from_options(ctx, o, &m));
  CHECK_EQ_INT(sk_model_get_n(m), 4096);
  sk_model_destroy(&m);
  sk_options_destroy(&o);
}

static void test_values(sk_context *ctx)
{
  sk_options *o = make(ctx);
  if (!o) {
    return;
  }
  set(ctx, o, "model.dim=3");
  set(ctx, o, "model.n=[10, 8, 6]");
  set(ctx, o, "model.length=1,2,3");
  set(ctx, o, "model.k0=0.5");
  set(ctx, o, "model.beta=0.2");
  set(ctx, o, "model.kgrad=0.1,0.2,0.3");
  set(ctx, o, "model.bc.x0.type=neumann");
  set(ctx, o, "model.bc.x0.value=0.5");
  set(ctx, o, "model.bc.z1.type=robin");
  set(ctx, o, "model.bc.z1.coeff=2.5");
  set(ctx, o, "model.bc.z1.value=-1");
  set(ctx, o, "model.exact=manufactured");
  set(ctx, o, "model.offset=0.25");
  set(ctx, o, "model.ic=constant");
  set(ctx, o, "model.ic_value=2");
  set(ctx, o, "model.source=1.5");
  set(ctx, o, "model.semidiscrete=true");
  set(ctx, o, "model.mode=2");
  sk_diffusion_params p;
  CHECK_OK(ctx, sk_diffusion_params_from_options(ctx, o, &p));
  CHECK_EQ_INT(p.dim, 3);
  CHECK_EQ_INT(p.n[0], 10);
  CHECK_EQ_INT(p.n[1], 8);
  CHECK_EQ_INT(p.n[2], 6);
  CHECK(p.length[0] == 1.0 && p.length[1] == 2.0 && p.length[2] == 3.0);
  CHECK(p.k0 == 0.5 && p.beta == 0.2);
  CHECK(p.kgrad[0] == 0.1 && p.kgrad[1] == 0.2 && p.kgrad[2] == 0.3);
  CHECK_EQ_INT(p.bc[0][0].type, SK_BC_NEUMANN);
  CHECK(p.bc[0][0].value == 0.5);
  CHECK_EQ_INT(p.bc[2][1].type, SK_BC_ROBIN);
  CHECK(p.bc[2][1].coeff == 2.5 && p.bc[2][1].value == -1.0);
  CHECK_EQ_INT(p.bc[1][0].type, SK_BC_DIRICHLET);
  CHECK_EQ_INT(p.exact, SK_DIFFUSION_EXACT_MANUFACTURED);
  CHECK(p.offset == 0.25);
  CHECK_EQ_INT(p.ic, SK_DIFFUSION_IC_CONSTANT);
  CHECK(p.ic_value == 2.0 && p.source_const == 1.5);
  CHECK_EQ_INT(p.exact_semidiscrete, 1);
  CHECK_EQ_INT(p.mode[0], 2);
  CHECK_EQ_INT(p.mode[2], 2);
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_from_options(ctx, o, &m));
  CHECK_EQ_INT(sk_model_get_n(m), 10 * 8 * 6);
  sk_model_destroy(&m);
  /* one value for every direction */
  set(ctx, o, "model.n=5");
  set(ctx, o, "model.kgrad=0.4");
  CHECK_OK(ctx, sk_diffusion_params_from_options(ctx, o, &p));
  CHECK(p.n[0] == 5 && p.n[1] == 5 && p.n[2] == 5);
  CHECK(p.kgrad[0] == 0.4 && p.kgrad[2] == 0.4);
  sk_options_destroy(&o);
}

/* sk_model_from_options fails with `code`, naming `needle`. */
static void expect_fail(sk_context *ctx, const char *const *sets, size_t nsets, sk_status code,
                        const char *needle)
{
  sk_options *o = make(ctx);
  if (!o) {
    return;
  }
  for (size_t i = 0; i < nsets; i++) {
    set(ctx, o, sets[i]);
  }
  sk_model *m = NULL;
  CHECK_EQ_INT(sk_model_from_options(ctx, o, &m), code);
  CHECK(m == NULL);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, needle);
  printf("%-18s %s\n", sk_status_name(sk_context_get_error(ctx)->code),
         sk_context_get_error(ctx)->message);
  sk_model_destroy(&m);
  sk_context_clear_error(ctx);
  sk_options_destroy(&o);
}

static void test_errors(sk_context *ctx)
{
  const char *a[] = {"model.dim=3", "model.n=4,5"};
  expect_fail(ctx, a, 2, SK_ERR_INPUT, "model.n has 2 values");
  const char *b[] = {"model.dim=1", "model.bc.y0.type=neumann"};
  expect_fail(ctx, b, 2, SK_ERR_INPUT, "model.bc.y0.type is set");
  const char *c[] = {"model.k0=0"};
  expect_fail(ctx, c, 1, SK_ERR_INPUT, "model.k0 = 0");
  const char *d[] = {"model.beta=0.2"};
  expect_fail(ctx, d, 1, SK_ERR_INPUT, "(model.beta = 0.2)");
  const char *e[] = {"model.n=100000"};
  expect_fail(ctx, e, 1, SK_ERR_TOO_LARGE, "model.n: 100000 x 100000");
  const char *f[] = {"model.type=brusselator", "model.n=16,8"};
  expect_fail(ctx, f, 2, SK_ERR_INPUT, "n x n grid");
  const char *g[] = {"model.type=brusselator", "model.dim=3"};
  expect_fail(ctx, g, 2, SK_ERR_INPUT, "the Brusselator is 2D");
  const char *h[] = {"model.type=brusselator", "model.brusselator.a=-1"};
  expect_fail(ctx, h, 2, SK_ERR_INPUT, "model.brusselator.a = -1");
  const char *i[] = {"model.bc.x1.coeff=-2"};
  expect_fail(ctx, i, 1, SK_ERR_INPUT, "model.bc.x1.coeff");
  const char *j[] = {"model.mode=1,2,3"};
  expect_fail(ctx, j, 1, SK_ERR_INPUT, "model.mode has 3 values");
  const char *k[] = {"model.ic=formula"};
  expect_fail(ctx, k, 1, SK_ERR_INPUT, "model.ic = formula needs model.ic_formula");
  const char *l[] = {"model.ic_formula=x*y"};
  expect_fail(ctx, l, 1, SK_ERR_INPUT, "model.ic_formula is set but model.ic is not 'formula'");
  const char *m[] = {"model.ic=formula", "model.ic_formula=sin(pi*x)*sin(pi*u)"};
  expect_fail(ctx, m, 2, SK_ERR_INPUT,
              "--set model.ic_formula: cannot parse the formula 'sin(pi*x)*sin(pi*u)'");
  /* x = 1/8 ... 7/8 on n = 7 Dirichlet nodes: the first node with x <= 0.5 - 1/8 is x = 1/8 */
  const char *q[] = {"model.n=7", "model.ic=formula", "model.ic_formula=sqrt(x-0.3)"};
  expect_fail(
      ctx, q, 3, SK_ERR_INPUT,
      "'sqrt(x-0.3)' evaluates to NaN at the grid point (x, y) = (0.125, 0.125) (u[0,0])");
}

/* model.ic = formula with sin(pi x) sin(pi y) is the exact mode's start: the two initial
 * states agree to rounding (muparser's sin(pi*x) at x = i h against sin(pi i / N)), and a
 * formula may read the model's parameters (k0) and the lengths. */
static void test_ic_formula(sk_context *ctx)
{
  sk_options *o = make(ctx);
  if (!o) {
    return;
  }
  set(ctx, o, "model.n=[15, 9]");
  set(ctx, o, "model.length=[1, 2]");
  sk_model *mode = NULL, *formula = NULL;
  CHECK_OK(ctx, sk_model_from_options(ctx, o, &mode));
  set(ctx, o, "model.ic=formula");
  set(ctx, o, "model.ic_formula=k0*sin(pi*x/Lx)*sin(pi*y/Ly)");
  set(ctx, o, "model.k0=2");
  set(ctx, o, "model.amplitude=2");
  CHECK_OK(ctx, sk_model_from_options(ctx, o, &formula));
  sk_options_destroy(&o);
  if (!mode || !formula) {
    sk_model_destroy(&mode);
    sk_model_destroy(&formula);
    return;
  }
  const int64_t n = sk_model_get_n(mode);
  CHECK_EQ_INT(n, 135);
  double a[135], b[135];
  CHECK_OK(ctx, sk_model_eval_initial(mode, 0.0, a));
  CHECK_OK(ctx, sk_model_eval_initial(formula, 0.0, b));
  double worst = 0.0;
  for (int64_t i = 0; i < n; i++) {
    const double d = fabs(2.0 * a[i] - b[i]);
    worst = d > worst ? d : worst;
  }
  printf("formula start vs mode start: max difference %.3e\n", worst);
  CHECK(worst < 1e-14);
  CHECK(b[7 + 15 * 4] > 1.999 && b[7 + 15 * 4] <= 2.0); /* the centre node: k0 * 1 */
  sk_model_destroy(&mode);
  sk_model_destroy(&formula);
}

static void test_brusselator(sk_context *ctx)
{
  sk_options *o = make(ctx);
  if (!o) {
    return;
  }
  set(ctx, o, "model.type=brusselator");
  set(ctx, o, "model.n=16");
  set(ctx, o, "model.length=2");
  set(ctx, o, "model.brusselator.alpha=0.01");
  set(ctx, o, "model.brusselator.b=2.5");
  sk_brusselator_params b;
  CHECK_OK(ctx, sk_brusselator_params_from_options(ctx, o, &b));
  CHECK(b.n == 16 && b.length == 2.0 && b.alpha == 0.01 && b.b == 2.5 && b.a == 1.0);
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_from_options(ctx, o, &m));
  CHECK_EQ_INT(sk_model_get_n(m), 512);
  CHECK_STR_CONTAINS(sk_model_get_name(m), "brusselator");
  sk_model_destroy(&m);
  sk_options_destroy(&o);
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  test_defaults(ctx);
  test_values(ctx);
  test_errors(ctx);
  test_brusselator(ctx);
  test_ic_formula(ctx);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

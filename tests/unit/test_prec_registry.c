/* tests/unit/test_prec_registry.c: a preconditioner type registered at run time: one table and one registration call make it a value of linsol.preconditioner; written as the built-in Jacobi preconditioner, it takes exactly the built-in's steps and gives its answer bit for bit; refusals of bad tables, unknown names and unmet needs */
#include <stdlib.h>
#include <string.h>

#include "test.h"

/* ---- the type: P = I - gamma diag(J), diag(J) read from the view when fresh ---- */

typedef struct {
  int64_t n;
  double *diag, *pinv;
} diag_prec;

static int creates, destroys, fresh_setups, setups;

static sk_status diag_create(sk_model *m, void **state)
{
  diag_prec *d = calloc(1, sizeof *d);
  if (!d) {
    return SK_ERR_NOMEM;
  }
  d->n = sk_model_get_n(m);
  d->diag = calloc((size_t)d->n, sizeof(double));
  d->pinv = calloc((size_t)d->n, sizeof(double));
  if (!d->diag || !d->pinv) {
    free(d->diag);
    free(d->pinv);
    free(d);
    return SK_ERR_NOMEM;
  }
  *state = d;
  creates++;
  return SK_OK;
}

static sk_status diag_setup(void *state, double t, const double *y, double gamma,
                            const sk_jacobian_view *jac, int jac_fresh)
{
  (void)t;
  (void)y;
  diag_prec *d = state;
  setups++;
  if (jac_fresh) {
    fresh_setups++;
    for (int64_t j = 0; j < jac->n; j++) {
      d->diag[j] = 0.0;
      for (int64_t p = jac->colptr[j]; p < jac->colptr[j + 1]; p++) {
        if (jac->rowind[p] == j) {
          d->diag[j] = jac->values[p];
        }
      }
    }
  }
  for (int64_t j = 0; j < d->n; j++) {
    const double den = 1.0 - gamma * d->diag[j];
    if (den == 0.0) {
      return 1; /* recoverable, as the built-in */
    }
    d->pinv[j] = 1.0 / den;
  }
  return SK_OK;
}

static sk_status diag_solve(void *state, double t, const double *y, const double *r, double *z,
                            double gamma)
{
  (void)t;
  (void)y;
  (void)gamma;
  const diag_prec *d = state;
  for (int64_t j = 0; j < d->n; j++) {
    z[j] = r[j] * d->pinv[j];
  }
  return SK_OK;
}

static void diag_destroy(void *state)
{
  diag_prec *d = state;
  free(d->diag);
  free(d->pinv);
  free(d);
  destroys++;
}

static const sk_preconditioner_type diag_type = {
    .name = "mydiag",
    .description = "Jacobi, written as a user type",
    .needs = SK_PREC_NEEDS_JACOBIAN,
    .create = diag_create,
    .setup = diag_setup,
    .solve = diag_solve,
    .destroy = diag_destroy,
};

static int decay_rhs(double t, const double *y, double *ydot, void *user_data)
{
  (void)t;
  (void)user_data;
  for (int i = 0; i < 3; i++) {
    ydot[i] = -(double)(i + 1) * y[i];
  }
  return 0;
}

static int ones_initial(double t0, double *y0, void *user_data)
{
  (void)t0;
  (void)user_data;
  for (int i = 0; i < 3; i++) {
    y0[i] = 1.0;
  }
  return 0;
}

/* a nonlinear 2D heat model (k = 1 + u / 2, so J changes with u) with its manufactured
   exact solution */
static sk_model *heat_model(sk_context *ctx)
{
  sk_diffusion_params p;
  sk_diffusion_params_default(&p);
  p.n[0] = p.n[1] = 20;
  p.beta = 0.5;
  p.exact = SK_DIFFUSION_EXACT_MANUFACTURED;
  sk_model *m = NULL;
  return sk_diffusion_create(ctx, &p, &m) == SK_OK ? m : NULL;
}

/* run spgmr with preconditioner `prec` to t = 0.05 through the options database */
static sk_status run(sk_context *ctx, sk_model *m, const char *prec, double *y, sk_stats *st)
{
  sk_options *o = NULL;
  sk_stepper *s = NULL;
  char set[64];
  snprintf(set, sizeof set, "linsol.preconditioner=%s", prec);
  sk_status rc = sk_options_create(ctx, &o);
  rc = rc ? rc : sk_stepper_register_options(o);
  rc = rc ? rc : sk_options_set_assignment(o, "linsol.type=spgmr");
  rc = rc ? rc : sk_options_set_assignment(o, set);
  rc = rc ? rc : sk_stepper_create(ctx, "cvode-bdf", m, &s);
  rc = rc ? rc : sk_stepper_set_from_options(s, o);
  double t = 0.0;
  rc = rc ? rc : sk_stepper_advance(s, 0.05, &t);
  if (rc == SK_OK) {
    memcpy(y, sk_stepper_get_state(s), (size_t)sk_model_get_n(m) * sizeof *y);
    rc = sk_stepper_get_stats(s, st);
  }
  sk_stepper_destroy(&s);
  sk_options_destroy(&o);
  return rc;
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));

  /* bad tables */
  sk_preconditioner_type bad = diag_type;
  bad.solve = NULL;
  CHECK(sk_preconditioner_type_register(ctx, &bad) == SK_ERR_ARG);
  bad = diag_type;
  bad.name = "jacobi"; /* a built-in's name */
  CHECK(sk_preconditioner_type_register(ctx, &bad) == SK_ERR_ARG);
  bad.name = "auto";
  CHECK(sk_preconditioner_type_register(ctx, &bad) == SK_ERR_ARG);
  bad.name = "a_name_of_16chrs";
  CHECK(sk_preconditioner_type_register(ctx, &bad) == SK_ERR_ARG);
  CHECK(sk_preconditioner_type_find(ctx, "mydiag") == NULL);

  /* before registration the name is unknown, with the place of the key in the message */
  sk_model *m = heat_model(ctx);
  CHECK(m != NULL);
  const int64_t n = sk_model_get_n(m);
  double *y_builtin = calloc((size_t)n, sizeof(double));
  double *y_user = calloc((size_t)n, sizeof(double));
  CHECK(y_builtin && y_user);
  sk_stats st_builtin, st_user;
  CHECK(run(ctx, m, "mydiag", y_user, &st_user) == SK_ERR_INPUT);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message,
                     "linsol.preconditioner: unknown preconditioner 'mydiag'");

  CHECK_OK(ctx, sk_preconditioner_type_register(ctx, &diag_type));
  CHECK(sk_preconditioner_type_find(ctx, "mydiag") == &diag_type);
  CHECK(sk_preconditioner_type_register(ctx, &diag_type) == SK_ERR_ARG); /* twice */

  /* the same algorithm as the built-in jacobi: the same steps, the same answer */
  CHECK_OK(ctx, run(ctx, m, "jacobi", y_builtin, &st_builtin));
  CHECK_OK(ctx, run(ctx, m, "mydiag", y_user, &st_user));
  CHECK(st_user.steps == st_builtin.steps && st_user.steps > 10);
  CHECK(st_user.newton_iters == st_builtin.newton_iters);
  CHECK(st_user.lin_iters == st_builtin.lin_iters && st_user.lin_iters > 0);
  CHECK(st_user.prec_solves == st_builtin.prec_solves);
  CHECK(st_user.jac_evals == st_builtin.jac_evals);
  CHECK(memcmp(y_user, y_builtin, (size_t)n * sizeof(double)) == 0);
  CHECK(creates == 1 && destroys == 1);
  CHECK(setups > fresh_setups && fresh_setups >= 1); /* gamma-only setups reuse J */

  /* a type that needs the Jacobian, on a model without one (no pattern, no values) */
  sk_model *bare = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, 3, &bare));
  sk_model_set_name(bare, "bare");
  CHECK_OK(ctx, sk_model_set_rhs(bare, decay_rhs));
  CHECK_OK(ctx, sk_model_set_initial(bare, ones_initial));
  CHECK(!sk_model_has_jacobian(bare));
  double yb[3];
  sk_stats sb;
  CHECK(run(ctx, bare, "mydiag", yb, &sb) == SK_ERR_UNSUPPORTED);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message,
                     "linsol.preconditioner=mydiag needs the model's sparse Jacobian");
  CHECK(creates == 1); /* refused before the type was created */
  sk_model_destroy(&bare);

  free(y_builtin);
  free(y_user);
  sk_model_destroy(&m);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

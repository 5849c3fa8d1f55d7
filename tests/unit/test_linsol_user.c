/* tests/unit/test_linsol_user.c: a linear solver type registered at run time (stiffkit/linear_solver.h): SUNDIALS' dense LU written as a user type runs CVODE and IDA bit for bit like linsol.type=dense and the steady solve to the same answer; failures, refusals and registration errors */
#include "../test.h"

/* ---- the user type: LU with partial pivoting on a dense copy of A, the algorithm of
 * SUNDIALS' SUNDlsMat_denseGETRF / denseGETRS (column by column, the first largest pivot,
 * whole rows swapped), so that its answers are those of linsol.type = dense */

typedef struct {
  int64_t n;
  double *a; /* column-major n x n: the factors */
  int64_t *p;
} dense_lu;

static int creates, destroys, setups, solves;

static sk_status lu_create(sk_model *m, void **state)
{
  dense_lu *d = calloc(1, sizeof *d);
  if (!d) {
    return SK_ERR_NOMEM;
  }
  d->n = sk_model_get_n(m);
  d->a = calloc((size_t)(d->n * d->n), sizeof *d->a);
  d->p = calloc((size_t)d->n, sizeof *d->p);
  if (!d->a || !d->p) {
    free(d->a);
    free(d->p);
    free(d);
    return SK_ERR_NOMEM;
  }
  creates++;
  *state = d;
  return SK_OK;
}

static void lu_destroy(void *state)
{
  dense_lu *d = state;
  free(d->a);
  free(d->p);
  free(d);
  destroys++;
}

static sk_status lu_setup(void *state, const sk_jacobian_view *A)
{
  dense_lu *d = state;
  const int64_t n = d->n;
  setups++;
  if (A->n != n) {
    return SK_ERR_ARG;
  }
  memset(d->a, 0, (size_t)(n * n) * sizeof *d->a);
  for (int64_t j = 0; j < n; j++) {
    for (int64_t q = A->colptr[j]; q < A->colptr[j + 1]; q++) {
      d->a[j * n + A->rowind[q]] = A->values[q];
    }
  }
  for (int64_t k = 0; k < n; k++) {
    double *ck = d->a + k * n;
    int64_t l = k;
    for (int64_t i = k + 1; i < n; i++) {
      if (fabs(ck[i]) > fabs(ck[l])) {
        l = i;
      }
    }
    d->p[k] = l;
    if (ck[l] == 0.0) {
      return SK_RECOVERABLE; /* a zero pivot: the engine may retry */
    }
    if (l != k) {
      for (int64_t j = 0; j < n; j++) {
        const double t = d->a[j * n + l];
        d->a[j * n + l] = d->a[j * n + k];
        d->a[j * n + k] = t;
      }
    }
    const double mult = 1.0 / ck[k];
    for (int64_t i = k + 1; i < n; i++) {
      ck[i] *= mult;
    }
    for (int64_t j = k + 1; j < n; j++) {
      double *cj = d->a + j * n;
      const double akj = cj[k];
      if (akj != 0.0) {
        for (int64_t i = k + 1; i < n; i++) {
          cj[i] -= akj * ck[i];
        }
      }
    }
  }
  return SK_OK;
}

static sk_status lu_solve(void *state, const double *rhs, double *x)
{
  const dense_lu *d = state;
  const int64_t n = d->n;
  solves++;
  memcpy(x, rhs, (size_t)n * sizeof *x);
  for (int64_t k = 0; k < n; k++) {
    const int64_t pk = d->p[k];
    if (pk != k) {
      const double t = x[k];
      x[k] = x[pk];
      x[pk] = t;
    }
  }
  for (int64_t k = 0; k < n - 1; k++) {
    const double *ck = d->a + k * n;
    const double bk = x[k];
    for (int64_t i = k + 1; i < n; i++) {
      x[i] -= ck[i] * bk;
    }
  }
  for (int64_t k = n - 1; k > 0; k--) {
    const double *ck = d->a + k * n;
    x[k] /= ck[k];
    const double bk = x[k];
    for (int64_t i = 0; i < k; i++) {
      x[i] -= ck[i] * bk;
    }
  }
  x[0] /= d->a[0];
  return SK_OK;
}

static const sk_linear_solver_type user_lu = {.name = "user-lu",
                                              .description = "dense LU, partial pivoting",
                                              .create = lu_create,
                                              .setup = lu_setup,
                                              .solve = lu_solve,
                                              .destroy = lu_destroy};

/* A type whose every factorization reports a singular matrix. */
static sk_status singular_setup(void *state, const sk_jacobian_view *A)
{
  (void)state;
  (void)A;
  return SK_RECOVERABLE;
}

static sk_status never_solve(void *state, const double *rhs, double *x)
{
  (void)state;
  (void)rhs;
  (void)x;
  return SK_ERR_LINSOL;
}

static const sk_linear_solver_type always_singular = {
    .name = "singular", .setup = singular_setup, .solve = never_solve};

/* A type whose create fails. */
static sk_status failing_create(sk_model *m, void **state)
{
  (void)m;
  (void)state;
  return SK_ERR_NOMEM;
}

static const sk_linear_solver_type cannot_create = {
    .name = "no-create", .create = failing_create, .setup = singular_setup, .solve = never_solve};

/* ---- runs ---------------------------------------------------------------- */

/* `method` with linear solver `ls` on HIRES (8 states, analytic Jacobian) from its
 * initial state to t = 321.8122 (its published end time); state into y, stats into st. */
static sk_status run_hires(sk_context *ctx, const char *method, const char *ls, double *y,
                           sk_stats *st)
{
  sk_model *m = NULL;
  sk_stepper *s = NULL;
  sk_status rc = sk_problem_create(ctx, "hires", &m);
  if (rc == SK_OK) {
    rc = sk_stepper_create(ctx, method, m, &s);
  }
  if (rc == SK_OK) {
    rc = sk_stepper_set_linear_solver(s, ls);
  }
  if (rc == SK_OK) {
    rc = sk_stepper_set_tolerances(s, 1e-8, 1e-10);
  }
  double t = 0;
  if (rc == SK_OK) {
    rc = sk_stepper_advance(s, 321.8122, &t);
  }
  if (rc == SK_OK) {
    memcpy(y, sk_stepper_get_state(s), 8 * sizeof *y);
    sk_stepper_get_stats(s, st);
  }
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
  return rc;
}

/* The user type runs the engine exactly as the built-in dense LU does. */
static void same_as_dense(sk_context *ctx, const char *method)
{
  double yd[8], yu[8], yk[8];
  sk_stats sd, su, sk;
  CHECK_OK(ctx, run_hires(ctx, method, "dense", yd, &sd));
  const int before = setups;
  CHECK_OK(ctx, run_hires(ctx, method, "user-lu", yu, &su));
  CHECK_OK(ctx, run_hires(ctx, method, "klu", yk, &sk));
  CHECK_EQ_INT(su.steps, sd.steps);
  CHECK_EQ_INT(su.newton_iters, sd.newton_iters);
  CHECK_EQ_INT(su.lin_setups, sd.lin_setups);
  CHECK_EQ_INT(setups - before, (int)su.lin_setups); /* every setup reached the type */
  CHECK(memcmp(yu, yd, sizeof yu) == 0);
  /* both answers against the published reference (Hairer & Wanner's HIRES at t = 321.8122):
     at rtol 1e-8 the global error stays below 1e-5 relative on every trusted component */
  sk_problem_reference ref;
  CHECK_OK(ctx, sk_problem_get_reference("hires", &ref));
  for (int i = 0; i < 8; i++) {
    if (ref.digits[i] >= 6) {
      CHECK_NEAR(yu[i], ref.y[i], 1e-5, 0);
      CHECK_NEAR(yk[i], ref.y[i], 1e-5, 0);
    }
  }
  CHECK(sd.steps > 50);
}

/* f_i = u_{i-1} - 2 u_i + u_{i+1} - u_i^3 + 1 with u_{-1} = u_n = 0: a tridiagonal
 * steady system with its Jacobian. */
#define NS 20
static int tri_rhs(double t, const double *u, double *f, void *ud)
{
  (void)t;
  (void)ud;
  for (int i = 0; i < NS; i++) {
    f[i] = (i ? u[i - 1] : 0.0) - 2 * u[i] + (i + 1 < NS ? u[i + 1] : 0.0) - u[i] * u[i] * u[i] +
           1.0;
  }
  return 0;
}

static int tri_jac(double t, const double *u, const double *fy, double *v, void *ud)
{
  (void)t;
  (void)fy;
  (void)ud;
  int64_t q = 0;
  for (int j = 0; j < NS; j++) { /* column j: rows j-1, j, j+1 */
    if (j > 0) {
      v[q++] = 1.0;
    }
    v[q++] = -2.0 - 3.0 * u[j] * u[j];
    if (j + 1 < NS) {
      v[q++] = 1.0;
    }
  }
  return 0;
}

static sk_model *tri_model(sk_context *ctx)
{
  static int64_t colptr[NS + 1], rowind[3 * NS];
  int64_t q = 0;
  for (int j = 0; j < NS; j++) {
    colptr[j] = q;
    for (int i = j - 1; i <= j + 1; i++) {
      if (i >= 0 && i < NS) {
        rowind[q++] = i;
      }
    }
  }
  colptr[NS] = q;
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, NS, &m));
  CHECK_OK(ctx, sk_model_set_rhs(m, tri_rhs));
  CHECK_OK(ctx, sk_model_set_jac_pattern(m, colptr, rowind));
  CHECK_OK(ctx, sk_model_set_jac_values(m, tri_jac));
  return m;
}

static void steady(sk_context *ctx)
{
  sk_model *m = tri_model(ctx);
  double ud[NS] = {0}, uu[NS] = {0}, f[NS];
  sk_steady_settings s;
  sk_steady_report rd, ru;
  sk_steady_settings_default(&s);
  snprintf(s.linsol, sizeof s.linsol, "dense");
  CHECK_OK(ctx, sk_steady_solve(ctx, m, &s, ud, &rd));
  snprintf(s.linsol, sizeof s.linsol, "user-lu");
  CHECK_OK(ctx, sk_steady_solve(ctx, m, &s, uu, &ru));
  CHECK_EQ_INT(ru.newton_iters, rd.newton_iters);
  CHECK(memcmp(uu, ud, sizeof uu) == 0);
  CHECK_OK(ctx, sk_steady_eval(m, 0.0, uu, f)); /* the answer solves the system */
  for (int i = 0; i < NS; i++) {
    CHECK(fabs(f[i]) <= s.fnormtol);
  }
  sk_model_destroy(&m);
}

/* What the engines refuse or report. */
static void failures(sk_context *ctx)
{
  double y[8];
  sk_stats st;
  /* a factorization that keeps failing: the run stops and names the solver */
  CHECK(run_hires(ctx, "cvode-bdf", "singular", y, &st) != SK_OK);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message,
                     "linear solver singular: SUNLS_PACKAGE_FAIL_REC, the type returned "
                     "SK_RECOVERABLE");
  /* a create that fails: the setup says which type and model */
  CHECK_EQ_INT(run_hires(ctx, "cvode-bdf", "no-create", y, &st), SK_ERR_NOMEM);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "linear solver 'no-create': create");
  /* the reference steppers' Newton (KLU only) refuses it, listing what it takes */
  CHECK(run_hires(ctx, "bdf2", "user-lu", y, &st) != SK_OK);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "user-lu");
  /* a model without a Jacobian pattern cannot give it a sparse matrix */
  sk_model *m = NULL;
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, NS, &m));
  CHECK_OK(ctx, sk_model_set_rhs(m, tri_rhs));
  CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
  CHECK_OK(ctx, sk_stepper_set_linear_solver(s, "user-lu"));
  CHECK_OK(ctx, sk_stepper_set_detect_pattern(s, SK_DETECT_PATTERN_OFF));
  const double zero[NS] = {0};
  CHECK_OK(ctx, sk_stepper_set_initial(s, 0.0, zero));
  CHECK_EQ_INT(sk_stepper_setup(s), SK_ERR_UNSUPPORTED);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message,
                     "linsol.type=user-lu needs a model with a sparse Jacobian");
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
}

static void registration(sk_context *ctx)
{
  sk_linear_solver_type bad = user_lu;
  bad.name = "klu";
  CHECK_EQ_INT(sk_linear_solver_type_register(ctx, &bad), SK_ERR_ARG);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "a linear solver named 'klu'");
  bad.name = "auto";
  CHECK_EQ_INT(sk_linear_solver_type_register(ctx, &bad), SK_ERR_ARG);
  bad.name = "user-lu";
  CHECK_EQ_INT(sk_linear_solver_type_register(ctx, &bad), SK_ERR_ARG); /* registered already */
  bad.name = "a-name-too-long-for-it";
  CHECK_EQ_INT(sk_linear_solver_type_register(ctx, &bad), SK_ERR_ARG);
  bad.name = "no-solve";
  bad.solve = NULL;
  CHECK_EQ_INT(sk_linear_solver_type_register(ctx, &bad), SK_ERR_ARG);
  CHECK_EQ_INT(sk_linear_solver_type_register(ctx, NULL), SK_ERR_ARG);
  CHECK(sk_linear_solver_type_find(ctx, "user-lu") == &user_lu);
  CHECK(sk_linear_solver_type_find(ctx, "klu") == NULL); /* built-ins are not types */
  /* an unknown name is refused with the list, which has the registered ones */
  sk_model *m = NULL;
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_problem_create(ctx, "hires", &m));
  CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
  CHECK_EQ_INT(sk_stepper_set_linear_solver(s, "user-lux"), SK_ERR_ARG);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "pcg, user-lu, singular, no-create");
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  CHECK_OK(ctx, sk_linear_solver_type_register(ctx, &user_lu));
  CHECK_OK(ctx, sk_linear_solver_type_register(ctx, &always_singular));
  CHECK_OK(ctx, sk_linear_solver_type_register(ctx, &cannot_create));
  same_as_dense(ctx, "cvode-bdf");
  same_as_dense(ctx, "ida-bdf");
  steady(ctx);
  failures(ctx);
  registration(ctx);
  CHECK(creates > 0);
  CHECK_EQ_INT(destroys, creates);
  CHECK(solves > setups);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

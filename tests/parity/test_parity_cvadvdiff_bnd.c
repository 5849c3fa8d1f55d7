/* tests/parity/test_parity_cvadvdiff_bnd.c: SUNDIALS' example cvAdvDiff_bnd (2-D advection-diffusion, band solver, pure absolute tolerance) through stiffkit's public API, against the example's published output */

#include "parity/parity.h"

/* The example (examples/cvode/serial/cvAdvDiff_bnd.c of SUNDIALS 6.4.1,
 * installed by libsundials-dev): the semi-discrete
 *   du/dt = d2u/dx2 + 0.5 du/dx + d2u/dy2
 * on [0, 2] x [0, 1], u = 0 on the boundary, central differences on the
 * 10 x 5 interior mesh (dx = 2/11, dy = 1/6; unknown (i, j), i = 1..10
 * along x, j = 1..5 along y, at index (j-1) + (i-1) 5), from
 *   u(x, y, 0) = x (2 - x) y (1 - y) exp(5 x y),
 * CVODE BDF with rtol = 0 (pure absolute control) and atol = 1e-5, the
 * band linear solver (bandwidths 5 and 5) with the example's analytic
 * band Jacobian, CVode(CV_NORMAL) at t = 0.1, 0.2, ..., 1.0, printing
 * max |u| and the steps taken at each output.
 *
 * stiffkit: the same model through sk_model (the example's f, in its
 * order of operations, and its Jacobian as a CSC pattern whose bandwidths
 * are the example's 5 and 5), cvode-bdf with linsol.type = band, the
 * packaged vector kernels and no Jacobian self-test (the example has
 * none). The engine setup is the example's, so the run must be the
 * example's bit for bit: every printed row and every final counter equal.
 *
 * Expected values: the published output, cvAdvDiff_bnd.out (Debian:
 * /usr/share/doc/libsundials-dev/examples/cvode/serial/cvAdvDiff_bnd.out),
 * quoted here and, when installed (SK_CVADVDIFF_BND_OUT), checked against
 * the file: the rows below and the final statistics nst = 142, nfe = 173,
 * nsetups = 23, nfeLS = 0, nje = 3, nni = 170, ncfn = 0, netf = 3. (The
 * example built here against the installed SUNDIALS prints the same file
 * byte for byte.) */

#define MX 10
#define MY 5
#define NEQ (MX * MY)
#define XMAX 2.0
#define YMAX 1.0
#define NOUT 10

static const char *const published_rows[NOUT + 1] = {
    "At t = 0      max.norm(u) =  8.954716e+01 ",
    "At t = 0.10   max.norm(u) =  4.132889e+00   nst =   85",
    "At t = 0.20   max.norm(u) =  1.039294e+00   nst =  103",
    "At t = 0.30   max.norm(u) =  2.979829e-01   nst =  113",
    "At t = 0.40   max.norm(u) =  8.765774e-02   nst =  120",
    "At t = 0.50   max.norm(u) =  2.625637e-02   nst =  126",
    "At t = 0.60   max.norm(u) =  7.830425e-03   nst =  130",
    "At t = 0.70   max.norm(u) =  2.329387e-03   nst =  134",
    "At t = 0.80   max.norm(u) =  6.953434e-04   nst =  137",
    "At t = 0.90   max.norm(u) =  2.115983e-04   nst =  140",
    "At t = 1.00   max.norm(u) =  6.556853e-05   nst =  142",
};

static const parity_stat published_stats[] = {
    {"nst", 142}, {"nfe", 173}, {"nsetups", 23}, {"nfeLS", 0},
    {"nje", 3},   {"nni", 170}, {"ncfn", 0},     {"netf", 3},
};

static const parity_quote published = {"cvAdvDiff_bnd.out",
                                       published_rows,
                                       NOUT + 1,
                                       published_stats,
                                       (int)(sizeof published_stats / sizeof published_stats[0]),
                                       NULL};

/* the example's UserData: grid coefficients */
typedef struct {
  double dx, dy, hdcoef, hacoef, vdcoef;
} grid;

/* u at mesh point (i, j), 1 <= i <= MX, 1 <= j <= MY (the example's IJth) */
#define IJ(i, j) (((j)-1) + ((i)-1) * MY)

/* the example's f, in its order of operations */
static int rhs(double t, const double *u, double *udot, void *ud)
{
  (void)t;
  const grid *g = ud;
  for (int j = 1; j <= MY; j++) {
    for (int i = 1; i <= MX; i++) {
      const double uij = u[IJ(i, j)];
      const double udn = (j == 1) ? 0.0 : u[IJ(i, j - 1)];
      const double uup = (j == MY) ? 0.0 : u[IJ(i, j + 1)];
      const double ult = (i == 1) ? 0.0 : u[IJ(i - 1, j)];
      const double urt = (i == MX) ? 0.0 : u[IJ(i + 1, j)];
      const double hdiff = g->hdcoef * (ult - 2.0 * uij + urt);
      const double hadv = g->hacoef * (urt - ult);
      const double vdiff = g->vdcoef * (uup - 2.0 * uij + udn);
      udot[IJ(i, j)] = hdiff + hadv + vdiff;
    }
  }
  return 0;
}

/* Column k = IJ(i, j) of the Jacobian holds rows k-MY (i > 1), k-1
 * (j > 1), k, k+1 (j < MY), k+MY (i < MX), in increasing order. */
static void pattern(int64_t *colptr, int64_t *rowind)
{
  int64_t nz = 0;
  for (int i = 1; i <= MX; i++) {
    for (int j = 1; j <= MY; j++) {
      const int64_t k = IJ(i, j);
      colptr[k] = nz;
      if (i != 1) {
        rowind[nz++] = k - MY;
      }
      if (j != 1) {
        rowind[nz++] = k - 1;
      }
      rowind[nz++] = k;
      if (j != MY) {
        rowind[nz++] = k + 1;
      }
      if (i != MX) {
        rowind[nz++] = k + MY;
      }
    }
  }
  colptr[NEQ] = nz;
}

/* the example's Jac, in the pattern's order */
static int jac(double t, const double *u, const double *fu, double *v, void *ud)
{
  (void)t;
  (void)u;
  (void)fu;
  const grid *g = ud;
  int64_t nz = 0;
  for (int i = 1; i <= MX; i++) {
    for (int j = 1; j <= MY; j++) {
      if (i != 1) {
        v[nz++] = g->hdcoef + g->hacoef;
      }
      if (j != 1) {
        v[nz++] = g->vdcoef;
      }
      v[nz++] = -2.0 * (g->vdcoef + g->hdcoef);
      if (j != MY) {
        v[nz++] = g->vdcoef;
      }
      if (i != MX) {
        v[nz++] = g->hdcoef - g->hacoef;
      }
    }
  }
  return 0;
}

/* the example's SetIC */
static int initial(double t0, double *u, void *ud)
{
  (void)t0;
  const grid *g = ud;
  for (int j = 1; j <= MY; j++) {
    const double y = j * g->dy;
    for (int i = 1; i <= MX; i++) {
      const double x = i * g->dx;
      u[IJ(i, j)] = x * (XMAX - x) * y * (YMAX - y) * exp(5.0 * x * y);
    }
  }
  return 0;
}

/* N_VMaxNorm: max |u_i| (exact in any order) */
static double max_norm(const double *u)
{
  double m = 0.0;
  for (int k = 0; k < NEQ; k++) {
    m = fmax(m, fabs(u[k]));
  }
  return m;
}

int main(void)
{
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK) {
    return 1;
  }
#ifdef SK_CVADVDIFF_BND_OUT
  parity_check_quote(&published, SK_CVADVDIFF_BND_OUT);
#else
  parity_check_quote(&published, NULL);
#endif
  grid g;
  g.dx = XMAX / (MX + 1);
  g.dy = YMAX / (MY + 1);
  g.hdcoef = 1.0 / (g.dx * g.dx);
  g.hacoef = 0.5 / (2.0 * g.dx);
  g.vdcoef = 1.0 / (g.dy * g.dy);
  int64_t colptr[NEQ + 1], rowind[5 * NEQ];
  pattern(colptr, rowind);

  sk_model *m = NULL;
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, NEQ, &m));
  if (!m) {
    sk_context_destroy(&ctx);
    TEST_RETURN();
  }
  CHECK_OK(ctx, sk_model_set_name(m, "cvAdvDiff_bnd"));
  CHECK_OK(ctx, sk_model_set_user_data(m, &g, NULL));
  CHECK_OK(ctx, sk_model_set_rhs(m, rhs));
  CHECK_OK(ctx, sk_model_set_initial(m, initial));
  CHECK_OK(ctx, sk_model_set_jac_pattern(m, colptr, rowind));
  CHECK_OK(ctx, sk_model_set_jac_values(m, jac));
  CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
  if (!s) {
    sk_model_destroy(&m);
    sk_context_destroy(&ctx);
    TEST_RETURN();
  }
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, 0.0, 1.0e-5)); /* reltol = 0: absolute control */
  CHECK_OK(ctx, sk_stepper_set_linear_solver(s, "band"));
  CHECK_OK(ctx, sk_stepper_set_check_jacobian(s, 0));
  CHECK_OK(ctx, sk_stepper_set_vector_kernels(s, SK_VECTOR_KERNELS_OFF));
  CHECK_OK(ctx, sk_stepper_setup(s));

  parity_printout p = {.nrows = 0};
  parity_add_row(&p, "At t = %g      max.norm(u) =%14.6e ", 0.0,
                 max_norm(sk_stepper_get_state(s)));
  double tout = 0.1;
  for (int iout = 1; iout <= NOUT; iout++, tout += 0.1) {
    double t = 0.0;
    const sk_status st = sk_stepper_advance(s, tout, &t);
    CHECK_OK(ctx, st);
    if (st != SK_OK) {
      break;
    }
    sk_stats now;
    CHECK_OK(ctx, sk_stepper_get_stats(s, &now));
    parity_add_row(&p, "At t = %4.2f   max.norm(u) =%14.6e   nst = %4ld", t,
                   max_norm(sk_stepper_get_state(s)), (long)now.steps);
  }
  parity_compare_rows(&published, &p);

  sk_stats st;
  CHECK_OK(ctx, sk_stepper_get_stats(s, &st));
  printf("nst = %lld, nfe = %lld (%lld in difference quotients), nsetups = %lld, nje = %lld, nni "
         "= %lld, ncfn = %lld, netf = %lld\n",
         (long long)st.steps, (long long)st.rhs_evals, (long long)st.rhs_evals_dq,
         (long long)st.lin_setups, (long long)st.jac_evals, (long long)st.newton_iters,
         (long long)st.newton_fails, (long long)st.failed_steps);
  CHECK_EQ_INT(st.steps, parity_value(&published, "nst"));
  CHECK_EQ_INT(st.rhs_evals, parity_value(&published, "nfe") + parity_value(&published, "nfeLS"));
  CHECK_EQ_INT(st.rhs_evals_dq, parity_value(&published, "nfeLS"));
  CHECK_EQ_INT(st.lin_setups, parity_value(&published, "nsetups"));
  CHECK_EQ_INT(st.jac_evals, parity_value(&published, "nje"));
  CHECK_EQ_INT(st.newton_iters, parity_value(&published, "nni"));
  CHECK_EQ_INT(st.newton_fails, parity_value(&published, "ncfn"));
  CHECK_EQ_INT(st.failed_steps, parity_value(&published, "netf"));
  CHECK_EQ_INT(strcmp(sk_stepper_get_linear_solver(s), "band"), 0);

  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

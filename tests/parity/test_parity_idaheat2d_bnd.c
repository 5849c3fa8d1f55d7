/* tests/parity/test_parity_idaheat2d_bnd.c: SUNDIALS' example idaHeat2D_bnd (2-D heat equation as a DAE, IDACalcIC, constraints, band solver with IDA's difference-quotient Jacobian) through stiffkit's public API, against the example's published output */

#include "parity/idaheat.h"

/* The example (examples/ida/serial/idaHeat2D_bnd.c of SUNDIALS 6.4.1,
 * installed by libsundials-dev): the problem of idaheat.h with boundary
 * residual F = u and boundary guesses BVAL = 0.1 (IDACalcIC brings them
 * to 0), rtol = 0, atol = 1e-3, IDASetId, IDASetConstraints (all 1), the
 * band linear solver with half-bandwidths mu = ml = MGRID and IDA's own
 * difference-quotient band Jacobian (no IDASetJacFn: 2 MGRID + 1 = 21
 * residual calls per Jacobian, nreLS), IDACalcIC(IDA_YA_YDP_INIT, 0.01),
 * no IDASetSuppressAlg.
 *
 * stiffkit: the same residual, initial values, id vector and constraints
 * through sk_model, the 5-point pattern (its half-bandwidths are MGRID,
 * so linsol.type = band builds the example's band matrix) and no
 * Jacobian values, ida-bdf with linsol.type = band and
 * linsol.dq_jacobian = sundials (IDA's own band difference quotients, as
 * the example), the model not marked consistent (one IDACalcIC with the
 * first output time). ida-bdf always runs on the packaged serial N_Vector
 * kernels. The engine setup is the example's, so every printed row must
 * be equal, the t = 0 row (IDACalcIC's counters) included.
 *
 * A second run with stiffkit's default (linsol.dq_jacobian = stiffkit:
 * colored finite differences on the pattern, sk_model_get_jac_colors
 * calls per Jacobian instead of 21) takes the same steps: order, steps,
 * nonlinear iterations, Jacobian and residual evaluations and step sizes
 * equal in every row, nreLS = colors x nje, and max |u| equal to the
 * printed digits while it is above atol = 1e-3 (rows up to t = 0.32;
 * from t = 1.28 on the printed values, 1e-33 and below, differ: the
 * rounding of other Jacobian values; checked below atol). Its index-1 check at t0
 * (two colored Jacobians) counts in rhs_evals_selftest, not in nre or
 * nreLS.
 *
 * Expected values: the published output, idaHeat2D_bnd.out (Debian:
 * /usr/share/doc/libsundials-dev/examples/ida/serial/idaHeat2D_bnd.out),
 * quoted here and, when installed (SK_IDAHEAT2D_BND_OUT), checked against
 * the file: the rows below and the final statistics netf = 0, ncfn = 0.
 * (The example built here against the installed SUNDIALS prints the same
 * file byte for byte.) */

static const char *const published_rows[IDAHEAT_NROWS] = {
    "  0.00   9.75461e-01  0    0    3    2     5    42   1.00e-05 ",
    "  0.01   8.24602e-01  2   13   20    9    22   189   2.56e-03 ",
    "  0.02   6.88908e-01  2   15   23   10    25   210   5.12e-03 ",
    "  0.04   4.71178e-01  3   19   28   10    30   210   5.12e-03 ",
    "  0.08   2.16305e-01  3   23   33   10    35   210   1.02e-02 ",
    "  0.16   4.53754e-02  4   29   41   11    43   231   2.05e-02 ",
    "  0.32   1.78933e-03  4   36   50   12    52   252   4.10e-02 ",
    "  0.64   1.27055e-20  1   41   59   14    61   294   1.64e-01 ",
    "  1.28   1.33143e-33  1   43   61   16    63   336   6.55e-01 ",
    "  2.56   5.06358e-37  1   44   62   17    64   357   1.31e+00 ",
    "  5.12   4.59087e-39  1   45   63   18    65   378   2.62e+00 ",
    " 10.24   5.55366e-41  1   46   64   19    66   399   5.24e+00 ",
};

static const parity_stat published_stats[] = {
    {"netf", 0},
    {"ncfn", 0},
};

static const parity_quote published = {"idaHeat2D_bnd.out",
                                       published_rows,
                                       IDAHEAT_NROWS,
                                       published_stats,
                                       (int)(sizeof published_stats / sizeof published_stats[0]),
                                       NULL};

/* One run of the example's setup with linsol.dq_jacobian = dq; the rows into p. */
static void run(sk_context *ctx, sk_dq_jacobian_mode dq, idaheat_printout *p, sk_stats *st,
                int64_t *colors)
{
  idaheat d;
  idaheat_init(&d, 1.0, 0.1);
  static int64_t colptr[IDAHEAT_NEQ + 1], rowind[IDAHEAT_NNZ];
  idaheat_pattern(colptr, rowind);
  sk_model *m = idaheat_model(ctx, "idaHeat2D_bnd", &d, colptr, rowind, NULL);
  sk_stepper *s = NULL;
  if (m) {
    CHECK_OK(ctx, sk_stepper_create(ctx, "ida-bdf", m, &s));
  }
  if (s) {
    CHECK_OK(ctx, sk_stepper_set_tolerances(s, 0.0, 1.0e-3));
    CHECK_OK(ctx, sk_stepper_set_linear_solver(s, "band"));
    CHECK_OK(ctx, sk_stepper_set_dq_jacobian(s, dq));
    p->s = s;
    p->with_ls = 1;
    idaheat_run(ctx, p);
    CHECK_OK(ctx, sk_stepper_get_stats(s, st));
    *colors = sk_model_get_jac_colors(m);
  }
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
}

/* The rows of the run with stiffkit's colored differences against the
 * published ones (see the file's comment). */
static void compare_colored(const parity_printout *p, int64_t colors)
{
  CHECK_EQ_INT(p->nrows, published.nrows);
  for (int i = 0; i < p->nrows && i < published.nrows; i++) {
    const char *fmt = "%lf %lf %d %ld %ld %ld %ld %ld %lf";
    double t[2], umax[2], h[2];
    int k[2];
    long nst[2], nni[2], nje[2], nre[2], nrels[2];
    const char *rows[2] = {p->rows[i], published.rows[i]};
    for (int r = 0; r < 2; r++) {
      CHECK_EQ_INT(sscanf(rows[r], fmt, &t[r], &umax[r], &k[r], &nst[r], &nni[r], &nje[r],
                          &nre[r], &nrels[r], &h[r]),
                   9);
    }
    CHECK(t[0] == t[1] && k[0] == k[1] && h[0] == h[1]);
    CHECK_EQ_INT(nst[0], nst[1]);
    CHECK_EQ_INT(nni[0], nni[1]);
    CHECK_EQ_INT(nje[0], nje[1]);
    CHECK_EQ_INT(nre[0], nre[1]);
    CHECK_EQ_INT(nrels[0], colors * nje[0]);
    if (umax[1] > 1.0e-3) {
      CHECK(umax[0] == umax[1]);
    } else {
      CHECK(umax[0] <= 1.0e-3); /* below atol: the rounding of other Jacobian values */
    }
  }
}

int main(void)
{
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK) {
    return 1;
  }
#ifdef SK_IDAHEAT2D_BND_OUT
  parity_check_quote(&published, SK_IDAHEAT2D_BND_OUT);
#else
  parity_check_quote(&published, NULL);
#endif
  /* the example's setup: every row and the final statistics exactly */
  idaheat_printout p = {0};
  sk_stats st;
  int64_t colors = 0;
  run(ctx, SK_DQ_JACOBIAN_SUNDIALS, &p, &st, &colors);
  parity_compare_rows(&published, &p.out);
  CHECK_EQ_INT(st.failed_steps, parity_value(&published, "netf"));
  CHECK_EQ_INT(st.newton_fails, parity_value(&published, "ncfn"));
  CHECK_EQ_INT(st.rhs_evals_selftest, 2 * colors); /* the index-1 check */

  /* stiffkit's colored differences: the same steps at a fraction of the calls */
  idaheat_printout q = {0};
  run(ctx, SK_DQ_JACOBIAN_STIFFKIT, &q, &st, &colors);
  printf("with linsol.dq_jacobian = stiffkit (%lld colors):\n", (long long)colors);
  for (int i = 0; i < q.out.nrows; i++) {
    printf("%s\n", q.out.rows[i]);
  }
  CHECK(colors > 0 && colors < 2 * IDAHEAT_MGRID + 1);
  compare_colored(&q.out, colors);
  CHECK_EQ_INT(st.failed_steps, parity_value(&published, "netf"));
  CHECK_EQ_INT(st.newton_fails, parity_value(&published, "ncfn"));
  CHECK_EQ_INT(st.rhs_evals_selftest, 2 * colors);

  sk_context_destroy(&ctx);
  TEST_RETURN();
}

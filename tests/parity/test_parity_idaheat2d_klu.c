/* tests/parity/test_parity_idaheat2d_klu.c: SUNDIALS' example idaHeat2D_klu (2-D heat equation as a DAE, IDACalcIC, constraints, KLU with the analytic Jacobian) through stiffkit's public API, against the example's published output */

#include "parity/idaheat.h"

/* The example (examples/ida/serial/idaHeat2D_klu.c of SUNDIALS 6.4.1,
 * installed by libsundials-dev): the problem of idaheat.h with boundary
 * residual 0 (its N_VScale(ZERO, uu, resval)) and boundary guesses
 * BVAL = 0, rtol = 0, atol = 1e-8, IDASetId, IDASetConstraints (all 1),
 * the KLU sparse direct solver (SUNLinSol_KLU's default ordering, COLAMD)
 * with the analytic Jacobian jacHeat (1 on the boundary diagonal, which
 * the residual does not have: the example's own inconsistency, kept),
 * IDACalcIC(IDA_YA_YDP_INIT, 0.01), no IDASetSuppressAlg.
 *
 * stiffkit: the same residual, initial values, id vector and constraints
 * through sk_model (sk_model_set_differential, sk_model_set_constraints),
 * jacHeat's pattern and values through sk_model_set_jac_pattern and
 * sk_model_set_dae_jac_values (its CSC, column by column, rows ascending:
 * the same matrix reaches KLU), ida-bdf with linsol.type = klu,
 * linsol.ordering = colamd (stiffkit's own default is amd),
 * solver.check_jacobian off (the example has no such check, and its
 * Jacobian disagrees with the residual on the boundary rows; ida-bdf does
 * not run the check today, the setting keeps it so), the model not
 * marked consistent, so that ida-bdf calls IDACalcIC once with
 * the first output time, as the example. ida-bdf always runs on the
 * packaged serial N_Vector kernels (solver.fast_vector_ops concerns the
 * cvode-* engines). The engine setup is the example's, so every printed
 * row must be equal, the t = 0 row (IDACalcIC's counters) included.
 *
 * Expected values: the published output, idaHeat2D_klu.out (Debian:
 * /usr/share/doc/libsundials-dev/examples/ida/serial/idaHeat2D_klu.out),
 * quoted here and, when installed (SK_IDAHEAT2D_KLU_OUT), checked against
 * the file: the rows below and the final statistics netf = 2, ncfn = 0.
 * (The example built here against the installed SUNDIALS and SuiteSparse
 * prints the same file byte for byte.) */

static const char *const published_rows[IDAHEAT_NROWS] = {
    "  0.00   9.75461e-01  0    0    0    2     2   5.15e-10 ",
    "  0.01   8.24056e-01  5   53   63   23    65   5.55e-04 ",
    "  0.02   6.88097e-01  5   69   81   24    83   9.99e-04 ",
    "  0.04   4.70961e-01  5   90  106   27   108   1.91e-03 ",
    "  0.08   2.16312e-01  5  113  130   27   132   1.72e-03 ",
    "  0.16   4.53210e-02  5  137  155   28   157   3.43e-03 ",
    "  0.32   1.98864e-03  5  173  193   29   195   6.18e-03 ",
    "  0.64   3.83238e-06  5  210  233   31   235   2.22e-02 ",
    "  1.28   0.00000e+00  1  227  255   34   257   1.78e-01 ",
    "  2.56   0.00000e+00  1  230  258   37   260   1.42e+00 ",
    "  5.12   0.00000e+00  1  231  259   38   261   2.85e+00 ",
    " 10.24   0.00000e+00  1  232  260   39   262   5.69e+00 ",
};

static const parity_stat published_stats[] = {
    {"netf", 2},
    {"ncfn", 0},
};

static const parity_quote published = {"idaHeat2D_klu.out",
                                       published_rows,
                                       IDAHEAT_NROWS,
                                       published_stats,
                                       (int)(sizeof published_stats / sizeof published_stats[0]),
                                       NULL};

int main(void)
{
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK) {
    return 1;
  }
#ifdef SK_IDAHEAT2D_KLU_OUT
  parity_check_quote(&published, SK_IDAHEAT2D_KLU_OUT);
#else
  parity_check_quote(&published, NULL);
#endif
  idaheat d;
  idaheat_init(&d, 0.0, 0.0);
  static int64_t colptr[IDAHEAT_NEQ + 1], rowind[IDAHEAT_NNZ];
  idaheat_pattern(colptr, rowind);
  CHECK_EQ_INT(colptr[IDAHEAT_NEQ], IDAHEAT_NNZ);
  sk_model *m = idaheat_model(ctx, "idaHeat2D_klu", &d, colptr, rowind, idaheat_jac);
  sk_stepper *s = NULL;
  if (m) {
    CHECK_OK(ctx, sk_stepper_create(ctx, "ida-bdf", m, &s));
  }
  if (!s) {
    sk_model_destroy(&m);
    sk_context_destroy(&ctx);
    TEST_RETURN();
  }
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, 0.0, 1.0e-8));
  CHECK_OK(ctx, sk_stepper_set_linear_solver(s, "klu"));
  CHECK_OK(ctx, sk_stepper_set_ordering(s, "colamd"));
  CHECK_OK(ctx, sk_stepper_set_check_jacobian(s, 0));
  idaheat_printout p = {.s = s, .with_ls = 0};
  idaheat_run(ctx, &p);
  parity_compare_rows(&published, &p.out);

  sk_stats st;
  CHECK_OK(ctx, sk_stepper_get_stats(s, &st));
  CHECK_EQ_INT(st.failed_steps, parity_value(&published, "netf"));
  CHECK_EQ_INT(st.newton_fails, parity_value(&published, "ncfn"));
  CHECK_EQ_INT(st.rhs_evals_dq, 0); /* the analytic Jacobian only */

  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

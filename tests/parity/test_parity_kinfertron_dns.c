/* tests/parity/test_parity_kinfertron_dns.c: SUNDIALS' example kinFerTron_dns (Ferraris-Tronconi with bounds as constraints, dense difference-quotient Jacobian) through sk_steady_solve, against the example's published output */
#include "parity/fertron.h"

/* The example: the system of fertron.h, KINSOL with the dense linear
 * solver and no Jacobian function (KINSOL's own difference quotients: one
 * f call per column, the "nfeD" of the output), constraints, fnormtol =
 * scsteptol = 1e-5, eight solves. Here: a model with an RHS and no
 * Jacobian pattern, linsol.type = dense (which leaves the Jacobian to
 * KINSOL's difference quotients, as the example does), the strategy and
 * steady.max_setup_calls of each solve.
 *
 * Expected values: the published output, kinFerTron_dns.out (Debian:
 * /usr/share/doc/libsundials-dev/examples/kinsol/serial/kinFerTron_dns.out),
 * quoted here and, when installed (SK_KINFERTRON_DNS_OUT), checked against
 * the file: every printed row (tolerances, guesses, the solutions to 6
 * digits, nni, nfe, nje and nfeD of each solve), reproduced exactly. */

static const char *const published_rows[FERTRON_NROWS] = {
    "  fnormtol  =      1e-05",
    "  scsteptol =      1e-05",
    "  [x1,x2] =      0.25       1.5",
    "Exact Newton",
    "  [x1,x2] =  0.299449   2.83693",
    "  nni =     3    nfe  =     4 ",
    "  nje =     3    nfeD =    18 ",
    "Exact Newton with line search",
    "  [x1,x2] =  0.299449   2.83693",
    "  nni =     3    nfe  =     4 ",
    "  nje =     3    nfeD =    18 ",
    "Modified Newton",
    "  [x1,x2] =  0.299449   2.83693",
    "  nni =    11    nfe  =    12 ",
    "  nje =     2    nfeD =    12 ",
    "Modified Newton with line search",
    "  [x1,x2] =  0.299449   2.83693",
    "  nni =    11    nfe  =    12 ",
    "  nje =     2    nfeD =    12 ",
    "  [x1,x2] =     0.625   3.89159",
    "Exact Newton",
    "  [x1,x2] =       0.5   3.14159",
    "  nni =     5    nfe  =     6 ",
    "  nje =     5    nfeD =    30 ",
    "Exact Newton with line search",
    "  [x1,x2] =       0.5   3.14159",
    "  nni =     5    nfe  =     6 ",
    "  nje =     5    nfeD =    30 ",
    "Modified Newton",
    "  [x1,x2] =  0.500003    3.1416",
    "  nni =    12    nfe  =    13 ",
    "  nje =     2    nfeD =    12 ",
    "Modified Newton with line search",
    "  [x1,x2] =  0.500003    3.1416",
    "  nni =    12    nfe  =    13 ",
    "  nje =     2    nfeD =    12 ",
};

static const parity_quote published = {
    "kinFerTron_dns.out", published_rows, FERTRON_NROWS, NULL, 0, fertron_is_row};

int main(void)
{
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK) {
    return 1;
  }
#ifdef SK_KINFERTRON_DNS_OUT
  parity_check_quote(&published, SK_KINFERTRON_DNS_OUT);
#else
  parity_check_quote(&published, NULL);
#endif
  sk_model *m = fertron_model(ctx, "kinFerTron_dns");
  if (m) {
    parity_printout p = {.nrows = 0};
    fertron_run(ctx, m, "dense", "auto", 1, 1, &p);
    parity_compare_rows(&published, &p);
  }
  sk_model_destroy(&m);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

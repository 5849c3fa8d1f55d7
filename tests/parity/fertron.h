/* tests/parity/fertron.h: the Ferraris-Tronconi system of SUNDIALS' kinFerTron_* examples (f, Jacobian, bounds as constrained slack variables), their eight solves and their printing, for the parity tests */
#ifndef SK_TEST_FERTRON_H
#define SK_TEST_FERTRON_H

#include "parity/parity.h"

/* The examples' problem (examples/kinsol/serial/kinFerTron_*.c of SUNDIALS
 * 6.4.1): find x1, x2 with
 *   0.5 sin(x1 x2) - 0.25 x2 / pi - 0.5 x1 = 0
 *   (1 - 0.25 / pi) (exp(2 x1) - e) + e x2 / pi - 2 e x1 = 0
 * and 0.25 <= x1 <= 1, 1.5 <= x2 <= 2 pi, written with the slack variables
 * u = (x1, x2, l1, L1, l2, L2), l1 = x1 - 0.25, L1 = x1 - 1, l2 = x2 - 1.5,
 * L2 = x2 - 2 pi, and KINSOL's constraints l1 >= 0, L1 <= 0, l2 >= 0,
 * L2 <= 0 (sk_model_set_constraints here). pi and e are the examples'
 * truncated 3.1415926 and 2.7182818. Tolerances fnormtol = scsteptol =
 * 1e-5, unit scaling; from two guesses (x on its lower bounds, and the
 * middle of the box) four solves each: exact Newton (mset 1) and modified
 * Newton (mset 0, i.e. KINSOL's default of 10 iterations per Jacobian:
 * steady.max_setup_calls = 10), each without (KIN_NONE) and with line
 * search (KIN_LINESEARCH). */
#define FERTRON_N 6
#define FERTRON_PI 3.1415926
#define FERTRON_E 2.7182818

static const double fertron_lb[2] = {0.25, 1.5};
static const double fertron_ub[2] = {1.0, 2.0 * FERTRON_PI};

/* the examples' func, in their order of operations */
static inline int fertron_rhs(double t, const double *u, double *f, void *ud)
{
  (void)t;
  (void)ud;
  const double x1 = u[0], x2 = u[1], l1 = u[2], L1 = u[3], l2 = u[4], L2 = u[5];
  f[0] = 0.5 * sin(x1 * x2) - 0.25 * x2 / FERTRON_PI - 0.5 * x1;
  f[1] = (1.0 - 0.25 / FERTRON_PI) * (exp(2.0 * x1) - FERTRON_E) + FERTRON_E * x2 / FERTRON_PI -
         2.0 * FERTRON_E * x1;
  f[2] = l1 - x1 + fertron_lb[0];
  f[3] = L1 - x1 + fertron_ub[0];
  f[4] = l2 - x2 + fertron_lb[1];
  f[5] = L2 - x2 + fertron_ub[1];
  return 0;
}

/* SetInitialGuess1 (which 1: x on its lower bounds) and SetInitialGuess2
 * (which 2: the middle of the box) */
static inline void fertron_guess(int which, double *u)
{
  const double x1 = which == 1 ? fertron_lb[0] : 0.5 * (fertron_lb[0] + fertron_ub[0]);
  const double x2 = which == 1 ? fertron_lb[1] : 0.5 * (fertron_lb[1] + fertron_ub[1]);
  u[0] = x1;
  u[1] = x2;
  u[2] = x1 - fertron_lb[0];
  u[3] = x1 - fertron_ub[0];
  u[4] = x2 - fertron_lb[1];
  u[5] = x2 - fertron_ub[1];
}

/* fertron_model: the system as an ODE model (its steady state), with the
 * examples' constraints; NULL (failures counted) on error. */
static inline sk_model *fertron_model(sk_context *ctx, const char *name)
{
  static const int constraints[FERTRON_N] = {0, 0, 1, -1, 1, -1};
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, FERTRON_N, &m));
  if (m) {
    CHECK_OK(ctx, sk_model_set_name(m, name));
    CHECK_OK(ctx, sk_model_set_rhs(m, fertron_rhs));
    CHECK_OK(ctx, sk_model_set_constraints(m, constraints));
  }
  return m;
}

/* The printed rows of the examples: the tolerances, each guess, and for
 * every solve its title, the solution and the statistics lines. */
static inline int fertron_is_row(const char *line)
{
  return strstr(line, "fnormtol") || strstr(line, "scsteptol") || strstr(line, "[x1,x2] =") ||
         !strncmp(line, "Exact Newton", 12) || !strncmp(line, "Modified Newton", 15) ||
         !strncmp(line, "  nni =", 7) || !strncmp(line, "  nje =", 7);
}

#define FERTRON_NROWS (2 + 2 * (1 + 4 * 4))

/* fertron_run: the examples' eight solves through sk_steady_solve with
 * linsol.type = linsol (and the KLU ordering), printing the rows as the
 * example does; with_nfed prints kinFerTron_dns's "nfeD" (the difference
 * quotients of its dense Jacobian), which kinFerTron_klu leaves out;
 * check_jacobian is solver.check_jacobian. */
static inline void fertron_run(sk_context *ctx, sk_model *m, const char *linsol,
                               const char *ordering, int with_nfed, int check_jacobian,
                               parity_printout *p)
{
  parity_add_row(p, "  fnormtol  = %10.6g", 1e-5);
  parity_add_row(p, "  scsteptol = %10.6g", 1e-5);
  for (int guess = 1; guess <= 2; guess++) {
    double u0[FERTRON_N], u[FERTRON_N];
    fertron_guess(guess, u0);
    parity_add_row(p, "  [x1,x2] =  %8.6g  %8.6g", u0[0], u0[1]);
    for (int c = 0; c < 4; c++) {
      const int exact = c < 2, line_search = c % 2;
      sk_steady_settings set;
      sk_steady_settings_default(&set);
      snprintf(set.strategy, sizeof set.strategy, "%s", line_search ? "linesearch" : "none");
      snprintf(set.linsol, sizeof set.linsol, "%s", linsol);
      snprintf(set.ordering, sizeof set.ordering, "%s", ordering);
      set.fnormtol = 1e-5;
      set.scsteptol = 1e-5;
      set.max_setup_calls = exact ? 1 : 10;
      set.check_jacobian = check_jacobian;
      memcpy(u, u0, sizeof u);
      sk_steady_report r;
      const sk_status st = sk_steady_solve(ctx, m, &set, u, &r);
      if (st != SK_OK) {
        fprintf(stderr, "guess %d, case %d: %s\n", guess, c, sk_context_get_error(ctx)->message);
        sk_test_failures++;
      }
      printf("guess %d, %s Newton%s: %s, %lld backtracks, %lld f evaluations in all\n", guess,
             exact ? "exact" : "modified", line_search ? " with line search" : "",
             r.kinsol_flag_name, (long long)r.backtracks, (long long)r.f_evals);
      parity_add_row(p, "%s Newton%s", exact ? "Exact" : "Modified",
                     line_search ? " with line search" : "");
      parity_add_row(p, "  [x1,x2] =  %8.6g  %8.6g", u[0], u[1]);
      parity_add_row(p, "  nni = %5ld    nfe  = %5ld ", (long)r.newton_iters,
                     (long)r.kinsol_f_evals);
      if (with_nfed) {
        parity_add_row(p, "  nje = %5ld    nfeD = %5ld ", (long)r.jac_evals, (long)r.f_evals_dq);
      } else {
        parity_add_row(p, "  nje = %5ld    ", (long)r.jac_evals);
      }
    }
  }
}

#endif

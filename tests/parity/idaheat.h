/* tests/parity/idaheat.h: the 2-D heat equation DAE of SUNDIALS' idaHeat2D_* serial examples (residual, initial profile, id and constraints) and their output loop, for the parity tests */
#ifndef SK_TEST_IDAHEAT_H
#define SK_TEST_IDAHEAT_H

#include "parity/parity.h"

/* The examples' problem: du/dt = u_xx + u_yy on the unit square, central
 * differences on the MGRID x MGRID grid (dx = 1/(MGRID - 1), unknown (i, j)
 * at index i + MGRID j), the interior points as ODEs
 *   F = u' - (u_W + u_E + u_S + u_N - 4 u) / dx^2
 * and the boundary points as algebraic equations F = bfac u (bfac = 1 in
 * idaHeat2D_bnd; idaHeat2D_klu initializes the residual with
 * N_VScale(ZERO, ...), so F = 0 there), from u = 16 x (1 - x) y (1 - y),
 * u' = the interior right-hand side, the boundary values replaced by
 * BVAL (u' = 0 and id = 0 there), constraints u >= 0 everywhere, IDACalcIC
 * (IDA_YA_YDP_INIT) toward t1 = 0.01, then IDASolve(IDA_NORMAL) at
 * t = 0.01 2^k, k = 0..10, printing max |u|, the last order, the steps,
 * the nonlinear iterations, the Jacobian evaluations, the residual
 * evaluations (and, in idaHeat2D_bnd, those of the difference-quotient
 * Jacobian) and the last step, after IDACalcIC (t = 0) and at every output. */
#define IDAHEAT_MGRID 10
#define IDAHEAT_NEQ (IDAHEAT_MGRID * IDAHEAT_MGRID)
#define IDAHEAT_NOUT 11
#define IDAHEAT_NROWS (IDAHEAT_NOUT + 1) /* the row after IDACalcIC, and the outputs */

typedef struct {
  double dx, coeff; /* the example's UserData */
  double bfac, bval;
} idaheat;

static inline void idaheat_init(idaheat *d, double bfac, double bval)
{
  d->dx = 1.0 / (IDAHEAT_MGRID - 1.0);
  d->coeff = 1.0 / (d->dx * d->dx);
  d->bfac = bfac;
  d->bval = bval;
}

static inline int idaheat_is_boundary(int64_t loc)
{
  const int64_t i = loc % IDAHEAT_MGRID, j = loc / IDAHEAT_MGRID;
  return i == 0 || j == 0 || i == IDAHEAT_MGRID - 1 || j == IDAHEAT_MGRID - 1;
}

/* the examples' heatres, in its order of operations */
static inline int idaheat_residual(double t, const double *u, const double *up, double *r,
                                   void *ud)
{
  (void)t;
  const idaheat *d = ud;
  const int64_t mm = IDAHEAT_MGRID;
  for (int64_t k = 0; k < IDAHEAT_NEQ; k++) {
    r[k] = d->bfac * u[k];
  }
  for (int64_t j = 1; j < mm - 1; j++) {
    for (int64_t i = 1; i < mm - 1; i++) {
      const int64_t loc = mm * j + i;
      r[loc] = up[loc] -
               d->coeff * (u[loc - 1] + u[loc + 1] + u[loc - mm] + u[loc + mm] - 4.0 * u[loc]);
    }
  }
  return 0;
}

/* the examples' SetInitialProfile (u and u'; the id is idaheat_model's) */
static inline int idaheat_initial(double t0, double *u, double *up, void *ud)
{
  (void)t0;
  const idaheat *d = ud;
  const int64_t mm = IDAHEAT_MGRID;
  for (int64_t j = 0; j < mm; j++) {
    const double yfact = d->dx * (double)j;
    for (int64_t i = 0; i < mm; i++) {
      const double xfact = d->dx * (double)i;
      u[mm * j + i] = 16.0 * xfact * (1.0 - xfact) * yfact * (1.0 - yfact);
    }
  }
  double res[IDAHEAT_NEQ];
  memset(up, 0, IDAHEAT_NEQ * sizeof *up);
  idaheat_residual(0.0, u, up, res, ud);
  for (int64_t k = 0; k < IDAHEAT_NEQ; k++) {
    up[k] = -res[k];
  }
  for (int64_t k = 0; k < IDAHEAT_NEQ; k++) {
    if (idaheat_is_boundary(k)) {
      u[k] = d->bval;
      up[k] = 0.0;
    }
  }
  return 0;
}

/* The Jacobian pattern of idaHeat2D_klu's jacHeat (idaHeat2D_bnd's
 * residual has the same): column j holds the diagonal and the interior
 * rows i of which j is a neighbour, rows ascending as jacHeat writes them.
 * IDAHEAT_NNZ is the example's TOTAL. */
#define IDAHEAT_NNZ                              \
  (4 * IDAHEAT_MGRID + 8 * (IDAHEAT_MGRID - 2) + \
   (IDAHEAT_MGRID - 4) * (IDAHEAT_MGRID + 4 * (IDAHEAT_MGRID - 2)))

static inline void idaheat_pattern(int64_t colptr[IDAHEAT_NEQ + 1], int64_t rowind[IDAHEAT_NNZ])
{
  const int64_t mm = IDAHEAT_MGRID;
  int64_t w = 0;
  for (int64_t j = 0; j < IDAHEAT_NEQ; j++) {
    colptr[j] = w;
    const int64_t rows[5] = {j - mm, j - 1, j, j + 1, j + mm};
    for (int k = 0; k < 5; k++) {
      const int64_t i = rows[k];
      if (i == j || (i >= 0 && i < IDAHEAT_NEQ && !idaheat_is_boundary(i))) {
        rowind[w++] = i;
      }
    }
  }
  colptr[IDAHEAT_NEQ] = w;
}

/* the values of jacHeat (dF/du + cj dF/du', boundary rows 1 on the
 * diagonal) in the order of idaheat_pattern */
static inline int idaheat_jac(double t, double cj, const double *u, const double *up,
                              const double *r, double *v, void *ud)
{
  (void)t;
  (void)u;
  (void)up;
  (void)r;
  (void)ud;
  const double dx = 1.0 / (IDAHEAT_MGRID - 1.0);
  const double beta = 4.0 / (dx * dx) + cj;
  int64_t w = 0;
  for (int64_t j = 0; j < IDAHEAT_NEQ; j++) {
    const int64_t mm = IDAHEAT_MGRID, rows[5] = {j - mm, j - 1, j, j + 1, j + mm};
    for (int k = 0; k < 5; k++) {
      const int64_t i = rows[k];
      if (i == j) {
        v[w++] = idaheat_is_boundary(j) ? 1.0 : beta;
      } else if (i >= 0 && i < IDAHEAT_NEQ && !idaheat_is_boundary(i)) {
        v[w++] = -1.0 / (dx * dx);
      }
    }
  }
  return 0;
}

/* idaheat_model: the examples' DAE with their id vector and constraints
 * (u >= 0), the Jacobian pattern colptr/rowind and, when jac is not NULL,
 * its values; d is the user data. NULL (with the failure counted) on an
 * error. */
static inline sk_model *idaheat_model(sk_context *ctx, const char *name, idaheat *d,
                                      const int64_t *colptr, const int64_t *rowind,
                                      sk_dae_jac_fn jac)
{
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_DAE, IDAHEAT_NEQ, &m));
  if (!m) {
    return NULL;
  }
  int id[IDAHEAT_NEQ], positive[IDAHEAT_NEQ];
  for (int64_t k = 0; k < IDAHEAT_NEQ; k++) {
    id[k] = !idaheat_is_boundary(k);
    positive[k] = 1;
  }
  CHECK_OK(ctx, sk_model_set_name(m, name));
  CHECK_OK(ctx, sk_model_set_user_data(m, d, NULL));
  CHECK_OK(ctx, sk_model_set_residual(m, idaheat_residual));
  CHECK_OK(ctx, sk_model_set_dae_initial(m, idaheat_initial));
  CHECK_OK(ctx, sk_model_set_differential(m, id));
  CHECK_OK(ctx, sk_model_set_constraints(m, positive));
  CHECK_OK(ctx, sk_model_set_jac_pattern(m, colptr, rowind));
  if (jac) {
    CHECK_OK(ctx, sk_model_set_dae_jac_values(m, jac));
  }
  return m;
}

/* The rows as the examples print them; with_ls: the nreLS column of idaHeat2D_bnd. */
typedef struct {
  parity_printout out;
  sk_stepper *s;
  int with_ls;
  int ic_rows; /* rows printed at the consistent initialization */
} idaheat_printout;

static inline void idaheat_print(idaheat_printout *p, double t)
{
  sk_stats st;
  CHECK_OK(sk_stepper_get_context(p->s), sk_stepper_get_stats(p->s, &st));
  const double *u = sk_stepper_get_state(p->s);
  double umax = 0.0; /* N_VMaxNorm */
  for (int64_t k = 0; k < IDAHEAT_NEQ; k++) {
    umax = fmax(umax, fabs(u[k]));
  }
  /* nre: IDA's own residual calls, rhs_evals less its parts (stats.h); nreLS: those of
     IDA's difference-quotient Jacobian */
  const long nre = (long)(st.rhs_evals - st.rhs_evals_dq - st.rhs_evals_pattern -
                          st.rhs_evals_selftest - st.rhs_evals_stability);
  const long nre_ls = (long)st.rhs_evals_dq;
  if (p->with_ls) {
    parity_add_row(&p->out, " %5.2f %13.5e  %d  %3ld  %3ld  %3ld  %4ld  %4ld  %9.2e ", t, umax,
                   st.last_order, (long)st.steps, (long)st.newton_iters, (long)st.jac_evals, nre,
                   nre_ls, st.last_h);
  } else {
    parity_add_row(&p->out, " %5.2f %13.5e  %d  %3ld  %3ld  %3ld  %4ld  %9.2e ", t, umax,
                   st.last_order, (long)st.steps, (long)st.newton_iters, (long)st.jac_evals, nre,
                   st.last_h);
  }
}

/* sk_log_fn: ida-bdf reports its IDACalcIC right after the call, before
 * the first IDASolve; the example prints its t = 0 row there (the counters
 * of IDACalcIC and the consistent u). user_data is the idaheat_printout. */
static inline void idaheat_log(void *ud, sk_log_level level, const char *msg)
{
  idaheat_printout *p = ud;
  printf("log %d: %s\n", (int)level, msg);
  static const char prefix[] = "consistent initial values at t0=";
  if (!strncmp(msg, prefix, sizeof prefix - 1) && strstr(msg, "(IDACalcIC)")) {
    idaheat_print(p, 0.0);
    p->ic_rows++;
  }
}

/* idaheat_run: the examples' output loop on a configured stepper (the
 * first advance runs IDACalcIC toward t1 = 0.01, as the example's call).
 * Counts failures. */
static inline void idaheat_run(sk_context *ctx, idaheat_printout *p)
{
  sk_context_set_log(ctx, SK_LOG_INFO, idaheat_log, p);
  double tout = 0.01;
  for (int k = 0; k < IDAHEAT_NOUT; k++, tout *= 2.0) {
    double t = 0.0;
    const sk_status st = sk_stepper_advance(p->s, tout, &t);
    CHECK_OK(ctx, st);
    if (st != SK_OK) {
      break;
    }
    idaheat_print(p, t);
  }
  sk_context_set_log(ctx, SK_LOG_INFO, NULL, NULL);
  CHECK_EQ_INT(p->ic_rows, 1); /* one IDACalcIC, before the first step */
}

#endif

/* src/bvp/bvp_shoot.c: single and multiple shooting: IVPs with their variational equations integrated by a stepper (CVODE by default), continuity and boundary residuals solved by KINSOL + KLU, sensitivity-growth diagnosis */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "bvp/bvp_solver.h"
#include "stiffkit/stepper.h"

/* Unknowns u[d k + c] = y_c(x_k) at the nodes x_0 .. x_{K-1}; rows: the
 * n_left left conditions, d continuity rows per inner node
 * scale_c (y_c(x_{k+1}; x_k, s_k) - s_{k+1,c}), then the other conditions
 * at (s_0, y(x_K; x_{K-1}, s_{K-1})). */
typedef struct {
  sk_bvp *bvp;
  const sk_bvp_settings *s;
  int d;
  int64_t K;
  double *nodes;            /* K + 1 */
  double w[SK_BVP_MAX_DIM]; /* scale_c */
  double rtol, atol;
  sk_model *ivp, *var;      /* y' = f, and (y, Y)' = (f, (df/dy) Y) */
  int with_var;             /* the model being integrated is var */
  double *phi, *Y;          /* end values (K d) and sensitivities (K d d) */
  sk__bvp_failure fail;     /* in the Newton solve */
  sk__bvp_failure ivp_fail; /* inside the current integration */
  sk_bvp_report *rep;
} shoot_system;

static int ivp_rhs(double x, const double *z, double *zdot, void *data)
{
  shoot_system *sys = data;
  const int d = sys->d;
  sk_status st = sk_bvp_eval_rhs(sys->bvp, x, z, zdot);
  if (st == SK_OK && sys->with_var) {
    double J[SK_BVP_MAX_DIM * SK_BVP_MAX_DIM];
    st = sk_bvp_eval_jac(sys->bvp, x, z, zdot, J);
    const double *Y = z + d;
    double *Ydot = zdot + d;
    for (int j = 0; st == SK_OK && j < d; j++) {
      for (int i = 0; i < d; i++) {
        double acc = 0.0;
        for (int m = 0; m < d; m++) {
          acc += J[i + d * m] * Y[m + d * j];
        }
        Ydot[i + d * j] = acc;
      }
    }
  }
  return sk__bvp_callback_code(&sys->ivp_fail, sys->bvp->ctx, st);
}

static void ivp_name(int64_t i, char *buf, size_t len, void *data)
{
  const shoot_system *sys = data;
  if (i < sys->d) {
    snprintf(buf, len, "%s", sk_bvp_get_component_name(sys->bvp, (int)i));
  } else {
    const int64_t k = i - sys->d;
    snprintf(buf, len, "d%s/d%s(x_k)", sk_bvp_get_component_name(sys->bvp, (int)(k % sys->d)),
             sk_bvp_get_component_name(sys->bvp, (int)(k / sys->d)));
  }
}

/* Integrate from (x0, z0) to x1 into z1; the y part at the nout abscissae
 * xout (in [x0, x1], increasing) into yout. */
static sk_status integrate(shoot_system *sys, int with_var, double x0, double x1,
                           const double *z0, double *z1, const double *xout, int64_t nout,
                           double *yout)
{
  sk_context *ctx = sys->bvp->ctx;
  sk_model *m = with_var ? sys->var : sys->ivp;
  const int64_t n = sk_model_get_n(m);
  sys->with_var = with_var;
  sys->ivp_fail.failed = 0;
  sk_stepper *st = NULL;
  sk_status rc = sk_stepper_create(ctx, sys->s->ivp_method, m, &st);
  if (rc == SK_OK) {
    sk_stepper_set_tolerances(st, sys->rtol, sys->atol);
    sk_stepper_set_initial(st, x0, z0);
    sk_stepper_set_check_jacobian(st, 0);
    /* the growth of a shooting solution is the sensitivity the BVP solver reports
       (sensitivity_limit), not a blow-up of the integration: non-finite values only */
    sk_stepper_set_max_growth(st, 0);
    sk_stepper_set_detect_pattern(st, SK_DETECT_PATTERN_OFF);
    sk_stepper_set_max_steps(st, 200000);
    sk_stepper_set_stop_time(st, x1);
    if (!strncmp(sys->s->ivp_method, "cvode", 5)) {
      sk_stepper_set_linear_solver(st, "dense");
    }
  }
  double xr = x0;
  for (int64_t j = 0; rc == SK_OK && j < nout; j++) {
    if (xout[j] > xr) {
      rc = sk_stepper_advance(st, xout[j], &xr);
    }
    if (rc == SK_OK) {
      memcpy(yout + sys->d * j, xout[j] > x0 ? sk_stepper_get_state(st) : z0,
             (size_t)sys->d * sizeof *yout);
    }
  }
  if (rc == SK_OK && x1 > xr) {
    rc = sk_stepper_advance(st, x1, &xr);
  }
  if (rc == SK_OK) {
    memcpy(z1, sk_stepper_get_state(st), (size_t)n * sizeof *z1);
  } else if (st) {
    char msg[SK_ERROR_MSG_LEN];
    snprintf(msg, sizeof msg, "%s", sk_context_get_error(ctx)->message);
    rc = SK_ERROR(ctx, rc < 0 ? rc : SK_ERR_SOLVER,
                  "the initial-value problem on [%.6g, %.6g] stopped at x = %.6g: %.400s%s%.400s",
                  x0, x1, sk_stepper_get_time(st), msg, sys->ivp_fail.failed ? "; cause: " : "",
                  sys->ivp_fail.failed ? sys->ivp_fail.saved.message : "");
  }
  if (st) {
    sk_stats stats;
    if (sk_stepper_get_stats(st, &stats) == SK_OK) {
      sys->rep->ivp_steps += stats.steps;
    }
  }
  sk_stepper_destroy(&st);
  return rc;
}

static int shoot_residual(double t, const double *u, double *r, void *data)
{
  (void)t;
  shoot_system *sys = data;
  const int d = sys->d, nl = sys->bvp->n_left;
  const int64_t K = sys->K;
  for (int64_t k = 0; k < K; k++) {
    const sk_status st = integrate(sys, 0, sys->nodes[k], sys->nodes[k + 1], u + d * k,
                                   sys->phi + d * k, NULL, 0, NULL);
    if (st != SK_OK) {
      return sk__bvp_callback_code(&sys->fail, sys->bvp->ctx, st);
    }
  }
  double g[SK_BVP_MAX_DIM];
  const sk_status st = sk_bvp_eval_bc(sys->bvp, u, sys->phi + d * (K - 1), g);
  if (st != SK_OK) {
    return sk__bvp_callback_code(&sys->fail, sys->bvp->ctx, st);
  }
  memcpy(r, g, (size_t)nl * sizeof *r);
  for (int64_t k = 0; k + 1 < K; k++) {
    for (int c = 0; c < d; c++) {
      r[nl + d * k + c] = sys->w[c] * (sys->phi[d * k + c] - u[d * (k + 1) + c]);
    }
  }
  memcpy(r + nl + d * (K - 1), g + nl, (size_t)(d - nl) * sizeof *r);
  return 0;
}

/* The Jacobian's columns: the pattern (values NULL) or the values. */
static int64_t shoot_walk(const void *data, const double *dga, const double *dgb, int64_t *colptr,
                          int64_t *rowind, double *values)
{
  const shoot_system *sys = data;
  const int d = sys->d, nl = sys->bvp->n_left, ncoupled = d - nl - sys->bvp->n_right;
  const int64_t K = sys->K, trail = nl + (int64_t)d * (K - 1);
  int64_t e = 0;
  for (int64_t k = 0; k < K; k++) {
    const double *Yk = values ? sys->Y + (int64_t)d * d * k : NULL;
    for (int c = 0; c < d; c++) {
      if (colptr) {
        colptr[d * k + c] = e;
      }
#define EMIT(row, val)   \
  do {                   \
    if (rowind) {        \
      rowind[e] = (row); \
    }                    \
    if (values) {        \
      values[e] = (val); \
    }                    \
    e++;                 \
  } while (0)
      for (int q = 0; k == 0 && q < nl; q++) {
        EMIT(q, values ? dga[q + d * c] : 0.0);
      }
      if (k >= 1) {
        EMIT(nl + (int64_t)d * (k - 1) + c, -sys->w[c]);
      }
      for (int q = 0; k + 1 < K && q < d; q++) {
        EMIT(nl + (int64_t)d * k + q, values ? sys->w[q] * Yk[q + d * c] : 0.0);
      }
      for (int q = nl; q < d; q++) {
        if (!((k == 0 && q < nl + ncoupled) || k == K - 1)) {
          continue;
        }
        double v = 0.0;
        if (values && k == 0) {
          v += dga[q + d * c];
        }
        if (values && k == K - 1) {
          for (int m = 0; m < d; m++) {
            v += dgb[q + d * m] * Yk[m + d * c];
          }
        }
        EMIT(trail + (q - nl), v);
      }
#undef EMIT
    }
  }
  if (colptr) {
    colptr[(int64_t)d * K] = e;
  }
  return e;
}

/* Row names for messages: a condition, or the continuity of a component at a node. */
static void shoot_row_name(int64_t row, char *buf, size_t len, void *data)
{
  const shoot_system *sys = data;
  const int d = sys->d, nl = sys->bvp->n_left;
  const int64_t trail = nl + (int64_t)d * (sys->K - 1);
  if (row < nl || row >= trail) {
    char name[48];
    sk__bvp_condition_name(sys->bvp, (int)(row < nl ? row : nl + row - trail), name, sizeof name);
    snprintf(buf, len, "boundary condition %s", name);
    return;
  }
  snprintf(buf, len, "continuity of %s at x = %.6g",
           sk_bvp_get_component_name(sys->bvp, (int)((row - nl) % d)),
           sys->nodes[(row - nl) / d + 1]);
}

/* Record the growth ||Y_k||_inf of interval k; warn once above the limit. */
static void note_growth(shoot_system *sys, int64_t k)
{
  const int d = sys->d;
  const double *Y = sys->Y + (int64_t)d * d * k;
  double norm = 0.0;
  for (int i = 0; i < d; i++) {
    double row = 0.0;
    for (int j = 0; j < d; j++) {
      row += fabs(Y[i + d * j]);
    }
    norm = fmax(norm, row);
  }
  sk_bvp_report *rep = sys->rep;
  if (norm > rep->sensitivity) {
    rep->sensitivity = norm;
    rep->sensitivity_x[0] = sys->nodes[k];
    rep->sensitivity_x[1] = sys->nodes[k + 1];
  }
  if (norm > sys->s->sensitivity_limit && !rep->sensitivity_warned) {
    rep->sensitivity_warned = 1;
    sk__log(sys->bvp->ctx, SK_LOG_WARN,
            "shooting: the initial-value problem is unstable on [%g, %g]: "
            "||dy(x_k+1)/dy(x_k)|| = %.3e exceeds %.3e, so about %.0f digits of the initial "
            "values are lost; use multiple shooting with more subintervals "
            "(bvp.shooting.intervals) or finite differences (bvp.method: fd)",
            sys->nodes[k], sys->nodes[k + 1], norm, sys->s->sensitivity_limit, log10(norm));
  }
}

static int shoot_jacobian(double t, const double *u, const double *fu, double *values, void *data)
{
  (void)t;
  (void)fu;
  shoot_system *sys = data;
  const int d = sys->d;
  double z0[SK_BVP_MAX_DIM * (SK_BVP_MAX_DIM + 1)], z1[SK_BVP_MAX_DIM * (SK_BVP_MAX_DIM + 1)];
  for (int64_t k = 0; k < sys->K; k++) {
    memcpy(z0, u + d * k, (size_t)d * sizeof *z0);
    memset(z0 + d, 0, (size_t)(d * d) * sizeof *z0);
    for (int i = 0; i < d; i++) {
      z0[d + i + d * i] = 1.0;
    }
    const sk_status st =
        integrate(sys, 1, sys->nodes[k], sys->nodes[k + 1], z0, z1, NULL, 0, NULL);
    if (st != SK_OK) {
      return sk__bvp_callback_code(&sys->fail, sys->bvp->ctx, st);
    }
    memcpy(sys->phi + d * k, z1, (size_t)d * sizeof *z1);
    memcpy(sys->Y + (int64_t)d * d * k, z1 + d, (size_t)(d * d) * sizeof *z1);
    note_growth(sys, k);
  }
  double dga[SK_BVP_MAX_DIM * SK_BVP_MAX_DIM], dgb[SK_BVP_MAX_DIM * SK_BVP_MAX_DIM];
  const sk_status st =
      sk_bvp_eval_bc_jac(sys->bvp, u, sys->phi + d * (sys->K - 1), NULL, dga, dgb);
  if (st != SK_OK) {
    return sk__bvp_callback_code(&sys->fail, sys->bvp->ctx, st);
  }
  shoot_walk(sys, dga, dgb, NULL, NULL, values);
  return 0;
}

/* The nodes: explicit ones (checked) or K uniform subintervals. */
static sk_status make_nodes(sk_context *ctx, const sk_bvp *bvp, const sk_bvp_settings *s,
                            shoot_system *sys)
{
  if (s->method == SK_BVP_MULTIPLE_SHOOTING && s->shoot_nodes && s->shoot_nnodes > 0) {
    const int64_t m = s->shoot_nnodes;
    const double tol_x = 1e-12 * (bvp->b - bvp->a);
    SK_CHECK(ctx,
             m >= 2 && fabs(s->shoot_nodes[0] - bvp->a) <= tol_x &&
                 fabs(s->shoot_nodes[m - 1] - bvp->b) <= tol_x,
             SK_ERR_INPUT, "bvp.shooting.nodes must start at a = %g and end at b = %g", bvp->a,
             bvp->b);
    sys->K = m - 1;
  } else {
    sys->K = s->method == SK_BVP_SHOOTING ? 1 : s->shoot_intervals;
    SK_CHECK(ctx, sys->K >= 1 && sys->K <= 100000, SK_ERR_INPUT,
             "bvp.shooting.intervals = %lld must lie in [1, 100000]", (long long)sys->K);
  }
  sys->nodes = sk__malloc(ctx, (size_t)(sys->K + 1) * sizeof *sys->nodes);
  SK_CHECK(ctx, sys->nodes != NULL, SK_ERR_NOMEM, "cannot allocate the shooting nodes");
  for (int64_t k = 0; k <= sys->K; k++) {
    sys->nodes[k] =
        s->method == SK_BVP_MULTIPLE_SHOOTING && s->shoot_nodes && s->shoot_nnodes > 0
            ? s->shoot_nodes[k]
            : (k == sys->K ? bvp->b : bvp->a + (bvp->b - bvp->a) * (double)k / (double)sys->K);
    SK_CHECK(ctx, k == 0 || sys->nodes[k] > sys->nodes[k - 1], SK_ERR_INPUT,
             "bvp.shooting.nodes must increase strictly (node %lld = %g after %g)", (long long)k,
             sys->nodes[k], sys->nodes[k - 1]);
  }
  sys->nodes[0] = bvp->a;
  sys->nodes[sys->K] = bvp->b;
  return SK_OK;
}

/* The solution at the output abscissae, integrating from each node. */
static sk_status shoot_output(sk_context *ctx, shoot_system *sys, const double *u,
                              sk_bvp_solution *sol)
{
  const sk_bvp_settings *s = sys->s;
  const int d = sys->d;
  const int64_t nout = s->output_x && s->n_output_x >= 2 ? s->n_output_x : s->output_points;
  SK_CHECK(ctx, nout >= 2, SK_ERR_INPUT, "bvp.output.points = %lld must be at least 2",
           (long long)nout);
  sk_bvp_solution out = {0};
  SK_CALL(ctx, sk_bvp_solution_alloc(ctx, nout, d, &out));
  for (int64_t j = 0; j < nout; j++) {
    out.x[j] = s->output_x && s->n_output_x >= 2
                   ? s->output_x[j]
                   : (j == nout - 1 ? sys->bvp->b
                                    : sys->bvp->a + (sys->bvp->b - sys->bvp->a) * (double)j /
                                                        (double)(nout - 1));
  }
  sk_status st = SK_OK;
  int64_t j = 0;
  double zend[SK_BVP_MAX_DIM];
  for (int64_t k = 0; st == SK_OK && k < sys->K; k++) {
    int64_t j1 = j;
    while (j1 < nout && (out.x[j1] < sys->nodes[k + 1] || k == sys->K - 1)) {
      j1++;
    }
    st = integrate(sys, 0, sys->nodes[k], sys->nodes[k + 1], u + d * k, zend, out.x + j, j1 - j,
                   out.y + d * j);
    j = j1;
  }
  if (st != SK_OK) {
    sk_bvp_solution_free(&out);
    return st;
  }
  sk_bvp_solution_free(sol);
  *sol = out;
  return SK_OK;
}

/* The Newton solve of the shooting system from the initial values u. */
static sk_status shoot_newton(sk_context *ctx, shoot_system *sys, double *u)
{
  const sk_bvp_settings *s = sys->s;
  const sk__bvp_system system = {.n = (int64_t)sys->d * sys->K,
                                 .walk = shoot_walk,
                                 .residual = shoot_residual,
                                 .jacobian = shoot_jacobian,
                                 .row_name = shoot_row_name,
                                 .data = sys,
                                 .comp_scale = sys->w,
                                 .fnormtol = s->fnormtol > 0 ? s->fnormtol : 0.1 * s->tol};
  sk_steady_report kr;
  sk_status st = sk__bvp_newton_system(ctx, sys->bvp, s, &system, u, sys->rep, &kr);
  sk_bvp_report *rep = sys->rep;
  if (st < 0) {
    if (sys->fail.failed) {
      sk__error_restore(ctx, &sys->fail.saved);
    }
    char suggestion[512];
    if (rep->sensitivity > s->sensitivity_limit) {
      snprintf(suggestion, sizeof suggestion,
               "the initial-value problem is unstable: ||dy(x_k+1)/dy(x_k)|| reached %.3e on "
               "[%g, %g] (about %.0f digits lost); use multiple shooting with more subintervals "
               "(bvp.shooting.intervals) or finite differences (bvp.method: fd)",
               rep->sensitivity, rep->sensitivity_x[0], rep->sensitivity_x[1],
               log10(rep->sensitivity));
    } else if (sys->fail.failed) {
      snprintf(suggestion, sizeof suggestion,
               "the initial-value problem could not be integrated from the %s; shooting from a "
               "poor guess can run into a singularity of the IVP: use %s or finite "
               "differences (bvp.method: fd)",
               kr.newton_iters ? "Newton iterates" : "guess",
               s->method == SK_BVP_SHOOTING
                   ? "multiple shooting (bvp.method: multiple-shooting)"
                   : "more subintervals (bvp.shooting.intervals), a better guess (bvp.guess)");
    } else {
      snprintf(suggestion, sizeof suggestion,
               "try a better guess (bvp.guess), more shooting intervals, or finite differences");
    }
    const char *method = s->method == SK_BVP_SHOOTING ? "single shooting" : "multiple shooting";
    if (st == SK_ERR_CONV || st == SK_ERR_SINGULAR || (sys->fail.failed && kr.newton_iters > 0)) {
      st = sk__bvp_newton_failure(ctx, st, method, &kr, sys->fail.failed && kr.newton_iters > 0,
                                  suggestion);
    } else {
      const sk_status code = st;
      char cause[SK_ERROR_MSG_LEN];
      snprintf(cause, sizeof cause, "%s", sk_context_get_error(ctx)->message);
      st = SK_ERROR(ctx, code == SK_ERR_CALLBACK || code == SK_ERR_NONFINITE ? SK_ERR_CONV : code,
                    "%s failed: %s; %s", method, cause, suggestion);
    }
  }
  return st;
}

sk_status sk__bvp_solve_shooting(sk_context *ctx, sk_bvp *bvp, const sk_bvp_settings *s,
                                 sk_bvp_solution *sol, sk_bvp_report *rep)
{
  shoot_system sys = {.bvp = bvp, .s = s, .d = bvp->d, .rep = rep};
  sk_status st = SK_OK;
  double *u = NULL;
  SK_CALL_GOTO(ctx, st, make_nodes(ctx, bvp, s, &sys), done);
  const int d = bvp->d;
  const int64_t K = sys.K;
  rep->points = K + 1;
  rep->unknowns = (int64_t)d * K;
  sys.rtol = s->ivp_rtol > 0 ? s->ivp_rtol : 1e-2 * s->tol;
  sys.atol = s->ivp_atol > 0 ? s->ivp_atol : 1e-3 * s->tol;
  u = sk__malloc(ctx, (size_t)(d * K) * sizeof *u);
  sys.phi = sk__malloc(ctx, (size_t)(d * K) * sizeof *sys.phi);
  sys.Y = sk__malloc(ctx, (size_t)(d * d * K) * sizeof *sys.Y);
  if (!u || !sys.phi || !sys.Y) {
    st = SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the shooting unknowns");
    goto done;
  }
  for (int64_t k = 0; k < K; k++) {
    if (sol->n > 0) {
      sk_bvp_solution_interp(sol, bvp, sys.nodes[k], u + d * k);
    } else {
      SK_CALL_GOTO(ctx, st, sk_bvp_eval_guess(bvp, sys.nodes[k], u + d * k), done);
    }
  }
  {
    sk_bvp_solution view = {.n = K, .d = d, .x = sys.nodes, .y = u};
    double scale[SK_BVP_MAX_DIM];
    sk__bvp_scales(&view, scale);
    memcpy(sys.w, scale, sizeof scale);
  }
  { /* the conditions' independence at the guess: y(a), and y(b) from the guess at b */
    double yb[SK_BVP_MAX_DIM];
    if (sol->n > 0) {
      sk_bvp_solution_interp(sol, bvp, bvp->b, yb);
    } else {
      SK_CALL_GOTO(ctx, st, sk_bvp_eval_guess(bvp, bvp->b, yb), done);
    }
    SK_CALL_GOTO(ctx, st, sk__bvp_check_conditions(ctx, bvp, u, yb), done);
  }
  SK_CALL_GOTO(ctx, st, sk_model_create(ctx, SK_MODEL_ODE, d, &sys.ivp), done);
  SK_CALL_GOTO(ctx, st, sk_model_create(ctx, SK_MODEL_ODE, (int64_t)d * (d + 1), &sys.var), done);
  sk_model *models[2] = {sys.ivp, sys.var};
  for (int i = 0; i < 2; i++) {
    sk_model_set_name(models[i], bvp->name);
    sk_model_set_user_data(models[i], &sys, NULL);
    sk_model_set_rhs(models[i], ivp_rhs);
    sk_model_set_component_name(models[i], ivp_name);
  }
  SK_CALL_GOTO(ctx, st, shoot_newton(ctx, &sys, u), done);
  SK_CALL_GOTO(ctx, st, shoot_output(ctx, &sys, u, sol), done);
done:
  sk_model_destroy(&sys.ivp);
  sk_model_destroy(&sys.var);
  sk__free(ctx, sys.nodes);
  sk__free(ctx, sys.phi);
  sk__free(ctx, sys.Y);
  sk__free(ctx, u);
  return st;
}

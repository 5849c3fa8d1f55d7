/* src/bvp/bvp_fd.c: finite differences for y' = f(x, y): the trapezoidal box scheme on a non-uniform mesh solved by KINSOL + KLU, Richardson error estimates and defect-driven mesh refinement */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "bvp/bvp_solver.h"

/* The discrete system of one mesh, as the user data of a model whose
 * "right-hand side" is the residual. Unknowns u[d i + c] = y_c(x_i); rows:
 * the n_left left conditions, d rows per interval, then the other
 * d - n_left conditions. Interval rows are scaled by (b - a) scale_c so that
 * every residual is dimensionless. */
typedef struct {
  sk_bvp *bvp;
  int d;
  int64_t npts;
  const double *x;
  double w[SK_BVP_MAX_DIM]; /* (b - a) scale_c */
  double *f, *J;            /* f and df/dy at the nodes (npts d, npts d d) */
  sk__bvp_failure fail;
} fd_system;

static sk_status eval_nodes_f(fd_system *sys, const double *u)
{
  for (int64_t i = 0; i < sys->npts; i++) {
    const sk_status st =
        sk_bvp_eval_rhs(sys->bvp, sys->x[i], u + sys->d * i, sys->f + sys->d * i);
    if (st != SK_OK) {
      return st;
    }
  }
  return SK_OK;
}

static int fd_residual(double t, const double *u, double *r, void *data)
{
  (void)t;
  fd_system *sys = data;
  const int d = sys->d, nl = sys->bvp->n_left;
  const int64_t N = sys->npts;
  sk_status st = eval_nodes_f(sys, u);
  double g[SK_BVP_MAX_DIM];
  if (st == SK_OK) {
    st = sk_bvp_eval_bc(sys->bvp, u, u + d * (N - 1), g);
  }
  if (st != SK_OK) {
    return sk__bvp_callback_code(&sys->fail, sys->bvp->ctx, st);
  }
  memcpy(r, g, (size_t)nl * sizeof *r);
  for (int64_t i = 0; i + 1 < N; i++) {
    const double h = sys->x[i + 1] - sys->x[i];
    const double *y0 = u + d * i, *y1 = y0 + d, *f0 = sys->f + d * i, *f1 = f0 + d;
    double *ri = r + nl + d * i;
    for (int c = 0; c < d; c++) {
      ri[c] = sys->w[c] * ((y1[c] - y0[c]) / h - 0.5 * (f0[c] + f1[c]));
    }
  }
  memcpy(r + nl + d * (N - 1), g + nl, (size_t)(d - nl) * sizeof *r);
  return 0;
}

/* One walk over the Jacobian's columns: with values == NULL it writes the
 * pattern (colptr, rowind), otherwise the values in pattern order from the
 * node Jacobians and the boundary-condition Jacobians dga, dgb. */
static int64_t fd_walk(const void *data, const double *dga, const double *dgb, int64_t *colptr,
                       int64_t *rowind, double *values)
{
  const fd_system *sys = data;
  const int d = sys->d, nl = sys->bvp->n_left, ncoupled = d - nl - sys->bvp->n_right;
  const int64_t N = sys->npts, trail = nl + (int64_t)d * (N - 1);
  int64_t k = 0;
  for (int64_t i = 0; i < N; i++) {
    const double *Ji = values ? sys->J + (int64_t)d * d * i : NULL;
    for (int c = 0; c < d; c++) {
      if (colptr) {
        colptr[d * i + c] = k;
      }
#define EMIT(row, val)   \
  do {                   \
    if (rowind) {        \
      rowind[k] = (row); \
    }                    \
    if (values) {        \
      values[k] = (val); \
    }                    \
    k++;                 \
  } while (0)
      for (int q = 0; i == 0 && q < nl; q++) {
        EMIT(q, values ? dga[q + d * c] : 0.0);
      }
      if (i >= 1) { /* node i closes interval i - 1 */
        const double h = sys->x[i] - sys->x[i - 1];
        for (int q = 0; q < d; q++) {
          EMIT(nl + (int64_t)d * (i - 1) + q,
               values ? sys->w[q] * ((q == c) / h - 0.5 * Ji[q + d * c]) : 0.0);
        }
      }
      if (i + 1 < N) { /* node i opens interval i */
        const double h = sys->x[i + 1] - sys->x[i];
        for (int q = 0; q < d; q++) {
          EMIT(nl + (int64_t)d * i + q,
               values ? sys->w[q] * (-(q == c) / h - 0.5 * Ji[q + d * c]) : 0.0);
        }
      }
      for (int q = nl; q < d; q++) { /* coupled rows see both ends, right rows the right end */
        const int coupled = q < nl + ncoupled;
        if (i == N - 1) {
          EMIT(trail + (q - nl), values ? dgb[q + d * c] : 0.0);
        } else if (i == 0 && coupled) {
          EMIT(trail + (q - nl), values ? dga[q + d * c] : 0.0);
        }
      }
#undef EMIT
    }
  }
  if (colptr) {
    colptr[(int64_t)d * N] = k;
  }
  return k;
}

static int fd_jacobian(double t, const double *u, const double *fu, double *values, void *data)
{
  (void)t;
  (void)fu;
  fd_system *sys = data;
  const int d = sys->d;
  const int64_t N = sys->npts;
  sk_status st = eval_nodes_f(sys, u);
  for (int64_t i = 0; st == SK_OK && i < N; i++) {
    st = sk_bvp_eval_jac(sys->bvp, sys->x[i], u + d * i, sys->f + d * i,
                         sys->J + (int64_t)d * d * i);
  }
  double dga[SK_BVP_MAX_DIM * SK_BVP_MAX_DIM], dgb[SK_BVP_MAX_DIM * SK_BVP_MAX_DIM];
  if (st == SK_OK) {
    st = sk_bvp_eval_bc_jac(sys->bvp, u, u + d * (N - 1), NULL, dga, dgb);
  }
  if (st != SK_OK) {
    return sk__bvp_callback_code(&sys->fail, sys->bvp->ctx, st);
  }
  fd_walk(sys, dga, dgb, NULL, NULL, values);
  return 0;
}

/* Row names for messages: which condition or which interval. */
static void fd_row_name(int64_t row, char *buf, size_t len, void *data)
{
  const fd_system *sys = data;
  const int d = sys->d, nl = sys->bvp->n_left;
  const int64_t trail = nl + (int64_t)d * (sys->npts - 1);
  if (row < nl || row >= trail) {
    char name[48];
    sk__bvp_condition_name(sys->bvp, (int)(row < nl ? row : nl + row - trail), name, sizeof name);
    snprintf(buf, len, "boundary condition %s", name);
    return;
  }
  const int64_t i = (row - nl) / d;
  snprintf(buf, len, "%s' on [%.6g, %.6g]",
           sk_bvp_get_component_name(sys->bvp, (int)((row - nl) % d)), sys->x[i], sys->x[i + 1]);
}

/* The rounding level of the scaled residual at u: eps times the largest term
 * w_c (|y_i| + |y_i+1|) / h_i + w_c (|f_i| + |f_i+1|) / 2 of an interval row (f at the nodes
 * into sys->f). A Newton tolerance below it cannot be met in double precision. Returns -1
 * when f cannot be evaluated at u. */
static double rounding_floor(fd_system *sys, const double *u)
{
  if (eval_nodes_f(sys, u) != SK_OK) {
    return -1.0;
  }
  const int d = sys->d;
  double big = 0.0;
  for (int64_t i = 0; i + 1 < sys->npts; i++) {
    const double h = sys->x[i + 1] - sys->x[i];
    for (int c = 0; c < d; c++) {
      const double terms = (fabs(u[d * i + c]) + fabs(u[d * (i + 1) + c])) / h +
                           0.5 * (fabs(sys->f[d * i + c]) + fabs(sys->f[d * (i + 1) + c]));
      big = fmax(big, sys->w[c] * terms);
    }
  }
  return DBL_EPSILON * big;
}

/* The largest |r_j| and its row. */
static double residual_max(const double *r, int64_t n, int64_t *worst)
{
  double rmax = 0.0;
  *worst = 0;
  for (int64_t j = 0; j < n; j++) {
    if (fabs(r[j]) > rmax) {
      rmax = fabs(r[j]);
      *worst = j;
    }
  }
  return rmax;
}

/* Solve the box scheme on sol's mesh from sol's values (the guess). `may_skip`: a guess
 * that already meets the Newton tolerance is taken as it is (only where that guess is a
 * solution of the same scheme: never for the bisected mesh of an error estimate, whose
 * interpolated guess would make the estimate 0). */
static sk_status fd_newton(sk_context *ctx, sk_bvp *bvp, const sk_bvp_settings *s,
                           sk_bvp_solution *sol, int may_skip, sk_bvp_report *rep)
{
  const int d = bvp->d;
  const int64_t N = sol->n, n = (int64_t)d * N;
  fd_system sys = {.bvp = bvp, .d = d, .npts = N, .x = sol->x};
  double scale[SK_BVP_MAX_DIM];
  sk__bvp_scales(sol, scale);
  for (int c = 0; c < d; c++) {
    sys.w[c] = (bvp->b - bvp->a) * scale[c];
  }
  sys.f = sk__malloc(ctx, (size_t)n * sizeof *sys.f);
  sys.J = sk__malloc(ctx, (size_t)(n * d) * sizeof *sys.J);
  sk_status st = SK_OK;
  if (!sys.f || !sys.J) {
    st = SK_ERROR(ctx, SK_ERR_NOMEM,
                  "cannot allocate the finite-difference system (%lld unknowns)", (long long)n);
    goto done;
  }
  sk__bvp_system system = {.n = n,
                           .walk = fd_walk,
                           .residual = fd_residual,
                           .jacobian = fd_jacobian,
                           .row_name = fd_row_name,
                           .data = &sys,
                           .comp_scale = scale,
                           .fnormtol = s->fnormtol};
  /* automatic: well below the requested error (never above tol / 10, so that a guess
     interpolated from a coarser mesh is not taken for that mesh's solution) and above the
     rounding level of the residual where possible */
  double floor = 0.0;
  if (s->fnormtol <= 0) {
    floor = rounding_floor(&sys, sol->y);
    system.fnormtol = fmin(fmax(1e-3 * s->tol, 4.0 * floor), 0.1 * s->tol);
  }
  int64_t worst;
  double rmax;
  if (may_skip && fd_residual(0.0, sol->y, sys.J, &sys) == 0 &&
      (rmax = residual_max(sys.J, n, &worst)) <= system.fnormtol) {
    rep->newton_solves++;
    rep->residual = rmax;
    fd_row_name(worst, rep->worst, sizeof rep->worst, &sys);
    goto done;
  }
  sk_steady_report kr;
  for (int attempt = 0; attempt < 2; attempt++) {
    sys.fail.failed = 0;
    st = sk__bvp_newton_system(ctx, bvp, s, &system, sol->y, rep, &kr);
    if (st != SK_ERR_CONV || s->fnormtol > 0 || sys.fail.failed || attempt > 0) {
      break;
    }
    /* the scales came from the guess; at the iterate the solution (and with it the rounding
       level of the residual) may be far larger: once more from there, rescaled */
    double fresh[SK_BVP_MAX_DIM];
    sk__bvp_scales(sol, fresh);
    int changed = 0;
    for (int c = 0; c < d; c++) {
      changed |= fresh[c] < 0.1 * scale[c] || fresh[c] > 10.0 * scale[c];
    }
    memcpy(scale, fresh, sizeof fresh);
    for (int c = 0; c < d; c++) {
      sys.w[c] = (bvp->b - bvp->a) * scale[c];
    }
    floor = rounding_floor(&sys, sol->y);
    const double retry_tol = fmin(fmax(1e-3 * s->tol, 4.0 * floor), 0.1 * s->tol);
    if (!changed && !(retry_tol > system.fnormtol)) {
      break;
    }
    system.fnormtol = retry_tol;
    sk__log(ctx, SK_LOG_INFO,
            "finite differences: solving again from the Newton iterate with scales taken there "
            "(residual tolerance %.3e)",
            system.fnormtol);
  }
  if (st < 0) {
    if (sys.fail.failed) {
      sk__error_restore(ctx, &sys.fail.saved);
      if (kr.newton_iters == 0) { /* the guess itself broke a callback: say how */
        st = sys.fail.saved.code;
      }
    }
    char suggestion[512];
    if (4.0 * floor >= system.fnormtol) {
      snprintf(suggestion, sizeof suggestion,
               "on a mesh of %lld points the residual rounds to about %.3e, near the Newton "
               "tolerance %.3e: this tolerance is beyond double precision on this mesh (loosen "
               "bvp.tol, or coarsen the mesh)",
               (long long)N, floor, system.fnormtol);
    } else {
      snprintf(suggestion, sizeof suggestion,
               "on a mesh of %lld points; try a better guess (bvp.guess), a finer initial mesh "
               "(bvp.mesh.n) or, for a parameter-dependent problem, continuation from an "
               "easier value (bvp.continuation)",
               (long long)N);
    }
    st = sk__bvp_newton_failure(ctx, st, "finite differences", &kr,
                                sys.fail.failed && kr.newton_iters > 0, suggestion);
  }
done:
  sk__free(ctx, sys.f);
  sk__free(ctx, sys.J);
  return st;
}

/* ---- meshes ---------------------------------------------------------------- */

/* The initial mesh of the settings (graded geometrically) with the guess. */
static sk_status initial_guess(sk_context *ctx, sk_bvp *bvp, const sk_bvp_settings *s,
                               sk_bvp_solution *sol)
{
  const int64_t m = s->mesh_n;
  SK_CALL(ctx, sk_bvp_solution_alloc(ctx, m + 1, bvp->d, sol));
  const double r = s->mesh_ratio;
  double total = 0.0, h = 1.0;
  for (int64_t i = 0; i < m; i++, h *= r) {
    total += h;
  }
  double acc = 0.0;
  h = 1.0;
  for (int64_t i = 0; i <= m; i++, h *= r) {
    sol->x[i] = i == m ? bvp->b : bvp->a + (bvp->b - bvp->a) * acc / total;
    acc += h;
  }
  for (int64_t i = 0; i <= m; i++) {
    const sk_status st = sk_bvp_eval_guess(bvp, sol->x[i], sol->y + bvp->d * i);
    if (st != SK_OK) {
      sk_bvp_solution_free(sol);
      sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
      return st < 0 ? st : SK_ERR_CALLBACK;
    }
  }
  return SK_OK;
}

/* A new solution on `from`'s mesh with interval i cut into pieces[i]
 * equal parts (1: kept; every interval in two when pieces is NULL), its
 * values taken from `src` (from's own at its points, else interpolated). */
static sk_status bisect(sk_context *ctx, sk_bvp *bvp, const sk_bvp_solution *from,
                        const unsigned char *pieces, const sk_bvp_solution *src,
                        sk_bvp_solution *to)
{
  int64_t n = 1;
  for (int64_t i = 0; i + 1 < from->n; i++) {
    n += pieces ? pieces[i] : 2;
  }
  SK_CALL(ctx, sk_bvp_solution_alloc(ctx, n, from->d, to));
  int64_t k = 0;
  for (int64_t i = 0; i < from->n; i++) {
    to->x[k] = from->x[i];
    if (src == from) {
      memcpy(to->y + to->d * k, from->y + from->d * i, (size_t)from->d * sizeof(double));
    } else {
      sk_bvp_solution_interp(src, bvp, to->x[k], to->y + to->d * k);
    }
    k++;
    const int m = i + 1 < from->n ? (pieces ? pieces[i] : 2) : 1;
    for (int j = 1; j < m; j++) {
      to->x[k] = from->x[i] + (from->x[i + 1] - from->x[i]) * j / m;
      sk_bvp_solution_interp(src, bvp, to->x[k], to->y + to->d * k);
      k++;
    }
  }
  return SK_OK;
}

/* Richardson: err = (y_h - y_{h/2}) / 3 at the coarse points of the fine
 * solution (fine index 2i), the mean of the neighbours' at the midpoints.
 * Returns the largest |err| / (1 + |y|); *where gets the worst x. */
static double richardson(const sk_bvp_solution *coarse, sk_bvp_solution *fine, double *where)
{
  const int d = fine->d;
  double worst = 0.0;
  *where = fine->x[0];
  for (int64_t i = 0; i < coarse->n; i++) {
    for (int c = 0; c < d; c++) {
      const double e = (coarse->y[d * i + c] - fine->y[d * 2 * i + c]) / 3.0;
      fine->err[d * 2 * i + c] = e;
      const double rel = fabs(e) / (1.0 + fabs(fine->y[d * 2 * i + c]));
      if (rel > worst) {
        worst = rel;
        *where = fine->x[2 * i];
      }
    }
  }
  for (int64_t i = 1; i + 1 < fine->n; i += 2) {
    for (int c = 0; c < d; c++) {
      fine->err[d * i + c] = 0.5 * (fine->err[d * (i - 1) + c] + fine->err[d * (i + 1) + c]);
    }
  }
  return worst;
}

/* Mark the coarse intervals to cut: those whose local defect, the coarse
 * scheme's residual on the fine solution times the interval length, is
 * within a factor 10 of the largest, into `pieces` parts each. */
static sk_status mark_defects(sk_bvp *bvp, const sk_bvp_solution *coarse,
                              const sk_bvp_solution *fine, int pieces, unsigned char *split)
{
  const int d = fine->d;
  double scale[SK_BVP_MAX_DIM], f0[SK_BVP_MAX_DIM], f1[SK_BVP_MAX_DIM];
  sk__bvp_scales(fine, scale);
  double *eta = calloc((size_t)coarse->n, sizeof *eta), emax = 0.0;
  SK_CHECK(bvp->ctx, eta != NULL, SK_ERR_NOMEM, "cannot allocate the defects");
  for (int64_t i = 0; i + 1 < coarse->n; i++) {
    const double *y0 = fine->y + d * 2 * i, *y1 = fine->y + d * (2 * i + 2);
    const double h = coarse->x[i + 1] - coarse->x[i];
    sk_status st = sk_bvp_eval_rhs(bvp, coarse->x[i], y0, f0);
    if (st == SK_OK) {
      st = sk_bvp_eval_rhs(bvp, coarse->x[i + 1], y1, f1);
    }
    if (st != SK_OK) {
      free(eta);
      return st < 0 ? st : SK_ERR_CALLBACK;
    }
    for (int c = 0; c < d; c++) {
      eta[i] = fmax(eta[i], scale[c] * fabs(y1[c] - y0[c] - 0.5 * h * (f0[c] + f1[c])));
    }
    emax = fmax(emax, eta[i]);
  }
  for (int64_t i = 0; i + 1 < coarse->n; i++) {
    split[i] = (unsigned char)(emax == 0.0 || eta[i] >= 0.1 * emax ? pieces : 1);
  }
  free(eta);
  return SK_OK;
}

static void take(sk_bvp_solution *to, sk_bvp_solution *from)
{
  sk_bvp_solution_free(to);
  *to = *from;
  memset(from, 0, sizeof *from);
}

sk_status sk__bvp_solve_fd(sk_context *ctx, sk_bvp *bvp, const sk_bvp_settings *s,
                           sk_bvp_solution *sol, sk_bvp_report *rep)
{
  sk_bvp_solution coarse = {0}, fine = {0};
  unsigned char *split = NULL;
  sk_status st = SK_OK;
  if (sol->n == 0) {
    SK_CALL_GOTO(ctx, st, initial_guess(ctx, bvp, s, &coarse), done);
  } else {
    SK_CALL_GOTO(ctx, st, sk_bvp_solution_alloc(ctx, sol->n, sol->d, &coarse), done);
    memcpy(coarse.x, sol->x, (size_t)sol->n * sizeof *coarse.x);
    memcpy(coarse.y, sol->y, (size_t)(sol->n * sol->d) * sizeof *coarse.y);
  }
  SK_CALL_GOTO(ctx, st,
               sk__bvp_check_conditions(ctx, bvp, coarse.y, coarse.y + bvp->d * (coarse.n - 1)),
               done);
  for (int round = 0;; round++) {
    rep->points = coarse.n;
    rep->unknowns = coarse.n * bvp->d;
    SK_CALL_GOTO(ctx, st, fd_newton(ctx, bvp, s, &coarse, 1, rep), done);
    if (!s->estimate) {
      take(sol, &coarse);
      goto done;
    }
    SK_CALL_GOTO(ctx, st, bisect(ctx, bvp, &coarse, NULL, &coarse, &fine), done);
    rep->points = fine.n;
    rep->unknowns = fine.n * bvp->d;
    SK_CALL_GOTO(ctx, st, fd_newton(ctx, bvp, s, &fine, 0, rep), done);
    double where;
    rep->error_estimate = richardson(&coarse, &fine, &where);
    sk__log(ctx, SK_LOG_INFO,
            "bvp fd: mesh of %lld points, error estimate %.3e (largest at x = %g)",
            (long long)fine.n, rep->error_estimate, where);
    if (rep->error_estimate <= s->tol || !s->refine) {
      take(sol, &fine);
      goto done;
    }
    free(split);
    split = malloc((size_t)coarse.n);
    if (!split) {
      st = SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the refinement marks");
      goto done;
    }
    /* a second-order error shrinks 4-fold per halving: cut the marked intervals into
       enough pieces for the estimate to meet tol if the defects are alike (at most 8) */
    const double halvings = ceil(0.5 * log2(rep->error_estimate / s->tol));
    const int pieces = halvings >= 3 ? 8 : halvings >= 2 ? 4 : 2;
    SK_CALL_GOTO(ctx, st, mark_defects(bvp, &coarse, &fine, pieces, split), done);
    int64_t next_n = 1; /* the next fine mesh: the cut coarse mesh, bisected */
    for (int64_t i = 0; i + 1 < coarse.n; i++) {
      next_n += 2 * split[i];
    }
    if (round >= s->max_refinements || next_n > s->max_points) {
      st = SK_ERROR(ctx, SK_ERR_TOO_LARGE,
                    "finite differences: the error estimate %.3e is still above bvp.tol = %.3e "
                    "(largest at x = %g) after %d refinements with %lld points (limits: "
                    "bvp.mesh.max_refinements %d, bvp.mesh.max_points %lld); loosen the "
                    "tolerance or raise the limits",
                    rep->error_estimate, s->tol, where, round, (long long)fine.n,
                    s->max_refinements, (long long)s->max_points);
      take(sol, &fine); /* the best answer so far, for the caller to inspect */
      goto done;
    }
    /* the next coarse mesh: marked intervals cut, values from the fine solution */
    sk_bvp_solution next = {0};
    SK_CALL_GOTO(ctx, st, bisect(ctx, bvp, &coarse, split, &fine, &next), done);
    take(&coarse, &next);
    sk_bvp_solution_free(&fine);
    rep->refinements = round + 1;
  }
done:
  free(split);
  sk_bvp_solution_free(&coarse);
  sk_bvp_solution_free(&fine);
  return st;
}

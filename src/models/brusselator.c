/* src/models/brusselator.c: the 2D Brusselator reaction-diffusion model (zero-flux, interleaved u,v, analytic CSC Jacobian) */
/*
 * MATHEMATICS
 *
 *   u_t = a - (b + 1) u + u^2 v + alpha lap u
 *   v_t = b u - u^2 v + alpha lap v          on [0, L]^2, zero flux on every side.
 *
 * Vertex-centred grid with n x n nodes including the boundary (all sides
 * Neumann): h = L / (n - 1), x_i = i h. A boundary node has a half control
 * volume, which gives the mirrored three-point stencil: along a direction
 * lap u ~ ((u_+ - u) - (u - u_-)) / h^2 with the missing neighbour replaced
 * by the one inside (u_{-1} = u_1), i.e. 2 (u_1 - u_0) / h^2.
 * States are interleaved per node: y[2q] = u, y[2q+1] = v, q = i + n j.
 *
 * Initial state (smooth, compatible with zero flux):
 *   u = a   + eps cos(pi x / L) cos(pi y / L)
 *   v = b/a + eps cos(pi x / L) cos(pi y / L),   eps = perturbation.
 * The homogeneous state (a, b/a) is a Hopf-unstable focus for b > 1 + a^2
 * (default a = 1, b = 3.4), so the solution approaches a limit cycle.
 * alpha lap has eigenvalues down to -8 alpha / h^2: stiff on fine grids.
 *
 * Jacobian, column (q, u): rows (nb, u) alpha / (h^2 w_nb) for each stencil
 * neighbour, (q, u) -(b+1) + 2uv - 4 alpha / h^2, (q, v) b - 2uv;
 * column (q, v): (q, u) u^2, (q, v) -u^2 - 4 alpha / h^2, (nb, v) as above
 * (w_nb = 1/2 for a neighbour on the boundary of that direction, else 1).
 *
 * Threads (OpenMP): the RHS and the Jacobian split the grid rows j among
 * threads (each row writes only its own entries, with the same operations
 * as one thread: bitwise identical results). The callbacks keep no scratch,
 * so the model is declared safe for concurrent calls
 * (sk_model_set_thread_safe): colored FD Jacobians may evaluate colour
 * groups in parallel.
 */
#include <math.h>
#include <stdio.h>

#include "core/error.h"
#include "core/threads.h"
#include "models/grid.h"
#include "stiffkit/diffusion.h"

#define SK_PI 3.14159265358979323846

typedef struct {
  sk_context *ctx;
  sk__grid g;
  sk_brusselator_params p;
  int64_t *lo, *hi; /* mirrored neighbour position of each position 0..n-1 */
  int64_t *rowpos;  /* n + 1: first Jacobian entry of grid row j (columns 2 n j ..) */
} bru_data;

void sk_brusselator_params_default(sk_brusselator_params *p)
{
  p->n = 64;
  p->length = 1.0;
  p->a = 1.0;
  p->b = 3.4;
  p->alpha = 2e-3;
  p->perturbation = 0.1;
}

static int bru_rhs(double t, const double *y, double *f, void *user_data)
{
  const bru_data *bd = user_data;
  const int64_t n = bd->g.n[0];
  const double hh = bd->g.hh[0];
  const int64_t *lo = bd->lo, *hi = bd->hi;
  (void)t;
  SK__OMP(parallel for if(parallel: sk__threaded(2 * n * n)) schedule(static))
  for (int64_t j = 0; j < n; j++) {
    const double *ys = y + 2 * n * lo[j], *yc = y + 2 * n * j, *yn = y + 2 * n * hi[j];
    double *fc = f + 2 * n * j;
    for (int64_t i = 0; i < n; i++) {
      const int64_t c = 2 * i;
      sk__brusselator_node(&bd->p, hh, yc + c, yc + 2 * hi[i], yc + 2 * lo[i], yn + c, ys + c,
                           fc + c);
    }
  }
  return 0;
}

static int bru_jac(double t, const double *y, const double *fy, double *vals, void *user_data)
{
  const bru_data *bd = user_data;
  const sk__grid *g = &bd->g;
  const double alpha = bd->p.alpha;
  const int64_t n = g->n[0];
  (void)t;
  (void)fy;
  SK__OMP(parallel for if(parallel: sk__threaded(2 * n * n)) schedule(static))
  for (int64_t j = 0; j < n; j++) {
    int64_t pos = bd->rowpos[j], ijk[3] = {0, j, 0};
    for (int64_t q = n * j; q < n * (j + 1); q++, ijk[0]++) {
      sk__grid_nb nb[7];
      const int cnt = sk__grid_neighbors(g, q, ijk, nb);
      const double u = y[2 * q], v = y[2 * q + 1];
      const double dlap = -2.0 * alpha / g->hh[0] - 2.0 * alpha / g->hh[1];
      double J[2][2];
      sk__brusselator_node_jac(&bd->p, u, v, dlap, J);
      for (int c = 0; c < 2; c++) {
        for (int e = 0; e < cnt; e++) {
          if (nb[e].dir < 0) { /* column c of the node's own block: rows u, v */
            vals[pos++] = J[0][c];
            vals[pos++] = J[1][c];
            continue;
          }
          const int d = nb[e].dir;
          const int64_t rp = ijk[d] + (nb[e].side ? 1 : -1);
          vals[pos++] = alpha / (g->hh[d] * sk__grid_weight(g, d, rp));
        }
      }
    }
  }
  return 0;
}

double sk__brusselator_perturbation(const sk_brusselator_params *p, int64_t i, int64_t j)
{
  const double cy = cos(SK_PI * (double)j / (double)(p->n - 1));
  return p->perturbation * cos(SK_PI * (double)i / (double)(p->n - 1)) * cy;
}

static int bru_initial(double t0, double *y0, void *user_data)
{
  const bru_data *bd = user_data;
  const int64_t n = bd->g.n[0];
  const double a = bd->p.a, b = bd->p.b;
  (void)t0;
  for (int64_t j = 0; j < n; j++) {
    for (int64_t i = 0; i < n; i++) {
      const double pert = sk__brusselator_perturbation(&bd->p, i, j);
      y0[2 * (i + n * j)] = a + pert;
      y0[2 * (i + n * j) + 1] = b / a + pert;
    }
  }
  return 0;
}

static void bru_name(int64_t i, char *buf, size_t len, void *user_data)
{
  const bru_data *bd = user_data;
  sk__grid_node_name(&bd->g, (i % 2) ? "v" : "u", i / 2, buf, len);
}

static void bru_free(void *user_data)
{
  bru_data *bd = user_data;
  if (!bd) {
    return;
  }
  sk__free(bd->ctx, bd->lo);
  sk__free(bd->ctx, bd->hi);
  sk__free(bd->ctx, bd->rowpos);
  sk__free(bd->ctx, bd);
}

sk_status sk__brusselator_check(sk_context *ctx, const sk_brusselator_params *p)
{
  SK_CHECK(ctx, p->n >= 2, SK_ERR_INPUT,
           "model.n = %lld: the Brusselator needs at least 2 nodes per direction",
           (long long)p->n);
  SK_CHECK(ctx, isfinite(p->length) && p->length > 0.0, SK_ERR_INPUT,
           "model.length = %g: must be positive", p->length);
  SK_CHECK(ctx, isfinite(p->a) && p->a > 0.0, SK_ERR_INPUT,
           "model.brusselator.a = %g: must be > 0", p->a);
  SK_CHECK(ctx, isfinite(p->b) && p->b >= 0.0, SK_ERR_INPUT,
           "model.brusselator.b = %g: must be >= 0", p->b);
  SK_CHECK(ctx, isfinite(p->alpha) && p->alpha >= 0.0, SK_ERR_INPUT,
           "model.brusselator.alpha = %g: must be >= 0", p->alpha);
  SK_CHECK(ctx, isfinite(p->perturbation), SK_ERR_INPUT,
           "model.brusselator.perturbation = %g: must be finite", p->perturbation);
  return SK_OK;
}

sk_status sk_brusselator_create(sk_context *ctx, const sk_brusselator_params *p, sk_model **model)
{
  SK_CHECK(ctx, model != NULL && p != NULL, SK_ERR_ARG, "sk_brusselator_create: NULL argument");
  *model = NULL;
  SK_CALL(ctx, sk__brusselator_check(ctx, p));
  const int64_t n[3] = {p->n, p->n, 1};
  const double length[3] = {p->length, p->length, 1.0};
  const int dirichlet[6] = {0, 0, 0, 0, 0, 0};
  sk__grid g;
  SK_CALL(ctx, sk__grid_init(ctx, &g, 2, n, length, dirichlet, 2));
  /* per node: 12 pattern entries (model copy, transient copy, values), 2 x 2 colptr */
  SK_CALL(ctx, sk__grid_check_memory(ctx, &g, 3.0 * 8.0 * 12.0 + 2.0 * 8.0 * 2.0));
  bru_data *bd = sk__calloc(ctx, 1, sizeof *bd);
  SK_CHECK(ctx, bd != NULL, SK_ERR_NOMEM, "cannot allocate the Brusselator model");
  bd->ctx = ctx;
  bd->g = g;
  bd->p = *p;
  bd->lo = sk__malloc(ctx, (size_t)p->n * sizeof *bd->lo);
  bd->hi = sk__malloc(ctx, (size_t)p->n * sizeof *bd->hi);
  bd->rowpos = sk__malloc(ctx, ((size_t)p->n + 1) * sizeof *bd->rowpos);
  if (!bd->lo || !bd->hi || !bd->rowpos) {
    bru_free(bd);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the Brusselator tables");
  }
  for (int64_t i = 0; i < p->n; i++) {
    bd->lo[i] = i > 0 ? i - 1 : 1;
    bd->hi[i] = i < p->n - 1 ? i + 1 : p->n - 2;
  }
  sk_model *m = NULL;
  sk_status st = sk__grid_model_create(ctx, &g, 2, bd, bru_free, &m);
  if (st != SK_OK) {
    sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
    return st;
  }
  /* where each grid row's columns start in the pattern (rows run in parallel) */
  const int64_t *colptr, *rowind;
  int64_t nnz;
  sk_model_get_jac_pattern(m, &colptr, &rowind, &nnz);
  for (int64_t j = 0; j <= p->n; j++) {
    bd->rowpos[j] = colptr[2 * p->n * j];
  }
  sk_model_set_name(m, "brusselator-2d");
  sk_model_set_thread_safe(m, 1);
  sk_model_set_rhs(m, bru_rhs);
  sk_model_set_jac_values(m, bru_jac);
  sk_model_set_initial(m, bru_initial);
  sk_model_set_component_name(m, bru_name);
  *model = m;
  return SK_OK;
}

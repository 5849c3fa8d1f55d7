/* src/linsol/mg_loader.c: the structured multigrid of a build whose hypre has the Struct interface: mg_struct.h's functions, loading the hypre module on the first create */
#include <stddef.h>
#include <stdio.h>

#include "core/error.h"
#include "linsol/mg_module.h"
#include "linsol/mg_struct.h"

/* The module's object and the table that made it. */
struct sk__mg {
  sk_context *ctx;
  const sk__mg_module *m;
  sk__mg_impl *impl;
};

/* Load the module and create its object over *comm (NULL: serial). */
static sk_status create_with(sk_context *ctx, const void *comm, const sk__mg_box *box,
                             const sk__mg_entries *src, const sk__mg_params *params, sk__mg **mg)
{
  const void *t = NULL;
  SK_CALL(ctx, sk__module_open(ctx, "hypre", SK__MG_MODULE_SYMBOL, SK__MG_MODULE_ABI,
                               sizeof(sk__mg_module),
                               "linsol.preconditioner=mg (hypre structured multigrid)", &t));
  const sk__mg_module *m = t;
  sk__mg_impl *impl = NULL;
  SK_CALL(ctx, m->create(ctx, comm, box, src, params, &impl));
  sk__mg *w = sk__calloc(ctx, 1, sizeof *w);
  if (!w) {
    m->destroy(&impl);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the multigrid preconditioner");
  }
  w->ctx = ctx;
  w->m = m;
  w->impl = impl;
  *mg = w;
  return SK_OK;
}

/* A CSC pattern read in order: the column of entry p follows p. */
typedef struct {
  const int64_t *colptr, *rowind;
  int64_t col, n0, n1;
  int ncomp;
} csc_cursor;

static void split(const csc_cursor *c, int64_t pt, int64_t ijk[3])
{
  ijk[0] = pt % c->n0;
  ijk[1] = (pt / c->n0) % c->n1;
  ijk[2] = pt / (c->n0 * c->n1);
}

/* Entry p's key, or -1 with its offset when it is outside the box stencil. */
static int csc_key(csc_cursor *c, int64_t p, int64_t *row, int off[3])
{
  if (p == 0) {
    c->col = 0;
  }
  while (c->colptr[c->col + 1] <= p) {
    c->col++;
  }
  *row = c->rowind[p];
  int64_t ri[3], ci[3];
  split(c, *row / c->ncomp, ri);
  split(c, c->col / c->ncomp, ci);
  int inside = 1;
  for (int d = 0; d < 3; d++) {
    const int64_t o = ci[d] - ri[d];
    inside &= o >= -1 && o <= 1;
    off[d] = o < -1000000 ? -1000000 : o > 1000000 ? 1000000 : (int)o;
  }
  return inside ? SK__MG_KEY(off[0], off[1], off[2], (int)(c->col % c->ncomp), c->ncomp) : -1;
}

static int csc_entry(void *u, int64_t p, int64_t *row)
{
  int off[3];
  return csc_key(u, p, row, off);
}

sk_status sk__mg_create(sk_context *ctx, const sk__model_grid *g, int64_t n,
                        const int64_t *colptr, const int64_t *rowind, const sk__mg_params *params,
                        sk__mg **mg)
{
  SK_CHECK(ctx, mg, SK_ERR_ARG, "sk__mg_create: NULL argument");
  *mg = NULL;
  SK_CHECK(ctx, g && colptr && (rowind || colptr[n] == 0) && n >= 1, SK_ERR_ARG,
           "sk__mg_create: NULL argument or n < 1");
  SK_CHECK(ctx,
           g->dim >= 1 && g->dim <= 3 && g->ncomp >= 1 && g->n[0] >= 1 && g->n[1] >= 1 &&
               g->n[2] >= 1,
           SK_ERR_ARG, "sk__mg_create: bad grid (dim %d, ncomp %d)", g->dim, g->ncomp);
  SK_CHECK(ctx, (int64_t)g->ncomp * g->n[0] * g->n[1] * g->n[2] == n, SK_ERR_ARG,
           "sk__mg_create: the grid has %lld states, the pattern %lld",
           (long long)((int64_t)g->ncomp * g->n[0] * g->n[1] * g->n[2]), (long long)n);
  csc_cursor cur = {colptr, rowind, 0, g->n[0], g->n[1], g->ncomp};
  for (int64_t p = 0; p < colptr[n]; p++) {
    SK_CHECK(ctx, rowind[p] >= 0 && rowind[p] < n, SK_ERR_ARG,
             "sk__mg_create: row index %lld outside [0, %lld)", (long long)rowind[p],
             (long long)n);
    int64_t row;
    int off[3];
    SK_CHECK(ctx, csc_key(&cur, p, &row, off) >= 0, SK_ERR_UNSUPPORTED,
             "linsol.preconditioner=mg: the Jacobian entry (row %lld, column %lld) couples grid "
             "points (%d, %d, %d) apart, outside the structured multigrid's stencil (neighbours "
             "at most one point away along each axis); use linsol.preconditioner=amg",
             (long long)row, (long long)cur.col, off[0], off[1], off[2]);
  }
  sk__mg_box box = {g->dim, g->ncomp, {0, 0, 0}, {g->n[0], g->n[1], g->n[2]}};
  const sk__mg_entries src = {colptr[n], csc_entry, &cur};
  return create_with(ctx, NULL, &box, &src, params, mg);
}

/* Raw entries of a distributed block. */
typedef struct {
  const int64_t *row;
  const int *key;
} raw_entries;

static int raw_entry(void *u, int64_t p, int64_t *row)
{
  const raw_entries *r = u;
  *row = r->row[p];
  return r->key[p];
}

sk_status sk__mg_create_box(sk_context *ctx, const void *comm, const sk__mg_box *box,
                            int64_t nraw, const int64_t *row, const int *key,
                            const sk__mg_params *params, sk__mg **mg)
{
  SK_CHECK(ctx, mg, SK_ERR_ARG, "sk__mg_create_box: NULL argument");
  *mg = NULL;
  SK_CHECK(ctx, comm && box && nraw >= 0 && (nraw == 0 || (row && key)), SK_ERR_ARG,
           "sk__mg_create_box: NULL argument");
  raw_entries r = {row, key};
  const sk__mg_entries src = {nraw, raw_entry, &r};
  return create_with(ctx, comm, box, &src, params, mg);
}

sk_status sk__mg_setup(sk__mg *mg, double gamma, const double *values)
{
  return mg ? mg->m->setup(mg->impl, gamma, values) : SK_ERR_ARG;
}

sk_status sk__mg_solve(sk__mg *mg, const double *r, double *z)
{
  return mg ? mg->m->solve(mg->impl, r, z) : SK_ERR_ARG;
}

void sk__mg_get_info(const sk__mg *mg, sk__mg_info *info)
{
  if (!mg) {
    *info = (sk__mg_info){0, 0.0, 0, ""};
    return;
  }
  mg->m->get_info(mg->impl, info);
}

void sk__mg_destroy(sk__mg **mg)
{
  if (!mg || !*mg) {
    return;
  }
  (*mg)->m->destroy(&(*mg)->impl);
  sk__free((*mg)->ctx, *mg);
  *mg = NULL;
}

void sk__mg_report(const sk__mg *mg, int cycles, char *buf, size_t cap)
{
  buf[0] = '\0';
  if (!mg) {
    return;
  }
  sk__mg_info in;
  sk__mg_get_info(mg, &in);
  snprintf(buf, cap,
           "%s, %d-entry stencil, %d V-cycle%s per solve: %lld setups, %.3g s (%.3g ms each)",
           in.solver, in.stencil, cycles, cycles == 1 ? "" : "s", (long long)in.setups,
           in.setup_seconds, in.setups ? 1e3 * in.setup_seconds / (double)in.setups : 0.0);
}

const char *sk__mg_available(void)
{
  return NULL;
}

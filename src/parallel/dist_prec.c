/* src/parallel/dist_prec.c: the preconditioners of a distributed model: BoomerAMG on this rank's rows of I - gamma J or the structured multigrid on its block (the model's own), and CVBBDPRE's half-bandwidth */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "parallel/dist_impl.h"
#include "linsol/amg_hypre.h"

/* The automatic half-bandwidth: the local stencil of a 2D block
 * (ncomp x the local x-line length), ncomp in 1D; in 3D the z couplings
 * are left out (their band would be a whole local plane). */
static int64_t bbd_band(const sk__dist *d)
{
  const sk__dist_layout *L = &d->L;
  int64_t band = d->s.band > 0 ? d->s.band : (L->dim == 1 ? L->ncomp : L->ncomp * L->cnt[0]);
  return band < L->nlocal - 1 ? band : (L->nlocal > 1 ? L->nlocal - 1 : 0);
}

/* bbd: the half-bandwidth the engine's CVBBDPRE keeps, checked to fit. */
static sk_status attach_bbd(sk__dist *d, sk__model_distribution *dist)
{
  sk_context *ctx = d->ctx;
  const int64_t band = bbd_band(d);
  d->L.bbd_band[0] = d->L.bbd_band[1] = band;
  dist->bbd_band = band;
  /* the ranks on this node share its memory (MPI_Comm_split_type is collective: every rank
     calls attach_bbd) */
  MPI_Comm node;
  int sharers = 1;
  if (MPI_Comm_split_type(d->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) ==
      MPI_SUCCESS) {
    MPI_Comm_size(node, &sharers);
    MPI_Comm_free(&node);
  }
  SK_CALL(ctx, sk__sun_check_band_size(ctx, d->L.nlocal, band, band, sharers,
                                       "linsol.preconditioner=bbd",
                                       "lower linsol.bbd_band, use more ranks (nodes) or "
                                       "linsol.preconditioner=amg"));
  return SK_OK;
}

/* ---- BoomerAMG on the rank-contiguous numbering, PFMG/SysPFMG on the blocks ---- */

/* J's raw entries of this rank's rows at d->ug into out: out[map[p]] +=
 * the value of raw entry p (AMG's merged rows), or out[p] = it (map NULL:
 * the multigrid's raw order). */
static void jac_rows(const sk__dist *d, double *out, const int64_t *map)
{
  int64_t raw = 0;
  for (int64_t r = 0; r < d->L.nlocal; r++) {
    int64_t cols[SK__DIST_ROW_MAX];
    int keys[SK__DIST_ROW_MAX];
    double vals[SK__DIST_ROW_MAX];
    const int cnt = sk__dist_row(d, r, cols, keys, vals);
    for (int k = 0; k < cnt; k++, raw++) {
      if (map) {
        out[map[raw]] += vals[k];
      } else {
        out[raw] = vals[k];
      }
    }
  }
}

/* Rows (sorted, merged columns) and the map raw entry -> position. */
static sk_status amg_pattern(sk__dist *d)
{
  sk_context *ctx = d->ctx;
  const int64_t nl = d->L.nlocal;
  d->arow = sk__calloc(ctx, (size_t)nl + 1, sizeof *d->arow);
  d->acol = sk__malloc(ctx, (size_t)nl * SK__DIST_ROW_MAX * sizeof *d->acol);
  d->amap = sk__malloc(ctx, (size_t)nl * SK__DIST_ROW_MAX * sizeof *d->amap);
  d->aval = sk__malloc(ctx, (size_t)nl * SK__DIST_ROW_MAX * sizeof *d->aval);
  SK_CHECK(ctx, d->arow && d->acol && d->amap && d->aval, SK_ERR_NOMEM,
           "cannot allocate the AMG rows (%lld states)", (long long)nl);
  int64_t raw = 0, pos = 0;
  for (int64_t r = 0; r < nl; r++) {
    int64_t cols[SK__DIST_ROW_MAX];
    int keys[SK__DIST_ROW_MAX];
    double vals[SK__DIST_ROW_MAX];
    const int cnt = sk__dist_row(d, r, cols, keys, vals);
    const int64_t start = pos;
    for (int k = 0; k < cnt; k++) {
      /* insert cols[k] into the sorted row [start, pos) unless present */
      int64_t at = start;
      while (at < pos && d->acol[at] < cols[k]) {
        at++;
      }
      if (at == pos || d->acol[at] != cols[k]) {
        for (int64_t m = pos; m > at; m--) {
          d->acol[m] = d->acol[m - 1];
        }
        for (int64_t m = raw - k; m < raw;
             m++) { /* entries of this row placed after at move on */
          if (d->amap[m] >= at) {
            d->amap[m]++;
          }
        }
        d->acol[at] = cols[k];
        pos++;
      }
      d->amap[raw++] = at;
    }
    d->arow[r + 1] = pos;
  }
  d->araw = raw;
  return SK_OK;
}

/* The multigrid's raw entries: each row state and stencil key, for the create. */
static sk_status mg_pattern(sk__dist *d, int64_t **rows, int **keys)
{
  sk_context *ctx = d->ctx;
  const int64_t nl = d->L.nlocal;
  *rows = sk__malloc(ctx, (size_t)nl * SK__DIST_ROW_MAX * sizeof **rows);
  *keys = sk__malloc(ctx, (size_t)nl * SK__DIST_ROW_MAX * sizeof **keys);
  d->aval = sk__malloc(ctx, (size_t)nl * SK__DIST_ROW_MAX * sizeof *d->aval);
  SK_CHECK(ctx, *rows && *keys && d->aval, SK_ERR_NOMEM,
           "cannot allocate the multigrid entries (%lld states)", (long long)nl);
  int64_t raw = 0;
  for (int64_t r = 0; r < nl; r++) {
    int64_t cols[SK__DIST_ROW_MAX];
    double vals[SK__DIST_ROW_MAX];
    const int cnt = sk__dist_row(d, r, cols, *keys + raw, vals);
    for (int k = 0; k < cnt; k++) {
      (*rows)[raw++] = r;
    }
  }
  d->araw = raw;
  return SK_OK;
}

/* The model's preconditioner setup (amg and mg): J's rows at y when the engine asks for fresh
 * Jacobian data (or none is held), then the hierarchy of I - gamma J. */
static sk_status prec_setup(void *data, double t, const double *y, double gamma, int jac_current)
{
  sk__dist *d = data;
  sk_status st = SK_OK;
  if (jac_current || !d->prec_have_jac) {
    d->prec_have_jac = 0;
    if (sk__halo_exchange(d, y)) {
      st = SK_ERROR(d->ctx, SK_ERR_SOLVER, "%s", d->halo.msg);
    } else {
      sk__dist_prepare_rows(d, t);
      if (d->amg) {
        memset(d->aval, 0, (size_t)d->arow[d->L.nlocal] * sizeof *d->aval);
      }
      jac_rows(d, d->aval, d->amg ? d->amap : NULL);
      d->prec_jac_evals++;
    }
  }
  SK_CALL(d->ctx, sk__dist_agree_op(d, st, "the halo exchange"));
  d->prec_have_jac = 1;
  st = d->amg ? sk__amg_setup_rows(d->amg, gamma, d->aval) : sk__mg_setup(d->mg, gamma, d->aval);
  return sk__dist_agree_op(d, st, "the preconditioner's setup");
}

static sk_status prec_solve(void *data, const double *r, double *z)
{
  sk__dist *d = data;
  const sk_status st = d->amg ? sk__amg_solve(d->amg, r, z) : sk__mg_solve(d->mg, r, z);
  return sk__dist_agree_op(d, st, "the preconditioner's solve");
}

static sk_status attach_amg(sk__dist *d)
{
  sk_context *ctx = d->ctx;
  sk_status st = amg_pattern(d);
  st = sk__dist_agree(ctx, d->comm, st);
  if (st != SK_OK) {
    return st;
  }
  const int64_t ilower = (int64_t)d->L.rank * d->L.nlocal;
  st = sk__amg_create_rows(ctx, &d->comm, ilower, d->L.nlocal, d->arow, d->acol, NULL, &d->amg);
  return sk__dist_agree(ctx, d->comm, st);
}

/* The structured multigrid on this rank's block of the global grid. */
static sk_status attach_mg(sk__dist *d)
{
  sk_context *ctx = d->ctx;
  int64_t *rows = NULL;
  int *keys = NULL;
  sk_status st = sk__dist_agree(ctx, d->comm, mg_pattern(d, &rows, &keys));
  if (st == SK_OK) {
    const sk__dist_layout *L = &d->L;
    const sk__mg_box box = {
        L->dim, L->ncomp, {L->lo[0], L->lo[1], L->lo[2]}, {L->cnt[0], L->cnt[1], L->cnt[2]}};
    st = sk__mg_create_box(ctx, &d->comm, &box, d->araw, rows, keys, &d->s.mg, &d->mg);
    st = sk__dist_agree(ctx, d->comm, st);
  }
  sk__free(ctx, rows);
  sk__free(ctx, keys);
  return st;
}

sk_status sk__dist_attach_prec(sk__dist *d, sk__model_distribution *dist)
{
  sk_context *ctx = d->ctx;
  if (!strcmp(d->L.prec, "bbd")) {
    SK_CALL(ctx, sk__dist_agree(ctx, d->comm, attach_bbd(d, dist)));
    return SK_OK;
  }
  if (!strcmp(d->L.prec, "none")) {
    return SK_OK;
  }
  SK_CALL(ctx, !strcmp(d->L.prec, "amg") ? attach_amg(d) : attach_mg(d));
  dist->prec_setup = prec_setup;
  dist->prec_solve = prec_solve;
  return SK_OK;
}

void sk__dist_free_prec(sk__dist *d)
{
  sk__amg_destroy(&d->amg);
  sk__mg_destroy(&d->mg);
  sk__free(d->ctx, d->arow);
  sk__free(d->ctx, d->acol);
  sk__free(d->ctx, d->amap);
  sk__free(d->ctx, d->aval);
  d->arow = d->acol = d->amap = NULL;
  d->aval = NULL;
}

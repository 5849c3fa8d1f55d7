/* src/parallel/dist_prec.c: the preconditioners of a distributed run: CVBBDPRE on the local blocks, BoomerAMG on this rank's rows of I - gamma J, or the structured multigrid on its block */
#include <stdlib.h>
#include <string.h>

#include <cvodes/cvodes.h>
#include <cvodes/cvodes_bbdpre.h>
#include <cvodes/cvodes_ls.h>

#include "core/error.h"
#include "parallel/dist_impl.h"
#include "linsol/amg_hypre.h"

/* ---- CVBBDPRE: gloc = the local RHS on the ghosts of the last cfn ---- */

static int bbd_gloc(sunindextype nlocal, sk_sunreal t, N_Vector ylocal, N_Vector glocal, void *ud)
{
  sk__dist *d = ud;
  (void)nlocal;
  sk__dist_copy_in(d, N_VGetArrayPointer(ylocal));
  sk__dist_local_rhs(d, t, N_VGetArrayPointer(glocal));
  return 0;
}

/* cfn: the halo exchange (every rank calls the BBD setup at the same
 * time), its failure agreed. */
static int bbd_comm(sunindextype nlocal, sk_sunreal t, N_Vector y, void *ud)
{
  sk__dist *d = ud;
  (void)nlocal;
  (void)t;
  const int rc = sk__halo_exchange(d, N_VGetArrayPointer(y));
  if (rc) {
    SK_ERROR(d->ctx, SK_ERR_SOLVER, "%s", d->halo.msg);
    sk__dist_callback_failed(d);
  }
  return sk__dist_agree_flag(d, rc != 0) ? -1 : 0;
}

/* The automatic half-bandwidth: the local stencil of a 2D block
 * (ncomp x the local x-line length), ncomp in 1D; in 3D the z couplings
 * are left out (their band would be a whole local plane). */
static int64_t bbd_band(const sk__dist *d)
{
  const sk__dist_layout *L = &d->L;
  int64_t band = d->s.band > 0 ? d->s.band : (L->dim == 1 ? L->ncomp : L->ncomp * L->cnt[0]);
  return band < L->nlocal - 1 ? band : (L->nlocal > 1 ? L->nlocal - 1 : 0);
}

static sk_status attach_bbd(sk__dist *d)
{
  sk_context *ctx = d->ctx;
  const int64_t band = bbd_band(d);
  d->L.bbd_band[0] = d->L.bbd_band[1] = band;
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
  const int flag =
      CVBBDPrecInit(d->mem, (sunindextype)d->L.nlocal, (sunindextype)band, (sunindextype)band,
                    (sunindextype)band, (sunindextype)band, 0.0, bbd_gloc, bbd_comm);
  if (flag != CVLS_SUCCESS) {
    return SK_ERROR(ctx, flag == CVLS_MEM_FAIL ? SK_ERR_NOMEM : SK_ERR_SOLVER,
                    "CVBBDPrecInit failed (flag %d, band %lld on %lld local states): %s", flag,
                    (long long)band, (long long)d->L.nlocal, d->messages.msg);
  }
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

/* CVLsPrecSetupFn of amg and mg: J's rows at y when CVODE asks for a fresh
 * Jacobian (or none is held), then the hierarchy of I - gamma J. */
static int prec_setup_cb(sk_sunreal t, N_Vector y, N_Vector fy, sk_sunbool jok, sk_sunbool *jcur,
                         sk_sunreal gamma, void *ud)
{
  sk__dist *d = ud;
  (void)t;
  (void)fy;
  int failed = 0;
  const int fresh = !jok || !d->prec_have_jac;
  if (fresh) {
    d->prec_have_jac = 0;
    if (sk__halo_exchange(d, N_VGetArrayPointer(y))) {
      SK_ERROR(d->ctx, SK_ERR_SOLVER, "%s", d->halo.msg);
      sk__dist_callback_failed(d);
      failed = 1;
    } else {
      sk__dist_prepare_rows(d);
      if (d->amg) {
        memset(d->aval, 0, (size_t)d->arow[d->L.nlocal] * sizeof *d->aval);
      }
      jac_rows(d, d->aval, d->amg ? d->amap : NULL);
      d->prec_jac_evals++;
    }
  }
  if (sk__dist_agree_flag(d, failed)) {
    return -1;
  }
  d->prec_have_jac = 1;
  *jcur = fresh ? SK_SUN_TRUE : SK_SUN_FALSE;
  failed = (d->amg ? sk__amg_setup_rows(d->amg, gamma, d->aval)
                   : sk__mg_setup(d->mg, gamma, d->aval)) != SK_OK;
  if (failed) {
    sk__dist_callback_failed(d);
  }
  return sk__dist_agree_flag(d, failed) ? -1 : 0;
}

static int prec_solve_cb(sk_sunreal t, N_Vector y, N_Vector fy, N_Vector r, N_Vector z,
                         sk_sunreal gamma, sk_sunreal delta, int lr, void *ud)
{
  sk__dist *d = ud;
  (void)t;
  (void)y;
  (void)fy;
  (void)gamma;
  (void)delta;
  (void)lr;
  const double *rv = N_VGetArrayPointer(r);
  double *zv = N_VGetArrayPointer(z);
  const int failed =
      (d->amg ? sk__amg_solve(d->amg, rv, zv) : sk__mg_solve(d->mg, rv, zv)) != SK_OK;
  if (failed) {
    sk__dist_callback_failed(d);
  }
  return sk__dist_agree_flag(d, failed) ? -1 : 0;
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

sk_status sk__dist_attach_prec(sk__dist *d)
{
  sk_context *ctx = d->ctx;
  if (!strcmp(d->L.prec, "bbd")) {
    SK_CALL(ctx, sk__dist_agree(ctx, d->comm, attach_bbd(d)));
    return SK_OK;
  }
  if (!strcmp(d->L.prec, "none")) {
    return SK_OK;
  }
  SK_CALL(ctx, !strcmp(d->L.prec, "amg") ? attach_amg(d) : attach_mg(d));
  const int flag = CVodeSetPreconditioner(d->mem, prec_setup_cb, prec_solve_cb);
  sk_status st = SK_OK;
  if (flag != CVLS_SUCCESS) {
    st = SK_ERROR(ctx, SK_ERR_SOLVER, "CVodeSetPreconditioner failed (flag %d)", flag);
  }
  SK_CALL(ctx, sk__dist_agree(ctx, d->comm, st));
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

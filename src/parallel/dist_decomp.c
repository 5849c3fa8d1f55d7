/* src/parallel/dist_decomp.c: the block decomposition: process grid choice, Cartesian communicator, index maps, gather */
#include <limits.h>
#include <string.h>

#include "core/error.h"
#include "parallel/dist_impl.h"

int sk__dist_choose_grid(int nranks, int dim, const int64_t n[3], int procs[3])
{
  double best = -1.0;
  for (int p0 = 1; p0 <= nranks; p0++) {
    if (nranks % p0 || n[0] % p0) {
      continue;
    }
    for (int p1 = 1; p1 <= (dim > 1 ? nranks / p0 : 1); p1++) {
      if ((nranks / p0) % p1 || n[1] % p1) {
        continue;
      }
      const int p2 = nranks / p0 / p1;
      if ((dim < 3 && p2 != 1) || n[2] % p2) {
        continue;
      }
      /* the cut surface: nodes next to a block boundary, summed over directions */
      const double cut = (double)(p0 - 1) * (double)(n[1] * n[2]) +
                         (double)(p1 - 1) * (double)(n[0] * n[2]) +
                         (double)(p2 - 1) * (double)(n[0] * n[1]);
      if (best < 0.0 || cut < best) {
        best = cut;
        procs[0] = p0;
        procs[1] = p1;
        procs[2] = p2;
      }
    }
  }
  return best >= 0.0;
}

/* The block's column callback: sk__dist_block_index of the owner. */
static int64_t block_column(const void *owner, const int64_t ijk[3])
{
  return sk__dist_block_index(owner, ijk);
}

sk_status sk__dist_setup_layout(sk__dist *d, MPI_Comm comm)
{
  sk_context *ctx = d->ctx;
  sk__dist_layout *L = &d->L;
  const sk__dist_settings *s = &d->s;
  MPI_Comm_size(comm, &L->nranks);
  int periods[3] = {0, 0, 0};
  int procs[3] = {s->procs[0], s->procs[1], s->procs[2]};
  /* every rank reaches this call: the settings were agreed before */
  int rc = MPI_Cart_create(comm, s->dim, procs, periods, 0, &d->comm);
  SK_CHECK(ctx, rc == MPI_SUCCESS && d->comm != MPI_COMM_NULL, SK_ERR_SOLVER,
           "MPI_Cart_create failed (error %d)", rc);
  MPI_Comm_set_errhandler(d->comm, MPI_ERRORS_RETURN);
  MPI_Comm_rank(d->comm, &L->rank);
  int coords[3] = {0, 0, 0};
  MPI_Cart_coords(d->comm, L->rank, s->dim, coords);
  L->dim = s->dim;
  L->ncomp = s->ncomp;
  L->nlocal = s->ncomp;
  L->nglobal = s->ncomp;
  for (int dd = 0; dd < 3; dd++) {
    L->n[dd] = s->n[dd];
    L->procs[dd] = s->procs[dd];
    L->coords[dd] = coords[dd];
    L->cnt[dd] = s->n[dd] / s->procs[dd];
    L->lo[dd] = coords[dd] * L->cnt[dd];
    L->nlocal *= L->cnt[dd];
    L->nglobal *= s->n[dd];
    d->B.G[dd] = dd < s->dim ? L->cnt[dd] + 2 : 1;
  }
  SK_CHECK(ctx, L->nlocal <= INT_MAX / 2, SK_ERR_TOO_LARGE,
           "model.n: %lld states per rank exceed MPI's int counts (use more ranks)",
           (long long)L->nlocal);
  SK_CHECK(ctx, L->nglobal <= INT_MAX, SK_ERR_TOO_LARGE,
           "model.n: %lld states in all exceed the int displacements of the gather of the "
           "outputs to rank 0 (MPI_Gatherv; at most %d states)",
           (long long)L->nglobal, INT_MAX);
  sk__grid_block *B = &d->B;
  B->dim = L->dim;
  B->ncomp = L->ncomp;
  for (int dd = 0; dd < 3; dd++) {
    B->n[dd] = L->n[dd];
    B->lo[dd] = L->lo[dd];
    B->cnt[dd] = L->cnt[dd];
  }
  B->gs[0] = 1;
  B->gs[1] = B->G[0];
  B->gs[2] = B->G[0] * B->G[1];
  B->nghost = B->G[0] * B->G[1] * B->G[2];
  B->g = &d->s.shape.g;
  B->column = block_column;
  B->owner = d;
  snprintf(L->prec, sizeof L->prec, "%s", s->prec);
  d->rank_of = sk__malloc(ctx, (size_t)L->nranks * sizeof *d->rank_of);
  B->ug = sk__calloc(ctx, (size_t)(B->nghost * s->ncomp), sizeof *B->ug);
  SK_CHECK(ctx, d->rank_of && B->ug, SK_ERR_NOMEM, "cannot allocate the block of this rank");
  for (int r = 0; r < L->nranks; r++) {
    int c[3] = {0, 0, 0};
    MPI_Cart_coords(d->comm, r, s->dim, c);
    d->rank_of[c[0] + s->procs[0] * (c[1] + s->procs[1] * c[2])] = r;
  }
  return SK_OK;
}

int64_t sk__dist_block_index(const sk__dist *d, const int64_t ijk[3])
{
  const sk__dist_layout *L = &d->L;
  int64_t c[3], l[3];
  for (int k = 0; k < 3; k++) {
    c[k] = ijk[k] / L->cnt[k];
    l[k] = ijk[k] % L->cnt[k];
  }
  const int r = d->rank_of[c[0] + L->procs[0] * (c[1] + L->procs[1] * c[2])];
  return (int64_t)r * L->nlocal + L->ncomp * (l[0] + L->cnt[0] * (l[1] + L->cnt[1] * l[2]));
}

void sk__dist_copy_in(sk__dist *d, const double *y_local)
{
  const sk__dist_layout *L = &d->L;
  const size_t line = (size_t)(L->cnt[0] * L->ncomp) * sizeof *y_local;
  for (int64_t c = 0; c < L->cnt[2]; c++) {
    for (int64_t b = 0; b < L->cnt[1]; b++) {
      memcpy(d->B.ug + L->ncomp * sk__dist_ghost(d, 0, b, c),
             y_local + L->ncomp * L->cnt[0] * (b + L->cnt[1] * c), line);
    }
  }
}

/* Copy the block of rank coordinates pc between the local vector `loc` and
 * the global vector `glob` (to_global: loc -> glob). */
static void block_copy(const sk__dist_layout *L, const int pc[3], double *loc, double *glob,
                       int to_global)
{
  const size_t line = (size_t)(L->cnt[0] * L->ncomp) * sizeof *loc;
  for (int64_t c = 0; c < L->cnt[2]; c++) {
    for (int64_t b = 0; b < L->cnt[1]; b++) {
      const int64_t gj = pc[1] * L->cnt[1] + b, gk = pc[2] * L->cnt[2] + c;
      const int64_t gi0 = pc[0] * L->cnt[0];
      double *g = glob + L->ncomp * (gi0 + L->n[0] * (gj + L->n[1] * gk));
      double *l = loc + L->ncomp * L->cnt[0] * (b + L->cnt[1] * c);
      if (to_global) {
        memcpy(g, l, line);
      } else {
        memcpy(l, g, line);
      }
    }
  }
}

void sk__dist_local_from_global(const sk__dist *d, const double *y_global, double *y_local)
{
  block_copy(&d->L, d->L.coords, y_local, (double *)y_global, 0);
}

sk_status sk__dist_gather_vector(sk__dist *d, int root, const double *y_local, double *y_global)
{
  sk_context *ctx = d->ctx;
  const sk__dist_layout *L = &d->L;
  double *tmp = NULL;
  int *counts = NULL, *displs = NULL;
  sk_status st = SK_OK;
  if (L->rank == root) {
    tmp = sk__malloc(ctx, (size_t)L->nglobal * sizeof *tmp);
    counts = sk__malloc(ctx, (size_t)L->nranks * sizeof *counts);
    displs = sk__malloc(ctx, (size_t)L->nranks * sizeof *displs);
    if (!tmp || !counts || !displs || !y_global) {
      st = y_global
               ? SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the gathered state (%lld values)",
                          (long long)L->nglobal)
               : SK_ERROR(ctx, SK_ERR_ARG, "sk__dist_gather: NULL y_global on the root");
    } else {
      for (int r = 0; r < L->nranks; r++) {
        counts[r] = (int)L->nlocal;
        displs[r] = (int)L->nlocal * r;
      }
    }
  }
  st = sk__dist_agree(ctx, d->comm, st);
  if (st == SK_OK) {
    const int rc = MPI_Gatherv(y_local, (int)L->nlocal, MPI_DOUBLE, tmp, counts, displs,
                               MPI_DOUBLE, root, d->comm);
    st = rc == MPI_SUCCESS ? SK_OK : SK_ERROR(ctx, SK_ERR_SOLVER, "MPI_Gatherv failed (%d)", rc);
    st = sk__dist_agree(ctx, d->comm, st);
  }
  if (st == SK_OK && L->rank == root) {
    for (int r = 0; r < L->nranks; r++) {
      int pc[3] = {0, 0, 0};
      MPI_Cart_coords(d->comm, r, L->dim, pc);
      block_copy(L, pc, tmp + (int64_t)r * L->nlocal, y_global, 1);
    }
  }
  sk__free(ctx, tmp);
  sk__free(ctx, counts);
  sk__free(ctx, displs);
  return st;
}

/* src/parallel/dist_halo.c: halo exchange of the block faces (one ghost layer, non-blocking MPI, received sizes checked) */
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "parallel/dist_impl.h"

sk_status sk__halo_init(sk__dist *d)
{
  sk_context *ctx = d->ctx;
  sk__halo *h = &d->halo;
  const sk__dist_layout *L = &d->L;
  memset(h, 0, sizeof *h);
  h->comm = d->comm;
  h->rank = L->rank;
  for (int k = 0; k < 3; k++) {
    h->nb[k][0] = h->nb[k][1] = MPI_PROC_NULL;
    if (k >= L->dim) {
      continue;
    }
    MPI_Cart_shift(d->comm, k, 1, &h->nb[k][0], &h->nb[k][1]);
    h->face[k] = L->nlocal / L->cnt[k]; /* ncomp times the nodes of a face */
    for (int s = 0; s < 2; s++) {
      if (h->nb[k][s] == MPI_PROC_NULL) {
        continue;
      }
      h->buf[k][s][0] = sk__malloc(ctx, (size_t)h->face[k] * sizeof(double));
      h->buf[k][s][1] = sk__malloc(ctx, (size_t)(h->face[k] + 1) * sizeof(double));
      SK_CHECK(ctx, h->buf[k][s][0] && h->buf[k][s][1], SK_ERR_NOMEM,
               "cannot allocate the halo buffers");
    }
  }
  return SK_OK;
}

void sk__halo_free(sk__dist *d)
{
  for (int k = 0; k < 3; k++) {
    for (int s = 0; s < 2; s++) {
      sk__free(d->ctx, d->halo.buf[k][s][0]);
      sk__free(d->ctx, d->halo.buf[k][s][1]);
      d->halo.buf[k][s][0] = d->halo.buf[k][s][1] = NULL;
    }
  }
}

/* Copy the layer at local position pos along direction k between d->B.ug
 * and buf (pack: ug -> buf). */
static void layer_copy(sk__dist *d, int k, int64_t pos, double *buf, int pack)
{
  const sk__dist_layout *L = &d->L;
  const int nc = L->ncomp;
  int64_t ext[3] = {L->cnt[0], L->cnt[1], L->cnt[2]};
  ext[k] = 1;
  int64_t m = 0;
  for (int64_t c = 0; c < ext[2]; c++) {
    for (int64_t b = 0; b < ext[1]; b++) {
      for (int64_t a = 0; a < ext[0]; a++) {
        int64_t l[3] = {a, b, c};
        l[k] = pos;
        double *u = d->B.ug + nc * sk__dist_ghost(d, l[0], l[1], l[2]);
        for (int q = 0; q < nc; q++, m++) {
          if (pack) {
            buf[m] = u[q];
          } else {
            u[q] = buf[m];
          }
        }
      }
    }
  }
}

int sk__halo_exchange(sk__dist *d, const double *y_local)
{
  sk__halo *h = &d->halo;
  const sk__dist_layout *L = &d->L;
  MPI_Request req[12];
  int src[12], dir[12], side[12];
  int nreq = 0, nrecv = 0;
  sk__dist_copy_in(d, y_local);
  h->msg[0] = '\0';
  /* receives first: from side s comes what that neighbour sent toward us (tag 2k + 1 - s) */
  for (int k = 0; k < L->dim; k++) {
    for (int s = 0; s < 2; s++) {
      if (h->nb[k][s] == MPI_PROC_NULL) {
        continue;
      }
      MPI_Irecv(h->buf[k][s][1], (int)h->face[k] + 1, MPI_DOUBLE, h->nb[k][s], 2 * k + 1 - s,
                h->comm, &req[nreq]);
      src[nreq] = h->nb[k][s];
      dir[nreq] = k;
      side[nreq] = s;
      nreq++;
    }
  }
  nrecv = nreq;
  for (int k = 0; k < L->dim; k++) {
    for (int s = 0; s < 2; s++) {
      if (h->nb[k][s] == MPI_PROC_NULL) {
        continue;
      }
      layer_copy(d, k, s ? L->cnt[k] - 1 : 0, h->buf[k][s][0], 1);
      int count = (int)h->face[k] - h->missing;
      MPI_Isend(h->buf[k][s][0], count > 0 ? count : 0, MPI_DOUBLE, h->nb[k][s], 2 * k + s,
                h->comm, &req[nreq++]);
    }
  }
  MPI_Status stat[12];
  const int rc = MPI_Waitall(nreq, req, stat);
  int failed = 0;
  for (int m = 0; m < nrecv && !failed; m++) {
    const int64_t want = d->halo.face[dir[m]];
    int got = -1;
    if (rc == MPI_ERR_IN_STATUS && stat[m].MPI_ERROR == MPI_ERR_TRUNCATE) {
      snprintf(h->msg, sizeof h->msg,
               "bad halo size from rank %d: got more than %lld values, expected %lld (rank %d, "
               "direction %c)",
               src[m], (long long)want + 1, (long long)want, h->rank, "xyz"[dir[m]]);
      failed = 1;
      break;
    }
    if (rc != MPI_SUCCESS && !(rc == MPI_ERR_IN_STATUS && stat[m].MPI_ERROR == MPI_SUCCESS)) {
      snprintf(h->msg, sizeof h->msg,
               "halo exchange with rank %d failed (MPI error %d) on rank %d", src[m],
               rc == MPI_ERR_IN_STATUS ? stat[m].MPI_ERROR : rc, h->rank);
      failed = 1;
      break;
    }
    MPI_Get_count(&stat[m], MPI_DOUBLE, &got);
    if (got != want) {
      snprintf(h->msg, sizeof h->msg,
               "bad halo size from rank %d: got %d values, expected %lld (rank %d, direction %c)",
               src[m], got, (long long)want, h->rank, "xyz"[dir[m]]);
      failed = 1;
    }
  }
  if (failed) {
    return -1;
  }
  for (int m = 0; m < nrecv; m++) {
    const int k = dir[m];
    layer_copy(d, k, side[m] ? L->cnt[k] : -1, h->buf[k][side[m]][1], 0);
  }
  return 0;
}

/* tests/mpi/test_dist_halo.c: halo exchange against a known global field, the local RHS gathered against the serial model bitwise, status agreement */
#include "mpi_util.h"

static int g_rank, g_size;

/* The known field: global component i holds 0.25 + i (exactly representable). */
static double field(int64_t i)
{
  return 0.25 + (double)i;
}

/* (b) every ghost value inside the domain equals the global neighbour's field value */
static void check_halo(sk_context *ctx, const char *const *set)
{
  sk_options *o = NULL;
  sk__dist *d = mpi_dist(ctx, set, &o);
  if (!d) {
    return;
  }
  const sk__dist_layout *L = sk__dist_get_layout(d);
  double *yg = malloc((size_t)L->nglobal * sizeof *yg), *yl = malloc((size_t)L->nlocal * sizeof *yl);
  for (int64_t i = 0; i < L->nglobal; i++) {
    yg[i] = field(i);
  }
  sk__dist_local_from_global(d, yg, yl);
  const double *gh = NULL;
  CHECK_OK(ctx, sk__dist_halo_values(d, yl, &gh));
  int64_t G[3], off[3], checked = 0, bad = 0;
  for (int k = 0; k < 3; k++) {
    G[k] = k < L->dim ? L->cnt[k] + 2 : 1;
    off[k] = k < L->dim ? 1 : 0;
  }
  for (int k = 0; k < L->dim; k++) {
    for (int s = 0; s < 2; s++) {
      /* the ghost layer at position -1 or cnt along k, over the face */
      int64_t ext[3] = {L->cnt[0], L->cnt[1], L->cnt[2]};
      ext[k] = 1;
      for (int64_t c = 0; c < ext[2]; c++) {
        for (int64_t b = 0; b < ext[1]; b++) {
          for (int64_t a = 0; a < ext[0]; a++) {
            int64_t l[3] = {a, b, c};
            l[k] = s ? L->cnt[k] : -1;
            int64_t gijk[3];
            int in = 1;
            for (int e = 0; e < 3; e++) {
              gijk[e] = L->lo[e] + l[e];
              in = in && gijk[e] >= 0 && gijk[e] < L->n[e];
            }
            if (!in) {
              continue; /* physical boundary: no ghost */
            }
            const int64_t gq = (l[0] + off[0]) + G[0] * ((l[1] + off[1]) + G[1] * (l[2] + off[2]));
            const int64_t node = gijk[0] + L->n[0] * (gijk[1] + L->n[1] * gijk[2]);
            for (int q = 0; q < L->ncomp; q++) {
              checked++;
              bad += gh[L->ncomp * gq + q] != field(node * L->ncomp + q);
            }
          }
        }
      }
    }
  }
  CHECK_EQ_INT(bad, 0);
  /* every rank with a neighbour checked something */
  CHECK(g_size == 1 || checked > 0);
  /* a short message from rank 0 is a bad halo size on its neighbours, agreed everywhere */
  if (g_rank == 0) {
    sk__dist_inject_halo_short(d, 1);
  }
  CHECK_EQ_INT(sk__dist_halo_values(d, yl, &gh), SK_ERR_SOLVER);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "bad halo size from rank 0: got ");
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "values, expected");
  free(yg);
  free(yl);
  sk__dist_destroy(&d);
  sk_options_destroy(&o);
}

/* (c) the gathered distributed RHS equals the serial model's RHS bit for bit */
static void check_rhs(sk_context *ctx, const char *const *set, double scale, double shift)
{
  sk_options *o = mpi_opts(ctx, set);
  sk__dist *d = NULL;
  sk_model *m = NULL;
  CHECK_OK(ctx, sk__dist_create(ctx, MPI_COMM_WORLD, o, &d));
  CHECK_OK(ctx, sk_grid_model_from_options(ctx, o, &m));
  if (!d || !m) {
    sk__dist_destroy(&d);
    sk_model_destroy(&m);
    sk_options_destroy(&o);
    return;
  }
  const sk__dist_layout *L = sk__dist_get_layout(d);
  CHECK_EQ_INT(sk_model_get_n(m), L->nglobal);
  const int64_t n = L->nglobal;
  double *y = malloc((size_t)n * sizeof *y), *fs = malloc((size_t)n * sizeof *fs);
  double *fd = malloc((size_t)n * sizeof *fd);
  double *yl = malloc((size_t)L->nlocal * sizeof *yl), *fl = malloc((size_t)L->nlocal * sizeof *fl);
  unsigned long long seed = 12345;
  for (int64_t i = 0; i < n; i++) {
    y[i] = shift + scale * mpi_rnd(&seed);
  }
  sk__dist_local_from_global(d, y, yl);
  CHECK_OK(ctx, sk__dist_eval_rhs(d, 0.3, yl, fl));
  CHECK_OK(ctx, sk__dist_gather_vector(d, 0, fl, g_rank == 0 ? fd : NULL));
  if (g_rank == 0) {
    CHECK_OK(ctx, sk_model_eval_rhs(m, 0.3, y, fs));
    int64_t differ = 0, first = -1;
    for (int64_t i = 0; i < n; i++) {
      if (memcmp(&fs[i], &fd[i], sizeof(double)) != 0) {
        differ++;
        first = first < 0 ? i : first;
      }
    }
    if (differ) {
      fprintf(stderr, "%s ...: %lld of %lld differ, first %lld: serial %.17g dist %.17g\n", set[0],
              (long long)differ, (long long)n, (long long)first, fs[first], fd[first]);
    }
    CHECK_EQ_INT(differ, 0);
  }
  /* the initial state too: the serial model's sk_model_eval_initial */
  double *y0 = malloc((size_t)n * sizeof *y0);
  CHECK_OK(ctx, sk__dist_gather(d, 0, g_rank == 0 ? fd : NULL));
  if (g_rank == 0) {
    CHECK_OK(ctx, sk_model_eval_initial(m, 0.0, y0));
    CHECK_EQ_INT(memcmp(y0, fd, (size_t)n * sizeof *y0), 0);
  }
  free(y0);
  free(y);
  free(fs);
  free(fd);
  free(yl);
  free(fl);
  sk__dist_destroy(&d);
  sk_model_destroy(&m);
  sk_options_destroy(&o);
}

/* (f) a failure on rank 1 only: every rank returns it with rank 1's message */
static void check_agree(sk_context *ctx)
{
  sk_status st = SK_OK;
  if (g_rank == 1) {
    st = sk_context_set_error(ctx, SK_ERR_INPUT, "bad block on rank %d", g_rank);
  }
  CHECK_EQ_INT(sk__dist_agree(ctx, MPI_COMM_WORLD, st), SK_ERR_INPUT);
  CHECK_EQ_INT(sk_context_get_error(ctx)->code, SK_ERR_INPUT);
  CHECK(strcmp(sk_context_get_error(ctx)->message, "rank 1: bad block on rank 1") == 0);
  /* ranks 1 and 3 fail (4 ranks): the lowest, rank 1, wins */
  st = SK_OK;
  if (g_rank == 1 || g_rank == 3) {
    st = sk_context_set_error(ctx, g_rank == 1 ? SK_ERR_MISSING : SK_ERR_IO, "failure %d", g_rank);
  }
  CHECK_EQ_INT(sk__dist_agree(ctx, MPI_COMM_WORLD, st), SK_ERR_MISSING);
  CHECK(strcmp(sk_context_get_error(ctx)->message, "rank 1: failure 1") == 0);
  /* an interruption counts; nothing failed gives SK_OK */
  CHECK_EQ_INT(sk__dist_agree(ctx, MPI_COMM_WORLD, g_rank == g_size - 1 ? SK_INTERRUPTED : SK_OK),
               SK_INTERRUPTED);
  CHECK_EQ_INT(sk__dist_agree(ctx, MPI_COMM_WORLD, SK_OK), SK_OK);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));

  const char *h2[] = {"model.n=12,8", NULL};
  check_halo(ctx, h2);
  const char *h3[] = {"model.dim=3", "model.n=4,4,4", NULL};
  check_halo(ctx, h3);
  const char *h3x[] = {"model.dim=3", "model.n=8,2,2", "parallel.decomposition=" /* set below */, NULL};
  (void)h3x;
  const char *hb[] = {"model.type=brusselator", "model.n=8", NULL};
  check_halo(ctx, hb);
  const char *h1[] = {"model.dim=1", "model.n=12", NULL};
  check_halo(ctx, h1);

  /* heat 2D: variable k (beta, kgrad), Dirichlet values, a source */
  const char *r2[] = {"model.n=13,8", "model.beta=0.3", "model.kgrad=0.5,-0.2",
                      "model.bc.x0.value=1", "model.bc.x1.value=2", "model.bc.y0.value=0.5",
                      "model.bc.y1.value=-1", "model.source=0.7", "model.exact=none",
                      "model.ic=constant", "model.ic_value=0.4", NULL};
  check_rhs(ctx, r2, 1.0, 0.0);
  /* heat 2D: constant k (the serial fast path), the exact mode as initial state */
  const char *r2c[] = {"model.n=16,12", "model.k0=2.5", "model.length=2,1", NULL};
  check_rhs(ctx, r2c, 1.0, -0.5);
  /* heat 3D, variable k and constant k */
  const char *r3[] = {"model.dim=3", "model.n=8,4,6", "model.beta=-0.2", "model.kgrad=0.1,0.2,0.3",
                      "model.bc.z1.value=3", "model.bc.x0.value=-1", "model.exact=none",
                      "model.ic=constant", NULL};
  check_rhs(ctx, r3, 2.0, 0.0);
  const char *r3c[] = {"model.dim=3", "model.n=4,8,4", "model.semidiscrete=true", NULL};
  check_rhs(ctx, r3c, 1.0, 0.0);
  /* heat 1D */
  const char *r1[] = {"model.dim=1", "model.n=16", "model.beta=0.1", "model.exact=none",
                      "model.ic=constant", NULL};
  check_rhs(ctx, r1, 1.0, 0.0);
  /* Brusselator (mirrored zero-flux stencil, interleaved u, v) */
  const char *rb[] = {"model.type=brusselator", "model.n=12", "model.brusselator.alpha=0.01", NULL};
  check_rhs(ctx, rb, 3.0, 0.2);
  /* Brusselator with an explicit 1D split */
  char dec[64];
  snprintf(dec, sizeof dec, "parallel.decomposition=1,%d", g_size);
  const char *rb1[] = {"model.type=brusselator", "model.n=8", dec, NULL};
  check_rhs(ctx, rb1, 1.0, 0.0);

  if (g_size > 1) {
    check_agree(ctx);
  }
  sk_context_destroy(&ctx);
  const int rc = mpi_verdict();
  MPI_Finalize();
  return rc;
}

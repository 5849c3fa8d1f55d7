/* tests/mpi/test_dist_halo.c: halo exchange against a known global field, the local RHS gathered against the serial model bitwise, the AMG Jacobian rows against the serial analytic Jacobian, status agreement */
#include <math.h>

#include "parallel/dist_impl.h"
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
  double *yg = malloc((size_t)L->nglobal * sizeof *yg),
         *yl = malloc((size_t)L->nlocal * sizeof *yl);
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
            const int64_t gq =
                (l[0] + off[0]) + G[0] * ((l[1] + off[1]) + G[1] * (l[2] + off[2]));
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

/* The distributed run and the serial model of the same options; 0 (after a
 * failed check, everything freed) when either cannot be built. */
static int dist_and_serial(sk_context *ctx, const char *const *set, sk_options **o, sk__dist **d,
                           sk_model **m)
{
  *o = mpi_opts(ctx, set);
  CHECK_OK(ctx, sk__dist_create(ctx, MPI_COMM_WORLD, *o, d));
  CHECK_OK(ctx, sk_model_from_options(ctx, *o, m));
  if (!*d || !*m) {
    sk__dist_destroy(d);
    sk_model_destroy(m);
    sk_options_destroy(o);
    return 0;
  }
  return 1;
}

/* (c) the gathered distributed RHS equals the serial model's RHS bit for bit */
static void check_rhs(sk_context *ctx, const char *const *set, double scale, double shift)
{
  sk_options *o = NULL;
  sk__dist *d = NULL;
  sk_model *m = NULL;
  if (!dist_and_serial(ctx, set, &o, &d, &m)) {
    return;
  }
  const sk__dist_layout *L = sk__dist_get_layout(d);
  CHECK_EQ_INT(sk_model_get_n(m), L->nglobal);
  const int64_t n = L->nglobal;
  double *y = malloc((size_t)n * sizeof *y), *fs = malloc((size_t)n * sizeof *fs);
  double *fd = malloc((size_t)n * sizeof *fd);
  double *yl = malloc((size_t)L->nlocal * sizeof *yl),
         *fl = malloc((size_t)L->nlocal * sizeof *fl);
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
      fprintf(stderr, "%s ...: %lld of %lld differ, first %lld: serial %.17g dist %.17g\n",
              set[0], (long long)differ, (long long)n, (long long)first, fs[first], fd[first]);
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

/* (d) every local Jacobian row of the distributed model (the block kernels'
 * rows of src/models/grid_block.h, which src/parallel/dist_prec.c assembles into the AMG
 * matrix I - gamma J) equals the row of the serial model's analytic
 * Jacobian (sk_model_eval_jac, the values callback of src/models/) at the
 * same global state: the same set of columns (no entry missing or extra)
 * and the same values.
 *
 * The reference is independent of the distributed code: the serial model
 * computes its Jacobian column by column (CSC) on the global array, and
 * the map from the rank-contiguous numbering of the row columns (rank *
 * nlocal + local state) to the serial ordering is built here from each
 * rank's block extent (lo, cnt) alone, gathered over the ranks -- not with
 * sk__dist_block_index, which the rows use. The rows are evaluated as the
 * AMG setup does (halo exchange, nodal k and dk/du for diffusion, then the
 * raw entries), and raw entries repeating a column (the Brusselator's
 * mirrored boundary stencil) are merged as the AMG assembly merges them:
 * summed from 0.0 in the order given. Each entry's structured multigrid
 * key (the distributed mg's stencil) is checked against the offset of the
 * two serial positions (serial_key).
 *
 * rtol = 0 requires bitwise equality (the Brusselator: the same expressions
 * in the same order; a merged mirror entry alpha/hh + alpha/hh is exactly
 * the serial alpha/(hh w), w = 1/2). Diffusion (rtol 1e-13): the same
 * formulas in a different order -- the serial interior columns multiply
 * by 1/h^2 where the rows divide by h^2 (<= 2 ulp apart), and the serial
 * diagonal sums the 2 dim face terms in the order -z, -y, -x, +x, +y, +z,
 * Dirichlet faces last, the rows x-, x+, y-, ... Each face term
 * -kf + k'/2 (u_nb - u) is negative in the states used (|beta| <= 0.3,
 * |u_nb - u| <= 3 with the Dirichlet values, so |k'/2 (u_nb - u)| < kf/2),
 * so the sum does not cancel: the two evaluations differ by a few ulps
 * (about 2 dim + 2 roundings, < 1e-15 relative). 1e-13 keeps a margin of
 * about 100 over that, while a wrong formula (a missing k'/2 du term, a
 * wrong h, neighbour or boundary k) changes an entry by 1e-2 or more. The
 * largest relative difference seen is printed. */
static int serial_key(const sk__dist_layout *L, int64_t row, int64_t col)
{
  const int64_t a = row / L->ncomp, b = col / L->ncomp;
  const int64_t ra[3] = {a % L->n[0], (a / L->n[0]) % L->n[1], a / (L->n[0] * L->n[1])};
  const int64_t cb[3] = {b % L->n[0], (b / L->n[0]) % L->n[1], b / (L->n[0] * L->n[1])};
  return SK__MG_KEY((int)(cb[0] - ra[0]), (int)(cb[1] - ra[1]), (int)(cb[2] - ra[2]),
                    (int)(col % L->ncomp), L->ncomp);
}

static void check_jac_rows(sk_context *ctx, const char *const *set, double scale, double shift,
                           double rtol)
{
  sk_options *o = NULL;
  sk__dist *d = NULL;
  sk_model *m = NULL;
  if (!dist_and_serial(ctx, set, &o, &d, &m)) {
    return;
  }
  const sk__dist_layout *L = sk__dist_get_layout(d);
  const int64_t n = L->nglobal, nl = L->nlocal;
  CHECK_EQ_INT(sk_model_get_n(m), n);
  CHECK(sk_model_has_jacobian(m));
  /* rank-contiguous index -> serial global index, from the block extents:
   * local state s = ncomp (a + cnt0 (b + cnt1 c)) + comp of this rank */
  int64_t *mine = malloc((size_t)nl * sizeof *mine), *perm = malloc((size_t)n * sizeof *perm);
  for (int64_t s = 0; s < nl; s++) {
    const int64_t ln = s / L->ncomp, comp = s % L->ncomp;
    const int64_t a = ln % L->cnt[0], b = (ln / L->cnt[0]) % L->cnt[1];
    const int64_t c = ln / (L->cnt[0] * L->cnt[1]);
    const int64_t node = (L->lo[0] + a) + L->n[0] * ((L->lo[1] + b) + L->n[1] * (L->lo[2] + c));
    mine[s] = node * L->ncomp + comp;
  }
  CHECK_EQ_INT(nl * L->nranks, n); /* equal blocks: the rank-contiguous numbering covers [0, n) */
  MPI_Allgather(mine, (int)nl, MPI_INT64_T, perm, (int)nl, MPI_INT64_T, MPI_COMM_WORLD);
  /* the global state, this rank's block, the rows' inputs as the AMG setup makes them */
  double *y = malloc((size_t)n * sizeof *y), *yl = malloc((size_t)nl * sizeof *yl);
  unsigned long long seed = 4242;
  for (int64_t i = 0; i < n; i++) {
    y[i] = shift + scale * mpi_rnd(&seed);
  }
  sk__dist_local_from_global(d, y, yl);
  const double *gh = NULL;
  CHECK_OK(ctx, sk__dist_halo_values(d, yl, &gh));
  sk__dist_prepare_rows(d, 0.3);
  /* the serial analytic Jacobian (CSC), transposed to rows */
  const int64_t *colptr = NULL, *rowind = NULL;
  int64_t nnz = 0;
  sk_model_get_jac_pattern(m, &colptr, &rowind, &nnz);
  double *fs = malloc((size_t)n * sizeof *fs), *jv = malloc((size_t)nnz * sizeof *jv);
  CHECK_OK(ctx, sk_model_eval_rhs(m, 0.3, y, fs));
  CHECK_OK(ctx, sk_model_eval_jac(m, 0.3, y, fs, jv));
  CHECK_EQ_INT(sk_model_get_fd_rhs_evals(m), 0); /* the values callback, not differences */
  int64_t *rp = calloc((size_t)n + 1, sizeof *rp), *rc = malloc((size_t)nnz * sizeof *rc);
  double *rv = malloc((size_t)nnz * sizeof *rv);
  for (int64_t p = 0; p < nnz; p++) {
    rp[rowind[p] + 1]++;
  }
  for (int64_t i = 0; i < n; i++) {
    rp[i + 1] += rp[i];
  }
  int64_t *fill = malloc((size_t)n * sizeof *fill);
  memcpy(fill, rp, (size_t)n * sizeof *fill);
  for (int64_t col = 0; col < n; col++) {
    for (int64_t p = colptr[col]; p < colptr[col + 1]; p++) {
      const int64_t at = fill[rowind[p]]++;
      rc[at] = col;
      rv[at] = jv[p];
    }
  }
  /* row by row: the merged distributed entries against the serial row (dense scratch) */
  double *dval = calloc((size_t)n, sizeof *dval), *sval = calloc((size_t)n, sizeof *sval);
  char *dhas = calloc((size_t)n, 1), *shas = calloc((size_t)n, 1);
  int64_t badcount = 0, badcol = 0, badkey = 0, missing = 0, extra = 0, differ = 0, compared = 0;
  double worst = 0.0;
  for (int64_t r = 0; r < nl; r++) {
    const int64_t R = perm[(int64_t)L->rank * nl + r];
    int64_t cols[16];
    int keys[16];
    double vals[16];
    const int cnt = sk__dist_row(d, r, cols, keys, vals);
    if (cnt < 1 || cnt > 8) { /* the AMG rows hold at most 8 raw entries per row */
      badcount++;
      continue;
    }
    for (int k = 0; k < cnt; k++) {
      if (cols[k] < 0 || cols[k] >= n) {
        badcol++;
        continue;
      }
      const int64_t C = perm[cols[k]];
      /* the multigrid's stencil key: the serial positions' offset and C's component */
      badkey += keys[k] != serial_key(L, R, C);
      if (!dhas[C]) {
        dhas[C] = 1;
        dval[C] = 0.0;
      }
      dval[C] += vals[k];
    }
    for (int64_t p = rp[R]; p < rp[R + 1]; p++) {
      shas[rc[p]] = 1;
      sval[rc[p]] = rv[p];
    }
    for (int64_t C = 0; C < n; C++) {
      if (!dhas[C] && !shas[C]) {
        continue;
      }
      if (dhas[C] != shas[C]) {
        missing += shas[C];
        extra += dhas[C];
        if (missing + extra == 1) {
          fprintf(stderr, "%s ...: rank %d row %lld (serial %lld): column %lld %s\n", set[0],
                  L->rank, (long long)r, (long long)R, (long long)C,
                  shas[C] ? "missing in the distributed row" : "not in the serial row");
        }
      } else {
        compared++;
        const double a = dval[C], b = sval[C];
        const double scl = fmax(fabs(a), fabs(b));
        const double rel = scl > 0.0 ? fabs(a - b) / scl : 0.0;
        worst = fmax(worst, rel);
        const int ok = rtol > 0.0 ? fabs(a - b) <= rtol * scl : memcmp(&a, &b, sizeof a) == 0;
        if (!ok && differ++ == 0) {
          fprintf(stderr,
                  "%s ...: rank %d row %lld (serial %lld) column %lld: dist %.17g serial %.17g\n",
                  set[0], L->rank, (long long)r, (long long)R, (long long)C, a, b);
        }
      }
      dhas[C] = shas[C] = 0;
      dval[C] = sval[C] = 0.0;
    }
  }
  CHECK_EQ_INT(badcount, 0);
  CHECK_EQ_INT(badcol, 0);
  CHECK_EQ_INT(badkey, 0);
  CHECK_EQ_INT(missing, 0);
  CHECK_EQ_INT(extra, 0);
  CHECK_EQ_INT(differ, 0);
  /* every serial entry of every row was compared once over the ranks */
  MPI_Allreduce(MPI_IN_PLACE, &compared, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (g_rank == 0) {
    printf("jacobian rows %s ...: %lld entries, max relative difference %.3g\n", set[0],
           (long long)compared, worst);
  }
  CHECK_EQ_INT(compared, nnz);
  free(mine);
  free(perm);
  free(y);
  free(yl);
  free(fs);
  free(jv);
  free(rp);
  free(rc);
  free(rv);
  free(fill);
  free(dval);
  free(sval);
  free(dhas);
  free(shas);
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
    st =
        sk_context_set_error(ctx, g_rank == 1 ? SK_ERR_MISSING : SK_ERR_IO, "failure %d", g_rank);
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
  const char *h3x[] = {"model.dim=3", "model.n=8,2,2", "parallel.decomposition=" /* set below */,
                       NULL};
  (void)h3x;
  const char *hb[] = {"model.type=brusselator", "model.n=8", NULL};
  check_halo(ctx, hb);
  const char *h1[] = {"model.dim=1", "model.n=12", NULL};
  check_halo(ctx, h1);

  /* heat 2D: variable k (beta, kgrad), Dirichlet values, a source */
  const char *r2[] = {"model.n=13,8",         "model.beta=0.3",      "model.kgrad=0.5,-0.2",
                      "model.bc.x0.value=1",  "model.bc.x1.value=2", "model.bc.y0.value=0.5",
                      "model.bc.y1.value=-1", "model.source=0.7",    "model.exact=none",
                      "model.ic=constant",    "model.ic_value=0.4",  NULL};
  check_rhs(ctx, r2, 1.0, 0.0);
  /* heat 2D: constant k (the serial fast path), the exact mode as initial state */
  const char *r2c[] = {"model.n=16,12", "model.k0=2.5", "model.length=2,1", NULL};
  check_rhs(ctx, r2c, 1.0, -0.5);
  /* heat 3D, variable k and constant k */
  const char *r3[] = {"model.dim=3",
                      "model.n=8,4,6",
                      "model.beta=-0.2",
                      "model.kgrad=0.1,0.2,0.3",
                      "model.bc.z1.value=3",
                      "model.bc.x0.value=-1",
                      "model.exact=none",
                      "model.ic=constant",
                      NULL};
  check_rhs(ctx, r3, 2.0, 0.0);
  const char *r3c[] = {"model.dim=3", "model.n=4,8,4", "model.semidiscrete=true", NULL};
  check_rhs(ctx, r3c, 1.0, 0.0);
  /* heat 1D */
  const char *r1[] = {"model.dim=1",      "model.n=16",        "model.beta=0.1",
                      "model.exact=none", "model.ic=constant", NULL};
  check_rhs(ctx, r1, 1.0, 0.0);
  /* heat 2D: variable k with a Neumann side (heat flux 0.5), a Robin side (c = 2, u_inf =
     0.3) beside Dirichlet ones: the half volumes and boundary fluxes of the shared stencil */
  const char *r2n[] = {"model.n=12,10",
                       "model.beta=0.2",
                       "model.kgrad=0.3,0.1",
                       "model.bc.x1.type=neumann",
                       "model.bc.x1.value=0.5",
                       "model.bc.y0.type=robin",
                       "model.bc.y0.coeff=2",
                       "model.bc.y0.value=0.3",
                       "model.bc.x0.value=1",
                       "model.source=0.4",
                       "model.exact=none",
                       "model.ic=constant",
                       NULL};
  check_rhs(ctx, r2n, 1.0, 0.0);
  /* heat 3D: the manufactured solution (time-dependent boundary data and source) with
     Robin, Neumann and Dirichlet sides, as data/heat3d_robin.yaml */
  const char *r3m[] = {"model.dim=3",
                       "model.n=6,4,8",
                       "model.k0=0.5",
                       "model.beta=0.2",
                       "model.kgrad=0.5,0,0",
                       "model.exact=manufactured",
                       "model.offset=1",
                       "model.bc.x0.type=robin",
                       "model.bc.x0.coeff=2",
                       "model.bc.x1.type=neumann",
                       "model.bc.z1.type=robin",
                       "model.bc.z1.coeff=5",
                       NULL};
  check_rhs(ctx, r3m, 1.0, 1.0);
  /* heat 1D: Neumann on both sides, the cosine mode as initial state (constant k) */
  const char *r1n[] = {"model.dim=1",
                       "model.n=16",
                       "model.mode=2",
                       "model.bc.x0.type=neumann",
                       "model.bc.x1.type=neumann",
                       NULL};
  check_rhs(ctx, r1n, 1.0, 0.0);
  /* Brusselator (mirrored zero-flux stencil, interleaved u, v) */
  const char *rb[] = {"model.type=brusselator", "model.n=12", "model.brusselator.alpha=0.01",
                      NULL};
  check_rhs(ctx, rb, 3.0, 0.2);
  /* Brusselator with an explicit 1D split */
  char dec[64];
  snprintf(dec, sizeof dec, "parallel.decomposition=1,%d", g_size);
  const char *rb1[] = {"model.type=brusselator", "model.n=8", dec, NULL};
  check_rhs(ctx, rb1, 1.0, 0.0);

  /* (d) the AMG Jacobian rows against the serial analytic Jacobian (rtol: see check_jac_rows) */
  check_jac_rows(ctx, r2, 1.0, 0.0, 1e-13);
  check_jac_rows(ctx, r3, 2.0, 0.0, 1e-13);
  check_jac_rows(ctx, r1, 1.0, 0.0, 1e-13);
  check_jac_rows(ctx, r2n, 1.0, 0.0, 1e-13);
  check_jac_rows(ctx, r3m, 1.0, 1.0, 1e-13);
  check_jac_rows(ctx, r1n, 1.0, 0.0, 1e-13);
  check_jac_rows(ctx, rb, 3.0, 0.2, 0.0);
  check_jac_rows(ctx, rb1, 1.0, 0.0, 0.0);

  if (g_size > 1) {
    check_agree(ctx);
  }
  sk_context_destroy(&ctx);
  const int rc = mpi_verdict();
  MPI_Finalize();
  return rc;
}

/* tests/mpi/test_dist_run.c: full CVODE runs on the ranks (bbd, amg, mg, none) against the serial cvode-bdf run and the exact mode; a NaN on one rank fails every rank alike */
#define _POSIX_C_SOURCE 200809L
#include "mpi_util.h"

static int g_rank, g_size;

/* The serial stiffkit run of the same options (cvode-bdf, the serial
 * backend's own linear solver choice: linsol.preconditioner back to auto,
 * since a serial bbd is one band block of the whole Jacobian, a different
 * and slower preconditioner; mg stays mg, the same multigrid on one block,
 * with a hierarchy at every setup as the distributed runs build: no hand-off
 * to the model's ADI, linsol.mg_model_below=0) to t_end; y (length n) and the
 * counters on return. */
static int serial_run(sk_context *ctx, sk_options *o, double t_end, double *y, int64_t n,
                      sk_stats *st)
{
  sk_model *m = NULL;
  sk_stepper *s = NULL;
  double t = 0.0;
  int ok = 0;
  const char *pc = NULL;
  CHECK_OK(ctx, sk_options_get_string(o, "linsol.preconditioner", &pc));
  if (!pc || strcmp(pc, "mg") != 0) {
    CHECK_OK(ctx, sk_options_set(o, "linsol.preconditioner", "auto", NULL));
  } else { /* the Krylov solver of the distributed runs (auto takes klu on small grids) */
    CHECK_OK(ctx, sk_options_set(o, "linsol.type", "spgmr", NULL));
    CHECK_OK(ctx, sk_options_set(o, "linsol.mg_model_below", "0", NULL));
  }
  CHECK_OK(ctx, sk_model_from_options(ctx, o, &m));
  if (m && sk_model_get_n(m) == n) {
    CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
    if (s) {
      CHECK_OK(ctx, sk_stepper_set_from_options(s, o));
      CHECK_OK(ctx, sk_stepper_setup(s));
      CHECK_OK(ctx, sk_stepper_advance(s, t_end, &t));
      memcpy(y, sk_stepper_get_state(s), (size_t)n * sizeof *y);
      CHECK_OK(ctx, sk_stepper_get_stats(s, st));
      ok = 1;
    }
  }
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
  return ok;
}

/* Max |a - b| / (max |b| + atol). */
static double rel_diff(const double *a, const double *b, int64_t n, double atol)
{
  double dmax = 0.0, bmax = 0.0;
  for (int64_t i = 0; i < n; i++) {
    dmax = fmax(dmax, fabs(a[i] - b[i]));
    bmax = fmax(bmax, fabs(b[i]));
  }
  return dmax / (bmax + atol);
}

/* (d) one distributed run to t_end, compared on rank 0 with the serial run
 * (and the exact semi-discrete mode for heat). Tolerance: both runs control
 * the local error at rtol = 1e-6; the global errors of such BDF runs over
 * a few hundred steps stay within 100 rtol of the solution's size (the
 * serial backend's conformance tests use the same factor), so two of them
 * differ by at most 2 x 100 rtol = 2e-4 relative to max |y|. */
static void check_run(sk_context *ctx, const char *label, const char *const *set, double t_end,
                      int exact)
{
  const double rtol = 1e-6, tol = 2e-4;
  sk_options *o = NULL;
  sk__dist *d = mpi_dist(ctx, set, &o);
  if (!d) {
    return;
  }
  const sk__dist_layout *L = sk__dist_get_layout(d);
  const int64_t n = L->nglobal;
  double t = 0.0;
  /* two output times: the second advance continues from the first */
  CHECK_OK(ctx, sk__dist_advance(d, 0.5 * t_end, &t));
  CHECK_OK(ctx, sk__dist_advance(d, t_end, &t));
  CHECK_NEAR(t, t_end, 0, 0);
  double *yd = g_rank == 0 ? malloc((size_t)n * sizeof *yd) : NULL;
  CHECK_OK(ctx, sk__dist_gather(d, 0, yd));
  sk_stats st;
  sk__dist_get_stats(d, &st);
  CHECK(st.steps > 0 && st.newton_iters > 0);
  /* the counters are the same on every rank */
  long long mine[3] = {(long long)st.steps, (long long)st.lin_iters,
                       (long long)st.rhs_evals - (long long)st.rhs_evals_dq};
  long long hi[3];
  MPI_Allreduce(mine, hi, 3, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  CHECK(hi[0] == mine[0] && hi[1] == mine[1] && hi[2] == mine[2]);
  if (g_rank == 0) {
    double *ys = malloc((size_t)n * sizeof *ys);
    sk_stats ss;
    if (serial_run(ctx, o, t_end, ys, n, &ss)) {
      const double e = rel_diff(yd, ys, n, 1e-9);
      printf(
          "%-26s ranks %d prec %-4s steps %4lld newton %4lld lin %5lld  |dist - serial| = %.2e "
          "(serial: steps %lld newton %lld lin %lld)\n",
          label, g_size, L->prec, (long long)st.steps, (long long)st.newton_iters,
          (long long)st.lin_iters, e, (long long)ss.steps, (long long)ss.newton_iters,
          (long long)ss.lin_iters);
      CHECK(e <= tol);
      if (!strcmp(L->prec, "mg")) {
        /* PFMG's coarsening and red/black ordering follow the global
         * indices, not the blocks: the distributed multigrid is the serial
         * one up to rounding, so it preconditions as well (linear
         * iterations per Newton iteration within 1.5x of the serial mg's,
         * the flatness bound of the scaling benchmark) */
        const double rd = (double)st.lin_iters / (double)st.newton_iters;
        const double rs =
            (double)ss.lin_iters / (double)(ss.newton_iters > 0 ? ss.newton_iters : 1);
        CHECK(rd <= 1.5 * rs + 0.1 && rs <= 1.5 * rd + 0.1);
      }
    }
    if (exact) {
      sk_model *m = NULL;
      CHECK_OK(ctx, sk_model_from_options(ctx, o, &m));
      if (m) {
        double *ye = malloc((size_t)n * sizeof *ye);
        CHECK_OK(ctx, sk_model_eval_exact(m, t_end, ye));
        const double e = rel_diff(yd, ye, n, 1e-9);
        printf("%-26s |dist - exact| = %.2e\n", label, e);
        CHECK(e <= 100 * rtol);
        free(ye);
      }
      sk_model_destroy(&m);
    }
    free(ys);
    /* the description names the decomposition and the preconditioner */
    char buf[2048] = "";
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    if (f) {
      sk__dist_describe_yaml(d, f);
      fclose(f);
      CHECK_STR_CONTAINS(buf, "ranks: ");
      CHECK_STR_CONTAINS(buf, "preconditioner: ");
      CHECK_STR_CONTAINS(buf, "halo_bytes_per_exchange: ");
    }
  }
  free(yd);
  sk__dist_destroy(&d);
  sk_options_destroy(&o);
}

/* (e) NaN in one component of the last rank's block from t = 0.01: every
 * rank returns SK_ERR_NONFINITE with the same message naming the component
 * and the rank (the test timeout guards against a hang). */
static void check_nan(sk_context *ctx)
{
  const char *set[] = {"model.n=16,16", "linsol.preconditioner=bbd", NULL};
  sk_options *o = NULL;
  sk__dist *d = mpi_dist(ctx, set, &o);
  if (!d) {
    return;
  }
  /* the last node of the grid is on the last rank (coordinates p - 1 in every direction) */
  const int64_t comp = 16 * 16 - 1;
  CHECK_OK(ctx, sk__dist_inject_nan(d, comp, 0.01));
  CHECK_EQ_INT(sk__dist_inject_nan(d, 16 * 16, 0.0), SK_ERR_ARG);
  CHECK_OK(ctx, sk__dist_inject_nan(d, comp, 0.01));
  double t = 0.0;
  const sk_status st = sk__dist_advance(d, 0.05, &t);
  CHECK_EQ_INT(st, SK_ERR_NONFINITE);
  CHECK(t >= 0.0 && t <= 0.0101);
  const char *msg = sk_context_get_error(ctx)->message;
  CHECK_STR_CONTAINS(msg, "component 255 (u[15,15])");
  char want[32];
  snprintf(want, sizeof want, "on rank %d", g_size - 1);
  CHECK_STR_CONTAINS(msg, want);
  /* the same status and message on every rank */
  char *all = g_rank == 0 ? malloc((size_t)g_size * SK_ERROR_MSG_LEN) : NULL;
  int *codes = g_rank == 0 ? malloc((size_t)g_size * sizeof *codes) : NULL;
  char mine[SK_ERROR_MSG_LEN];
  snprintf(mine, sizeof mine, "%s", msg);
  int code = (int)st;
  MPI_Gather(mine, SK_ERROR_MSG_LEN, MPI_CHAR, all, SK_ERROR_MSG_LEN, MPI_CHAR, 0,
             MPI_COMM_WORLD);
  MPI_Gather(&code, 1, MPI_INT, codes, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (g_rank == 0) {
    for (int r = 1; r < g_size; r++) {
      CHECK_EQ_INT(codes[r], codes[0]);
      CHECK(strcmp(all + (size_t)r * SK_ERROR_MSG_LEN, all) == 0);
    }
    printf("NaN run: %s\n", all);
  }
  free(all);
  free(codes);
  sk__dist_destroy(&d);
  sk_options_destroy(&o);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));

  /* heat 2D, exact semi-discrete mode (decays by e^-1 over t = 0.05) */
  const char *heat_bbd[] = {"model.n=16,16", "model.semidiscrete=true", "solver.t_end=0.05",
                            "linsol.preconditioner=bbd", NULL};
  check_run(ctx, "heat-2d", heat_bbd, 0.05, 1);
  const char *heat_amg[] = {"model.n=16,16", "model.semidiscrete=true",
                            "linsol.preconditioner=amg", NULL};
  check_run(ctx, "heat-2d", heat_amg, 0.05, 1);
  const char *heat_none[] = {"model.n=16,16", "model.semidiscrete=true",
                             "linsol.preconditioner=none", "linsol.maxl=30", NULL};
  check_run(ctx, "heat-2d", heat_none, 0.05, 1);
  /* heat 3D with AMG, and nonlinear 2D heat with a source (no exact solution) */
  const char *heat3[] = {"model.dim=3", "model.n=8,8,8", "model.semidiscrete=true",
                         "linsol.preconditioner=amg", NULL};
  check_run(ctx, "heat-3d", heat3, 0.02, 1);
  const char *heatnl[] = {"model.n=16,8",
                          "model.beta=0.5",
                          "model.kgrad=0.3",
                          "model.exact=none",
                          "model.ic=constant",
                          "model.ic_value=1",
                          "model.bc.x1.value=2",
                          "model.source=1",
                          "linsol.preconditioner=amg",
                          NULL};
  check_run(ctx, "heat-2d-nonlinear(amg)", heatnl, 0.05, 0);
  /* Brusselator: bbd (its model-own choice), amg, none */
  const char *br_bbd[] = {"model.type=brusselator", "model.n=16", "model.brusselator.alpha=0.01",
                          "linsol.preconditioner=model", NULL};
  check_run(ctx, "brusselator", br_bbd, 1.0, 0);
  const char *br_amg[] = {"model.type=brusselator", "model.n=16", "model.brusselator.alpha=0.01",
                          "linsol.preconditioner=amg", NULL};
  check_run(ctx, "brusselator", br_amg, 1.0, 0);
  const char *br_none[] = {"model.type=brusselator", "model.n=16", "model.brusselator.alpha=0.01",
                           "linsol.preconditioner=none", NULL};
  check_run(ctx, "brusselator", br_none, 1.0, 0);

  /* the structured multigrid on the blocks: 1D, 2D, 3D, nonlinear k, the Brusselator (SysPFMG) */
  const char *heat1_mg[] = {"model.dim=1", "model.n=64", "model.semidiscrete=true",
                            "linsol.preconditioner=mg", NULL};
  check_run(ctx, "heat-1d(mg)", heat1_mg, 0.05, 1);
  const char *heat_mg[] = {"model.n=32,32", "model.semidiscrete=true", "linsol.preconditioner=mg",
                           NULL};
  check_run(ctx, "heat-2d(mg)", heat_mg, 0.05, 1);
  const char *heat3_mg[] = {"model.dim=3", "model.n=8,8,8", "model.semidiscrete=true",
                            "linsol.preconditioner=mg", NULL};
  check_run(ctx, "heat-3d(mg)", heat3_mg, 0.02, 1);
  const char *heatnl_mg[] = {"model.n=16,8",
                             "model.beta=0.5",
                             "model.kgrad=0.3",
                             "model.exact=none",
                             "model.ic=constant",
                             "model.ic_value=1",
                             "model.bc.x1.value=2",
                             "model.source=1",
                             "linsol.preconditioner=mg",
                             NULL};
  check_run(ctx, "heat-2d-nonlinear(mg)", heatnl_mg, 0.05, 0);
  const char *br_mg[] = {"model.type=brusselator", "model.n=16", "model.brusselator.alpha=0.01",
                         "linsol.preconditioner=mg", NULL};
  check_run(ctx, "brusselator(mg)", br_mg, 1.0, 0);

  check_nan(ctx);
  sk_context_destroy(&ctx);
  const int rc = mpi_verdict();
  MPI_Finalize();
  return rc;
}

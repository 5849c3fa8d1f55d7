/* src/parallel/dist_run.c: one rank's distributed run: the block, its model and the cvode-bdf stepper that integrates it (the CVODE backend on NVECTOR_PARALLEL), advance, stats, provenance */
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "parallel/dist_impl.h"

/* The stepper's monitor: the caller's, after every internal step. */
static int step_monitor(const sk_stepper *s, double t, double h, void *data)
{
  (void)s;
  const sk__dist *d = data;
  return d->monitor ? d->monitor(t, h, d->monitor_data) : 0;
}

/* The cvode-bdf stepper of the block from the options (solver.*, linsol.*, CVODE's own keys,
 * read as for a serial run), with GMRES and the preconditioner of the layout: bbd is the
 * engine's own (CVBBDPRE on the distributed model), amg and mg the model's. Local. */
static sk_status make_stepper(sk__dist *d, const sk_options *opts)
{
  sk_context *ctx = d->ctx;
  SK_CALL(ctx, sk_stepper_create(ctx, "cvode-bdf", d->model, &d->stepper));
  SK_CALL(ctx, sk_stepper_set_from_options(d->stepper, opts));
  SK_CALL(ctx, sk_stepper_set_linear_solver(d->stepper, "spgmr"));
  const char *prec = !strcmp(d->L.prec, "amg") || !strcmp(d->L.prec, "mg") ? "model" : d->L.prec;
  SK_CALL(ctx, sk_stepper_set_preconditioner(d->stepper, prec));
  SK_CALL(ctx, sk_stepper_set_monitor(d->stepper, step_monitor, d));
  /* the launch's one OpenMP thread per rank stays (run_mpi.c) */
  SK_CALL(ctx, sk_stepper_set_threads(d->stepper, -1));
  return SK_OK;
}

/* Everything after the settings; every step agreed before the next collective one. */
static sk_status build(sk__dist *d, MPI_Comm comm, const sk_options *opts)
{
  sk_context *ctx = d->ctx;
  SK_CALL(ctx, sk__dist_agree(ctx, comm, sk__dist_setup_layout(d, comm)));
  sk_status st = d->s.model->create(ctx, opts, &d->B, &d->bm);
  st = st == SK_OK ? sk__halo_init(d) : st;
  SK_CALL(ctx, sk__dist_agree(ctx, d->comm, st)); /* before the preconditioner's collectives */
  SK_CALL(ctx, sk__dist_agree(ctx, d->comm, sk__dist_model_create(d)));
  SK_CALL(ctx, sk__dist_agree(ctx, d->comm, make_stepper(d, opts)));
  /* collective inside (the parallel vectors' global length): the setup's local checks come
     first, and every rank runs them alike */
  SK_CALL(ctx, sk__dist_agree(ctx, d->comm, sk_stepper_setup(d->stepper)));
  d->t_out = sk_stepper_get_t0(d->stepper);
  return SK_OK;
}

sk_status sk__dist_create(sk_context *ctx, MPI_Comm comm, const sk_options *opts, sk__dist **out)
{
  SK_CHECK(ctx, out != NULL && opts != NULL, SK_ERR_ARG, "sk__dist_create: NULL argument");
  *out = NULL;
  int nranks = 1;
  MPI_Comm_size(comm, &nranks);
  sk__dist_settings s;
  SK_CALL(ctx, sk__dist_agree(ctx, comm, sk__dist_read_settings(ctx, opts, nranks, &s)));
  sk__dist *d = sk__calloc(ctx, 1, sizeof *d);
  sk_status st = d ? SK_OK : SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the distributed run");
  st = sk__dist_agree(ctx, comm, st);
  if (st != SK_OK) {
    sk__free(ctx, d);
    return st;
  }
  d->ctx = ctx;
  d->s = s;
  d->comm = MPI_COMM_NULL;
  d->inject_local = -1;
  d->inject_global = -1;
  st = build(d, comm, opts);
  if (st != SK_OK) {
    sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
    sk__dist_destroy(&d);
    return st;
  }
  *out = d;
  return SK_OK;
}

const sk__dist_layout *sk__dist_get_layout(const sk__dist *d)
{
  return &d->L;
}

void sk__dist_set_monitor(sk__dist *d, int (*fn)(double t, double h, void *data), void *data)
{
  d->monitor = fn;
  d->monitor_data = data;
}

sk_status sk__dist_advance(sk__dist *d, double tout, double *t)
{
  const double w0 = MPI_Wtime();
  d->have_cb_error = 0;
  double reached = d->t_out;
  const sk_status st = sk_stepper_advance(d->stepper, tout, &reached);
  /* tout, or the last successful step's time after a failure */
  *t = st == SK_OK ? reached : sk_stepper_get_time(d->stepper);
  d->t_out = *t;
  d->wall += MPI_Wtime() - w0;
  /* the rank that saw the cause (a NaN in its block) speaks for all */
  return sk__dist_agree_ex(d->ctx, d->comm, st, d->have_cb_error);
}

sk_status sk__dist_gather(sk__dist *d, int root, double *y_global)
{
  SK_CALL(d->ctx, sk__dist_gather_vector(d, root, sk_stepper_get_state(d->stepper), y_global));
  return SK_OK;
}

void sk__dist_get_stats(sk__dist *d, sk_stats *st)
{
  memset(st, 0, sizeof *st);
  sk_stepper_get_stats(d->stepper, st);
  if (d->amg || d->mg) { /* the model's preconditioner evaluates J's rows itself */
    st->jac_evals = d->prec_jac_evals;
  }
  st->amg_hierarchies = d->amg ? st->lin_setups : 0; /* one at every setup */
  st->t = d->t_out;
  st->wall_time = d->wall;
}

void sk__dist_describe_yaml(const sk__dist *d, FILE *out)
{
  const sk__dist_layout *L = &d->L;
  int64_t halo = 0;
  for (int k = 0; k < L->dim; k++) {
    for (int s = 0; s < 2; s++) {
      halo += d->halo.nb[k][s] != MPI_PROC_NULL ? d->halo.face[k] : 0;
    }
  }
  fprintf(out, "ranks: %d\n", L->nranks);
  fprintf(out, "process_grid: [%d", L->procs[0]);
  for (int k = 1; k < L->dim; k++) {
    fprintf(out, ", %d", L->procs[k]);
  }
  fprintf(out, "]\nblock_nodes: [%lld", (long long)L->cnt[0]);
  for (int k = 1; k < L->dim; k++) {
    fprintf(out, ", %lld", (long long)L->cnt[k]);
  }
  fprintf(out, "]\nrank: %d\nblock_first_node: [%lld", L->rank, (long long)L->lo[0]);
  for (int k = 1; k < L->dim; k++) {
    fprintf(out, ", %lld", (long long)L->lo[k]);
  }
  fprintf(out, "]\nlocal_states: %lld\n", (long long)L->nlocal);
  fprintf(out, "preconditioner: %s\n", L->prec);
  if (!strcmp(L->prec, "bbd")) {
    fprintf(out, "bbd_half_bandwidth: {difference_quotient: %lld, kept: %lld}\n",
            (long long)L->bbd_band[0], (long long)L->bbd_band[1]);
  }
  if (d->mg) {
    char line[256];
    sk__mg_report(d->mg, d->s.mg.cycles, line, sizeof line);
    fprintf(out, "multigrid: \"%s\"\n", line);
  }
  fprintf(out, "halo_bytes_per_exchange: %lld\n", (long long)(halo * (int64_t)sizeof(double)));
}

void sk__dist_prec_report(const sk__dist *d, char *buf, size_t cap)
{
  sk__mg_report(d->mg, d->s.mg.cycles, buf, cap);
}

void sk__dist_destroy(sk__dist **dp)
{
  if (!dp || !*dp) {
    return;
  }
  sk__dist *d = *dp;
  sk_context *ctx = d->ctx;
  sk_stepper_destroy(&d->stepper);
  sk_model_destroy(&d->model);
  sk__dist_free_prec(d);
  sk__halo_free(d);
  if (d->bm) {
    d->s.model->destroy(&d->bm);
  }
  sk__free(ctx, d->B.ug);
  sk__free(ctx, d->rank_of);
  if (d->comm != MPI_COMM_NULL) {
    MPI_Comm_free(&d->comm);
  }
  sk__free(ctx, d);
  *dp = NULL;
}

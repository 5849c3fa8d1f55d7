/* src/cli/parallel/run_mpi.c: `stiffkit run` on one MPI rank: agreed options, the decomposed model, outputs gathered to rank 0 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "cli/checkpointing.h"
#include "cli/cli.h"
#include "cli/dist_run.h"
#include "cli/job.h"
#include "cli/progress.h"
#include "cli/run_report.h"
#include "core/error.h"
#include "core/threads.h"
#include "parallel/dist.h"
#include "io/checkpoint.h"
#include "steppers/stepper_keys.h"

/* One rank's run. Rank 0 (the root) alone builds the serial model (names,
 * probes, exact solution, grid coordinates for the files), holds the
 * gathered state and writes the result files; every rank takes the same
 * steps, so every status below is agreed (sk__dist_agree) before the ranks
 * could take different paths. */
typedef struct {
  sk_context *ctx;
  MPI_Comm comm;
  int rank, nranks;
  const cli_args *args;
  cli_job job;
  sk__dist *d;
  double *y; /* root: the global state */
  cli_progress progress;
  volatile sig_atomic_t *stop_signal;
  int signal; /* the stop signal any rank received (0: none) */
} dist_run;

static sk_status agree(dist_run *r, sk_status st)
{
  return sk__dist_agree(r->ctx, r->comm, st);
}

/* Every rank must run the same problem: compare a hash of the effective
 * options (config file and --set) across the ranks. */
static sk_status check_same_options(dist_run *r)
{
  /* every rank enters the Allgather, also one that could not hash (it sends 0 and fails) */
  char *eff = sk_options_effective_string(r->job.opts);
  const int hashed = eff != NULL;
  uint64_t h = hashed ? sk__fnv1a64(SK__FNV1A64_INIT, eff, strlen(eff)) : 0;
  free(eff);
  uint64_t *all = calloc((size_t)r->nranks, sizeof *all);
  uint64_t one = 0;
  MPI_Allgather(&h, 1, MPI_UINT64_T, all ? all : &one, all ? 1 : 0, MPI_UINT64_T, r->comm);
  SK_CHECK(r->ctx, hashed && all != NULL, SK_ERR_NOMEM,
           "cannot format or compare the effective options");
  int odd = -1;
  for (int k = 1; k < r->nranks && odd < 0; k++) {
    if (all[k] != all[0]) {
      odd = k;
    }
  }
  const uint64_t h0 = all[0], hk = odd >= 0 ? all[odd] : 0;
  free(all);
  SK_CHECK(r->ctx, odd < 0, SK_ERR_INPUT,
           "the effective options differ between ranks: rank %d has hash %016" PRIx64
           ", rank 0 %016" PRIx64 "; every rank must read the same config file (the same "
           "contents on every node) with the same --set options",
           odd, hk, h0);
  return SK_OK;
}

/* What a distributed run cannot do (yet): say so before anything runs. */
static sk_status check_run_features(dist_run *r)
{
  const cli_args *a = r->args;
  SK_CHECK(r->ctx, !a->restart && !a->resume, SK_ERR_UNSUPPORTED,
           "%s: distributed runs write no checkpoints to continue from (run without mpirun "
           "for checkpoint/restart)",
           a->restart ? "--restart" : "--resume");
  const char *key = cli_checkpoint_interval_key(r->job.opts);
  SK_CHECK(r->ctx, key == NULL, SK_ERR_UNSUPPORTED,
           "%s: distributed runs write no checkpoints (run without mpirun for "
           "checkpoint/restart)",
           key);
  return SK_OK;
}

/* Options, model, outputs: the steps before the first result file. */
static sk_status prepare(dist_run *r)
{
  sk_context *ctx = r->ctx;
  cli_job *job = &r->job;
  const cli_args *a = r->args;
  sk_status st = cli_job_options(ctx, job);
  if (st == SK_OK) {
    st = cli_job_load(ctx, job, a->config, a->sets, a->nsets);
  }
  SK_CALL(ctx, agree(r, st));
  SK_CALL(ctx, agree(r, check_same_options(r)));
  SK_CALL(ctx, agree(r, check_run_features(r)));
  SK_CALL(ctx, agree(r, sk__dist_check_options(ctx, job->opts, r->nranks)));
  /* ranks share the node's cores: one thread each, unless solver.threads or OMP_NUM_THREADS
     asks for more */
  sk__stepper_settings solver;
  uint64_t given;
  SK_CALL(ctx, sk__stepper_settings_read(job->opts, &solver, &given));
  int64_t threads = solver.threads;
  if (threads == 0 && !getenv("OMP_NUM_THREADS")) {
    threads = 1;
  }
  SK_CALL(ctx, agree(r, sk__threads_set(ctx, threads)));
  if (r->rank == 0) { /* the serial model describes the global state for the files */
    st = cli_job_build_model(ctx, job);
    if (st == SK_OK) {
      st = cli_job_prepare_outputs(ctx, job);
    }
  } else {
    st = cli_job_output_times(ctx, job);
  }
  SK_CALL(ctx, agree(r, st));
  SK_CALL(ctx, sk__dist_create(ctx, r->comm, job->opts, &r->d));
  const sk__dist_layout *L = sk__dist_get_layout(r->d);
  if (a->inject) {
    long long comp;
    double tinj;
    sscanf(a->inject, "nan:comp=%lld:t=%lf", &comp, &tinj); /* checked by cmd_run.c */
    SK_CALL(ctx, agree(r, sk__dist_inject_nan(r->d, (int64_t)comp, tinj)));
  }
  job->method = "cvode-bdf";
  snprintf(job->linsol, sizeof job->linsol, "spgmr");
  snprintf(job->prec, sizeof job->prec, "%s", L->prec);
  job->rtol = solver.rtol;
  job->atol = solver.atol;
  st = SK_OK;
  if (r->rank == 0) {
    r->y = malloc((size_t)L->nglobal * sizeof *r->y);
    st = r->y ? cli_job_open_results(ctx, job)
              : SK_ERROR(ctx, SK_ERR_NOMEM, "rank 0 cannot hold the gathered state (%lld values)",
                         (long long)L->nglobal);
  }
  return agree(r, st);
}

/* Progress on rank 0, and the stop signal of any rank, after every step. */
static int monitor(double t, double h, void *data)
{
  dist_run *r = data;
  if (r->rank == 0) {
    cli_progress_monitor(NULL, t, h, &r->progress);
  }
  int mine = (int)*r->stop_signal, any = 0;
  MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, r->comm);
  r->signal = any;
  return any != 0;
}

/* Gather the state to rank 0 and write the output row at t there. */
static sk_status output(dist_run *r, double t)
{
  SK_CALL(r->ctx, sk__dist_gather(r->d, 0, r->rank == 0 ? r->y : NULL));
  return agree(r, r->rank == 0 ? cli_job_write(r->ctx, &r->job, t, r->y) : SK_OK);
}

static sk_status integrate(dist_run *r)
{
  cli_job *job = &r->job;
  double t = job->t0;
  SK_CALL(r->ctx, output(r, t));
  for (size_t k = 0; k < job->ntimes; k++) {
    sk_status st = sk__dist_advance(r->d, job->times[k], &t);
    if (st == SK_INTERRUPTED && r->signal) {
      return SK_ERROR(r->ctx, SK_INTERRUPTED,
                      "run interrupted by %s at t=%.6e; the results so far are kept (distributed "
                      "runs write no checkpoint: rerun from t0)",
                      cli_signal_name(r->signal), t);
    }
    if (st != SK_OK) {
      return st;
    }
    SK_CALL(r->ctx, output(r, job->times[k]));
  }
  if (r->rank == 0 && job->exact) {
    cli_job_record_error(job, r->y);
  }
  return SK_OK;
}

/* The provenance's parallel block: "parallel:" and the layout, indented. */
static char *parallel_yaml(const dist_run *r)
{
  char *body = NULL, *out = NULL;
  size_t blen = 0, olen = 0;
  FILE *f = open_memstream(&body, &blen);
  if (!f) {
    return NULL;
  }
  sk__dist_describe_yaml(r->d, f);
  fclose(f);
  FILE *o = open_memstream(&out, &olen);
  if (o && body) {
    fputs("parallel:\n", o);
    for (const char *line = body; *line;) {
      const char *nl = strchr(line, '\n');
      const size_t len = nl ? (size_t)(nl - line) + 1 : strlen(line);
      fprintf(o, "  %.*s", (int)len, line);
      line += len;
    }
    if (blen > 0 && body[blen - 1] != '\n') {
      fputc('\n', o);
    }
  }
  if (o) {
    fclose(o);
  }
  free(body);
  return out;
}

/* Finish (or keep as partial) the files on rank 0 and report; the exit
 * code of rank 0 is every rank's. */
static int finish(dist_run *r, sk_status st, int argc, char **argv)
{
  cli_job *job = &r->job;
  sk_stats stats;
  memset(&stats, 0, sizeof stats);
  if (r->d) {
    sk__dist_get_stats(r->d, &stats);
  }
  int code = 0;
  if (r->rank == 0) {
    char *json = cli_stats_json(&stats);
    char *par = r->d ? parallel_yaml(r) : NULL;
    const sk_status fst = cli_job_close_results(r->ctx, job, st, json, par, argc, argv);
    if (st == SK_OK) {
      st = fst;
    }
    if (st == SK_OK) {
      const sk__dist_layout *L = sk__dist_get_layout(r->d);
      char line[512], prec[256];
      int len = snprintf(line, sizeof line,
                         "distributed over %d ranks, process grid %d x %d x %d, %lld states per "
                         "rank\n",
                         L->nranks, L->procs[0], L->procs[1], L->procs[2], (long long)L->nlocal);
      sk__dist_prec_report(r->d, prec, sizeof prec);
      if (prec[0] && len > 0 && (size_t)len < sizeof line) {
        snprintf(line + len, sizeof line - (size_t)len, "preconditioner %s on rank 0: %s\n",
                 L->prec, prec);
      }
      code = cli_run_report(job, &stats, r->args, r->y, line);
    } else {
      code = cli_report(r->ctx, st);
      for (int i = 0; i < job->nfiles; i++) {
        fprintf(stderr, "stiffkit: kept incomplete output %s\n", job->files[i]);
      }
    }
    free(json);
    free(par);
  }
  MPI_Bcast(&code, 1, MPI_INT, 0, r->comm);
  return code;
}

int cli_dist_run_mpi(sk_context *ctx, const cli_args *args, int argc, char **argv,
                     volatile sig_atomic_t *stop_signal)
{
  int initialized = 0, provided = 0;
  MPI_Initialized(&initialized);
  if (!initialized &&
      MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
    fprintf(stderr, "stiffkit: error: MPI_Init failed: the distributed run cannot start\n");
    return SK_EXIT_INTERNAL;
  }
  if (initialized) {
    MPI_Query_thread(&provided);
  }
  if (provided < MPI_THREAD_FUNNELED) { /* OpenMP threads run beside the rank's MPI calls */
    fprintf(stderr,
            "stiffkit: error: the MPI library offers no MPI_THREAD_FUNNELED support "
            "(level %d): the distributed run cannot start\n",
            provided);
    if (!initialized) {
      MPI_Finalize();
    }
    return SK_EXIT_UNAVAILABLE;
  }
  dist_run r;
  memset(&r, 0, sizeof r);
  r.ctx = ctx;
  r.comm = MPI_COMM_WORLD;
  r.args = args;
  r.stop_signal = stop_signal;
  MPI_Comm_rank(r.comm, &r.rank);
  MPI_Comm_size(r.comm, &r.nranks);
  cli_job_init(&r.job);
  if (r.rank != 0) { /* one voice: rank 0 prints, the others log nothing */
    sk_context_set_log(ctx, SK_LOG_ERROR, NULL, NULL);
  }
  sk_status st = prepare(&r);
  if (st == SK_OK) {
    cli_progress_init(&r.progress, args->quiet || r.rank != 0, r.job.t0, r.job.t_end);
    sk__dist_set_monitor(r.d, monitor, &r);
    st = integrate(&r);
    cli_progress_done(&r.progress);
  }
  const int code = finish(&r, st, argc, argv);
  sk__dist_destroy(&r.d);
  free(r.y);
  cli_job_free(&r.job);
  if (!initialized) {
    MPI_Finalize();
  }
  return code;
}

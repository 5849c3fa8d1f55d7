/* src/cli/job.c: one run of the CLI: options, model, engine, output times, result files */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/bench_keys.h"
#include "io/results.h"
#include "cli/dead_temps.h"
#include "cli/job.h"
#include "cli/run_complete.h"
#include "parallel/dist_keys.h"
#include "core/error.h"
#include "core/stop.h"
#include "cli/output_keys.h"
#include "stiffkit/provenance.h"
#include "steppers/stepper_keys.h"

/* The embedded default job: the 2D heat equation u_t = u_xx + u_yy on the
 * unit square, homogeneous Dirichlet sides, u0 = sin(pi x) sin(pi y), whose
 * exact solution is exp(-2 pi^2 t) sin(pi x) sin(pi y). */
static const char *const embedded_default_job[] = {
    "model.type=diffusion",    "model.dim=2",          "model.n=[100]",    "model.exact=mode",
    "solver.method=cvode-bdf", "solver.t_end=0.1",     "solver.rtol=1e-6", "solver.atol=1e-9",
    "output.n_times=10",       "output.prefix=heat2d",
};

void cli_job_init(cli_job *job)
{
  memset(job, 0, sizeof *job);
  job->net.flows = job->net.events = -1;
  job->sens.id = -1;
}

void cli_job_free(cli_job *job)
{
  cli_ckpt_free(job->opts ? sk_options_get_context(job->opts) : NULL, &job->ckpt);
  sk_results_destroy(&job->results);
  cli_network_series_free(&job->net);
  cli_sens_series_free(&job->sens);
  sk_stepper_destroy(&job->stepper);
  sk_model_destroy(&job->model);
  sk_options_destroy(&job->opts);
  sk_bvp_destroy(&job->bvp);
  sk_bvp_keys_destroy(&job->bvp_keys);
  bench_keys_free(&job->bench_keys);
  for (size_t i = 0; i < job->nprobes && job->probe_names; i++) {
    free(job->probe_names[i]);
  }
  free(job->probe_names);
  free(job->probes);
  free(job->times);
  free(job->exact);
}

sk_status cli_job_options(sk_context *ctx, cli_job *job)
{
  SK_CALL(ctx, sk_options_create(ctx, &job->opts));
  /* the stepper keys: shared, linear solvers', and each stepper type's own */
  SK_CALL(ctx, sk_stepper_register_options(job->opts));
  const sk_option_spec *(*tables[])(size_t *) = {sk_stepper_sensitivity_options,
                                                 cli_output_options, sk_steady_options,
                                                 cli_checkpoint_options, sk__parallel_options};
  for (size_t k = 0; k < sizeof tables / sizeof tables[0]; k++) {
    size_t n;
    const sk_option_spec *t = tables[k](&n);
    SK_CALL(ctx, sk_options_register(job->opts, t, n));
  }
  /* model.type and the keys of every registered model type */
  SK_CALL(ctx, sk_model_register_options(job->opts));
  SK_CALL(ctx, bench_keys_defer(job->opts));
  return SK_OK;
}

sk_status cli_job_load(sk_context *ctx, cli_job *job, const char *config, const char **sets,
                       size_t nsets)
{
  /* a plugin stepper type's own keys (solver.NAME.*) wait until its plugin is loaded */
  SK_CALL(ctx, sk_options_defer_section(job->opts, "solver"));
  const size_t len = config ? strlen(config) : 0;
  if (len > 4 && strcmp(config + len - 4, ".net") == 0) {
    /* a thermal netlist given directly: the network model with the default settings */
    SK_CALL(ctx, sk_network_options_set_netlist(job->opts, config));
  } else if (config) {
    const sk_status st = sk_config_load(job->opts, config);
    if (st != SK_OK) { /* SK_INTERRUPTED too: a stop while waiting for a FIFO's writer */
      return st;
    }
  } else {
    for (size_t k = 0; k < sizeof embedded_default_job / sizeof embedded_default_job[0]; k++) {
      SK_CALL(ctx, sk_options_set_assignment(job->opts, embedded_default_job[k]));
    }
  }
  for (size_t k = 0; k < nsets; k++) {
    SK_CALL(ctx, sk_options_set_assignment(job->opts, sets[k]));
  }
  /* in-house stepper types (solver.plugin) and their own keys; then any solver.* key still
     unclaimed is unknown */
  SK_CALL(ctx, sk_plugin_load_from_options(ctx, job->opts));
  SK_CALL(ctx, sk_stepper_register_options(job->opts));
  SK_CALL(ctx, sk_options_check_pending_in(job->opts, "solver"));
  SK_CALL(ctx, sk_options_undefer_section(job->opts, "solver"));
  return bench_keys_register(job->opts, &job->bench_keys);
}

/* Output times: output.times if given, else n_times equally spaced. */
static sk_status make_output_times(sk_context *ctx, cli_job *job)
{
  cli_output_settings out;
  SK_CALL(ctx, cli_output_settings_read(job->opts, &out, NULL));
  const double *list = out.times.v;
  const size_t nlist = out.times.n;
  if (nlist > 0) {
    job->times = malloc(nlist * sizeof *job->times);
    SK_CHECK(ctx, job->times != NULL, SK_ERR_NOMEM, "cannot allocate output times");
    for (size_t i = 0; i < nlist; i++) {
      SK_CHECK(
          ctx, list[i] > job->t0 && list[i] <= job->t_end && (i == 0 || list[i] > list[i - 1]),
          SK_ERR_INPUT,
          "output.times: entry %zu (%g) must increase and lie in (solver.t0, solver.t_end] = "
          "(%g, %g]",
          i + 1, list[i], job->t0, job->t_end);
      job->times[i] = list[i];
    }
    job->ntimes = nlist;
    return SK_OK;
  }
  const int64_t nt = out.n_times;
  job->times = malloc((size_t)nt * sizeof *job->times);
  SK_CHECK(ctx, job->times != NULL, SK_ERR_NOMEM, "cannot allocate output times");
  for (int64_t i = 0; i < nt; i++) {
    job->times[i] = i + 1 == nt ? job->t_end
                                : job->t0 + (job->t_end - job->t0) * (double)(i + 1) / (double)nt;
  }
  job->ntimes = (size_t)nt;
  return SK_OK;
}

sk_status cli_job_default_prefix(sk_context *ctx, cli_job *job, const char *prefix)
{
  cli_output_settings out;
  uint64_t given = 0;
  SK_CALL(ctx, cli_output_settings_read(job->opts, &out, &given));
  if (!CLI_OUTPUT_GIVEN(given, prefix)) {
    SK_CALL(ctx, sk_options_set(job->opts, cli_output_key(CLI_OUTPUT_KEY_prefix), prefix, NULL));
  }
  return SK_OK;
}

sk_status cli_job_output_times(sk_context *ctx, cli_job *job)
{
  sk__stepper_settings st;
  uint64_t given;
  SK_CALL(ctx, sk__stepper_settings_read(job->opts, &st, &given));
  job->t0 = st.t0;
  job->t_end = st.t_end;
  SK_CHECK(ctx, job->t_end > job->t0, SK_ERR_INPUT,
           "solver.t_end (%g) must be greater than solver.t0 (%g)", job->t_end, job->t0);
  return make_output_times(ctx, job);
}

/* The default probe: the node at the centre of a grid model (its first
 * component), the middle component otherwise. */
static int64_t default_probe(const cli_job *job)
{
  int dim, ncomp;
  int64_t n[3];
  if (sk_model_get_grid(job->model, &dim, n, &ncomp) != SK_OK) {
    return sk_model_get_n(job->model) / 2;
  }
  return ncomp * (n[0] / 2 + n[0] * (n[1] / 2 + n[1] * (n[2] / 2)));
}

static sk_status make_probes(sk_context *ctx, cli_job *job)
{
  const int64_t n = sk_model_get_n(job->model);
  cli_output_settings out;
  SK_CALL(ctx, cli_output_settings_read(job->opts, &out, NULL));
  const int64_t *list = out.probes.v;
  size_t nlist = out.probes.n;
  int64_t *named = NULL; /* output.probe_nodes of a network model replaces output.probes */
  size_t nnamed = 0;
  SK_CALL(ctx, sk_network_probes_from_options(ctx, job->opts, job->model, &named, &nnamed));
  const int64_t middle = default_probe(job);
  if (nlist == 0) {
    list = &middle;
    nlist = 1;
  }
  if (nnamed) {
    list = named;
    nlist = nnamed;
  }
  job->probes = malloc(nlist * sizeof *job->probes);
  job->probe_names = calloc(nlist, sizeof *job->probe_names);
  SK_CHECK(ctx, job->probes && job->probe_names, SK_ERR_NOMEM, "cannot allocate probes");
  job->nprobes = nlist;
  for (size_t i = 0; i < nlist; i++) {
    SK_CHECK(ctx, list[i] >= 0 && list[i] < n, SK_ERR_INPUT,
             "output.probes: component %lld is outside the state [0, %lld)", (long long)list[i],
             (long long)n);
    job->probes[i] = list[i];
    job->probe_names[i] = malloc(96);
    SK_CHECK(ctx, job->probe_names[i] != NULL, SK_ERR_NOMEM, "cannot allocate probes");
    sk_model_component_name(job->model, list[i], job->probe_names[i], 96);
  }
  free(named);
  return SK_OK;
}

sk_status cli_job_build_model(sk_context *ctx, cli_job *job)
{
  sk_options *o = job->opts;
  const sk_model_type *type;
  SK_CALL_STOP(ctx, sk_model_type_from_options(ctx, o, &type));
  SK_CHECK(ctx, type->driver != SK_MODEL_DRIVER_MULTIBODY, SK_ERR_INPUT,
           "model.type = %s is run by `stiffkit run` and `stiffkit verify` only", type->name);
  SK_CHECK(ctx, type->driver != SK_MODEL_DRIVER_BVP, SK_ERR_INPUT,
           "model.type = %s is a boundary-value problem: solve it with `stiffkit bvp CONFIG` "
           "(or compare its methods with `stiffkit verify CONFIG`)",
           type->name);
  /* a boundary-value problem's keys under another model type: say what is missing */
  const char *pending =
      type->flags & SK_MODEL_TYPE_DECLARES_KEYS ? NULL : sk_options_pending_key(o, 0);
  SK_CHECK(ctx, !pending || strncmp(pending, "bvp.", 4) != 0, SK_ERR_INPUT,
           "'%s' belongs to a boundary-value problem: set model.type: bvp (and solve it with "
           "`stiffkit bvp` or `stiffkit verify`)",
           pending);
  /* every key is declared once the model is built: a key nobody declared is refused */
  SK_CALL_STOP(ctx, sk_model_from_options(ctx, o, &job->model));
  sk__stepper_settings st;
  uint64_t given;
  SK_CALL_STOP(ctx, sk__stepper_settings_read(o, &st, &given));
  /* a DAE model goes to IDA unless an engine is configured */
  if (sk_model_get_kind(job->model) == SK_MODEL_DAE && !SK__STEPPER_GIVEN(given, method)) {
    SK_CALL_STOP(ctx,
                 sk_options_set(o, sk__stepper_key(SK__STEPPER_KEY_method), "ida-bdf", NULL));
  }
  /* the model's natural end time (a library problem's, a plugin's) unless solver.t_end is
     configured, set as the option so that the echoed options reproduce the run */
  const double t_def = sk_model_get_default_t_end(job->model);
  if (!SK__STEPPER_GIVEN(given, t_end) && t_def > 0.0) {
    char value[32];
    snprintf(value, sizeof value, "%.17g", t_def);
    SK_CALL_STOP(ctx, sk_options_set(o, sk__stepper_key(SK__STEPPER_KEY_t_end), value, NULL));
  }
  return SK_OK;
}

sk_status cli_job_prepare_outputs(sk_context *ctx, cli_job *job)
{
  sk_options *o = job->opts;
  SK_CALL_STOP(ctx, cli_job_output_times(ctx, job));
  sk__stepper_settings st;
  uint64_t given;
  SK_CALL_STOP(ctx, sk__stepper_settings_read(o, &st, &given));
  if (SK__STEPPER_GIVEN(given, stop_time)) {
    const double tstop = st.stop_time;
    SK_CHECK(ctx, tstop > job->t0 && tstop >= job->times[job->ntimes - 1], SK_ERR_INPUT,
             "solver.stop_time (%g) must lie after solver.t0 (%g) and not before the last output "
             "time (%g)",
             tstop, job->t0, job->times[job->ntimes - 1]);
  }
  SK_CALL_STOP(ctx, make_probes(ctx, job));
  if (sk_model_has_exact(job->model)) {
    job->exact = malloc((size_t)sk_model_get_n(job->model) * sizeof *job->exact);
    SK_CHECK(ctx, job->exact != NULL, SK_ERR_NOMEM, "cannot allocate the exact-solution buffer");
  }
  return SK_OK;
}

sk_status cli_job_prepare(sk_context *ctx, cli_job *job)
{
  sk_options *o = job->opts;
  SK_CALL_STOP(ctx, cli_job_build_model(ctx, job));
  /* a stop during a long phase ends the run at the next phase boundary, before any output */
  SK_CALL_STOP(ctx, sk__stop_check(ctx, "building the model; nothing was written"));
  sk__stepper_settings st;
  uint64_t given;
  SK_CALL_STOP(ctx, sk__stepper_settings_read(o, &st, &given));
  job->rtol = st.rtol;
  job->atol = st.atol;
  job->method = st.method;
  SK_CALL_STOP(ctx, cli_job_prepare_outputs(ctx, job));
  /* a plugin named after the load (a sweep case's setting); loading one again does nothing */
  SK_CALL_STOP(ctx, sk_plugin_load_from_options(ctx, o));
  const sk_stepper_type *type = NULL;
  SK_CALL_STOP(ctx, sk_stepper_type_from_options(ctx, o, &type));
  SK_CALL_STOP(ctx, sk_stepper_create_with_type(ctx, type, job->model, &job->stepper));
  SK_CALL_STOP(ctx, sk_stepper_set_from_options(job->stepper, o));
  /* a key that only other stepper types take would go unused */
  SK_CALL_STOP(ctx, sk_stepper_check_options(job->stepper, o));
  SK_CALL_STOP(ctx, sk_stepper_setup(job->stepper));
  SK_CALL_STOP(ctx,
               sk__stop_check(ctx, "setting up the solver (analysis, coloring, factorization); "
                                   "nothing was written"));
  snprintf(job->linsol, sizeof job->linsol, "%s", sk_stepper_get_linear_solver(job->stepper));
  snprintf(job->prec, sizeof job->prec, "%s", sk_stepper_get_preconditioner(job->stepper));
  return SK_OK;
}

/* Exact solution at t into job->exact (NULL when the model has none). */
static sk_status exact_at(sk_context *ctx, cli_job *job, double t, const double **out)
{
  *out = NULL;
  if (!job->exact) {
    return SK_OK;
  }
  SK_CALL(ctx, sk_model_eval_exact(job->model, t, job->exact));
  *out = job->exact;
  return SK_OK;
}

void cli_job_record_error(cli_job *job, const double *y)
{
  const int64_t n = sk_model_get_n(job->model);
  double maxe = 0, sum2 = 0, ref2 = 0;
  for (int64_t i = 0; i < n; i++) {
    const double e = y[i] - job->exact[i];
    maxe = fabs(e) > maxe ? fabs(e) : maxe;
    sum2 += e * e;
    ref2 += job->exact[i] * job->exact[i];
  }
  job->have_error = 1;
  job->max_err = maxe;
  job->rms_err = sqrt(sum2 / (double)n);
  job->rel_l2_err = ref2 > 0 ? sqrt(sum2 / ref2) : sqrt(sum2);
}

/* Node coordinates along each axis of a diffusion grid (for the HDF5 file). */
static sk_status grid_axes(const cli_job *job, int *dim, int64_t dims[3], double *axes[3])
{
  int ncomp;
  if (sk_model_get_grid(job->model, dim, dims, &ncomp) != SK_OK || ncomp != 1) {
    return SK_ERR_UNSUPPORTED;
  }
  int64_t stride = 1;
  for (int d = 0; d < *dim; d++) {
    axes[d] = malloc((size_t)dims[d] * sizeof *axes[d]);
    if (!axes[d]) {
      return SK_ERR_NOMEM;
    }
    for (int64_t i = 0; i < dims[d]; i++) {
      double x[3];
      if (sk_diffusion_node_coords(job->model, i * stride, x) != SK_OK) {
        return SK_ERR_UNSUPPORTED;
      }
      axes[d][i] = x[d];
    }
    stride *= dims[d];
  }
  return SK_OK;
}

sk_status cli_job_set_results_grid(sk_context *ctx, const cli_job *job, sk_results *res)
{
  int64_t dims[3];
  int dim;
  double *axes[3] = {NULL, NULL, NULL};
  sk_status st = grid_axes(job, &dim, dims, axes);
  if (st == SK_OK) {
    st = sk_results_set_grid(res, dim, dims, (const double *const *)axes);
  }
  for (int d = 0; d < 3; d++) {
    free(axes[d]);
  }
  if (st != SK_ERR_UNSUPPORTED) {
    SK_CALL(ctx, st);
  }
  return SK_OK;
}

/* Remove results a previous run left under this prefix (final or partial),
 * so that no older file can be mistaken for this run's output. */
static sk_status remove_previous_results(sk_context *ctx, const char *dir, const char *prefix)
{
  static const char *const suffixes[] = {".csv",
                                         ".h5",
                                         ".provenance.yaml",
                                         ".flows.csv",
                                         ".events.csv",
                                         ".sensitivity.csv",
                                         ".partial.csv",
                                         ".partial.h5",
                                         ".partial.provenance.yaml",
                                         ".partial.flows.csv",
                                         ".partial.events.csv",
                                         ".partial.sensitivity.csv"};
  for (size_t k = 0; k < sizeof suffixes / sizeof suffixes[0]; k++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s%s", dir, prefix, suffixes[k]);
    SK_CHECK(ctx, remove(path) == 0 || errno == ENOENT, SK_ERR_CREATE,
             "cannot remove the previous result '%s': %s", path, strerror(errno));
  }
  return SK_OK;
}

sk_status cli_job_open_results(sk_context *ctx, cli_job *job)
{
  sk_options *o = job->opts;
  cli_output_settings out;
  SK_CALL(ctx, cli_output_settings_read(o, &out, NULL));
  const int csv = out.csv, hdf5 = out.hdf5, states = out.states;
  const char *dir = out.dir, *prefix = out.prefix;
  if (!csv && !hdf5) {
    return SK_OK;
  }
  SK_CALL(ctx, remove_previous_results(ctx, dir, prefix));
  sk_results_config rc = {
      .dir = dir,
      .prefix = prefix,
      .csv = csv,
      .hdf5 = hdf5,
      .write_states = states,
      .n = sk_model_get_n(job->model),
      .nprobes = job->nprobes,
      .probes = job->probes,
      .probe_names = (const char *const *)job->probe_names,
      .has_exact = job->exact != NULL,
  };
  SK_CALL(ctx, sk_results_open(ctx, &rc, &job->results));
  job->started = 1;
  SK_CALL(ctx, cli_job_set_results_grid(ctx, job, job->results));
  SK_CALL(ctx, cli_network_series_open(ctx, job->model, job->results, &job->net));
  SK_CALL(ctx, cli_sens_series_open(ctx, job->model, job->stepper, job->probes,
                                    (const char *const *)job->probe_names, job->nprobes,
                                    hdf5 && states, job->results, &job->sens));
  return SK_OK;
}

/* One output: the state row, then a network's flows and new events. */
static sk_status write_output(sk_context *ctx, cli_job *job, double t, const double *y,
                              const double *ex)
{
  if (!job->results) {
    return SK_OK;
  }
  SK_CALL(ctx, sk_results_write(job->results, t, y, ex));
  SK_CALL(ctx,
          cli_network_series_write(ctx, job->model, job->stepper, job->results, &job->net, t, y));
  SK_CALL(ctx, cli_sens_series_write(ctx, job->stepper, job->probes, job->nprobes, job->results,
                                     &job->sens, t));
  return SK_OK;
}

/* Paths of the files a finished or failed run leaves, for the summary. */
static void note_files(cli_job *job, const char *suffix)
{
  cli_output_settings out;
  if (cli_output_settings_read(job->opts, &out, NULL) != SK_OK) { /* no file to note */
    out = (cli_output_settings){.dir = ".", .prefix = "result"};
  }
  const char *dir = out.dir, *prefix = out.prefix;
  const int csv = out.csv, hdf5 = out.hdf5;
  const char *ext[] = {".csv", ".h5"};
  const int on[] = {csv, hdf5};
  job->nfiles = 0;
  for (int k = 0; k < 2; k++) {
    if (on[k]) {
      snprintf(job->files[job->nfiles], sizeof job->files[0], "%s/%s%s%s", dir, prefix, suffix,
               ext[k]);
      FILE *f = fopen(job->files[job->nfiles], "r");
      if (f) {
        fclose(f);
        job->nfiles++;
      }
    }
  }
}

char *cli_stats_json(const sk_stats *st)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) {
    return NULL;
  }
  sk_stats_print_json(st, f);
  fclose(f);
  return buf;
}

static char *stats_text(cli_job *job)
{
  sk_stats st;
  cli_job_get_stats(job, &st);
  return cli_stats_json(&st);
}

const char *cli_signal_name(int sig)
{
  switch (sig) {
  case SIGTERM:
    return "SIGTERM";
  case SIGINT:
    return "SIGINT";
  case SIGUSR1:
    return "SIGUSR1";
  default:
    return "a signal";
  }
}

static int stop_requested(const cli_job *job)
{
  return job->stop_signal && *job->stop_signal;
}

/* The run stops on a signal: keep a checkpoint to continue from. */
static sk_status stop_on_signal(sk_context *ctx, cli_job *job)
{
  const char *sig = cli_signal_name((int)*job->stop_signal);
  const double t = sk_stepper_get_time(job->stepper);
  cli_ckpt *c = &job->ckpt;
  if (!c->supported) {
    return SK_ERROR(
        ctx, SK_INTERRUPTED,
        "run interrupted by %s at t=%.6e; the results so far are kept (no checkpoint: "
        "this model's switch states cannot be saved; rerun from t0)",
        sig, t);
  }
  if (!c->segment) {
    SK_CALL(ctx, cli_ckpt_write(ctx, c, job, 0));
  }
  /* segment mode keeps its last boundary: written by this process, or the
     checkpoint this run continued from */
  const char *path = c->written > 0 ? c->path : job->restart_done ? job->restart_from : NULL;
  if (!path) { /* unreachable in practice: a fresh segment run writes one at t0 */
    return SK_ERROR(ctx, SK_INTERRUPTED,
                    "run interrupted by %s at t=%.6e; the results so far are kept", sig, t);
  }
  return SK_ERROR(ctx, SK_INTERRUPTED,
                  "run interrupted by %s at t=%.6e; the results so far are kept and the "
                  "checkpoint '%s' holds t=%.6e: continue with the same command and --restart %s",
                  sig, t, path, c->written > 0 ? c->written_t : job->restart_t, path);
}

sk_status cli_job_write(sk_context *ctx, cli_job *job, double t, const double *y)
{
  const double *ex;
  SK_CALL(ctx, exact_at(ctx, job, t, &ex));
  return write_output(ctx, job, t, y, ex);
}

/* Write the output at the engine's time t (the state buffer holds it). */
static sk_status output_now(sk_context *ctx, cli_job *job, double t)
{
  return cli_job_write(ctx, job, t, sk_stepper_get_state(job->stepper));
}

/* Handle what the monitor found pending after an advance ended at the
 * engine's current time: a stop signal, a due interval checkpoint or a
 * segment boundary (then the engine restarts from its state). */
static sk_status after_advance(sk_context *ctx, cli_job *job, double t)
{
  cli_ckpt *c = &job->ckpt;
  if (t >= job->times[job->ntimes - 1]) { /* the run is complete: it finishes */
    return SK_OK;
  }
  if (c->segment && t >= c->next_t) { /* a boundary reached is kept, also when a signal came */
    SK_CALL(ctx, cli_ckpt_boundary(ctx, c, job));
  }
  if (stop_requested(job)) {
    return stop_on_signal(ctx, job);
  }
  if (c->due) {
    SK_CALL(ctx, cli_ckpt_write(ctx, c, job, 0));
  }
  return SK_OK;
}

/* Where the next advance towards the output time tout ends: tout, or the
 * checkpoint segment's boundary before it. */
static double advance_target(const cli_job *job, double tout)
{
  return job->ckpt.segment && job->ckpt.next_t < tout ? job->ckpt.next_t : tout;
}

static sk_status integrate(sk_context *ctx, cli_job *job)
{
  double t = sk_stepper_get_time(job->stepper);
  size_t k = 0;
  while (k < job->ntimes && job->times[k] <= t) { /* a restart continues after its rows */
    k++;
  }
  if (!job->restart_done) {
    if (k < job->ntimes) { /* the first row holds the values the integration starts from */
      SK_CALL(ctx, sk_stepper_initialize(job->stepper, advance_target(job, job->times[k])));
    }
    SK_CALL(ctx, output_now(ctx, job, t));
    if (job->ckpt.segment) { /* the first segment starts like every later one */
      SK_CALL(ctx, cli_ckpt_boundary(ctx, &job->ckpt, job));
    }
  }
  while (k < job->ntimes) {
    const double tout = job->times[k];
    job->target = advance_target(job, tout);
    sk_status st = sk_stepper_advance(job->stepper, job->target, &t);
    if (st != SK_OK && st != SK_INTERRUPTED) {
      return st;
    }
    if (st == SK_OK && t == tout) {
      SK_CALL(ctx, output_now(ctx, job, t));
      k++;
    } else if (st == SK_OK && sk_stepper_get_event_stop(job->stepper, NULL)) {
      SK_CALL(ctx, output_now(ctx, job, t)); /* the model's event ended the run here */
      break;
    }
    st = after_advance(ctx, job, t);
    if (st != SK_OK) { /* SK_INTERRUPTED (a signal) is positive: SK_CALL would not pass it on */
      return st;
    }
  }
  if (job->exact) {
    cli_job_record_error(job, sk_stepper_get_state(job->stepper));
  }
  return SK_OK;
}

/* The checkpoint to continue from: --restart CKPT, or checkpoint.file with
 * --resume when it exists; NULL for none. */
static const char *restart_path(const cli_job *job)
{
  if (job->restart) {
    return job->restart;
  }
  return job->resume && access(job->ckpt.path, F_OK) == 0 ? job->ckpt.path : NULL;
}

/* The commit hook of the results (sk__results_set_commit_hook): a
 * complete set never coexists with its run's checkpoint. */
static void remove_checkpoint(void *data)
{
  cli_ckpt_finish(data);
}

/* Temporaries that killed runs left beside this job's result files and
 * checkpoint (cli_remove_dead_temps). */
static void remove_dead_temps(const cli_job *job)
{
  static const char *const ext[] = {".csv",       ".h5",         ".provenance.yaml",
                                    ".flows.csv", ".events.csv", ".sensitivity.csv"};
  enum { NEXT = sizeof ext / sizeof ext[0] };
  cli_output_settings out;
  if (cli_output_settings_read(job->opts, &out, NULL) != SK_OK) {
    out = (cli_output_settings){.dir = ".", .prefix = ""};
  }
  const char *dir = out.dir, *prefix = out.prefix;
  char names[NEXT][4096];
  const char *paths[NEXT + 1];
  for (size_t k = 0; k < NEXT; k++) {
    snprintf(names[k], sizeof names[k], "%s/%s%s", dir[0] ? dir : ".", prefix, ext[k]);
    paths[k] = names[k];
  }
  paths[NEXT] = job->ckpt.path;
  cli_remove_dead_temps(paths, NEXT + 1);
}

sk_status cli_job_execute(sk_context *ctx, cli_job *job, int argc, char **argv)
{
  SK_CALL(ctx, cli_ckpt_init(ctx, &job->ckpt, job));
  SK_CALL(ctx, sk_stepper_set_monitor(job->stepper, cli_job_monitor, job));
  const char *from = restart_path(job);
  if (from) { /* checked before any result file is touched */
    SK_CALL_STOP(ctx, cli_ckpt_load(ctx, &job->ckpt, job, from, !job->restart));
    if (!job->ckpt.loaded.n) { /* --resume found a checkpoint of another problem: t0 */
      from = NULL;
    }
  }
  remove_dead_temps(job);
  SK_CALL(ctx, cli_job_open_results(ctx, job));
  if (job->results) { /* the checkpoint goes just before the set's commit point */
    SK_CALL(ctx, sk__results_set_commit_hook(job->results, remove_checkpoint, &job->ckpt));
  }
  sk_status st = SK_OK;
  if (from) {
    st = cli_ckpt_apply(ctx, &job->ckpt, job);
    job->restart_done = st == SK_OK;
    job->restart_t = sk_stepper_get_time(job->stepper);
    snprintf(job->restart_from, sizeof job->restart_from, "%s", from);
  }
  if (st == SK_OK) {
    st = integrate(ctx, job);
  }
  if (!job->results) {
    if (st == SK_OK) {
      cli_ckpt_finish(&job->ckpt);
    }
    return st;
  }
  char *stats = stats_text(job);
  char problem[8192]; /* ties the result set to this problem (cli_run_complete) */
  cli_run_problem_line(job->ckpt.problem_hash, problem, sizeof problem);
  cli_sens_provenance(job->model, job->stepper, problem, sizeof problem);
  sk_status fst = cli_job_close_results(ctx, job, st, stats, problem, argc, argv);
  free(stats);
  if (st == SK_OK && fst == SK_OK) { /* complete results on disk: the checkpoint is done with */
    cli_ckpt_finish(&job->ckpt);
  }
  return st != SK_OK ? st : fst;
}

sk_status cli_job_close_results(sk_context *ctx, cli_job *job, sk_status st, const char *stats,
                                const char *extra_provenance, int argc, char **argv)
{
  if (!job->results) {
    return SK_OK;
  }
  char *effective = sk_options_effective_string(job->opts);
  char *prov = sk_provenance_yaml(ctx, argc + 1, argv - 1, effective ? effective : "");
  char *full = prov;
  if (prov && extra_provenance) { /* more top-level keys of the same mapping */
    const size_t a = strlen(prov), b = strlen(extra_provenance);
    full = malloc(a + b + 1);
    if (full) {
      memcpy(full, prov, a);
      memcpy(full + a, extra_provenance, b + 1);
    }
  }
  sk_status fst;
  if (st == SK_OK) {
    fst = sk_results_finish(job->results, stats, full);
    note_files(job, "");
  } else {
    /* keep the failure's record: writing the partial files must not replace it */
    sk_error saved = *sk_context_get_error(ctx);
    char msg[SK_ERROR_MSG_LEN + 64];
    sk_error_format(&saved, 0, msg, sizeof msg);
    fst = sk_results_fail(job->results, stats, full, msg);
    note_files(job, ".partial");
    if (fst == SK_OK) {
      sk__error_restore(ctx, &saved);
    }
  }
  if (full != prov) {
    free(full);
  }
  free(effective);
  free(prov);
  return fst;
}

/* src/cli/checkpointing.c: when a run writes checkpoints, what goes into them, and how a run restarts from one */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/checkpoint_keys.h"
#include "io/results.h"
#include "cli/checkpointing.h"
#include "cli/signal_thread.h"
#include "cli/job.h"
#include "cli/progress.h"
#include "core/error.h"
#include "core/stop.h"
#include "cli/output_keys.h"

#define SK__BIND_STRUCT cli_checkpoint_keys
SK__BIND_DEFINE(cli_checkpoint, SK__CHECKPOINT_KEYS, cli_checkpoint_keys,
                SK__CHECKPOINT_KEY_COUNT)
#undef SK__BIND_STRUCT

const char *cli_checkpoint_interval_key(const sk_options *o)
{
  /* the table's rows after checkpoint.file: every, wall, segment */
  for (int k = SK__CHECKPOINT_KEY_file + 1; k < SK__CHECKPOINT_KEY_COUNT; k++) {
    if (sk_options_is_set(o, cli_checkpoint_key(k))) {
      return cli_checkpoint_key(k);
    }
  }
  return NULL;
}

/* The first boundary t0 + k every (k >= 1) after t, computed from k alone
 * so that a run and its restart see the same boundaries bitwise. */
static void set_next_after(cli_ckpt *c, double t0, double t)
{
  if (!(c->every > 0)) {
    return;
  }
  double k = floor((t - t0) / c->every);
  k = k < 0 ? 1 : k + 1;
  while (k > 1 && t0 + c->every * (k - 1) > t) {
    k--;
  }
  while (t0 + c->every * k <= t) {
    k++;
  }
  c->next_t = t0 + c->every * k;
}

/* The problem hash of the job (effective options, model name, size). */
static sk_status job_problem_hash(sk_context *ctx, const cli_job *job, uint64_t *hash)
{
  char *options = sk_options_effective_string(job->opts);
  SK_CHECK(ctx, options != NULL, SK_ERR_NOMEM, "cannot format the options for the checkpoint");
  *hash = sk__checkpoint_problem_hash(options, sk_model_get_name(job->model),
                                      sk_model_get_n(job->model));
  free(options);
  return SK_OK;
}

sk_status cli_ckpt_init(sk_context *ctx, cli_ckpt *c, const cli_job *job)
{
  memset(c, 0, sizeof *c);
  const char *file, *dir, *prefix;
  cli_checkpoint_keys keys;
  SK_CALL(ctx, cli_checkpoint_settings_read(job->opts, &keys, NULL));
  file = keys.file;
  c->every = keys.every;
  c->wall = keys.wall;
  c->segment = keys.segment;
  cli_output_settings out;
  SK_CALL(ctx, cli_output_settings_read(job->opts, &out, NULL));
  dir = out.dir;
  prefix = out.prefix;
  const int n = file[0]
                    ? snprintf(c->path, sizeof c->path, "%s", file)
                    : snprintf(c->path, sizeof c->path, "%s/%s.ckpt", dir[0] ? dir : ".", prefix);
  SK_CHECK(ctx, n > 0 && (size_t)n < sizeof c->path, SK_ERR_INPUT,
           "checkpoint.file: the path is too long");
  SK_CHECK(ctx, !(c->segment && c->wall > 0), SK_ERR_INPUT,
           "checkpoint.segment needs simulated-time boundaries: use checkpoint.every, "
           "not checkpoint.wall");
  SK_CHECK(ctx, !c->segment || c->every > 0, SK_ERR_INPUT,
           "checkpoint.segment needs checkpoint.every > 0 (the segment length)");
  c->supported = !sk_model_has_event_action(job->model);
  SK_CHECK(ctx, c->supported || (c->every == 0 && c->wall == 0), SK_ERR_UNSUPPORTED,
           "checkpoint.every / checkpoint.wall: model '%s' switches its equations at events (its "
           "switch states are not saved): checkpoints are not available for it",
           sk_model_get_name(job->model));
  SK_CALL(ctx, job_problem_hash(ctx, job, &c->problem_hash));
  c->t0 = job->t0;
  c->next_t = INFINITY;
  set_next_after(c, c->t0, c->t0);
  c->last_wall = cli_wall_now();
  return SK_OK;
}

int cli_ckpt_monitor_due(cli_ckpt *c, double t)
{
  if (c->segment || !c->supported) {
    return 0;
  }
  if (t >= c->next_t || (c->wall > 0 && cli_wall_now() - c->last_wall >= c->wall)) {
    c->due = 1;
  }
  return c->due;
}

/* The y' a checkpoint keeps: the engine's for a DAE model, else none (an
 * ODE's y' is f(t, y)). */
static const double *saved_derivative(const cli_job *job)
{
  return sk_model_get_kind(job->model) == SK_MODEL_DAE ? sk_stepper_get_derivative(job->stepper)
                                                       : NULL;
}

/* Replace the job's engine by a new one of the same settings starting at
 * (t, y, y' when yp is not NULL) with first step h (0 = solver.h0), the
 * Jacobian self-test off (it ran at the start of the run) and, in segment
 * mode, a stop time at the next boundary. */
/* The job's sensitivities at the engine's time (np x n, malloc'ed; NULL and *np 0 when
 * it computes none). Errors: SK_ERR_NOMEM, those of sk_stepper_get_sensitivity. */
static sk_status current_sensitivities(sk_context *ctx, cli_job *job, int64_t *np, double **S)
{
  *S = NULL;
  *np = sk_stepper_get_nsens(job->stepper);
  if (*np == 0) {
    return SK_OK;
  }
  const size_t n = (size_t)sk_model_get_n(job->model);
  *S = malloc((size_t)*np * n * sizeof **S);
  SK_CHECK(ctx, *S != NULL, SK_ERR_NOMEM, "cannot allocate the sensitivities for the checkpoint");
  for (int j = 0; j < (int)*np; j++) {
    const sk_status st = sk_stepper_get_sensitivity(job->stepper, j, *S + (size_t)j * n);
    if (st != SK_OK) {
      free(*S);
      *S = NULL;
      return st;
    }
  }
  return SK_OK;
}

/* With S (np x n, or NULL): the new engine's sensitivities start there. */
static sk_status restart_engine(sk_context *ctx, cli_ckpt *c, cli_job *job, double t,
                                const double *y, const double *yp, const double *S, double h)
{
  /* y and yp may be the buffers of the engine being replaced (a segment
     boundary): the new engine copies them before the old one is destroyed */
  sk_stepper *s = NULL;
  SK_CALL(ctx, sk_stepper_create(ctx, job->method, job->model, &s));
  double h0, hmin, hmax;
  sk_status rc;
  SK_CALL_GOTO(ctx, rc, sk_stepper_set_from_options(s, job->opts), fail);
  sk_stepper_get_step_limits(s, &h0, &hmin, &hmax);
  SK_CALL_GOTO(ctx, rc, sk_stepper_set_step_limits(s, h > 0 ? h : h0, hmin, hmax), fail);
  SK_CALL_GOTO(ctx, rc, sk_stepper_set_initial(s, t, y), fail);
  if (yp) {
    SK_CALL_GOTO(ctx, rc, sk_stepper_set_initial_derivative(s, yp), fail);
  }
  if (S) {
    SK_CALL_GOTO(ctx, rc, sk_stepper_set_sens_initial(s, S), fail);
  }
  sk_stats st;
  if (job->stepper) {
    sk_stepper_get_stats(job->stepper, &st);
    sk_stats_add(&c->before, &st);
  }
  sk_stepper_destroy(&job->stepper);
  job->stepper = s;
  SK_CALL(ctx, sk_stepper_set_check_jacobian(s, 0));
  if (c->segment) {
    double tstop;
    const double boundary = c->next_t;
    SK_CALL(ctx,
            sk_stepper_set_stop_time(
                s, sk_stepper_get_stop_time(s, &tstop) && tstop < boundary ? tstop : boundary));
  }
  SK_CALL(ctx, sk_stepper_set_monitor(s, cli_job_monitor, job));
  return sk_stepper_setup(s);
fail:
  sk_stepper_destroy(&s);
  return rc;
}

/* sk__checkpoint_tail_fn of the main table: a state row kept in the HDF5 file. */
static sk_status results_tail(void *arg, size_t row, double *out)
{
  return sk__results_read_tail(arg, 0, row, out);
}

sk_status cli_ckpt_write(sk_context *ctx, cli_ckpt *c, cli_job *job, int segment)
{
  sk_stats st;
  cli_job_get_stats(job, &st);
  char *options = sk_options_effective_string(job->opts);
  SK_CHECK(ctx, options != NULL, SK_ERR_NOMEM, "cannot format the options for the checkpoint");
  sk__checkpoint ck;
  memset(&ck, 0, sizeof ck);
  ck.problem_hash = c->problem_hash;
  ck.t = sk_stepper_get_time(job->stepper);
  ck.h = st.steps > 0 ? st.last_h : 0.0; /* IDACalcIC's h is no step taken */
  ck.order = st.last_order;
  ck.segment = segment;
  ck.n = sk_model_get_n(job->model);
  ck.y = sk_stepper_get_state(job->stepper);
  ck.yp = saved_derivative(job);
  double *S = NULL;
  const sk_status sst = current_sensitivities(ctx, job, &ck.ns, &S);
  if (sst != SK_OK) {
    free(options);
    return sst;
  }
  ck.S = S;
  ck.stats = st;
  ck.options = options;
  ck.ntables = sk__results_ntables(job->results);
  for (size_t k = 0; k < ck.ntables; k++) {
    sk__checkpoint_table *tb = &ck.tables[k];
    sk__results_table(job->results, k, &tb->rows, &tb->width, &tb->head, &tb->data);
    tb->tail = results_tail; /* the states, read back from the HDF5 file row by row */
    tb->tail_arg = job->results;
  }
  const sk_status rc = sk__checkpoint_write(ctx, c->path, &ck);
  free(options);
  free(S);
  SK_CALL(ctx, rc);
  c->written++;
  c->written_t = ck.t;
  c->due = 0;
  c->last_wall = cli_wall_now();
  set_next_after(c, c->t0, ck.t);
  return SK_OK;
}

sk_status cli_ckpt_boundary(sk_context *ctx, cli_ckpt *c, cli_job *job)
{
  SK_CALL(ctx, cli_ckpt_write(ctx, c, job, 1));
  sk_stats st;
  sk_stepper_get_stats(job->stepper, &st);
  /* the same start a restart from this checkpoint makes: (t, y, y', last step) */
  int64_t np;
  double *S;
  SK_CALL(ctx, current_sensitivities(ctx, job, &np, &S));
  const sk_status rst =
      restart_engine(ctx, c, job, sk_stepper_get_time(job->stepper),
                     sk_stepper_get_state(job->stepper), saved_derivative(job), S,
                     st.steps > 0 ? st.last_h : 0.0); /* IDACalcIC's h is no step taken */
  free(S);
  return rst;
}

/* The first line where two effective option texts differ, for the message. */
static void first_difference(const char *a, const char *b, char *buf, size_t len)
{
  while (*a && *b) {
    const size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
    if (la != lb || memcmp(a, b, la) != 0) {
      snprintf(buf, len, "checkpoint has '%.*s', this run '%.*s'", (int)(la < 200 ? la : 200), a,
               (int)(lb < 200 ? lb : 200), b);
      return;
    }
    a += la + (a[la] == '\n');
    b += lb + (b[lb] == '\n');
  }
  snprintf(buf, len, "the model or its size differs");
}

/* Refuse a checkpoint of another problem, naming what differs. */
static sk_status check_problem(sk_context *ctx, const cli_ckpt *c, const cli_job *job,
                               const char *path, const sk__checkpoint *ck)
{
  if (ck->problem_hash == c->problem_hash && ck->n == sk_model_get_n(job->model)) {
    return SK_OK;
  }
  char *options = sk_options_effective_string(job->opts);
  char what[600];
  first_difference(ck->options, options ? options : "", what, sizeof what);
  free(options);
  return SK_ERROR(ctx, SK_ERR_INPUT,
                  "checkpoint '%s' belongs to another problem (%s): restart only with the "
                  "config and --set options of the run that wrote it",
                  path, what);
}

/* The largest method order of any engine (CVODE's Adams methods). */
#define CLI_CKPT_MAX_ORDER 12

/* The width of the main output table of this run's results (0 without
 * result files): t, probes, norms (2, or 4 with the error), the state (with
 * output.states, in an HDF5 file: a CSV holds no states). */
static size_t main_width(const cli_job *job)
{
  cli_output_settings out;
  if (cli_output_settings_read(job->opts, &out, NULL) != SK_OK) {
    return 0;
  }
  const int csv = out.csv, hdf5 = out.hdf5, states = out.states;
  if (!csv && !hdf5) {
    return 0;
  }
  return 1 + job->nprobes + (job->exact ? 4 : 2) +
         (states && hdf5 ? (size_t)sk_model_get_n(job->model) : 0);
}

/* Index of the first non-finite of v[0..n), or -1. */
static long long first_nonfinite(const double *v, size_t n)
{
  for (size_t i = 0; v && i < n; i++) {
    if (!isfinite(v[i])) {
      return (long long)i;
    }
  }
  return -1;
}

/* Refuse a checkpoint whose checksum is right but whose contents this run
 * cannot have written: every field is checked here, before any file of the
 * output folder is touched. */
static sk_status check_contents(sk_context *ctx, const cli_job *job, const char *path,
                                const sk__checkpoint *ck)
{
  const double tlast = job->times[job->ntimes - 1];
  SK_CHECK(ctx, isfinite(ck->t) && ck->t >= job->t0 && ck->t < tlast, SK_ERR_INPUT,
           "checkpoint '%s': field t = %g lies outside [solver.t0, last output time) = [%g, %g) "
           "of this run",
           path, ck->t, job->t0, tlast);
  SK_CHECK(ctx, isfinite(ck->h) && (ck->h > 0 || (ck->h == 0 && ck->t == job->t0)), SK_ERR_INPUT,
           "checkpoint '%s': field h (last step size) = %g at t = %g: a step size is finite and "
           "positive (0 only at solver.t0)",
           path, ck->h, ck->t);
  SK_CHECK(ctx, ck->order >= 0 && ck->order <= CLI_CKPT_MAX_ORDER, SK_ERR_INPUT,
           "checkpoint '%s': field order = %d is not a method order (0..%d)", path, ck->order,
           CLI_CKPT_MAX_ORDER);
  const size_t n = (size_t)ck->n;
  long long bad = first_nonfinite(ck->y, n);
  SK_CHECK(ctx, bad < 0, SK_ERR_INPUT, "checkpoint '%s': field y[%lld] = %g is not finite", path,
           bad, bad >= 0 ? ck->y[bad] : 0.0);
  const int dae = sk_model_get_kind(job->model) == SK_MODEL_DAE;
  SK_CHECK(ctx, dae == (ck->yp != NULL), SK_ERR_INPUT,
           "checkpoint '%s': field yp (y') is %s, but this model is %s", path,
           ck->yp ? "present" : "missing", dae ? "a DAE (y' is needed)" : "not a DAE");
  bad = first_nonfinite(ck->yp, n);
  SK_CHECK(ctx, bad < 0, SK_ERR_INPUT, "checkpoint '%s': field yp[%lld] = %g is not finite", path,
           bad, bad >= 0 ? ck->yp[bad] : 0.0);
  const int64_t ns = sk_stepper_get_nsens(job->stepper);
  SK_CHECK(ctx, ck->ns == ns, SK_ERR_INPUT,
           "checkpoint '%s': field S holds %lld sensitivities, this run computes %lld "
           "(solver.sensitivity.parameters)",
           path, (long long)ck->ns, (long long)ns);
  bad = first_nonfinite(ck->S, (size_t)ck->ns * n);
  SK_CHECK(ctx, bad < 0, SK_ERR_INPUT, "checkpoint '%s': field S[%lld] = %g is not finite", path,
           bad, bad >= 0 ? ck->S[bad] : 0.0);
  const size_t width = main_width(job);
  if (width == 0) {
    SK_CHECK(ctx, ck->ntables == 0, SK_ERR_INPUT,
             "checkpoint '%s': field tables holds %zu output tables, this run writes none", path,
             ck->ntables);
    return SK_OK;
  }
  SK_CHECK(ctx, ck->ntables >= 1, SK_ERR_INPUT,
           "checkpoint '%s': field tables is empty, this run writes output rows", path);
  /* the main rows: t0, then every output time up to t, exactly */
  size_t expect = 1;
  while (expect - 1 < job->ntimes && job->times[expect - 1] <= ck->t) {
    expect++;
  }
  const sk__checkpoint_table *tb = &ck->tables[0];
  SK_CHECK(ctx, tb->width == width, SK_ERR_INPUT,
           "checkpoint '%s': output table 0 has %zu columns, this run writes %zu", path,
           tb->width, width);
  SK_CHECK(ctx, tb->rows == expect, SK_ERR_INPUT,
           "checkpoint '%s': output table 0 has %zu rows, a checkpoint at t = %g has %zu (t0 and "
           "the output times up to t)",
           path, tb->rows, ck->t, expect);
  for (size_t i = 0; i < tb->rows; i++) {
    const double want = i == 0 ? job->t0 : job->times[i - 1];
    SK_CHECK(ctx, tb->data[i * width] == want, SK_ERR_INPUT,
             "checkpoint '%s': output row %zu has t = %.17g, this run's output time is %.17g",
             path, i, tb->data[i * width], want);
  }
  for (size_t k = 0; k < ck->ntables; k++) {
    const sk__checkpoint_table *s = &ck->tables[k];
    bad = first_nonfinite(s->data, s->rows * s->width);
    SK_CHECK(ctx, bad < 0, SK_ERR_INPUT,
             "checkpoint '%s': output table %zu holds a non-finite value (row %lld)", path, k,
             bad < 0 ? 0 : bad / (long long)(s->width ? s->width : 1));
    for (size_t i = 0; k > 0 && i < s->rows; i++) {
      const double ti = s->data[i * s->width];
      SK_CHECK(ctx, ti <= ck->t && (i == 0 || ti >= s->data[(i - 1) * s->width]), SK_ERR_INPUT,
               "checkpoint '%s': output table %zu row %zu has t = %g, out of order or after the "
               "checkpoint's t = %g",
               path, k, i, ti, ck->t);
    }
  }
  return SK_OK;
}

sk_status cli_ckpt_load(sk_context *ctx, cli_ckpt *c, const cli_job *job, const char *path,
                        int stale_ok)
{
  SK_CHECK(ctx, c->supported, SK_ERR_UNSUPPORTED,
           "--restart: model '%s' switches its equations at events (its switch states are not "
           "saved): checkpoints are not available for it",
           sk_model_get_name(job->model));
  cli_ckpt_free(ctx, c);
  SK_CALL_STOP(ctx, sk__checkpoint_read(ctx, path, &c->loaded));
  snprintf(c->loaded_path, sizeof c->loaded_path, "%s", path);
  sk_status st = check_problem(ctx, c, job, path, &c->loaded);
  const int other_problem = st != SK_OK;
  if (st == SK_OK) {
    st = check_contents(ctx, job, path, &c->loaded);
  }
  if (st != SK_OK) {
    cli_ckpt_free(ctx, c);
  }
  if (st == SK_ERR_INPUT && stale_ok && other_problem) {
    char msg[SK_ERROR_MSG_LEN];
    sk_error_format(sk_context_get_error(ctx), 0, msg, sizeof msg);
    sk__log(ctx, SK_LOG_WARN, "--resume: ignoring %s; starting at t0", msg);
    sk_context_clear_error(ctx);
    st = SK_OK;
  }
  return st;
}

sk_status cli_ckpt_apply(sk_context *ctx, cli_ckpt *c, cli_job *job)
{
  const sk__checkpoint *ck = &c->loaded;
  sk_status st = SK_OK;
  if (ck->ntables != sk__results_ntables(job->results)) {
    st = SK_ERROR(ctx, SK_ERR_INPUT,
                  "checkpoint '%s' holds %zu output tables, this run writes %zu", c->loaded_path,
                  ck->ntables, sk__results_ntables(job->results));
  }
  for (size_t k = 0; st == SK_OK && k < ck->ntables; k++) {
    const sk__checkpoint_table *tb = &ck->tables[k];
    st = sk__results_replay(job->results, k, tb->rows, tb->width, tb->data);
  }
  if (st == SK_OK) {
    set_next_after(c, job->t0, ck->t);
    st = restart_engine(ctx, c, job, ck->t, ck->y, ck->yp, ck->S, ck->h);
    c->before = ck->stats;
  }
  cli_ckpt_free(ctx, c);
  return st;
}

void cli_ckpt_free(sk_context *ctx, cli_ckpt *c)
{
  sk__checkpoint_free(ctx, &c->loaded);
}

void cli_ckpt_finish(const cli_ckpt *c)
{
  unlink(c->path);
}

void cli_job_get_stats(const cli_job *job, sk_stats *st)
{
  sk_stats cur;
  memset(&cur, 0, sizeof cur);
  if (job->stepper) {
    sk_stepper_get_stats(job->stepper, &cur);
  }
  *st = job->ckpt.before;
  sk_stats_add(st, &cur);
}

int cli_job_monitor(const sk_stepper *s, double t, double h, void *user_data)
{
  cli_job *job = user_data;
  if (job->ckpt.supported) { /* a step was taken: a stop now saves it in a checkpoint */
    cli_signal_grace_saving();
  }
  if (job->monitor && job->monitor(s, t, h, job->monitor_data)) {
    return 1;
  }
  const int pending =
      (job->stop_signal && *job->stop_signal) || cli_ckpt_monitor_due(&job->ckpt, t);
  /* a step that reached the output time ends the advance there anyway: the
     output is written first, then the signal or checkpoint is handled */
  return pending && t < job->target;
}

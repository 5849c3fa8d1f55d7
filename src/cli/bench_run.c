/* src/cli/bench_run.c: the runs of `stiffkit bench`: one point (repeats, wall times, counters), the error measure, the study's loop with progress and stop requests */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/signal_thread.h"
#include "cli/bench.h"
#include "cli/progress.h"
#include "core/error.h"
#include "steppers/stepper_keys.h"

bench_row *bench_row_new(bench_study *b)
{
  if (b->nrows == b->cap) {
    const size_t cap = b->cap ? 2 * b->cap : 32;
    bench_row *r = realloc(b->rows, cap * sizeof *r);
    if (!r) {
      return NULL;
    }
    b->rows = r;
    b->cap = cap;
  }
  bench_row *row = &b->rows[b->nrows++];
  memset(row, 0, sizeof *row);
  row->err = row->scd = NAN;
  return row;
}

double bench_measure(const bench_study *b, const double *y, double *scd)
{
  double maxe = 0, sum2 = 0, rel = 0;
  const size_t m = b->nt * b->ncomp;
  for (size_t i = 0; i < m; i++) {
    const double e = fabs(y[i] - b->ref[i]);
    if (!isfinite(y[i])) {
      *scd = NAN;
      return NAN;
    }
    maxe = e > maxe ? e : maxe;
    sum2 += e * e;
    const double r = b->ref[i] != 0.0 ? e / fabs(b->ref[i]) : e;
    rel = r > rel ? r : rel;
  }
  *scd = rel > 0 ? -log10(rel) : 16.0;
  return b->rms ? sqrt(sum2 / (double)m) : maxe;
}

/* The engine's monitor: nonzero (the run stops) once a stop is requested. */
static int stop_monitor(const sk_stepper *s, double t, double h, void *data)
{
  (void)s;
  (void)t;
  (void)h;
  const volatile sig_atomic_t *flag = data;
  return flag && *flag ? 1 : 0;
}

sk_status bench_solve(bench_study *b, cli_job *job, const char *method, int fixed, double param,
                      double atol, int64_t budget, double *y, sk_stats *st, double *wall)
{
  sk_context *ctx = b->ctx;
  sk_stepper *s = NULL;
  sk__stepper_settings solver;
  uint64_t given;
  sk_status rc = sk__stepper_settings_read(job->opts, &solver, &given);
  int64_t max_steps = solver.max_steps;
  if (rc == SK_OK) {
    rc = sk_stepper_create(ctx, method, job->model, &s);
  }
  if (rc == SK_OK) {
    rc = sk_stepper_set_from_options(s, job->opts);
  }
  if (rc == SK_OK && fixed) {
    const double steps = ceil((job->times[job->ntimes - 1] - job->t0) / param);
    /* the steps a fixed step takes, whatever solver.max_steps says */
    max_steps = steps + 16 > (double)max_steps ? (int64_t)fmin(steps + 16, 1e15) : max_steps;
    rc = sk_stepper_set_fixed_step(s, param);
  } else if (rc == SK_OK) {
    /* a tolerance rung (or a reference solve): a base solver.fixed_step is the fixed-step
       rows' (an engine that always adapts would refuse it) */
    rc = sk_stepper_set_fixed_step(s, 0.0);
    if (rc == SK_OK) {
      rc = sk_stepper_set_tolerances(s, param, atol);
    }
  }
  if (rc == SK_OK) {
    rc = sk_stepper_set_max_steps(s, max_steps * budget);
  }
  if (rc == SK_OK) {
    rc = sk_stepper_set_monitor(s, stop_monitor, (void *)b->stop_signal);
  }
  const double start = cli_wall_now();
  if (rc == SK_OK) {
    rc = sk_stepper_setup(s);
  }
  const double *state = s ? sk_stepper_get_state(s) : NULL;
  for (size_t k = 0, j = 0; rc == SK_OK && k < job->ntimes; k++) {
    double tret;
    rc = sk_stepper_advance(s, job->times[k], &tret);
    if (rc == SK_INTERRUPTED) {
      rc = SK_ERROR(ctx, SK_INTERRUPTED, "stopped at t = %.6e", tret);
    }
    if (rc == SK_OK && j < b->nt && b->tidx[j] == k) {
      for (size_t i = 0; i < b->ncomp; i++) {
        y[j * b->ncomp + i] = state[b->comps[i]];
      }
      j++;
    }
  }
  *wall = cli_wall_now() - start;
  memset(st, 0, sizeof *st);
  if (s) {
    sk_stepper_get_stats(s, st);
  }
  sk_stepper_destroy(&s);
  return rc;
}

static int cmp_double(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* "rtol 1e-06" or "h 0.001" */
static void point_text(const bench_method *m, double param, char *buf, size_t len)
{
  snprintf(buf, len, "%s %s %.3g", m->name, m->fixed ? "h" : "rtol", param);
}

/* One point of method k: repeats, the median wall time, the error. */
static sk_status run_point(bench_study *b, int k, double param, double *y)
{
  sk_context *ctx = b->ctx;
  bench_method *m = &b->m[k];
  double walls[1000];
  bench_row row;
  memset(&row, 0, sizeof row);
  row.method = k;
  row.param = param;
  row.err = row.scd = NAN;
  row.atol = m->fixed ? NAN : m->atol_ratio > 0 ? m->atol_ratio * param : m->job.atol;
  row.ok = 1;
  for (int64_t r = 0; r < b->repeats && row.ok; r++) {
    const sk_status st =
        bench_solve(b, &m->job, m->name, m->fixed, param, row.atol, 1, y, &row.stats, &walls[r]);
    row.repeats = (int)r + 1;
    if (st == SK_INTERRUPTED || (b->stop_signal && *b->stop_signal)) {
      b->interrupted = 1;
      return SK_OK; /* an incomplete point is not kept */
    }
    if (st == SK_ERR_NOMEM) {
      return st;
    }
    if (st != SK_OK) {
      row.ok = 0;
      sk_error_format(sk_context_get_error(ctx), 0, row.message, sizeof row.message);
      sk_context_clear_error(ctx);
    }
  }
  qsort(walls, (size_t)row.repeats, sizeof walls[0], cmp_double);
  row.wall_min = walls[0];
  row.wall_max = walls[row.repeats - 1];
  row.wall_med = row.repeats % 2 ? walls[row.repeats / 2]
                                 : 0.5 * (walls[row.repeats / 2 - 1] + walls[row.repeats / 2]);
  row.have_stats = 1;
  if (row.ok) {
    row.err = bench_measure(b, y, &row.scd);
    if (!isfinite(row.err)) {
      row.ok = 0;
      snprintf(row.message, sizeof row.message,
               "the solution is not finite at a measured time (the method blew up)");
    }
  }
  bench_row *out = bench_row_new(b);
  SK_CHECK(ctx, out != NULL, SK_ERR_NOMEM, "out of memory");
  *out = row;
  b->done++;
  cli_signal_grace_saving(); /* a stop now has complete points to write */
  if (!b->quiet) {
    char what[128];
    point_text(m, param, what, sizeof what);
    if (row.ok) {
      fprintf(stderr,
              "bench: [%zu/%zu] %s: error %.3e, scd %.2f, %.4g s (median of %d), %lld RHS\n",
              b->done, b->planned, what, row.err, row.scd, row.wall_med, row.repeats,
              (long long)row.stats.rhs_evals);
    } else {
      fprintf(stderr, "bench: [%zu/%zu] %s: failed: %s\n", b->done, b->planned, what,
              row.message);
    }
  }
  return SK_OK;
}

sk_status bench_run_all(bench_study *b)
{
  sk_context *ctx = b->ctx;
  double *y = malloc(b->nt * b->ncomp * sizeof *y);
  SK_CHECK(ctx, y != NULL, SK_ERR_NOMEM, "cannot allocate %zu states", b->nt * b->ncomp);
  sk_status st = SK_OK;
  for (int k = 0; k < b->nm && st == SK_OK && !b->interrupted; k++) {
    for (size_t i = 0; i < b->m[k].nladder && st == SK_OK && !b->interrupted; i++) {
      if (b->m[k].external) {
        continue;
      }
      st = run_point(b, k, b->m[k].ladder[i], y);
    }
  }
  free(y);
  return st;
}

/* src/cli/bench_external.c: state tables read by `stiffkit bench` (external methods' results, a reference file) and the external methods added to the study */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/bench.h"
#include "cli/bench_keys.h"
#include "cli/csv_read.h"
#include "core/error.h"

void bench_state_table_free(bench_state_table *st)
{
  free(st->lead);
  free(st->t);
  free(st->y);
  free(st->line);
  memset(st, 0, sizeof *st);
}

/* A field as a finite number. */
static sk_status number(sk_context *ctx, const char *path, const cli_csv_row *row, size_t f,
                        const char *what, double *v)
{
  char *end;
  errno = 0;
  *v = strtod(row->fields[f], &end);
  SK_CHECK(ctx, row->fields[f][0] && *end == '\0' && errno == 0 && isfinite(*v), SK_ERR_INPUT,
           "%s:%d:%d: %s: '%s' is not a finite number", path, row->line, row->columns[f], what,
           row->fields[f]);
  return SK_OK;
}

sk_status bench_state_table_read(sk_context *ctx, const char *path, const char *const *lead,
                                 const int *optional, size_t nlead, int64_t n,
                                 bench_state_table *st)
{
  memset(st, 0, sizeof *st);
  cli_csv csv;
  sk_status rc = cli_csv_read(ctx, path, &csv);
  if (rc != SK_OK) {
    cli_csv_free(&csv);
    return rc;
  }
  /* the header: the leading names (optional ones may be left out), t, n state columns */
  long col[16];
  size_t f = 0;
  const cli_csv_row *h = csv.nrows ? &csv.rows[0] : NULL;
  char expect[512] = "";
  size_t used = 0;
  for (size_t k = 0; k < nlead; k++) {
    used += (size_t)snprintf(expect + used, sizeof expect - used, "%s%s%s", lead[k],
                             optional[k] ? " (optional)" : "", ", ");
  }
  snprintf(expect + used, sizeof expect - used, "t, then the %lld state components",
           (long long)n);
  for (size_t k = 0; h && k < nlead && rc == SK_OK; k++) {
    if (f < h->nfields && !strcasecmp(h->fields[f], lead[k])) {
      col[k] = (long)f++;
    } else if (optional[k]) {
      col[k] = -1;
    } else {
      rc = SK_ERROR(ctx, SK_ERR_INPUT, "%s:%d: the header must be: %s (column %zu is '%s')", path,
                    h->line, expect, f + 1, f < h->nfields ? h->fields[f] : "missing");
    }
  }
  if (rc == SK_OK && (!h || f >= h->nfields || strcasecmp(h->fields[f], "t"))) {
    rc = SK_ERROR(ctx, SK_ERR_INPUT, "%s:%d: the header must be: %s", path, h ? h->line : 1,
                  expect);
  }
  const size_t width = f + 1 + (size_t)n;
  if (rc == SK_OK && h->nfields != width) {
    rc = SK_ERROR(ctx, SK_ERR_INPUT,
                  "%s:%d: the header has %zu columns; %zu expected: %s (the model has n = %lld)",
                  path, h->line, h->nfields, width, expect, (long long)n);
  }
  if (rc == SK_OK && csv.nrows < 2) {
    rc = SK_ERROR(ctx, SK_ERR_INPUT, "%s: no rows after the header", path);
  }
  if (rc == SK_OK) {
    st->nrows = csv.nrows - 1;
    st->nlead = nlead;
    st->n = n;
    st->lead = malloc((st->nrows * nlead + 1) * sizeof *st->lead);
    st->t = malloc(st->nrows * sizeof *st->t);
    st->y = malloc(st->nrows * (size_t)n * sizeof *st->y);
    st->line = malloc(st->nrows * sizeof *st->line);
    if (!st->lead || !st->t || !st->y || !st->line) {
      rc = SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the table of %s", path);
    }
  }
  for (size_t r = 0; rc == SK_OK && r < st->nrows; r++) {
    const cli_csv_row *row = &csv.rows[r + 1];
    st->line[r] = row->line;
    if (row->nfields != width) {
      rc = SK_ERROR(ctx, SK_ERR_INPUT, "%s:%d: row %zu has %zu fields; the header has %zu (%s)",
                    path, row->line, r + 1, row->nfields, width, expect);
      break;
    }
    for (size_t k = 0; k < nlead && rc == SK_OK; k++) {
      st->lead[r * nlead + k] = NAN;
      if (col[k] >= 0) {
        rc = number(ctx, path, row, (size_t)col[k], lead[k], &st->lead[r * nlead + k]);
      }
    }
    if (rc == SK_OK) {
      rc = number(ctx, path, row, f, "t", &st->t[r]);
    }
    for (int64_t i = 0; i < n && rc == SK_OK; i++) {
      rc = number(ctx, path, row, f + 1 + (size_t)i, h->fields[f + 1 + (size_t)i],
                  &st->y[r * (size_t)n + (size_t)i]);
    }
  }
  cli_csv_free(&csv);
  if (rc != SK_OK) {
    bench_state_table_free(st);
  }
  return rc;
}

sk_status bench_states_at_times(const bench_study *b, const bench_state_table *st, size_t r0,
                                size_t r1, const char *path, const char *what, double *y)
{
  for (size_t k = 0; k < b->nt; k++) {
    const double t = b->base.times[b->tidx[k]];
    size_t r = r0;
    while (r < r1 && fabs(st->t[r] - t) > 1e-9 * fmax(1.0, fabs(t))) {
      r++;
    }
    SK_CHECK(b->ctx, r < r1, SK_ERR_INPUT,
             "%s:%d: %s (rows from line %d on) has no state at the output time t = %.10g (the "
             "error is measured at %s)",
             path, st->line[r0], what, st->line[r0], t,
             b->final_only ? "the last output time" : "every output time");
    for (size_t i = 0; i < b->ncomp; i++) {
      y[k * b->ncomp + i] = st->y[r * (size_t)st->n + (size_t)b->comps[i]];
    }
  }
  return SK_OK;
}

/* The external file `path` as method k: one point per tolerance. */
static sk_status add_file(bench_study *b, const char *path, double *y)
{
  sk_context *ctx = b->ctx;
  static const char *const lead[] = {"tolerance", "wall_time", "rhs_evals"};
  static const int optional[] = {0, 0, 1};
  SK_CHECK(ctx, b->nm < BENCH_MAX_METHODS, SK_ERR_INPUT, "%s: more than %d methods", path,
           BENCH_MAX_METHODS);
  bench_method *m = &b->m[b->nm];
  memset(m, 0, sizeof *m);
  cli_job_init(&m->job);
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  size_t len = strlen(base);
  len = len > 4 && !strcmp(base + len - 4, ".csv") ? len - 4 : len;
  snprintf(m->name, sizeof m->name, "%.*s", (int)len, base);
  m->external = 1;
  b->nm++;
  bench_state_table st;
  SK_CALL(ctx, bench_state_table_read(ctx, path, lead, optional, 3, sk_model_get_n(b->base.model),
                                      &st));
  m->ladder = malloc(st.nrows * sizeof *m->ladder);
  sk_status rc = m->ladder ? SK_OK : SK_ERROR(ctx, SK_ERR_NOMEM, "out of memory");
  for (size_t r0 = 0; rc == SK_OK && r0 < st.nrows;) {
    const double tol = st.lead[r0 * 3];
    size_t r1 = r0;
    double wall = 0, rhs = st.lead[r0 * 3 + 2];
    while (r1 < st.nrows && st.lead[r1 * 3] == tol) {
      wall = fmax(wall, st.lead[r1 * 3 + 1]);
      r1++;
    }
    char what[96];
    snprintf(what, sizeof what, "the run at tolerance %g", tol);
    rc = bench_states_at_times(b, &st, r0, r1, path, what, y);
    bench_row *row = rc == SK_OK ? bench_row_new(b) : NULL;
    if (rc == SK_OK && !row) {
      rc = SK_ERROR(ctx, SK_ERR_NOMEM, "out of memory");
    }
    if (row) {
      row->method = b->nm - 1;
      row->param = tol;
      row->atol = NAN;
      row->wall_med = row->wall_min = row->wall_max = wall;
      row->repeats = 1;
      row->have_stats = isnan(rhs) ? 0 : 2;
      row->stats.rhs_evals = isnan(rhs) ? 0 : (int64_t)rhs;
      row->err = bench_measure(b, y, &row->scd);
      row->ok = isfinite(row->err);
      if (!row->ok) {
        snprintf(row->message, sizeof row->message, "a state is not finite");
      }
      m->ladder[m->nladder++] = tol;
    }
    r0 = r1;
  }
  bench_state_table_free(&st);
  return rc;
}

sk_status bench_external_add(bench_study *b)
{
  sk_context *ctx = b->ctx;
  const char *const *paths;
  size_t n;
  SK_CALL(ctx, /* each checked to exist */
          sk_options_get_input_files(b->base.opts, bench_key(BENCH_KEY_external), &paths, &n));
  double *y = malloc(b->nt * b->ncomp * sizeof *y);
  SK_CHECK(ctx, y != NULL, SK_ERR_NOMEM, "out of memory");
  sk_status rc = SK_OK;
  for (size_t k = 0; k < n && rc == SK_OK; k++) {
    rc = add_file(b, paths[k], y);
    if (rc == SK_OK && !b->quiet) {
      fprintf(stderr, "bench: external %s: %zu points from %s\n", b->m[b->nm - 1].name,
              b->m[b->nm - 1].nladder, paths[k]);
    }
  }
  free(y);
  return rc;
}

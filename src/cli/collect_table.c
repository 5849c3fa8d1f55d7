/* src/cli/collect_table.c: the table of a sweep's cases: status, parameters, probes at chosen times, final norms, statistics, provenance hash */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/collect.h"
#include "cli/csv_read.h"
#include "cli/json_read.h"
#include "core/error.h"

/* What was found of one case. */
typedef struct {
  sweep_status status;
  cli_csv csv; /* the results CSV (no rows when absent) */
  cli_json_flat stats;
  char provenance[17];
  long norms; /* column of max_abs_y in the CSV (-1: none) */
} case_data;

static void load_case(sk_context *ctx, const char *dir, const sweep_manifest *m, size_t i,
                      case_data *d)
{
  char path[SWEEP_PATH], file[SWEEP_PATH];
  sweep_status_read(dir, m->id_width, i, &d->status);
  sweep_status_settle(&d->status);
  snprintf(file, sizeof file, "%s.csv", m->prefixes[i]);
  if (sweep_case_path(path, sizeof path, dir, m->id_width, i, file) != 0 ||
      cli_csv_read(ctx, path, &d->csv) != SK_OK) {
    cli_csv_free(&d->csv);
  }
  d->norms = cli_csv_column(&d->csv, "max_abs_y");
  if (sweep_case_path(path, sizeof path, dir, m->id_width, i, "stats.json") != 0 ||
      cli_json_read_flat(ctx, path, &d->stats) != SK_OK) {
    cli_json_flat_free(&d->stats);
  }
  snprintf(file, sizeof file, "%s.provenance.yaml", m->prefixes[i]);
  if (sweep_case_path(path, sizeof path, dir, m->id_width, i, file) != 0 ||
      collect_provenance_hash(ctx, path, d->provenance) != 0) {
    d->provenance[0] = '\0';
  }
}

/* Every chosen probe must name a column of the results of each case that
 * has results and is neither failed nor missing (a typo would else give a
 * column of NaN). */
static sk_status check_probes(sk_context *ctx, const char *dir, const sweep_manifest *m,
                              const case_data *d, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    const char *st = d[i].status.status;
    if (d[i].csv.nrows == 0 || !strcmp(st, "failed") || !strcmp(st, "missing")) {
      continue;
    }
    for (size_t k = 0; k < m->collect.nprobes; k++) {
      if (cli_csv_column(&d[i].csv, m->collect.probes[k]) >= 0) {
        continue;
      }
      char cols[1024] = "", path[SWEEP_PATH], file[SWEEP_PATH];
      size_t len = 0;
      const cli_csv_row *head = &d[i].csv.rows[0];
      for (size_t c = 0; c < head->nfields && len < sizeof cols; c++) {
        len += (size_t)snprintf(cols + len, sizeof cols - len, "%s%s", c ? ", " : "",
                                head->fields[c]);
      }
      snprintf(file, sizeof file, "%s.csv", m->prefixes[i]);
      sweep_case_path(path, sizeof path, dir, m->id_width, i, file);
      return SK_ERROR(ctx, SK_ERR_INPUT,
                      "collect: probe '%s' is not a column of case %0*zu's results (%s); its "
                      "columns: %s",
                      m->collect.probes[k], m->id_width, i, path, cols);
    }
  }
  return SK_OK;
}

static void free_cases(case_data *d, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    cli_csv_free(&d[i].csv);
    cli_json_flat_free(&d[i].stats);
  }
  free(d);
}

/* ---- reading the results CSV ---------------------------------------------- */

static double field_number(const cli_csv_row *r, long col)
{
  if (col < 0 || (size_t)col >= r->nfields) {
    return NAN;
  }
  char *end;
  const double v = strtod(r->fields[col], &end);
  return end != r->fields[col] && *end == '\0' ? v : NAN;
}

/* Column `col` at time T: the row whose t matches within 1e-12 relative,
 * else linear interpolation between the bracketing rows; NaN outside the
 * rows. T = NaN: the final row. */
static double value_at(const cli_csv *csv, long col, double T)
{
  if (csv->nrows < 2 || col < 0) {
    return NAN;
  }
  if (isnan(T)) {
    return field_number(&csv->rows[csv->nrows - 1], col);
  }
  for (size_t r = 1; r < csv->nrows; r++) {
    const double t = field_number(&csv->rows[r], 0);
    if (fabs(t - T) <= 1e-12 * fmax(fabs(t), fabs(T))) {
      return field_number(&csv->rows[r], col);
    }
  }
  for (size_t r = 1; r + 1 < csv->nrows; r++) {
    const double t0 = field_number(&csv->rows[r], 0), t1 = field_number(&csv->rows[r + 1], 0);
    if (t0 < T && T < t1) {
      const double v0 = field_number(&csv->rows[r], col),
                   v1 = field_number(&csv->rows[r + 1], col);
      return v0 + (v1 - v0) * (T - t0) / (t1 - t0);
    }
  }
  return NAN;
}

/* Probe columns of a case's CSV: those between t and max_abs_y. */
static size_t probe_count(const case_data *d)
{
  return d->norms > 1 ? (size_t)d->norms - 1 : 0;
}

/* ---- building the table --------------------------------------------------- */

typedef struct {
  sk_context *ctx;
  collect_table *t;
  size_t cap;
  int oom;
} builder;

static void add_column(builder *b, const char *name, const char *group, collect_kind kind)
{
  if (b->oom) {
    return;
  }
  if (b->t->ncols == b->cap) {
    b->cap = b->cap ? 2 * b->cap : 32;
    collect_column *grown = realloc(b->t->cols, b->cap * sizeof *grown);
    if (!grown) {
      b->oom = 1;
      return;
    }
    b->t->cols = grown;
  }
  char *copy = strdup(name);
  if (!copy) {
    b->oom = 1;
    return;
  }
  b->t->cols[b->t->ncols++] = (collect_column){copy, group, kind};
}

static size_t find_column(const collect_table *t, size_t from, const char *name)
{
  for (size_t c = from; c < t->ncols; c++) {
    if (!strcmp(t->cols[c].name, name)) {
      return c;
    }
  }
  return (size_t)-1;
}

/* The name of positional probe k: the probe's name when every case with
 * results agrees on it, else "probe<k>". */
static void probe_name(const case_data *d, size_t n, size_t k, char *buf, size_t cap)
{
  const char *name = NULL;
  for (size_t i = 0; i < n; i++) {
    if (probe_count(&d[i]) > k) {
      const char *here = d[i].csv.rows[0].fields[k + 1];
      if (name && strcmp(name, here) != 0) {
        name = NULL;
        break;
      }
      name = here;
    }
  }
  if (name) {
    snprintf(buf, cap, "%s", name);
  } else {
    snprintf(buf, cap, "probe%zu", k);
  }
}

static void time_suffix(const sweep_collect *c, size_t k, char *buf, size_t cap)
{
  if (c->ntimes == 0) {
    snprintf(buf, cap, "@end");
  } else {
    snprintf(buf, cap, "@t=%.10g", c->times[k]);
  }
}

static void output_columns(builder *b, const sweep_manifest *m, const case_data *d, size_t n)
{
  size_t nprobes = m->collect.nprobes;
  if (nprobes == 0) {
    for (size_t i = 0; i < n; i++) {
      nprobes = probe_count(&d[i]) > nprobes ? probe_count(&d[i]) : nprobes;
    }
  }
  const size_t ntimes = m->collect.ntimes ? m->collect.ntimes : 1;
  for (size_t k = 0; k < nprobes; k++) {
    char name[512], suffix[64], col[600];
    if (m->collect.nprobes) {
      snprintf(name, sizeof name, "%s", m->collect.probes[k]);
    } else {
      probe_name(d, n, k, name, sizeof name);
    }
    for (size_t q = 0; q < ntimes; q++) {
      time_suffix(&m->collect, q, suffix, sizeof suffix);
      snprintf(col, sizeof col, "%s%s", name, suffix);
      add_column(b, col, "outputs", COLLECT_NUMBER);
    }
  }
  int err = 0;
  for (size_t i = 0; i < n; i++) {
    err |= cli_csv_column(&d[i].csv, "max_abs_err") >= 0;
  }
  const char *norms[] = {"max_abs_y", "rms_y", "max_abs_err", "rms_err"};
  for (int k = 0; k < (err ? 4 : 2); k++) {
    add_column(b, norms[k], "outputs", COLLECT_NUMBER);
  }
}

/* Fill the output cells of row i. */
static void output_cells(collect_table *t, const sweep_manifest *m, const case_data *d, size_t i)
{
  const size_t ntimes = m->collect.ntimes ? m->collect.ntimes : 1;
  size_t c = t->first_output;
  for (; c < t->first_stat && strcmp(t->cols[c].name, "max_abs_y") != 0; c++) {
    const size_t k = (c - t->first_output) / ntimes, q = (c - t->first_output) % ntimes;
    const long col = m->collect.nprobes ? cli_csv_column(&d->csv, m->collect.probes[k])
                                        : (k < probe_count(d) ? (long)k + 1 : -1);
    t->num[i * t->ncols + c] =
        value_at(&d->csv, col, m->collect.ntimes ? m->collect.times[q] : NAN);
  }
  for (; c < t->first_stat; c++) {
    t->num[i * t->ncols + c] = value_at(&d->csv, cli_csv_column(&d->csv, t->cols[c].name), NAN);
  }
}

/* Parameters are numbers in HDF5 when every value is one. */
static int all_numbers(const sweep_cases *c, size_t j)
{
  for (size_t i = 0; i < c->ncases; i++) {
    char *end;
    const char *v = c->values[i * c->nkeys + j];
    strtod(v, &end);
    if (end == v || *end != '\0') {
      return 0;
    }
  }
  return 1;
}

/* The column of a stats.json field: "stats." and the key without the
 * object it sits in ("n" -> "stats.n", "stats.steps" -> "stats.steps"), so
 * that no statistic shares a name with an output column. */
static void stat_name(const char *key, char *buf, size_t cap)
{
  snprintf(buf, cap, "stats.%s", strncmp(key, "stats.", 6) ? key : key + 6);
}

static void make_columns(builder *b, const sweep_manifest *m, const case_data *d, size_t n)
{
  static const char *const head[] = {"id", "status", "exit_code", "wall_time", "attempts"};
  for (int k = 0; k < 5; k++) {
    add_column(b, head[k], "", k < 2 ? COLLECT_TEXT : COLLECT_NUMBER);
  }
  for (size_t j = 0; j < m->cases.nkeys; j++) {
    add_column(b, m->cases.keys[j], "parameters",
               all_numbers(&m->cases, j) ? COLLECT_NUMBER : COLLECT_TEXT);
  }
  b->t->first_output = b->t->ncols;
  output_columns(b, m, d, n);
  b->t->first_stat = b->t->ncols;
  for (size_t i = 0; i < n; i++) {
    for (size_t f = 0; f < d[i].stats.n; f++) {
      const cli_json_field *fld = &d[i].stats.fields[f];
      char name[512];
      stat_name(fld->key, name, sizeof name);
      if (fld->kind == CLI_JSON_NUMBER &&
          find_column(b->t, b->t->first_stat, name) == (size_t)-1) {
        add_column(b, name, "statistics", COLLECT_NUMBER);
      }
    }
  }
  add_column(b, "provenance", "", COLLECT_TEXT);
  add_column(b, "error", "", COLLECT_TEXT);
}

static char *dup_or_null(builder *b, const char *s)
{
  char *d = strdup(s);
  b->oom |= d == NULL;
  return d;
}

static void fill_row(builder *b, const sweep_manifest *m, const case_data *d, size_t i)
{
  collect_table *t = b->t;
  const size_t base = i * t->ncols;
  for (size_t c = 0; c < t->ncols; c++) {
    t->num[base + c] = NAN;
  }
  char id[32];
  snprintf(id, sizeof id, "%0*zu", m->id_width, i);
  t->text[base + 0] = dup_or_null(b, id);
  t->text[base + 1] = dup_or_null(b, d->status.status);
  t->num[base + 2] = d->status.exit_code >= 0 ? d->status.exit_code : NAN;
  t->num[base + 3] = strcmp(d->status.status, "missing") ? d->status.wall_time : NAN;
  t->num[base + 4] = (double)d->status.attempts;
  for (size_t j = 0; j < m->cases.nkeys; j++) {
    const char *v = m->cases.values[i * m->cases.nkeys + j];
    t->text[base + 5 + j] = dup_or_null(b, v);
    t->num[base + 5 + j] = strtod(v, NULL);
  }
  output_cells(t, m, d, i);
  for (size_t f = 0; f < d->stats.n; f++) {
    char name[512];
    stat_name(d->stats.fields[f].key, name, sizeof name);
    const size_t c = find_column(t, t->first_stat, name);
    if (c != (size_t)-1 && d->stats.fields[f].kind == CLI_JSON_NUMBER) {
      t->num[base + c] = d->stats.fields[f].number;
    }
  }
  t->text[base + t->ncols - 2] = dup_or_null(b, d->provenance);
  t->text[base + t->ncols - 1] = dup_or_null(b, d->status.error);
}

sk_status collect_build(sk_context *ctx, const char *dir, const sweep_manifest *m,
                        collect_table *t)
{
  memset(t, 0, sizeof *t);
  const size_t n = m->cases.ncases;
  case_data *d = calloc(n ? n : 1, sizeof *d);
  SK_CHECK(ctx, d != NULL, SK_ERR_NOMEM, "out of memory for %zu cases", n);
  for (size_t i = 0; i < n; i++) {
    load_case(ctx, dir, m, i, &d[i]);
  }
  const sk_status st = check_probes(ctx, dir, m, d, n);
  builder b = {ctx, t, 0, 0};
  if (st != SK_OK) {
    free_cases(d, n);
    return st;
  }
  make_columns(&b, m, d, n);
  t->nrows = n;
  if (!b.oom) {
    const size_t cells = n * t->ncols > 0 ? n * t->ncols : 1;
    t->text = calloc(cells, sizeof *t->text);
    t->num = calloc(cells, sizeof *t->num);
    b.oom = !t->text || !t->num;
  }
  for (size_t i = 0; i < n && !b.oom; i++) {
    fill_row(&b, m, &d[i], i);
  }
  free_cases(d, n);
  SK_CHECK(ctx, !b.oom, SK_ERR_NOMEM, "out of memory collecting %zu cases", n);
  return SK_OK;
}

void collect_table_free(collect_table *t)
{
  for (size_t c = 0; t->cols && c < t->ncols; c++) {
    free(t->cols[c].name);
  }
  for (size_t k = 0; t->text && k < t->nrows * t->ncols; k++) {
    free(t->text[k]);
  }
  free(t->cols);
  free(t->text);
  free(t->num);
  memset(t, 0, sizeof *t);
}

const char *collect_cell_text(const collect_table *t, size_t row, size_t col, char *buf,
                              size_t cap)
{
  const size_t k = row * t->ncols + col;
  if (t->text[k]) {
    return t->text[k];
  }
  const double v = t->num[k];
  if (isnan(v)) {
    snprintf(buf, cap, "nan");
  } else if (v == floor(v) && fabs(v) < 1e15) {
    snprintf(buf, cap, "%.0f", v);
  } else {
    snprintf(buf, cap, "%.10e", v);
  }
  return buf;
}

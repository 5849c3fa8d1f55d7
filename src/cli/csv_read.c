/* src/cli/csv_read.c: reading small CSV tables (libcsv, strict RFC 4180 quoting, '#' comment lines) with line and column of every field */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <csv.h>

#include "cli/csv_read.h"
#include "core/error.h"
#include "core/stop.h"
#include "core/input_file.h"

#define NO_FIELD SIZE_MAX

/* libcsv reports fields and records, not where they are: the reader feeds
 * it the file up to and including each ',', CR or LF (the only bytes after
 * which it calls back), and notes where the current record and field began. */
typedef struct {
  const char *buf;
  size_t len;
  cli_csv *csv;
  size_t rows_cap, fields_cap;
  cli_csv_row row;    /* the record being read */
  size_t field_start; /* offset of the current field's first non-blank byte, or NO_FIELD */
  int in_record;
  size_t at; /* a cursor moving forward only: offset, line and column */
  int line, col;
  int oom;
} reader;

/* Line and column of byte `off` (never before the last one asked for). */
static void locate(reader *r, size_t off, int *line, int *col)
{
  for (; r->at < off && r->at < r->len; r->at++) {
    if (r->buf[r->at] == '\n') {
      r->line++;
      r->col = 1;
    } else {
      r->col++;
    }
  }
  *line = r->line;
  *col = r->col;
}

/* Room for one more field in row (capacity *cap, doubling). */
static int row_room(cli_csv_row *row, size_t *cap)
{
  if (row->nfields < *cap) {
    return 0;
  }
  const size_t want = *cap ? 2 * *cap : 8;
  char **fields = realloc(row->fields, want * sizeof *fields);
  if (!fields) {
    return -1;
  }
  row->fields = fields;
  int *columns = realloc(row->columns, want * sizeof *columns);
  if (!columns) {
    return -1;
  }
  row->columns = columns;
  *cap = want;
  return 0;
}

/* Room for one more row in the table (capacity *cap, doubling). */
static int table_room(cli_csv *csv, size_t *cap)
{
  if (csv->nrows < *cap) {
    return 0;
  }
  const size_t want = *cap ? 2 * *cap : 64;
  cli_csv_row *rows = realloc(csv->rows, want * sizeof *rows);
  if (!rows) {
    return -1;
  }
  csv->rows = rows;
  *cap = want;
  return 0;
}

static void on_field(void *text, size_t n, void *data)
{
  reader *r = data;
  int line, col;
  locate(r, r->field_start == NO_FIELD ? r->len : r->field_start, &line, &col);
  r->field_start = NO_FIELD;
  cli_csv_row *row = &r->row;
  if (r->oom || row_room(row, &r->fields_cap) != 0) {
    r->oom = 1;
    return;
  }
  char *copy = malloc(n + 1);
  if (!copy) {
    r->oom = 1;
    return;
  }
  if (n) {
    memcpy(copy, text, n);
  }
  copy[n] = '\0';
  if (row->nfields == 0) {
    row->line = line;
  }
  row->fields[row->nfields] = copy;
  row->columns[row->nfields++] = col;
}

static void row_free(cli_csv_row *row)
{
  for (size_t i = 0; i < row->nfields; i++) {
    free(row->fields[i]);
  }
  free(row->fields);
  free(row->columns);
  memset(row, 0, sizeof *row);
}

static void on_record(int c, void *data)
{
  (void)c;
  reader *r = data;
  r->in_record = 0;
  if (r->oom || table_room(r->csv, &r->rows_cap) != 0) {
    r->oom = 1;
    row_free(&r->row);
  } else {
    r->csv->rows[r->csv->nrows++] = r->row;
    memset(&r->row, 0, sizeof r->row);
  }
  r->fields_cap = 0;
}

/* Feed bytes [from, to) to the parser; returns 0, or -1 with *bad at the
 * offset where strict mode refused the input. */
static int feed(struct csv_parser *p, reader *r, size_t from, size_t to, size_t *bad)
{
  if (to <= from) {
    return 0;
  }
  const size_t got = csv_parse(p, r->buf + from, to - from, on_field, on_record, r);
  if (got != to - from) {
    *bad = from + got;
    return -1;
  }
  return 0;
}

static sk_status parse(sk_context *ctx, const char *path, reader *r)
{
  struct csv_parser p;
  if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI) != 0) {
    return SK_ERROR(ctx, SK_ERR_NOMEM, "%s: out of memory", path);
  }
  size_t from = 0, bad = NO_FIELD;
  int failed = 0;
  for (size_t i = 0; i < r->len && !failed && !r->oom; i++) {
    const char c = r->buf[i];
    if (!r->in_record) {
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n') { /* blank lines: nothing to feed */
        from = i + 1;
        continue;
      }
      if (c == '#' && (i == 0 || r->buf[i - 1] == '\n')) { /* a comment line */
        const char *nl = memchr(r->buf + i, '\n', r->len - i);
        i = nl ? (size_t)(nl - r->buf) : r->len - 1;
        from = i + 1;
        continue;
      }
      r->in_record = 1;
      r->field_start = i;
    } else if (r->field_start == NO_FIELD && c != ' ' && c != '\t') {
      r->field_start = i;
    }
    if (c == ',' || c == '\n' || c == '\r') {
      failed = feed(&p, r, from, i + 1, &bad) != 0;
      from = i + 1;
    }
  }
  if (!failed && !r->oom) {
    failed = feed(&p, r, from, r->len, &bad) != 0;
  }
  int unterminated = 0;
  if (!failed && !r->oom && csv_fini(&p, on_field, on_record, r) != 0) {
    unterminated = csv_error(&p) == CSV_EPARSE;
    failed = 1;
  }
  const int nomem = r->oom || csv_error(&p) == CSV_ENOMEM;
  csv_free(&p);
  if (nomem) {
    return SK_ERROR(ctx, SK_ERR_NOMEM, "%s: out of memory", path);
  }
  if (!failed) {
    return SK_OK;
  }
  int line, col;
  locate(r, unterminated ? r->field_start : bad, &line, &col);
  if (unterminated) {
    return SK_ERROR(ctx, SK_ERR_INPUT, "%s:%d:%d: unterminated quoted field", path, line, col);
  }
  return SK_ERROR(ctx, SK_ERR_INPUT,
                  "%s:%d:%d: malformed CSV: a quote inside an unquoted field or text after a "
                  "closing quote",
                  path, line, col);
}

/* The whole file into a malloc'ed buffer. */
static sk_status slurp(sk_context *ctx, const char *path, char **buf, size_t *len)
{
  FILE *f = NULL;
  SK_CALL_STOP(ctx, sk__input_open(ctx, path, "file", SIZE_MAX, &f));
  size_t cap = 0, n = 0;
  char *b = NULL;
  int oom = 0;
  for (;;) {
    if (n == cap) {
      char *grown = realloc(b, cap ? 2 * cap : 65536);
      if (!grown) {
        oom = 1;
        break;
      }
      b = grown;
      cap = cap ? 2 * cap : 65536;
    }
    const size_t got = fread(b + n, 1, cap - n, f);
    n += got;
    if (got == 0) {
      break;
    }
  }
  const int bad = ferror(f);
  const int err = errno;
  sk__input_close(f);
  if (oom || bad) {
    free(b);
    return oom ? SK_ERROR(ctx, SK_ERR_NOMEM, "%s: out of memory", path)
               : SK_ERROR(ctx, SK_ERR_IO, "cannot read '%s': %s", path, strerror(err));
  }
  *buf = b;
  *len = n;
  return SK_OK;
}

sk_status cli_csv_read(sk_context *ctx, const char *path, cli_csv *csv)
{
  memset(csv, 0, sizeof *csv);
  char *buf = NULL;
  size_t len = 0;
  SK_CALL(ctx, slurp(ctx, path, &buf, &len));
  reader r;
  memset(&r, 0, sizeof r);
  r.buf = buf;
  r.len = len;
  r.csv = csv;
  r.field_start = NO_FIELD;
  r.line = r.col = 1;
  const sk_status st = parse(ctx, path, &r);
  row_free(&r.row);
  free(buf);
  return st;
}

void cli_csv_free(cli_csv *csv)
{
  for (size_t i = 0; i < csv->nrows; i++) {
    row_free(&csv->rows[i]);
  }
  free(csv->rows);
  memset(csv, 0, sizeof *csv);
}

long cli_csv_column(const cli_csv *csv, const char *name)
{
  if (csv->nrows == 0) {
    return -1;
  }
  for (size_t i = 0; i < csv->rows[0].nfields; i++) {
    if (!strcmp(csv->rows[0].fields[i], name)) {
      return (long)i;
    }
  }
  return -1;
}

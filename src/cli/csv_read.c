/* src/cli/csv_read.c: reading small CSV tables (RFC 4180 quoting, '#' comment lines) with line and column of every field */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/csv_read.h"
#include "core/error.h"

/* A growing text buffer for one field. */
typedef struct {
  char *s;
  size_t len, cap;
} field_buf;

static int buf_put(field_buf *b, char c)
{
  if (b->len + 1 >= b->cap) {
    const size_t cap = b->cap ? 2 * b->cap : 64;
    char *grown = realloc(b->s, cap);
    if (!grown) {
      return -1;
    }
    b->s = grown;
    b->cap = cap;
  }
  b->s[b->len++] = c;
  b->s[b->len] = '\0';
  return 0;
}

/* Append the field in b (trimmed when it was not quoted) to row r. */
static int row_add(cli_csv_row *r, field_buf *b, int quoted, int column)
{
  size_t start = 0, end = b->len;
  if (!quoted) {
    while (start < end && (b->s[start] == ' ' || b->s[start] == '\t')) {
      start++;
    }
    while (end > start && (b->s[end - 1] == ' ' || b->s[end - 1] == '\t' || b->s[end - 1] == '\r')) {
      end--;
    }
  }
  char *text = malloc(end - start + 1);
  char **fields = realloc(r->fields, (r->nfields + 1) * sizeof *fields);
  if (fields) {
    r->fields = fields;
  }
  int *columns = realloc(r->columns, (r->nfields + 1) * sizeof *columns);
  if (columns) {
    r->columns = columns;
  }
  if (!text || !fields || !columns) {
    free(text);
    return -1;
  }
  if (end > start) {
    memcpy(text, b->s + start, end - start);
  }
  text[end - start] = '\0';
  r->fields[r->nfields] = text;
  r->columns[r->nfields] = column + (int)start;
  r->nfields++;
  b->len = 0;
  if (b->s) {
    b->s[0] = '\0';
  }
  return 0;
}

static int table_add(cli_csv *csv, cli_csv_row *r)
{
  cli_csv_row *rows = realloc(csv->rows, (csv->nrows + 1) * sizeof *rows);
  if (!rows) {
    return -1;
  }
  csv->rows = rows;
  csv->rows[csv->nrows++] = *r;
  memset(r, 0, sizeof *r);
  return 0;
}

static void row_free(cli_csv_row *r)
{
  for (size_t i = 0; i < r->nfields; i++) {
    free(r->fields[i]);
  }
  free(r->fields);
  free(r->columns);
  memset(r, 0, sizeof *r);
}

/* The parser: one pass over the characters of the file. */
static sk_status parse(sk_context *ctx, const char *path, FILE *f, cli_csv *csv)
{
  field_buf b = {NULL, 0, 0};
  cli_csv_row r;
  memset(&r, 0, sizeof r);
  int line = 1, col = 0, c;
  int at_record_start = 1, in_quotes = 0, quoted = 0, after_quote = 0, field_col = 1;
  int comment = 0, oom = 0;
  sk_status st = SK_OK;
  while ((c = fgetc(f)) != EOF && !oom) {
    col++;
    if (comment) {
      if (c == '\n') {
        comment = 0;
        line++;
        col = 0;
      }
      continue;
    }
    if (at_record_start && !in_quotes) {
      if (c == '#') {
        comment = 1;
        continue;
      }
      if (c == '\n' || c == '\r') {
        line += c == '\n';
        col = c == '\n' ? 0 : col;
        continue;
      }
      at_record_start = 0;
      r.line = line;
      field_col = col;
    }
    if (in_quotes) {
      if (c == '"') {
        const int next = fgetc(f);
        if (next == '"') {
          col++;
          oom = buf_put(&b, '"') != 0;
          continue;
        }
        if (next != EOF) {
          ungetc(next, f);
        }
        in_quotes = 0;
        after_quote = 1;
        continue;
      }
      if (c == '\n') {
        line++;
        col = 0;
      }
      oom = buf_put(&b, (char)c) != 0;
      continue;
    }
    if (c == ',' || c == '\n') {
      oom = row_add(&r, &b, quoted, field_col) != 0;
      quoted = after_quote = 0;
      field_col = col + 1;
      if (c == '\n') {
        oom = oom || table_add(csv, &r) != 0;
        at_record_start = 1;
        line++;
        col = 0;
      }
      continue;
    }
    if (after_quote) {
      if (c == ' ' || c == '\t' || c == '\r') {
        continue;
      }
      st = SK_ERROR(ctx, SK_ERR_INPUT, "%s:%d:%d: text after the closing quote of a field", path,
                    line, col);
      break;
    }
    if (c == '"' && b.len == 0) {
      in_quotes = quoted = 1;
      field_col = col;
      continue;
    }
    oom = buf_put(&b, (char)c) != 0;
  }
  if (st == SK_OK && !oom && in_quotes) {
    st = SK_ERROR(ctx, SK_ERR_INPUT, "%s:%d:%d: unterminated quoted field", path, r.line,
                  field_col);
  }
  if (st == SK_OK && !oom && !at_record_start) { /* a last record without a newline */
    oom = row_add(&r, &b, quoted, field_col) != 0 || table_add(csv, &r) != 0;
  }
  if (st == SK_OK && oom) {
    st = SK_ERROR(ctx, SK_ERR_NOMEM, "%s: out of memory", path);
  }
  if (st == SK_OK && ferror(f)) {
    st = SK_ERROR(ctx, SK_ERR_IO, "cannot read '%s': %s", path, strerror(errno));
  }
  row_free(&r);
  free(b.s);
  return st;
}

sk_status cli_csv_read(sk_context *ctx, const char *path, cli_csv *csv)
{
  memset(csv, 0, sizeof *csv);
  FILE *f = fopen(path, "rb");
  SK_CHECK(ctx, f != NULL, SK_ERR_MISSING, "cannot open '%s': %s", path, strerror(errno));
  const sk_status st = parse(ctx, path, f, csv);
  fclose(f);
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

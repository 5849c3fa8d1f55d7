/* src/cli/collect_csv.c: the collected table of a sweep written as CSV (RFC 4180 quoting) under a temporary name */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "cli/collect.h"

/* A field, quoted when it holds a comma, a quote or a line break. */
static void put_field(FILE *f, const char *s)
{
  if (!strpbrk(s, ",\"\r\n")) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (const char *p = s; *p; p++) {
    if (*p == '"') {
      fputc('"', f);
    }
    fputc(*p, f);
  }
  fputc('"', f);
}

int collect_write_csv(cli_atomic_file *af, const char *path, const collect_table *t)
{
  const int code = cli_atomic_open(af, path);
  if (code != 0) {
    return code;
  }
  for (size_t c = 0; c < t->ncols; c++) {
    fputs(c ? "," : "", af->f);
    put_field(af->f, t->cols[c].name);
  }
  fputc('\n', af->f);
  for (size_t r = 0; r < t->nrows; r++) {
    for (size_t c = 0; c < t->ncols; c++) {
      char buf[64];
      fputs(c ? "," : "", af->f);
      put_field(af->f, collect_cell_text(t, r, c, buf, sizeof buf));
    }
    fputc('\n', af->f);
  }
  return cli_atomic_finish(af);
}

/* tests/tools/ckpt_edit.c: writes a copy of a checkpoint with one field changed and a valid checksum (impossible contents for the fault tests to refuse) */
/* usage: ckpt_edit IN OUT FIELD=VALUE
 * FIELD: t, h, order (set to VALUE: a number, nan, inf), y0 (the first
 * state value), rows (the main output table keeps its first VALUE rows),
 * swap (VALUE ignored: the main table's rows 0 and 1 change places).
 * The file is read and written by the library's own checkpoint code, so
 * the checksum matches the changed contents. Exit 0, or 2 with a message. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/checkpoint.h"
#include "stiffkit/stiffkit.h"

int main(int argc, char **argv)
{
  if (argc != 4 || !strchr(argv[3], '=')) {
    fprintf(stderr, "usage: ckpt_edit IN OUT FIELD=VALUE\n");
    return 2;
  }
  const char *field = argv[3];
  const char *value = strchr(field, '=') + 1;
  const size_t flen = (size_t)(value - 1 - field);
  const double v = strtod(value, NULL);
  sk_context *ctx = NULL;
  sk__checkpoint ck;
  if (sk_context_create(&ctx) != SK_OK || sk__checkpoint_read(ctx, argv[1], &ck) != SK_OK) {
    fprintf(stderr, "ckpt_edit: cannot read '%s'\n", argv[1]);
    sk_context_destroy(&ctx);
    return 2;
  }
  double *rows0 = ck.ntables > 0 ? (double *)ck.tables[0].data : NULL;
  const size_t width = ck.ntables > 0 ? ck.tables[0].width : 0;
  int ok = 1;
  if (flen == 1 && field[0] == 't') {
    ck.t = v;
  } else if (flen == 1 && field[0] == 'h') {
    ck.h = v;
  } else if (flen == 5 && !strncmp(field, "order", 5)) {
    ck.order = (int)v;
  } else if (flen == 2 && !strncmp(field, "y0", 2)) {
    ((double *)ck.y)[0] = v;
  } else if (flen == 4 && !strncmp(field, "rows", 4) && rows0 && v >= 0 &&
             v <= (double)ck.tables[0].rows) {
    ck.tables[0].rows = (size_t)v;
  } else if (flen == 4 && !strncmp(field, "swap", 4) && rows0 && ck.tables[0].rows >= 2) {
    for (size_t j = 0; j < width; j++) {
      const double a = rows0[j];
      rows0[j] = rows0[width + j];
      rows0[width + j] = a;
    }
  } else {
    ok = 0;
  }
  const int written = ok && sk__checkpoint_write(ctx, argv[2], &ck) == SK_OK;
  if (!written) {
    fprintf(stderr, "ckpt_edit: %s '%s'\n", ok ? "cannot write" : "bad field",
            ok ? argv[2] : field);
  }
  sk__checkpoint_free(ctx, &ck);
  sk_context_destroy(&ctx);
  return written ? 0 : 2;
}

/* src/cli/csv_read.h: reading small CSV tables (libcsv, strict RFC 4180 quoting, '#' comment lines) with line and column of every field */
#ifndef SK_CLI_CSV_READ_H
#define SK_CLI_CSV_READ_H

#include <stddef.h>

#include "stiffkit/context.h"

typedef struct {
  char **fields; /* nfields NUL-terminated texts, blanks around unquoted fields trimmed */
  int *columns;  /* 1-based column of each field's first character (its opening quote when
                  * quoted; where it would start when empty) */
  size_t nfields;
  int line; /* 1-based line where the record starts */
} cli_csv_row;

typedef struct {
  cli_csv_row *rows; /* rows[0] is the header when the file has one */
  size_t nrows;
} cli_csv;

/* cli_csv_read: read the whole file `path` with libcsv (strict mode).
 * Blank lines and lines whose first character is '#' (outside a quoted
 * field) are skipped (a partial result's status line). Rows and fields grow
 * geometrically: reading is linear in the file's size. Errors, recorded in
 * ctx: SK_ERR_MISSING (cannot open), SK_ERR_INPUT ("<path>:L:C: malformed
 * CSV: a quote inside an unquoted field or text after a closing quote", or
 * "<path>:L:C: unterminated quoted field", at the field's first character),
 * SK_ERR_IO, SK_ERR_NOMEM. Free with cli_csv_free (also after an error). */
sk_status cli_csv_read(sk_context *ctx, const char *path, cli_csv *csv);

/* cli_csv_free: release the table (accepts an empty one). */
void cli_csv_free(cli_csv *csv);

/* cli_csv_column: index of the header field equal to `name`, -1 when absent
 * (or when the table is empty). */
long cli_csv_column(const cli_csv *csv, const char *name);

#endif

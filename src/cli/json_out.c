/* src/cli/json_out.c: writing JSON values (escaped strings, numbers with null for inf/nan) */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>

#include "cli/json_out.h"

void cli_json_string(FILE *f, const char *s)
{
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\') {
      fprintf(f, "\\%c", *p);
    } else if (*p == '\n') {
      fputs("\\n", f);
    } else if (*p < 0x20) {
      fprintf(f, "\\u%04x", *p);
    } else {
      fputc(*p, f);
    }
  }
  fputc('"', f);
}

void cli_json_number(FILE *f, double v)
{
  if (isfinite(v)) {
    fprintf(f, "%.10e", v);
  } else {
    fputs("null", f);
  }
}

void cli_json_key_number(FILE *f, const char *key, double v)
{
  fprintf(f, ", \"%s\": ", key);
  cli_json_number(f, v);
}

char *cli_json_text(void (*write)(FILE *f, const void *arg), const void *arg)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&buf, &len);
  if (!m) {
    return NULL;
  }
  write(m, arg);
  fclose(m);
  return buf;
}

void cli_json_result_head(FILE *f, const sk_context *ctx, int failed, const char (*files)[4096],
                          int nfiles)
{
  fprintf(f, "{\"status\": \"%s\", \"error\": ", failed ? "failed" : "complete");
  const sk_error *err = sk_context_get_error(ctx);
  if (failed && err->code != SK_OK) {
    char msg[SK_ERROR_MSG_LEN + 64];
    sk_error_format(err, 0, msg, sizeof msg);
    cli_json_string(f, msg);
  } else {
    fprintf(f, "null");
  }
  fprintf(f, ", \"files\": [");
  for (int i = 0; i < nfiles; i++) {
    fprintf(f, i ? ", " : "");
    cli_json_string(f, files[i]);
  }
  fprintf(f, "], \"report\": ");
}

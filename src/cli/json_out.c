/* src/cli/json_out.c: the command's JSON pieces: a result's head, a keyed number, a writer's text */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>

#include "cli/json_out.h"
#include "core/json_write.h"

void cli_json_key_number(FILE *f, const char *key, double v)
{
  fprintf(f, ", \"%s\": ", key);
  sk__json_number(f, v);
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
    sk__json_string(f, msg);
  } else {
    fprintf(f, "null");
  }
  fprintf(f, ", \"files\": [");
  for (int i = 0; i < nfiles; i++) {
    fprintf(f, i ? ", " : "");
    sk__json_string(f, files[i]);
  }
  fprintf(f, "], \"report\": ");
}

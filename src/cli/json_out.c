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

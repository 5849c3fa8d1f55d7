/* src/cli/json_out.c: writing JSON values (escaped strings, numbers with null for inf/nan) */
#include <math.h>

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

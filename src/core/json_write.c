/* src/core/json_write.c: writing JSON values: escaped strings, and numbers with null for inf/nan */
#include <math.h>

#include "core/json_write.h"

void sk__json_string(FILE *f, const char *s)
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

void sk__json_number(FILE *f, double v)
{
  if (isfinite(v)) {
    fprintf(f, "%.10e", v);
  } else {
    fputs("null", f);
  }
}

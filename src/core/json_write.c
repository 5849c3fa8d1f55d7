/* src/core/json_write.c: writing JSON values (escaped strings, numbers with null for inf/nan) and YAML double-quoted scalars */
#include <math.h>
#include <stdint.h>

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

/* ---- YAML double-quoted scalars ------------------------------------------ */

/* Length (1..4) of the valid UTF-8 sequence at p, its code point in *cp;
 * 0 when the bytes are not valid UTF-8 (overlong, surrogate, > U+10FFFF). */
static int utf8_decode(const unsigned char *p, uint32_t *cp)
{
  int len;
  uint32_t v, min;
  if (p[0] >= 0xC0 && p[0] <= 0xDF) {
    len = 2;
    v = p[0] & 0x1Fu;
    min = 0x80;
  } else if (p[0] >= 0xE0 && p[0] <= 0xEF) {
    len = 3;
    v = p[0] & 0x0Fu;
    min = 0x800;
  } else if (p[0] >= 0xF0 && p[0] <= 0xF4) {
    len = 4;
    v = p[0] & 0x07u;
    min = 0x10000;
  } else {
    return 0;
  }
  for (int k = 1; k < len; k++) {
    if ((p[k] & 0xC0u) != 0x80u) {
      return 0; /* also stops at the terminating NUL */
    }
    v = (v << 6) | (p[k] & 0x3Fu);
  }
  if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) {
    return 0;
  }
  *cp = v;
  return len;
}

/* YAML 1.2 c-printable, less the BOM, for code points >= 0x80. */
static int yaml_printable(uint32_t cp)
{
  return cp == 0x85 || (cp >= 0xA0 && cp <= 0xD7FF) ||
         (cp >= 0xE000 && cp <= 0xFFFD && cp != 0xFEFF) || (cp >= 0x10000 && cp <= 0x10FFFF);
}

typedef struct {
  char *dst;
  size_t cap, n;
} qsink;

static void q_put(qsink *q, char c)
{
  if (q->dst && q->n + 1 < q->cap) {
    q->dst[q->n] = c;
  }
  q->n++;
}

static void q_puts(qsink *q, const char *s)
{
  for (; *s; s++) {
    q_put(q, *s);
  }
}

static void q_escape(qsink *q, uint32_t cp)
{
  char buf[16];
  if (cp <= 0xFF) {
    snprintf(buf, sizeof buf, "\\x%02X", (unsigned)cp);
  } else if (cp <= 0xFFFF) {
    snprintf(buf, sizeof buf, "\\u%04X", (unsigned)cp);
  } else {
    snprintf(buf, sizeof buf, "\\U%08X", (unsigned)cp);
  }
  q_puts(q, buf);
}

size_t sk__yaml_quote(char *dst, size_t cap, const char *s)
{
  qsink q = {dst, cap, 0};
  q_put(&q, '"');
  const unsigned char *p = (const unsigned char *)(s ? s : "");
  while (*p) {
    unsigned char c = *p;
    if (c == '"') {
      q_puts(&q, "\\\"");
      p++;
    } else if (c == '\\') {
      q_puts(&q, "\\\\");
      p++;
    } else if (c < 0x20 || c == 0x7F) {
      switch (c) {
      case '\a':
        q_puts(&q, "\\a");
        break;
      case '\b':
        q_puts(&q, "\\b");
        break;
      case '\t':
        q_puts(&q, "\\t");
        break;
      case '\n':
        q_puts(&q, "\\n");
        break;
      case '\v':
        q_puts(&q, "\\v");
        break;
      case '\f':
        q_puts(&q, "\\f");
        break;
      case '\r':
        q_puts(&q, "\\r");
        break;
      case 0x1B:
        q_puts(&q, "\\e");
        break;
      default:
        q_escape(&q, c);
        break;
      }
      p++;
    } else if (c < 0x80) {
      q_put(&q, (char)c);
      p++;
    } else {
      uint32_t cp = 0;
      int len = utf8_decode(p, &cp);
      if (len == 0) {
        q_escape(&q, c); /* an invalid byte, kept as the code point of its value */
        p++;
      } else if (yaml_printable(cp)) {
        for (int k = 0; k < len; k++) {
          q_put(&q, (char)p[k]);
        }
        p += len;
      } else {
        q_escape(&q, cp);
        p += len;
      }
    }
  }
  q_put(&q, '"');
  if (dst && cap > 0) {
    dst[q.n < cap ? q.n : cap - 1] = '\0';
  }
  return q.n;
}

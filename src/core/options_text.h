/* src/core/options_text.h: the fixed-size text builder the options database writes its messages with */
#ifndef SK_CORE_OPTIONS_TEXT_H
#define SK_CORE_OPTIONS_TEXT_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"

/* Longest value text quoted in a message before it is cut with "...". */
#define OPT_MSG_VALUE_MAX 160
/* Budget for key lists inside an error message. */
#define OPT_MSG_LIST_MAX 640
/* Longest key for which a nearest-key suggestion is computed. */
#define OPT_LEV_MAX 255

/* Fixed-size text builder (never overflows; remembers truncation). */
typedef struct {
  char *buf;
  size_t cap, len;
} strbuf;

static inline void sb_init(strbuf *b, char *buf, size_t cap)
{
  b->buf = buf;
  b->cap = cap;
  b->len = 0;
  buf[0] = '\0';
}

static inline void sb_addn(strbuf *b, const char *s, size_t n)
{
  if (b->len + 1 >= b->cap) {
    return;
  }
  size_t room = b->cap - 1 - b->len;
  if (n > room) {
    n = room;
  }
  memcpy(b->buf + b->len, s, n);
  b->len += n;
  b->buf[b->len] = '\0';
}

static inline void sb_add(strbuf *b, const char *s)
{
  sb_addn(b, s, strlen(s));
}

static inline void sb_printf(strbuf *b, const char *fmt, ...) SK__PRINTF(2, 3);
static inline void sb_printf(strbuf *b, const char *fmt, ...)
{
  if (b->len + 1 >= b->cap) {
    return;
  }
  va_list ap;
  va_start(ap, fmt);
  int w = vsnprintf(b->buf + b->len, b->cap - b->len, fmt, ap);
  va_end(ap);
  if (w > 0) {
    b->len += (size_t)w < b->cap - b->len ? (size_t)w : b->cap - 1 - b->len;
  }
}

/* Append a value for a message: quoted, cut after OPT_MSG_VALUE_MAX bytes. */
static inline void sb_add_value(strbuf *b, const char *v)
{
  size_t n = strlen(v);
  sb_add(b, "'");
  if (n > OPT_MSG_VALUE_MAX) {
    sb_addn(b, v, OPT_MSG_VALUE_MAX);
    sb_add(b, "...");
  } else {
    sb_addn(b, v, n);
  }
  sb_add(b, "'");
}

#endif

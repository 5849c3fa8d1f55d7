/* src/io/netlist_lex.c: netlist reading: files, comments, continuation lines, tokens, .include (with cycle detection), numbers with suffixes, name tables */
#define _XOPEN_SOURCE 700
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/path.h"
#include "core/stop.h"
#include "core/input_file.h"
#include "io/netlist_impl.h"

sk_status sk__net_error(sk__nparser *p, const sk__ntok *t, const char *fmt, ...)
{
  char msg[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (!t) {
    return SK_ERROR(p->ctx, SK_ERR_INPUT, "%s", msg);
  }
  return SK_ERROR(p->ctx, SK_ERR_INPUT, "%s:%d:%d: %s", p->nl->files[t->file], (int)t->line,
                  (int)t->col, msg);
}

sk_status sk__net_grow(sk__nparser *p, void **arr, int64_t count, int64_t *cap, size_t size)
{
  if (count < *cap) {
    return SK_OK;
  }
  const int64_t ncap = *cap < 16 ? 16 : 2 * *cap;
  void *q = sk__realloc(p->ctx, *arr, (size_t)*cap * size, (size_t)ncap * size);
  SK_CHECK(p->ctx, q != NULL, SK_ERR_NOMEM, "netlist: out of memory");
  *arr = q;
  *cap = ncap;
  return SK_OK;
}

char *sk__net_strdup(sk_context *ctx, const char *s)
{
  const size_t len = strlen(s);
  char *c = sk__malloc(ctx, len + 1);
  if (c) {
    memcpy(c, s, len + 1);
  }
  return c;
}

int sk__net_ieq(const char *a, const char *b)
{
  for (; *a && *b; a++, b++) {
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) {
      return 0;
    }
  }
  return *a == *b;
}

/* ---- numbers ------------------------------------------------------------- */

int sk__net_number(const char *s, double *v)
{
  const char *q = s;
  if (*q == '+' || *q == '-') {
    q++;
  }
  int digits = 0;
  while (isdigit((unsigned char)*q)) {
    q++;
    digits++;
  }
  if (*q == '.') {
    q++;
    while (isdigit((unsigned char)*q)) {
      q++;
      digits++;
    }
  }
  if (!digits) {
    return 0;
  }
  if ((*q == 'e' || *q == 'E') &&
      (isdigit((unsigned char)q[1]) ||
       ((q[1] == '+' || q[1] == '-') && isdigit((unsigned char)q[2])))) {
    q += 2;
    while (isdigit((unsigned char)*q)) {
      q++;
    }
  }
  char num[128];
  const size_t len = (size_t)(q - s);
  if (len >= sizeof num) {
    return 0;
  }
  memcpy(num, s, len);
  num[len] = '\0';
  double x = strtod(num, NULL);
  static const struct {
    const char *suffix;
    double scale;
  } suffixes[] = {{"", 1.0},   {"f", 1e-15}, {"p", 1e-12}, {"n", 1e-9}, {"u", 1e-6},
                  {"m", 1e-3}, {"k", 1e3},   {"meg", 1e6}, {"g", 1e9},  {"t", 1e12}};
  for (size_t k = 0; k < sizeof suffixes / sizeof suffixes[0]; k++) {
    if (sk__net_ieq(q, suffixes[k].suffix)) {
      x *= suffixes[k].scale;
      if (!isfinite(x)) {
        return 0;
      }
      *v = x;
      return 1;
    }
  }
  return 0;
}

/* ---- name tables ---------------------------------------------------------- */

/* FNV-1a of the key. */
static uint64_t hash_key(const char *s)
{
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++) {
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  }
  return h;
}

int64_t sk__nhash_find(const sk__nhash *h, const char *key)
{
  if (h->cap == 0) {
    return -1;
  }
  for (uint64_t i = hash_key(key) & (uint64_t)(h->cap - 1);;
       i = (i + 1) & (uint64_t)(h->cap - 1)) {
    if (!h->keys[i]) {
      return -1;
    }
    if (strcmp(h->keys[i], key) == 0) {
      return h->values[i];
    }
  }
}

/* Insert without growing (there is a free slot). */
static void put_slot(sk__nhash *h, const char *key, int64_t value)
{
  uint64_t i = hash_key(key) & (uint64_t)(h->cap - 1);
  while (h->keys[i] && strcmp(h->keys[i], key) != 0) {
    i = (i + 1) & (uint64_t)(h->cap - 1);
  }
  if (!h->keys[i]) {
    h->count++;
  }
  h->keys[i] = key;
  h->values[i] = value;
}

sk_status sk__nhash_put(sk__nparser *p, sk__nhash *h, const char *key, int64_t value)
{
  if (2 * (h->count + 1) > h->cap) {
    sk__nhash old = *h;
    h->cap = old.cap ? 2 * old.cap : 64;
    h->count = 0;
    h->keys = sk__calloc(p->ctx, (size_t)h->cap, sizeof *h->keys);
    h->values = sk__calloc(p->ctx, (size_t)h->cap, sizeof *h->values);
    if (!h->keys || !h->values) {
      sk__free(p->ctx, h->keys);
      sk__free(p->ctx, h->values);
      *h = old;
      return SK_ERROR(p->ctx, SK_ERR_NOMEM, "netlist: out of memory (name table)");
    }
    for (int64_t i = 0; i < old.cap; i++) {
      if (old.keys[i]) {
        put_slot(h, old.keys[i], old.values[i]);
      }
    }
    sk__nhash_free(p, &old);
  }
  put_slot(h, key, value);
  return SK_OK;
}

void sk__nhash_free(sk__nparser *p, sk__nhash *h)
{
  sk__free(p->ctx, h->keys);
  sk__free(p->ctx, h->values);
  memset(h, 0, sizeof *h);
}

/* ---- tokens and lines --------------------------------------------------- */

/* Append a token of text [s, s + len). */
static sk_status push_token(sk__nparser *p, const char *s, size_t len, int32_t file, int32_t line,
                            int32_t col)
{
  SK_CALL(p->ctx, sk__net_grow(p, (void **)&p->toks, p->ntoks, &p->cap_toks, sizeof *p->toks));
  char *text = sk__malloc(p->ctx, len + 1);
  SK_CHECK(p->ctx, text != NULL, SK_ERR_NOMEM, "netlist: out of memory");
  memcpy(text, s, len);
  text[len] = '\0';
  p->toks[p->ntoks++] = (sk__ntok){text, file, line, col};
  return SK_OK;
}

/* The tokens of one physical line (comments removed) into p->toks. */
static sk_status tokenize(sk__nparser *p, const char *s, size_t len, int32_t file, int32_t line)
{
  size_t i = 0;
  while (i < len) {
    const char c = s[i];
    const int32_t col = (int32_t)i + 1;
    if (c == ' ' || c == '\t' || c == ',' || c == '\r' || c == '\f' || c == '\v') {
      i++;
    } else if (c == ';') {
      break;
    } else if (c == '=' || c == '(' || c == ')') {
      SK_CALL(p->ctx, push_token(p, s + i, 1, file, line, col));
      i++;
    } else if (c == '}') {
      const sk__ntok at = {NULL, file, line, col};
      return sk__net_error(p, &at, "unexpected '}' without an opening '{'");
    } else if (c == '{' || c == '"') {
      const char close = c == '{' ? '}' : '"';
      size_t j = i + 1;
      while (j < len && s[j] != close) {
        j++;
      }
      if (j >= len) {
        const sk__ntok at = {NULL, file, line, col};
        return sk__net_error(p, &at, "unterminated '%c': expected '%c' on the same line", c,
                             close);
      }
      /* a quoted string keeps its text only, an expression its braces */
      if (c == '"') {
        SK_CALL(p->ctx, push_token(p, s + i + 1, j - i - 1, file, line, col));
      } else {
        SK_CALL(p->ctx, push_token(p, s + i, j - i + 1, file, line, col));
      }
      i = j + 1;
    } else {
      size_t j = i;
      while (j < len && !strchr(" \t,;=(){}\"\r\f\v", s[j])) {
        j++;
      }
      SK_CALL(p->ctx, push_token(p, s + i, j - i, file, line, col));
      i = j;
    }
  }
  return SK_OK;
}

/* Handle the finished line li when it is an .include: remove it and read
 * the file. */
static sk_status finish_line(sk__nparser *p, int64_t li)
{
  if (li < 0 || li >= p->nlines) {
    return SK_OK;
  }
  const sk__nline *ln = &p->lines[li];
  const sk__ntok *t = &p->toks[ln->first];
  if (!sk__net_ieq(t->text, ".include") && !sk__net_ieq(t->text, ".inc")) {
    return SK_OK;
  }
  if (ln->n != 2) {
    return sk__net_error(p, t, ".include expects one file name, got %lld fields",
                         (long long)(ln->n - 1));
  }
  const sk__ntok *name = t + 1;
  p->nlines--;
  /* relative to the directory of the file that names it, as every path in a file */
  char *path = NULL;
  SK_CALL(p->ctx, sk__path_resolve(p->ctx, p->nl->files[name->file], name->text, &path));
  const sk_status st = sk__net_read_file(p, path, name);
  sk__free(p->ctx, path);
  SK_CALL_STOP(p->ctx, st);
  return SK_OK;
}

sk_status sk__net_read_text(sk__nparser *p, const char *text, int32_t file)
{
  int32_t line = 0;
  int64_t cur = -1; /* the logical line being built */
  const char *s = text;
  while (*s) {
    const char *e = strchr(s, '\n');
    const size_t len = e ? (size_t)(e - s) : strlen(s);
    line++;
    size_t k = 0;
    while (k < len && (s[k] == ' ' || s[k] == '\t' || s[k] == '\r')) {
      k++;
    }
    if (k < len && s[k] != '*' && s[k] != ';') {
      if (s[k] == '+') {
        if (cur < 0) {
          const sk__ntok at = {NULL, file, line, (int32_t)k + 1};
          return sk__net_error(p, &at, "continuation line '+' without a line to continue");
        }
        SK_CALL(p->ctx, tokenize(p, s + k + 1, len - k - 1, file, line));
        /* columns of a continuation count from the line start */
        for (int64_t q = p->lines[cur].first + p->lines[cur].n; q < p->ntoks; q++) {
          p->toks[q].col += (int32_t)k + 1;
        }
        p->lines[cur].n = p->ntoks - p->lines[cur].first;
      } else {
        SK_CALL_STOP(p->ctx, finish_line(p, cur));
        const int64_t first = p->ntoks;
        SK_CALL(p->ctx, tokenize(p, s, len, file, line));
        if (p->ntoks > first) {
          SK_CALL(p->ctx, sk__net_grow(p, (void **)&p->lines, p->nlines, &p->cap_lines,
                                       sizeof *p->lines));
          p->lines[p->nlines] = (sk__nline){first, p->ntoks - first};
          cur = p->nlines++;
        }
      }
    }
    s = e ? e + 1 : s + len;
  }
  SK_CALL_STOP(p->ctx, finish_line(p, cur));
  return SK_OK;
}

/* Register a file name in nl->files; its index into *idx. */
static sk_status add_file(sk__nparser *p, const char *path, int32_t *idx)
{
  sk__netlist *nl = p->nl;
  int64_t cap = nl->nfiles; /* files grow one at a time: capacity == count */
  char **q =
      sk__realloc(p->ctx, nl->files, (size_t)cap * sizeof *q, (size_t)(cap + 1) * sizeof *q);
  SK_CHECK(p->ctx, q != NULL, SK_ERR_NOMEM, "netlist: out of memory");
  nl->files = q;
  nl->files[nl->nfiles] = sk__net_strdup(p->ctx, path);
  SK_CHECK(p->ctx, nl->files[nl->nfiles] != NULL, SK_ERR_NOMEM, "netlist: out of memory");
  *idx = nl->nfiles++;
  return SK_OK;
}

/* Read the whole file into a NUL-terminated buffer. */
static sk_status slurp(sk__nparser *p, const char *path, const sk__ntok *from, char **out)
{
  char at[4200] = "";
  if (from) {
    snprintf(at, sizeof at, "%s:%d:%d: ", p->nl->files[from->file], (int)from->line,
             (int)from->col);
  }
  FILE *f = NULL;
  SK_CALL_STOP(p->ctx, sk__input_open_at(p->ctx, path, from ? "included file" : "netlist", at,
                                         NULL, SIZE_MAX, &f));
  size_t cap = 4096, len = 0;
  char *buf = sk__malloc(p->ctx, cap);
  while (buf) {
    if (len + 1 >= cap) {
      char *nb = sk__realloc(p->ctx, buf, cap, 2 * cap);
      if (!nb) {
        sk__free(p->ctx, buf);
        buf = NULL;
        break;
      }
      buf = nb;
      cap *= 2;
    }
    const size_t got = fread(buf + len, 1, cap - 1 - len, f);
    len += got;
    if (got == 0) {
      break;
    }
  }
  const int bad = ferror(f);
  sk__input_close(f);
  SK_CHECK(p->ctx, buf != NULL, SK_ERR_NOMEM, "netlist: out of memory reading '%s'", path);
  buf[len] = '\0';
  if (bad || memchr(buf, '\0', len)) {
    sk__free(p->ctx, buf);
    return SK_ERROR(p->ctx, bad ? SK_ERR_MISSING : SK_ERR_INPUT,
                    bad ? "cannot read netlist '%s'" : "%s: not a text file (NUL byte)", path);
  }
  *out = buf;
  return SK_OK;
}

/* SK_ERR_INPUT naming the include chain when `real` is being read already. */
static sk_status check_cycle(sk__nparser *p, const char *real, const char *path,
                             const sk__ntok *from)
{
  for (int k = 0; k < p->depth; k++) {
    if (strcmp(p->real[k], real) == 0) {
      char chain[2048] = "";
      size_t used = 0;
      for (int j = k; j < p->depth && used < sizeof chain; j++) {
        used += (size_t)snprintf(chain + used, sizeof chain - used, "%s -> ",
                                 p->nl->files[p->stack[j]]);
      }
      if (used < sizeof chain) {
        snprintf(chain + used, sizeof chain - used, "%s", path);
      }
      return sk__net_error(p, from, ".include cycle: %s", chain);
    }
  }
  if (p->depth >= SK__NET_MAX_DEPTH) {
    return sk__net_error(p, from, ".include nested deeper than %d files", SK__NET_MAX_DEPTH);
  }
  return SK_OK;
}

sk_status sk__net_read_file(sk__nparser *p, const char *path, const sk__ntok *from)
{
  char *buf = NULL;
  SK_CALL_STOP(p->ctx, slurp(p, path, from, &buf));
  char *real = realpath(path, NULL);
  sk_status st = real ? SK_OK : SK_ERROR(p->ctx, SK_ERR_MISSING, "cannot resolve '%s'", path);
  if (st == SK_OK) {
    st = check_cycle(p, real, path, from);
  }
  int32_t idx = 0;
  if (st == SK_OK) {
    st = add_file(p, path, &idx);
  }
  if (st == SK_OK) {
    p->stack[p->depth] = idx;
    p->real[p->depth] = real;
    p->depth++;
    st = sk__net_read_text(p, buf, idx);
    p->depth--;
  }
  free(real);
  sk__free(p->ctx, buf);
  SK_CALL_STOP(p->ctx, st);
  return SK_OK;
}

sk_status sk__net_read_named_text(sk__nparser *p, const char *text, const char *name)
{
  int32_t idx = 0;
  SK_CALL(p->ctx, add_file(p, name, &idx));
  SK_CALL_STOP(p->ctx, sk__net_read_text(p, text, idx));
  return SK_OK;
}

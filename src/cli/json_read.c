/* src/cli/json_read.c: reading the CLI's own small JSON files (status, statistics) as flat key/value lists */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/json_read.h"
#include "core/error.h"

/* Largest JSON file read (the CLI's own files are a few hundred bytes). */
#define JSON_MAX_BYTES ((long)1 << 20)
#define JSON_MAX_DEPTH 16

typedef struct {
  const char *s;
  size_t pos, len;
  cli_json_flat *out;
  int oom;
} json_parser;

static void skip_blanks(json_parser *p)
{
  while (p->pos < p->len && strchr(" \t\r\n", p->s[p->pos])) {
    p->pos++;
  }
}

static int take(json_parser *p, char c)
{
  skip_blanks(p);
  if (p->pos < p->len && p->s[p->pos] == c) {
    p->pos++;
    return 1;
  }
  return 0;
}

/* A string literal into a malloc'ed text (\uXXXX below 0x80 only; others become '?'). */
static int parse_string(json_parser *p, char **text)
{
  if (!take(p, '"')) {
    return -1;
  }
  char *t = malloc(p->len - p->pos + 1);
  if (!t) {
    p->oom = 1;
    return -1;
  }
  size_t n = 0;
  while (p->pos < p->len && p->s[p->pos] != '"') {
    char c = p->s[p->pos++];
    if (c == '\\' && p->pos < p->len) {
      const char e = p->s[p->pos++];
      static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
      const char *m = e ? strchr(from, e) : NULL;
      unsigned u = 0;
      if (e == 'u' && p->pos + 4 <= p->len) {
        for (int k = 0; k < 4; k++) {
          const char h = p->s[p->pos++];
          const char *hex = strchr("0123456789abcdef", h | 0x20);
          u = 16 * u + (hex && h ? (unsigned)(hex - "0123456789abcdef") : 0);
        }
        c = u < 0x80 ? (char)u : '?';
      } else if (m) {
        c = to[m - from];
      } else {
        free(t);
        return -1;
      }
    }
    t[n++] = c;
  }
  t[n] = '\0';
  if (!take(p, '"')) {
    free(t);
    return -1;
  }
  *text = t;
  return 0;
}

static int add_field(json_parser *p, const char *key, cli_json_kind kind, double number,
                     char *text)
{
  cli_json_field *grown = realloc(p->out->fields, (p->out->n + 1) * sizeof *grown);
  char *k = strdup(key);
  if (!grown || !k) {
    if (grown) {
      p->out->fields = grown;
    }
    free(k);
    free(text);
    p->oom = 1;
    return -1;
  }
  p->out->fields = grown;
  p->out->fields[p->out->n++] = (cli_json_field){k, kind, number, text};
  return 0;
}

static int parse_value(json_parser *p, const char *key, int depth);

static int parse_object(json_parser *p, const char *prefix, int depth)
{
  if (take(p, '}')) {
    return 0;
  }
  do {
    char *name = NULL;
    if (parse_string(p, &name) != 0) {
      return -1;
    }
    const size_t need = strlen(prefix) + strlen(name) + 2;
    char *key = malloc(need);
    if (!key) {
      free(name);
      p->oom = 1;
      return -1;
    }
    snprintf(key, need, "%s%s%s", prefix, prefix[0] ? "." : "", name);
    free(name);
    const int bad = !take(p, ':') || parse_value(p, key, depth + 1) != 0;
    free(key);
    if (bad) {
      return -1;
    }
  } while (take(p, ','));
  return take(p, '}') ? 0 : -1;
}

static int parse_value(json_parser *p, const char *key, int depth)
{
  skip_blanks(p);
  if (depth > JSON_MAX_DEPTH || p->pos >= p->len) {
    return -1;
  }
  const char c = p->s[p->pos];
  if (c == '{') {
    p->pos++;
    return parse_object(p, key, depth);
  }
  if (c == '[') { /* checked, not kept */
    p->pos++;
    if (take(p, ']')) {
      return 0;
    }
    do {
      if (parse_value(p, "", depth + 1) != 0) {
        return -1;
      }
    } while (take(p, ','));
    return take(p, ']') ? 0 : -1;
  }
  if (c == '"') {
    char *text = NULL;
    if (parse_string(p, &text) != 0) {
      return -1;
    }
    if (!key[0]) {
      free(text);
      return 0;
    }
    return add_field(p, key, CLI_JSON_STRING, 0, text);
  }
  static const char *const words[] = {"true", "false", "null"};
  for (int w = 0; w < 3; w++) {
    const size_t n = strlen(words[w]);
    if (p->len - p->pos >= n && !strncmp(p->s + p->pos, words[w], n)) {
      p->pos += n;
      if (!key[0]) {
        return 0;
      }
      return add_field(p, key, w == 2 ? CLI_JSON_NULL : CLI_JSON_BOOL, w == 0 ? 1.0 : 0.0, NULL);
    }
  }
  char *end = NULL;
  const double v = strtod(p->s + p->pos, &end);
  if (end == p->s + p->pos) {
    return -1;
  }
  p->pos = (size_t)(end - p->s);
  return key[0] ? add_field(p, key, CLI_JSON_NUMBER, v, NULL) : 0;
}

sk_status cli_json_read_flat(sk_context *ctx, const char *path, cli_json_flat *out)
{
  memset(out, 0, sizeof *out);
  FILE *f = fopen(path, "rb");
  SK_CHECK(ctx, f != NULL, SK_ERR_MISSING, "cannot open '%s': %s", path, strerror(errno));
  char *buf = malloc((size_t)JSON_MAX_BYTES + 1);
  const size_t len = buf ? fread(buf, 1, (size_t)JSON_MAX_BYTES + 1, f) : 0;
  const int failed = ferror(f);
  fclose(f);
  if (!buf) {
    return SK_ERROR(ctx, SK_ERR_NOMEM, "%s: out of memory", path);
  }
  if (failed || len > (size_t)JSON_MAX_BYTES) {
    free(buf);
    return SK_ERROR(ctx, failed ? SK_ERR_IO : SK_ERR_INPUT, "cannot read '%s': %s", path,
                    failed ? strerror(errno) : "larger than 1 MiB");
  }
  buf[len] = '\0';
  json_parser p = {buf, 0, len, out, 0};
  skip_blanks(&p);
  int bad = !take(&p, '{') || parse_object(&p, "", 1) != 0;
  skip_blanks(&p);
  bad = bad || p.pos != p.len;
  free(buf);
  if (p.oom) {
    return SK_ERROR(ctx, SK_ERR_NOMEM, "%s: out of memory", path);
  }
  SK_CHECK(ctx, !bad, SK_ERR_INPUT, "%s: malformed JSON at byte %zu", path, p.pos);
  return SK_OK;
}

void cli_json_flat_free(cli_json_flat *f)
{
  for (size_t i = 0; i < f->n; i++) {
    free(f->fields[i].key);
    free(f->fields[i].text);
  }
  free(f->fields);
  memset(f, 0, sizeof *f);
}

const cli_json_field *cli_json_flat_get(const cli_json_flat *f, const char *key)
{
  for (size_t i = 0; i < f->n; i++) {
    if (!strcmp(f->fields[i].key, key)) {
      return &f->fields[i];
    }
  }
  return NULL;
}

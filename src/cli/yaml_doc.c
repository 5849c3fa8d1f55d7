/* src/cli/yaml_doc.c: small YAML files read whole (libyaml document API), navigated with file:line:column messages */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/yaml_doc.h"
#include "stiffkit/config.h"
#include "core/error.h"
#include "core/stop.h"
#include "core/input_file.h"

/* The parser's error with its position. */
static sk_status syntax_error(const cli_yaml *y, const yaml_parser_t *p)
{
  if (p->error == YAML_MEMORY_ERROR) {
    return SK_ERROR(y->ctx, SK_ERR_NOMEM, "%s: out of memory while parsing YAML", y->file);
  }
  const yaml_mark_t m = p->error == YAML_READER_ERROR ? p->mark : p->problem_mark;
  return SK_ERROR(y->ctx, SK_ERR_INPUT, "%s:%d:%d: YAML syntax error: %s%s%s", y->file,
                  (int)m.line + 1, (int)m.column + 1, p->problem ? p->problem : "unknown problem",
                  p->context ? " " : "", p->context ? p->context : "");
}

sk_status cli_yaml_load(sk_context *ctx, const char *path, cli_yaml *y)
{
  memset(y, 0, sizeof *y);
  y->ctx = ctx;
  y->file = path;
  FILE *f = NULL;
  SK_CALL_STOP(ctx, sk__input_open(ctx, path, "file", SK_CONFIG_MAX_BYTES, &f));
  yaml_parser_t parser;
  if (!yaml_parser_initialize(&parser)) {
    sk__input_close(f);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "%s: out of memory", path);
  }
  yaml_parser_set_input_file(&parser, f);
  sk_status st = SK_OK;
  if (!yaml_parser_load(&parser, &y->doc)) {
    st = syntax_error(y, &parser);
  } else {
    y->loaded = 1;
    yaml_document_t extra;
    if (!yaml_parser_load(&parser, &extra)) {
      st = syntax_error(y, &parser);
    } else {
      if (yaml_document_get_root_node(&extra)) {
        st = SK_ERROR(ctx, SK_ERR_INPUT, "%s:%d:%d: expected one YAML document, found a second",
                      path, (int)extra.start_mark.line + 1, (int)extra.start_mark.column + 1);
      }
      yaml_document_delete(&extra);
    }
  }
  yaml_parser_delete(&parser);
  const int read_failed = ferror(f);
  sk__input_close(f);
  if (st == SK_OK && read_failed) {
    st = SK_ERROR(ctx, SK_ERR_IO, "cannot read '%s'", path);
  }
  const yaml_node_t *root = st == SK_OK ? yaml_document_get_root_node(&y->doc) : NULL;
  if (root && root->type != YAML_MAPPING_NODE && !cli_yaml_is_null(root)) {
    st = cli_yaml_error(y, root, SK_ERR_INPUT, "the top level must be a mapping of keys");
  }
  return st;
}

void cli_yaml_free(cli_yaml *y)
{
  if (y->loaded) {
    yaml_document_delete(&y->doc);
    y->loaded = 0;
  }
}

yaml_node_t *cli_yaml_root(cli_yaml *y)
{
  yaml_node_t *root = y->loaded ? yaml_document_get_root_node(&y->doc) : NULL;
  return root && root->type == YAML_MAPPING_NODE ? root : NULL;
}

int cli_yaml_line(const yaml_node_t *n)
{
  return n ? (int)n->start_mark.line + 1 : 0;
}

int cli_yaml_column(const yaml_node_t *n)
{
  return n ? (int)n->start_mark.column + 1 : 0;
}

const char *cli_yaml_text(const yaml_node_t *n)
{
  if (!n || n->type != YAML_SCALAR_NODE ||
      strlen((const char *)n->data.scalar.value) != n->data.scalar.length) {
    return NULL;
  }
  return (const char *)n->data.scalar.value;
}

int cli_yaml_is_null(const yaml_node_t *n)
{
  const char *t = cli_yaml_text(n);
  return t && n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
         (!strcmp(t, "") || !strcmp(t, "~") || !strcasecmp(t, "null"));
}

sk_status cli_yaml_error(const cli_yaml *y, const yaml_node_t *n, sk_status code, const char *fmt,
                         ...)
{
  char msg[SK_ERROR_MSG_LEN];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (n) {
    return SK_ERROR(y->ctx, code, "%s:%d:%d: %s", y->file, cli_yaml_line(n), cli_yaml_column(n),
                    msg);
  }
  return SK_ERROR(y->ctx, code, "%s: %s", y->file, msg);
}

int cli_yaml_pair(cli_yaml *y, const yaml_node_t *map, size_t i, yaml_node_t **key,
                  yaml_node_t **value)
{
  if (!map || map->type != YAML_MAPPING_NODE ||
      i >= (size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start)) {
    return 0;
  }
  const yaml_node_pair_t *p = map->data.mapping.pairs.start + i;
  *key = yaml_document_get_node(&y->doc, p->key);
  *value = yaml_document_get_node(&y->doc, p->value);
  return 1;
}

yaml_node_t *cli_yaml_item(cli_yaml *y, const yaml_node_t *seq, size_t i)
{
  if (!seq || seq->type != YAML_SEQUENCE_NODE ||
      i >= (size_t)(seq->data.sequence.items.top - seq->data.sequence.items.start)) {
    return NULL;
  }
  return yaml_document_get_node(&y->doc, seq->data.sequence.items.start[i]);
}

size_t cli_yaml_count(const yaml_node_t *n)
{
  if (n && n->type == YAML_SEQUENCE_NODE) {
    return (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
  }
  if (n && n->type == YAML_MAPPING_NODE) {
    return (size_t)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
  }
  return 0;
}

yaml_node_t *cli_yaml_get(cli_yaml *y, const yaml_node_t *map, const char *key)
{
  yaml_node_t *k, *v;
  for (size_t i = 0; cli_yaml_pair(y, map, i, &k, &v); i++) {
    const char *t = cli_yaml_text(k);
    if (t && !strcmp(t, key)) {
      return v;
    }
  }
  return NULL;
}

sk_status cli_yaml_check_keys(cli_yaml *y, const yaml_node_t *map, const char *const *valid,
                              size_t n, const char *what)
{
  if (!map || cli_yaml_is_null(map)) {
    return SK_OK;
  }
  if (map->type != YAML_MAPPING_NODE) {
    return cli_yaml_error(y, map, SK_ERR_INPUT, "%s must be a mapping of keys", what);
  }
  yaml_node_t *k, *v;
  for (size_t i = 0; cli_yaml_pair(y, map, i, &k, &v); i++) {
    const char *t = cli_yaml_text(k);
    if (!t) {
      return cli_yaml_error(y, k, SK_ERR_INPUT, "%s: keys must be plain names", what);
    }
    yaml_node_t *k2, *v2;
    for (size_t j = 0; j < i && cli_yaml_pair(y, map, j, &k2, &v2); j++) {
      if (!strcmp(cli_yaml_text(k2), t)) {
        return cli_yaml_error(y, k, SK_ERR_INPUT, "duplicate key '%s' (first given at line %d)",
                              t, cli_yaml_line(k2));
      }
    }
    size_t m = 0;
    while (m < n && strcmp(valid[m], t) != 0) {
      m++;
    }
    if (m == n) {
      char list[512] = "";
      size_t len = 0;
      for (size_t q = 0; q < n && len < sizeof list; q++) {
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", q ? ", " : "", valid[q]);
      }
      return cli_yaml_error(y, k, SK_ERR_INPUT, "unknown key '%s' in %s (valid: %s)", t, what,
                            list);
    }
  }
  return SK_OK;
}

sk_status cli_yaml_real(const cli_yaml *y, const yaml_node_t *n, const char *what, double *v)
{
  const char *t = cli_yaml_text(n);
  char *end = NULL;
  errno = 0;
  const double r = t ? strtod(t, &end) : 0.0;
  if (!t || end == t || *end != '\0' || errno == ERANGE || !isfinite(r)) {
    return cli_yaml_error(y, n, SK_ERR_INPUT, "%s: expected a finite real number, got '%s'", what,
                          t ? t : "(not a single value)");
  }
  *v = r;
  return SK_OK;
}

sk_status cli_yaml_int(const cli_yaml *y, const yaml_node_t *n, const char *what, int64_t min,
                       int64_t max, int64_t *v)
{
  const char *t = cli_yaml_text(n);
  char *end = NULL;
  errno = 0;
  const long long k = t ? strtoll(t, &end, 10) : 0;
  if (!t || end == t || *end != '\0' || errno == ERANGE || k < min || k > max) {
    return cli_yaml_error(y, n, SK_ERR_INPUT, "%s: expected an integer in [%lld, %lld], got '%s'",
                          what, (long long)min, (long long)max, t ? t : "(not a single value)");
  }
  *v = (int64_t)k;
  return SK_OK;
}

sk_status cli_yaml_bool(const cli_yaml *y, const yaml_node_t *n, const char *what, int *v)
{
  static const char *const yes[] = {"true", "yes", "on", "1"};
  static const char *const no[] = {"false", "no", "off", "0"};
  const char *t = cli_yaml_text(n);
  for (size_t i = 0; t && i < 4; i++) {
    if (!strcasecmp(t, yes[i]) || !strcasecmp(t, no[i])) {
      *v = !strcasecmp(t, yes[i]);
      return SK_OK;
    }
  }
  return cli_yaml_error(y, n, SK_ERR_INPUT, "%s: expected true or false, got '%s'", what,
                        t ? t : "(not a single value)");
}

sk_status cli_yaml_string(const cli_yaml *y, const yaml_node_t *n, const char *what, char *dst,
                          size_t cap)
{
  const char *t = cli_yaml_text(n);
  if (!t) {
    return cli_yaml_error(y, n, SK_ERR_INPUT, "%s: expected a single value", what);
  }
  if (strlen(t) >= cap) {
    return cli_yaml_error(y, n, SK_ERR_INPUT, "%s: longer than %zu characters", what, cap - 1);
  }
  memcpy(dst, t, strlen(t) + 1);
  return SK_OK;
}

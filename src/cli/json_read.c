/* src/cli/json_read.c: reading the CLI's own small JSON files (status, statistics) as flat key/value lists (jansson) */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/json_read.h"
#include "core/error.h"

/* Deepest nesting of objects kept (deeper ones are skipped). */
#define JSON_MAX_DEPTH 16

typedef struct {
  cli_json_flat *out;
  size_t cap;
  int oom;
} flattener;

static void add_field(flattener *fl, const char *key, cli_json_kind kind, double number,
                      const char *text)
{
  cli_json_flat *out = fl->out;
  if (fl->oom) {
    return;
  }
  if (out->n == fl->cap) {
    const size_t cap = fl->cap ? 2 * fl->cap : 16;
    cli_json_field *grown = realloc(out->fields, cap * sizeof *grown);
    if (!grown) {
      fl->oom = 1;
      return;
    }
    out->fields = grown;
    fl->cap = cap;
  }
  char *k = strdup(key);
  char *t = text ? strdup(text) : NULL;
  if (!k || (text && !t)) {
    free(k);
    free(t);
    fl->oom = 1;
    return;
  }
  out->fields[out->n++] = (cli_json_field){k, kind, number, t};
}

/* The scalar members of object `obj` (keys prefixed by `prefix.`), in file order. */
static void flatten(flattener *fl, const json_t *obj, const char *prefix, int depth)
{
  const char *name;
  json_t *v;
  json_object_foreach((json_t *)obj, name, v)
  {
    const size_t need = strlen(prefix) + strlen(name) + 2;
    char *key = malloc(need);
    if (!key) {
      fl->oom = 1;
      return;
    }
    snprintf(key, need, "%s%s%s", prefix, prefix[0] ? "." : "", name);
    if (json_is_object(v) && depth < JSON_MAX_DEPTH) {
      flatten(fl, v, key, depth + 1);
    } else if (json_is_number(v)) {
      add_field(fl, key, CLI_JSON_NUMBER, json_number_value(v), NULL);
    } else if (json_is_string(v)) {
      add_field(fl, key, CLI_JSON_STRING, 0, json_string_value(v));
    } else if (json_is_boolean(v)) {
      add_field(fl, key, CLI_JSON_BOOL, json_is_true(v) ? 1.0 : 0.0, NULL);
    } else if (json_is_null(v)) {
      add_field(fl, key, CLI_JSON_NULL, 0, NULL);
    } /* arrays are skipped */
    free(key);
  }
}

sk_status cli_json_read_flat(sk_context *ctx, const char *path, cli_json_flat *out)
{
  memset(out, 0, sizeof *out);
  FILE *f = fopen(path, "rb");
  SK_CHECK(ctx, f != NULL, SK_ERR_MISSING, "cannot open '%s': %s", path, strerror(errno));
  json_error_t err;
  json_t *root = json_loadf(f, JSON_REJECT_DUPLICATES, &err);
  fclose(f);
  if (!root) {
    return SK_ERROR(ctx, SK_ERR_INPUT, "%s:%d:%d: malformed JSON: %s", path, err.line, err.column,
                    err.text);
  }
  if (!json_is_object(root)) {
    json_decref(root);
    return SK_ERROR(ctx, SK_ERR_INPUT, "%s: malformed JSON: expected an object", path);
  }
  flattener fl = {out, 0, 0};
  flatten(&fl, root, "", 1);
  json_decref(root);
  SK_CHECK(ctx, !fl.oom, SK_ERR_NOMEM, "%s: out of memory", path);
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

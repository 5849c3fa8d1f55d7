/* src/core/options_paths.c: path-valued keys (SK_OPT_PATH, SK_OPT_PATH_LIST): resolution against the naming file, the as-written text, input-file checks with both spellings */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/error.h"
#include "core/options_impl.h"
#include "core/path.h"

int sk__options_spec_is_path(const sk_option_spec *sp)
{
  return sp->type == SK_OPT_PATH || sp->type == SK_OPT_PATH_LIST;
}

void sk__options_free_paths(sk_context *ctx, opt_value *v)
{
  for (size_t i = 0; i < v->count; i++) {
    if (v->paths) {
      sk__free(ctx, v->paths[i]);
    }
    if (v->written) {
      sk__free(ctx, v->written[i]);
    }
  }
  sk__free(ctx, v->paths);
  sk__free(ctx, v->written);
  v->paths = v->written = NULL;
}

/* Append s[0..n) resolved against naming_file as one more item of out. */
static sk_status add_item(sk_context *ctx, const char *s, size_t n, const char *naming_file,
                          opt_value *out, size_t cap)
{
  if (out->count == cap) {
    return SK_ERR_INTERNAL;
  }
  char *w = sk__malloc(ctx, n + 1);
  if (!w) {
    return SK_ERROR(ctx, SK_ERR_NOMEM, "out of memory");
  }
  memcpy(w, s, n);
  w[n] = '\0';
  char *r = NULL;
  const sk_status st = sk__path_resolve(ctx, naming_file, w, &r);
  if (st != SK_OK) {
    sk__free(ctx, w);
    return st;
  }
  out->written[out->count] = w;
  out->paths[out->count] = r;
  out->count++;
  return SK_OK;
}

/* The items of one text: cut at commas when `split`, blanks trimmed, empties dropped. */
static sk_status add_text(sk_context *ctx, const char *text, int split, const char *naming_file,
                          opt_value *out, size_t cap)
{
  const char *p = text;
  for (;;) {
    const char *end = split ? strchr(p, ',') : NULL;
    size_t len = end ? (size_t)(end - p) : strlen(p);
    const char *q = p;
    while (len > 0 && (*q == ' ' || *q == '\t')) {
      q++;
      len--;
    }
    while (len > 0 && (q[len - 1] == ' ' || q[len - 1] == '\t')) {
      len--;
    }
    if (len > 0) {
      SK_CALL(ctx, add_item(ctx, q, len, naming_file, out, cap));
    }
    if (!end) {
      return SK_OK;
    }
    p = end + 1;
  }
}

/* out->text: the resolved items joined by ", " ("" for none). */
static sk_status join(sk_context *ctx, opt_value *out)
{
  size_t len = 1;
  for (size_t i = 0; i < out->count; i++) {
    len += strlen(out->paths[i]) + 2;
  }
  out->text = sk__malloc(ctx, len);
  if (!out->text) {
    return SK_ERROR(ctx, SK_ERR_NOMEM, "out of memory");
  }
  size_t at = 0;
  for (size_t i = 0; i < out->count; i++) {
    at += (size_t)snprintf(out->text + at, len - at, "%s%s", i ? ", " : "", out->paths[i]);
  }
  out->text[at] = '\0';
  return SK_OK;
}

sk_status sk__options_parse_paths(sk_context *ctx, const char *const *items, size_t n, int split,
                                  const char *naming_file, opt_value *out, char *why,
                                  size_t why_len)
{
  memset(out, 0, sizeof *out);
  why[0] = '\0';
  size_t cap = 0;
  for (size_t i = 0; i < n; i++) {
    cap += 1;
    for (const char *p = items[i]; split && *p; p++) {
      cap += *p == ',';
    }
  }
  out->paths = sk__calloc(ctx, cap ? cap : 1, sizeof *out->paths);
  out->written = sk__calloc(ctx, cap ? cap : 1, sizeof *out->written);
  sk_status st = out->paths && out->written ? SK_OK : SK_ERR_NOMEM;
  if (st != SK_OK) {
    snprintf(why, why_len, "out of memory");
  }
  for (size_t i = 0; st == SK_OK && i < n; i++) {
    st = add_text(ctx, items[i], split, naming_file, out, cap);
    if (st != SK_OK) {
      snprintf(why, why_len, "%s", sk_context_get_error(ctx)->message);
    }
  }
  if (st == SK_OK) {
    st = join(ctx, out);
  }
  if (st != SK_OK) {
    if (!why[0]) {
      snprintf(why, why_len, "%s", sk_status_str(st));
    }
    sk__options_free_paths(ctx, out);
    sk__free(ctx, out->text);
    memset(out, 0, sizeof *out);
    return st;
  }
  out->has_value = 1;
  return SK_OK;
}

/* SK_ERR_MISSING for item i of e when it names no readable file. */
static sk_status check_file(const sk_options *opts, const opt_entry *e, size_t i)
{
  struct stat sb;
  const char *path = e->val.paths[i];
  const char *why = NULL;
  if (stat(path, &sb) != 0) {
    why = errno == ENOENT || errno == ENOTDIR ? "no such file" : strerror(errno);
  } else if (S_ISDIR(sb.st_mode)) {
    why = "a directory, not a file";
  }
  if (!why) {
    return SK_OK;
  }
  char where[SK_ERROR_MSG_LEN];
  const sk_option_origin o = {e->origin_file, e->line, e->column, e->is_set && !e->origin_file};
  sk__options_origin_text(&o, where, sizeof where);
  const char *written = e->val.written[i];
  if (strcmp(written, path) == 0) {
    return SK_ERROR(opts->ctx, SK_ERR_MISSING, "%s%s: '%s': %s", where, e->spec->key, path, why);
  }
  return SK_ERROR(opts->ctx, SK_ERR_MISSING, "%s%s: '%s' (resolved to '%s'): %s", where,
                  e->spec->key, written, path, why);
}

static sk_status path_entry(const sk_options *opts, const char *key, const char *fn,
                            const opt_entry **e)
{
  if (!opts) {
    return SK_ERR_ARG;
  }
  SK_CHECK(opts->ctx, key != NULL, SK_ERR_ARG, "%s: NULL key", fn);
  *e = sk__options_find(opts, key);
  SK_CHECK(opts->ctx, *e != NULL, SK_ERR_UNKNOWN_KEY, "%s: unknown key '%s' (not registered)", fn,
           key);
  SK_CHECK(opts->ctx, sk__options_spec_is_path((*e)->spec), SK_ERR_ARG,
           "%s: key '%s' does not hold a path", fn, key);
  return SK_OK;
}

sk_status sk_options_get_input_file(const sk_options *opts, const char *key, const char **path)
{
  const opt_entry *e = NULL;
  SK_CALL(opts ? opts->ctx : NULL, path_entry(opts, key, "sk_options_get_input_file", &e));
  SK_CHECK(opts->ctx, path != NULL, SK_ERR_ARG, "sk_options_get_input_file: NULL output");
  *path = "";
  if (e->val.count == 0) {
    return SK_OK;
  }
  SK_CALL(opts->ctx, check_file(opts, e, 0));
  *path = e->val.paths[0];
  return SK_OK;
}

sk_status sk_options_get_input_files(const sk_options *opts, const char *key,
                                     const char *const **paths, size_t *n)
{
  const opt_entry *e = NULL;
  SK_CALL(opts ? opts->ctx : NULL, path_entry(opts, key, "sk_options_get_input_files", &e));
  SK_CHECK(opts->ctx, paths && n, SK_ERR_ARG, "sk_options_get_input_files: NULL output");
  *paths = NULL;
  *n = 0;
  for (size_t i = 0; i < e->val.count; i++) {
    SK_CALL(opts->ctx, check_file(opts, e, i));
  }
  *paths = e->val.count ? (const char *const *)e->val.paths : NULL;
  *n = e->val.count;
  return SK_OK;
}

/* src/core/options_pending.c: deferred option sections: values kept with their origin until a later table registers their keys */
#include <string.h>

#include "core/error.h"
#include "core/options_impl.h"

static char *copy_text(sk_context *ctx, const char *s)
{
  const size_t n = strlen(s) + 1;
  char *d = sk__malloc(ctx, n);
  if (d) {
    memcpy(d, s, n);
  }
  return d;
}

void sk__options_pending_free(sk_context *ctx, opt_pending *p)
{
  sk__free(ctx, p->key);
  sk__free(ctx, p->value);
  for (size_t i = 0; i < p->nitems && p->items; i++) {
    sk__free(ctx, p->items[i]);
  }
  sk__free(ctx, p->items);
  sk__free(ctx, p->file);
  memset(p, 0, sizeof *p);
}

int sk__options_in_deferred(const sk_options *opts, const char *key)
{
  for (size_t i = 0; i < opts->ndeferred; i++) {
    const size_t plen = strlen(opts->deferred[i]);
    if (strncmp(key, opts->deferred[i], plen) == 0 && key[plen] == '.' && key[plen + 1]) {
      return 1;
    }
  }
  return 0;
}

sk_status sk_options_defer_section(sk_options *opts, const char *prefix)
{
  if (!opts) {
    return SK_ERR_ARG;
  }
  sk_context *ctx = opts->ctx;
  SK_CHECK(ctx, prefix && sk__options_valid_key(prefix), SK_ERR_ARG,
           "sk_options_defer_section: invalid section name '%s'", prefix ? prefix : "(null)");
  for (size_t i = 0; i < opts->ndeferred; i++) {
    if (strcmp(opts->deferred[i], prefix) == 0) {
      return SK_OK;
    }
  }
  SK_CHECK(ctx, opts->ndeferred < SK__OPT_MAX_DEFERRED, SK_ERR_TOO_LARGE,
           "sk_options_defer_section: more than %d deferred sections", SK__OPT_MAX_DEFERRED);
  char *d = copy_text(ctx, prefix);
  SK_CHECK(ctx, d != NULL, SK_ERR_NOMEM, "sk_options_defer_section: out of memory");
  opts->deferred[opts->ndeferred++] = d;
  return SK_OK;
}

sk_status sk_options_undefer_section(sk_options *opts, const char *prefix)
{
  if (!opts || !prefix) {
    return SK_ERR_ARG;
  }
  for (size_t i = 0; i < opts->ndeferred; i++) {
    if (strcmp(opts->deferred[i], prefix) == 0) {
      sk__free(opts->ctx, opts->deferred[i]);
      opts->deferred[i] = opts->deferred[--opts->ndeferred];
      opts->deferred[opts->ndeferred] = NULL;
      break;
    }
  }
  return SK_OK;
}

/* Fill p from the arguments of sk__options_pend (p zeroed; partial on NOMEM). */
static int pending_fill(sk_context *ctx, opt_pending *p, const char *key, const char *value,
                        const char *const *items, size_t nitems, const sk_option_origin *origin)
{
  p->key = copy_text(ctx, key);
  int ok = p->key != NULL;
  if (value) {
    p->value = copy_text(ctx, value);
    ok = ok && p->value;
  } else if (nitems > 0) {
    p->items = sk__calloc(ctx, nitems, sizeof *p->items);
    ok = ok && p->items;
    for (size_t i = 0; ok && i < nitems; i++) {
      p->items[i] = copy_text(ctx, items[i]);
      p->nitems = i + 1;
      ok = p->items[i] != NULL;
    }
  }
  if (ok && origin && origin->file) {
    p->file = copy_text(ctx, origin->file);
    ok = p->file != NULL;
    p->line = origin->line;
    p->column = origin->column;
  }
  return ok;
}

sk_status sk__options_pend(sk_options *opts, const char *key, const char *value,
                           const char *const *items, size_t nitems,
                           const sk_option_origin *origin)
{
  sk_context *ctx = opts->ctx;
  if (opts->npending == opts->cap_pending) {
    const size_t cap = opts->cap_pending ? 2 * opts->cap_pending : 8;
    opt_pending *grown = sk__calloc(ctx, cap, sizeof *grown);
    SK_CHECK(ctx, grown != NULL, SK_ERR_NOMEM, "out of memory keeping '%s'", key);
    if (opts->npending > 0) {
      memcpy(grown, opts->pending, opts->npending * sizeof *grown);
    }
    sk__free(ctx, opts->pending);
    opts->pending = grown;
    opts->cap_pending = cap;
  }
  opt_pending *p = &opts->pending[opts->npending];
  memset(p, 0, sizeof *p);
  if (!pending_fill(ctx, p, key, value, items, nitems, origin)) {
    sk__options_pending_free(ctx, p);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "out of memory keeping '%s'", key);
  }
  opts->npending++;
  return SK_OK;
}

sk_option_origin sk__options_pending_origin(const opt_pending *p)
{
  sk_option_origin o = {p->file, p->line, p->column, p->file == NULL};
  return o;
}

/* The first pending value under "prefix." (every one when prefix is NULL), as an unknown key. */
static sk_status check_pending(const sk_options *opts, const char *prefix)
{
  const size_t plen = prefix ? strlen(prefix) : 0;
  for (size_t i = 0; i < opts->npending; i++) {
    const char *key = opts->pending[i].key;
    if (!prefix || (strncmp(key, prefix, plen) == 0 && key[plen] == '.')) {
      const sk_option_origin o = sk__options_pending_origin(&opts->pending[i]);
      return sk__options_unknown_key_error(opts, key, &o);
    }
  }
  return SK_OK;
}

sk_status sk_options_check_pending(const sk_options *opts)
{
  return opts ? check_pending(opts, NULL) : SK_ERR_ARG;
}

sk_status sk_options_check_pending_in(const sk_options *opts, const char *prefix)
{
  return opts && prefix ? check_pending(opts, prefix) : SK_ERR_ARG;
}

const char *sk_options_pending_key(const sk_options *opts, size_t i)
{
  return opts && i < opts->npending ? opts->pending[i].key : NULL;
}

void sk__options_free_pending(sk_options *opts)
{
  for (size_t i = 0; i < opts->npending; i++) {
    sk__options_pending_free(opts->ctx, &opts->pending[i]);
  }
  sk__free(opts->ctx, opts->pending);
  for (size_t i = 0; i < opts->ndeferred; i++) {
    sk__free(opts->ctx, opts->deferred[i]);
  }
  opts->pending = NULL;
  opts->npending = opts->cap_pending = opts->ndeferred = 0;
}

/* src/core/options_index.c: the options database's key index: an open-addressing hash table from key to entry, so that a lookup or a registration costs O(1) instead of a scan of every key */
#include <stdint.h>
#include <string.h>

#include "core/error.h"
#include "core/options_impl.h"

/* Fewest slots of a table; a table is grown to keep at least half its slots empty. */
#define INDEX_MIN_SLOTS 64

/* FNV-1a, 64 bits. */
static uint64_t key_hash(const char *key)
{
  uint64_t h = 14695981039346656037u;
  for (const unsigned char *p = (const unsigned char *)key; *p; p++) {
    h = (h ^ *p) * 1099511628211u;
  }
  return h;
}

/* Put entry i into a table of cap slots (a power of two with a free slot). */
static void slot_put(size_t *slots, size_t cap, const opt_entry *entries, size_t i)
{
  size_t s = (size_t)key_hash(entries[i].spec->key) & (cap - 1);
  while (slots[s] != 0) {
    s = (s + 1) & (cap - 1);
  }
  slots[s] = i + 1;
}

sk_status sk__options_index_reserve(sk_options *opts, size_t n)
{
  if (n <= opts->index_cap / 2) {
    return SK_OK;
  }
  size_t cap = opts->index_cap ? opts->index_cap : INDEX_MIN_SLOTS;
  while (cap / 2 < n) {
    SK_CHECK(opts->ctx, cap <= SIZE_MAX / 2 / sizeof(size_t), SK_ERR_TOO_LARGE,
             "options: too many keys for the key index");
    cap *= 2;
  }
  size_t *slots = sk__calloc(opts->ctx, cap, sizeof *slots);
  SK_CHECK(opts->ctx, slots != NULL, SK_ERR_NOMEM, "options: out of memory for the key index");
  for (size_t i = 0; i < opts->n; i++) {
    slot_put(slots, cap, opts->entries, i);
  }
  sk__free(opts->ctx, opts->index);
  opts->index = slots;
  opts->index_cap = cap;
  return SK_OK;
}

void sk__options_index_add(sk_options *opts, size_t i)
{
  slot_put(opts->index, opts->index_cap, opts->entries, i);
}

void sk__options_index_rebuild(sk_options *opts)
{
  if (!opts->index) {
    return;
  }
  memset(opts->index, 0, opts->index_cap * sizeof *opts->index);
  for (size_t i = 0; i < opts->n; i++) {
    slot_put(opts->index, opts->index_cap, opts->entries, i);
  }
}

opt_entry *sk__options_index_find(const sk_options *opts, const char *key)
{
  if (!opts->index) {
    return NULL;
  }
  size_t s = (size_t)key_hash(key) & (opts->index_cap - 1);
  for (; opts->index[s] != 0; s = (s + 1) & (opts->index_cap - 1)) {
    opt_entry *e = &opts->entries[opts->index[s] - 1];
    if (strcmp(e->spec->key, key) == 0) {
      return e;
    }
  }
  return NULL;
}

void sk__options_index_free(sk_options *opts)
{
  sk__free(opts->ctx, opts->index);
  opts->index = NULL;
  opts->index_cap = 0;
}

/* src/core/options_impl.h: the options database's internal layout, shared by options.c, options_keys.c, options_paths.c and options_pending.c */
#ifndef SK_CORE_OPTIONS_IMPL_H
#define SK_CORE_OPTIONS_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "core/options_text.h"
#include "stiffkit/options.h"

/* The parsed value of one key. */
typedef struct {
  double real;
  int64_t integer;
  int boolean;
  char *text;     /* SK_OPT_STRING / SK_OPT_CHOICE (owned; NULL reads as "") */
  double *reals;  /* SK_OPT_REAL_LIST (owned; NULL when empty) */
  int64_t *ints;  /* SK_OPT_INT_LIST (owned; NULL when empty) */
  char **paths;   /* SK_OPT_PATH / SK_OPT_PATH_LIST: the resolved items (owned; count) */
  char **written; /* path types: the same items as written (owned; count) */
  size_t count;   /* list length (path types: number of items) */
  int has_value;  /* 0: a real/int/bool/choice key without default, never set */
} opt_value;

typedef struct {
  const sk_option_spec *spec;
  opt_value val;
  int is_set;        /* set by a config file or the command line */
  char *origin_file; /* owned copy; NULL for the command line */
  int line, column;
} opt_entry;

/* A value for a key of a deferred section that no table has registered yet. */
typedef struct {
  char *key;
  char *value;  /* scalar text (NULL for a list) */
  char **items; /* list items (NULL for a scalar) */
  size_t nitems;
  char *file; /* origin (owned copy; NULL for the command line) */
  int line, column;
} opt_pending;

#define SK__OPT_MAX_DEFERRED 32

struct sk_options {
  sk_context *ctx;
  opt_entry *entries; /* registration order */
  size_t n, cap;
  char *deferred[SK__OPT_MAX_DEFERRED]; /* section prefixes whose keys may come later */
  size_t ndeferred;
  opt_pending *pending; /* in the order they were set */
  size_t npending, cap_pending;
  size_t *index;    /* key index (options_index.c): entry number + 1 per used slot, 0 free */
  size_t index_cap; /* slots: 0 or a power of two, at least twice the indexed entries */
  void **owned;     /* key tables a model built at run time (sk__options_register_owned) */
  size_t nowned;
};

/* sk__options_index_reserve: room in the key index for n entries (the
 * registered ones are re-indexed when it grows). Errors: SK_ERR_NOMEM,
 * SK_ERR_TOO_LARGE; the index is unchanged on failure. */
sk_status sk__options_index_reserve(sk_options *opts, size_t n);

/* sk__options_index_add: index entry i (its spec set; room reserved). */
void sk__options_index_add(sk_options *opts, size_t i);

/* sk__options_index_rebuild: the index of exactly entries [0, opts->n),
 * dropping any added beyond them (a registration that failed). */
void sk__options_index_rebuild(sk_options *opts);

/* sk__options_index_find: the indexed entry of `key`, NULL when there is none. */
opt_entry *sk__options_index_find(const sk_options *opts, const char *key);

/* sk__options_index_free: frees the index. */
void sk__options_index_free(sk_options *opts);

/* sk__options_in_deferred: 1 when `key` lies under a deferred section. */
int sk__options_in_deferred(const sk_options *opts, const char *key);

/* sk__options_pend: keep a scalar (value != NULL) or list value of an
 * unregistered key of a deferred section with its origin. Errors: SK_ERR_NOMEM. */
sk_status sk__options_pend(sk_options *opts, const char *key, const char *value,
                           const char *const *items, size_t nitems,
                           const sk_option_origin *origin);

/* sk__options_free_pending: frees the deferred sections and pending values. */
void sk__options_free_pending(sk_options *opts);

/* sk__options_valid_key: 1 for names of [A-Za-z0-9_-] joined by single dots. */
int sk__options_valid_key(const char *k);

/* sk__options_unknown_key_error: record SK_ERR_UNKNOWN_KEY for `key` with
 * the nearest registered key and the keys of its section. */
sk_status sk__options_unknown_key_error(const sk_options *opts, const char *key,
                                        const sk_option_origin *origin);

/* Room for a key rewritten by sk_options_current_key. */
#define SK__OPTIONS_KEY_MAX 256

/* sk__options_find: the entry of a registered key (a retired name finds the
 * present one), NULL when there is none. */
opt_entry *sk__options_find(const sk_options *opts, const char *key);

/* sk__options_origin_prefix: the origin as sk__options_origin_text appended to b. */
void sk__options_origin_prefix(const sk_option_origin *o, strbuf *b);

/* sk__options_lookup_for_set: the entry of `key` for a set, or a recorded
 * error: a section given a value (got: its text, NULL for a list), or an
 * unknown key (SK_ERR_UNKNOWN_KEY with the nearest key). */
sk_status sk__options_lookup_for_set(const sk_options *opts, const char *key, const char *got,
                                     const sk_option_origin *origin, opt_entry **e);

/* sk__options_pending_origin / sk__options_pending_free: a pending value's
 * origin; release its texts (p zeroed). */
sk_option_origin sk__options_pending_origin(const opt_pending *p);
void sk__options_pending_free(sk_context *ctx, opt_pending *p);

/* sk__options_origin_text: "cfg.yaml:3:5: " (or "cfg.yaml:3: ", "cfg.yaml: ")
 * for a file origin, "--set: " otherwise, into buf (always NUL-terminated). */
void sk__options_origin_text(const sk_option_origin *o, char *buf, size_t len);

/* sk__options_register_owned: register `table` (n specs) and keep it, with
 * the key strings it points into (`block`, from sk__malloc with opts'
 * context), until the database is destroyed; on failure both are freed.
 * For keys a model derives from its input (a formula model's names).
 * Errors: as sk_options_register, SK_ERR_NOMEM. */
sk_status sk__options_register_owned(sk_options *opts, const sk_option_spec *table, size_t n,
                                     void *block);

/* sk__options_key_at: the i-th registered key (registration order), NULL past the last. */
const char *sk__options_key_at(const sk_options *opts, size_t i);

/* sk__options_spec_is_path: 1 for SK_OPT_PATH and SK_OPT_PATH_LIST. */
int sk__options_spec_is_path(const sk_option_spec *sp);

/* sk__options_parse_paths: the value of a path key from n texts (a YAML
 * list's items; with split, each is further cut at commas, as the text of
 * --set is), trimmed, empty items dropped, each resolved against
 * naming_file (NULL: the working directory) into out->paths / out->written,
 * out->text = the resolved items joined by ", " (a SK_OPT_PATH key is given
 * one text, not split). On failure *out is empty and why holds the reason.
 * Returns SK_OK, SK_ERR_NOMEM,
 * SK_ERR_TOO_LARGE, SK_ERR_IO. */
sk_status sk__options_parse_paths(sk_context *ctx, const char *const *items, size_t n, int split,
                                  const char *naming_file, opt_value *out, char *why,
                                  size_t why_len);

/* sk__options_free_paths: frees out->paths and out->written. */
void sk__options_free_paths(sk_context *ctx, opt_value *v);

#endif

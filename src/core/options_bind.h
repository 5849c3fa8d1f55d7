/* src/core/options_bind.h: option keys bound to the fields of a settings struct, so that a table declares each key once and one call reads them all */
#ifndef SK_CORE_OPTIONS_BIND_H
#define SK_CORE_OPTIONS_BIND_H

#include <stddef.h>
#include <stdint.h>

#include "stiffkit/options.h"

/* The C type of a bound field, by the key's sk_opt_type: SK__FIELD(SK_OPT_REAL) is double. */
typedef struct {
  const double *v; /* into the database; NULL when empty */
  size_t n;
} sk__real_list;
typedef struct {
  const int64_t *v; /* into the database; NULL when empty */
  size_t n;
} sk__int_list;
#define SK__FIELD_SK_OPT_REAL double
#define SK__FIELD_SK_OPT_INT int64_t
#define SK__FIELD_SK_OPT_BOOL int
#define SK__FIELD_SK_OPT_STRING const char *
#define SK__FIELD_SK_OPT_CHOICE const char *
#define SK__FIELD_SK_OPT_PATH const char *
#define SK__FIELD_SK_OPT_PATH_LIST const char *
#define SK__FIELD_SK_OPT_REAL_LIST sk__real_list
#define SK__FIELD_SK_OPT_INT_LIST sk__int_list
#define SK__FIELD(type) SK__FIELD_##type

/* Expanders of a bound table's rows X(field, key, type, default, min, max,
 * choices, help): SK__BIND_FIELD declares the settings struct's field,
 * SK__BIND_SPEC gives the sk_option_spec, SK__BIND_OFFSET the field's
 * offset in the struct named by SK__BIND_STRUCT (define it around the use). */
#define SK__BIND_FIELD(f, key, type, ...) SK__FIELD(type) f;
#define SK__BIND_SPEC(f, key, type, def, min, max, choices, help) \
  {key, type, def, min, max, choices, help},
#define SK__BIND_OFFSET(f, ...) offsetof(SK__BIND_STRUCT, f),

/* sk__options_read_bound: every key of spec[0..n) into the field at
 * settings + offset[i] (the C type SK__FIELD of its type): the value set by
 * a config or the command line, else the default (a key without default
 * that was never set leaves its field as it was; strings read "" then).
 * Bit i of *given (may be NULL) is set when key i was given
 * (sk_options_is_set).
 * Strings and lists point into the database (valid while it lives and the
 * key is not set again). n <= 64. Errors: those of the typed getters
 * (SK_ERR_UNKNOWN_KEY when a key is not registered in opts), SK_ERR_ARG
 * for n > 64. */
sk_status sk__options_read_bound(const sk_options *opts, const sk_option_spec *spec,
                                 const size_t *offset, size_t n, void *settings, uint64_t *given);

/* sk__options_resolve_bound: every SK_OPT_PATH key of spec[0..n) whose
 * field holds a path (read by sk__options_read_bound), replaced by the
 * resolved one, checked to exist (sk_options_get_input_file). Errors:
 * those of sk_options_get_input_file (SK_ERR_MISSING names the key's place). */
sk_status sk__options_resolve_bound(const sk_options *opts, const sk_option_spec *spec,
                                    const size_t *offset, size_t n, void *settings);

/* sk__choice_index: the position of `value` among the '|'-separated
 * `choices` ("none|mode|manufactured": "mode" is 1), -1 when absent. */
int sk__choice_index(const char *choices, const char *value);

/* sk__bound_key: spec[k].key, or "" when k is outside [0, n). */
const char *sk__bound_key(const sk_option_spec *spec, size_t n, int k);

/* sk__options_refused_at: a setter's SK_ERR_ARG (rc, its message in ctx)
 * for the value of `key` as SK_ERR_INPUT at the key's place: "WHERE:
 * MESSAGE" (sk_options_where). Any other rc is returned unchanged. */
sk_status sk__options_refused_at(sk_context *ctx, const sk_options *opts, const char *key,
                                 sk_status rc);

/* SK__BIND_DECLARE(prefix, settings_type): the four functions of a bound
 * table, defined by SK__BIND_DEFINE:
 *   prefix_options(n): the table (*n entries; n may be NULL), for sk_options_register;
 *   prefix_settings_read(opts, st, given): every key into *st (its default
 *     when not given) and the mask of the keys given (may be NULL); errors
 *     those of sk__options_read_bound (SK_ERR_UNKNOWN_KEY when the table is
 *     not registered in opts);
 *   prefix_paths_resolve(opts, st): the path keys of *st resolved
 *     (sk__options_resolve_bound);
 *   prefix_key(k): the key string of row k, for messages and origins;
 *   prefix_keys_registered(opts): 1 when opts holds the table's keys;
 *   prefix_settings_given(opts, st, given): as prefix_settings_read, but a
 *     database without the table reads as nothing given (*st zeroed,
 *     *given 0, SK_OK). */
#define SK__BIND_DECLARE(prefix, settings_type)                                                 \
  const sk_option_spec *prefix##_options(size_t *n);                                            \
  sk_status prefix##_settings_read(const sk_options *opts, settings_type *st, uint64_t *given); \
  sk_status prefix##_paths_resolve(const sk_options *opts, settings_type *st);                  \
  const char *prefix##_key(int k);                                                              \
  int prefix##_keys_registered(const sk_options *opts);                                         \
  sk_status prefix##_settings_given(const sk_options *opts, settings_type *st, uint64_t *given);

/* SK__BIND_DEFINE(prefix, KEYS, settings_type, count): the table of the rows
 * KEYS(X) and the functions SK__BIND_DECLARE declares. Define SK__BIND_STRUCT
 * as settings_type around the use (the rows' offsets are taken in it). */
#define SK__BIND_DEFINE(prefix, KEYS, settings_type, count)                                     \
  static const sk_option_spec prefix##_spec[] = {KEYS(SK__BIND_SPEC)};                          \
  static const size_t prefix##_offset[] = {KEYS(SK__BIND_OFFSET)};                              \
  _Static_assert(sizeof prefix##_spec / sizeof prefix##_spec[0] == (count), "one spec a row");  \
  const sk_option_spec *prefix##_options(size_t *n)                                             \
  {                                                                                             \
    if (n) {                                                                                    \
      *n = (count);                                                                             \
    }                                                                                           \
    return prefix##_spec;                                                                       \
  }                                                                                             \
  sk_status prefix##_settings_read(const sk_options *opts, settings_type *st, uint64_t *given)  \
  {                                                                                             \
    *st = (settings_type){0};                                                                   \
    return sk__options_read_bound(opts, prefix##_spec, prefix##_offset, (count), st, given);    \
  }                                                                                             \
  sk_status prefix##_paths_resolve(const sk_options *opts, settings_type *st)                   \
  {                                                                                             \
    return sk__options_resolve_bound(opts, prefix##_spec, prefix##_offset, (count), st);        \
  }                                                                                             \
  const char *prefix##_key(int k)                                                               \
  {                                                                                             \
    return sk__bound_key(prefix##_spec, (count), k);                                            \
  }                                                                                             \
  int prefix##_keys_registered(const sk_options *opts)                                          \
  {                                                                                             \
    return sk_options_is_key(opts, prefix##_spec[0].key);                                       \
  }                                                                                             \
  sk_status prefix##_settings_given(const sk_options *opts, settings_type *st, uint64_t *given) \
  {                                                                                             \
    *st = (settings_type){0};                                                                   \
    *given = 0;                                                                                 \
    return prefix##_keys_registered(opts) ? prefix##_settings_read(opts, st, given) : SK_OK;    \
  }

/* SK__BIND_GIVEN(given, index): 1 when row `index` was set by a config or the
 * command line (the mask of a settings_read). */
#define SK__BIND_GIVEN(given, index) ((int)(((given) >> (index)) & 1u))

#endif

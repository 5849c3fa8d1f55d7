/* stiffkit/options.h: the options database: typed keys declared in tables, layered sources */
#ifndef STIFFKIT_OPTIONS_H
#define STIFFKIT_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stiffkit/context.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the public API: exported from libstiffkit, which hides everything else */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

typedef enum {
  SK_OPT_REAL,      /* double, range [min, max] */
  SK_OPT_INT,       /* int64, range [min, max] */
  SK_OPT_BOOL,      /* true/false/yes/no/on/off/1/0 */
  SK_OPT_STRING,    /* free text */
  SK_OPT_CHOICE,    /* one of `choices` ("a|b|c") */
  SK_OPT_REAL_LIST, /* list of doubles, each in [min, max]; "" is empty */
  SK_OPT_INT_LIST,  /* list of int64, each in [min, max] */
  SK_OPT_PATH,      /* a file name (see "Paths" below; "" = none) */
  SK_OPT_PATH_LIST  /* file names separated by commas (or a YAML list) */
} sk_opt_type;

/* Paths. A relative SK_OPT_PATH / SK_OPT_PATH_LIST value set from a file
 * (a config, a sweep, a sweep's CSV: the origin's `file`) is relative to
 * the directory of that file; one set from the command line (origin NULL
 * or without file) is relative to the working directory; an absolute one
 * is unchanged. The value is resolved to an absolute path when it is set,
 * and that absolute path is what sk_options_get_string
 * returns and sk_options_write_effective echoes (items joined by ", "), so
 * the echo loads back to the same files from anywhere. The text as written
 * is kept for messages. */

/* One option key. Modules declare `static const sk_option_spec` tables next
 * to the code they configure. `def` is the default as text ("" = unset).
 * Keys are names of [A-Za-z0-9_-] joined by single dots. min == max == 0
 * means "no range" (any finite double / any int64). Integers are decimal
 * only ("0x10" and "1e6" are rejected); reals are finite decimals (no hex,
 * NaN or Inf, no over- or underflow). Choices match case-insensitively and
 * store the spelling of the table. */
typedef struct {
  const char *key; /* dotted: `solver.rtol` */
  sk_opt_type type;
  const char *def;
  double min, max;     /* numeric range, inclusive (ignored for others) */
  const char *choices; /* SK_OPT_CHOICE: "a|b|c" */
  const char *help;
} sk_option_spec;

/* Where a value came from: a config file position, the command line, a default. */
typedef struct {
  const char *file; /* NULL for defaults and the command line */
  int line, column; /* 1-based; 0 when unknown */
  int from_command_line;
} sk_option_origin;

typedef struct sk_options sk_options;

/* sk_options_create / sk_options_destroy: empty database (destroy NULLs, accepts NULL).
 * Errors are recorded in `ctx` (required). Returns SK_OK, SK_ERR_ARG, SK_ERR_NOMEM. */
sk_status sk_options_create(sk_context *ctx, sk_options **opts);
void sk_options_destroy(sk_options **opts);

/* sk_options_get_context: the context given to sk_options_create. */
sk_context *sk_options_get_context(const sk_options *opts);

/* sk_options_register: add `n` specs (not copied: the table must outlive the
 * database). Defaults are validated. Duplicate or malformed keys, bad
 * defaults, empty choices and min > max are SK_ERR_ARG ("option table: ...");
 * a table that fails adds no key. */
sk_status sk_options_register(sk_options *opts, const sk_option_spec *table, size_t n);

/* sk_options_set: set `key` to the text `value` from `origin` (may be NULL
 * for the command line). The value is parsed and range-checked now. Errors:
 * SK_ERR_UNKNOWN_KEY (message names the origin, the key, the nearest valid
 * key and the valid keys of that section), SK_ERR_INPUT (wrong type or out of
 * range, message names origin, key, value and what was expected). A later
 * set overrides an earlier one (defaults < config file < command line). */
sk_status sk_options_set(sk_options *opts, const char *key, const char *value,
                         const sk_option_origin *origin);

/* sk_options_set_list: set a list-typed key from `n` separate items. */
sk_status sk_options_set_list(sk_options *opts, const char *key, const char *const *items,
                              size_t n, const sk_option_origin *origin);

/* sk_options_set_assignment: parse "key=value" (command line --set); spaces
 * around the key are ignored. List values: "1,2,3" or "[1, 2, 3]".
 * Errors: as sk_options_set, and SK_ERR_INPUT when there is no '=' or no key. */
sk_status sk_options_set_assignment(sk_options *opts, const char *assignment);

/* Typed getters. Errors: SK_ERR_UNKNOWN_KEY for an unregistered key,
 * SK_ERR_ARG for a type mismatch. String and list results point into the
 * database and stay valid until the key is set again or the database freed.
 * get_string serves SK_OPT_STRING, SK_OPT_CHOICE and the path types (the
 * resolved absolute path; "" when unset without
 * default). An empty list gives *v == NULL, *n == 0. A real, int or bool key
 * with no default that was never set leaves *v unchanged and returns SK_OK
 * (sk_options_is_set tells the cases apart). */
sk_status sk_options_get_real(const sk_options *opts, const char *key, double *v);
sk_status sk_options_get_int(const sk_options *opts, const char *key, int64_t *v);
sk_status sk_options_get_bool(const sk_options *opts, const char *key, int *v);
sk_status sk_options_get_string(const sk_options *opts, const char *key, const char **v);
sk_status sk_options_get_real_list(const sk_options *opts, const char *key, const double **v,
                                   size_t *n);
sk_status sk_options_get_int_list(const sk_options *opts, const char *key, const int64_t **v,
                                  size_t *n);

/* sk_options_get_input_file: the resolved path of a SK_OPT_PATH key that
 * names an input file ("" when unset), checked to exist. Errors:
 * SK_ERR_UNKNOWN_KEY, SK_ERR_ARG (NULL argument, not a path key),
 * SK_ERR_MISSING when there is no such file, naming the origin, the key,
 * the path as written and where it was looked for:
 *   "cfg.yaml:7:9: multibody.file: 'mechanisms/x.yaml' (resolved to
 *    '/abs/dir/mechanisms/x.yaml'): no such file"
 * ("--set: " for the command line; the "resolved to" part is left out for
 * an absolute path). */
sk_status sk_options_get_input_file(const sk_options *opts, const char *key, const char **path);

/* sk_options_get_input_files: the n resolved paths of a SK_OPT_PATH_LIST
 * (or SK_OPT_PATH) key, each checked as sk_options_get_input_file does.
 * *paths points into the database (NULL when n == 0). */
sk_status sk_options_get_input_files(const sk_options *opts, const char *key,
                                     const char *const **paths, size_t *n);

/* sk_options_is_set: 1 when the key was given by a config or the command line. */
int sk_options_is_set(const sk_options *opts, const char *key);

/* sk_options_current_key: `key` under its present name. A key written under a
 * retired prefix (mbs.*, the multibody keys' earlier name) is rewritten into buf
 * (cap bytes) as its present name (multibody.*); any other key, or one that does
 * not fit, is returned as given. Every function of this header that takes a key
 * applies it, so both names set and read the same key. */
const char *sk_options_current_key(const char *key, char *buf, size_t cap);

/* sk_options_is_key: 1 when `key` is registered. */
int sk_options_is_key(const sk_options *opts, const char *key);

/* sk_options_is_section: 1 when some registered key starts with "prefix." */
int sk_options_is_section(const sk_options *opts, const char *prefix);

/* sk_options_defer_section: keys under "prefix." (e.g. "model.parameters"
 * for a plugin's parameters) may be set before any table registers them.
 * Such a value is kept as text with its origin; when a later
 * sk_options_register adds the key, the value is parsed then, and a bad
 * one fails that registration with the error sk_options_set would have
 * given, naming the original file:line:column. Up to 32 sections. Errors:
 * SK_ERR_ARG (NULL or malformed prefix), SK_ERR_TOO_LARGE, SK_ERR_NOMEM. */
sk_status sk_options_defer_section(sk_options *opts, const char *prefix);

/* sk_options_undefer_section: end the deferral of "prefix." (a no-op when
 * it is not deferred): from now on a key there that no table declares is
 * refused when set. Values already pending stay pending (check them with
 * sk_options_check_pending_in first). Errors: SK_ERR_ARG (NULL argument). */
sk_status sk_options_undefer_section(sk_options *opts, const char *prefix);

/* sk_options_check_pending: SK_ERR_UNKNOWN_KEY for the first deferred value
 * that no table claimed (message: its origin, the key, the nearest
 * registered key); SK_OK when none is left. Call it once every table is
 * registered. */
sk_status sk_options_check_pending(const sk_options *opts);

/* sk_options_check_pending_in: as sk_options_check_pending, for the
 * deferred values under "prefix." only (the others may wait for a later
 * table). Errors: SK_ERR_ARG (NULL argument), SK_ERR_UNKNOWN_KEY. */
sk_status sk_options_check_pending_in(const sk_options *opts, const char *prefix);

/* sk_options_is_deferred: 1 when `key` is not registered but lies in a
 * deferred section (so a set is kept pending rather than refused). */
int sk_options_is_deferred(const sk_options *opts, const char *key);

/* sk_options_get_origin: where the value of `key` came from (file, line,
 * column of a config file; from_command_line for --set; file NULL and
 * line 0 for a default). The file name points into the database. Errors:
 * SK_ERR_UNKNOWN_KEY, SK_ERR_ARG (NULL argument). */
sk_status sk_options_get_origin(const sk_options *opts, const char *key,
                                sk_option_origin *origin);

/* sk_options_where: where the value of `key` came from, followed by the
 * key, for the head of a message about it: "cfg.yaml:3:5: key" for a config
 * file, "--set key" for the command line, "key" for a default or an unknown
 * key. buf (len > 0) is always NUL-terminated, truncated when short. */
void sk_options_where(const sk_options *opts, const char *key, char *buf, size_t len);

/* sk_options_pending_key: the i-th value still waiting in a deferred
 * section (in the order set), NULL past the last; lets a module learn
 * the keys a user wrote (named parameters, labelled conditions) before it
 * registers them. */
const char *sk_options_pending_key(const sk_options *opts, size_t i);

/* sk_options_print_help: every key with type, default, current value and help. */
void sk_options_print_help(const sk_options *opts, FILE *out);

/* sk_options_write_effective: every key = effective value, one per line as
 * "key: value" (YAML-compatible flat form), in registration order. Lists are
 * "[a, b]", strings are double-quoted where YAML needs it, and a key with no
 * value (no default, never set) is a comment line "# key: (not set)". The
 * text loads back with sk_config_load to the same effective values. */
void sk_options_write_effective(const sk_options *opts, FILE *out);

/* sk_options_effective_string: the same text in a malloc'ed string (caller frees). */
char *sk_options_effective_string(const sk_options *opts);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif

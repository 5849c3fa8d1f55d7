/* src/registry/type_names.h: what the registries share: the names of their types as one list, and the lookup of an option's value with the located error for a name none of them has */
#ifndef SK_REGISTRY_TYPE_NAMES_H
#define SK_REGISTRY_TYPE_NAMES_H

#include <stddef.h>

#include "stiffkit/options.h"

/* The name of a registry's i-th type, NULL past the end. */
typedef const char *(*sk__type_name_fn)(const sk_context *ctx, size_t i);

/* sk__type_names: the names name_at gives, joined by sep, into buf (cap
 * bytes; cut at cap). Never fails. */
void sk__type_names(const sk_context *ctx, sk__type_name_fn name_at, const char *sep, char *buf,
                    size_t cap);

/* sk__type_lookup: *index = the position (as name_at counts) of the type
 * whose name option `key` holds. Errors: those of sk_options_get_string;
 * SK_ERR_INPUT for a name no type has: "<origin: file:line:col: >KEY:
 * unknown WHAT 'NAME'; valid WHATs: NAMES" (the origin when opts knows where
 * key was set). */
sk_status sk__type_lookup(sk_context *ctx, const sk_options *opts, const char *key,
                          const char *what, sk__type_name_fn name_at, size_t *index);

#endif

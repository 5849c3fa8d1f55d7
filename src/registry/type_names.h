/* src/registry/type_names.h: what the registries share: the names of their types as one list, and the located error for a name none of them has */
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

/* sk__type_unknown: the error for the value `got` of option `key` that no
 * type of the registry has: "<origin: file:line:col: >KEY: unknown WHAT 'GOT';
 * valid WHATs: NAMES" (the origin when opts knows where key was set). Returns
 * SK_ERR_INPUT. */
sk_status sk__type_unknown(sk_context *ctx, const sk_options *opts, const char *key,
                           const char *what, const char *got, sk__type_name_fn name_at);

#endif

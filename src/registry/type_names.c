/* src/registry/type_names.c: the names of a registry's types as one list, and the lookup of an option's value with the located error for an unknown one */
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/options_impl.h"
#include "registry/type_names.h"

void sk__type_names(const sk_context *ctx, sk__type_name_fn name_at, const char *sep, char *buf,
                    size_t cap)
{
  size_t used = 0;
  buf[0] = '\0';
  const char *name;
  for (size_t i = 0; (name = name_at(ctx, i)) != NULL && used < cap; i++) {
    const int w = snprintf(buf + used, cap - used, "%s%s", i ? sep : "", name);
    used += w > 0 ? (size_t)w : 0;
  }
}

sk_status sk__type_lookup(sk_context *ctx, const sk_options *opts, const char *key,
                          const char *what, sk__type_name_fn name_at, size_t *index)
{
  const char *got = NULL;
  SK_CALL(ctx, sk_options_get_string(opts, key, &got));
  const char *name;
  for (size_t i = 0; (name = name_at(ctx, i)) != NULL; i++) {
    if (strcmp(name, got) == 0) {
      *index = i;
      return SK_OK;
    }
  }
  char names[512];
  sk__type_names(ctx, name_at, ", ", names, sizeof names);
  sk_option_origin origin;
  char where[512] = "";
  if (sk_options_get_origin(opts, key, &origin) == SK_OK) {
    sk__options_origin_text(&origin, where, sizeof where);
  }
  return SK_ERROR(ctx, SK_ERR_INPUT, "%s%s: unknown %s '%s'; valid %ss: %s", where, key, what,
                  got, what, names);
}

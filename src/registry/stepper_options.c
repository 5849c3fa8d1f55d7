/* src/registry/stepper_options.c: the stepper keys as the registry knows them: one table of the shared, linear-solver and built-in types' keys, registration of the registered types' own, and the refusal of a key that only other types take */
#include <stdio.h>
#include <string.h>

#include "backends/cvode_keys.h"
#include "backends/ida_keys.h"
#include "core/error.h"
#include "linsol/linsol_keys.h"
#include "steppers/reference_keys.h"
#include "steppers/stepper_impl.h"
#include "steppers/stepper_keys.h"

/* the rows of each table, in one array: each key is still written once, in its owner's header */
static const sk_option_spec builtin_keys[] = {
    SK__STEPPER_KEYS(SK__BIND_SPEC) SK__LINSOL_KEYS(SK__BIND_SPEC) SK__CVODE_KEYS(SK__BIND_SPEC)
        SK__IDA_KEYS(SK__BIND_SPEC) SK__REFERENCE_KEYS(SK__BIND_SPEC)};

const sk_option_spec *sk_stepper_options(size_t *n)
{
  *n = sizeof builtin_keys / sizeof builtin_keys[0];
  return builtin_keys;
}

/* the own table of type t (NULL: none, or a plugin built before the field existed) */
static const sk_option_spec *own_keys(const sk_context *ctx, const sk_stepper_type *t, size_t *n)
{
  *n = 0;
  if (sk__stepper_type_abi(ctx, t) < 4 || !t->options) {
    return NULL;
  }
  const sk_option_spec *table = t->options(n);
  return table && *n > 0 ? table : NULL;
}

sk_status sk_stepper_register_options(sk_options *opts)
{
  sk_context *ctx = sk_options_get_context(opts);
  if (!ctx) {
    return SK_ERR_ARG;
  }
  if (!sk_options_is_key(opts, builtin_keys[0].key)) {
    SK_CALL(ctx, sk_options_register(opts, builtin_keys,
                                     sizeof builtin_keys / sizeof builtin_keys[0]));
  }
  const sk_stepper_type *t;
  for (size_t i = 0; (t = sk_stepper_type_list(ctx, i)) != NULL; i++) {
    size_t n;
    const sk_option_spec *table = own_keys(ctx, t, &n);
    if (table && !sk_options_is_key(opts, table[0].key)) {
      SK_CALL(ctx, sk_options_register(opts, table, n));
    }
  }
  return SK_OK;
}

/* 1 when `key` is a row of type t's own table */
static int owns(const sk_context *ctx, const sk_stepper_type *t, const char *key)
{
  size_t n;
  const sk_option_spec *table = own_keys(ctx, t, &n);
  for (size_t k = 0; k < n; k++) {
    if (strcmp(table[k].key, key) == 0) {
      return 1;
    }
  }
  return 0;
}

/* the names of the types that own `key`, joined by ", ", into buf */
static void owners(const sk_context *ctx, const char *key, char *buf, size_t cap)
{
  buf[0] = '\0';
  size_t len = 0;
  const sk_stepper_type *t;
  for (size_t i = 0; (t = sk_stepper_type_list(ctx, i)) != NULL && len + 1 < cap; i++) {
    if (owns(ctx, t, key)) {
      const int w = snprintf(buf + len, cap - len, "%s%s", len ? ", " : "", t->name);
      len = w > 0 ? len + (size_t)w : len;
    }
  }
}

sk_status sk_stepper_check_options(const sk_stepper *s, const sk_options *opts)
{
  if (!s || !opts) {
    return SK_ERR_ARG;
  }
  sk_context *ctx = sk_stepper_get_context(s);
  const sk_stepper_type *t;
  for (size_t i = 0; (t = sk_stepper_type_list(ctx, i)) != NULL; i++) {
    size_t n;
    const sk_option_spec *table = own_keys(ctx, t, &n);
    for (size_t k = 0; k < n; k++) {
      const char *key = table[k].key;
      if (!sk_options_is_key(opts, key) || !sk_options_is_set(opts, key) ||
          owns(ctx, s->type, key)) {
        continue;
      }
      char where[320], names[512];
      sk_options_where(opts, key, where, sizeof where);
      owners(ctx, key, names, sizeof names);
      return SK_ERROR(ctx, SK_ERR_INPUT,
                      "%s: a key of the stepper types %s only, solver.method = %s does not "
                      "take it (remove it, or choose one of those methods)",
                      where, names, s->type->name);
    }
  }
  return SK_OK;
}

sk_status sk_stepper_check_names(sk_context *ctx, const sk_options *opts)
{
  SK_CHECK(ctx, opts != NULL, SK_ERR_ARG, "sk_stepper_check_names: NULL options");
  if (!sk__stepper_keys_registered(opts)) {
    return SK_OK;
  }
  const sk_stepper_type *type;
  SK_CALL(ctx, sk_stepper_type_from_options(ctx, opts, &type));
  if (sk__linsol_keys_registered(opts)) {
    sk__linsol_settings ls;
    SK_CALL(ctx, sk__linsol_settings_read(opts, &ls, NULL));
    SK_CALL(ctx, sk__options_refused_at(ctx, opts, sk__linsol_key(SK__LINSOL_KEY_type),
                                        sk__linsol_check_name(ctx, ls.type)));
    SK_CALL(ctx, sk__options_refused_at(ctx, opts, sk__linsol_key(SK__LINSOL_KEY_preconditioner),
                                        sk__prec_check_name(ctx, ls.preconditioner)));
  }
  return SK_OK;
}

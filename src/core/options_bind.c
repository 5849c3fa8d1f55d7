/* src/core/options_bind.c: reading the keys of a bound table into its settings struct */
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/options_bind.h"

/* one key into its field, by type */
static sk_status read_one(const sk_options *opts, const sk_option_spec *sp, char *field)
{
  switch (sp->type) {
  case SK_OPT_REAL:
    return sk_options_get_real(opts, sp->key, (double *)(void *)field);
  case SK_OPT_INT:
    return sk_options_get_int(opts, sp->key, (int64_t *)(void *)field);
  case SK_OPT_BOOL:
    return sk_options_get_bool(opts, sp->key, (int *)(void *)field);
  case SK_OPT_REAL_LIST: {
    sk__real_list *l = (sk__real_list *)(void *)field;
    return sk_options_get_real_list(opts, sp->key, &l->v, &l->n);
  }
  case SK_OPT_INT_LIST: {
    sk__int_list *l = (sk__int_list *)(void *)field;
    return sk_options_get_int_list(opts, sp->key, &l->v, &l->n);
  }
  default: /* the string, choice and path types */
    return sk_options_get_string(opts, sp->key, (const char **)(void *)field);
  }
}

sk_status sk__options_read_bound(const sk_options *opts, const sk_option_spec *spec,
                                 const size_t *offset, size_t n, void *settings, uint64_t *given)
{
  SK_CHECK(sk_options_get_context(opts), n <= 64, SK_ERR_ARG,
           "sk__options_read_bound: %zu keys, at most 64", n);
  uint64_t bits = 0;
  for (size_t i = 0; i < n; i++) {
    const sk_status rc = read_one(opts, &spec[i], (char *)settings + offset[i]);
    if (rc != SK_OK) {
      return rc;
    }
    if (sk_options_is_set(opts, spec[i].key)) {
      bits |= UINT64_C(1) << i;
    }
  }
  if (given) {
    *given = bits;
  }
  return SK_OK;
}

sk_status sk__options_resolve_bound(const sk_options *opts, const sk_option_spec *spec,
                                    const size_t *offset, size_t n, void *settings)
{
  for (size_t i = 0; i < n; i++) {
    const char **field = (const char **)(void *)((char *)settings + offset[i]);
    if (spec[i].type == SK_OPT_PATH && *field && (*field)[0]) {
      const sk_status rc = sk_options_get_input_file(opts, spec[i].key, field);
      if (rc != SK_OK) {
        return rc;
      }
    }
  }
  return SK_OK;
}

int sk__choice_index(const char *choices, const char *value)
{
  const size_t len = strlen(value);
  int k = 0;
  for (const char *c = choices; c; k++) {
    const char *bar = strchr(c, '|');
    const size_t clen = bar ? (size_t)(bar - c) : strlen(c);
    if (clen == len && !strncmp(c, value, len)) {
      return k;
    }
    c = bar ? bar + 1 : NULL;
  }
  return -1;
}

const char *sk__bound_key(const sk_option_spec *spec, size_t n, int k)
{
  return k >= 0 && (size_t)k < n ? spec[k].key : "";
}

sk_status sk__options_refused_at(sk_context *ctx, const sk_options *opts, const char *key,
                                 sk_status rc)
{
  if (rc != SK_ERR_ARG) {
    return rc;
  }
  char where[320], why[SK_ERROR_MSG_LEN];
  sk_options_where(opts, key, where, sizeof where);
  snprintf(why, sizeof why, "%s", sk_context_get_error(ctx)->message);
  return SK_ERROR(ctx, SK_ERR_INPUT, "%s: %s", where, why);
}

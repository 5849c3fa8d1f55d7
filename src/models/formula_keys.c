/* src/models/formula_keys.c: the formula.* option keys, the names a formula model declares (variables, parameters, inputs) and the keys registered for them */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/options_impl.h"
#include "models/formula_keys.h"

#define SK__BIND_STRUCT sk__formula_keys
SK__BIND_DEFINE(sk__formula, SK__FORMULA_KEYS, sk__formula_keys, SK__FORMULA_KEY_COUNT)
#undef SK__BIND_STRUCT

const char *const sk__formula_sections[] = {"formula.parameters", "formula.rhs",
                                            "formula.residual",   "formula.mass",
                                            "formula.jacobian",   "formula.inputs",
                                            "formula.tables",     "formula.events",
                                            "formula.exact",      NULL};

int sk__fm_is_identifier(const char *s, size_t n)
{
  if (n == 0 || n >= SK__FM_NAME || !(isalpha((unsigned char)s[0]))) {
    return 0;
  }
  for (size_t i = 1; i < n; i++) {
    if (!(isalnum((unsigned char)s[i]) || s[i] == '_')) {
      return 0;
    }
  }
  return 1;
}

int sk__fm_find(const sk__fm_desc *D, int kind, const char *name)
{
  const int n = kind == SK__FM_VAR ? D->n : kind == SK__FM_PARAM ? D->np : D->nin;
  for (int i = 0; i < n; i++) {
    const char *have = kind == SK__FM_VAR     ? D->var[i]
                       : kind == SK__FM_PARAM ? D->param[i]
                                              : D->input[i];
    if (!strcmp(have, name)) {
      return i;
    }
  }
  return -1;
}

/* Add `name` to the list of `kind`, refusing reserved names and names taken. */
static sk_status add_name(sk_context *ctx, sk__fm_desc *D, int kind, const char *name,
                          const char *where)
{
  SK_CHECK(ctx, strcmp(name, "t") && strcmp(name, "pi"), SK_ERR_INPUT,
           "%s: '%s' is reserved (t is the time, pi the constant)", where, name);
  static const char *const kinds[] = {"a variable", "a parameter", "an input"};
  for (int k = 0; k < 3; k++) {
    SK_CHECK(ctx, sk__fm_find(D, k, name) < 0, SK_ERR_INPUT, "%s: '%s' is already %s", where,
             name, kinds[k]);
  }
  int *count = kind == SK__FM_VAR ? &D->n : kind == SK__FM_PARAM ? &D->np : &D->nin;
  const int cap = kind == SK__FM_VAR ? SK__FM_MAX_VARS : SK__FM_MAX_NAMES;
  SK_CHECK(ctx, *count < cap, SK_ERR_INPUT, "%s: more than %d %ss", where, cap,
           kind == SK__FM_VAR     ? "variable"
           : kind == SK__FM_PARAM ? "parameter"
                                  : "input");
  char(*list)[SK__FM_NAME] = kind == SK__FM_VAR     ? D->var
                             : kind == SK__FM_PARAM ? D->param
                                                    : D->input;
  snprintf(list[(*count)++], SK__FM_NAME, "%s", name);
  return SK_OK;
}

/* One item of formula.variables: a name, or a vector "c[1..3]". */
static sk_status add_variable_item(sk_context *ctx, sk__fm_desc *D, const char *p, size_t n,
                                   const char *where)
{
  const char *br = memchr(p, '[', n);
  if (!br) {
    SK_CHECK(ctx, sk__fm_is_identifier(p, n), SK_ERR_INPUT,
             "%s: '%.*s' is not a variable name (letters, digits and _, starting with a letter, "
             "at most %d characters)",
             where, (int)n, p, SK__FM_NAME - 1);
    char name[SK__FM_NAME];
    snprintf(name, sizeof name, "%.*s", (int)n, p);
    return add_name(ctx, D, SK__FM_VAR, name, where);
  }
  long lo = 0, hi = -1;
  char tail = 0;
  char item[128];
  snprintf(item, sizeof item, "%.*s", (int)(n < 127 ? n : 127), p);
  const size_t base = (size_t)(br - p);
  const int ok = sk__fm_is_identifier(p, base) && base < SK__FM_NAME - 8 &&
                 sscanf(item + base, "[%ld..%ld%c", &lo, &hi, &tail) == 3 && tail == ']' &&
                 item[strlen(item) - 1] == ']' && lo >= 0 && hi >= lo &&
                 hi - lo < SK__FM_MAX_VARS;
  SK_CHECK(ctx, ok, SK_ERR_INPUT,
           "%s: '%s' is not a vector of variables: write name[first..last], e.g. c[1..3] for "
           "c1, c2, c3",
           where, item);
  for (long i = lo; i <= hi; i++) {
    char name[SK__FM_NAME];
    snprintf(name, sizeof name, "%.*s%ld", (int)base, p, i);
    SK_CALL(ctx, add_name(ctx, D, SK__FM_VAR, name, where));
  }
  return SK_OK;
}

sk_status sk__fm_read_variables(sk_context *ctx, const sk_options *opts, sk__fm_desc *D)
{
  sk__formula_keys k;
  SK_CALL(ctx, sk__formula_settings_read(opts, &k, NULL));
  const char *text = k.variables;
  char where[256];
  sk_options_where(opts, sk__formula_key(SK__FORMULA_KEY_variables), where, sizeof where);
  for (const char *p = text; *p;) {
    p += strspn(p, " ,\t");
    const size_t n = strcspn(p, " ,\t");
    if (n == 0) {
      break;
    }
    SK_CALL(ctx, add_variable_item(ctx, D, p, n, where));
    p += n;
  }
  SK_CHECK(ctx, D->n > 0, SK_ERR_INPUT,
           "%s: no variables: name the state, e.g. formula.variables: \"x, v\"", where);
  return SK_OK;
}

/* The part of `key` after `prefix` ("formula.rhs."), NULL when it does not start so. */
static const char *after(const char *key, const char *prefix)
{
  const size_t n = strlen(prefix);
  return strncmp(key, prefix, n) == 0 ? key + n : NULL;
}

/* A key of the description: its type, and the names it declares. */
static sk_status classify(sk_context *ctx, const sk_options *opts, sk__fm_desc *D,
                          const char *key, sk_opt_type *type, const char **choices,
                          const char **help, int *known)
{
  const char *rest;
  char where[256];
  *known = 1;
  *choices = NULL;
  *type = SK_OPT_STRING;
  if ((rest = after(key, "formula.parameters.")) != NULL && !strchr(rest, '.')) {
    sk_options_where(opts, key, where, sizeof where);
    SK_CHECK(ctx, sk__fm_is_identifier(rest, strlen(rest)), SK_ERR_INPUT,
             "%s: '%s' is not a parameter name", where, rest);
    SK_CALL(ctx, add_name(ctx, D, SK__FM_PARAM, rest, where));
    *type = SK_OPT_REAL;
    *help = "a parameter of the formulas";
  } else if ((rest = after(key, "formula.inputs.")) != NULL && !strchr(rest, '.')) {
    sk_options_where(opts, key, where, sizeof where);
    SK_CHECK(ctx, sk__fm_is_identifier(rest, strlen(rest)), SK_ERR_INPUT,
             "%s: '%s' is not an input name", where, rest);
    SK_CALL(ctx, add_name(ctx, D, SK__FM_INPUT, rest, where));
    *help = "an input g(t): a formula in t";
  } else if ((rest = after(key, "formula.tables.")) != NULL && !strchr(rest, '.')) {
    sk_options_where(opts, key, where, sizeof where);
    SK_CHECK(ctx, sk__fm_is_identifier(rest, strlen(rest)), SK_ERR_INPUT,
             "%s: '%s' is not an input name", where, rest);
    SK_CALL(ctx, add_name(ctx, D, SK__FM_INPUT, rest, where));
    *type = SK_OPT_PATH;
    *help = "an input g(t) from a CSV file of rows t, g (linear between rows)";
  } else if ((rest = after(key, "formula.rhs.")) != NULL && !strchr(rest, '.')) {
    *help = "y' of this variable (a formula in t, the variables, parameters and inputs)";
  } else if ((rest = after(key, "formula.exact.")) != NULL && !strchr(rest, '.')) {
    *help = "the exact solution of this variable, a formula in t and the parameters";
  } else if ((rest = after(key, "formula.residual.")) != NULL && !strchr(rest, '.')) {
    sk_options_where(opts, key, where, sizeof where);
    SK_CHECK(ctx, sk__fm_is_identifier(rest, strlen(rest)), SK_ERR_INPUT,
             "%s: '%s' is not an equation label (letters, digits and _)", where, rest);
    SK_CHECK(ctx, D->nres < SK__FM_MAX_VARS, SK_ERR_INPUT, "%s: more than %d residuals", where,
             SK__FM_MAX_VARS);
    snprintf(D->res[D->nres++], SK__FM_NAME, "%s", rest);
    *help = "a residual F(t, y, y') = 0 (the derivative of v is dv)";
  } else if (((rest = after(key, "formula.mass.")) != NULL ||
              (rest = after(key, "formula.jacobian.")) != NULL) &&
             strchr(rest, '.') && !strchr(strchr(rest, '.') + 1, '.')) {
    *help = key[8] == 'm' ? "mass matrix entry (row: the equation of a variable, column: a "
                            "variable), a formula of the parameters"
                          : "df_row/dy_col, a formula like the right-hand sides";
  } else if ((rest = after(key, "formula.events.")) != NULL && strchr(rest, '.') &&
             !strchr(strchr(rest, '.') + 1, '.')) {
    const char *field = strchr(rest, '.') + 1;
    const size_t ln = (size_t)(field - 1 - rest);
    sk_options_where(opts, key, where, sizeof where);
    SK_CHECK(ctx, sk__fm_is_identifier(rest, ln), SK_ERR_INPUT,
             "%s: '%.*s' is not an event label (letters, digits and _)", where, (int)ln, rest);
    int k = 0;
    while (k < D->nev && (strlen(D->ev[k]) != ln || strncmp(D->ev[k], rest, ln))) {
      k++;
    }
    if (k == D->nev) {
      SK_CHECK(ctx, D->nev < SK__FM_MAX_EVENTS, SK_ERR_INPUT, "%s: more than %d events", where,
               SK__FM_MAX_EVENTS);
      snprintf(D->ev[D->nev++], SK__FM_NAME, "%.*s", (int)ln, rest);
    }
    if (!strcmp(field, "when")) {
      *help = "the event's root function: the event is where it crosses 0";
    } else if (!strcmp(field, "direction")) {
      *type = SK_OPT_CHOICE;
      *choices = "both|rising|falling";
      *help = "the crossings that act: rising (- to +), falling, or both";
    } else if (!strcmp(field, "action")) {
      *help = "stop, or assignments \"v = -e*v; n = n + 1\" of variables and parameters "
              "(new values from the values before the event), optionally ending in \"; stop\"";
    } else {
      *known = 0;
    }
  } else {
    *known = 0;
  }
  return SK_OK;
}

sk_status sk__fm_register_keys(sk_context *ctx, sk_options *opts, sk__fm_desc *D)
{
  /* keys an earlier build on this database registered: their names, in their order */
  for (size_t i = 0, n = 0; sk__options_key_at(opts, i) != NULL; i++) {
    const char *key = sk__options_key_at(opts, i);
    for (n = 0; sk__formula_sections[n] &&
                strncmp(key, sk__formula_sections[n], strlen(sk__formula_sections[n]));
         n++) {
    }
    if (sk__formula_sections[n]) {
      sk_opt_type type;
      const char *choices, *help;
      int known;
      SK_CALL(ctx, classify(ctx, opts, D, key, &type, &choices, &help, &known));
    }
  }
  size_t np = 0;
  while (sk_options_pending_key(opts, np)) {
    np++;
  }
  if (np == 0) {
    return SK_OK;
  }
  const size_t cap = np;
  const size_t bytes = cap * (sizeof(sk_option_spec) + SK__FM_KEY);
  sk_option_spec *spec = sk__calloc(ctx, 1, bytes); /* the specs, then the names they point to */
  SK_CHECK(ctx, spec != NULL, SK_ERR_NOMEM, "cannot allocate the formula model's keys");
  char(*names)[SK__FM_KEY] = (char(*)[SK__FM_KEY])((char *)spec + cap * sizeof *spec);
  size_t n = 0;
  sk_status st = SK_OK;
  for (size_t i = 0; i < np && st == SK_OK; i++) {
    const char *key = sk_options_pending_key(opts, i);
    int dup = sk_options_is_key(opts, key) || strlen(key) >= SK__FM_KEY;
    for (size_t k = 0; k < n && !dup; k++) {
      dup = !strcmp(names[k], key);
    }
    if (dup) { /* a key set twice (config, then --set) is pending twice */
      continue;
    }
    sk_opt_type type;
    const char *choices, *help;
    int known;
    st = classify(ctx, opts, D, key, &type, &choices, &help, &known);
    if (st == SK_OK && known) {
      snprintf(names[n], SK__FM_KEY, "%s", key);
      spec[n] = (sk_option_spec){names[n], type, type == SK_OPT_CHOICE ? "both" : "", 0, 0,
                                 choices,  help};
      n++;
    }
  }
  if (st != SK_OK || n == 0) {
    sk__free(ctx, spec);
    return st;
  }
  return sk__options_register_owned(opts, spec, n, spec);
}

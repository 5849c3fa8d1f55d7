/* src/core/options.c: the options database: typed keys, parsing, layered sets, help, echo */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/options_impl.h"

/* ---- small text helpers ------------------------------------------------- */

static int is_space(char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static char lower(char c)
{
  return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/* Case-insensitive compare of s[0..n) with the NUL-terminated word w. */
static int eq_nocase(const char *s, size_t n, const char *w)
{
  size_t wn = strlen(w);
  if (wn != n) {
    return 0;
  }
  for (size_t i = 0; i < n; i++) {
    if (lower(s[i]) != lower(w[i])) {
      return 0;
    }
  }
  return 1;
}

/* Trim s into [*b, *b + *n). */
static void trim(const char *s, const char **b, size_t *n)
{
  const char *e = s + strlen(s);
  while (s < e && is_space(*s)) {
    s++;
  }
  while (e > s && is_space(e[-1])) {
    e--;
  }
  *b = s;
  *n = (size_t)(e - s);
}

static char *dup_str(sk_context *ctx, const char *s, size_t n)
{
  char *d = sk__malloc(ctx, n + 1);
  if (d) {
    memcpy(d, s, n);
    d[n] = '\0';
  }
  return d;
}

/* Shortest "%.*g" text that reads back to exactly v. */
static void fmt_real(double v, char *buf, size_t len)
{
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(buf, len, "%.*g", prec, v);
    if (strtod(buf, NULL) == v) {
      return;
    }
  }
}

/* ---- type descriptions -------------------------------------------------- */

static int spec_is_list(const sk_option_spec *sp)
{
  return sp->type == SK_OPT_REAL_LIST || sp->type == SK_OPT_INT_LIST;
}

static int spec_is_int(const sk_option_spec *sp)
{
  return sp->type == SK_OPT_INT || sp->type == SK_OPT_INT_LIST;
}

static int spec_has_range(const sk_option_spec *sp)
{
  return !(sp->min == 0.0 && sp->max == 0.0);
}

static void fmt_bound(double v, int as_int, strbuf *b)
{
  if (v <= -DBL_MAX) {
    sb_add(b, "-inf");
  } else if (v >= DBL_MAX) {
    sb_add(b, "inf");
  } else if (as_int) {
    sb_printf(b, "%.0f", v);
  } else {
    sb_printf(b, "%g", v);
  }
}

static void add_range(const sk_option_spec *sp, strbuf *b)
{
  if (!spec_has_range(sp)) {
    return;
  }
  sb_add(b, " in [");
  fmt_bound(sp->min, spec_is_int(sp), b);
  sb_add(b, ", ");
  fmt_bound(sp->max, spec_is_int(sp), b);
  sb_add(b, "]");
}

/* What a key accepts: long form for errors ("a real number in [0, 1]"),
 * short form for help ("real in [0, 1]"). */
static void describe(const sk_option_spec *sp, int for_help, strbuf *b)
{
  switch (sp->type) {
  case SK_OPT_REAL:
    sb_add(b, for_help ? "real" : "a real number");
    add_range(sp, b);
    break;
  case SK_OPT_INT:
    sb_add(b, for_help ? "integer" : "an integer");
    add_range(sp, b);
    break;
  case SK_OPT_BOOL:
    sb_add(b, for_help ? "bool" : "a boolean (true/false, yes/no, on/off, 1/0)");
    break;
  case SK_OPT_STRING:
    sb_add(b, for_help ? "string" : "a string");
    break;
  case SK_OPT_CHOICE:
    sb_add(b, "one of ");
    sb_add(b, sp->choices ? sp->choices : "");
    break;
  case SK_OPT_REAL_LIST:
    sb_add(b, for_help ? "list of reals" : "a list of real numbers");
    add_range(sp, b);
    break;
  case SK_OPT_INT_LIST:
    sb_add(b, for_help ? "list of integers" : "a list of integers");
    add_range(sp, b);
    break;
  case SK_OPT_PATH:
    sb_add(b, for_help ? "path" : "a file path");
    break;
  case SK_OPT_PATH_LIST:
    sb_add(b, for_help ? "paths" : "file paths separated by commas");
    break;
  }
}

/* The element form of a list type, for per-item messages. */
static sk_option_spec item_spec(const sk_option_spec *sp)
{
  sk_option_spec it = *sp;
  it.type = sp->type == SK_OPT_INT_LIST ? SK_OPT_INT : SK_OPT_REAL;
  return it;
}

/* ---- value parsing ------------------------------------------------------ */

static void value_free(sk_context *ctx, opt_value *v)
{
  sk__options_free_paths(ctx, v);
  sk__free(ctx, v->text);
  sk__free(ctx, v->reals);
  sk__free(ctx, v->ints);
  memset(v, 0, sizeof *v);
}

/* Parse a finite real from s[0..n) (already trimmed). *erange on over/underflow. */
static int parse_real(const char *s, size_t n, double *v, int *erange)
{
  *erange = 0;
  if (n == 0) {
    return 0;
  }
  const char *p = s;
  if (*p == '+' || *p == '-') {
    p++;
  }
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
    return 0;
  }
  char *end = NULL;
  errno = 0;
  double d = strtod(s, &end);
  if (end == s || (size_t)(end - s) != n) {
    return 0;
  }
  if (errno == ERANGE) {
    *erange = 1;
    return 0;
  }
  if (!isfinite(d)) {
    return 0;
  }
  *v = d;
  return 1;
}

/* Parse a decimal int64 from s[0..n) (already trimmed). */
static int parse_int(const char *s, size_t n, int64_t *v, int *erange)
{
  *erange = 0;
  if (n == 0) {
    return 0;
  }
  const char *p = s;
  if (*p == '+' || *p == '-') {
    p++;
  }
  if (*p < '0' || *p > '9') {
    return 0;
  }
  char *end = NULL;
  errno = 0;
  long long x = strtoll(s, &end, 10);
  if ((size_t)(end - s) != n) {
    return 0;
  }
  if (errno == ERANGE) {
    *erange = 1;
    return 0;
  }
  *v = (int64_t)x;
  return 1;
}

static int in_range(const sk_option_spec *sp, double x)
{
  return !spec_has_range(sp) || (x >= sp->min && x <= sp->max);
}

/* Parse one real or int item (type from sp) into *real / *integer. On failure
 * writes "expected ..., got '...'" to why. */
static int parse_number(const sk_option_spec *sp, const char *raw, double *real, int64_t *integer,
                        strbuf *why)
{
  const char *s;
  size_t n;
  int erange = 0;
  int ok;
  trim(raw, &s, &n);
  if (sp->type == SK_OPT_INT) {
    ok = parse_int(s, n, integer, &erange) && in_range(sp, (double)*integer);
  } else {
    ok = parse_real(s, n, real, &erange) && in_range(sp, *real);
  }
  if (!ok) {
    char shown[OPT_MSG_VALUE_MAX + 1];
    size_t sn = n < OPT_MSG_VALUE_MAX ? n : OPT_MSG_VALUE_MAX;
    memcpy(shown, s, sn);
    shown[sn] = '\0';
    sb_add(why, "expected ");
    describe(sp, 0, why);
    sb_add(why, ", got ");
    sb_add_value(why, n > OPT_MSG_VALUE_MAX ? raw : shown);
    if (erange) {
      sb_add(why, " (out of range)");
    }
  }
  return ok;
}

/* Parse `raw` for a scalar-typed key into *out. Returns SK_OK, SK_ERR_INPUT
 * (why filled) or SK_ERR_NOMEM. */
static sk_status parse_scalar(sk_context *ctx, const sk_option_spec *sp, const char *raw,
                              opt_value *out, strbuf *why)
{
  static const char *const truthy[] = {"true", "yes", "on", "1"};
  static const char *const falsy[] = {"false", "no", "off", "0"};
  const char *s;
  size_t n;
  memset(out, 0, sizeof *out);
  switch (sp->type) {
  case SK_OPT_REAL:
    if (!parse_number(sp, raw, &out->real, &out->integer, why)) {
      return SK_ERR_INPUT;
    }
    break;
  case SK_OPT_INT:
    if (!parse_number(sp, raw, &out->real, &out->integer, why)) {
      return SK_ERR_INPUT;
    }
    break;
  case SK_OPT_BOOL:
    trim(raw, &s, &n);
    for (size_t i = 0; i < 4; i++) {
      if (eq_nocase(s, n, truthy[i])) {
        out->boolean = 1;
        out->has_value = 1;
        return SK_OK;
      }
      if (eq_nocase(s, n, falsy[i])) {
        out->boolean = 0;
        out->has_value = 1;
        return SK_OK;
      }
    }
    sb_add(why, "expected ");
    describe(sp, 0, why);
    sb_add(why, ", got ");
    sb_add_value(why, raw);
    return SK_ERR_INPUT;
  case SK_OPT_STRING:
    out->text = dup_str(ctx, raw, strlen(raw));
    if (!out->text) {
      sb_add(why, "out of memory");
      return SK_ERR_NOMEM;
    }
    break;
  case SK_OPT_CHOICE: {
    trim(raw, &s, &n);
    const char *c = sp->choices ? sp->choices : "";
    while (1) {
      const char *bar = strchr(c, '|');
      size_t cn = bar ? (size_t)(bar - c) : strlen(c);
      if (cn == n && n > 0) {
        size_t i = 0;
        while (i < n && lower(s[i]) == lower(c[i])) {
          i++;
        }
        if (i == n) {
          out->text = dup_str(ctx, c, cn);
          if (!out->text) {
            sb_add(why, "out of memory");
            return SK_ERR_NOMEM;
          }
          out->has_value = 1;
          return SK_OK;
        }
      }
      if (!bar) {
        break;
      }
      c = bar + 1;
    }
    sb_add(why, "expected ");
    describe(sp, 0, why);
    sb_add(why, ", got ");
    sb_add_value(why, raw);
    return SK_ERR_INPUT;
  }
  case SK_OPT_REAL_LIST:
  case SK_OPT_INT_LIST:
  case SK_OPT_PATH:
  case SK_OPT_PATH_LIST:
    sb_add(why, "internal: list or path key parsed as a scalar");
    return SK_ERR_INTERNAL;
  }
  out->has_value = 1;
  return SK_OK;
}

/* Parse n list items for a list-typed key into *out. */
static sk_status parse_items(sk_context *ctx, const sk_option_spec *sp, const char *const *items,
                             size_t n, opt_value *out, strbuf *why)
{
  sk_option_spec it = item_spec(sp);
  memset(out, 0, sizeof *out);
  out->has_value = 1;
  if (n == 0) {
    return SK_OK;
  }
  if (sp->type == SK_OPT_REAL_LIST) {
    out->reals = sk__malloc(ctx, n * sizeof *out->reals);
  } else {
    out->ints = sk__malloc(ctx, n * sizeof *out->ints);
  }
  if (!out->reals && !out->ints) {
    sb_add(why, "out of memory");
    return SK_ERR_NOMEM;
  }
  for (size_t i = 0; i < n; i++) {
    double r = 0.0;
    int64_t k = 0;
    char item_why[512];
    strbuf iw;
    sb_init(&iw, item_why, sizeof item_why);
    if (!items[i] || !parse_number(&it, items[i], &r, &k, &iw)) {
      if (!items[i]) {
        sb_add(&iw, "missing item");
      }
      sb_printf(why, "item %zu of %zu: %s", i + 1, n, item_why);
      value_free(ctx, out);
      return SK_ERR_INPUT;
    }
    if (out->reals) {
      out->reals[i] = r;
    } else {
      out->ints[i] = k;
    }
  }
  out->count = n;
  return SK_OK;
}

/* Parse list text: "", "[]", "1,2,3" or "[1, 2, 3]". */
static sk_status parse_list_text(sk_context *ctx, const sk_option_spec *sp, const char *raw,
                                 opt_value *out, strbuf *why)
{
  const char *s;
  size_t n;
  trim(raw, &s, &n);
  memset(out, 0, sizeof *out);
  if (n > 0 && (s[0] == '[' || s[n - 1] == ']')) {
    if (n < 2 || s[0] != '[' || s[n - 1] != ']') {
      sb_add(why, "expected ");
      describe(sp, 0, why);
      sb_add(why, " (\"1,2,3\" or \"[1, 2, 3]\"), got ");
      sb_add_value(why, raw);
      return SK_ERR_INPUT;
    }
    s++;
    n -= 2;
    while (n > 0 && is_space(*s)) {
      s++;
      n--;
    }
    while (n > 0 && is_space(s[n - 1])) {
      n--;
    }
  }
  if (n == 0) {
    out->has_value = 1;
    return SK_OK;
  }
  size_t count = 1;
  for (size_t i = 0; i < n; i++) {
    count += s[i] == ',';
  }
  char *copy = dup_str(ctx, s, n);
  const char **items = sk__malloc(ctx, count * sizeof *items);
  if (!copy || !items) {
    sk__free(ctx, copy);
    sk__free(ctx, (void *)items);
    sb_add(why, "out of memory");
    return SK_ERR_NOMEM;
  }
  size_t k = 0;
  char *p = copy;
  items[k++] = p;
  for (; *p; p++) {
    if (*p == ',') {
      *p = '\0';
      items[k++] = p + 1;
    }
  }
  sk_status st = parse_items(ctx, sp, items, count, out, why);
  sk__free(ctx, (void *)items);
  sk__free(ctx, copy);
  return st;
}

/* ---- lookup ------------------------------------------------------------- */

/* The value of a path key from n texts set from `origin` (see sk__options_parse_paths):
 * the items of a YAML list (from_list), or one text, cut at commas for SK_OPT_PATH_LIST. */
static sk_status parse_path_value(sk_context *ctx, const sk_option_spec *sp,
                                  const char *const *items, size_t n, int from_list,
                                  const sk_option_origin *origin, opt_value *out, strbuf *why)
{
  char msg[SK_ERROR_MSG_LEN];
  const int split = !from_list && sp->type == SK_OPT_PATH_LIST;
  const sk_status st = sk__options_parse_paths(ctx, items, n, split, origin ? origin->file : NULL,
                                               out, msg, sizeof msg);
  if (st != SK_OK) {
    sb_add(why, msg);
  }
  return st;
}

/* Install a parsed value and its origin in e (takes ownership of nv). */
static sk_status commit(sk_options *opts, opt_entry *e, opt_value *nv,
                        const sk_option_origin *origin)
{
  char *file = NULL;
  if (origin && origin->file) {
    file = dup_str(opts->ctx, origin->file, strlen(origin->file));
    if (!file) {
      value_free(opts->ctx, nv);
      return SK_ERROR(opts->ctx, SK_ERR_NOMEM, "out of memory setting '%s'", e->spec->key);
    }
  }
  value_free(opts->ctx, &e->val);
  e->val = *nv;
  sk__free(opts->ctx, e->origin_file);
  e->origin_file = file;
  e->line = origin && origin->file ? origin->line : 0;
  e->column = origin && origin->file ? origin->column : 0;
  e->is_set = 1;
  return SK_OK;
}

static sk_status value_error(const sk_options *opts, sk_status st, const char *key,
                             const char *why, const sk_option_origin *origin)
{
  char msg[SK_ERROR_MSG_LEN];
  strbuf b;
  sb_init(&b, msg, sizeof msg);
  sk__options_origin_prefix(origin, &b);
  sb_printf(&b, "%s: %s", key, why);
  return SK_ERROR(opts->ctx, st, "%s", msg);
}

/* ---- lifecycle ---------------------------------------------------------- */

sk_status sk_options_create(sk_context *ctx, sk_options **opts)
{
  if (!opts) {
    return SK_ERROR(ctx, SK_ERR_ARG, "sk_options_create: opts must not be NULL");
  }
  *opts = NULL;
  SK_CHECK(ctx, ctx != NULL, SK_ERR_ARG, "sk_options_create: ctx must not be NULL");
  sk_options *o = sk__calloc(ctx, 1, sizeof *o);
  SK_CHECK(ctx, o != NULL, SK_ERR_NOMEM, "sk_options_create: out of memory");
  o->ctx = ctx;
  *opts = o;
  return SK_OK;
}

void sk_options_destroy(sk_options **opts)
{
  if (!opts || !*opts) {
    return;
  }
  sk_options *o = *opts;
  for (size_t i = 0; i < o->n; i++) {
    value_free(o->ctx, &o->entries[i].val);
    sk__free(o->ctx, o->entries[i].origin_file);
  }
  sk__free(o->ctx, o->entries);
  for (size_t i = 0; i < o->nowned; i++) {
    sk__free(o->ctx, o->owned[i]);
  }
  sk__free(o->ctx, o->owned);
  sk__options_index_free(o);
  sk__options_free_pending(o);
  sk__free(o->ctx, o);
  *opts = NULL;
}

sk_context *sk_options_get_context(const sk_options *opts)
{
  return opts ? opts->ctx : NULL;
}

static int valid_choices(const char *c)
{
  if (!c || !*c) {
    return 0;
  }
  size_t len = 0;
  for (const char *p = c;; p++) {
    if (*p == '|' || *p == '\0') {
      if (len == 0) {
        return 0;
      }
      if (*p == '\0') {
        return 1;
      }
      len = 0;
    } else {
      len++;
    }
  }
}

/* Validate spec sp and parse its default into *v. */
static sk_status register_one(sk_options *opts, const sk_option_spec *sp, opt_value *v)
{
  sk_context *ctx = opts->ctx;
  memset(v, 0, sizeof *v);
  SK_CHECK(ctx, sk__options_valid_key(sp->key), SK_ERR_ARG, "option table: invalid key '%s'",
           sp->key ? sp->key : "(null)");
  SK_CHECK(ctx, sp->type >= SK_OPT_REAL && sp->type <= SK_OPT_PATH_LIST, SK_ERR_ARG,
           "option table: key '%s': invalid type %d", sp->key, (int)sp->type);
  SK_CHECK(ctx, sp->type != SK_OPT_CHOICE || valid_choices(sp->choices), SK_ERR_ARG,
           "option table: key '%s': choices must be \"a|b|c\" with no empty name", sp->key);
  SK_CHECK(ctx, !(sp->min > sp->max) && !isnan(sp->min) && !isnan(sp->max), SK_ERR_ARG,
           "option table: key '%s': min > max", sp->key);
  const char *def = sp->def ? sp->def : "";
  char why[768];
  strbuf w;
  sb_init(&w, why, sizeof why);
  sk_status st = SK_OK;
  if (spec_is_list(sp)) {
    st = parse_list_text(ctx, sp, def, v, &w);
  } else if (sk__options_spec_is_path(sp)) {
    st = parse_path_value(ctx, sp, &def, 1, 0, NULL, v, &w);
  } else if (sp->type == SK_OPT_STRING || def[0] != '\0') {
    st = parse_scalar(ctx, sp, def, v, &w);
  }
  if (st != SK_OK) {
    return SK_ERROR(ctx, st == SK_ERR_NOMEM ? SK_ERR_NOMEM : SK_ERR_ARG,
                    "option table: key '%s': default '%s' is invalid: %s", sp->key, def, why);
  }
  return SK_OK;
}

/* Set the pending values whose keys are registered now; keep the others. */
static sk_status apply_pending(sk_options *opts)
{
  size_t kept = 0;
  sk_status st = SK_OK;
  for (size_t i = 0; i < opts->npending; i++) {
    opt_pending *p = &opts->pending[i];
    if (st == SK_OK && sk_options_is_key(opts, p->key)) {
      const sk_option_origin o = sk__options_pending_origin(p);
      st = p->value
               ? sk_options_set(opts, p->key, p->value, &o)
               : sk_options_set_list(opts, p->key, (const char *const *)p->items, p->nitems, &o);
      sk__options_pending_free(opts->ctx, p);
    } else {
      opts->pending[kept++] = *p;
    }
  }
  opts->npending = kept;
  return st;
}

sk_status sk_options_register(sk_options *opts, const sk_option_spec *table, size_t n)
{
  if (!opts) {
    return SK_ERR_ARG;
  }
  sk_context *ctx = opts->ctx;
  SK_CHECK(ctx, table || n == 0, SK_ERR_ARG, "sk_options_register: NULL table");
  if (n == 0) {
    return SK_OK;
  }
  SK_CHECK(ctx, n <= SIZE_MAX / sizeof(opt_entry) - opts->n, SK_ERR_TOO_LARGE,
           "sk_options_register: too many keys");
  if (opts->n + n > opts->cap) {
    size_t cap = opts->cap ? opts->cap : 16;
    while (cap < opts->n + n) {
      cap = cap > SIZE_MAX / 2 / sizeof(opt_entry) ? opts->n + n : cap * 2;
    }
    /* not zeroed: an entry is cleared when its key is registered, and only those are read */
    opt_entry *grown = sk__malloc(ctx, cap * sizeof *grown);
    SK_CHECK(ctx, grown != NULL, SK_ERR_NOMEM, "sk_options_register: out of memory");
    if (opts->n > 0) {
      memcpy(grown, opts->entries, opts->n * sizeof *grown);
    }
    sk__free(ctx, opts->entries);
    opts->entries = grown;
    opts->cap = cap;
  }
  SK_CALL(ctx, sk__options_index_reserve(opts, opts->n + n));
  /* each key is indexed once valid, so a duplicate within the table is found as one with the
   * keys registered before; a failure drops the table's keys from the index again */
  for (size_t i = 0; i < n; i++) {
    const sk_option_spec *sp = &table[i];
    opt_entry *e = &opts->entries[opts->n + i];
    memset(e, 0, sizeof *e);
    sk_status st = register_one(opts, sp, &e->val);
    if (st == SK_OK && sk__options_find(opts, sp->key)) {
      st = SK_ERROR(ctx, SK_ERR_ARG, "option table: duplicate key '%s'", sp->key);
    }
    if (st != SK_OK) {
      value_free(ctx, &e->val);
      for (size_t j = 0; j < i; j++) {
        value_free(ctx, &opts->entries[opts->n + j].val);
        opts->entries[opts->n + j].spec = NULL;
      }
      sk__options_index_rebuild(opts);
      return st;
    }
    e->spec = sp;
    sk__options_index_add(opts, opts->n + i);
  }
  opts->n += n;
  return apply_pending(opts);
}

/* ---- setting ------------------------------------------------------------ */

sk_status sk_options_set(sk_options *opts, const char *key, const char *value,
                         const sk_option_origin *origin)
{
  if (!opts) {
    return SK_ERR_ARG;
  }
  SK_CHECK(opts->ctx, key && value, SK_ERR_ARG, "sk_options_set: NULL key or value");
  char canon[SK__OPTIONS_KEY_MAX];
  key = sk_options_current_key(key, canon, sizeof canon);
  if (!sk__options_find(opts, key) && sk__options_in_deferred(opts, key)) {
    return sk__options_pend(opts, key, value, NULL, 0, origin);
  }
  opt_entry *e;
  SK_CALL(opts->ctx, sk__options_lookup_for_set(opts, key, value, origin, &e));
  opt_value nv;
  char why[768];
  strbuf w;
  sb_init(&w, why, sizeof why);
  sk_status st;
  if (spec_is_list(e->spec)) {
    st = parse_list_text(opts->ctx, e->spec, value, &nv, &w);
  } else if (sk__options_spec_is_path(e->spec)) {
    st = parse_path_value(opts->ctx, e->spec, &value, 1, 0, origin, &nv, &w);
  } else {
    st = parse_scalar(opts->ctx, e->spec, value, &nv, &w);
  }
  if (st != SK_OK) {
    return value_error(opts, st, key, why, origin);
  }
  return commit(opts, e, &nv, origin);
}

sk_status sk_options_set_list(sk_options *opts, const char *key, const char *const *items,
                              size_t n, const sk_option_origin *origin)
{
  if (!opts) {
    return SK_ERR_ARG;
  }
  SK_CHECK(opts->ctx, key && (items || n == 0), SK_ERR_ARG,
           "sk_options_set_list: NULL key or items");
  char canon[SK__OPTIONS_KEY_MAX];
  key = sk_options_current_key(key, canon, sizeof canon);
  if (!sk__options_find(opts, key) && sk__options_in_deferred(opts, key)) {
    return sk__options_pend(opts, key, NULL, items, n, origin);
  }
  opt_entry *e;
  SK_CALL(opts->ctx, sk__options_lookup_for_set(opts, key, NULL, origin, &e));
  char why[768];
  strbuf w;
  sb_init(&w, why, sizeof why);
  opt_value nv;
  sk_status st;
  if (e->spec->type == SK_OPT_PATH_LIST) {
    st = parse_path_value(opts->ctx, e->spec, items, n, 1, origin, &nv, &w);
  } else if (!spec_is_list(e->spec)) {
    sb_add(&w, "expected ");
    describe(e->spec, 0, &w);
    sb_add(&w, ", got a list");
    return value_error(opts, SK_ERR_INPUT, key, why, origin);
  } else {
    st = parse_items(opts->ctx, e->spec, items, n, &nv, &w);
  }
  if (st != SK_OK) {
    return value_error(opts, st, key, why, origin);
  }
  return commit(opts, e, &nv, origin);
}

sk_status sk_options_set_assignment(sk_options *opts, const char *assignment)
{
  if (!opts) {
    return SK_ERR_ARG;
  }
  sk_context *ctx = opts->ctx;
  SK_CHECK(ctx, assignment != NULL, SK_ERR_ARG, "sk_options_set_assignment: NULL assignment");
  const char *eq = strchr(assignment, '=');
  const char *k = assignment;
  size_t kn = eq ? (size_t)(eq - assignment) : 0;
  while (kn > 0 && is_space(*k)) {
    k++;
    kn--;
  }
  while (kn > 0 && is_space(k[kn - 1])) {
    kn--;
  }
  if (!eq || kn == 0) {
    char msg[SK_ERROR_MSG_LEN];
    strbuf b;
    sb_init(&b, msg, sizeof msg);
    sb_add(&b, "--set: expected key=value, got ");
    sb_add_value(&b, assignment);
    return SK_ERROR(ctx, SK_ERR_INPUT, "%s", msg);
  }
  char *key = dup_str(ctx, k, kn);
  SK_CHECK(ctx, key != NULL, SK_ERR_NOMEM, "sk_options_set_assignment: out of memory");
  sk_option_origin origin = {NULL, 0, 0, 1};
  sk_status st = sk_options_set(opts, key, eq + 1, &origin);
  sk__free(ctx, key);
  if (st < 0) {
    sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
  }
  return st;
}

/* ---- getting ------------------------------------------------------------ */

static const char *type_noun(sk_opt_type t)
{
  switch (t) {
  case SK_OPT_REAL:
    return "a real number";
  case SK_OPT_INT:
    return "an integer";
  case SK_OPT_BOOL:
    return "a boolean";
  case SK_OPT_STRING:
    return "a string";
  case SK_OPT_CHOICE:
    return "a choice";
  case SK_OPT_REAL_LIST:
    return "a list of real numbers";
  case SK_OPT_INT_LIST:
    return "a list of integers";
  case SK_OPT_PATH:
    return "a file path";
  case SK_OPT_PATH_LIST:
    return "a list of file paths";
  }
  return "an unknown type";
}

static sk_status get_entry(const sk_options *opts, const char *key, sk_opt_type t1,
                           sk_opt_type t2, const char *fn, const opt_entry **e)
{
  if (!opts) {
    return SK_ERR_ARG;
  }
  SK_CHECK(opts->ctx, key != NULL, SK_ERR_ARG, "%s: NULL key", fn);
  *e = sk__options_find(opts, key);
  SK_CHECK(opts->ctx, *e != NULL, SK_ERR_UNKNOWN_KEY, "%s: unknown key '%s' (not registered)", fn,
           key);
  sk_opt_type t = (*e)->spec->type;
  SK_CHECK(opts->ctx, t == t1 || t == t2, SK_ERR_ARG, "%s: key '%s' holds %s, not %s", fn, key,
           type_noun(t), type_noun(t1));
  return SK_OK;
}

sk_status sk_options_get_real(const sk_options *opts, const char *key, double *v)
{
  const opt_entry *e = NULL;
  SK_CALL(opts ? opts->ctx : NULL,
          get_entry(opts, key, SK_OPT_REAL, SK_OPT_REAL, "sk_options_get_real", &e));
  SK_CHECK(opts->ctx, v != NULL, SK_ERR_ARG, "sk_options_get_real: NULL output");
  if (e->val.has_value) {
    *v = e->val.real;
  }
  return SK_OK;
}

sk_status sk_options_get_int(const sk_options *opts, const char *key, int64_t *v)
{
  const opt_entry *e = NULL;
  SK_CALL(opts ? opts->ctx : NULL,
          get_entry(opts, key, SK_OPT_INT, SK_OPT_INT, "sk_options_get_int", &e));
  SK_CHECK(opts->ctx, v != NULL, SK_ERR_ARG, "sk_options_get_int: NULL output");
  if (e->val.has_value) {
    *v = e->val.integer;
  }
  return SK_OK;
}

sk_status sk_options_get_bool(const sk_options *opts, const char *key, int *v)
{
  const opt_entry *e = NULL;
  SK_CALL(opts ? opts->ctx : NULL,
          get_entry(opts, key, SK_OPT_BOOL, SK_OPT_BOOL, "sk_options_get_bool", &e));
  SK_CHECK(opts->ctx, v != NULL, SK_ERR_ARG, "sk_options_get_bool: NULL output");
  if (e->val.has_value) {
    *v = e->val.boolean;
  }
  return SK_OK;
}

sk_status sk_options_get_string(const sk_options *opts, const char *key, const char **v)
{
  const opt_entry *e = NULL;
  const opt_entry *pe = opts && key ? sk__options_find(opts, key) : NULL;
  const int path = pe && sk__options_spec_is_path(pe->spec);
  SK_CALL(opts ? opts->ctx : NULL, get_entry(opts, key, path ? pe->spec->type : SK_OPT_STRING,
                                             SK_OPT_CHOICE, "sk_options_get_string", &e));
  SK_CHECK(opts->ctx, v != NULL, SK_ERR_ARG, "sk_options_get_string: NULL output");
  *v = e->val.text ? e->val.text : "";
  return SK_OK;
}

sk_status sk_options_get_real_list(const sk_options *opts, const char *key, const double **v,
                                   size_t *n)
{
  const opt_entry *e = NULL;
  SK_CALL(opts ? opts->ctx : NULL, get_entry(opts, key, SK_OPT_REAL_LIST, SK_OPT_REAL_LIST,
                                             "sk_options_get_real_list", &e));
  SK_CHECK(opts->ctx, v && n, SK_ERR_ARG, "sk_options_get_real_list: NULL output");
  *v = e->val.reals;
  *n = e->val.count;
  return SK_OK;
}

sk_status sk_options_get_int_list(const sk_options *opts, const char *key, const int64_t **v,
                                  size_t *n)
{
  const opt_entry *e = NULL;
  SK_CALL(opts ? opts->ctx : NULL,
          get_entry(opts, key, SK_OPT_INT_LIST, SK_OPT_INT_LIST, "sk_options_get_int_list", &e));
  SK_CHECK(opts->ctx, v && n, SK_ERR_ARG, "sk_options_get_int_list: NULL output");
  *v = e->val.ints;
  *n = e->val.count;
  return SK_OK;
}

sk_status sk_options_get_origin(const sk_options *opts, const char *key, sk_option_origin *origin)
{
  if (!opts || !key || !origin) {
    return SK_ERR_ARG;
  }
  const opt_entry *e = sk__options_find(opts, key);
  if (!e) {
    return sk__options_unknown_key_error(opts, key, NULL);
  }
  origin->file = e->origin_file;
  origin->line = e->line;
  origin->column = e->column;
  origin->from_command_line = e->is_set && !e->origin_file;
  return SK_OK;
}

void sk_options_where(const sk_options *opts, const char *key, char *buf, size_t len)
{
  sk_option_origin o = {0};
  if (sk_options_get_origin(opts, key, &o) == SK_OK && o.file) {
    snprintf(buf, len, "%s:%d:%d: %s", o.file, o.line, o.column, key);
  } else {
    snprintf(buf, len, "%s%s", o.from_command_line ? "--set " : "", key);
  }
}

int sk_options_is_set(const sk_options *opts, const char *key)
{
  const opt_entry *e = opts && key ? sk__options_find(opts, key) : NULL;
  return e ? e->is_set : 0;
}

int sk_options_is_deferred(const sk_options *opts, const char *key)
{
  char buf[SK__OPTIONS_KEY_MAX];
  key = sk_options_current_key(key, buf, sizeof buf);
  return opts && key && !sk__options_find(opts, key) && sk__options_in_deferred(opts, key);
}

/* ---- help and echo ------------------------------------------------------ */

/* Output to a FILE or to a growing heap string. */
typedef struct {
  FILE *out;
  sk_context *ctx;
  char *buf;
  size_t len, cap;
  int failed;
} sink;

static void sink_write(sink *s, const char *p, size_t n)
{
  if (s->failed || n == 0) {
    return;
  }
  if (s->out) {
    fwrite(p, 1, n, s->out);
    return;
  }
  if (s->len + n + 1 > s->cap) {
    size_t cap = s->cap ? s->cap : 256;
    while (cap < s->len + n + 1) {
      cap *= 2;
    }
    char *grown = sk__malloc(s->ctx, cap);
    if (!grown) {
      s->failed = 1;
      return;
    }
    if (s->len > 0) {
      memcpy(grown, s->buf, s->len);
    }
    sk__free(s->ctx, s->buf);
    s->buf = grown;
    s->cap = cap;
  }
  memcpy(s->buf + s->len, p, n);
  s->len += n;
  s->buf[s->len] = '\0';
}

static void sink_puts(sink *s, const char *p)
{
  sink_write(s, p, strlen(p));
}

/* YAML 1.1 words a plain scalar must not be (other tools would read a
 * boolean or null). */
static int is_yaml_word(const char *v)
{
  static const char *const words[] = {"y",     "n",  "yes", "no",  "true",
                                      "false", "on", "off", "null"};
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
    if (eq_nocase(v, strlen(v), words[i])) {
      return 1;
    }
  }
  return 0;
}

/* Write a string as a YAML scalar: plain when safe, else double-quoted. */
static void sink_yaml_string(sink *s, const char *v)
{
  int plain = v[0] != '\0' && !is_yaml_word(v);
  char c0 = v[0];
  if (!((c0 >= 'a' && c0 <= 'z') || (c0 >= 'A' && c0 <= 'Z') || c0 == '_' || c0 == '/')) {
    plain = 0;
  }
  for (const char *p = v; plain && *p; p++) {
    char c = *p;
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
          c == '_' || c == '.' || c == '/' || c == '-' || c == '+')) {
      plain = 0;
    }
  }
  if (plain) {
    sink_puts(s, v);
    return;
  }
  sink_puts(s, "\"");
  for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
    char esc[8];
    switch (*p) {
    case '"':
      sink_puts(s, "\\\"");
      break;
    case '\\':
      sink_puts(s, "\\\\");
      break;
    case '\n':
      sink_puts(s, "\\n");
      break;
    case '\t':
      sink_puts(s, "\\t");
      break;
    case '\r':
      sink_puts(s, "\\r");
      break;
    default:
      if (*p < 0x20 || *p == 0x7f) {
        snprintf(esc, sizeof esc, "\\x%02x", (unsigned)*p);
        sink_puts(s, esc);
      } else {
        sink_write(s, (const char *)p, 1);
      }
    }
  }
  sink_puts(s, "\"");
}

/* The effective value of e as YAML text. Returns 0 when it has no value. */
static int sink_value(sink *s, const opt_entry *e)
{
  char num[40];
  const opt_value *v = &e->val;
  switch (e->spec->type) {
  case SK_OPT_REAL:
    if (!v->has_value) {
      return 0;
    }
    fmt_real(v->real, num, sizeof num);
    sink_puts(s, num);
    break;
  case SK_OPT_INT:
    if (!v->has_value) {
      return 0;
    }
    snprintf(num, sizeof num, "%lld", (long long)v->integer);
    sink_puts(s, num);
    break;
  case SK_OPT_BOOL:
    if (!v->has_value) {
      return 0;
    }
    sink_puts(s, v->boolean ? "true" : "false");
    break;
  case SK_OPT_CHOICE:
    if (!v->has_value) {
      return 0;
    }
    sink_yaml_string(s, v->text ? v->text : "");
    break;
  case SK_OPT_STRING:
  case SK_OPT_PATH:
  case SK_OPT_PATH_LIST:
    sink_yaml_string(s, v->text ? v->text : "");
    break;
  case SK_OPT_REAL_LIST:
  case SK_OPT_INT_LIST:
    sink_puts(s, "[");
    for (size_t i = 0; i < v->count; i++) {
      if (i > 0) {
        sink_puts(s, ", ");
      }
      if (v->reals) {
        fmt_real(v->reals[i], num, sizeof num);
      } else {
        snprintf(num, sizeof num, "%lld", (long long)v->ints[i]);
      }
      sink_puts(s, num);
    }
    sink_puts(s, "]");
    break;
  }
  return 1;
}

/* 1 when e has a value to echo (strings and lists always do). */
static int entry_has_value(const opt_entry *e)
{
  return e->spec->type == SK_OPT_STRING || sk__options_spec_is_path(e->spec) ||
         spec_is_list(e->spec) || e->val.has_value;
}

static void write_effective(const sk_options *opts, sink *s)
{
  for (size_t i = 0; i < opts->n; i++) {
    const opt_entry *e = &opts->entries[i];
    if (!entry_has_value(e)) {
      sink_puts(s, "# ");
      sink_puts(s, e->spec->key);
      sink_puts(s, ": (not set)\n");
      continue;
    }
    sink_puts(s, e->spec->key);
    sink_puts(s, ": ");
    sink_value(s, e);
    sink_puts(s, "\n");
  }
}

void sk_options_print_help(const sk_options *opts, FILE *out)
{
  if (!opts || !out) {
    return;
  }
  sink s = {out, opts->ctx, NULL, 0, 0, 0};
  for (size_t i = 0; i < opts->n; i++) {
    const opt_entry *e = &opts->entries[i];
    const sk_option_spec *sp = e->spec;
    char line[1024];
    strbuf b;
    sb_init(&b, line, sizeof line);
    sb_add(&b, sp->key);
    sb_add(&b, "  (");
    describe(sp, 1, &b);
    const char *def = sp->def ? sp->def : "";
    if (def[0]) {
      sb_add(&b, ", default ");
      sb_add(&b, def);
    } else if (sp->type == SK_OPT_STRING || sk__options_spec_is_path(sp)) {
      sb_add(&b, ", default \"\"");
    } else if (spec_is_list(sp)) {
      sb_add(&b, ", default []");
    } else {
      sb_add(&b, ", no default");
    }
    sb_add(&b, ")  ");
    sb_add(&b, sp->help ? sp->help : "");
    sink_puts(&s, line);
    sink_puts(&s, "\n");
    if (e->is_set) {
      sink_puts(&s, "    current: ");
      sink_value(&s, e);
      sb_init(&b, line, sizeof line);
      if (e->origin_file) {
        sb_printf(&b, " (%s:%d:%d)\n", e->origin_file, e->line, e->column);
      } else {
        sb_add(&b, " (--set)\n");
      }
      sink_puts(&s, line);
    }
  }
  for (size_t i = 0; i < opts->n; i++) {
    if (sk__options_spec_is_path(opts->entries[i].spec)) {
      sink_puts(&s, "\npaths: a relative path written in a file (a config, a sweep file, a "
                    "sweep's CSV) is relative\nto the directory of that file; one given with "
                    "--set is relative to the working directory;\nabsolute paths are unchanged. "
                    "The echo of the options holds the resolved absolute paths.\n");
      break;
    }
  }
}

void sk_options_write_effective(const sk_options *opts, FILE *out)
{
  if (!opts || !out) {
    return;
  }
  sink s = {out, opts->ctx, NULL, 0, 0, 0};
  write_effective(opts, &s);
}

char *sk_options_effective_string(const sk_options *opts)
{
  if (!opts) {
    return NULL;
  }
  sink s = {NULL, opts->ctx, NULL, 0, 0, 0};
  write_effective(opts, &s);
  if (s.failed) {
    sk__free(opts->ctx, s.buf);
    return NULL;
  }
  if (!s.buf) {
    s.buf = sk__malloc(opts->ctx, 1);
    if (s.buf) {
      s.buf[0] = '\0';
    }
  }
  return s.buf;
}

sk_status sk__options_register_owned(sk_options *opts, const sk_option_spec *table, size_t n,
                                     void *block)
{
  sk_context *ctx = opts->ctx;
  void **grown = sk__malloc(ctx, (opts->nowned + 1) * sizeof *grown);
  if (!grown) {
    sk__free(ctx, block);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "cannot keep a key table");
  }
  if (opts->nowned) {
    memcpy(grown, opts->owned, opts->nowned * sizeof *grown);
  }
  const sk_status st = sk_options_register(opts, table, n);
  if (st != SK_OK) {
    sk__free(ctx, grown);
    sk__free(ctx, block);
    return st;
  }
  sk__free(ctx, opts->owned);
  opts->owned = grown;
  opts->owned[opts->nowned++] = block;
  return SK_OK;
}

const char *sk__options_key_at(const sk_options *opts, size_t i)
{
  return opts && i < opts->n ? opts->entries[i].spec->key : NULL;
}

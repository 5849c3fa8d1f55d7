/* src/io/netlist_value.c: netlist values: numbers, parameter names and {expressions} evaluated in a parameter scope */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "io/netlist_impl.h"

/* Lower-case copy of s into buf (truncated to len). */
static void lower(const char *s, char *buf, size_t len)
{
  size_t i = 0;
  for (; s[i] && i + 1 < len; i++) {
    buf[i] = (char)tolower((unsigned char)s[i]);
  }
  buf[i] = '\0';
}

sk_status sk__net_scope_set(sk__nparser *p, sk__nscope *s, const char *name, double v)
{
  char key[256];
  lower(name, key, sizeof key);
  for (int64_t i = 0; i < s->n; i++) {
    if (strcmp(s->names[i], key) == 0) {
      s->values[i] = v;
      return SK_OK;
    }
  }
  int64_t cap = s->cap;
  SK_CALL(p->ctx, sk__net_grow(p, (void **)&s->names, s->n, &cap, sizeof *s->names));
  SK_CALL(p->ctx, sk__net_grow(p, (void **)&s->values, s->n, &s->cap, sizeof *s->values));
  s->names[s->n] = sk__net_strdup(p->ctx, key);
  SK_CHECK(p->ctx, s->names[s->n] != NULL, SK_ERR_NOMEM, "netlist: out of memory");
  s->values[s->n++] = v;
  return SK_OK;
}

void sk__net_scope_free(sk__nparser *p, sk__nscope *s)
{
  for (int64_t i = 0; i < s->n; i++) {
    sk__free(p->ctx, s->names[i]);
  }
  sk__free(p->ctx, s->names);
  sk__free(p->ctx, s->values);
  s->names = NULL;
  s->values = NULL;
  s->n = s->cap = 0;
}

/* The parameter `name` in the frame, then the top-level frame: 1 and *v, or 0. */
static int lookup(const sk__nscope *s, const char *name, double *v)
{
  char key[256];
  lower(name, key, sizeof key);
  for (const sk__nscope *f = s; f; f = f == s ? s->global : NULL) {
    for (int64_t i = 0; i < f->n; i++) {
      if (strcmp(f->names[i], key) == 0) {
        *v = f->values[i];
        return 1;
      }
    }
  }
  return 0;
}

/* ---- {expression}: recursive descent over the text between the braces -- */

typedef struct {
  sk__nparser *p;
  const sk__nscope *scope;
  const sk__ntok *tok;
  const char *s; /* the token text, '{' at s[0] */
  size_t i;
  int depth; /* nested unary levels: parentheses, signs, powers, call arguments */
} expr_state;

/* The deepest nesting an expression may have: each level is a few stack
 * frames, so that a hostile value (300 000 parentheses) ends in a located
 * error instead of a stack overflow. */
#define SK__NET_EXPR_MAX_DEPTH 256

static sk_status expr_sum(expr_state *e, double *v);
static sk_status expr_unary_body(expr_state *e, double *v);

/* An error at the current character of the expression (quoted in full up
 * to 80 characters). */
static sk_status expr_error(expr_state *e, const char *what)
{
  sk__ntok at = *e->tok;
  at.col += (int32_t)e->i;
  const size_t len = strlen(e->s);
  return sk__net_error(e->p, &at, "in expression '%.*s%s': %s", (int)(len > 80 ? 80 : len), e->s,
                       len > 80 ? "..." : "", what);
}

static void skip_blank(expr_state *e)
{
  while (e->s[e->i] == ' ' || e->s[e->i] == '\t') {
    e->i++;
  }
}

/* A number with its suffix letters. */
static sk_status expr_number(expr_state *e, double *v)
{
  size_t j = e->i;
  while (isalnum((unsigned char)e->s[j]) || e->s[j] == '.' ||
         ((e->s[j] == '+' || e->s[j] == '-') && j > e->i &&
          (e->s[j - 1] == 'e' || e->s[j - 1] == 'E') && isdigit((unsigned char)e->s[j + 1]))) {
    j++;
  }
  char num[128];
  snprintf(num, sizeof num, "%.*s", (int)(j - e->i), e->s + e->i);
  if (!sk__net_number(num, v)) {
    char what[512];
    snprintf(
        what, sizeof what,
        "malformed number '%s' (expected digits with an optional suffix f p n u m k meg g t)",
        num);
    return expr_error(e, what);
  }
  e->i = j;
  return SK_OK;
}

/* A function call name(args) with its arguments already known to follow. */
static sk_status expr_call(expr_state *e, const char *name, double *v)
{
  double a[2] = {0, 0};
  int na = 0;
  e->i++; /* '(' */
  for (;;) {
    if (na == 2) {
      return expr_error(e, "too many arguments (at most 2)");
    }
    SK_CALL(e->p->ctx, expr_sum(e, &a[na++]));
    skip_blank(e);
    if (e->s[e->i] == ',') {
      e->i++;
      continue;
    }
    if (e->s[e->i] != ')') {
      return expr_error(e, "expected ',' or ')'");
    }
    e->i++;
    break;
  }
  static const struct {
    const char *name;
    int nargs;
  } fns[] = {{"sqrt", 1}, {"exp", 1}, {"log", 1}, {"abs", 1}, {"sin", 1},
             {"cos", 1},  {"min", 2}, {"max", 2}, {"pow", 2}};
  for (size_t k = 0; k < sizeof fns / sizeof fns[0]; k++) {
    if (sk__net_ieq(name, fns[k].name)) {
      if (na != fns[k].nargs) {
        return expr_error(e, "wrong number of arguments");
      }
      const double x = a[0], y = a[1];
      const double r[] = {sqrt(x), exp(x),     log(x),     fabs(x),  sin(x),
                          cos(x),  fmin(x, y), fmax(x, y), pow(x, y)};
      *v = r[k];
      return SK_OK;
    }
  }
  char what[512];
  snprintf(what, sizeof what,
           "unknown function '%s' (expected sqrt exp log abs sin cos min max pow)", name);
  return expr_error(e, what);
}

/* primary: number | name | name(args) | (sum) */
static sk_status expr_primary(expr_state *e, double *v)
{
  skip_blank(e);
  const char c = e->s[e->i];
  if (c == '(') {
    e->i++;
    SK_CALL(e->p->ctx, expr_sum(e, v));
    skip_blank(e);
    if (e->s[e->i] != ')') {
      return expr_error(e, "expected ')'");
    }
    e->i++;
    return SK_OK;
  }
  if (isdigit((unsigned char)c) || c == '.') {
    return expr_number(e, v);
  }
  if (isalpha((unsigned char)c) || c == '_') {
    const size_t start = e->i;
    while (isalnum((unsigned char)e->s[e->i]) || e->s[e->i] == '_') {
      e->i++;
    }
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)(e->i - start), e->s + start);
    skip_blank(e);
    if (e->s[e->i] == '(') {
      return expr_call(e, name, v);
    }
    if (lookup(e->scope, name, v)) {
      return SK_OK;
    }
    if (sk__net_ieq(name, "pi")) {
      *v = 3.14159265358979323846;
      return SK_OK;
    }
    e->i = start;
    char what[512];
    snprintf(what, sizeof what,
             "undefined parameter '%s' (define it with .param %s=VALUE on an "
             "earlier line)",
             name, name);
    return expr_error(e, what);
  }
  return expr_error(e, c == '}' ? "expected a value before '}'"
                                : "expected a number, a "
                                  "parameter, a function or '('");
}

/* unary: [+-] unary | primary [^ unary] */
static sk_status expr_unary(expr_state *e, double *v)
{
  if (e->depth >= SK__NET_EXPR_MAX_DEPTH) {
    char what[128];
    snprintf(what, sizeof what, "nested deeper than %d levels (parentheses, signs, powers)",
             SK__NET_EXPR_MAX_DEPTH);
    return expr_error(e, what);
  }
  e->depth++;
  const sk_status st = expr_unary_body(e, v);
  e->depth--;
  return st;
}

static sk_status expr_unary_body(expr_state *e, double *v)
{
  skip_blank(e);
  const char c = e->s[e->i];
  if (c == '-' || c == '+') {
    e->i++;
    SK_CALL(e->p->ctx, expr_unary(e, v));
    *v = c == '-' ? -*v : *v;
    return SK_OK;
  }
  SK_CALL(e->p->ctx, expr_primary(e, v));
  skip_blank(e);
  if (e->s[e->i] == '^') {
    e->i++;
    double x;
    SK_CALL(e->p->ctx, expr_unary(e, &x));
    *v = pow(*v, x);
  }
  return SK_OK;
}

/* product: unary ([*\/] unary)* */
static sk_status expr_product(expr_state *e, double *v)
{
  SK_CALL(e->p->ctx, expr_unary(e, v));
  for (;;) {
    skip_blank(e);
    const char c = e->s[e->i];
    if (c != '*' && c != '/') {
      return SK_OK;
    }
    e->i++;
    double x;
    SK_CALL(e->p->ctx, expr_unary(e, &x));
    *v = c == '*' ? *v * x : *v / x;
  }
}

/* sum: product ([+-] product)* */
static sk_status expr_sum(expr_state *e, double *v)
{
  SK_CALL(e->p->ctx, expr_product(e, v));
  for (;;) {
    skip_blank(e);
    const char c = e->s[e->i];
    if (c != '+' && c != '-') {
      return SK_OK;
    }
    e->i++;
    double x;
    SK_CALL(e->p->ctx, expr_product(e, &x));
    *v = c == '+' ? *v + x : *v - x;
  }
}

sk_status sk__net_value(sk__nparser *p, const sk__nscope *scope, const sk__ntok *t, double *v)
{
  const char *s = t->text;
  if (s[0] == '{') {
    expr_state e = {p, scope, t, s, 1, 0};
    SK_CALL(p->ctx, expr_sum(&e, v));
    skip_blank(&e);
    if (s[e.i] != '}') {
      return expr_error(&e, "expected an operator or '}'");
    }
    if (!isfinite(*v)) {
      return sk__net_error(p, t, "expression '%s' is not finite (%g)", s, *v);
    }
    return SK_OK;
  }
  if (sk__net_number(s, v)) {
    return SK_OK;
  }
  if (isalpha((unsigned char)s[0]) || s[0] == '_') {
    int ident = 1;
    for (const char *q = s; *q; q++) {
      ident = ident && (isalnum((unsigned char)*q) || *q == '_');
    }
    if (ident && lookup(scope, s, v)) {
      return SK_OK;
    }
    if (ident) {
      return sk__net_error(p, t,
                           "undefined parameter '%s' (define it with .param %s=VALUE on an "
                           "earlier line)",
                           s, s);
    }
  }
  return sk__net_error(p, t,
                       "malformed number '%s': expected digits with an optional suffix (f p n u "
                       "m k meg g t), a parameter name or a {expression}",
                       s);
}

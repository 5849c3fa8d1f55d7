/* src/io/time_function.c: scalar amplitudes g(t): muparser formulas in t and piecewise-linear CSV tables */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/formula_expr.h"
#include "core/stop.h"
#include "core/input_file.h"
#include "io/time_function.h"

struct sk__time_function {
  sk_context *ctx;
  /* formula */
  sk__formula parser;
  double t; /* the variable t the parser reads */
  /* table */
  int64_t n, cap;
  double *tt, *gg;
  int64_t hint; /* interval of the last lookup */
};

/* An empty time function. Errors: SK_ERR_NOMEM. */
static sk_status create(sk_context *ctx, sk__time_function **tf)
{
  *tf = sk__calloc(ctx, 1, sizeof **tf);
  SK_CHECK(ctx, *tf != NULL, SK_ERR_NOMEM, "cannot allocate a time function");
  (*tf)->ctx = ctx;
  return SK_OK;
}

void sk__time_function_destroy(sk__time_function **ptf)
{
  if (!ptf || !*ptf) {
    return;
  }
  sk__time_function *tf = *ptf;
  sk__formula_free(tf->parser);
  sk__free(tf->ctx, tf->tt);
  sk__free(tf->ctx, tf->gg);
  sk__free(tf->ctx, tf);
  *ptf = NULL;
}

/* ---- formulas ------------------------------------------------------------ */

/* Parse and evaluate once at t = 0 (the located message of core/formula_expr.c on failure). */
static sk_status parse_formula(sk__time_function *tf, const char *expr, const char *where)
{
  const sk__formula_var t = {"t", &tf->t};
  tf->t = 0.0;
  return sk__formula_compile(tf->ctx, expr, where, &t, 1, &tf->parser);
}

sk_status sk__time_function_formula(sk_context *ctx, const char *expr, const char *where,
                                    sk__time_function **tf)
{
  SK_CHECK(ctx, expr != NULL && where != NULL && tf != NULL, SK_ERR_ARG,
           "sk__time_function_formula: NULL argument");
  *tf = NULL;
  SK_CHECK(ctx, expr[strspn(expr, " \t\r\n")] != '\0', SK_ERR_INPUT,
           "%s: empty formula (give an expression in t, e.g. 1 - exp(-t))", where);
  /* muparser's C API copies its error message (which quotes the offending
   * token) into a static 2048-byte buffer with sprintf: keep every token short */
  SK_CHECK(ctx, strlen(expr) <= SK__FORMULA_MAX_LEN, SK_ERR_INPUT,
           "%s: formula longer than %d characters", where, SK__FORMULA_MAX_LEN);
  sk__time_function *f = NULL;
  SK_CALL(ctx, create(ctx, &f));
  const sk_status st = parse_formula(f, expr, where);
  if (st != SK_OK) {
    sk__time_function_destroy(&f);
    sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
    return st;
  }
  *tf = f;
  return SK_OK;
}

/* ---- tables -------------------------------------------------------------- */

/* A decimal field (spaces around it allowed): 0, or -1 when it is not a
 * finite decimal number. */
static int parse_field(char *s, double *v)
{
  s += strspn(s, " \t");
  size_t len = strlen(s);
  while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t')) {
    s[--len] = '\0';
  }
  char *end = NULL;
  *v = strtod(s, &end);
  return (len > 0 && end == s + len && !strpbrk(s, "xX") && isfinite(*v)) ? 0 : -1;
}

/* Append one row, growing the arrays by doubling. */
static sk_status push_row(sk__time_function *tf, double t, double g)
{
  if (tf->n == tf->cap) {
    const int64_t cap = tf->cap ? 2 * tf->cap : 64;
    const size_t used = (size_t)tf->n * sizeof(double), size = (size_t)cap * sizeof(double);
    double *tt = sk__realloc(tf->ctx, tf->tt, used, size);
    tf->tt = tt ? tt : tf->tt;
    double *gg = tt ? sk__realloc(tf->ctx, tf->gg, used, size) : NULL;
    tf->gg = gg ? gg : tf->gg;
    SK_CHECK(tf->ctx, tt && gg, SK_ERR_NOMEM, "cannot allocate a table of %lld rows",
             (long long)cap);
    tf->cap = cap;
  }
  tf->tt[tf->n] = t;
  tf->gg[tf->n] = g;
  tf->n++;
  return SK_OK;
}

/* One data line (line number `line`) of the table; a header is allowed
 * as the first row. `prev_line` is the line of the previous row. */
static sk_status parse_row(sk__time_function *tf, char *s, const char *path, int64_t line,
                           int64_t *prev_line)
{
  char *comma = strchr(s, ',');
  const int nfields = comma ? 2 + (strchr(comma + 1, ',') != NULL) : 1;
  SK_CHECK(tf->ctx, nfields == 2, SK_ERR_INPUT,
           "%s:%lld: expected 2 fields 't, g' separated by a comma, found %s", path,
           (long long)line, nfields == 1 ? "1" : "more than 2");
  *comma = '\0';
  double t = 0.0, g = 0.0;
  const int bad_t = parse_field(s, &t), bad_g = parse_field(comma + 1, &g);
  if (bad_t && bad_g && tf->n == 0 && *prev_line == 0) {
    *prev_line = -line; /* the header row */
    return SK_OK;
  }
  SK_CHECK(tf->ctx, !bad_t, SK_ERR_INPUT, "%s:%lld: field 1 (t) '%s' is not a finite number",
           path, (long long)line, s);
  SK_CHECK(tf->ctx, !bad_g, SK_ERR_INPUT, "%s:%lld: field 2 (g) '%s' is not a finite number",
           path, (long long)line, comma + 1);
  SK_CHECK(tf->ctx, tf->n == 0 || t > tf->tt[tf->n - 1], SK_ERR_INPUT,
           "%s:%lld: t = %.17g does not increase (line %lld has t = %.17g): t must increase "
           "strictly",
           path, (long long)line, t, (long long)*prev_line, tf->n ? tf->tt[tf->n - 1] : 0.0);
  SK_CALL(tf->ctx, push_row(tf, t, g));
  *prev_line = line;
  return SK_OK;
}

/* Read every row of f. */
static sk_status read_table(sk__time_function *tf, FILE *f, const char *path)
{
  char *buf = NULL;
  size_t cap = 0;
  int64_t line = 0, prev_line = 0;
  sk_status st = SK_OK;
  ssize_t len;
  errno = 0;
  while (st == SK_OK && (len = getline(&buf, &cap, f)) >= 0) {
    line++;
    while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r')) {
      buf[--len] = '\0';
    }
    char *s = buf + strspn(buf, " \t");
    if (*s != '\0' && *s != '#') {
      st = parse_row(tf, s, path, line, &prev_line);
    }
  }
  if (st == SK_OK && ferror(f)) {
    st = SK_ERROR(tf->ctx, SK_ERR_MISSING, "cannot read table '%s': %s", path,
                  strerror(errno ? errno : EIO));
  }
  free(buf); /* allocated by getline */
  SK_CALL(tf->ctx, st);
  SK_CHECK(tf->ctx, tf->n >= 2, SK_ERR_INPUT,
           "%s:%lld: %lld data row%s: a table needs at least 2 rows 't, g'", path,
           (long long)line, (long long)tf->n, tf->n == 1 ? "" : "s");
  return SK_OK;
}

sk_status sk__time_function_table(sk_context *ctx, const char *path, const char *where,
                                  sk__time_function **tf)
{
  SK_CHECK(ctx, path != NULL && where != NULL && tf != NULL, SK_ERR_ARG,
           "sk__time_function_table: NULL argument");
  *tf = NULL;
  FILE *f = NULL;
  SK_CALL_STOP(ctx, sk__input_open_at(ctx, path, "table", NULL, where, SIZE_MAX, &f));
  sk__time_function *t = NULL;
  sk_status st = create(ctx, &t);
  if (st == SK_OK) {
    st = read_table(t, f, path);
  }
  sk__input_close(f);
  if (st != SK_OK) {
    sk__time_function_destroy(&t);
    sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
    return st;
  }
  *tf = t;
  return SK_OK;
}

/* ---- evaluation ---------------------------------------------------------- */

/* Piecewise-linear interpolation, constant beyond the ends. */
static double table_eval(sk__time_function *tf, double t)
{
  const int64_t n = tf->n;
  if (!(t > tf->tt[0])) {
    return isnan(t) ? t : tf->gg[0];
  }
  if (t >= tf->tt[n - 1]) {
    return tf->gg[n - 1];
  }
  int64_t k = tf->hint;
  if (!(k < n - 1 && tf->tt[k] <= t && t < tf->tt[k + 1])) {
    int64_t lo = 0, hi = n - 1; /* tt[lo] <= t < tt[hi] */
    while (hi - lo > 1) {
      const int64_t mid = lo + (hi - lo) / 2;
      if (tf->tt[mid] <= t) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    k = lo;
    tf->hint = k;
  }
  const double w = (t - tf->tt[k]) / (tf->tt[k + 1] - tf->tt[k]);
  return tf->gg[k] + w * (tf->gg[k + 1] - tf->gg[k]);
}

double sk__time_function_eval(sk__time_function *tf, double t)
{
  if (tf->parser) {
    tf->t = t;
    return sk__formula_eval(tf->parser);
  }
  return table_eval(tf, t);
}

int64_t sk__time_function_rows(const sk__time_function *tf)
{
  return tf && !tf->parser ? tf->n : 0;
}

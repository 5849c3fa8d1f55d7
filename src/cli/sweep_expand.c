/* src/cli/sweep_expand.c: a sweep's cases: products and zips of lists and ranges, random and Latin-hypercube samples, CSV rows */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/csv_read.h"
#include "cli/sweep.h"
#include "core/error.h"

/* ---- the generator: splitmix64 seeding xoshiro256** ----------------------- */

uint64_t sweep_splitmix64(uint64_t *x)
{
  uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

void sweep_rng_seed(sweep_rng *r, uint64_t seed)
{
  for (int k = 0; k < 4; k++) {
    r->s[k] = sweep_splitmix64(&seed);
  }
}

static uint64_t rotl(uint64_t x, int k)
{
  return (x << k) | (x >> (64 - k));
}

uint64_t sweep_rng_next(sweep_rng *r)
{
  uint64_t *s = r->s;
  const uint64_t result = rotl(s[1] * 5, 7) * 9;
  const uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

double sweep_rng_uniform(sweep_rng *r)
{
  return (double)(sweep_rng_next(r) >> 11) * 0x1.0p-53;
}

/* ---- keys ----------------------------------------------------------------- */

sk_status sweep_set_value(sk_options *opts, const char *key, const char *text,
                          const sk_option_origin *key_origin,
                          const sk_option_origin *value_origin)
{
  const int known = sk_options_is_key(opts, key) || sk_options_is_deferred(opts, key);
  return sk_options_set(opts, key, text, known ? value_origin : key_origin);
}

/* A key whose values are integers (SK_OPT_INT or SK_OPT_INT_LIST): asked
 * through the typed getters, whose type-mismatch record is then dropped. */
static int key_is_int(sk_options *opts, const char *key)
{
  sk_context *ctx = sk_options_get_context(opts);
  const sk_error saved = *sk_context_get_error(ctx);
  int64_t v;
  const int64_t *list;
  size_t n;
  const int is_int = sk_options_get_int(opts, key, &v) == SK_OK ||
                     sk_options_get_int_list(opts, key, &list, &n) == SK_OK;
  sk__error_restore(ctx, &saved);
  return is_int;
}

/* SK_ERR_UNKNOWN_KEY (with the nearest key, at the key's origin) for a key
 * no table declares. */
static sk_status check_key(sk_context *ctx, sk_options *opts, const char *key,
                           const sk_option_origin *origin)
{
  if (!sk_options_is_key(opts, key) && !sk_options_is_deferred(opts, key)) {
    SK_CALL(ctx, sk_options_set(opts, key, "", origin));
  }
  return SK_OK;
}

/* ---- values --------------------------------------------------------------- */

static char *format_value(double v, int is_int)
{
  char buf[64];
  if (is_int && fabs(v) < 9.2e18) {
    snprintf(buf, sizeof buf, "%lld", (long long)llround(v));
  } else {
    snprintf(buf, sizeof buf, "%.15g", v);
  }
  return strdup(buf);
}

/* The point at fraction f in [0, 1] of a range (log: geometric). */
static double range_point(const sweep_param *p, double f)
{
  const double lo = strtod(p->lo.text, NULL), hi = strtod(p->hi.text, NULL);
  return p->log ? lo * pow(hi / lo, f) : lo + (hi - lo) * f;
}

/* Number of values of a parameter on a grid. */
static size_t grid_length(const sweep_param *p)
{
  return p->kind == SWEEP_RANGE ? (size_t)p->num : p->nitems;
}

/* The k-th grid value of p as a new text: a list item, or the k-th of num
 * points of a range (the endpoints as written). */
static char *grid_value(const sweep_param *p, size_t k, int is_int)
{
  if (p->kind == SWEEP_LIST) {
    return strdup(p->items[k].text);
  }
  if (k == 0 || p->num == 1) {
    return strdup(p->lo.text);
  }
  if (k + 1 == (size_t)p->num) {
    return strdup(p->hi.text);
  }
  return format_value(range_point(p, (double)k / (double)(p->num - 1)), is_int);
}

/* The value of p at the uniform number u in [0, 1): a range point, or the
 * list item floor(u m). */
static char *sample_value(const sweep_param *p, double u, int is_int)
{
  if (p->kind == SWEEP_LIST) {
    size_t k = (size_t)(u * (double)p->nitems);
    return strdup(p->items[k < p->nitems ? k : p->nitems - 1].text);
  }
  return format_value(range_point(p, u), is_int);
}

static sk_option_origin value_origin(const sweep_spec *s, const sweep_param *p, size_t k)
{
  const sweep_value *v = p->kind == SWEEP_LIST && k < p->nitems ? &p->items[k] : &p->lo;
  return (sk_option_origin){s->path, v->line, v->column, 0};
}

/* Rounded points of an integer range must not repeat (they would give
 * identical cases). */
static sk_status check_integer_range(sk_context *ctx, const sweep_spec *s, const sweep_param *p)
{
  char *prev = NULL;
  sk_status st = SK_OK;
  for (size_t k = 0; k < (size_t)p->num && st == SK_OK; k++) {
    char *cur = grid_value(p, k, 1);
    if (!cur) {
      st = SK_ERROR(ctx, SK_ERR_NOMEM, "out of memory");
    } else if (prev && strtod(prev, NULL) == strtod(cur, NULL)) {
      st = SK_ERROR(ctx, SK_ERR_INPUT,
                    "%s:%d:%d: parameter '%s' takes integers: its range of %lld points repeats "
                    "%s after rounding; use fewer points",
                    s->path, p->lo.line, p->lo.column, p->key, (long long)p->num, cur);
    }
    free(prev);
    prev = cur;
  }
  free(prev);
  return st;
}

/* ---- the cases ------------------------------------------------------------ */

static sk_status alloc_cases(sk_context *ctx, sweep_cases *c, size_t nkeys, size_t ncases)
{
  SK_CHECK(ctx, ncases <= SWEEP_MAX_CASES, SK_ERR_INPUT,
           "the sweep expands to %zu cases, more than %zu", ncases, SWEEP_MAX_CASES);
  c->nkeys = nkeys;
  c->ncases = ncases;
  c->keys = calloc(nkeys ? nkeys : 1, sizeof *c->keys);
  c->key_origins = calloc(nkeys ? nkeys : 1, sizeof *c->key_origins);
  const size_t cells = ncases * nkeys > 0 ? ncases * nkeys : 1;
  c->values = calloc(cells, sizeof *c->values);
  c->origins = calloc(cells, sizeof *c->origins);
  SK_CHECK(ctx, c->keys && c->key_origins && c->values && c->origins, SK_ERR_NOMEM,
           "out of memory for %zu cases", ncases);
  return SK_OK;
}

/* Product (last parameter fastest) or zip of the grid values. */
static sk_status expand_grid(sk_context *ctx, const sweep_spec *s, const int *is_int,
                             sweep_cases *c)
{
  size_t total = 1;
  for (size_t j = 0; j < s->nparams; j++) {
    const size_t len = grid_length(&s->params[j]);
    if (s->mode == SWEEP_ZIP) {
      total = len;
    } else {
      SK_CHECK(ctx, total <= SWEEP_MAX_CASES / (len ? len : 1), SK_ERR_INPUT,
               "the product of the parameters has more than %zu cases", SWEEP_MAX_CASES);
      total *= len;
    }
  }
  SK_CALL(ctx, alloc_cases(ctx, c, s->nparams, total));
  for (size_t i = 0; i < total; i++) {
    size_t rest = i;
    for (size_t j = s->nparams; j-- > 0;) {
      const sweep_param *p = &s->params[j];
      const size_t len = grid_length(p);
      const size_t k = s->mode == SWEEP_ZIP ? i : rest % len;
      rest /= s->mode == SWEEP_ZIP ? 1 : len;
      c->values[i * c->nkeys + j] = grid_value(p, k, is_int[j]);
      SK_CHECK(ctx, c->values[i * c->nkeys + j] != NULL, SK_ERR_NOMEM, "out of memory");
      c->origins[i * c->nkeys + j] = value_origin(s, p, k);
    }
  }
  return SK_OK;
}

/* Random: every value drawn uniformly, case by case, parameter by
 * parameter. Latin hypercube: for each parameter in turn, a random
 * permutation of the n strata (Fisher-Yates, drawing j in [0, k] as
 * floor(u (k + 1)) for k = n-1 down to 1), then case i takes
 * u = (perm[i] + v) / n with v uniform, drawn in case order. */
static sk_status expand_samples(sk_context *ctx, const sweep_spec *s, const int *is_int,
                                sweep_cases *c)
{
  const size_t n = (size_t)s->nsamples, m = s->nparams;
  SK_CALL(ctx, alloc_cases(ctx, c, m, n));
  double *u = malloc(n * m * sizeof *u);
  size_t *perm = malloc(n * sizeof *perm);
  if (!u || !perm) {
    free(u);
    free(perm);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "out of memory for %zu samples", n);
  }
  sweep_rng rng;
  sweep_rng_seed(&rng, s->seed);
  if (s->mode == SWEEP_RANDOM) {
    for (size_t i = 0; i < n * m; i++) {
      u[i] = sweep_rng_uniform(&rng);
    }
  } else {
    for (size_t j = 0; j < m; j++) {
      for (size_t i = 0; i < n; i++) {
        perm[i] = i;
      }
      for (size_t k = n - 1; k > 0; k--) {
        size_t r = (size_t)(sweep_rng_uniform(&rng) * (double)(k + 1));
        r = r > k ? k : r;
        const size_t t = perm[k];
        perm[k] = perm[r];
        perm[r] = t;
      }
      for (size_t i = 0; i < n; i++) {
        u[i * m + j] = ((double)perm[i] + sweep_rng_uniform(&rng)) / (double)n;
      }
    }
  }
  sk_status st = SK_OK;
  for (size_t i = 0; i < n && st == SK_OK; i++) {
    for (size_t j = 0; j < m && st == SK_OK; j++) {
      c->values[i * m + j] = sample_value(&s->params[j], u[i * m + j], is_int[j]);
      c->origins[i * m + j] = value_origin(s, &s->params[j], 0);
      if (!c->values[i * m + j]) {
        st = SK_ERROR(ctx, SK_ERR_NOMEM, "out of memory");
      }
    }
  }
  free(u);
  free(perm);
  return st;
}

/* One case per row of the CSV file; the header names the keys. */
static sk_status expand_csv(sk_context *ctx, const sweep_spec *s, sk_options *opts,
                            sweep_cases *c)
{
  cli_csv csv;
  sk_status st = cli_csv_read(ctx, s->cases_csv, &csv);
  if (st == SK_OK && (csv.nrows < 2 || csv.rows[0].nfields == 0)) {
    st = SK_ERROR(ctx, SK_ERR_INPUT, "%s: expected a header of option keys and one row per case",
                  s->cases_csv);
  }
  if (st == SK_OK) {
    st = alloc_cases(ctx, c, csv.rows[0].nfields, csv.nrows - 1);
  }
  const cli_csv_row *head = st == SK_OK ? &csv.rows[0] : NULL;
  for (size_t j = 0; head && st == SK_OK && j < head->nfields; j++) {
    c->key_origins[j] = (sk_option_origin){s->cases_csv, head->line, head->columns[j], 0};
    c->keys[j] = strdup(head->fields[j]);
    if (!c->keys[j]) {
      st = SK_ERROR(ctx, SK_ERR_NOMEM, "out of memory");
    } else if (!head->fields[j][0]) {
      st = SK_ERROR(ctx, SK_ERR_INPUT, "%s:%d:%d: empty column name", s->cases_csv, head->line,
                    head->columns[j]);
    } else {
      st = check_key(ctx, opts, c->keys[j], &c->key_origins[j]);
    }
  }
  for (size_t i = 0; head && st == SK_OK && i < c->ncases; i++) {
    const cli_csv_row *r = &csv.rows[i + 1];
    if (r->nfields != c->nkeys) {
      st = SK_ERROR(ctx, SK_ERR_INPUT, "%s:%d: %zu values for %zu keys", s->cases_csv, r->line,
                    r->nfields, c->nkeys);
    }
    for (size_t j = 0; st == SK_OK && j < c->nkeys; j++) {
      if (!r->fields[j][0]) {
        st = SK_ERROR(ctx, SK_ERR_INPUT, "%s:%d:%d: empty value for '%s'", s->cases_csv, r->line,
                      r->columns[j], c->keys[j]);
        break;
      }
      c->values[i * c->nkeys + j] = strdup(r->fields[j]);
      c->origins[i * c->nkeys + j] = (sk_option_origin){s->cases_csv, r->line, r->columns[j], 0};
      if (!c->values[i * c->nkeys + j]) {
        st = SK_ERROR(ctx, SK_ERR_NOMEM, "out of memory");
      }
    }
  }
  cli_csv_free(&csv);
  return st;
}

sk_status sweep_expand(sk_context *ctx, const sweep_spec *s, sk_options *opts, sweep_cases *c)
{
  memset(c, 0, sizeof *c);
  if (s->mode == SWEEP_CSV) {
    return expand_csv(ctx, s, opts, c);
  }
  int *is_int = calloc(s->nparams ? s->nparams : 1, sizeof *is_int);
  SK_CHECK(ctx, is_int != NULL, SK_ERR_NOMEM, "out of memory");
  sk_status st = SK_OK;
  for (size_t j = 0; j < s->nparams && st == SK_OK; j++) {
    const sweep_param *p = &s->params[j];
    const sk_option_origin ko = {s->path, p->line, p->column, 0};
    st = check_key(ctx, opts, p->key, &ko);
    is_int[j] = st == SK_OK && key_is_int(opts, p->key);
    if (st == SK_OK && is_int[j] && p->kind == SWEEP_RANGE &&
        (s->mode == SWEEP_PRODUCT || s->mode == SWEEP_ZIP)) {
      st = check_integer_range(ctx, s, p);
    }
  }
  if (st == SK_OK) {
    st = s->mode == SWEEP_PRODUCT || s->mode == SWEEP_ZIP ? expand_grid(ctx, s, is_int, c)
                                                          : expand_samples(ctx, s, is_int, c);
  }
  for (size_t j = 0; st == SK_OK && j < s->nparams; j++) {
    c->keys[j] = strdup(s->params[j].key);
    c->key_origins[j] = (sk_option_origin){s->path, s->params[j].line, s->params[j].column, 0};
    if (!c->keys[j]) {
      st = SK_ERROR(ctx, SK_ERR_NOMEM, "out of memory");
    }
  }
  free(is_int);
  return st;
}

void sweep_cases_free(sweep_cases *c)
{
  for (size_t j = 0; c->keys && j < c->nkeys; j++) {
    free(c->keys[j]);
  }
  for (size_t i = 0; c->values && i < c->ncases * c->nkeys; i++) {
    free(c->values[i]);
  }
  free(c->keys);
  free(c->key_origins);
  free(c->values);
  free(c->origins);
  memset(c, 0, sizeof *c);
}

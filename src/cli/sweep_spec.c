/* src/cli/sweep_spec.c: the sweep file (data/sweeps/README.md) parsed into a sweep_spec, with file:line:column messages */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/sweep.h"
#include "core/error.h"
#include "core/path.h"

static char *dup_text(sk_context *ctx, const char *t)
{
  char *d = strdup(t);
  if (!d) {
    SK_ERROR(ctx, SK_ERR_NOMEM, "out of memory");
  }
  return d;
}

static sk_status value_of(cli_yaml *y, const yaml_node_t *n, sweep_value *v)
{
  if (!cli_yaml_text(n)) {
    return cli_yaml_error(y, n, SK_ERR_INPUT, "expected a single value");
  }
  v->text = dup_text(y->ctx, cli_yaml_text(n));
  v->line = cli_yaml_line(n);
  v->column = cli_yaml_column(n);
  return v->text ? SK_OK : SK_ERR_NOMEM;
}

/* A list item: a single value, or a list of single values written "[a, b]"
 * (one value of a list-typed key). */
static sk_status item_of(cli_yaml *y, const char *key, const yaml_node_t *n, sweep_value *v)
{
  if (cli_yaml_text(n)) {
    return value_of(y, n, v);
  }
  if (!n || n->type != YAML_SEQUENCE_NODE) {
    return cli_yaml_error(y, n, SK_ERR_INPUT,
                          "%s: each value must be a single value or a list of single values",
                          key);
  }
  size_t len = 3;
  for (size_t i = 0; i < cli_yaml_count(n); i++) {
    const char *t = cli_yaml_text(cli_yaml_item(y, n, i));
    if (!t) {
      return cli_yaml_error(y, cli_yaml_item(y, n, i), SK_ERR_INPUT,
                            "%s: list items must be single values", key);
    }
    len += strlen(t) + 2;
  }
  v->text = malloc(len);
  SK_CHECK(y->ctx, v->text != NULL, SK_ERR_NOMEM, "out of memory");
  size_t at = (size_t)sprintf(v->text, "[");
  for (size_t i = 0; i < cli_yaml_count(n); i++) {
    at += (size_t)sprintf(v->text + at, "%s%s", i ? ", " : "",
                          cli_yaml_text(cli_yaml_item(y, n, i)));
  }
  sprintf(v->text + at, "]");
  v->line = cli_yaml_line(n);
  v->column = cli_yaml_column(n);
  return SK_OK;
}

/* The items of a sequence node into a new array. */
static sk_status items_of(cli_yaml *y, const char *key, const yaml_node_t *seq,
                          sweep_value **items, size_t *n)
{
  const size_t count = cli_yaml_count(seq);
  *items = calloc(count ? count : 1, sizeof **items);
  SK_CHECK(y->ctx, *items != NULL, SK_ERR_NOMEM, "out of memory");
  for (*n = 0; *n < count; (*n)++) {
    SK_CALL(y->ctx, item_of(y, key, cli_yaml_item(y, seq, *n), &(*items)[*n]));
  }
  return SK_OK;
}

/* ---- set: fixed overrides, nested mappings joined with '.' --------------- */

/* A key given twice, nested or dotted ("solver: {rtol: 1}" and
 * "solver.rtol: 2"), would be set twice with one value silently lost. */
static sk_status check_new_setting(cli_yaml *y, const sweep_spec *s, const char *key,
                                   const yaml_node_t *k)
{
  for (size_t j = 0; j < s->nsets; j++) {
    if (!strcmp(s->sets[j].key, key)) {
      return cli_yaml_error(y, k, SK_ERR_INPUT, "set: '%s' is given twice (first at %s:%d:%d)",
                            key, y->file, s->sets[j].line, s->sets[j].column);
    }
  }
  return SK_OK;
}

static sk_status add_setting(cli_yaml *y, sweep_spec *s, const char *key, const yaml_node_t *k,
                             const yaml_node_t *v)
{
  SK_CALL(y->ctx, check_new_setting(y, s, key, k));
  sweep_setting *grown = realloc(s->sets, (s->nsets + 1) * sizeof *grown);
  SK_CHECK(y->ctx, grown != NULL, SK_ERR_NOMEM, "out of memory");
  s->sets = grown;
  sweep_setting *e = &s->sets[s->nsets++];
  memset(e, 0, sizeof *e);
  e->key = dup_text(y->ctx, key);
  SK_CHECK(y->ctx, e->key != NULL, SK_ERR_NOMEM, "out of memory");
  e->line = cli_yaml_line(k);
  e->column = cli_yaml_column(k);
  if (v->type == YAML_SEQUENCE_NODE) {
    e->is_list = 1;
    for (size_t i = 0; i < cli_yaml_count(v); i++) {
      if (!cli_yaml_text(cli_yaml_item(y, v, i))) {
        return cli_yaml_error(y, cli_yaml_item(y, v, i), SK_ERR_INPUT,
                              "set: %s: list items must be single values", key);
      }
    }
    return items_of(y, key, v, &e->items, &e->nitems);
  }
  e->items = calloc(1, sizeof *e->items);
  SK_CHECK(y->ctx, e->items != NULL, SK_ERR_NOMEM, "out of memory");
  e->nitems = 1;
  return value_of(y, v, &e->items[0]);
}

static sk_status parse_set(cli_yaml *y, sweep_spec *s, const yaml_node_t *map, const char *prefix,
                           int depth)
{
  if (!map || cli_yaml_is_null(map)) {
    return SK_OK;
  }
  if (map->type != YAML_MAPPING_NODE) {
    return cli_yaml_error(y, map, SK_ERR_INPUT, "set: expected a mapping of option keys");
  }
  yaml_node_t *k, *v;
  for (size_t i = 0; cli_yaml_pair(y, map, i, &k, &v); i++) {
    const char *name = cli_yaml_text(k);
    char key[512];
    if (!name || snprintf(key, sizeof key, "%s%s%s", prefix, prefix[0] ? "." : "", name) >=
                     (int)sizeof key) {
      return cli_yaml_error(y, k, SK_ERR_INPUT, "set: keys must be option names");
    }
    if (v->type == YAML_MAPPING_NODE && depth < 8) {
      SK_CALL(y->ctx, parse_set(y, s, v, key, depth + 1));
    } else {
      SK_CALL(y->ctx, add_setting(y, s, key, k, v));
    }
  }
  return SK_OK;
}

/* ---- parameters: lists and ranges ----------------------------------------- */

static sk_status parse_range(cli_yaml *y, sweep_param *p, const yaml_node_t *v)
{
  static const char *const keys[] = {"range", "num", "scale"};
  char what[600];
  snprintf(what, sizeof what, "parameter '%s'", p->key);
  SK_CALL(y->ctx, cli_yaml_check_keys(y, v, keys, 3, what));
  p->kind = SWEEP_RANGE;
  const yaml_node_t *r = cli_yaml_get(y, v, "range");
  if (!r) {
    return cli_yaml_error(y, v, SK_ERR_INPUT,
                          "%s: a mapping must give range: [low, high] (and num, scale)", what);
  }
  if (r->type != YAML_SEQUENCE_NODE || cli_yaml_count(r) != 2) {
    return cli_yaml_error(y, r, SK_ERR_INPUT, "%s: range must be [low, high]%s", what,
                          cli_yaml_count(r) == 0 && r->type == YAML_SEQUENCE_NODE
                              ? " (an empty range has no values)"
                              : "");
  }
  double lo, hi;
  SK_CALL(y->ctx, cli_yaml_real(y, cli_yaml_item(y, r, 0), what, &lo));
  SK_CALL(y->ctx, cli_yaml_real(y, cli_yaml_item(y, r, 1), what, &hi));
  SK_CALL(y->ctx, value_of(y, cli_yaml_item(y, r, 0), &p->lo));
  SK_CALL(y->ctx, value_of(y, cli_yaml_item(y, r, 1), &p->hi));
  p->lo.line = p->hi.line = cli_yaml_line(v);
  p->lo.column = p->hi.column = cli_yaml_column(v);
  const yaml_node_t *num = cli_yaml_get(y, v, "num");
  if (num) {
    if (cli_yaml_text(num) && !strcmp(cli_yaml_text(num), "0")) {
      return cli_yaml_error(y, num, SK_ERR_INPUT, "%s: empty range (num: 0): give num >= 1",
                            what);
    }
    SK_CALL(y->ctx, cli_yaml_int(y, num, what, 1, (int64_t)SWEEP_MAX_CASES, &p->num));
    if (p->num == 1 && lo != hi) {
      return cli_yaml_error(y, num, SK_ERR_INPUT,
                            "%s: num: 1 needs equal endpoints (a range includes both)", what);
    }
  }
  const yaml_node_t *scale = cli_yaml_get(y, v, "scale");
  const char *sc = scale ? cli_yaml_text(scale) : "linear";
  if (!sc || (strcmp(sc, "linear") && strcmp(sc, "log"))) {
    return cli_yaml_error(y, scale, SK_ERR_INPUT, "%s: scale must be linear or log, got '%s'",
                          what, sc ? sc : "(not a single value)");
  }
  p->log = !strcmp(sc, "log");
  if (p->log && !(lo > 0 && hi > 0)) {
    return cli_yaml_error(y, r, SK_ERR_INPUT,
                          "%s: a log range needs positive endpoints, got [%s, %s]", what,
                          p->lo.text, p->hi.text);
  }
  return SK_OK;
}

static sk_status parse_param(cli_yaml *y, sweep_param *p, const yaml_node_t *k,
                             const yaml_node_t *v)
{
  const char *key = cli_yaml_text(k);
  if (!key || !key[0]) {
    return cli_yaml_error(y, k, SK_ERR_INPUT, "parameters: keys must be option names");
  }
  p->key = dup_text(y->ctx, key);
  SK_CHECK(y->ctx, p->key != NULL, SK_ERR_NOMEM, "out of memory");
  p->line = cli_yaml_line(k);
  p->column = cli_yaml_column(k);
  if (v->type == YAML_MAPPING_NODE) {
    return parse_range(y, p, v);
  }
  p->kind = SWEEP_LIST;
  if (v->type == YAML_SEQUENCE_NODE) {
    if (cli_yaml_count(v) == 0) {
      return cli_yaml_error(y, v, SK_ERR_INPUT,
                            "parameter '%s': empty list: give at least one value", key);
    }
    return items_of(y, key, v, &p->items, &p->nitems);
  }
  if (cli_yaml_is_null(v)) {
    return cli_yaml_error(y, v, SK_ERR_INPUT, "parameter '%s': no values", key);
  }
  p->items = calloc(1, sizeof *p->items);
  SK_CHECK(y->ctx, p->items != NULL, SK_ERR_NOMEM, "out of memory");
  p->nitems = 1;
  return value_of(y, v, &p->items[0]);
}

static sk_status parse_parameters(cli_yaml *y, sweep_spec *s, const yaml_node_t *map)
{
  if (map->type != YAML_MAPPING_NODE || cli_yaml_count(map) == 0) {
    return cli_yaml_error(y, map, SK_ERR_INPUT,
                          "parameters: expected a mapping of option keys to values or ranges");
  }
  s->params = calloc(cli_yaml_count(map), sizeof *s->params);
  SK_CHECK(y->ctx, s->params != NULL, SK_ERR_NOMEM, "out of memory");
  yaml_node_t *k, *v;
  for (size_t i = 0; cli_yaml_pair(y, map, i, &k, &v); i++) {
    char now[256], then[256]; /* a key and its retired name are one key */
    for (size_t j = 0; j < s->nparams; j++) {
      if (cli_yaml_text(k) &&
          !strcmp(sk_options_current_key(s->params[j].key, then, sizeof then),
                  sk_options_current_key(cli_yaml_text(k), now, sizeof now))) {
        return cli_yaml_error(y, k, SK_ERR_INPUT,
                              "duplicate parameter '%s' (first given at line %d)",
                              s->params[j].key, s->params[j].line);
      }
    }
    s->nparams++;
    SK_CALL(y->ctx, parse_param(y, &s->params[i], k, v));
  }
  return SK_OK;
}

/* ---- how the cases are formed: combine, samples --------------------------- */

static sk_status parse_mode(cli_yaml *y, sweep_spec *s, const yaml_node_t *combine,
                            const yaml_node_t *samples)
{
  s->mode = SWEEP_PRODUCT;
  if (combine && samples) {
    return cli_yaml_error(y, samples, SK_ERR_INPUT,
                          "give either combine (product, zip) or samples, not both");
  }
  if (combine) {
    const char *c = cli_yaml_text(combine);
    if (!c || (strcmp(c, "product") && strcmp(c, "zip"))) {
      return cli_yaml_error(y, combine, SK_ERR_INPUT, "combine must be product or zip, got '%s'",
                            c ? c : "(not a single value)");
    }
    s->mode = strcmp(c, "zip") ? SWEEP_PRODUCT : SWEEP_ZIP;
  }
  if (samples) {
    static const char *const keys[] = {"method", "n", "seed"};
    SK_CALL(y->ctx, cli_yaml_check_keys(y, samples, keys, 3, "samples"));
    const yaml_node_t *m = cli_yaml_get(y, samples, "method");
    const char *method = m ? cli_yaml_text(m) : NULL;
    if (!method || (strcmp(method, "random") && strcmp(method, "lhs"))) {
      return cli_yaml_error(y, m ? m : samples, SK_ERR_INPUT,
                            "samples: method must be random or lhs");
    }
    s->mode = strcmp(method, "lhs") ? SWEEP_RANDOM : SWEEP_LHS;
    const yaml_node_t *n = cli_yaml_get(y, samples, "n");
    if (!n) {
      return cli_yaml_error(y, samples, SK_ERR_INPUT,
                            "samples: n (the number of cases) is missing");
    }
    SK_CALL(y->ctx, cli_yaml_int(y, n, "samples: n", 1, (int64_t)SWEEP_MAX_CASES, &s->nsamples));
    const yaml_node_t *seed = cli_yaml_get(y, samples, "seed");
    int64_t sd = 0;
    if (seed) {
      SK_CALL(y->ctx, cli_yaml_int(y, seed, "samples: seed", 0, INT64_MAX, &sd));
    }
    s->seed = (uint64_t)sd;
  }
  return SK_OK;
}

/* Ranges need num on a grid; zipped parameters need equal lengths. */
static sk_status check_grid(cli_yaml *y, const sweep_spec *s)
{
  if (s->mode != SWEEP_PRODUCT && s->mode != SWEEP_ZIP) {
    return SK_OK;
  }
  size_t first = 0;
  for (size_t j = 0; j < s->nparams; j++) {
    const sweep_param *p = &s->params[j];
    if (p->kind == SWEEP_RANGE && p->num == 0) {
      return SK_ERROR(y->ctx, SK_ERR_INPUT,
                      "%s:%d:%d: parameter '%s': a range needs num (points, endpoints included) "
                      "unless the cases are sampled",
                      s->path, p->lo.line, p->lo.column, p->key);
    }
    const size_t len = p->kind == SWEEP_RANGE ? (size_t)p->num : p->nitems;
    if (j == 0) {
      first = len;
    } else if (s->mode == SWEEP_ZIP && len != first) {
      return SK_ERROR(y->ctx, SK_ERR_INPUT,
                      "%s:%d:%d: combine: zip needs parameters of equal length: '%s' has %zu "
                      "values, '%s' has %zu",
                      s->path, p->line, p->column, p->key, len, s->params[0].key, first);
    }
  }
  return SK_OK;
}

/* ---- collect and slurm ---------------------------------------------------- */

void sweep_slurm_defaults(sweep_slurm *o)
{
  memset(o, 0, sizeof *o);
  o->signal_seconds = 60;
  o->ntasks = 1;
  o->requeue = 1;
  o->max_attempts = 20;
}

sk_status sweep_collect_parse(cli_yaml *y, const yaml_node_t *n, sweep_collect *c)
{
  static const char *const keys[] = {"probes", "times"};
  memset(c, 0, sizeof *c);
  SK_CALL(y->ctx, cli_yaml_check_keys(y, n, keys, 2, "collect"));
  const yaml_node_t *probes = cli_yaml_get(y, n, "probes");
  const yaml_node_t *times = cli_yaml_get(y, n, "times");
  if ((probes && probes->type != YAML_SEQUENCE_NODE) ||
      (times && times->type != YAML_SEQUENCE_NODE)) {
    return cli_yaml_error(y, probes && probes->type != YAML_SEQUENCE_NODE ? probes : times,
                          SK_ERR_INPUT, "collect: probes and times are lists");
  }
  const size_t np = cli_yaml_count(probes), nt = cli_yaml_count(times);
  c->probes = calloc(np ? np : 1, sizeof *c->probes);
  c->times = calloc(nt ? nt : 1, sizeof *c->times);
  SK_CHECK(y->ctx, c->probes && c->times, SK_ERR_NOMEM, "out of memory");
  for (; c->nprobes < np; c->nprobes++) {
    const yaml_node_t *item = cli_yaml_item(y, probes, c->nprobes);
    if (!cli_yaml_text(item)) {
      return cli_yaml_error(y, item, SK_ERR_INPUT, "collect: probes are column names");
    }
    c->probes[c->nprobes] = dup_text(y->ctx, cli_yaml_text(item));
    SK_CHECK(y->ctx, c->probes[c->nprobes] != NULL, SK_ERR_NOMEM, "out of memory");
  }
  for (; c->ntimes < nt; c->ntimes++) {
    SK_CALL(y->ctx, cli_yaml_real(y, cli_yaml_item(y, times, c->ntimes), "collect: times",
                                  &c->times[c->ntimes]));
  }
  return SK_OK;
}

void sweep_collect_free(sweep_collect *c)
{
  for (size_t i = 0; c->probes && i < c->nprobes; i++) {
    free(c->probes[i]);
  }
  free(c->probes);
  free(c->times);
  memset(c, 0, sizeof *c);
}

sk_status sweep_slurm_parse(cli_yaml *y, const yaml_node_t *n, sweep_slurm *o)
{
  static const char *const keys[] = {"partition",    "account",        "time",   "mem",
                                     "max_parallel", "signal_seconds", "ntasks", "cpus_per_task",
                                     "max_attempts", "requeue"};
  sweep_slurm_defaults(o);
  SK_CALL(y->ctx, cli_yaml_check_keys(y, n, keys, sizeof keys / sizeof keys[0], "slurm"));
  char *texts[] = {o->partition, o->account, o->time, o->mem};
  for (int k = 0; k < 4; k++) {
    const yaml_node_t *v = cli_yaml_get(y, n, keys[k]);
    if (v && !cli_yaml_is_null(v)) {
      SK_CALL(y->ctx, cli_yaml_string(y, v, keys[k], texts[k], SWEEP_TEXT));
    }
  }
  int64_t *ints[] = {&o->max_parallel, &o->signal_seconds, &o->ntasks, &o->cpus_per_task,
                     &o->max_attempts};
  const int64_t mins[] = {0, 1, 1, 0, 1};
  for (int k = 0; k < 5; k++) {
    const yaml_node_t *v = cli_yaml_get(y, n, keys[4 + k]);
    if (v) {
      SK_CALL(y->ctx, cli_yaml_int(y, v, keys[4 + k], mins[k], 1000000000, ints[k]));
    }
  }
  const yaml_node_t *rq = cli_yaml_get(y, n, "requeue");
  if (rq) {
    SK_CALL(y->ctx, cli_yaml_bool(y, rq, "requeue", &o->requeue));
  }
  return SK_OK;
}

/* ---- the file ------------------------------------------------------------- */

/* A path-valued top-level key (NULL when absent or empty). */
static sk_status path_key(cli_yaml *y, const yaml_node_t *root, const char *key, int resolve,
                          char **out)
{
  const yaml_node_t *v = cli_yaml_get(y, root, key);
  *out = NULL;
  if (!v || cli_yaml_is_null(v)) {
    return SK_OK;
  }
  const char *t = cli_yaml_text(v);
  if (!t || !t[0]) {
    return cli_yaml_error(y, v, SK_ERR_INPUT, "%s: expected a file or directory name", key);
  }
  if (!resolve) {
    *out = dup_text(y->ctx, t);
    return *out ? SK_OK : SK_ERR_NOMEM;
  }
  /* relative to the sweep file's directory, the rule of every path named in a file */
  char *abs = NULL;
  SK_CALL(y->ctx, sk__path_resolve(y->ctx, y->file, t, &abs));
  *out = dup_text(y->ctx, abs);
  sk__free(y->ctx, abs);
  return *out ? SK_OK : SK_ERR_NOMEM;
}

static sk_status parse_root(cli_yaml *y, sweep_spec *s)
{
  static const char *const keys[] = {"base",    "output", "set",     "parameters", "combine",
                                     "samples", "cases",  "collect", "slurm"};
  const yaml_node_t *root = cli_yaml_root(y);
  SK_CALL(y->ctx,
          cli_yaml_check_keys(y, root, keys, sizeof keys / sizeof keys[0], "a sweep file"));
  SK_CALL(y->ctx, path_key(y, root, "base", 1, &s->base));
  SK_CALL(y->ctx, path_key(y, root, "output", 0, &s->output));
  SK_CALL(y->ctx, path_key(y, root, "cases", 1, &s->cases_csv));
  SK_CALL(y->ctx, parse_set(y, s, cli_yaml_get(y, root, "set"), "", 0));
  const yaml_node_t *params = cli_yaml_get(y, root, "parameters");
  const yaml_node_t *combine = cli_yaml_get(y, root, "combine");
  const yaml_node_t *samples = cli_yaml_get(y, root, "samples");
  if (params && s->cases_csv) {
    return cli_yaml_error(y, cli_yaml_get(y, root, "cases"), SK_ERR_INPUT,
                          "give either parameters or cases (a CSV file), not both");
  }
  if (!params && !s->cases_csv) {
    return cli_yaml_error(y, NULL, SK_ERR_INPUT,
                          "no parameters to vary: give parameters or cases (a CSV file)");
  }
  if (s->cases_csv && (combine || samples)) {
    return cli_yaml_error(
        y, combine ? combine : samples, SK_ERR_INPUT,
        "combine and samples apply to parameters, not to cases from a CSV file");
  }
  if (params) {
    SK_CALL(y->ctx, parse_parameters(y, s, params));
    SK_CALL(y->ctx, parse_mode(y, s, combine, samples));
    SK_CALL(y->ctx, check_grid(y, s));
  } else {
    s->mode = SWEEP_CSV;
  }
  SK_CALL(y->ctx, sweep_collect_parse(y, cli_yaml_get(y, root, "collect"), &s->collect));
  SK_CALL(y->ctx, sweep_slurm_parse(y, cli_yaml_get(y, root, "slurm"), &s->slurm));
  return SK_OK;
}

sk_status sweep_spec_load(sk_context *ctx, const char *path, sweep_spec *s)
{
  memset(s, 0, sizeof *s);
  sweep_slurm_defaults(&s->slurm);
  s->path = dup_text(ctx, path);
  SK_CHECK(ctx, s->path != NULL, SK_ERR_NOMEM, "out of memory");
  cli_yaml y;
  sk_status st = cli_yaml_load(ctx, s->path, &y);
  if (st == SK_OK) {
    st = parse_root(&y, s);
  }
  cli_yaml_free(&y);
  return st;
}

static void values_free(sweep_value *v, size_t n)
{
  for (size_t i = 0; v && i < n; i++) {
    free(v[i].text);
  }
  free(v);
}

void sweep_spec_free(sweep_spec *s)
{
  for (size_t i = 0; i < s->nsets; i++) {
    free(s->sets[i].key);
    values_free(s->sets[i].items, s->sets[i].nitems);
  }
  for (size_t i = 0; i < s->nparams; i++) {
    free(s->params[i].key);
    values_free(s->params[i].items, s->params[i].nitems);
    free(s->params[i].lo.text);
    free(s->params[i].hi.text);
  }
  free(s->sets);
  free(s->params);
  free(s->path);
  free(s->base);
  free(s->output);
  free(s->cases_csv);
  sweep_collect_free(&s->collect);
  memset(s, 0, sizeof *s);
}

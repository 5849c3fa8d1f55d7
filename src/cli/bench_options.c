/* src/cli/bench_options.c: the bench.* keys of `stiffkit bench`, the per-stepper keys (bench.stepper.NAME.*) and the study read from them */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/bench.h"
#include "core/error.h"
#include "core/options_impl.h"
#include "core/stop.h"

#define STEPPER_SECTION "bench.stepper"
#define OPTIONS_FIELD "options."

static const sk_option_spec bench_table[] = {
    {"bench.methods", SK_OPT_STRING, "", 0, 0, NULL,
     "steppers to compare, separated by commas (any registered type: `stiffkit info` lists "
     "them; plugin types with solver.plugin); \"\" = the names under bench.stepper"},
    {"bench.rtols", SK_OPT_REAL_LIST, "1e-3, 1e-4, 1e-5, 1e-6, 1e-7", 1e-15, 1.0, NULL,
     "the rtol ladder of adaptive steppers (bench.stepper.NAME.rtols for one stepper)"},
    {"bench.atol_ratio", SK_OPT_REAL, "1e-3", 0, 1e300, NULL,
     "atol = atol_ratio * rtol at every rung; 0 = solver.atol at every rung"},
    {"bench.steps", SK_OPT_REAL_LIST, "", 1e-300, 1e300, NULL,
     "the step ladder (solver.fixed_step values) of fixed-step steppers "
     "(bench.stepper.NAME.steps for one stepper)"},
    {"bench.repeats", SK_OPT_INT, "3", 1, 1000, NULL,
     "runs per point: the wall time is their median, with min and max"},
    {"bench.error", SK_OPT_CHOICE, "max", 0, 0, "max|rms",
     "error measure over the measured components and times: max |y - y_ref| or the RMS"},
    {"bench.components", SK_OPT_INT_LIST, "", 0, 1e15, NULL,
     "components measured (0-based; empty = all)"},
    {"bench.times", SK_OPT_CHOICE, "all", 0, 0, "all|final",
     "output times measured: all of them, or the last one"},
    {"bench.reference", SK_OPT_CHOICE, "auto", 0, 0, "auto|computed|exact|file",
     "the reference solution: the model's exact one (exact), a CVODE/IDA solve far below the "
     "study's tolerances (computed), a CSV of t and the n states (file); auto = exact where the "
     "model has one, else computed"},
    {"bench.reference_file", SK_OPT_PATH, "", 0, 0, NULL,
     "bench.reference = file: CSV with header t then the n state columns, a row per output "
     "time"},
    {"bench.reference_rtol", SK_OPT_REAL, "0", 0, 1e-2, NULL,
     "rtol of the computed reference; 0 = 1e-3 times the tightest rtol of the study, within "
     "[1e-13, 1e-10]"},
    {"bench.reference_check", SK_OPT_STRING, "auto", 0, 0, NULL,
     "the independent method that checks the computed reference at 10 reference_rtol; auto = "
     "cvode-adams for an ODE, the first other DAE stepper for a DAE; \"none\" = no check"},
    {"bench.target_error", SK_OPT_REAL, "0", 0, 1e300, NULL,
     "the error of the side-by-side report; 0 = the smallest error every method reaches"},
    {"bench.external", SK_OPT_PATH_LIST, "", 0, 0, NULL,
     "results of outside codes: CSVs with header tolerance, wall_time[, rhs_evals], t, then "
     "the n state columns, one row per output time and tolerance"},
    {"bench.hdf5", SK_OPT_BOOL, "false", 0, 0, NULL, "also write PREFIX.bench.h5"},
    {"bench.plot", SK_OPT_BOOL, "true", 0, 0, NULL,
     "draw PREFIX.bench.png (python3 with matplotlib; left out with a note when missing)"},
};

const sk_option_spec *bench_options(size_t *n)
{
  *n = sizeof bench_table / sizeof bench_table[0];
  return bench_table;
}

/* The fields of bench.stepper.NAME. */
static const struct {
  const char *field;
  sk_opt_type type;
  double min, max;
  const char *help;
} stepper_fields[] = {
    {"rtols", SK_OPT_REAL_LIST, 1e-15, 1.0, "this stepper's rtol ladder"},
    {"steps", SK_OPT_REAL_LIST, 1e-300, 1e300, "this stepper's fixed-step ladder"},
    {"atol_ratio", SK_OPT_REAL, 0, 1e300, "this stepper's atol = atol_ratio * rtol"},
};
enum { NFIELDS = sizeof stepper_fields / sizeof stepper_fields[0] };

#define KEY_LEN 256
struct bench_keys {
  size_t n;
  sk_option_spec *spec;
  char (*names)[KEY_LEN];
};

void bench_keys_free(struct bench_keys **keys)
{
  if (keys && *keys) {
    free((*keys)->spec);
    free((*keys)->names);
    free(*keys);
    *keys = NULL;
  }
}

/* The spec of one pending key under bench.stepper (NULL help: not a field). */
static sk_status key_spec(sk_context *ctx, const char *key, sk_option_spec *sp)
{
  const char *rest = key + strlen(STEPPER_SECTION) + 1;
  const char *dot = strchr(rest, '.');
  SK_CHECK(ctx, dot && dot > rest, SK_ERR_INPUT,
           "%s: a stepper's settings are bench.stepper.NAME.FIELD (FIELD: rtols, steps, "
           "atol_ratio or options.KEY)",
           key);
  const char *field = dot + 1;
  memset(sp, 0, sizeof *sp);
  sp->key = key;
  sp->def = "";
  if (!strncmp(field, OPTIONS_FIELD, strlen(OPTIONS_FIELD)) && field[strlen(OPTIONS_FIELD)]) {
    sp->type = SK_OPT_STRING;
    sp->help = "an option of this stepper's runs (the key after options.)";
    return SK_OK;
  }
  for (size_t k = 0; k < NFIELDS; k++) {
    if (!strcmp(field, stepper_fields[k].field)) {
      sp->type = stepper_fields[k].type;
      sp->min = stepper_fields[k].min;
      sp->max = stepper_fields[k].max;
      sp->help = stepper_fields[k].help;
      return SK_OK;
    }
  }
  return SK_ERROR(ctx, SK_ERR_INPUT,
                  "%s: unknown stepper setting '%s' (valid: rtols, steps, atol_ratio, "
                  "options.KEY)",
                  key, field);
}

/* The per-stepper keys pending in opts, as a table. */
static sk_status find_keys(sk_context *ctx, const sk_options *opts, struct bench_keys **out)
{
  size_t cap = 0;
  for (; sk_options_pending_key(opts, cap); cap++) {
  }
  struct bench_keys *K = calloc(1, sizeof *K);
  if (K) {
    K->spec = calloc(cap ? cap : 1, sizeof *K->spec);
    K->names = calloc(cap ? cap : 1, sizeof *K->names);
  }
  *out = K;
  SK_CHECK(ctx, K && K->spec && K->names, SK_ERR_NOMEM, "cannot allocate the stepper keys");
  const char *key;
  for (size_t i = 0; (key = sk_options_pending_key(opts, i)) != NULL; i++) {
    int seen = 0; /* a key set twice (config, then --set) is pending twice */
    for (size_t k = 0; k < K->n; k++) {
      seen |= !strcmp(K->names[k], key);
    }
    if (seen || strncmp(key, STEPPER_SECTION ".", strlen(STEPPER_SECTION) + 1)) {
      continue;
    }
    SK_CHECK(ctx, strlen(key) < KEY_LEN, SK_ERR_INPUT, "%s: key too long", key);
    snprintf(K->names[K->n], KEY_LEN, "%s", key);
    SK_CALL(ctx, key_spec(ctx, K->names[K->n], &K->spec[K->n]));
    K->n++;
  }
  return SK_OK;
}

/* The option overrides of one stepper, set in its job. */
static sk_status apply_overrides(sk_context *ctx, const struct bench_keys *K, sk_options *opts,
                                 const char *method)
{
  char prefix[KEY_LEN];
  snprintf(prefix, sizeof prefix, STEPPER_SECTION ".%s." OPTIONS_FIELD, method);
  const size_t len = strlen(prefix);
  for (size_t k = 0; k < K->n; k++) {
    if (strncmp(K->names[k], prefix, len)) {
      continue;
    }
    const char *value;
    sk_option_origin o;
    SK_CALL(ctx, sk_options_get_string(opts, K->names[k], &value));
    SK_CALL(ctx, sk_options_get_origin(opts, K->names[k], &o));
    SK_CALL(ctx, sk_options_set(opts, K->names[k] + len, value, o.file ? &o : NULL));
  }
  return SK_OK;
}

sk_status bench_job_load(bench_study *b, cli_job *job, const char *method)
{
  sk_context *ctx = b->ctx;
  size_t n = 0;
  SK_CALL(ctx, cli_job_options(ctx, job));
  const sk_option_spec *table = bench_options(&n);
  SK_CALL(ctx, sk_options_register(job->opts, table, n));
  SK_CALL(ctx, sk_options_defer_section(job->opts, STEPPER_SECTION));
  SK_CALL_STOP(ctx, cli_job_load(ctx, job, b->config, b->sets, b->nsets));
  if (!b->keys) {
    SK_CALL(ctx, find_keys(ctx, job->opts, &b->keys));
  }
  SK_CALL(ctx, sk_options_register(job->opts, b->keys->spec, b->keys->n));
  if (method) {
    SK_CALL(ctx, apply_overrides(ctx, b->keys, job->opts, method));
    char assign[BENCH_NAME_LEN + 16];
    snprintf(assign, sizeof assign, "solver.method=%s", method);
    SK_CALL(ctx, sk_options_set_assignment(job->opts, assign));
  }
  SK_CALL_STOP(ctx, cli_job_build_model(ctx, job));
  SK_CALL(ctx, sk_options_get_real(job->opts, "solver.rtol", &job->rtol));
  SK_CALL(ctx, sk_options_get_real(job->opts, "solver.atol", &job->atol));
  SK_CALL(ctx, sk_options_get_string(job->opts, "solver.method", &job->method));
  SK_CALL_STOP(ctx, cli_job_prepare_outputs(ctx, job));
  return SK_OK;
}

/* "a, b, c" of the registered stepper types into buf. */
static void type_names(const sk_context *ctx, char *buf, size_t len)
{
  size_t used = 0;
  buf[0] = '\0';
  const sk_stepper_type *t;
  for (size_t i = 0; (t = sk_stepper_type_list(ctx, i)) != NULL && used < len; i++) {
    used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", t->name);
  }
}

/* Add method `name` (from the key `where`) to the study. */
static sk_status add_method(bench_study *b, const char *name, size_t nlen, const char *where)
{
  sk_context *ctx = b->ctx;
  char buf[BENCH_NAME_LEN];
  SK_CHECK(ctx, nlen > 0 && nlen < sizeof buf, SK_ERR_INPUT, "%s: '%.*s' is not a stepper name",
           where, (int)nlen, name);
  memcpy(buf, name, nlen);
  buf[nlen] = '\0';
  for (int k = 0; k < b->nm; k++) {
    if (!strcmp(b->m[k].name, buf)) {
      return SK_OK; /* named twice (bench.methods and bench.stepper) */
    }
  }
  const sk_stepper_type *t = sk_stepper_type_find(ctx, buf);
  if (!t) {
    char names[2048];
    type_names(ctx, names, sizeof names);
    return SK_ERROR(ctx, SK_ERR_INPUT,
                    "%s: unknown stepper '%s'; the registered stepper types: %s (a plugin's "
                    "types are loaded with solver.plugin)",
                    where, buf, names);
  }
  SK_CHECK(ctx, b->nm < BENCH_MAX_METHODS, SK_ERR_INPUT, "%s: more than %d methods", where,
           BENCH_MAX_METHODS);
  bench_method *m = &b->m[b->nm++];
  memset(m, 0, sizeof *m);
  snprintf(m->name, sizeof m->name, "%s", buf);
  cli_job_init(&m->job);
  return SK_OK;
}

/* A real list key into a malloc'ed copy. */
static sk_status copy_list(sk_context *ctx, const sk_options *o, const char *key, double **v,
                           size_t *n)
{
  const double *src;
  SK_CALL(ctx, sk_options_get_real_list(o, key, &src, n));
  *v = malloc((*n ? *n : 1) * sizeof **v);
  SK_CHECK(ctx, *v != NULL, SK_ERR_NOMEM, "out of memory");
  memcpy(*v, src, *n * sizeof **v);
  return SK_OK;
}

/* The ladder of method m: its own keys, else the study's. */
static sk_status method_ladder(bench_study *b, bench_method *m)
{
  sk_context *ctx = b->ctx;
  const sk_options *o = b->base.opts;
  char rk[KEY_LEN], sk[KEY_LEN], ak[KEY_LEN];
  snprintf(rk, sizeof rk, STEPPER_SECTION ".%s.rtols", m->name);
  snprintf(sk, sizeof sk, STEPPER_SECTION ".%s.steps", m->name);
  snprintf(ak, sizeof ak, STEPPER_SECTION ".%s.atol_ratio", m->name);
  const int own_r = sk_options_is_key(o, rk) && sk_options_is_set(o, rk);
  const int own_s = sk_options_is_key(o, sk) && sk_options_is_set(o, sk);
  char where[KEY_LEN + 128];
  SK_CHECK(ctx, !(own_r && own_s), SK_ERR_INPUT,
           "%s: a stepper has one ladder: rtols or steps, not both", rk);
  const sk_stepper_type *t = sk_stepper_type_find(ctx, m->name);
  const int adaptive = (t->flags & SK_STEPPER_ADAPTIVE) != 0;
  sk__options_where(o, rk, where, sizeof where);
  SK_CHECK(ctx, adaptive || !own_r, SK_ERR_INPUT,
           "%s: %s takes fixed steps (its tolerances do not control its error): give it a step "
           "ladder, bench.stepper.%s.steps",
           where, m->name, m->name);
  m->fixed = own_s || (!own_r && !adaptive);
  const char *key = own_r ? rk : own_s ? sk : m->fixed ? "bench.steps" : "bench.rtols";
  SK_CALL(ctx, copy_list(ctx, o, key, &m->ladder, &m->nladder));
  sk__options_where(o, key, where, sizeof where);
  SK_CHECK(ctx, m->nladder > 0, SK_ERR_INPUT,
           "%s: %s is a fixed-step stepper and its step ladder is empty: give bench.steps (or "
           "bench.stepper.%s.steps), e.g. [1e-2, 5e-3, 2.5e-3]",
           where, m->name, m->name);
  m->atol_ratio = NAN;
  if (sk_options_is_key(o, ak) && sk_options_is_set(o, ak)) {
    SK_CALL(ctx, sk_options_get_real(o, ak, &m->atol_ratio));
  } else {
    SK_CALL(ctx, sk_options_get_real(o, "bench.atol_ratio", &m->atol_ratio));
  }
  return SK_OK;
}

/* The measured times and components. */
static sk_status measured(bench_study *b)
{
  sk_context *ctx = b->ctx;
  const sk_options *o = b->base.opts;
  const int64_t n = sk_model_get_n(b->base.model);
  const char *times;
  SK_CALL(ctx, sk_options_get_string(o, "bench.times", &times));
  b->final_only = !strcmp(times, "final");
  b->nt = b->final_only ? 1 : b->base.ntimes;
  b->tidx = malloc(b->nt * sizeof *b->tidx);
  SK_CHECK(ctx, b->tidx != NULL, SK_ERR_NOMEM, "out of memory");
  for (size_t k = 0; k < b->nt; k++) {
    b->tidx[k] = b->final_only ? b->base.ntimes - 1 : k;
  }
  const int64_t *c;
  size_t nc;
  SK_CALL(ctx, sk_options_get_int_list(o, "bench.components", &c, &nc));
  b->ncomp = nc ? nc : (size_t)n;
  b->comps = malloc(b->ncomp * sizeof *b->comps);
  SK_CHECK(ctx, b->comps != NULL, SK_ERR_NOMEM, "out of memory");
  char where[KEY_LEN + 128];
  sk__options_where(o, "bench.components", where, sizeof where);
  for (size_t i = 0; i < b->ncomp; i++) {
    b->comps[i] = nc ? c[i] : (int64_t)i;
    SK_CHECK(ctx, b->comps[i] < n, SK_ERR_INPUT,
             "%s: component %lld is outside the state [0, %lld)", where, (long long)b->comps[i],
             (long long)n);
  }
  return SK_OK;
}

sk_status bench_study_configure(bench_study *b)
{
  sk_context *ctx = b->ctx;
  const sk_options *o = b->base.opts;
  SK_CALL_STOP(ctx, sk_plugin_load_from_options(ctx, o));
  const char *list;
  char where[KEY_LEN + 128];
  SK_CALL(ctx, sk_options_get_string(o, "bench.methods", &list));
  sk__options_where(o, "bench.methods", where, sizeof where);
  for (const char *p = list; *p;) {
    p += strspn(p, " ,\t");
    const size_t len = strcspn(p, " ,\t");
    if (len) {
      SK_CALL(ctx, add_method(b, p, len, where));
    }
    p += len;
  }
  for (size_t k = 0; k < b->keys->n; k++) { /* steppers named by their settings alone */
    const char *name = b->keys->names[k] + strlen(STEPPER_SECTION) + 1;
    sk__options_where(o, b->keys->names[k], where, sizeof where);
    SK_CALL(ctx, add_method(b, name, strcspn(name, "."), where));
  }
  SK_CHECK(ctx, b->nm > 0, SK_ERR_INPUT,
           "bench.methods: no steppers to compare: name them, e.g. bench.methods: "
           "\"cvode-bdf, rk45\" (`stiffkit info` lists the types)");
  int64_t reps;
  const char *err;
  SK_CALL(ctx, sk_options_get_int(o, "bench.repeats", &reps));
  b->repeats = reps;
  SK_CALL(ctx, sk_options_get_string(o, "bench.error", &err));
  b->rms = !strcmp(err, "rms");
  SK_CALL(ctx, sk_options_get_real(o, "bench.target_error", &b->target));
  SK_CALL(ctx, sk_options_get_bool(o, "bench.hdf5", &b->hdf5));
  SK_CALL(ctx, sk_options_get_bool(o, "bench.plot", &b->plot));
  SK_CALL(ctx, measured(b));
  for (int k = 0; k < b->nm; k++) {
    SK_CALL(ctx, method_ladder(b, &b->m[k]));
  }
  for (int k = 0; k < b->nm; k++) {
    b->planned += b->m[k].nladder;
    SK_CALL_STOP(ctx, bench_job_load(b, &b->m[k].job, b->m[k].name));
    b->m[k].have_job = 1;
  }
  return SK_OK;
}

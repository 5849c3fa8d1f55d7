/* src/cli/bench_options.c: the study of `stiffkit bench` read from its keys: the methods, their ladders and jobs, the measured times and components */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/bench.h"
#include "cli/bench_keys.h"
#include "core/error.h"
#include "core/stop.h"
#include "steppers/stepper_keys.h"

sk_status bench_job_load(bench_study *b, cli_job *job, const char *method)
{
  sk_context *ctx = b->ctx;
  SK_CALL(ctx, cli_job_options(ctx, job));
  SK_CALL_STOP(ctx, cli_job_load(ctx, job, b->config, b->sets, b->nsets));
  if (method) {
    SK_CALL(ctx, bench_keys_apply_options(ctx, job->bench_keys, job->opts, method));
    SK_CALL(ctx,
            sk_options_set(job->opts, sk__stepper_key(SK__STEPPER_KEY_method), method, NULL));
  }
  SK_CALL_STOP(ctx, cli_job_build_model(ctx, job));
  sk__stepper_settings solver;
  uint64_t given;
  SK_CALL(ctx, sk__stepper_settings_read(job->opts, &solver, &given));
  job->rtol = solver.rtol;
  job->atol = solver.atol;
  job->method = solver.method;
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
  if (*n) {
    memcpy(*v, src, *n * sizeof **v);
  }
  return SK_OK;
}

/* The ladder of method m: its own keys, else the study's. */
static sk_status method_ladder(bench_study *b, bench_method *m)
{
  sk_context *ctx = b->ctx;
  const sk_options *o = b->base.opts;
  char rk[256], sk[256], ak[256];
  bench_keys_key(m->name, "rtols", rk, sizeof rk);
  bench_keys_key(m->name, "steps", sk, sizeof sk);
  bench_keys_key(m->name, "atol_ratio", ak, sizeof ak);
  const int own_r = sk_options_is_key(o, rk) && sk_options_is_set(o, rk);
  const int own_s = sk_options_is_key(o, sk) && sk_options_is_set(o, sk);
  char where[384];
  SK_CHECK(ctx, !(own_r && own_s), SK_ERR_INPUT,
           "%s: a stepper has one ladder: rtols or steps, not both", rk);
  const sk_stepper_type *t = sk_stepper_type_find(ctx, m->name);
  const int adaptive = (t->flags & SK_STEPPER_ADAPTIVE) != 0;
  sk_options_where(o, rk, where, sizeof where);
  SK_CHECK(ctx, adaptive || !own_r, SK_ERR_INPUT,
           "%s: %s takes fixed steps (its tolerances do not control its error): give it a step "
           "ladder, bench.stepper.%s.steps",
           where, m->name, m->name);
  m->fixed = own_s || (!own_r && !adaptive);
  const char *key = own_r      ? rk
                    : own_s    ? sk
                    : m->fixed ? bench_key(BENCH_KEY_steps)
                               : bench_key(BENCH_KEY_rtols);
  SK_CALL(ctx, copy_list(ctx, o, key, &m->ladder, &m->nladder));
  sk_options_where(o, key, where, sizeof where);
  SK_CHECK(ctx, m->nladder > 0, SK_ERR_INPUT,
           "%s: %s is a fixed-step stepper and its step ladder is empty: give bench.steps (or "
           "bench.stepper.%s.steps), e.g. [1e-2, 5e-3, 2.5e-3]",
           where, m->name, m->name);
  m->atol_ratio = NAN;
  if (sk_options_is_key(o, ak) && sk_options_is_set(o, ak)) {
    SK_CALL(ctx, sk_options_get_real(o, ak, &m->atol_ratio));
  } else {
    bench_settings bs;
    SK_CALL(ctx, bench_settings_read(o, &bs, NULL));
    m->atol_ratio = bs.atol_ratio;
  }
  return SK_OK;
}

/* The measured times and components. */
static sk_status measured(bench_study *b)
{
  sk_context *ctx = b->ctx;
  const sk_options *o = b->base.opts;
  const int64_t n = sk_model_get_n(b->base.model);
  bench_settings bs;
  SK_CALL(ctx, bench_settings_read(o, &bs, NULL));
  b->final_only = !strcmp(bs.times, "final");
  b->nt = b->final_only ? 1 : b->base.ntimes;
  b->tidx = malloc(b->nt * sizeof *b->tidx);
  SK_CHECK(ctx, b->tidx != NULL, SK_ERR_NOMEM, "out of memory");
  for (size_t k = 0; k < b->nt; k++) {
    b->tidx[k] = b->final_only ? b->base.ntimes - 1 : k;
  }
  const int64_t *c = bs.components.v;
  const size_t nc = bs.components.n;
  b->ncomp = nc ? nc : (size_t)n;
  b->comps = malloc(b->ncomp * sizeof *b->comps);
  SK_CHECK(ctx, b->comps != NULL, SK_ERR_NOMEM, "out of memory");
  char where[384];
  sk_options_where(o, bench_key(BENCH_KEY_components), where, sizeof where);
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
  bench_settings bs;
  SK_CALL(ctx, bench_settings_read(o, &bs, NULL));
  const char *list = bs.methods;
  char where[384];
  sk_options_where(o, bench_key(BENCH_KEY_methods), where, sizeof where);
  for (const char *p = list; *p;) {
    p += strspn(p, " ,\t");
    const size_t len = strcspn(p, " ,\t");
    if (len) {
      SK_CALL(ctx, add_method(b, p, len, where));
    }
    p += len;
  }
  const struct bench_keys *keys = b->base.bench_keys;
  for (size_t k = 0; k < bench_keys_count(keys); k++) { /* steppers named by settings alone */
    size_t len;
    const char *name = bench_keys_stepper(keys, k, &len);
    sk_options_where(o, bench_keys_name(keys, k), where, sizeof where);
    SK_CALL(ctx, add_method(b, name, len, where));
  }
  SK_CHECK(ctx, b->nm > 0, SK_ERR_INPUT,
           "bench.methods: no steppers to compare: name them, e.g. bench.methods: "
           "\"cvode-bdf, rk45\" (`stiffkit info` lists the types)");
  b->repeats = bs.repeats;
  b->rms = !strcmp(bs.error, "rms");
  b->target = bs.target_error;
  b->hdf5 = bs.hdf5;
  b->plot = bs.plot;
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

/* src/cli/sweep_dir.c: the sweep directory: manifest (sweep.yaml), case paths and ids, the definition hash */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_write.h"
#include "cli/atomic_file.h"
#include "cli/cli.h"
#include "cli/sweep_dir.h"
#include "core/error.h"
#include "io/checkpoint.h"
#include "stiffkit/provenance.h"

int sweep_id_width(size_t n)
{
  int w = 1;
  for (size_t last = n > 0 ? n - 1 : 0; last >= 10; last /= 10) {
    w++;
  }
  return w < 4 ? 4 : w;
}

int sweep_case_path(char *buf, size_t cap, const char *dir, int width, size_t index,
                    const char *file)
{
  const int n = snprintf(buf, cap, "%s/cases/%0*zu%s%s", dir, width, index, file ? "/" : "",
                         file ? file : "");
  return n >= 0 && (size_t)n < cap ? 0 : -1;
}

/* Hash a file's bytes into *h; returns 0, or -1 when it cannot be read. */
static int hash_file(const char *path, uint64_t *h)
{
  FILE *f = fopen(path, "rb");
  if (!f) {
    return -1;
  }
  unsigned char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
    *h = sk__fnv1a64(*h, buf, n);
  }
  const int bad = ferror(f);
  fclose(f);
  return bad ? -1 : 0;
}

/* Hash a text and a separator that no text holds. */
static uint64_t hash_text(uint64_t h, const char *t)
{
  return sk__fnv1a64(sk__fnv1a64(h, t, strlen(t)), "\x1f", 1);
}

sk_status sweep_definition_hash(sk_context *ctx, const sweep_spec *s, const sweep_cases *c,
                                char out[32])
{
  uint64_t h = hash_text(SK__FNV1A64_INIT, SWEEP_FORMAT);
  if (s->base) {
    SK_CHECK(ctx, hash_file(s->base, &h) == 0, SK_ERR_MISSING,
             "cannot read the base config '%s': %s", s->base, strerror(errno));
  } else {
    h = hash_text(h, "embedded");
  }
  for (size_t k = 0; k < s->nsets; k++) {
    h = hash_text(h, s->sets[k].key);
    for (size_t i = 0; i < s->sets[k].nitems; i++) {
      h = hash_text(h, s->sets[k].items[i].text);
    }
    h = hash_text(h, s->sets[k].is_list ? "list" : "value");
  }
  for (size_t j = 0; j < c->nkeys; j++) {
    h = hash_text(h, c->keys[j]);
  }
  for (size_t i = 0; i < c->ncases * c->nkeys; i++) {
    h = hash_text(h, c->values[i]);
  }
  snprintf(out, 32, "fnv1a64:%016llx", (unsigned long long)h);
  return SK_OK;
}

/* ---- writing -------------------------------------------------------------- */

/* s as a YAML double-quoted scalar; *oom is set when it cannot be formatted. */
static void put_string(FILE *f, const char *s, int *oom)
{
  const size_t n = sk__yaml_quote(NULL, 0, s);
  char *q = malloc(n + 1);
  if (!q) {
    *oom = 1;
    return;
  }
  sk__yaml_quote(q, n + 1, s);
  fputs(q, f);
  free(q);
}

static void put_list(FILE *f, char *const *items, size_t n, int *oom)
{
  fputc('[', f);
  for (size_t i = 0; i < n; i++) {
    fputs(i ? ", " : "", f);
    put_string(f, items[i], oom);
  }
  fputc(']', f);
}

int sweep_manifest_write(const char *dir, const sweep_manifest *m)
{
  char path[SWEEP_PATH];
  snprintf(path, sizeof path, "%s/%s", dir, SWEEP_MANIFEST);
  cli_atomic_file af;
  const int code = cli_atomic_open(&af, path);
  if (code != 0) {
    return code;
  }
  FILE *f = af.f;
  int oom = 0;
  fprintf(
      f,
      "# %s: manifest of a parameter sweep, written by `stiffkit sweep` and read by its case\n"
      "# runner and `stiffkit collect` (do not edit; the format is in data/sweeps/README.md)\n",
      path);
  fprintf(f, "format: \"%s\"\nhash: \"%s\"\nsource: ", SWEEP_FORMAT, m->hash);
  put_string(f, m->source, &oom);
  fputs("\nworkdir: ", f);
  put_string(f, m->workdir, &oom);
  fputs("\ndir: ", f);
  put_string(f, m->dir, &oom);
  fprintf(f, "\nid_width: %d\nkeys: ", m->id_width);
  put_list(f, m->cases.keys, m->cases.nkeys, &oom);
  fputs("\ncollect:\n  probes: ", f);
  put_list(f, m->collect.probes, m->collect.nprobes, &oom);
  fputs("\n  times: [", f);
  for (size_t i = 0; i < m->collect.ntimes; i++) {
    fprintf(f, "%s%.17g", i ? ", " : "", m->collect.times[i]);
  }
  const sweep_slurm *o = &m->slurm;
  fputs("]\nslurm:\n  partition: ", f);
  put_string(f, o->partition, &oom);
  fputs("\n  account: ", f);
  put_string(f, o->account, &oom);
  fputs("\n  time: ", f);
  put_string(f, o->time, &oom);
  fputs("\n  mem: ", f);
  put_string(f, o->mem, &oom);
  fprintf(
      f,
      "\n  max_parallel: %lld\n  signal_seconds: %lld\n  ntasks: %lld\n  cpus_per_task: %lld\n"
      "  requeue: %s\n  max_attempts: %lld\ncases:\n",
      (long long)o->max_parallel, (long long)o->signal_seconds, (long long)o->ntasks,
      (long long)o->cpus_per_task, o->requeue ? "true" : "false", (long long)o->max_attempts);
  for (size_t i = 0; i < m->cases.ncases; i++) {
    fprintf(f, "  - {id: \"%0*zu\", prefix: ", m->id_width, i);
    put_string(f, m->prefixes[i], &oom);
    fputs(", values: ", f);
    put_list(f, m->cases.values + i * m->cases.nkeys, m->cases.nkeys, &oom);
    fputs("}\n", f);
  }
  if (oom) {
    cli_atomic_abort(&af);
    fprintf(stderr, "stiffkit: error: out of memory writing '%s'\n", path);
    return SK_EXIT_INTERNAL;
  }
  return cli_atomic_commit(&af);
}

/* ---- reading -------------------------------------------------------------- */

static sk_status text_key(cli_yaml *y, const yaml_node_t *root, const char *key, char **out)
{
  const yaml_node_t *v = cli_yaml_get(y, root, key);
  const char *t = cli_yaml_text(v);
  if (!t) {
    return cli_yaml_error(y, v, SK_ERR_INPUT, "not a sweep manifest: '%s' is missing", key);
  }
  *out = strdup(t);
  SK_CHECK(y->ctx, *out != NULL, SK_ERR_NOMEM, "out of memory");
  return SK_OK;
}

/* A sequence of texts into a new array of n strings. */
static sk_status text_list(cli_yaml *y, const yaml_node_t *seq, const char *what, char **out,
                           size_t n)
{
  if (!seq || seq->type != YAML_SEQUENCE_NODE || cli_yaml_count(seq) != n) {
    return cli_yaml_error(y, seq, SK_ERR_INPUT, "%s: expected a list of %zu values", what, n);
  }
  for (size_t i = 0; i < n; i++) {
    const char *t = cli_yaml_text(cli_yaml_item(y, seq, i));
    if (!t) {
      return cli_yaml_error(y, cli_yaml_item(y, seq, i), SK_ERR_INPUT, "%s: expected texts",
                            what);
    }
    out[i] = strdup(t);
    SK_CHECK(y->ctx, out[i] != NULL, SK_ERR_NOMEM, "out of memory");
  }
  return SK_OK;
}

static sk_status read_cases(cli_yaml *y, const yaml_node_t *root, sweep_manifest *m)
{
  const yaml_node_t *keys = cli_yaml_get(y, root, "keys");
  const yaml_node_t *cases = cli_yaml_get(y, root, "cases");
  if (!keys || !cases || keys->type != YAML_SEQUENCE_NODE || cases->type != YAML_SEQUENCE_NODE) {
    return cli_yaml_error(y, NULL, SK_ERR_INPUT, "not a sweep manifest: no keys or cases");
  }
  sweep_cases *c = &m->cases;
  c->nkeys = cli_yaml_count(keys);
  c->ncases = cli_yaml_count(cases);
  c->keys = calloc(c->nkeys ? c->nkeys : 1, sizeof *c->keys);
  c->values = calloc(c->ncases * c->nkeys > 0 ? c->ncases * c->nkeys : 1, sizeof *c->values);
  m->prefixes = calloc(c->ncases ? c->ncases : 1, sizeof *m->prefixes);
  SK_CHECK(y->ctx, c->keys && c->values && m->prefixes, SK_ERR_NOMEM, "out of memory");
  SK_CALL(y->ctx, text_list(y, keys, "keys", c->keys, c->nkeys));
  for (size_t i = 0; i < c->ncases; i++) {
    const yaml_node_t *e = cli_yaml_item(y, cases, i);
    const char *prefix = cli_yaml_text(cli_yaml_get(y, e, "prefix"));
    if (!prefix) {
      return cli_yaml_error(y, e, SK_ERR_INPUT, "case %zu: no prefix", i);
    }
    m->prefixes[i] = strdup(prefix);
    SK_CHECK(y->ctx, m->prefixes[i] != NULL, SK_ERR_NOMEM, "out of memory");
    SK_CALL(y->ctx, text_list(y, cli_yaml_get(y, e, "values"), "values", c->values + i * c->nkeys,
                              c->nkeys));
  }
  return SK_OK;
}

static sk_status read_manifest(cli_yaml *y, sweep_manifest *m)
{
  const yaml_node_t *root = cli_yaml_root(y);
  const char *format = cli_yaml_text(cli_yaml_get(y, root, "format"));
  if (!format || strcmp(format, SWEEP_FORMAT) != 0) {
    return cli_yaml_error(y, NULL, SK_ERR_INPUT, "not a sweep manifest of format %s",
                          SWEEP_FORMAT);
  }
  SK_CALL(y->ctx, text_key(y, root, "hash", &m->hash));
  SK_CALL(y->ctx, text_key(y, root, "source", &m->source));
  SK_CALL(y->ctx, text_key(y, root, "workdir", &m->workdir));
  SK_CALL(y->ctx, text_key(y, root, "dir", &m->dir));
  int64_t width;
  SK_CALL(y->ctx, cli_yaml_int(y, cli_yaml_get(y, root, "id_width"), "id_width", 1, 20, &width));
  m->id_width = (int)width;
  SK_CALL(y->ctx, read_cases(y, root, m));
  SK_CALL(y->ctx, sweep_collect_parse(y, cli_yaml_get(y, root, "collect"), &m->collect));
  SK_CALL(y->ctx, sweep_slurm_parse(y, cli_yaml_get(y, root, "slurm"), &m->slurm));
  return SK_OK;
}

sk_status sweep_manifest_read(sk_context *ctx, const char *dir, sweep_manifest *m)
{
  memset(m, 0, sizeof *m);
  char path[SWEEP_PATH];
  snprintf(path, sizeof path, "%s/%s", dir, SWEEP_MANIFEST);
  FILE *probe = fopen(path, "r");
  if (!probe) {
    return SK_ERROR(ctx, errno == ENOENT ? SK_ERR_MISSING : SK_ERR_IO,
                    "'%s' holds no sweep (cannot open %s: %s)", dir, path, strerror(errno));
  }
  fclose(probe);
  cli_yaml y;
  sk_status st = cli_yaml_load(ctx, path, &y);
  if (st == SK_OK) {
    st = read_manifest(&y, m);
  }
  cli_yaml_free(&y);
  return st;
}

void sweep_strings_free(char **v, size_t n)
{
  for (size_t i = 0; v && i < n; i++) {
    free(v[i]);
  }
  free(v);
}

void sweep_manifest_free(sweep_manifest *m)
{
  sweep_strings_free(m->prefixes, m->cases.ncases);
  free(m->hash);
  free(m->source);
  free(m->workdir);
  free(m->dir);
  sweep_cases_free(&m->cases);
  sweep_collect_free(&m->collect);
  memset(m, 0, sizeof *m);
}

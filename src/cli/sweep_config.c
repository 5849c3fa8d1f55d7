/* src/cli/sweep_config.c: the resolved config of a sweep case: base config, the sweep's set, the case's values, its output directory */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/sweep_dir.h"
#include "core/error.h"
#include "cli/output_keys.h"
#include "steppers/stepper_keys.h"

/* One `set` entry: a value or a list, located in the sweep file. */
static sk_status apply_setting(sk_context *ctx, sk_options *opts, const sweep_spec *s,
                               const sweep_setting *e)
{
  const sk_option_origin ko = {s->path, e->line, e->column, 0};
  const sk_option_origin vo = {s->path, e->items && e->nitems ? e->items[0].line : e->line,
                               e->items && e->nitems ? e->items[0].column : e->column, 0};
  if (!e->is_list) {
    return sweep_set_value(opts, e->key, e->items[0].text, &ko, &vo);
  }
  if (!sk_options_is_key(opts, e->key) && !sk_options_is_deferred(opts, e->key)) {
    return sweep_set_value(opts, e->key, "", &ko, &vo); /* the unknown-key message */
  }
  const char **items = calloc(e->nitems ? e->nitems : 1, sizeof *items);
  SK_CHECK(ctx, items != NULL, SK_ERR_NOMEM, "out of memory");
  for (size_t i = 0; i < e->nitems; i++) {
    items[i] = e->items[i].text;
  }
  const sk_status st = sk_options_set_list(opts, e->key, items, e->nitems, &vo);
  free(items);
  return st;
}

sk_status sweep_config_job(sk_context *ctx, const sweep_spec *s, cli_job *job)
{
  SK_CALL(ctx, cli_job_options(ctx, job));
  SK_CALL(ctx, cli_job_load(ctx, job, s->base, NULL, 0));
  for (size_t k = 0; k < s->nsets; k++) {
    SK_CALL(ctx, apply_setting(ctx, job->opts, s, &s->sets[k]));
  }
  return SK_OK;
}

/* The effective options with every key no source set turned into a comment. */
static char *set_keys_only(const sk_options *opts, const char *effective)
{
  char *out = malloc(2 * strlen(effective) + 1);
  if (!out) {
    return NULL;
  }
  size_t n = 0;
  for (const char *line = effective; *line;) {
    const char *nl = strchr(line, '\n');
    const size_t len = nl ? (size_t)(nl - line) + 1 : strlen(line);
    const char *colon = memchr(line, ':', len);
    char key[256] = "";
    if (line[0] != '#' && colon && (size_t)(colon - line) < sizeof key) {
      memcpy(key, line, (size_t)(colon - line));
      key[colon - line] = '\0';
    }
    if (key[0] && !sk_options_is_set(opts, key)) {
      memcpy(out + n, "# ", 2);
      n += 2;
    }
    memcpy(out + n, line, len);
    n += len;
    line += len;
  }
  out[n] = '\0';
  return out;
}

/* The header comment: what the case is and how to rerun it. */
static char *header(const sweep_spec *s, const sweep_cases *c, size_t index, const char *out_dir)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) {
    return NULL;
  }
  fprintf(f, "# %s/config.yaml: case %zu of the sweep %s:", out_dir, index, s->path);
  for (size_t j = 0; j < c->nkeys; j++) {
    fprintf(f, " %s=", c->keys[j]);
    for (const char *p = c->values[index * c->nkeys + j]; *p; p++) {
      fputc((unsigned char)*p < 0x20 ? '?' : *p, f);
    }
  }
  fprintf(f,
          "\n# the base config, the sweep's set and these values, resolved; keys left at their\n"
          "# defaults are comments. Rerun it alone (from the sweep's working directory, workdir\n"
          "# in its sweep.yaml, when relative paths in it matter):\n"
          "#   stiffkit run %s/config.yaml\n",
          out_dir);
  fclose(f);
  return buf;
}

/* 1 when the case names plugins (solver.plugin, or a model plugin of type mtype, which may
 * register types too): their types' names are checked by the case's own run, in its own
 * process, since another case may name another build of the same plugin */
static int names_plugins(const sk_options *opts, const sk_model_type *mtype)
{
  const char *plugins = "";
  (void)sk_options_get_string(opts, sk__stepper_key(SK__STEPPER_KEY_plugin), &plugins);
  return (plugins && plugins[0]) || (mtype && (mtype->flags & SK_MODEL_TYPE_DECLARES_KEYS));
}

sk_status sweep_config_text(sk_context *ctx, const sweep_spec *s, const sweep_cases *c,
                            size_t index, const char *out_dir, char **text, char **prefix)
{
  *text = *prefix = NULL;
  cli_job job;
  cli_job_init(&job);
  sk_status st = sweep_config_job(ctx, s, &job);
  for (size_t j = 0; st == SK_OK && j < c->nkeys; j++) {
    st = sweep_set_value(job.opts, c->keys[j], c->values[index * c->nkeys + j],
                         &c->key_origins[j], &c->origins[index * c->nkeys + j]);
  }
  const sk_option_origin here = {s->path, 0, 0, 0};
  if (st == SK_OK) {
    st = sk_options_set(job.opts, cli_output_key(CLI_OUTPUT_KEY_dir), out_dir, &here);
  }
  const sk_model_type *mtype = NULL; /* NULL: model.type names no type, refused by the run */
  if (st == SK_OK && sk_model_type_from_options(ctx, job.opts, &mtype) != SK_OK) {
    mtype = NULL;
  }
  /* the solver, linear solver and preconditioner names: a typo stops the sweep before any
     case runs */
  if (st == SK_OK && !names_plugins(job.opts, mtype)) {
    st = sk_stepper_check_names(ctx, job.opts);
  }
  if (st == SK_OK && sk_options_pending_key(job.opts, 0) && mtype &&
      (mtype->flags & SK_MODEL_TYPE_DECLARES_KEYS)) {
    /* a model plugin declares its parameters: loading it registers them (and checks the
       values given so far), so that they are written with the other keys */
    st = sk_model_from_options(ctx, job.opts, &job.model);
  }
  const char *pending = st == SK_OK ? sk_options_pending_key(job.opts, 0) : NULL;
  if (pending) {
    st = SK_ERROR(ctx, SK_ERR_UNSUPPORTED,
                  "%s: '%s' belongs to a boundary-value problem (or a model plugin of another "
                  "model.type), whose keys a sweep cannot write into a resolved config",
                  s->path, pending);
  }
  const char *pfx = NULL;
  cli_output_settings out;
  if (st == SK_OK) {
    st = cli_output_settings_read(job.opts, &out, NULL);
    pfx = out.prefix;
  }
  if (st == SK_OK) {
    char *effective = sk_options_effective_string(job.opts);
    char *body = effective ? set_keys_only(job.opts, effective) : NULL;
    char *head = header(s, c, index, out_dir);
    *text = body && head ? malloc(strlen(head) + strlen(body) + 1) : NULL;
    *prefix = strdup(pfx);
    if (*text) {
      strcpy(*text, head);
      strcat(*text, body);
    }
    free(effective);
    free(body);
    free(head);
    if (!*text || !*prefix) {
      free(*text);
      free(*prefix);
      *text = *prefix = NULL;
      st = SK_ERROR(ctx, SK_ERR_NOMEM, "out of memory");
    }
  }
  cli_job_free(&job);
  return st;
}

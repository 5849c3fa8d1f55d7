/* src/cli/bench_write.c: the outputs of `stiffkit bench`: the table as CSV (and HDF5 through its module), the JSON study, the PNG diagram and the provenance sidecar, written last */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/atomic_file.h"
#include "cli/bench.h"
#include "cli/cli.h"
#include "cli/collect.h"
#include "cli/json_out.h"
#include "cli/plot_script.h"
#include "io/hdf5_module.h"
#include "stiffkit/provenance.h"

/* The table's columns: text (T) or number (N), and their HDF5 group. */
static const struct {
  const char *name;
  collect_kind kind;
  const char *group;
} columns[] = {
    {"method", COLLECT_TEXT, ""},
    {"kind", COLLECT_TEXT, ""},
    {"param", COLLECT_NUMBER, ""},
    {"atol", COLLECT_NUMBER, ""},
    {"status", COLLECT_TEXT, ""},
    {"error", COLLECT_NUMBER, ""},
    {"scd", COLLECT_NUMBER, ""},
    {"wall_median", COLLECT_NUMBER, ""},
    {"wall_min", COLLECT_NUMBER, ""},
    {"wall_max", COLLECT_NUMBER, ""},
    {"repeats", COLLECT_NUMBER, ""},
    {"steps", COLLECT_NUMBER, "statistics"},
    {"failed_steps", COLLECT_NUMBER, "statistics"},
    {"rhs_evals", COLLECT_NUMBER, "statistics"},
    {"jac_evals", COLLECT_NUMBER, "statistics"},
    {"lin_setups", COLLECT_NUMBER, "statistics"},
    {"factorizations", COLLECT_NUMBER, "statistics"},
    {"newton_iters", COLLECT_NUMBER, "statistics"},
    {"lin_iters", COLLECT_NUMBER, "statistics"},
    {"message", COLLECT_TEXT, ""},
};
enum { NCOLS = sizeof columns / sizeof columns[0], FIRST_STAT = 11 };

static const char *kind_of(const bench_method *m)
{
  return m->external ? "external" : m->fixed ? "h" : "rtol";
}

/* The counter of column c (FIRST_STAT on) of a row, NAN when unknown. */
static double counter(const bench_row *r, size_t c)
{
  const int64_t v[] = {r->stats.steps,        r->stats.failed_steps, r->stats.rhs_evals,
                       r->stats.jac_evals,    r->stats.lin_setups,   r->stats.factorizations,
                       r->stats.newton_iters, r->stats.lin_iters};
  if (r->have_stats == 0 || (r->have_stats == 2 && c != FIRST_STAT + 2)) {
    return NAN;
  }
  return (double)v[c - FIRST_STAT];
}

/* The study's rows as a collect table (the CSV and HDF5 writers of collect). */
static int build_table(const bench_study *b, collect_table *t)
{
  memset(t, 0, sizeof *t);
  t->format = "stiffkit-bench/1";
  t->nrows = b->nrows;
  t->ncols = NCOLS;
  t->cols = calloc(NCOLS, sizeof *t->cols);
  t->text = calloc(b->nrows * NCOLS + 1, sizeof *t->text);
  t->num = calloc(b->nrows * NCOLS + 1, sizeof *t->num);
  if (!t->cols || !t->text || !t->num) {
    return -1;
  }
  t->first_output = t->first_stat = FIRST_STAT;
  for (size_t c = 0; c < NCOLS; c++) {
    t->cols[c] = (collect_column){strdup(columns[c].name), columns[c].group, columns[c].kind};
    if (!t->cols[c].name) {
      return -1;
    }
  }
  for (size_t i = 0; i < b->nrows; i++) {
    const bench_row *r = &b->rows[i];
    const bench_method *m = &b->m[r->method];
    const double nums[] = {NAN,    NAN,         r->param,    r->atol,     NAN,       r->err,
                           r->scd, r->wall_med, r->wall_min, r->wall_max, r->repeats};
    char **text = t->text + i * NCOLS;
    double *num = t->num + i * NCOLS;
    for (size_t c = 0; c < NCOLS; c++) {
      num[c] = c < FIRST_STAT ? nums[c] : c + 1 < NCOLS ? counter(r, c) : NAN;
    }
    text[0] = strdup(m->name);
    text[1] = strdup(kind_of(m));
    text[4] = strdup(r->ok ? "ok" : "failed");
    text[NCOLS - 1] = strdup(r->message);
    if (!text[0] || !text[1] || !text[4] || !text[NCOLS - 1]) {
      return -1;
    }
  }
  return 0;
}

static void json_key(FILE *f, const char *key)
{
  sk__json_string(f, key);
  fputs(": ", f);
}

static void write_reference(FILE *f, const bench_study *b)
{
  const bench_reference *R = &b->reference;
  fputs("\"reference\": {", f);
  json_key(f, "kind");
  sk__json_string(f, R->kind);
  fputs(", ", f);
  json_key(f, "method");
  sk__json_string(f, R->method);
  cli_json_key_number(f, "rtol", R->kind[0] == 'c' ? R->rtol : NAN);
  cli_json_key_number(f, "atol", R->kind[0] == 'c' ? R->atol : NAN);
  fputs(", ", f);
  json_key(f, "check_method");
  sk__json_string(f, R->check_method);
  cli_json_key_number(f, "diff_second_tolerance", R->d_tol);
  cli_json_key_number(f, "diff_check_method", R->d_check);
  cli_json_key_number(f, "accuracy", R->accuracy);
  cli_json_key_number(f, "wall_time", R->wall);
  fputs(", ", f);
  json_key(f, "note");
  sk__json_string(f, R->note);
  fputs("}", f);
}

static void write_row(FILE *f, const bench_study *b, const bench_row *r)
{
  fputs("{", f);
  json_key(f, "method");
  sk__json_string(f, b->m[r->method].name);
  fputs(", ", f);
  json_key(f, "kind");
  sk__json_string(f, kind_of(&b->m[r->method]));
  cli_json_key_number(f, "param", r->param);
  cli_json_key_number(f, "atol", r->atol);
  fputs(", ", f);
  json_key(f, "status");
  sk__json_string(f, r->ok ? "ok" : "failed");
  cli_json_key_number(f, "error", r->err);
  cli_json_key_number(f, "scd", r->scd);
  cli_json_key_number(f, "wall_median", r->wall_med);
  cli_json_key_number(f, "wall_min", r->wall_min);
  cli_json_key_number(f, "wall_max", r->wall_max);
  cli_json_key_number(f, "repeats", r->repeats);
  for (size_t c = FIRST_STAT; c + 1 < NCOLS; c++) {
    cli_json_key_number(f, columns[c].name, counter(r, c));
  }
  fputs(", ", f);
  json_key(f, "message");
  sk__json_string(f, r->message);
  fputs("}", f);
}

/* Per method, the point of the side-by-side report. */
static void write_methods(FILE *f, const bench_study *b, double target)
{
  double fastest = INFINITY;
  for (int k = 0; k < b->nm; k++) {
    const bench_row *r = bench_best_at(b, k, target);
    fastest = r ? fmin(fastest, r->wall_med) : fastest;
  }
  fputs("\"methods\": [", f);
  for (int k = 0; k < b->nm; k++) {
    const bench_row *r = bench_best_at(b, k, target);
    fprintf(f, "%s{", k ? ", " : "");
    json_key(f, "name");
    sk__json_string(f, b->m[k].name);
    fputs(", ", f);
    json_key(f, "kind");
    sk__json_string(f, kind_of(&b->m[k]));
    fputs(", \"at_target\": ", f);
    if (!r) {
      fputs("null}", f);
      continue;
    }
    fputs("{", f);
    json_key(f, "param");
    sk__json_number(f, r->param);
    cli_json_key_number(f, "error", r->err);
    cli_json_key_number(f, "wall_median", r->wall_med);
    cli_json_key_number(f, "rhs_evals", counter(r, FIRST_STAT + 2));
    cli_json_key_number(f, "ratio_to_fastest", r->wall_med / fastest);
    fputs("}}", f);
  }
  fputs("]", f);
}

static void write_json(FILE *f, const bench_study *b)
{
  const cli_job *job = &b->base;
  const int64_t n = sk_model_get_n(job->model);
  const double target = bench_target(b);
  fputs("{\"format\": \"stiffkit-bench/1\", ", f);
  json_key(f, "status");
  sk__json_string(f, b->interrupted ? "interrupted" : "complete");
  fputs(", \"problem\": {", f);
  json_key(f, "model");
  sk__json_string(f, sk_model_get_name(job->model));
  fprintf(f, ", \"n\": %lld, \"kind\": \"%s\"", (long long)n,
          sk_model_get_kind(job->model) == SK_MODEL_DAE ? "dae" : "ode");
  cli_json_key_number(f, "t0", job->t0);
  fputs(", \"times\": [", f);
  for (size_t k = 0; k < b->nt; k++) {
    fputs(k ? ", " : "", f);
    sk__json_number(f, job->times[b->tidx[k]]);
  }
  fprintf(f, "]}, \"error\": {\"measure\": \"%s\", \"times\": \"%s\", \"components\": [",
          b->rms ? "rms" : "max", b->final_only ? "final" : "all");
  for (size_t i = 0; i < b->ncomp; i++) {
    fprintf(f, "%s%lld", i ? ", " : "", (long long)b->comps[i]);
  }
  fputs("]}, ", f);
  write_reference(f, b);
  fputs(", ", f);
  json_key(f, "target_error");
  sk__json_number(f, target);
  fputs(", ", f);
  write_methods(f, b, target);
  fputs(", \"rows\": [", f);
  for (size_t r = 0; r < b->nrows; r++) {
    fputs(r ? ",\n  " : "\n  ", f);
    write_row(f, b, &b->rows[r]);
  }
  fputs("]}\n", f);
}

/* The PNG from the JSON (scripts/plot_results.py --bench). The diagram is
 * optional: when it cannot be drawn (no python3, no matplotlib, the script
 * failed) a note says why and the study's tables stand. */
static void write_png(const char *json, const char *png, int quiet)
{
  char script[4096], tmp[4200];
  cli_plot_script_path("plot_results.py", script, sizeof script);
  if (access(SK__PLOT_PYTHON, X_OK) != 0 || access(script, R_OK) != 0) {
    fprintf(stderr, "stiffkit: note: %s is not available: no PNG written\n",
            access(SK__PLOT_PYTHON, X_OK) != 0 ? SK__PLOT_PYTHON : script);
    return;
  }
  snprintf(tmp, sizeof tmp, "%s.tmp.png", png);
  char *const args[] = {(char *)"python3", script, (char *)"--bench", (char *)json, tmp, NULL};
  const int code = cli_plot_run(args);
  if (code == 3 || code == 127) {
    remove(tmp);
    fprintf(stderr, "stiffkit: note: %s: no PNG written\n",
            code == 3 ? "python3-matplotlib is not installed" : "python3 could not be started");
    return;
  }
  if (code != 0 || rename(tmp, png) != 0) {
    remove(tmp);
    fprintf(stderr,
            "stiffkit: warning: the plot script %s failed (exit %d): no PNG written (the tables "
            "are complete)\n",
            script, code);
    return;
  }
  if (!quiet) {
    printf("  plot: %s (error vs wall time and vs RHS evaluations)\n", png);
  }
}

/* The sidecar: status, the files, the provenance (a top-level mapping). */
static int write_sidecar(bench_study *b, const char *path, char (*files)[4096], int nfiles,
                         int argc, char **argv)
{
  char *effective = sk_options_effective_string(b->base.opts);
  char *prov = sk_provenance_yaml(b->ctx, argc + 1, argv - 1, effective ? effective : "");
  free(effective);
  if (!prov) {
    fprintf(stderr, "stiffkit: error: out of memory writing '%s'\n", path);
    return SK_EXIT_OSERR;
  }
  cli_atomic_file af;
  int code = cli_atomic_open(&af, path);
  if (code == 0) {
    fprintf(af.f, "status: %s\nfiles:\n", b->interrupted ? "interrupted" : "complete");
    for (int k = 0; k < nfiles; k++) {
      fputs("  - ", af.f);
      sk__json_string(af.f, files[k]); /* a JSON string is a YAML double-quoted scalar */
      fputs("\n", af.f);
    }
    fputs(prov, af.f);
    code = cli_atomic_commit(&af);
  }
  free(prov);
  return code;
}

int bench_write_outputs(bench_study *b, const char *prefix, int argc, char **argv)
{
  enum { CSV, JSON, H5, PNG, SIDE, NPATH };
  static const char *const ext[NPATH] = {".bench.csv", ".bench.json", ".bench.h5", ".bench.png",
                                         ".bench.provenance.yaml"};
  char path[NPATH][4096];
  for (int k = 0; k < NPATH; k++) {
    snprintf(path[k], sizeof path[k], "%s%s", prefix, ext[k]);
  }
  const sk__hdf5_module *h5m = NULL;
  if (b->hdf5) { /* the module first: without it nothing is written */
    const sk_status st = sk__hdf5_module_open(b->ctx, "the HDF5 table of `stiffkit bench`", &h5m);
    if (st != SK_OK) {
      return cli_report(b->ctx, st);
    }
  }
  collect_table t;
  if (build_table(b, &t) != 0) {
    collect_table_free(&t);
    fprintf(stderr, "stiffkit: error: out of memory building the bench table\n");
    return SK_EXIT_OSERR;
  }
  cli_atomic_file csv, json;
  char h5tmp[4200] = "";
  int code = collect_write_csv(&csv, path[CSV], &t);
  if (code == 0) {
    code = cli_atomic_open(&json, path[JSON]);
    if (code != 0) {
      remove(csv.tmp);
    }
  }
  if (code == 0) {
    write_json(json.f, b);
    code = cli_atomic_finish(&json);
    if (code != 0) {
      remove(csv.tmp);
    }
  }
  if (code == 0 && h5m) {
    code = h5m->collect_write(path[H5], &t, h5tmp, sizeof h5tmp);
    if (code != 0) {
      remove(csv.tmp);
      remove(json.tmp);
    }
  }
  collect_table_free(&t);
  char files[NPATH][4096];
  int nfiles = 0;
  if (code == 0) { /* every table is complete: rename them into place */
    code = cli_atomic_rename(&csv);
    if (code == 0) {
      snprintf(files[nfiles++], sizeof files[0], "%s", path[CSV]);
      code = cli_atomic_rename(&json);
    } else {
      remove(json.tmp);
    }
    if (code == 0) {
      snprintf(files[nfiles++], sizeof files[0], "%s", path[JSON]);
    }
    if (code == 0 && h5m) {
      if (rename(h5tmp, path[H5]) != 0) {
        fprintf(stderr, "stiffkit: error: cannot write '%s': %s\n", path[H5], strerror(errno));
        code = SK_EXIT_IOERR;
      } else {
        snprintf(files[nfiles++], sizeof files[0], "%s", path[H5]);
      }
    }
    if (code != 0 && h5tmp[0]) {
      remove(h5tmp);
    }
  }
  if (code == 0 && b->plot) {
    write_png(path[JSON], path[PNG], b->quiet);
    if (access(path[PNG], F_OK) == 0) {
      snprintf(files[nfiles++], sizeof files[0], "%s", path[PNG]);
    }
  }
  if (code == 0) {
    code = write_sidecar(b, path[SIDE], files, nfiles, argc, argv);
  }
  cli_atomic_keep_all_or_none(code, files, &nfiles);
  if (code == 0 && !b->quiet) {
    for (int k = 0; k < nfiles; k++) {
      printf("  wrote %s\n", files[k]);
    }
    printf("  wrote %s\n", path[SIDE]);
  }
  return code;
}

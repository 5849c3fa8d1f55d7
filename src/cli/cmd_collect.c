/* src/cli/cmd_collect.c: `stiffkit collect DIR`: every case of a sweep in one table (CSV, HDF5, a readable summary), failures listed */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/collect.h"
#include "io/hdf5_module.h"

static const char help_text[] =
    "usage: stiffkit collect DIR [--output PREFIX] [--quiet]\n"
    "Gathers every case of the sweep in DIR (see `stiffkit sweep`) into PREFIX.csv and\n"
    "PREFIX.h5 (default PREFIX: DIR/collect), one row per case: id, status, exit code, wall\n"
    "time, attempts, the parameters, the chosen probes at the chosen times (collect: in the\n"
    "sweep file), the final norms, the statistics, the provenance hash (of what determines\n"
    "the case's numbers: versions and effective options) and the error message. Both files\n"
    "are written, or neither.\n"
    "Prints the table (unless --quiet) and lists the cases that are not ok on stderr.\n"
    "exit codes: 0 every case ok, 10 some case failed, was interrupted or never ran,\n"
    "            64 usage, 65 a chosen probe is not a column of a case's results,\n"
    "            66 DIR holds no sweep, 73 cannot create, 74 I/O error\n";

/* The columns of the readable table: the case, the parameters, the final norms. */
static int shown(const collect_table *t, size_t c)
{
  return (c < t->first_output && strcmp(t->cols[c].name, "attempts") != 0) ||
         !strcmp(t->cols[c].name, "max_abs_y") || !strcmp(t->cols[c].name, "max_abs_err");
}

/* A cell as the readable table shows it: outputs with 7 digits, wall time in seconds. */
static const char *shown_text(const collect_table *t, size_t r, size_t c, char *buf, size_t cap)
{
  const char *s = collect_cell_text(t, r, c, buf, cap);
  const double v = t->num[r * t->ncols + c];
  if (t->cols[c].kind == COLLECT_NUMBER && !t->text[r * t->ncols + c] && strcmp(s, "nan") != 0) {
    if (c >= t->first_output) {
      snprintf(buf, cap, "%.6e", v);
    } else if (!strcmp(t->cols[c].name, "wall_time")) {
      snprintf(buf, cap, "%.2f", v);
    }
    s = buf;
  }
  return s;
}

static void print_table(const collect_table *t)
{
  int width[512];
  const size_t ncols = t->ncols < 512 ? t->ncols : 512;
  for (size_t c = 0; c < ncols; c++) {
    width[c] = (int)strlen(t->cols[c].name);
    for (size_t r = 0; r < t->nrows && shown(t, c); r++) {
      char buf[64];
      const int w = (int)strlen(shown_text(t, r, c, buf, sizeof buf));
      width[c] = w > width[c] ? w : width[c];
    }
    width[c] = width[c] > 28 ? 28 : width[c];
  }
  for (size_t c = 0; c < ncols; c++) {
    if (shown(t, c)) {
      printf("%-*s  ", width[c], t->cols[c].name);
    }
  }
  printf("\n");
  for (size_t r = 0; r < t->nrows; r++) {
    for (size_t c = 0; c < ncols; c++) {
      char buf[64];
      if (shown(t, c)) {
        printf("%-*.*s  ", width[c], width[c], shown_text(t, r, c, buf, sizeof buf));
      }
    }
    printf("\n");
  }
}

/* List the cases that are not ok; returns how many. */
static size_t list_problems(const collect_table *t)
{
  size_t bad = 0;
  for (size_t r = 0; r < t->nrows; r++) {
    const char *id = t->text[r * t->ncols], *status = t->text[r * t->ncols + 1];
    const char *error = t->text[r * t->ncols + t->ncols - 1];
    if (!strcmp(status, "ok")) {
      continue;
    }
    bad++;
    if (!strcmp(status, "missing")) {
      fprintf(stderr, "stiffkit: case %s missing: never run (no status.json)\n", id);
    } else if (!strcmp(status, "running")) {
      fprintf(stderr,
              "stiffkit: case %s running (its runner is alive, or cannot be checked "
              "from here)\n",
              id);
    } else {
      fprintf(stderr, "stiffkit: case %s %s (exit %.0f)%s%s\n", id, status,
              t->num[r * t->ncols + 2], error[0] ? ": " : "", error);
    }
  }
  if (bad) {
    fprintf(stderr,
            "stiffkit: %zu of %zu cases are not ok (rerun them with `stiffkit sweep "
            "SWEEP.yaml`, failed ones alone with --only-failed)\n",
            bad, t->nrows);
  }
  return bad;
}

/* Both tables or neither: each is written under a temporary name, then both are renamed. */
static int write_tables(sk_context *ctx, const char *csv, const char *h5, const collect_table *t)
{
  /* the HDF5 module first: without it nothing is written */
  const sk__hdf5_module *h5m = NULL;
  sk_status st = sk__hdf5_module_open(ctx, "the HDF5 table of `stiffkit collect`", &h5m);
  if (st != SK_OK) {
    return cli_report(ctx, st);
  }
  cli_atomic_file af;
  char h5_tmp[SWEEP_PATH + 32];
  int code = collect_write_csv(&af, csv, t);
  if (code != 0) {
    return code;
  }
  code = h5m->collect_write(h5, t, h5_tmp, sizeof h5_tmp);
  if (code != 0) {
    remove(af.tmp);
    return code;
  }
  code = cli_atomic_rename(&af);
  if (code != 0) {
    remove(h5_tmp);
    return code;
  }
  if (rename(h5_tmp, h5) != 0) {
    fprintf(stderr, "stiffkit: error: cannot write '%s': %s\n", h5, strerror(errno));
    remove(h5_tmp);
    remove(csv); /* the new CSV alone would not match the HDF5 file left there */
    return SK_EXIT_IOERR;
  }
  return 0;
}

int cli_collect(int argc, char **argv)
{
  const char *dir = NULL, *prefix = NULL;
  int quiet = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      fputs(help_text, stdout);
      return SK_EXIT_OK;
    } else if (!strcmp(argv[i], "--quiet") || !strcmp(argv[i], "-q")) {
      quiet = 1;
    } else if (!strncmp(argv[i], "--output=", 9)) {
      prefix = argv[i] + 9;
    } else if (!strcmp(argv[i], "--output") && i + 1 < argc) {
      prefix = argv[++i];
    } else if (argv[i][0] == '-' || dir) {
      fprintf(stderr, "stiffkit: error: %s '%s' (see stiffkit collect --help)\n",
              argv[i][0] == '-' ? "unknown option or missing value" : "more than one directory",
              argv[i]);
      return SK_EXIT_USAGE;
    } else {
      dir = argv[i];
    }
  }
  if (!dir) {
    fprintf(stderr, "stiffkit: error: no sweep directory given (see stiffkit collect --help)\n");
    return SK_EXIT_USAGE;
  }
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK) {
    fprintf(stderr, "stiffkit: error: cannot create a context\n");
    return SK_EXIT_INTERNAL;
  }
  sweep_manifest m;
  collect_table t;
  memset(&t, 0, sizeof t);
  sk_status st = sweep_manifest_read(ctx, dir, &m);
  if (st == SK_OK) {
    st = collect_build(ctx, dir, &m, &t);
  }
  int code = st != SK_OK ? cli_report(ctx, st) : 0;
  char csv[SWEEP_PATH], h5[SWEEP_PATH];
  snprintf(csv, sizeof csv, "%s%s.csv", prefix ? prefix : dir, prefix ? "" : "/collect");
  snprintf(h5, sizeof h5, "%s%s.h5", prefix ? prefix : dir, prefix ? "" : "/collect");
  if (code == 0) {
    code = write_tables(ctx, csv, h5, &t);
  }
  if (code == 0) {
    if (!quiet) {
      print_table(&t);
    }
    printf("wrote %s and %s (%zu cases)\n", csv, h5, t.nrows);
    code = list_problems(&t) ? SK_EXIT_NUMERICAL : SK_EXIT_OK;
    if (fflush(stdout) != 0 || ferror(stdout)) {
      fprintf(stderr, "stiffkit: error: writing to standard output failed: %s\n",
              strerror(errno));
      code = SK_EXIT_IOERR;
    }
  }
  collect_table_free(&t);
  sweep_manifest_free(&m);
  sk_context_destroy(&ctx);
  return code;
}

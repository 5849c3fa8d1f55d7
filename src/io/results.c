/* src/io/results.c: result files front: temporary names, probes and norms, rename into place, partial files on failure */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "core/json_write.h"
#include "core/error.h"
#include "core/stop.h"
#include "io/provenance.h"
#include "io/results.h"
#include "io/journal.h"
#include "io/hdf5_module.h"
#include "io/results_impl.h"
#include "io/write_util.h"

enum { F_CSV = 0, F_H5 = 1, F_SIDE = 2, F_SERIES = 3, F_COUNT = 3 + SK_RESULTS_MAX_SERIES };

/* where a file is */
enum { AT_NONE = 0, AT_TMP, AT_FINAL, AT_PARTIAL };

/* life of the object */
enum {
  PH_OPEN = 0, /* writing rows */
  PH_BROKEN,   /* a write or finish failed: only fail/destroy */
  PH_DONE,     /* finished: files under their final names */
  PH_FAILED    /* fail done: files under the partial names */
};

typedef struct {
  char *final, *tmp, *partial;
  int at;
} rfile;

struct sk_results {
  sk_context *ctx;
  int phase;
  int csv, hdf5, write_states, has_exact;
  char axis[16]; /* CSV name of the abscissa */
  int64_t n;
  size_t nprobes;
  int64_t *probes;
  char **probe_names;
  size_t nnorms;
  size_t ncols; /* t + probes + norms */
  double *row;  /* ncols values */
  int64_t nrows;
  double last_t;
  int have_grid;
  char *dir;
  rfile f[F_COUNT];
  sk__csv_writer *cw;
  const sk__hdf5_module *h5; /* the HDF5 module, loaded when hdf5 is set */
  sk__h5_writer *hw;
  /* extra series (sk_results_add_series): their CSV files are f[F_SERIES + k] */
  int nseries;
  sk__csv_writer *scw[SK_RESULTS_MAX_SERIES];
  size_t sncols[SK_RESULTS_MAX_SERIES];
  char series_names[SK_RESULTS_MAX_SERIES][32];
  double *srow[SK_RESULTS_MAX_SERIES];
  int64_t snrows[SK_RESULTS_MAX_SERIES];
  double slast_t[SK_RESULTS_MAX_SERIES];
  size_t snblk[SK_RESULTS_MAX_SERIES];    /* full-length blocks (sk_results_series_blocks) */
  int64_t sblklen[SK_RESULTS_MAX_SERIES]; /* values per block */
  char *prefix_path;                      /* "<dir>/<prefix>" */
  sk__results_commit_fn commit_fn;        /* called before the last rename of finish */
  void *commit_data;
  /* every row written, for checkpoints: [0] the main rows (t, probes,
     norms: the states of write_states stay in the HDF5 file alone, read back
     by sk__results_read_tail), [1 + k] series k (t, values, blocks) */
  sk__journal journal[1 + SK_RESULTS_MAX_SERIES];
};

static const char *const norm_names[4] = {"max_abs_y", "rms_y", "max_abs_err", "rms_err"};

/* ---- helpers ------------------------------------------------------------ */

static char *str_printf(sk_context *ctx, const char *fmt, ...) SK__PRINTF(2, 3);
static char *str_printf(sk_context *ctx, const char *fmt, ...)
{
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int k = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *s = k >= 0 ? sk__malloc(ctx, (size_t)k + 1) : NULL;
  if (s) {
    vsnprintf(s, (size_t)k + 1, fmt, ap2);
  }
  va_end(ap2);
  return s;
}

/* Create the temporary file of f (exclusive; a stale file of a dead process
 * with the same pid is replaced). Returns the descriptor through *fd. */
static sk_status create_tmp(sk_context *ctx, rfile *f, sk_status code, int *fd)
{
  *fd = open(f->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (*fd < 0 && errno == EEXIST && unlink(f->tmp) == 0) {
    *fd = open(f->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  }
  if (*fd < 0) {
    return SK_ERROR(ctx, code, "cannot create output file '%s': %s", f->final, strerror(errno));
  }
  f->at = AT_TMP;
  return SK_OK;
}

static sk_status rename_file(sk_context *ctx, rfile *f, int to)
{
  const char *from = f->at == AT_TMP ? f->tmp : f->at == AT_FINAL ? f->final : f->partial;
  const char *dest = to == AT_TMP ? f->tmp : to == AT_FINAL ? f->final : f->partial;
  if (rename(from, dest) != 0) {
    return SK_ERROR(ctx, SK_ERR_IO, "cannot rename '%s' to '%s': %s", from, dest,
                    strerror(errno));
  }
  f->at = to;
  return SK_OK;
}

static void remove_tmp_files(sk_results *r)
{
  for (int k = 0; k < F_COUNT; k++) {
    if (r->f[k].at == AT_TMP && r->f[k].tmp) {
      unlink(r->f[k].tmp);
      r->f[k].at = AT_NONE;
    }
  }
}

static int is_single_line(const char *s, size_t *len)
{
  size_t k = strlen(s);
  while (k > 0 && (s[k - 1] == '\n' || s[k - 1] == '\r' || s[k - 1] == ' ' || s[k - 1] == '\t')) {
    k--;
  }
  *len = k;
  return memchr(s, '\n', k) == NULL && memchr(s, '\r', k) == NULL;
}

/* fputs of s as a YAML double-quoted scalar. Returns 0 or EOF (*oom set
 * when the quoted copy could not be allocated). */
static int put_quoted(sk_context *ctx, FILE *fp, const char *s, int *oom)
{
  size_t k = sk__yaml_quote(NULL, 0, s);
  char *q = sk__malloc(ctx, k + 1);
  if (!q) {
    *oom = 1;
    return EOF;
  }
  sk__yaml_quote(q, k + 1, s);
  int rc = fputs(q, fp);
  sk__free(ctx, q);
  return rc == EOF ? EOF : 0;
}

/* Write the sidecar <prefix>[.partial].provenance.yaml under its temporary
 * name: status, error, statistics (JSON as a flow mapping), provenance. */
static sk_status write_sidecar(sk_results *r, const char *status, const char *error,
                               const char *stats, const char *prov)
{
  rfile *f = &r->f[F_SIDE];
  int fd = -1;
  SK_CALL(r->ctx, create_tmp(r->ctx, f, SK_ERR_CREATE, &fd));
  FILE *fp = fdopen(fd, "w");
  if (!fp) {
    int err = errno;
    close(fd);
    return SK_ERROR(r->ctx, SK_ERR_IO, "I/O error writing '%s' (temporary '%s'): %s", f->final,
                    f->tmp, strerror(err));
  }
  int bad = 0, oom = 0;
  errno = 0;
  bad |= fprintf(fp, "status: %s\n", status) < 0;
  if (error) {
    bad |= fputs("error: ", fp) == EOF || put_quoted(r->ctx, fp, error, &oom) == EOF ||
           fputs("\n", fp) == EOF;
  }
  if (stats) {
    size_t k = 0;
    if (is_single_line(stats, &k) && k > 1 && stats[0] == '{' && stats[k - 1] == '}') {
      bad |= fprintf(fp, "statistics: %.*s\n", (int)k, stats) < 0;
    } else {
      bad |= fputs("statistics_text: ", fp) == EOF ||
             put_quoted(r->ctx, fp, stats, &oom) == EOF || fputs("\n", fp) == EOF;
    }
  }
  if (prov && sk__yaml_is_block_mapping(prov)) {
    bad |= fputs("provenance:\n", fp) == EOF;
    for (const char *p = prov; *p && !bad;) {
      const char *e = strchr(p, '\n');
      size_t k = e ? (size_t)(e - p) : strlen(p);
      if (k > 0) {
        bad |= fprintf(fp, "  %.*s", (int)k, p) < 0;
      }
      bad |= fputs("\n", fp) == EOF;
      p += k + (e ? 1 : 0);
    }
  } else if (prov) {
    bad |= fputs("provenance_text: ", fp) == EOF || put_quoted(r->ctx, fp, prov, &oom) == EOF ||
           fputs("\n", fp) == EOF;
  }
  if (!bad) {
    bad = fflush(fp) == EOF || fsync(fileno(fp)) != 0;
  }
  int err = errno;
  if (fclose(fp) == EOF && !bad) {
    bad = 1;
    err = errno;
  }
  if (oom) {
    return SK_ERROR(r->ctx, SK_ERR_NOMEM, "out of memory writing '%s'", f->final);
  }
  if (bad) {
    return SK_ERROR(r->ctx, SK_ERR_IO, "I/O error writing '%s' (temporary '%s'): %s", f->final,
                    f->tmp, strerror(err ? err : EIO));
  }
  return SK_OK;
}

/* ---- open --------------------------------------------------------------- */

static sk_status results_paths(sk_results *r, const char *dir, const char *prefix)
{
  sk_context *ctx = r->ctx;
  static const char *const ext[F_SERIES] = {"csv", "h5", "provenance.yaml"};
  long pid = (long)getpid();
  size_t dl = strlen(dir);
  const char *sep = dl > 0 && dir[dl - 1] == '/' ? "" : "/";
  r->dir = str_printf(ctx, "%s", dir);
  r->prefix_path = str_printf(ctx, "%s%s%s", dir, sep, prefix);
  SK_CHECK(ctx, r->dir && r->prefix_path, SK_ERR_NOMEM, "out of memory");
  for (int k = 0; k < F_SERIES; k++) {
    r->f[k].final = str_printf(ctx, "%s%s%s.%s", dir, sep, prefix, ext[k]);
    r->f[k].tmp = str_printf(ctx, "%s%s%s.%s.tmp.%ld", dir, sep, prefix, ext[k], pid);
    r->f[k].partial = str_printf(ctx, "%s%s%s.partial.%s", dir, sep, prefix, ext[k]);
    SK_CHECK(ctx, r->f[k].final && r->f[k].tmp && r->f[k].partial, SK_ERR_NOMEM, "out of memory");
  }
  return SK_OK;
}

static sk_status results_open_body(sk_results *r, const sk_results_config *cfg)
{
  sk_context *ctx = r->ctx;
  r->csv = cfg->csv != 0;
  r->hdf5 = cfg->hdf5 != 0;
  r->write_states = cfg->write_states != 0 && r->hdf5; /* the states go to the HDF5 file only */
  r->has_exact = cfg->has_exact != 0;
  snprintf(r->axis, sizeof r->axis, "%s", cfg->axis ? cfg->axis : "t");
  r->n = cfg->n;
  r->nprobes = cfg->nprobes;
  r->nnorms = r->has_exact ? 4 : 2;
  r->ncols = 1 + r->nprobes + r->nnorms;
  sk__journal_init(&r->journal[0], r->ncols);
  if (r->hdf5) { /* before any file is created: without the module nothing is written */
    SK_CALL(ctx, sk__hdf5_module_open(ctx, "HDF5 output (output.hdf5, sk_results_config.hdf5)",
                                      &r->h5));
  }
  SK_CALL(ctx, results_paths(r, cfg->dir && cfg->dir[0] ? cfg->dir : ".", cfg->prefix));

  r->row = sk__calloc(ctx, r->ncols, sizeof *r->row);
  r->probes = sk__calloc(ctx, r->nprobes, sizeof *r->probes);
  r->probe_names = sk__calloc(ctx, r->nprobes, sizeof *r->probe_names);
  SK_CHECK(ctx, r->row && r->probes && r->probe_names, SK_ERR_NOMEM, "out of memory");
  for (size_t j = 0; j < r->nprobes; j++) {
    r->probes[j] = cfg->probes[j];
    const char *name = cfg->probe_names ? cfg->probe_names[j] : NULL;
    r->probe_names[j] =
        name ? str_printf(ctx, "%s", name) : str_printf(ctx, "y[%" PRId64 "]", cfg->probes[j]);
    SK_CHECK(ctx, r->probe_names[j], SK_ERR_NOMEM, "out of memory");
  }

  int fd = -1;
  if (r->csv) {
    SK_CALL(ctx, create_tmp(ctx, &r->f[F_CSV], SK_ERR_CREATE, &fd));
    SK_CALL(ctx, sk__csv_writer_open(ctx, fd, r->f[F_CSV].tmp, r->f[F_CSV].final, &r->cw));
  }
  if (r->hdf5) {
    SK_CALL(ctx, create_tmp(ctx, &r->f[F_H5], SK_ERR_CREATE, &fd));
    close(fd); /* HDF5 opens it by name */
    SK_CALL(ctx, r->h5->writer_open(ctx, r->f[F_H5].tmp, r->f[F_H5].final, cfg->axis, r->n,
                                    r->nprobes, r->probes, (const char *const *)r->probe_names,
                                    r->nnorms, norm_names, r->write_states, &r->hw));
  }
  if (r->csv) {
    const char **names = sk__calloc(ctx, r->ncols, sizeof *names);
    SK_CHECK(ctx, names, SK_ERR_NOMEM, "out of memory");
    names[0] = r->axis;
    for (size_t j = 0; j < r->nprobes; j++) {
      names[1 + j] = r->probe_names[j];
    }
    for (size_t j = 0; j < r->nnorms; j++) {
      names[1 + r->nprobes + j] = norm_names[j];
    }
    sk_status st = sk__csv_writer_header(r->cw, names, r->ncols);
    sk__free(ctx, names);
    SK_CALL(ctx, st);
  }
  return SK_OK;
}

sk_status sk_results_open(sk_context *ctx, const sk_results_config *cfg, sk_results **res)
{
  SK_CHECK(ctx, res, SK_ERR_ARG, "results: NULL output pointer");
  *res = NULL;
  SK_CHECK(ctx, cfg, SK_ERR_ARG, "results: NULL configuration");
  SK_CHECK(ctx, cfg->prefix && cfg->prefix[0], SK_ERR_ARG, "results: empty file prefix");
  SK_CHECK(ctx, !strchr(cfg->prefix, '/'), SK_ERR_ARG,
           "results: file prefix '%s' must not contain '/' (give the directory as dir)",
           cfg->prefix);
  SK_CHECK(ctx, cfg->csv || cfg->hdf5, SK_ERR_ARG, "results: neither CSV nor HDF5 requested");
  SK_CHECK(ctx, cfg->n > 0, SK_ERR_ARG, "results: state length %" PRId64 " must be > 0", cfg->n);
  SK_CHECK(ctx, cfg->nprobes == 0 || cfg->probes, SK_ERR_ARG,
           "results: %zu probes but no probe indices", cfg->nprobes);
  for (size_t j = 0; j < cfg->nprobes; j++) {
    SK_CHECK(ctx, cfg->probes[j] >= 0 && cfg->probes[j] < cfg->n, SK_ERR_ARG,
             "results: probe %zu index %" PRId64 " is outside [0, %" PRId64 ")", j,
             cfg->probes[j], cfg->n);
  }
  sk_results *r = sk__calloc(ctx, 1, sizeof *r);
  SK_CHECK(ctx, r, SK_ERR_NOMEM, "out of memory");
  r->ctx = ctx;
  r->phase = PH_OPEN;
  sk_status st = results_open_body(r, cfg);
  if (st != SK_OK) {
    sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
    sk_results_destroy(&r);
    return st;
  }
  *res = r;
  return SK_OK;
}

/* ---- grid ----------------------------------------------------------------- */

sk_status sk_results_set_grid(sk_results *res, int dim, const int64_t *n,
                              const double *const *axes)
{
  SK_CHECK(NULL, res, SK_ERR_ARG, "results: NULL object");
  sk_context *ctx = res->ctx;
  SK_CHECK(ctx, res->phase == PH_OPEN, SK_ERR_STATE,
           "results: grid set after finish/fail or after a write error");
  SK_CHECK(ctx, !res->have_grid, SK_ERR_STATE, "results: grid set twice");
  SK_CHECK(ctx, dim >= 1 && dim <= 3, SK_ERR_ARG, "results: grid dimension %d not in 1..3", dim);
  SK_CHECK(ctx, n && axes, SK_ERR_ARG, "results: NULL grid sizes or axes");
  int64_t nodes = 1;
  for (int d = 0; d < dim; d++) {
    SK_CHECK(ctx, n[d] >= 1 && axes[d], SK_ERR_ARG,
             "results: grid direction %d has %" PRId64 " nodes or no coordinates", d, n[d]);
    SK_CHECK(ctx, n[d] <= res->n && nodes <= res->n / n[d], SK_ERR_ARG,
             "results: grid larger than the state (%" PRId64 " values)", res->n);
    nodes *= n[d];
  }
  SK_CHECK(ctx, res->n % nodes == 0, SK_ERR_ARG,
           "results: state length %" PRId64 " is not a multiple of the %" PRId64 " grid nodes",
           res->n, nodes);
  if (res->hw) {
    sk_status st = res->h5->writer_set_grid(res->hw, dim, n, axes, res->n / nodes);
    if (st < 0) {
      res->phase = PH_BROKEN;
    }
    SK_CALL(ctx, st);
  }
  res->have_grid = 1;
  return SK_OK;
}

/* ---- rows ----------------------------------------------------------------- */

/* max |v_i| and sqrt(mean v_i^2) (scaled, so no overflow before the end);
 * returns the index of the first non-finite value, or -1. */
static int64_t norms_of(const double *v, int64_t n, double *maxabs, double *rms)
{
  double m = 0.0;
  for (int64_t i = 0; i < n; i++) {
    if (!isfinite(v[i])) {
      return i;
    }
    double a = fabs(v[i]);
    if (a > m) {
      m = a;
    }
  }
  double s = 0.0;
  const double inv = 1.0 / fmax(m, DBL_MIN); /* a subnormal m must not make inv infinite */
  for (int64_t i = 0; m > 0.0 && i < n; i++) {
    double q = v[i] * inv;
    s += q * q;
  }
  *maxabs = m;
  *rms = sqrt(s / (double)n) / inv;
  return -1;
}

static int64_t err_norms_of(const double *y, const double *ye, int64_t n, double *maxabs,
                            double *rms)
{
  double m = 0.0;
  for (int64_t i = 0; i < n; i++) {
    if (!isfinite(ye[i])) {
      return i;
    }
    double a = fabs(y[i] - ye[i]);
    if (a > m) {
      m = a;
    }
  }
  double s = 0.0;
  const double inv = 1.0 / fmax(m, DBL_MIN); /* a subnormal m must not make inv infinite */
  for (int64_t i = 0; m > 0.0 && isfinite(m) && i < n; i++) {
    double q = (y[i] - ye[i]) * inv;
    s += q * q;
  }
  *maxabs = m;
  *rms = isfinite(m) ? sqrt(s / (double)n) / inv : m;
  return -1;
}

/* Write a main row (t, probes, norms) and, with write_states, the state y
 * to the files, and keep it in the journal. */
static sk_status emit_main_row(sk_results *res, const double *row, const double *y)
{
  sk_context *ctx = res->ctx;
  sk_status st = SK_OK;
  if (res->cw) {
    st = sk__csv_writer_row(res->cw, row, res->ncols);
  }
  if (st == SK_OK && res->hw) {
    st = res->h5->writer_row(res->hw, row[0], row + 1, row + 1 + res->nprobes, y);
  }
  if (st == SK_OK) {
    st = sk__journal_append(ctx, &res->journal[0], row, res->ncols, NULL);
  }
  if (st < 0) {
    res->phase = PH_BROKEN;
  }
  SK_CALL(ctx, st);
  res->nrows++;
  res->last_t = row[0];
  return SK_OK;
}

sk_status sk_results_write(sk_results *res, double t, const double *y, const double *yexact)
{
  SK_CHECK(NULL, res, SK_ERR_ARG, "results: NULL object");
  sk_context *ctx = res->ctx;
  SK_CHECK(ctx, res->phase == PH_OPEN, SK_ERR_STATE,
           "results: write after finish/fail or after a write error");
  SK_CHECK(ctx, y, SK_ERR_ARG, "results: NULL state");
  SK_CHECK(ctx, !res->has_exact || yexact, SK_ERR_ARG,
           "results: the exact solution is required (error columns configured)");
  SK_CHECK(ctx, isfinite(t), SK_ERR_NONFINITE, "results: output time is %g", t);
  SK_CHECK(ctx, res->nrows == 0 || t > res->last_t, SK_ERR_ARG,
           "results: output time t=%.10e does not follow the previous t=%.10e", t, res->last_t);

  double *row = res->row;
  double *norms = row + 1 + res->nprobes;
  int64_t bad = norms_of(y, res->n, &norms[0], &norms[1]);
  SK_CHECK(ctx, bad < 0, SK_ERR_NONFINITE,
           "results: refusing to write a non-finite value at t=%.10e: y[%" PRId64 "] = %g", t,
           bad, bad >= 0 ? y[bad] : 0.0);
  if (res->has_exact) {
    bad = err_norms_of(y, yexact, res->n, &norms[2], &norms[3]);
    SK_CHECK(ctx, bad < 0, SK_ERR_NONFINITE,
             "results: non-finite exact solution at t=%.10e: yexact[%" PRId64 "] = %g", t, bad,
             bad >= 0 ? yexact[bad] : 0.0);
    SK_CHECK(ctx, isfinite(norms[2]) && isfinite(norms[3]), SK_ERR_NONFINITE,
             "results: the error norm overflows at t=%.10e", t);
  }
  row[0] = t;
  for (size_t j = 0; j < res->nprobes; j++) {
    row[1 + j] = y[res->probes[j]];
  }
  return emit_main_row(res, row, y);
}

/* ---- extra series ----------------------------------------------------------- */

/* Whether `name` is already a name at the root of the HDF5 file (or a series' CSV). */
static int taken_name(const sk_results *res, const char *name)
{
  static const char *const fixed[] = SK__H5_ROOT_NAMES;
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
    if (!strcmp(name, fixed[i])) {
      return 1;
    }
  }
  for (int k = 0; k < res->nseries; k++) {
    if (!strcmp(name, res->series_names[k])) {
      return 1;
    }
  }
  return !strcmp(name, res->axis);
}

sk_status sk_results_add_series(sk_results *res, const char *name, size_t ncols,
                                const char *const *col_names, int *id)
{
  SK_CHECK(NULL, res, SK_ERR_ARG, "results: NULL object");
  sk_context *ctx = res->ctx;
  SK_CHECK(ctx, id != NULL, SK_ERR_ARG, "results: NULL series id");
  SK_CHECK(ctx, res->phase == PH_OPEN && res->nrows == 0, SK_ERR_STATE,
           "results: a series must be added before the first row");
  SK_CHECK(ctx, res->nseries < SK_RESULTS_MAX_SERIES, SK_ERR_TOO_LARGE,
           "results: at most %d extra series", SK_RESULTS_MAX_SERIES);
  SK_CHECK(ctx,
           name && name[0] && strlen(name) < 32 &&
               strspn(name, "abcdefghijklmnopqrstuvwxyz_") == strlen(name),
           SK_ERR_ARG, "results: series name '%s' must be 1-31 of [a-z_]", name ? name : "");
  SK_CHECK(ctx, !taken_name(res, name), SK_ERR_ARG,
           "results: series name '%s' is taken (the HDF5 file's time, probes, norms, state, "
           "grid, statistics, provenance, the abscissa '%s' and the series added before)",
           name, res->axis);
  SK_CHECK(ctx, ncols > 0 && col_names, SK_ERR_ARG, "results: series '%s' has no columns", name);
  const int k = res->nseries;
  rfile *f = &res->f[F_SERIES + k];
  f->final = str_printf(ctx, "%s.%s.csv", res->prefix_path, name);
  f->tmp = str_printf(ctx, "%s.%s.csv.tmp.%ld", res->prefix_path, name, (long)getpid());
  f->partial = str_printf(ctx, "%s.partial.%s.csv", res->prefix_path, name);
  res->srow[k] = sk__calloc(ctx, ncols + 1, sizeof *res->srow[k]);
  SK_CHECK(ctx, f->final && f->tmp && f->partial && res->srow[k], SK_ERR_NOMEM, "out of memory");
  res->nseries = k + 1;
  res->sncols[k] = ncols;
  snprintf(res->series_names[k], sizeof res->series_names[k], "%s", name);
  sk__journal_init(&res->journal[1 + k], ncols + 1);
  if (res->csv) {
    int fd = -1;
    SK_CALL(ctx, create_tmp(ctx, f, SK_ERR_CREATE, &fd));
    SK_CALL(ctx, sk__csv_writer_open(ctx, fd, f->tmp, f->final, &res->scw[k]));
    const char **names = sk__calloc(ctx, ncols + 1, sizeof *names);
    SK_CHECK(ctx, names, SK_ERR_NOMEM, "out of memory");
    names[0] = res->axis;
    memcpy(names + 1, col_names, ncols * sizeof *names);
    sk_status st = sk__csv_writer_header(res->scw[k], names, ncols + 1);
    sk__free(ctx, names);
    SK_CALL(ctx, st);
  }
  if (res->hw) {
    SK_CALL(ctx, res->h5->writer_add_series(res->hw, name, ncols, col_names));
  }
  *id = k;
  return SK_OK;
}

sk_status sk_results_series_blocks(sk_results *res, int id, size_t nblocks,
                                   const char *const *names, int64_t len)
{
  SK_CHECK(NULL, res, SK_ERR_ARG, "results: NULL object");
  sk_context *ctx = res->ctx;
  SK_CHECK(ctx,
           res->phase == PH_OPEN && id >= 0 && id < res->nseries && res->snrows[id] == 0 &&
               res->snblk[id] == 0,
           SK_ERR_STATE, "results: blocks of series %d after its first row or twice", id);
  SK_CHECK(ctx, nblocks > 0 && names && len > 0, SK_ERR_ARG, "results: bad blocks of series %d",
           id);
  SK_CHECK(ctx, (uint64_t)nblocks * (uint64_t)len < ((uint64_t)1 << 40), SK_ERR_TOO_LARGE,
           "results: %zu blocks of %lld values are too many", nblocks, (long long)len);
  if (!res->hw) { /* the blocks go to the HDF5 file only */
    return SK_OK;
  }
  res->snblk[id] = nblocks;
  res->sblklen[id] = len;
  sk__journal_init(&res->journal[1 + id], res->sncols[id] + 1 + nblocks * (size_t)len);
  return res->h5->writer_series_blocks(res->hw, id, nblocks, names, len);
}

/* Write a series row (t, values; blocks when the series has them) to the files and keep it in
 * the journal. */
static sk_status emit_series_row(sk_results *res, int id, const double *row, const double *blocks)
{
  sk_context *ctx = res->ctx;
  sk_status st = SK_OK;
  if (res->scw[id]) {
    st = sk__csv_writer_row(res->scw[id], row, res->sncols[id] + 1);
  }
  if (st == SK_OK && res->hw) {
    st = res->h5->writer_series_row(res->hw, id, row[0], row + 1, blocks);
  }
  if (st == SK_OK) {
    st = sk__journal_append(ctx, &res->journal[1 + id], row, res->sncols[id] + 1, blocks);
  }
  if (st < 0) {
    res->phase = PH_BROKEN;
  }
  SK_CALL(ctx, st);
  res->snrows[id]++;
  res->slast_t[id] = row[0];
  return SK_OK;
}

sk_status sk_results_write_series(sk_results *res, int id, double t, const double *vals)
{
  return sk_results_write_series_blocks(res, id, t, vals, NULL);
}

sk_status sk_results_write_series_blocks(sk_results *res, int id, double t, const double *vals,
                                         const double *blocks)
{
  SK_CHECK(NULL, res, SK_ERR_ARG, "results: NULL object");
  sk_context *ctx = res->ctx;
  SK_CHECK(ctx, res->phase == PH_OPEN, SK_ERR_STATE,
           "results: write after finish/fail or after a write error");
  SK_CHECK(ctx, id >= 0 && id < res->nseries && vals, SK_ERR_ARG, "results: bad series %d", id);
  SK_CHECK(ctx, isfinite(t) && (res->snrows[id] == 0 || t >= res->slast_t[id]), SK_ERR_ARG,
           "results: series time t=%.10e does not follow the previous t=%.10e", t,
           res->slast_t[id]);
  for (size_t j = 0; j < res->sncols[id]; j++) {
    SK_CHECK(ctx, isfinite(vals[j]), SK_ERR_NONFINITE,
             "results: refusing to write a non-finite value at t=%.10e in series %d column %zu",
             t, id, j);
  }
  SK_CHECK(ctx, res->snblk[id] == 0 || blocks, SK_ERR_ARG,
           "results: series %d needs its blocks with every row", id);
  const size_t nb = res->snblk[id] * (size_t)res->sblklen[id];
  for (size_t j = 0; j < nb; j++) {
    SK_CHECK(ctx, isfinite(blocks[j]), SK_ERR_NONFINITE,
             "results: refusing to write a non-finite value at t=%.10e in series %d block %zu "
             "value %zu",
             t, id, j / (size_t)res->sblklen[id], j % (size_t)res->sblklen[id]);
  }
  double *row = res->srow[id];
  row[0] = t;
  memcpy(row + 1, vals, res->sncols[id] * sizeof *vals);
  return emit_series_row(res, id, row, res->snblk[id] ? blocks : NULL);
}

/* ---- journal: export and replay (checkpoints) ------------------------------ */

size_t sk__results_ntables(const sk_results *res)
{
  return res ? 1 + (size_t)res->nseries : 0;
}

/* Values per row of table k: what the journal keeps, and the state of table 0. */
static size_t table_width(const sk_results *res, size_t k)
{
  return res->journal[k].width + (k == 0 && res->write_states ? (size_t)res->n : 0);
}

sk_status sk__results_table(const sk_results *res, size_t k, size_t *rows, size_t *width,
                            size_t *head, const double **data)
{
  SK_CHECK(NULL, res, SK_ERR_ARG, "results: NULL object");
  SK_CHECK(res->ctx, k < sk__results_ntables(res), SK_ERR_ARG, "results: no table %zu", k);
  *rows = res->journal[k].rows;
  *width = table_width(res, k);
  *head = res->journal[k].width;
  *data = res->journal[k].data;
  return SK_OK;
}

sk_status sk__results_read_tail(sk_results *res, size_t k, size_t row, double *out)
{
  SK_CHECK(NULL, res, SK_ERR_ARG, "results: NULL object");
  SK_CHECK(res->ctx, k == 0 && res->write_states && res->hw && row < res->journal[0].rows && out,
           SK_ERR_ARG, "results: table %zu has no saved state for row %zu", k, row);
  return res->h5->writer_read_state(res->hw, (int64_t)row, out);
}

sk_status sk__results_replay(sk_results *res, size_t k, size_t rows, size_t width,
                             const double *data)
{
  SK_CHECK(NULL, res, SK_ERR_ARG, "results: NULL object");
  sk_context *ctx = res->ctx;
  SK_CHECK(ctx, res->phase == PH_OPEN, SK_ERR_STATE,
           "results: write after finish/fail or after a write error");
  SK_CHECK(ctx,
           k < sk__results_ntables(res) && width == table_width(res, k) && (rows == 0 || data),
           SK_ERR_INPUT,
           "results: the saved output table %zu has %zu columns, this run writes %zu (different "
           "output settings)",
           k, width, k < sk__results_ntables(res) ? table_width(res, k) : 0);
  for (size_t i = 0; i < rows; i++) {
    /* a row can hold a large state: one check per row */
    SK_CALL_STOP(ctx, sk__stop_check(ctx, "writing the saved output rows again; the rows "
                                          "written so far are kept as partial results"));
    const double *row = data + i * width;
    for (size_t j = 0; j < width; j++) {
      SK_CHECK(ctx, isfinite(row[j]), SK_ERR_INPUT,
               "results: saved output row %zu of table %zu holds a non-finite value", i, k);
    }
    const double last = k == 0 ? res->last_t : res->slast_t[k - 1];
    const int64_t done = k == 0 ? res->nrows : res->snrows[k - 1];
    SK_CHECK(ctx, done == 0 || (k == 0 ? row[0] > last : row[0] >= last), SK_ERR_INPUT,
             "results: saved output row %zu of table %zu goes back in time (t=%.10e after "
             "%.10e)",
             i, k, row[0], last);
    SK_CALL(ctx, k == 0
                     ? emit_main_row(res, row, res->write_states ? row + res->ncols : NULL)
                     : emit_series_row(res, (int)k - 1, row,
                                       res->snblk[k - 1] ? row + 1 + res->sncols[k - 1] : NULL));
  }
  return SK_OK;
}

/* ---- finish ----------------------------------------------------------------- */

static void remove_stale_partials(sk_results *r)
{
  for (int k = 0; k < F_COUNT; k++) {
    if (r->f[k].partial && r->f[k].at == AT_FINAL) {
      unlink(r->f[k].partial);
    }
  }
}

sk_status sk_results_finish(sk_results *res, const char *stats_json, const char *provenance_yaml)
{
  SK_CHECK(NULL, res, SK_ERR_ARG, "results: NULL object");
  sk_context *ctx = res->ctx;
  SK_CHECK(ctx, res->phase == PH_OPEN, SK_ERR_STATE,
           "results: finish after finish/fail or after a write error");
  res->phase = PH_BROKEN; /* until everything below succeeded */
  if (res->cw) {
    SK_CALL(ctx, sk__csv_writer_close(res->cw));
  }
  for (int k = 0; k < res->nseries; k++) {
    if (res->scw[k]) {
      SK_CALL(ctx, sk__csv_writer_close(res->scw[k]));
    }
  }
  if (res->hw) {
    SK_CALL(ctx, res->h5->writer_close(res->hw, stats_json, provenance_yaml, "complete", NULL));
  }
  if (res->csv) {
    SK_CALL(ctx, write_sidecar(res, "complete", NULL, stats_json, provenance_yaml));
  }
  /* the data first and the sidecar last: its rename is the commit point
   * of the set (no sidecar, no result), and the commit hook runs just
   * before it (a checkpoint removed there cannot outlive a complete set) */
  _Static_assert(SK_RESULTS_MAX_SERIES == 3, "the rename order lists every series file");
  static const int order[F_COUNT] = {F_H5, F_SERIES, F_SERIES + 1, F_SERIES + 2, F_CSV, F_SIDE};
  int last = -1;
  for (int k = 0; k < F_COUNT; k++) {
    last = res->f[order[k]].at == AT_TMP ? k : last;
  }
  for (int k = 0; k < F_COUNT; k++) {
    rfile *f = &res->f[order[k]];
    if (f->at != AT_TMP) {
      continue;
    }
    if (k == last && res->commit_fn) {
      res->commit_fn(res->commit_data);
    }
    sk_status st = rename_file(ctx, f, AT_FINAL);
    if (st < 0) {
      /* undo the renames done so far: no final name without all files */
      for (int j = k - 1; j >= 0; j--) {
        rfile *g = &res->f[order[j]];
        if (g->at == AT_FINAL && rename(g->final, g->tmp) == 0) {
          g->at = AT_TMP;
        }
      }
      SK_CALL(ctx, st);
    }
  }
  res->phase = PH_DONE; /* the files are complete under their final names */
  SK_CALL(ctx, sk__fsync_dir(ctx, res->dir));
  remove_stale_partials(res);
  return SK_OK;
}

/* ---- fail --------------------------------------------------------------------- */

/* Log the current error record as a warning (while failing, the record
 * itself belongs to the failure of the run). */
static void log_current(sk_context *ctx)
{
  char buf[SK_ERROR_MSG_LEN + 64];
  sk_error_format(sk_context_get_error(ctx), 0, buf, sizeof buf);
  sk__log(ctx, SK_LOG_WARN, "while keeping partial results: %s", buf);
}

static void keep(sk_status st, sk_status *worst, sk_context *ctx)
{
  if (st < 0) {
    log_current(ctx);
    if (*worst == SK_OK) {
      *worst = st;
    }
  }
}

sk_status sk_results_fail(sk_results *res, const char *stats_json, const char *provenance_yaml,
                          const char *message)
{
  if (!res) {
    return SK_ERR_ARG;
  }
  if (res->phase != PH_OPEN && res->phase != PH_BROKEN) {
    return SK_ERR_STATE;
  }
  sk_context *ctx = res->ctx;
  sk_error saved = *sk_context_get_error(ctx);
  sk_status worst = SK_OK;
  char msg[SK_ERROR_MSG_LEN];
  sk__one_line(message, msg, sizeof msg);

  if (res->cw && res->f[F_CSV].at == AT_TMP) {
    keep(sk__csv_writer_close_incomplete(res->cw, msg), &worst, ctx);
  }
  for (int k = 0; k < res->nseries; k++) {
    if (res->scw[k] && res->f[F_SERIES + k].at == AT_TMP) {
      keep(sk__csv_writer_close_incomplete(res->scw[k], msg), &worst, ctx);
    }
  }
  if (res->hw && res->f[F_H5].at == AT_TMP) {
    keep(res->h5->writer_close(res->hw, stats_json, provenance_yaml, "incomplete", msg), &worst,
         ctx);
    if (res->h5->writer_lost(res->hw)) {
      /* a damaged HDF5 file is no partial result: remove it */
      unlink(res->f[F_H5].tmp);
      res->f[F_H5].at = AT_NONE;
      SK_ERROR(ctx, SK_ERR_IO, "'%s' could not be completed and was removed",
               res->f[F_H5].partial);
      log_current(ctx);
    }
  }
  if (res->csv) {
    if (res->f[F_SIDE].at == AT_TMP) {
      unlink(res->f[F_SIDE].tmp);
      res->f[F_SIDE].at = AT_NONE;
    }
    sk_status st = write_sidecar(res, "incomplete", msg, stats_json, provenance_yaml);
    keep(st, &worst, ctx);
    if (st < 0 && res->f[F_SIDE].at == AT_TMP) {
      unlink(res->f[F_SIDE].tmp);
      res->f[F_SIDE].at = AT_NONE;
    }
  }
  for (int k = 0; k < F_COUNT; k++) {
    if (res->f[k].at == AT_TMP) {
      keep(rename_file(ctx, &res->f[k], AT_PARTIAL), &worst, ctx);
    } else if (res->f[k].at == AT_FINAL) {
      keep(SK_ERROR(ctx, SK_ERR_IO, "'%s' stays under its final name", res->f[k].final), &worst,
           ctx);
    }
  }
  keep(sk__fsync_dir(ctx, res->dir), &worst, ctx);
  res->phase = PH_FAILED;
  sk__error_restore(ctx, &saved);
  return worst;
}

/* ---- destroy and hooks ---------------------------------------------------------- */

void sk_results_destroy(sk_results **res)
{
  if (!res || !*res) {
    return;
  }
  sk_results *r = *res;
  sk_context *ctx = r->ctx;
  sk__csv_writer_free(&r->cw);
  for (int k = 0; k < r->nseries; k++) {
    sk__csv_writer_free(&r->scw[k]);
    sk__free(ctx, r->srow[k]);
  }
  if (r->h5) {
    r->h5->writer_free(&r->hw);
  }
  for (int k = 0; k <= SK_RESULTS_MAX_SERIES; k++) {
    sk__journal_free(ctx, &r->journal[k]);
  }
  if (r->phase != PH_DONE && r->phase != PH_FAILED) {
    remove_tmp_files(r);
  }
  for (int k = 0; k < F_COUNT; k++) {
    sk__free(ctx, r->f[k].final);
    sk__free(ctx, r->f[k].tmp);
    sk__free(ctx, r->f[k].partial);
  }
  if (r->probe_names) {
    for (size_t j = 0; j < r->nprobes; j++) {
      sk__free(ctx, r->probe_names[j]);
    }
  }
  sk__free(ctx, r->probe_names);
  sk__free(ctx, r->probes);
  sk__free(ctx, r->row);
  sk__free(ctx, r->dir);
  sk__free(ctx, r->prefix_path);
  sk__free(ctx, r);
  *res = NULL;
}

sk_status sk__results_set_commit_hook(sk_results *res, sk__results_commit_fn fn, void *data)
{
  SK_CHECK(NULL, res, SK_ERR_ARG, "results: NULL object");
  res->commit_fn = fn;
  res->commit_data = data;
  return SK_OK;
}

sk_status sk__results_test_replace_csv_stream(sk_results *res, FILE *stream)
{
  SK_CHECK(NULL, res, SK_ERR_ARG, "results: NULL object");
  SK_CHECK(res->ctx, res->cw, SK_ERR_STATE, "results: no CSV file open");
  SK_CALL(res->ctx, sk__csv_writer_replace_stream(res->cw, stream));
  return SK_OK;
}

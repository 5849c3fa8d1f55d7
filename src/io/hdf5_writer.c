/* src/io/hdf5_writer.c: the HDF5 file of a run: extendible /time, /probes, /norms, /state, grid, statistics, provenance, status */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hdf5.h>

#include "core/error.h"
#include "io/hdf5_writer.h"
#include "io/write_util.h"

/* the free memory asked for before creating an HDF5 file (sk__h5_writer_open) */
#define SK__H5_CREATE_HEADROOM (8u << 20)

/* Rows of /state longer than this are split over several chunks (HDF5
 * chunks must stay below 4 GiB; 2^24 doubles are 128 MiB). */
#define SK__H5_MAX_CHUNK_COLS ((hsize_t)1 << 24)
#define SK__H5_FORMAT "stiffkit-results/1"

struct sk__h5_writer {
  sk_context *ctx;
  const char *tmp; /* owned by the sk_results front */
  const char *shown;
  char axis[16]; /* the name of the abscissa dataset ("time", or "x" for a BVP) */
  hid_t fid;     /* H5I_INVALID_HID when closed */
  hid_t d_time, d_probes, d_norms, d_state;
  int64_t n;
  size_t nprobes, nnorms;
  int write_states;
  hsize_t nrows; /* rows written completely */
  int failed;    /* an HDF5 call failed */
  int lost;      /* closing failed: the file on disk cannot be trusted */
  /* extra series: groups /<name> with time and values */
  int nseries;
  char s_time[SK_RESULTS_MAX_SERIES][48], s_vals[SK_RESULTS_MAX_SERIES][48];
  hid_t d_stime[SK_RESULTS_MAX_SERIES], d_svals[SK_RESULTS_MAX_SERIES];
  hsize_t s_rows[SK_RESULTS_MAX_SERIES];
  size_t s_ncols[SK_RESULTS_MAX_SERIES];
  /* a series' full-length blocks: datasets <series>/<block> [rows x s_blklen] */
  size_t s_nblk[SK_RESULTS_MAX_SERIES];
  hsize_t s_blklen[SK_RESULTS_MAX_SERIES];
  char **s_blk[SK_RESULTS_MAX_SERIES]; /* their paths */
};

/* ---- error handling: HDF5's printing off, its stack turned into a message */

typedef struct {
  H5E_auto2_t func;
  void *data;
} h5_quiet;

/* Every entry point starts here. H5dont_atexit: HDF5 1.10 frees a file
 * whose H5Fclose failed (e.g. ENOSPC while flushing) but leaves it in its ID
 * table, and the library's atexit cleanup then crashes on it (HDFFV-11052,
 * fixed in 1.14). Asking HDF5 not to install that cleanup only works before
 * HDF5 is first used in the process (later calls do nothing). */
static void h5_quiet_begin(h5_quiet *q)
{
  H5dont_atexit();
  if (H5Eget_auto2(H5E_DEFAULT, &q->func, &q->data) < 0) {
    q->func = NULL;
    q->data = NULL;
  }
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  H5Eclear2(H5E_DEFAULT);
  errno = 0; /* ENOMEM after a failure: HDF5 could not allocate (h5_error) */
}

static void h5_quiet_end(const h5_quiet *q)
{
  H5Eclear2(H5E_DEFAULT);
  H5Eset_auto2(H5E_DEFAULT, q->func, q->data);
}

typedef struct {
  char stack[640];
  size_t used;
  char errtext[128];
} h5_errbuf;

static herr_t h5_walk_cb(unsigned n, const H5E_error2_t *e, void *data)
{
  h5_errbuf *b = data;
  const char *desc = e->desc ? e->desc : "";
  const char *key = "error message = '";
  const char *em = strstr(desc, key);
  if (em && !b->errtext[0]) {
    em += strlen(key);
    const char *end = strchr(em, '\'');
    size_t k = end ? (size_t)(end - em) : strlen(em);
    if (k >= sizeof b->errtext) {
      k = sizeof b->errtext - 1;
    }
    memcpy(b->errtext, em, k);
    b->errtext[k] = '\0';
  }
  /* the system call frame ("file write failed: time = ..., errno = ...")
   * is shortened to its first clause: its errno text is reported apart */
  int dlen = (int)strlen(desc);
  if (em) {
    const char *colon = strchr(desc, ':');
    dlen = colon ? (int)(colon - desc) : dlen;
  }
  if (b->used < sizeof b->stack) {
    int w = snprintf(b->stack + b->used, sizeof b->stack - b->used, "%s%s: %.*s",
                     n > 0 ? "; " : "", e->func_name ? e->func_name : "?", dlen, desc);
    b->used += w > 0 ? (size_t)w : 0;
  }
  return 0;
}

/* Record SK_ERR_IO for the failed HDF5 operation `what`; SK_ERR_NOMEM when
 * the failure left errno at ENOMEM (HDF 1.10 reports a failed allocation
 * with no error description: measured under `ulimit -v`). */
static sk_status h5_error(sk__h5_writer *w, const char *what)
{
  const int err = errno;
  h5_errbuf b;
  memset(&b, 0, sizeof b);
  /* innermost first: the system call's errno text comes before the API frame */
  if (H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, h5_walk_cb, &b) < 0 || b.stack[0] == '\0') {
    snprintf(b.stack, sizeof b.stack, "no HDF5 error description");
  }
  /* HDF5's descriptions may hold line breaks (a ctime() stamp) */
  for (char *p = b.stack; *p; p++) {
    if ((unsigned char)*p < 0x20) {
      *p = ' ';
    }
  }
  H5Eclear2(H5E_DEFAULT);
  w->failed = 1;
  if (err == ENOMEM) {
    return SK_ERROR(w->ctx, SK_ERR_NOMEM,
                    "out of memory writing '%s' (temporary '%s', %s): HDF5: %s", w->shown, w->tmp,
                    what, b.stack);
  }
  if (b.errtext[0]) {
    return SK_ERROR(w->ctx, SK_ERR_IO,
                    "I/O error writing '%s' (temporary '%s', %s): %s [HDF5: %s]", w->shown,
                    w->tmp, what, b.errtext, b.stack);
  }
  return SK_ERROR(w->ctx, SK_ERR_IO, "I/O error writing '%s' (temporary '%s', %s): HDF5: %s",
                  w->shown, w->tmp, what, b.stack);
}

#define H5TRY(w, expr, what)      \
  do {                            \
    if ((expr) < 0) {             \
      st = h5_error((w), (what)); \
      goto done;                  \
    }                             \
  } while (0)

/* ---- small helpers (each returns < 0 on an HDF5 failure) ----------------- */

static herr_t h5_close_id(hid_t *id, herr_t (*closer)(hid_t))
{
  herr_t rc = 0;
  if (*id >= 0) {
    rc = closer(*id);
    *id = H5I_INVALID_HID;
  }
  return rc;
}

static hid_t h5_str_type(void)
{
  hid_t t = H5Tcopy(H5T_C_S1);
  if (t < 0) {
    return H5I_INVALID_HID;
  }
  if (H5Tset_size(t, H5T_VARIABLE) < 0 || H5Tset_cset(t, H5T_CSET_UTF8) < 0) {
    H5Tclose(t);
    return H5I_INVALID_HID;
  }
  return t;
}

static hid_t h5_space(int scalar, size_t count)
{
  if (scalar) {
    return H5Screate(H5S_SCALAR);
  }
  hsize_t d = (hsize_t)count;
  return H5Screate_simple(1, &d, NULL);
}

/* (Re)create attribute `name` of loc: string(s), variable length. */
static herr_t h5_attr_strings(hid_t loc, const char *name, const char *const *vals, size_t count,
                              int scalar)
{
  herr_t rc = -1;
  hid_t t = H5I_INVALID_HID, s = H5I_INVALID_HID, a = H5I_INVALID_HID;
  htri_t ex = H5Aexists(loc, name);
  if (ex < 0 || (ex > 0 && H5Adelete(loc, name) < 0)) {
    return -1;
  }
  t = h5_str_type();
  s = h5_space(scalar, count);
  if (t < 0 || s < 0) {
    goto done;
  }
  a = H5Acreate2(loc, name, t, s, H5P_DEFAULT, H5P_DEFAULT);
  if (a < 0 || H5Awrite(a, t, vals) < 0) {
    goto done;
  }
  rc = 0;
done:
  if (h5_close_id(&a, H5Aclose) < 0 || h5_close_id(&s, H5Sclose) < 0 ||
      h5_close_id(&t, H5Tclose) < 0) {
    rc = -1;
  }
  return rc;
}

static herr_t h5_attr_string(hid_t loc, const char *name, const char *value)
{
  return h5_attr_strings(loc, name, &value, 1, 1);
}

static herr_t h5_attr_int64(hid_t loc, const char *name, const int64_t *vals, size_t count,
                            int scalar)
{
  herr_t rc = -1;
  hid_t s = H5I_INVALID_HID, a = H5I_INVALID_HID;
  htri_t ex = H5Aexists(loc, name);
  if (ex < 0 || (ex > 0 && H5Adelete(loc, name) < 0)) {
    return -1;
  }
  s = h5_space(scalar, count);
  if (s < 0) {
    goto done;
  }
  a = H5Acreate2(loc, name, H5T_STD_I64LE, s, H5P_DEFAULT, H5P_DEFAULT);
  if (a < 0 || H5Awrite(a, H5T_NATIVE_INT64, vals) < 0) {
    goto done;
  }
  rc = 0;
done:
  if (h5_close_id(&a, H5Aclose) < 0 || h5_close_id(&s, H5Sclose) < 0) {
    rc = -1;
  }
  return rc;
}

/* (Re)create the scalar string dataset `name` of loc. */
static herr_t h5_dataset_string(hid_t loc, const char *name, const char *value)
{
  herr_t rc = -1;
  hid_t t = H5I_INVALID_HID, s = H5I_INVALID_HID, d = H5I_INVALID_HID;
  htri_t ex = H5Lexists(loc, name, H5P_DEFAULT);
  if (ex < 0 || (ex > 0 && H5Ldelete(loc, name, H5P_DEFAULT) < 0)) {
    return -1;
  }
  t = h5_str_type();
  s = H5Screate(H5S_SCALAR);
  if (t < 0 || s < 0) {
    goto done;
  }
  d = H5Dcreate2(loc, name, t, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (d < 0 || H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, &value) < 0) {
    goto done;
  }
  rc = 0;
done:
  if (h5_close_id(&d, H5Dclose) < 0 || h5_close_id(&s, H5Sclose) < 0 ||
      h5_close_id(&t, H5Tclose) < 0) {
    rc = -1;
  }
  return rc;
}

/* An extendible float64 dataset: rank 1 [0] or rank 2 [0 x ncols]. */
static hid_t h5_extendible(hid_t fid, const char *name, int rank, hsize_t ncols,
                           hsize_t chunk_rows)
{
  hsize_t dims[2] = {0, ncols};
  hsize_t maxd[2] = {H5S_UNLIMITED, ncols};
  hsize_t chunk[2] = {chunk_rows, ncols < SK__H5_MAX_CHUNK_COLS ? ncols : SK__H5_MAX_CHUNK_COLS};
  hid_t d = H5I_INVALID_HID;
  hid_t s = H5Screate_simple(rank, dims, maxd);
  hid_t p = H5Pcreate(H5P_DATASET_CREATE);
  if (s >= 0 && p >= 0 && H5Pset_chunk(p, rank, chunk) >= 0) {
    d = H5Dcreate2(fid, name, H5T_IEEE_F64LE, s, H5P_DEFAULT, p, H5P_DEFAULT);
  }
  if (h5_close_id(&p, H5Pclose) < 0 || h5_close_id(&s, H5Sclose) < 0) {
    h5_close_id(&d, H5Dclose);
  }
  return d;
}

/* Write row `row` (ncols values; rank 1: one value) after extending. */
static herr_t h5_append(hid_t d, int rank, hsize_t row, hsize_t ncols, const double *vals)
{
  herr_t rc = -1;
  hsize_t dims[2] = {row + 1, ncols};
  hsize_t start[2] = {row, 0};
  hsize_t count[2] = {1, ncols};
  hsize_t mdim = rank == 1 ? 1 : ncols;
  hid_t fs = H5I_INVALID_HID, ms = H5I_INVALID_HID;
  if (H5Dset_extent(d, dims) < 0) {
    return -1;
  }
  fs = H5Dget_space(d);
  ms = H5Screate_simple(1, &mdim, NULL);
  if (fs < 0 || ms < 0 || H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) < 0 ||
      H5Dwrite(d, H5T_NATIVE_DOUBLE, ms, fs, H5P_DEFAULT, vals) < 0) {
    goto done;
  }
  rc = 0;
done:
  if (h5_close_id(&ms, H5Sclose) < 0 || h5_close_id(&fs, H5Sclose) < 0) {
    rc = -1;
  }
  return rc;
}

/* Cut dataset `name` (if present) back to `rows` rows. */
static herr_t h5_shrink(hid_t fid, const char *name, hsize_t rows)
{
  htri_t ex = H5Lexists(fid, name, H5P_DEFAULT);
  if (ex <= 0) {
    return ex < 0 ? -1 : 0;
  }
  herr_t rc = -1;
  hid_t d = H5Dopen2(fid, name, H5P_DEFAULT);
  hid_t s = d >= 0 ? H5Dget_space(d) : H5I_INVALID_HID;
  hsize_t dims[2] = {0, 0};
  int rank = s >= 0 ? H5Sget_simple_extent_dims(s, dims, NULL) : -1;
  if (rank >= 1 && rank <= 2) {
    rc = 0;
    if (dims[0] > rows) {
      dims[0] = rows;
      rc = H5Dset_extent(d, dims);
    }
  }
  if (h5_close_id(&s, H5Sclose) < 0 || h5_close_id(&d, H5Dclose) < 0) {
    rc = -1;
  }
  return rc;
}

static hid_t h5_fapl(void)
{
  hid_t p = H5Pcreate(H5P_FILE_ACCESS);
  if (p >= 0 && H5Pset_fclose_degree(p, H5F_CLOSE_STRONG) < 0) {
    H5Pclose(p);
    return H5I_INVALID_HID;
  }
  return p;
}

/* ---- the writer ------------------------------------------------------------ */

static void h5_close_all(sk__h5_writer *w)
{
  for (int k = 0; k < w->nseries; k++) {
    h5_close_id(&w->d_stime[k], H5Dclose);
    h5_close_id(&w->d_svals[k], H5Dclose);
  }
  h5_close_id(&w->d_time, H5Dclose);
  h5_close_id(&w->d_probes, H5Dclose);
  h5_close_id(&w->d_norms, H5Dclose);
  h5_close_id(&w->d_state, H5Dclose);
  h5_close_id(&w->fid, H5Fclose);
}

sk_status sk__h5_writer_open(sk_context *ctx, const char *tmp_path, const char *shown,
                             const char *axis, int64_t n, size_t nprobes, const int64_t *probes,
                             const char *const *probe_names, size_t nnorms,
                             const char *const *norm_names, int write_states, sk__h5_writer **wp)
{
  *wp = NULL;
  /* HDF5 does not check every allocation it makes while creating a file (H5AC_create uses a
     failed one and crashes): near the memory limit, refuse here while that is still clean */
  void *room = malloc(SK__H5_CREATE_HEADROOM);
  if (!room) {
    return SK_ERROR(ctx, SK_ERR_NOMEM,
                    "out of memory opening '%s' (creating an HDF5 file needs about %u MB)", shown,
                    SK__H5_CREATE_HEADROOM >> 20);
  }
  free(room);
  sk__h5_writer *w = sk__calloc(ctx, 1, sizeof *w);
  if (!w) {
    return SK_ERROR(ctx, SK_ERR_NOMEM, "out of memory opening '%s'", shown);
  }
  w->ctx = ctx;
  w->tmp = tmp_path;
  w->shown = shown;
  snprintf(w->axis, sizeof w->axis, "%s", axis ? axis : "time");
  w->fid = w->d_time = w->d_probes = w->d_norms = w->d_state = H5I_INVALID_HID;
  w->n = n;
  w->nprobes = nprobes;
  w->nnorms = nnorms;
  w->write_states = write_states;

  sk_status st = SK_OK;
  h5_quiet q;
  h5_quiet_begin(&q);
  hid_t fapl = h5_fapl();
  H5TRY(w, fapl, "file access properties");
  w->fid = H5Fcreate(tmp_path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  H5TRY(w, w->fid, "creating the file");
  H5TRY(w, h5_attr_string(w->fid, "format", SK__H5_FORMAT), "attribute format");
  H5TRY(w, h5_attr_string(w->fid, "status", "running"), "attribute status");

  w->d_time = h5_extendible(w->fid, w->axis, 1, 1, 1024);
  H5TRY(w, w->d_time, "creating /time");
  if (nprobes > 0) {
    hsize_t rows = 8192 / nprobes > 0 ? 8192 / nprobes : 1;
    w->d_probes = h5_extendible(w->fid, "probes", 2, nprobes, rows);
    H5TRY(w, w->d_probes, "creating /probes");
    H5TRY(w, h5_attr_strings(w->d_probes, "names", probe_names, nprobes, 0),
          "attribute names of /probes");
    H5TRY(w, h5_attr_int64(w->d_probes, "indices", probes, nprobes, 0),
          "attribute indices of /probes");
  }
  w->d_norms = h5_extendible(w->fid, "norms", 2, nnorms, 1024);
  H5TRY(w, w->d_norms, "creating /norms");
  H5TRY(w, h5_attr_strings(w->d_norms, "columns", norm_names, nnorms, 0),
        "attribute columns of /norms");
  if (write_states) {
    w->d_state = h5_extendible(w->fid, "state", 2, (hsize_t)n, 1);
    H5TRY(w, w->d_state, "creating /state");
  }
  H5TRY(w, H5Fflush(w->fid, H5F_SCOPE_LOCAL), "flushing the file");
done:
  h5_close_id(&fapl, H5Pclose);
  if (st != SK_OK) {
    h5_close_all(w);
    h5_quiet_end(&q);
    sk__free(ctx, w);
    return st;
  }
  h5_quiet_end(&q);
  *wp = w;
  return SK_OK;
}

sk_status sk__h5_writer_set_grid(sk__h5_writer *w, int dim, const int64_t *n,
                                 const double *const *axes, int64_t components)
{
  static const char *const names[3] = {"x", "y", "z"};
  SK_CHECK(w->ctx, w->fid >= 0 && !w->failed, SK_ERR_STATE,
           "HDF5 file '%s' is closed or had a write error", w->shown);
  sk_status st = SK_OK;
  h5_quiet q;
  h5_quiet_begin(&q);
  hid_t g = H5Gcreate2(w->fid, "grid", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  hid_t s = H5I_INVALID_HID, d = H5I_INVALID_HID;
  H5TRY(w, g, "creating /grid");
  for (int k = 0; k < dim; k++) {
    hsize_t len = (hsize_t)n[k];
    s = H5Screate_simple(1, &len, NULL);
    H5TRY(w, s, "grid dataspace");
    d = H5Dcreate2(g, names[k], H5T_IEEE_F64LE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5TRY(w, d, "creating a /grid axis");
    H5TRY(w, H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, axes[k]),
          "writing a /grid axis");
    H5TRY(w, h5_close_id(&d, H5Dclose), "closing a /grid axis");
    H5TRY(w, h5_close_id(&s, H5Sclose), "grid dataspace");
  }
  H5TRY(w, h5_attr_int64(g, "dims", n, (size_t)dim, 0), "attribute dims of /grid");
  H5TRY(w, h5_attr_int64(g, "components", &components, 1, 1), "attribute components of /grid");
  H5TRY(w, h5_close_id(&g, H5Gclose), "closing /grid");
  H5TRY(w, H5Fflush(w->fid, H5F_SCOPE_LOCAL), "flushing the file");
done:
  h5_close_id(&d, H5Dclose);
  h5_close_id(&s, H5Sclose);
  h5_close_id(&g, H5Gclose);
  h5_quiet_end(&q);
  return st;
}

sk_status sk__h5_writer_row(sk__h5_writer *w, double t, const double *probe_vals,
                            const double *norms, const double *y)
{
  SK_CHECK(w->ctx, w->fid >= 0 && !w->failed, SK_ERR_STATE,
           "HDF5 file '%s' is closed or had a write error", w->shown);
  sk_status st = SK_OK;
  h5_quiet q;
  h5_quiet_begin(&q);
  hsize_t row = w->nrows;
  if (w->write_states) {
    H5TRY(w, h5_append(w->d_state, 2, row, (hsize_t)w->n, y), "writing /state");
  }
  if (w->nprobes > 0) {
    H5TRY(w, h5_append(w->d_probes, 2, row, w->nprobes, probe_vals), "writing /probes");
  }
  H5TRY(w, h5_append(w->d_norms, 2, row, w->nnorms, norms), "writing /norms");
  H5TRY(w, h5_append(w->d_time, 1, row, 1, &t), "writing /time");
  H5TRY(w, H5Fflush(w->fid, H5F_SCOPE_LOCAL), "flushing the file");
  w->nrows = row + 1;
done:
  h5_quiet_end(&q);
  return st;
}

sk_status sk__h5_writer_read_state(sk__h5_writer *w, int64_t row, double *y)
{
  SK_CHECK(
      w->ctx, w->fid >= 0 && !w->failed && w->write_states && row >= 0 && (hsize_t)row < w->nrows,
      SK_ERR_STATE, "HDF5 file '%s': no state row %lld to read back", w->shown, (long long)row);
  sk_status st = SK_OK;
  h5_quiet q;
  h5_quiet_begin(&q);
  hsize_t start[2] = {(hsize_t)row, 0};
  hsize_t count[2] = {1, (hsize_t)w->n};
  hsize_t mdim = (hsize_t)w->n;
  hid_t fs = H5Dget_space(w->d_state);
  hid_t ms = H5Screate_simple(1, &mdim, NULL);
  H5TRY(w, fs, "reading /state back");
  H5TRY(w, ms, "reading /state back");
  H5TRY(w, H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL),
        "reading /state back");
  H5TRY(w, H5Dread(w->d_state, H5T_NATIVE_DOUBLE, ms, fs, H5P_DEFAULT, y), "reading /state back");
done:
  h5_close_id(&ms, H5Sclose);
  h5_close_id(&fs, H5Sclose);
  h5_quiet_end(&q);
  return st;
}

sk_status sk__h5_writer_add_series(sk__h5_writer *w, const char *name, size_t ncols,
                                   const char *const *names)
{
  SK_CHECK(w->ctx, w->fid >= 0 && !w->failed && w->nseries < SK_RESULTS_MAX_SERIES, SK_ERR_STATE,
           "HDF5 file '%s': cannot add the series '%s'", w->shown, name);
  sk_status st = SK_OK;
  hid_t g = H5I_INVALID_HID;
  h5_quiet q;
  h5_quiet_begin(&q);
  const int k = w->nseries;
  snprintf(w->s_time[k], sizeof w->s_time[k], "%s/%s", name, w->axis);
  snprintf(w->s_vals[k], sizeof w->s_vals[k], "%s/values", name);
  w->d_stime[k] = w->d_svals[k] = H5I_INVALID_HID;
  g = H5Gcreate2(w->fid, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5TRY(w, g, "creating a series group");
  w->nseries = k + 1;
  w->d_stime[k] = h5_extendible(w->fid, w->s_time[k], 1, 1, 64);
  H5TRY(w, w->d_stime[k], "creating a series time");
  w->d_svals[k] = h5_extendible(w->fid, w->s_vals[k], 2, (hsize_t)ncols, 64);
  H5TRY(w, w->d_svals[k], "creating a series");
  H5TRY(w, h5_attr_strings(w->d_svals[k], "columns", names, ncols, 0), "series column names");
  w->s_ncols[k] = ncols;
  w->s_rows[k] = 0;
done:
  h5_close_id(&g, H5Gclose);
  h5_quiet_end(&q);
  return st;
}

sk_status sk__h5_writer_series_blocks(sk__h5_writer *w, int k, size_t nblocks,
                                      const char *const *names, int64_t len)
{
  SK_CHECK(w->ctx, w->fid >= 0 && !w->failed && k >= 0 && k < w->nseries && !w->s_blk[k],
           SK_ERR_STATE, "HDF5 file '%s': cannot add blocks to series %d", w->shown, k);
  w->s_blk[k] = sk__calloc(w->ctx, nblocks, sizeof *w->s_blk[k]);
  SK_CHECK(w->ctx, w->s_blk[k] != NULL, SK_ERR_NOMEM, "out of memory");
  w->s_nblk[k] = nblocks;
  w->s_blklen[k] = (hsize_t)len;
  const char *group = w->s_vals[k]; /* "<series>/values" */
  const size_t glen = (size_t)(strchr(group, '/') - group);
  sk_status st = SK_OK;
  h5_quiet q;
  h5_quiet_begin(&q);
  for (size_t b = 0; b < nblocks; b++) {
    const size_t plen = glen + strlen(names[b]) + 2;
    w->s_blk[k][b] = sk__malloc(w->ctx, plen);
    if (!w->s_blk[k][b]) {
      st = SK_ERROR(w->ctx, SK_ERR_NOMEM, "out of memory");
      goto done;
    }
    snprintf(w->s_blk[k][b], plen, "%.*s/%s", (int)glen, group, names[b]);
    hid_t d = h5_extendible(w->fid, w->s_blk[k][b], 2, (hsize_t)len, 1);
    H5TRY(w, d, "creating a series block");
    H5TRY(w, h5_close_id(&d, H5Dclose), "closing a series block");
  }
done:
  h5_quiet_end(&q);
  return st;
}

sk_status sk__h5_writer_series_row(sk__h5_writer *w, int k, double t, const double *vals,
                                   const double *blocks)
{
  SK_CHECK(w->ctx, w->fid >= 0 && !w->failed && k >= 0 && k < w->nseries, SK_ERR_STATE,
           "HDF5 file '%s' is closed or had a write error", w->shown);
  sk_status st = SK_OK;
  hid_t d = H5I_INVALID_HID;
  h5_quiet q;
  h5_quiet_begin(&q);
  for (size_t b = 0; b < w->s_nblk[k]; b++) {
    d = H5Dopen2(w->fid, w->s_blk[k][b], H5P_DEFAULT);
    H5TRY(w, d, "opening a series block");
    H5TRY(w, h5_append(d, 2, w->s_rows[k], w->s_blklen[k], blocks + b * w->s_blklen[k]),
          "writing a series block");
    H5TRY(w, h5_close_id(&d, H5Dclose), "closing a series block");
  }
  H5TRY(w, h5_append(w->d_svals[k], 2, w->s_rows[k], w->s_ncols[k], vals), "writing a series");
  H5TRY(w, h5_append(w->d_stime[k], 1, w->s_rows[k], 1, &t), "writing a series time");
  H5TRY(w, H5Fflush(w->fid, H5F_SCOPE_LOCAL), "flushing the file");
  w->s_rows[k]++;
done:
  h5_close_id(&d, H5Dclose);
  h5_quiet_end(&q);
  return st;
}

sk_status sk__h5_writer_close(sk__h5_writer *w, const char *stats_json, const char *provenance,
                              const char *status, const char *error)
{
  sk_status st = SK_OK;
  hid_t fapl = H5I_INVALID_HID;
  h5_quiet q;
  h5_quiet_begin(&q);
  for (int k = 0; k < w->nseries; k++) {
    H5TRY(w, h5_close_id(&w->d_stime[k], H5Dclose), "closing a series");
    H5TRY(w, h5_close_id(&w->d_svals[k], H5Dclose), "closing a series");
  }
  H5TRY(w, h5_close_id(&w->d_time, H5Dclose), "closing /time");
  H5TRY(w, h5_close_id(&w->d_probes, H5Dclose), "closing /probes");
  H5TRY(w, h5_close_id(&w->d_norms, H5Dclose), "closing /norms");
  H5TRY(w, h5_close_id(&w->d_state, H5Dclose), "closing /state");
  if (w->lost) {
    st =
        SK_ERROR(w->ctx, SK_ERR_IO, "HDF5 file '%s' (temporary '%s') could not be closed earlier",
                 w->shown, w->tmp);
    goto done;
  }
  if (w->fid < 0) {
    fapl = h5_fapl();
    H5TRY(w, fapl, "file access properties");
    w->fid = H5Fopen(w->tmp, H5F_ACC_RDWR, fapl);
    H5TRY(w, w->fid, "reopening the file");
  }
  H5TRY(w, h5_shrink(w->fid, w->axis, w->nrows), "cutting the abscissa to the complete rows");
  H5TRY(w, h5_shrink(w->fid, "probes", w->nrows), "cutting /probes to the complete rows");
  H5TRY(w, h5_shrink(w->fid, "norms", w->nrows), "cutting /norms to the complete rows");
  H5TRY(w, h5_shrink(w->fid, "state", w->nrows), "cutting /state to the complete rows");
  for (int k = 0; k < w->nseries; k++) {
    H5TRY(w, h5_shrink(w->fid, w->s_time[k], w->s_rows[k]), "cutting a series");
    H5TRY(w, h5_shrink(w->fid, w->s_vals[k], w->s_rows[k]), "cutting a series");
    for (size_t b = 0; b < w->s_nblk[k]; b++) {
      H5TRY(w, h5_shrink(w->fid, w->s_blk[k][b], w->s_rows[k]), "cutting a series block");
    }
  }
  if (stats_json) {
    H5TRY(w, h5_dataset_string(w->fid, "statistics", stats_json), "writing /statistics");
    H5TRY(w, h5_attr_string(w->fid, "statistics", stats_json), "attribute statistics");
  }
  if (provenance) {
    H5TRY(w, h5_dataset_string(w->fid, "provenance", provenance), "writing /provenance");
    H5TRY(w, h5_attr_string(w->fid, "provenance", provenance), "attribute provenance");
  }
  if (error) {
    H5TRY(w, h5_attr_string(w->fid, "error", error), "attribute error");
  } else {
    htri_t ex = H5Aexists(w->fid, "error");
    H5TRY(w, ex, "attribute error");
    if (ex > 0) {
      H5TRY(w, H5Adelete(w->fid, "error"), "attribute error");
    }
  }
  H5TRY(w, h5_attr_string(w->fid, "status", status), "attribute status");
  H5TRY(w, h5_close_id(&w->fid, H5Fclose), "closing the file");
done:
  h5_close_id(&fapl, H5Pclose);
  if (st != SK_OK) {
    h5_close_all(w);
    w->lost = 1;
  }
  h5_quiet_end(&q);
  if (st == SK_OK) {
    SK_CALL(w->ctx, sk__fsync_path(w->ctx, w->tmp, w->shown));
  }
  return st;
}

int sk__h5_writer_lost(const sk__h5_writer *w)
{
  return w && w->lost;
}

void sk__h5_writer_free(sk__h5_writer **w)
{
  if (!w || !*w) {
    return;
  }
  h5_quiet q;
  h5_quiet_begin(&q);
  h5_close_all(*w);
  h5_quiet_end(&q);
  for (int k = 0; k < SK_RESULTS_MAX_SERIES; k++) {
    for (size_t b = 0; (*w)->s_blk[k] && b < (*w)->s_nblk[k]; b++) {
      sk__free((*w)->ctx, (*w)->s_blk[k][b]);
    }
    sk__free((*w)->ctx, (*w)->s_blk[k]);
  }
  sk__free((*w)->ctx, *w);
  *w = NULL;
}

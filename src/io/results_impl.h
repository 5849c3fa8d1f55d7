/* src/io/results_impl.h: the CSV and HDF5 writers behind sk_results (internal to src/io) */
#ifndef SK_IO_RESULTS_IMPL_H
#define SK_IO_RESULTS_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stiffkit/context.h"

/* ---- shared helpers (results.c) ---------------------------------------- */

/* sk__results_fsync_path: open `path` read-only, fsync it, close it. `shown`
 * is the name used in the message. Errors: SK_ERR_IO
 * "I/O error writing '<shown>' (temporary '<path>'): <strerror>". */
sk_status sk__results_fsync_path(sk_context *ctx, const char *path, const char *shown);

/* sk__fsync_dir: fsync the directory `dir` (so that a rename in it is on
 * disk). Errors: SK_ERR_IO naming the directory. */
sk_status sk__fsync_dir(sk_context *ctx, const char *dir);

/* sk__results_one_line: copy `msg` into buf (NUL-terminated), with every
 * control character (line breaks, tabs) replaced by a space; NULL or ""
 * gives "unknown error". */
void sk__results_one_line(const char *msg, char *buf, size_t len);

/* ---- CSV writer (csv_writer.c) ----------------------------------------- */

typedef struct sk__csv_writer sk__csv_writer;

/* sk__csv_writer_open: wrap the open, empty file descriptor `fd` of the
 * temporary file `tmp_path` (the writer owns fd from now on, also on error);
 * `shown` is the final name used in messages. Errors: SK_ERR_IO, SK_ERR_NOMEM. */
sk_status sk__csv_writer_open(sk_context *ctx, int fd, const char *tmp_path, const char *shown,
                              sk__csv_writer **w);

/* sk__csv_writer_header: write and flush the header line of `ncols` names
 * (quoted as RFC 4180 where needed). Errors: SK_ERR_IO, SK_ERR_STATE. */
sk_status sk__csv_writer_header(sk__csv_writer *w, const char *const *names, size_t ncols);

/* sk__csv_writer_row: write one row of `ncols` values ("%.10e") and flush
 * it. Errors: SK_ERR_IO naming the file and errno text (the writer is then
 * failed and refuses further rows), SK_ERR_STATE. */
sk_status sk__csv_writer_row(sk__csv_writer *w, const double *vals, size_t ncols);

/* sk__csv_writer_close: flush, fsync and close the file. Errors: SK_ERR_IO,
 * SK_ERR_STATE (after a write error or when already closed). */
sk_status sk__csv_writer_close(sk__csv_writer *w);

/* sk__csv_writer_close_incomplete: close the stream (if open), cut the file
 * after the last complete row, append "# status=incomplete: <message>\n",
 * fsync and close. Works whether or not the stream was closed before.
 * Errors: SK_ERR_IO. */
sk_status sk__csv_writer_close_incomplete(sk__csv_writer *w, const char *message);

/* sk__csv_writer_replace_stream: testing hook (see
 * sk__results_test_replace_csv_stream). Errors: SK_ERR_ARG, SK_ERR_STATE. */
sk_status sk__csv_writer_replace_stream(sk__csv_writer *w, FILE *stream);

/* sk__csv_writer_free: close silently if still open, free, NULL *w; accepts
 * NULL. Does not remove the file. */
void sk__csv_writer_free(sk__csv_writer **w);

/* ---- HDF5 writer (hdf5_writer.c) --------------------------------------- */

/* extra series per result set (sk__results_add_series) */
#define SK__RESULTS_MAX_SERIES 2

typedef struct sk__h5_writer sk__h5_writer;

/* sk__h5_writer_open: create the HDF5 file `tmp_path` (it exists and is
 * empty; it is truncated) with /<axis> ("time" when axis is NULL), /probes (nprobes > 0), /norms (nnorms
 * columns named norm_names) and /state (write_states), and root attributes
 * format and status "running". `shown` is the final name for messages.
 * Names and indices are copied. Errors: SK_ERR_IO with the HDF5 error text,
 * SK_ERR_NOMEM. On error nothing stays open (the file itself remains). */
sk_status sk__h5_writer_open(sk_context *ctx, const char *tmp_path, const char *shown,
                             const char *axis, int64_t n, size_t nprobes, const int64_t *probes,
                             const char *const *probe_names, size_t nnorms,
                             const char *const *norm_names, int write_states, sk__h5_writer **w);

/* sk__h5_writer_add_series: the group /<name> with an extendible
 * /<name>/time and /<name>/values (ncols columns, attribute columns). At
 * most SK__RESULTS_MAX_SERIES. Errors: SK_ERR_IO, SK_ERR_STATE. */
sk_status sk__h5_writer_add_series(sk__h5_writer *w, const char *name, size_t ncols,
                                   const char *const *names);

/* sk__h5_writer_series_row: append a row (time t, ncols values) to series k
 * and flush. Errors: SK_ERR_IO, SK_ERR_STATE. */
sk_status sk__h5_writer_series_row(sk__h5_writer *w, int k, double t, const double *vals);

/* sk__h5_writer_set_grid: write /grid (x, y, z, attributes dims and
 * components). Arguments are checked by the caller. Errors: SK_ERR_IO,
 * SK_ERR_STATE (file not open). */
sk_status sk__h5_writer_set_grid(sk__h5_writer *w, int dim, const int64_t *n,
                                 const double *const *axes, int64_t components);

/* sk__h5_writer_row: append t, the probe values (nprobes), the norms
 * (nnorms) and, with write_states, the state (n); then flush the file.
 * Errors: SK_ERR_IO (the writer is then failed), SK_ERR_STATE. */
sk_status sk__h5_writer_row(sk__h5_writer *w, double t, const double *probe_vals,
                            const double *norms, const double *y);

/* sk__h5_writer_close: cut the datasets back to the rows written
 * completely, write /statistics and /provenance (each when non-NULL, as a
 * string dataset and a root attribute), set the root attribute status (and
 * error when non-NULL), close the file and fsync it. When the file is no
 * longer open (an earlier close failed, or it was closed by a successful
 * close before), it is reopened read-write first. Errors: SK_ERR_IO (the
 * writer is then lost, see sk__h5_writer_lost). */
sk_status sk__h5_writer_close(sk__h5_writer *w, const char *stats_json, const char *provenance,
                              const char *status, const char *error);

/* sk__h5_writer_lost: 1 when a close failed, so that the file on disk may
 * be damaged (it should be removed, not kept as a partial result). */
int sk__h5_writer_lost(const sk__h5_writer *w);

/* sk__h5_writer_free: close silently if still open, free, NULL *w; accepts
 * NULL. Does not remove the file. */
void sk__h5_writer_free(sk__h5_writer **w);

#endif

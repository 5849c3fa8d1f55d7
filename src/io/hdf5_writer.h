/* src/io/hdf5_writer.h: the HDF5 file of a run, inside the HDF5 module (libstiffkit reaches it through io/hdf5_module.h) */
#ifndef SK_IO_HDF5_WRITER_H
#define SK_IO_HDF5_WRITER_H

#include "io/hdf5_module.h"
#include "io/results.h" /* SK_RESULTS_MAX_SERIES */

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
 * most SK_RESULTS_MAX_SERIES. Errors: SK_ERR_IO, SK_ERR_STATE. */
sk_status sk__h5_writer_add_series(sk__h5_writer *w, const char *name, size_t ncols,
                                   const char *const *names);

/* sk__h5_writer_series_blocks: give series k nblocks full-length blocks,
 * datasets <series>/<names[b]> of rows x len values, written with each row.
 * Errors: SK_ERR_IO, SK_ERR_STATE (twice), SK_ERR_NOMEM. */
sk_status sk__h5_writer_series_blocks(sk__h5_writer *w, int k, size_t nblocks,
                                      const char *const *names, int64_t len);

/* sk__h5_writer_series_row: append a row (time t, ncols values and, with
 * blocks, nblocks x len values, block b at blocks + b len) to series k and
 * flush. Errors: SK_ERR_IO, SK_ERR_STATE. */
sk_status sk__h5_writer_series_row(sk__h5_writer *w, int k, double t, const double *vals,
                                   const double *blocks);

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

/* sk__h5_writer_read_state: row `row` (< the rows written) of /state back
 * into y (n values), from the open file: the state rows are kept there, not
 * in memory (a checkpoint copies them). Errors: SK_ERR_STATE (no states,
 * closed or failed writer, no such row), SK_ERR_IO. */
sk_status sk__h5_writer_read_state(sk__h5_writer *w, int64_t row, double *y);

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

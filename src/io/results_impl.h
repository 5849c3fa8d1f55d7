/* src/io/results_impl.h: the CSV writer behind sk_results (the HDF5 writer is the module io/hdf5_module.h) */
#ifndef SK_IO_RESULTS_IMPL_H
#define SK_IO_RESULTS_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stiffkit/context.h"

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

#endif

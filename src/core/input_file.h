/* src/core/input_file.h: open an input file for reading so that a stop request is honoured while it blocks: a FIFO, pipe or device is read whole through poll(), a regular file opened as is */
#ifndef SK_CORE_INPUT_FILE_H
#define SK_CORE_INPUT_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "stiffkit/context.h"

/* sk__input_open: a read stream for `path`, shown in messages as `what`
 * ("config file", "netlist", ...).
 *   regular file       fopen(path, "rb")
 *   FIFO, pipe, device read whole (at most max_bytes) through a
 *                      non-blocking descriptor and poll() in 100 ms slices,
 *                      then served from memory (fmemopen): a FIFO with no
 *                      writer waits for one, and a stop request
 *                      (sk_context_set_stop_flag) ends the wait
 * A directory is refused. Errors: SK_ERR_MISSING (cannot open, a
 * directory), SK_ERR_INPUT (larger than max_bytes), SK_INTERRUPTED (a stop
 * request while waiting for data), SK_ERR_IO, SK_ERR_NOMEM. Close the
 * stream with sk__input_close. */
sk_status sk__input_open(sk_context *ctx, const char *path, const char *what, size_t max_bytes,
                         FILE **stream);

/* sk__input_open_at: sk__input_open with the reader's own context in
 * every message: `at` (NULL: none) before it, e.g. "main.net:2:10: " for
 * an included file, and `given_by` (NULL: none) after the path, e.g.
 * `model.stiffness` gives "cannot open Matrix Market file 'K.mtx' given by
 * model.stiffness: No such file or directory". max_bytes SIZE_MAX: no
 * limit. Errors: as sk__input_open. */
sk_status sk__input_open_at(sk_context *ctx, const char *path, const char *what, const char *at,
                            const char *given_by, size_t max_bytes, FILE **stream);

/* sk__input_close: close a stream of sk__input_open (NULL: nothing). */
void sk__input_close(FILE *stream);

#endif

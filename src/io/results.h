/* src/io/results.h: the journal of a result set (every row it wrote, as tables) that a checkpoint saves and a restart replays; the result files themselves are stiffkit/results.h */
#ifndef SK_IO_RESULTS_H
#define SK_IO_RESULTS_H

#include <stddef.h>
#include <stdio.h>

#include "stiffkit/results.h"

/* Checkpoints: the object keeps every row it wrote (its journal), as
 * tables: table 0 holds the main rows, each t, probe values and norms
 * (as in the CSV) followed, with write_states, by the n state values;
 * table 1 + k holds series k (t, then its columns). */

/* sk__results_ntables: 1 + the number of extra series (0 for NULL). */
size_t sk__results_ntables(const sk_results *res);

/* sk__results_table: the rows written so far to table k, rows of `width`
 * values: the first `head` of each row are in memory (data holds rows x
 * head values, row-major; valid until the next write), the rest (the
 * state, width - head values, table 0 with output.states and HDF5 only) is
 * kept in the HDF5 file alone and read back with sk__results_read_tail.
 * Errors: SK_ERR_ARG. */
sk_status sk__results_table(const sk_results *res, size_t k, size_t *rows, size_t *width,
                            size_t *head, const double **data);

/* sk__results_read_tail: the width - head values of row `row` of table k
 * (see sk__results_table) into out. Errors: SK_ERR_ARG (no such row or no
 * tail), those of reading the HDF5 file (SK_ERR_IO). */
sk_status sk__results_read_tail(sk_results *res, size_t k, size_t row, double *out);

/* sk__results_replay: write saved rows of table k (from sk__results_table
 * of an earlier run with the same settings) as they are, before any new
 * row: the restarted run's files then hold the earlier outputs too.
 * Errors: SK_ERR_INPUT (width differs from this object's, a non-finite
 * value, times going back: the saved rows do not fit these settings),
 * SK_ERR_IO, SK_ERR_STATE as sk_results_write. */
sk_status sk__results_replay(sk_results *res, size_t k, size_t rows, size_t width,
                             const double *data);

/* sk__results_commit_fn: see sk__results_set_commit_hook. */
typedef void (*sk__results_commit_fn)(void *data);

/* sk__results_set_commit_hook: sk_results_finish calls fn(data) once
 * every file is complete and all but the last are under their final names,
 * just before the last rename (the commit point): e.g. to remove the run's
 * checkpoint, so that no complete set coexists with a checkpoint that would
 * make a restart repeat the finished run. fn NULL: none. Errors:
 * SK_ERR_ARG (NULL res). */
sk_status sk__results_set_commit_hook(sk_results *res, sk__results_commit_fn fn, void *data);

/* sk__results_test_replace_csv_stream: testing hook: the CSV rows go to
 * `stream` (e.g. fopen("/dev/full", "w")) from now on; the object takes
 * ownership of it. The temporary file stays in place and is cleaned up as
 * usual. Errors: SK_ERR_ARG (NULL stream), SK_ERR_STATE (no CSV open). */
sk_status sk__results_test_replace_csv_stream(sk_results *res, FILE *stream);

#endif

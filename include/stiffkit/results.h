/* stiffkit/results.h: result files of a run (CSV table, HDF5 time series, provenance sidecar), written under temporary names and renamed into place once complete */
#ifndef STIFFKIT_RESULTS_H
#define STIFFKIT_RESULTS_H

#include <stddef.h>
#include <stdint.h>

#include "stiffkit/context.h"
#include "stiffkit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the public API: exported from libstiffkit, which hides everything else */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* Files of one run with prefix P in directory D:
 *   during the run   D/P.csv.tmp.<pid>   D/P.h5.tmp.<pid>   D/P.provenance.yaml.tmp.<pid>
 *   after finish     D/P.csv             D/P.h5             D/P.provenance.yaml (with the CSV)
 *   after fail       D/P.partial.csv     D/P.partial.h5     D/P.partial.provenance.yaml
 * The final names are created only by rename(2) once every byte is on disk
 * (fsync of the file, then of the directory), so a file under its final name
 * is always complete. The renames go data first (.h5, series, .csv) and the
 * sidecar last (the .h5 when there is no CSV): that last rename is the
 * commit point of the set, so a set without its sidecar is incomplete (a
 * kill between the renames) and the next run in the folder replaces it.
 *
 * CSV (D/P.csv): a header line and one row per output, nothing else:
 *   t, <probe names...>, max_abs_y, rms_y [, max_abs_err, rms_err]
 * values "%.10e", fields quoted as RFC 4180 when they contain , " or a line
 * break. rms_y = sqrt(sum y_i^2 / n); err = y - yexact. A partial CSV ends
 * with one line "# status=incomplete: <message>".
 *
 * Sidecar (D/P.provenance.yaml, written when the CSV is): YAML mapping with
 * status, error (fail only), statistics (the JSON text, which is a YAML flow
 * mapping) and provenance (the provenance mapping, nested).
 *
 * HDF5 (D/P.h5):
 *   /time        float64 [ntimes]            extendible, chunked
 *   /probes      float64 [ntimes x nprobes]  extendible (only when nprobes > 0);
 *                attributes names (strings), indices (int64)
 *   /norms       float64 [ntimes x ncols]    extendible; attribute columns:
 *                max_abs_y, rms_y [, max_abs_err, rms_err]
 *   /state       float64 [ntimes x n]        extendible, one row per chunk (rows longer
 *                than 2^24 values are split); only with write_states
 *   /grid        group (only after set_grid): datasets x, y, z (node coordinates),
 *                attributes dims (int64 [dim]) and components (states per node)
 *   /<series>    group of each extra series: time, values [rows x ncols] (attribute
 *                columns) and its blocks [rows x len] (sk_results_series_blocks)
 *   /statistics  string dataset (JSON), also attribute statistics of /
 *   /provenance  string dataset (YAML), also attribute provenance of /
 *   attributes of /: format "stiffkit-results/1", status "running" during the
 *   run, "complete" after finish, "incomplete" after fail (then also error).
 * Strings are variable-length UTF-8. */

typedef struct sk_results sk_results;

/* Extra series per result set (sk_results_add_series). */
#define SK_RESULTS_MAX_SERIES 3

typedef struct {
  const char *dir;    /* output directory (must exist; not created); NULL means "." */
  const char *prefix; /* file stem without '/': <dir>/<prefix>.csv, <dir>/<prefix>.h5 */
  int csv, hdf5;      /* which files (at least one) */
  int write_states;   /* HDF5: full state at each output time */
  int64_t n;          /* state length (> 0) */
  size_t nprobes;
  const int64_t *probes;          /* nprobes state indices in [0, n) (copied) */
  const char *const *probe_names; /* nprobes names (copied), or NULL for "y[i]" */
  int has_exact;                  /* error columns present */
  const char *axis;               /* name of the abscissa: CSV column and HDF5 dataset
                                   * (NULL: "t" and /time; a BVP writes "x") */
} sk_results_config;

/* sk_results_open: create the temporary files and write the CSV header and
 * the HDF5 layout (status "running"). On success *res owns the temporary
 * files; on error *res is NULL and nothing is left in the directory.
 * Errors: SK_ERR_ARG (bad config: message names the field), SK_ERR_CREATE
 * ("cannot create output file '<path>': <strerror>" for a missing, non
 * directory or unwritable dir), SK_ERR_IO (writing the header/layout failed),
 * SK_ERR_UNSUPPORTED (hdf5 asked and the HDF5 module libstiffkit-hdf5.so
 * cannot be loaded), SK_ERR_NOMEM. */
sk_status sk_results_open(sk_context *ctx, const sk_results_config *cfg, sk_results **res);

/* sk_results_set_grid: record the grid of the state for the HDF5 file:
 * axes[d][0..n[d]) are the node coordinates of direction d (dim 1..3),
 * written as /grid/x, /grid/y, /grid/z with attribute dims. The state length
 * must be a multiple of prod n[d] (components per node). At most once, before
 * finish/fail; a no-op apart from the checks when no HDF5 file is written.
 * Errors: SK_ERR_ARG, SK_ERR_STATE (twice, or after finish/fail), SK_ERR_IO,
 * SK_ERR_NOMEM. */
sk_status sk_results_set_grid(sk_results *res, int dim, const int64_t *n,
                              const double *const *axes);

/* sk_results_add_series: a second table beside the main series (e.g. a
 * network's element heat flows): the CSV file <prefix>.<name>.csv (columns
 * t, then col_names; copied) and, in the HDF5 file, the group /<name> with
 * time and values (rows x ncols, attribute columns). finish and fail treat
 * its CSV like the main one (final, or .partial.<name>.csv marked
 * incomplete). At most 3, before the first row; *id is its index.
 * Errors: SK_ERR_ARG (name not 1-31 of [a-z_], or taken: time, probes,
 * norms, state, grid, statistics, provenance, the abscissa's name or an
 * earlier series'; no columns; NULL id), SK_ERR_TOO_LARGE,
 * SK_ERR_STATE, SK_ERR_CREATE, SK_ERR_IO, SK_ERR_NOMEM. */
sk_status sk_results_add_series(sk_results *res, const char *name, size_t ncols,
                                const char *const *col_names, int *id);

/* sk_results_series_blocks: give series id (before its first row) nblocks
 * full-length blocks of len values each, written with every row as the HDF5
 * datasets /<series>/<names[b]> (rows x len) and kept in the journal (a
 * checkpoint carries them); no CSV columns, and nothing at all without an
 * HDF5 file. Errors: SK_ERR_ARG, SK_ERR_STATE (after the first row, twice),
 * SK_ERR_TOO_LARGE, SK_ERR_IO, SK_ERR_NOMEM. */
sk_status sk_results_series_blocks(sk_results *res, int id, size_t nblocks,
                                   const char *const *names, int64_t len);

/* sk_results_write_series: append a row (time t, non-decreasing; ncols
 * finite values) to series id. Errors: as sk_results_write. */
sk_status sk_results_write_series(sk_results *res, int id, double t, const double *vals);

/* sk_results_write_series_blocks: as sk_results_write_series, with the
 * series' blocks (nblocks x len finite values, block b at blocks + b len;
 * required when the series has blocks, else ignored). */
sk_status sk_results_write_series_blocks(sk_results *res, int id, double t, const double *vals,
                                         const double *blocks);

/* sk_results_write: append one output: time t (finite, strictly greater
 * than the previous t), state y (length n) and, when the config has
 * has_exact, the exact solution yexact (required then; ignored otherwise).
 * The CSV row is flushed and the HDF5 file flushed before returning.
 * Nothing is written when a value is NaN/Inf. Errors: SK_ERR_ARG (NULL y,
 * missing yexact, t not increasing), SK_ERR_NONFINITE (names t and the
 * component), SK_ERR_IO (names the file and the errno/HDF5 text; the object
 * then accepts only sk_results_fail / sk_results_destroy), SK_ERR_STATE
 * (after finish/fail). */
sk_status sk_results_write(sk_results *res, double t, const double *y, const double *yexact);

/* sk_results_finish: store the statistics (JSON text, may be NULL) and
 * the provenance (YAML text, may be NULL), set status "complete", close and
 * fsync every file, rename each to its final name and fsync the directory.
 * Stale <prefix>.partial.* files of an earlier failed run are then removed.
 * Errors: SK_ERR_IO (naming the file), SK_ERR_CREATE (the sidecar cannot be
 * created), SK_ERR_NOMEM, SK_ERR_STATE (called twice, after fail or after a
 * write error). After an error no final name exists (renames done before a
 * failed one are undone); call sk_results_fail or sk_results_destroy next.
 * Exception: when only the final fsync of the directory fails, the files are
 * complete under their final names and the object counts as finished. */
sk_status sk_results_finish(sk_results *res, const char *stats_json, const char *provenance_yaml);

/* sk_results_fail: the run failed after output started: keep the complete
 * rows written so far under <prefix>.partial.csv / .partial.h5 (and
 * .partial.provenance.yaml), marked status "incomplete" with `message`
 * (HDF5 attributes status and error; CSV last line "# status=incomplete:
 * <message>", a torn last row is cut off first). The final names are never
 * created. The context's error record is left untouched (it describes the
 * failure of the run): a problem while keeping the partial files is logged
 * as a warning and reported by the return value only. Returns SK_OK,
 * SK_ERR_IO (some partial file could not be completed; it is kept anyway
 * when it exists), SK_ERR_STATE (after finish succeeded, or twice). */
sk_status sk_results_fail(sk_results *res, const char *stats_json, const char *provenance_yaml,
                          const char *message);

/* sk_results_destroy: free the object and NULL *res; accepts NULL. Without a
 * successful finish/fail it removes the temporary files (nothing is left). */
void sk_results_destroy(sk_results **res);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif

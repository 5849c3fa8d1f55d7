/* src/cli/collect.h: the table of a sweep's cases gathered by `stiffkit collect` (parameters, outputs, statistics, status) and its writers */
#ifndef SK_CLI_COLLECT_H
#define SK_CLI_COLLECT_H

#include <stddef.h>

#include "cli/atomic_file.h"
#include "cli/sweep_dir.h"

typedef enum { COLLECT_TEXT, COLLECT_NUMBER } collect_kind;

typedef struct {
  char *name;
  const char *group; /* HDF5 group: "" (the case), "parameters", "outputs", "statistics" */
  collect_kind kind; /* NUMBER: every cell is a number (NaN where there is none) */
} collect_column;

/* One row per case; a cell holds a text (TEXT columns, and parameters as
 * written) and a number (NUMBER columns). */
typedef struct collect_table {
  size_t nrows, ncols;
  collect_column *cols;
  char **text; /* [row * ncols + col], NULL when the cell is a number only */
  double *num; /* [row * ncols + col] */
  size_t first_output,
      first_stat;     /* column ranges: case | parameters | outputs | statistics | tail */
  const char *format; /* the HDF5 root attribute "format"; NULL: "stiffkit-collect/1" */
} collect_table;

/* collect_build: the table of the sweep in dir with manifest m, columns:
 *   id, status (ok, failed, interrupted, running, missing), exit_code,
 *   wall_time, attempts;
 *   every parameter (text as written; a number in HDF5 when all are);
 *   outputs from the case's results CSV: each chosen probe at each chosen
 *   time ("<probe>@t=<t>"; the row whose t matches within 1e-12 relative,
 *   else linear interpolation between the bracketing rows, NaN outside or
 *   without results), or at the final row ("<probe>@end") when no times
 *   are chosen; without chosen probes every probe column by position
 *   (named by the probe when all cases agree, else "probe<k>"); then the
 *   final max_abs_y, rms_y (and max_abs_err, rms_err when any case has
 *   them);
 *   every numeric field of the case's stats.json ("n", "stats.steps", ...);
 *   provenance (collect_provenance_hash, "" without a sidecar) and error
 *   (the case's last error message).
 * A `running` case whose runner is gone is listed as interrupted
 * (sweep_status_settle). Errors: SK_ERR_INPUT "collect: probe 'p' is not a
 * column of case <id>'s results (<csv>); its columns: ..." for a chosen
 * probe missing from the results of a case that is neither failed nor
 * missing; SK_ERR_NOMEM (a damaged case file leaves its cells empty or
 * NaN). Free with collect_table_free (also after an error). */
sk_status collect_build(sk_context *ctx, const char *dir, const sweep_manifest *m,
                        collect_table *t);

/* collect_table_free: release the table. */
void collect_table_free(collect_table *t);

/* collect_cell_text: the CSV text of a cell into buf: its text, else the
 * number ("nan" when NaN, an integer without exponent when integral and
 * below 1e15, else %.10e). */
const char *collect_cell_text(const collect_table *t, size_t row, size_t col, char *buf,
                              size_t cap);

/* collect_provenance_hash: FNV-1a 64 (16 hex digits into hex) of what
 * determines a case's numbers, read from its provenance sidecar `path`:
 * the stiffkit version, git revision and build options, the library
 * versions and the effective options except output.dir. Not the date,
 * host, working directory, command line, threads or statistics (wall
 * time): identical reruns get the same hash. Returns 0, or -1 (hex = "")
 * when the sidecar cannot be read or holds no provenance. */
int collect_provenance_hash(sk_context *ctx, const char *path, char hex[17]);

/* collect_write_csv: the table as CSV (RFC 4180 quoting) into a new
 * temporary file next to `path`, flushed, synced and closed but not
 * renamed: the caller renames it (cli_atomic_rename) once every table is
 * written, or removes af->tmp. Returns 0, or 73/74 after printing (nothing
 * left behind). */
int collect_write_csv(cli_atomic_file *af, const char *path, const collect_table *t);

/* collect_write_h5: the table as HDF5 into a temporary file next to `path`
 * (its name into tmp, cap bytes), closed and synced but not renamed: one
 * dataset per column (float64 or variable-length UTF-8 strings, one value
 * per case) in the root (id, status, exit_code, wall_time, attempts,
 * provenance, error) or in the groups /parameters, /outputs and
 * /statistics; root attributes format (t->format, by default
 * "stiffkit-collect/1") and columns
 * (every dataset path, in table order). Returns 0, or 73/74 after printing
 * the reason (nothing left behind). */
int collect_write_h5(const char *path, const collect_table *t, char *tmp, size_t cap);

#endif

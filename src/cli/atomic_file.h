/* src/cli/atomic_file.h: output files written under a temporary name and renamed into place when complete */
#ifndef SK_CLI_ATOMIC_FILE_H
#define SK_CLI_ATOMIC_FILE_H

#include <stdio.h>

typedef struct {
  FILE *f;
  char tmp[4096];
  const char *path;
} cli_atomic_file;

/* cli_atomic_open: open a new temporary file next to `path` (permissions
 * as a plain fopen would give). Returns 0, or 73 after printing the reason. */
int cli_atomic_open(cli_atomic_file *af, const char *path);

/* cli_atomic_commit: cli_atomic_finish, then cli_atomic_rename: flush,
 * fsync and close the file, then rename it to its final name, so that a
 * crash (even of the machine) leaves the previous file or the complete new
 * one under that name; on a write, sync or rename failure remove it.
 * Returns 0, or 74 after printing. */
int cli_atomic_commit(cli_atomic_file *af);

/* cli_atomic_finish: flush, fsync and close the temporary file, which
 * keeps its temporary name (af->tmp) until cli_atomic_rename (to rename
 * several files once all are written). Returns 0, or 74 after printing
 * (the temporary file removed). */
int cli_atomic_finish(cli_atomic_file *af);

/* cli_atomic_rename: rename a finished temporary file to its final name.
 * Returns 0, or 74 after printing (the temporary file removed). */
int cli_atomic_rename(cli_atomic_file *af);

/* cli_atomic_abort: close and remove the temporary file. */
void cli_atomic_abort(cli_atomic_file *af);

/* cli_atomic_keep_all_or_none: when code is not 0, remove the *nfiles
 * files already renamed into place and set *nfiles to 0 (a result set
 * without its sidecar is not a result). Returns code. */
int cli_atomic_keep_all_or_none(int code, char (*files)[4096], int *nfiles);

#endif

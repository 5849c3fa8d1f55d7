/* src/io/write_util.h: helpers shared by the output writers (results, checkpoint, the HDF5 module): fsync, one-line messages */
#ifndef SK_IO_WRITE_UTIL_H
#define SK_IO_WRITE_UTIL_H

#include <stddef.h>

#include "stiffkit/context.h"

/* sk__fsync_path: open `path` read-only, fsync it, close it. `shown`
 * is the name used in the message. Errors: SK_ERR_IO
 * "I/O error writing '<shown>' (temporary '<path>'): <strerror>". */
sk_status sk__fsync_path(sk_context *ctx, const char *path, const char *shown);

/* sk__fsync_dir: fsync the directory `dir` (so that a rename in it is on
 * disk). Errors: SK_ERR_IO naming the directory. */
sk_status sk__fsync_dir(sk_context *ctx, const char *dir);

/* sk__one_line: copy `msg` into buf (NUL-terminated), with every
 * control character (line breaks, tabs) replaced by a space; NULL or ""
 * gives "unknown error". */
void sk__one_line(const char *msg, char *buf, size_t len);

#endif

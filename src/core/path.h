/* src/core/path.h: the one rule for paths named inside files: relative to the directory of the file that names them */
#ifndef SK_CORE_PATH_H
#define SK_CORE_PATH_H

#include "stiffkit/context.h"

/* sk__path_resolve: the absolute path that `path` stands for when it is
 * named inside the file `naming_file`.
 *   path         inputs, not modified: a file name as written (non-empty)
 *   naming_file  the file (config, netlist, sweep, CSV) whose text names it,
 *                as it was opened (relative to the working directory or
 *                absolute); NULL when the path comes from the command line
 *   *out         output: a malloc'ed (sk__malloc on ctx) absolute path
 * The rule: an absolute path is returned unchanged; a relative one is
 * joined to the directory of naming_file (its symbolic links resolved, so
 * that leading ".." segments of `path` climb real directories) or, for
 * the command line, to the working directory. "." segments and repeated
 * slashes are dropped; the file itself need not exist.
 * Returns SK_OK, SK_ERR_ARG (NULL or empty argument), SK_ERR_NOMEM,
 * SK_ERR_TOO_LARGE (longer than 4095 bytes), SK_ERR_IO (no working
 * directory). */
sk_status sk__path_resolve(sk_context *ctx, const char *naming_file, const char *path,
                           char **out);

#endif

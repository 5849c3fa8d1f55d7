/* stiffkit/config.h: YAML config files read into the options database */
#ifndef STIFFKIT_CONFIG_H
#define STIFFKIT_CONFIG_H

#include <stddef.h>

#include "stiffkit/options.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the public API: exported from libstiffkit, which hides everything else */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* Largest config file sk_config_load reads (bytes). */
#define SK_CONFIG_MAX_BYTES ((size_t)16 << 20)

/* Deepest nesting of mappings and sequences in a config file. */
#define SK_CONFIG_MAX_DEPTH 64

/* sk_config_load: read the YAML file `path` and set its keys in `opts`, each
 * with its origin {path, line, column} (1-based, the value's position; for
 * an unknown key, the key's position).
 *
 * The top level is a mapping (an empty file, or one holding only comments or
 * an empty document, sets nothing). Nested mappings join their keys with '.'
 * (`solver: {rtol: 1e-6}` sets solver.rtol), and a key may itself be dotted
 * at any level (`solver.rtol: 1e-6`), so the text of
 * sk_options_write_effective loads back. A sequence of scalars sets a list
 * key. Tags are ignored; anchors and aliases are rejected. The file is read
 * whole and checked for YAML syntax before any key is set; a later semantic
 * error leaves the keys before it set.
 *
 * Returns SK_OK or, with the error recorded in the options' context:
 *   SK_ERR_MISSING      "cannot open config file 'x.yaml': <strerror>" (or
 *                       "cannot read ..." when reading fails, e.g. a directory)
 *   SK_ERR_INPUT        "file:line:col: YAML syntax error: <problem> (<context> at L:C)";
 *                       the top level is not a mapping; a mapping given to a
 *                       single-valued key; a value given to a section; a
 *                       sequence for a non-list key; nested sequences; a key
 *                       given twice ("duplicate key 'k' (first given at line L,
 *                       column C)"); an anchor or alias; more than one document;
 *                       nesting deeper than SK_CONFIG_MAX_DEPTH; a file larger
 *                       than SK_CONFIG_MAX_BYTES; a bad value (from sk_options_set)
 *   SK_ERR_UNKNOWN_KEY  from sk_options_set, with suggestion and valid keys
 *   SK_ERR_NOMEM, SK_ERR_ARG (NULL argument)
 *   SK_INTERRUPTED      (positive: test for it, SK_CALL lets it pass) the
 *                       file is a FIFO or pipe and the context's stop flag
 *                       (sk_context_set_stop_flag) was set while waiting for
 *                       its data; opts unchanged
 * A FIFO, pipe or device is read whole first (a FIFO waits for its writer);
 * a directory is SK_ERR_MISSING. */
sk_status sk_config_load(sk_options *opts, const char *path);

/* sk_config_load_buffer: the same for `len` bytes of YAML text in memory;
 * `name` stands for the file name in origins and messages. */
sk_status sk_config_load_buffer(sk_options *opts, const char *name, const char *text, size_t len);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif

/* src/cli/yaml_doc.h: small YAML files read whole (libyaml document API), navigated with file:line:column messages */
#ifndef SK_CLI_YAML_DOC_H
#define SK_CLI_YAML_DOC_H

#include <stddef.h>
#include <stdint.h>

#include <yaml.h>

#include "stiffkit/context.h"

typedef struct {
  sk_context *ctx;
  const char *file; /* the path as given, for messages (not copied) */
  yaml_document_t doc;
  int loaded;
} cli_yaml;

/* cli_yaml_load: read the YAML file `path` (one document whose root is a
 * mapping; an empty file is an empty mapping). Errors, recorded in ctx:
 * SK_ERR_MISSING "cannot open '<path>': <strerror>", SK_ERR_INPUT
 * "<path>:L:C: YAML syntax error: ...", a second document, a root that is
 * not a mapping; SK_ERR_NOMEM. Free with cli_yaml_free (also after an
 * error). */
sk_status cli_yaml_load(sk_context *ctx, const char *path, cli_yaml *y);

/* cli_yaml_free: release the document (accepts one never loaded). */
void cli_yaml_free(cli_yaml *y);

/* cli_yaml_root: the root mapping (NULL for an empty file). */
yaml_node_t *cli_yaml_root(cli_yaml *y);

/* cli_yaml_line / cli_yaml_column: 1-based position of a node. */
int cli_yaml_line(const yaml_node_t *n);
int cli_yaml_column(const yaml_node_t *n);

/* cli_yaml_text: the text of a scalar node without an embedded NUL, NULL
 * for anything else. */
const char *cli_yaml_text(const yaml_node_t *n);

/* cli_yaml_is_null: a plain scalar "", "~" or "null" (an empty value). */
int cli_yaml_is_null(const yaml_node_t *n);

/* cli_yaml_error: record `code` with the message "<file>:L:C: <fmt...>"
 * at node n (no position when n is NULL) and return code. */
sk_status cli_yaml_error(const cli_yaml *y, const yaml_node_t *n, sk_status code, const char *fmt,
                         ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* cli_yaml_pair: the i-th key and value nodes of mapping `map` (i from 0);
 * returns 0 past the last pair. */
int cli_yaml_pair(cli_yaml *y, const yaml_node_t *map, size_t i, yaml_node_t **key,
                  yaml_node_t **value);

/* cli_yaml_item: the i-th node of sequence `seq`, NULL past the last. */
yaml_node_t *cli_yaml_item(cli_yaml *y, const yaml_node_t *seq, size_t i);

/* cli_yaml_count: items of a sequence, pairs of a mapping, 0 otherwise. */
size_t cli_yaml_count(const yaml_node_t *n);

/* cli_yaml_get: the value of `key` in mapping `map`, NULL when absent (or
 * when map is not a mapping). */
yaml_node_t *cli_yaml_get(cli_yaml *y, const yaml_node_t *map, const char *key);

/* cli_yaml_check_keys: SK_ERR_INPUT for a key of `map` that is not a
 * scalar, is given twice, or is not among the `n` names in `valid`
 * ("<file>:L:C: unknown key 'k' in <what> (valid: a, b, c)"). A NULL map
 * passes; a node that is not a mapping is an error naming `what`. */
sk_status cli_yaml_check_keys(cli_yaml *y, const yaml_node_t *map, const char *const *valid,
                              size_t n, const char *what);

/* Typed scalars; `what` names the value in messages. Errors: SK_ERR_INPUT
 * "<file>:L:C: <what>: expected ..., got '<text>'". */
sk_status cli_yaml_real(const cli_yaml *y, const yaml_node_t *n, const char *what, double *v);
sk_status cli_yaml_int(const cli_yaml *y, const yaml_node_t *n, const char *what, int64_t min,
                       int64_t max, int64_t *v);
sk_status cli_yaml_bool(const cli_yaml *y, const yaml_node_t *n, const char *what, int *v);

/* cli_yaml_string: a scalar's text into dst (cap bytes). Errors:
 * SK_ERR_INPUT when n is not a scalar or the text does not fit. */
sk_status cli_yaml_string(const cli_yaml *y, const yaml_node_t *n, const char *what, char *dst,
                          size_t cap);

#endif

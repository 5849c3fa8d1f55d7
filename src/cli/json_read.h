/* src/cli/json_read.h: reading the CLI's own small JSON files (status, statistics) as flat key/value lists (jansson) */
#ifndef SK_CLI_JSON_READ_H
#define SK_CLI_JSON_READ_H

#include <stddef.h>

#include "stiffkit/context.h"

typedef enum { CLI_JSON_NUMBER, CLI_JSON_STRING, CLI_JSON_BOOL, CLI_JSON_NULL } cli_json_kind;

typedef struct {
  char *key; /* nested objects join their keys with '.': "stats.steps" */
  cli_json_kind kind;
  double number; /* NUMBER; BOOL as 0/1 */
  char *text;    /* STRING */
} cli_json_field;

typedef struct {
  cli_json_field *fields; /* in file order */
  size_t n;
} cli_json_flat;

/* cli_json_read_flat: parse the file `path` holding one JSON object (with
 * jansson; a key given twice is an error) into its scalar fields; arrays
 * are skipped. Errors, recorded in ctx: SK_ERR_MISSING (cannot open),
 * SK_ERR_INPUT ("<path>:L:C: malformed JSON: <jansson's reason>", or a top
 * level that is not an object), SK_ERR_NOMEM. Free with cli_json_flat_free
 * (also after an error). */
sk_status cli_json_read_flat(sk_context *ctx, const char *path, cli_json_flat *out);

/* cli_json_flat_free: release the fields (accepts an empty list). */
void cli_json_flat_free(cli_json_flat *f);

/* cli_json_flat_get: the field `key`, NULL when absent. */
const cli_json_field *cli_json_flat_get(const cli_json_flat *f, const char *key);

#endif

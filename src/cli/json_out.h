/* src/cli/json_out.h: the command's JSON pieces: a result's head, a keyed number, a writer's text */
#ifndef SK_CLI_JSON_OUT_H
#define SK_CLI_JSON_OUT_H

#include <stdio.h>

#include "core/json_write.h"
#include "stiffkit/context.h"

/* cli_json_result_head: the head of a command's one-line JSON result:
 * `{"status": "complete"|"failed", "error": <the context's message or
 * null>, "files": [<files>], "report": ` (the caller writes the report and
 * the closing brace). */
void cli_json_result_head(FILE *f, const sk_context *ctx, int failed, const char (*files)[4096],
                          int nfiles);

/* cli_json_key_number: `, "key": v` (v as sk__json_number). */
void cli_json_key_number(FILE *f, const char *key, double v);

/* cli_json_text: what write(f, arg) prints, in a malloc'ed string (NULL when
 * out of memory); the caller frees it. */
char *cli_json_text(void (*write)(FILE *f, const void *arg), const void *arg);

#endif

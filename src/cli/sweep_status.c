/* src/cli/sweep_status.c: the status file of a sweep case (cases/<id>/status.json), read and written whole */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "cli/atomic_file.h"
#include "cli/cli.h"
#include "cli/json_out.h"
#include "cli/json_read.h"
#include "cli/sweep_dir.h"

void sweep_status_read(const char *dir, int width, size_t index, sweep_status *s)
{
  memset(s, 0, sizeof *s);
  snprintf(s->status, sizeof s->status, "missing");
  s->exit_code = -1;
  char path[SWEEP_PATH];
  if (sweep_case_path(path, sizeof path, dir, width, index, "status.json") != 0) {
    return;
  }
  FILE *probe = fopen(path, "r");
  if (!probe) {
    return;
  }
  fclose(probe);
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK) {
    return;
  }
  cli_json_flat flat;
  if (cli_json_read_flat(ctx, path, &flat) != SK_OK) {
    snprintf(s->status, sizeof s->status, "unreadable");
    snprintf(s->error, sizeof s->error, "%s", sk_context_get_error(ctx)->message);
  } else {
    const cli_json_field *st = cli_json_flat_get(&flat, "status");
    const cli_json_field *code = cli_json_flat_get(&flat, "exit_code");
    const cli_json_field *wall = cli_json_flat_get(&flat, "wall_time");
    const cli_json_field *att = cli_json_flat_get(&flat, "attempts");
    const cli_json_field *err = cli_json_flat_get(&flat, "error");
    snprintf(s->status, sizeof s->status, "%s",
             st && st->kind == CLI_JSON_STRING ? st->text : "unreadable");
    s->exit_code = code && code->kind == CLI_JSON_NUMBER ? (int)code->number : -1;
    s->wall_time = wall && wall->kind == CLI_JSON_NUMBER ? wall->number : 0.0;
    s->attempts = att && att->kind == CLI_JSON_NUMBER ? (int64_t)att->number : 0;
    if (err && err->kind == CLI_JSON_STRING) {
      snprintf(s->error, sizeof s->error, "%s", err->text);
    }
  }
  cli_json_flat_free(&flat);
  sk_context_destroy(&ctx);
}

int sweep_status_write(const char *dir, int width, size_t index, const sweep_status *s)
{
  char path[SWEEP_PATH];
  if (sweep_case_path(path, sizeof path, dir, width, index, "status.json") != 0) {
    fprintf(stderr, "stiffkit: error: the case directory name is too long\n");
    return SK_EXIT_CANTCREATE;
  }
  cli_atomic_file af;
  const int code = cli_atomic_open(&af, path);
  if (code != 0) {
    return code;
  }
  fprintf(af.f, "{\"id\": \"%0*zu\", \"index\": %zu, \"status\": ", width, index, index);
  cli_json_string(af.f, s->status);
  fprintf(af.f, ", \"exit_code\": %d", s->exit_code);
  cli_json_key_number(af.f, "wall_time", s->wall_time);
  fprintf(af.f, ", \"attempts\": %lld, \"error\": ", (long long)s->attempts);
  if (s->error[0]) {
    cli_json_string(af.f, s->error);
  } else {
    fputs("null", af.f);
  }
  fputs("}\n", af.f);
  return cli_atomic_commit(&af);
}

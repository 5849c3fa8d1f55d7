/* src/cli/sweep_status.c: the status file of a sweep case (cases/<id>/status.json), read and written whole */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/atomic_file.h"
#include "cli/cli.h"
#include "cli/json_out.h"
#include "cli/json_read.h"
#include "cli/sweep_dir.h"

/* A string field into dst ("" when absent or not a string). */
static void text_field(const cli_json_flat *flat, const char *key, char *dst, size_t cap)
{
  const cli_json_field *f = cli_json_flat_get(flat, key);
  snprintf(dst, cap, "%s", f && f->kind == CLI_JSON_STRING ? f->text : "");
}

/* A number field, `missing` when absent or not a number. */
static double number_field(const cli_json_flat *flat, const char *key, double missing)
{
  const cli_json_field *f = cli_json_flat_get(flat, key);
  return f && f->kind == CLI_JSON_NUMBER ? f->number : missing;
}

void sweep_status_read(const char *dir, int width, size_t index, sweep_status *s)
{
  memset(s, 0, sizeof *s);
  snprintf(s->status, sizeof s->status, "missing");
  s->exit_code = -1;
  s->checkpoint_t = NAN;
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
    text_field(&flat, "status", s->status, sizeof s->status);
    if (!s->status[0]) {
      snprintf(s->status, sizeof s->status, "unreadable");
    }
    s->exit_code = (int)number_field(&flat, "exit_code", -1);
    s->wall_time = number_field(&flat, "wall_time", 0.0);
    s->attempts = (int64_t)number_field(&flat, "attempts", 0);
    text_field(&flat, "error", s->error, sizeof s->error);
    s->checkpoint_t = number_field(&flat, "checkpoint_t", NAN);
    text_field(&flat, "requeue", s->requeue, sizeof s->requeue);
    s->pid = (long long)number_field(&flat, "runner.pid", 0);
    s->started = (unsigned long long)number_field(&flat, "runner.started", 0);
    text_field(&flat, "runner.host", s->host, sizeof s->host);
    text_field(&flat, "runner.slurm_job", s->slurm_job, sizeof s->slurm_job);
  }
  cli_json_flat_free(&flat);
  sk_context_destroy(&ctx);
}

/* Length of the well-formed UTF-8 sequence at p (1 to 4), 0 when it is
 * not one (JSON readers refuse such text, e.g. a message cut mid-character). */
static size_t utf8_length(const unsigned char *p)
{
  if (p[0] < 0x80) {
    return 1;
  }
  const size_t n = p[0] >= 0xc2 && p[0] <= 0xdf   ? 2
                   : p[0] >= 0xe0 && p[0] <= 0xef ? 3
                   : p[0] >= 0xf0 && p[0] <= 0xf4 ? 4
                                                  : 0;
  /* the second byte's range excludes overlong forms, surrogates and code points past U+10FFFF */
  const unsigned char lo = p[0] == 0xe0 ? 0xa0 : p[0] == 0xf0 ? 0x90 : 0x80;
  const unsigned char hi = p[0] == 0xed ? 0x9f : p[0] == 0xf4 ? 0x8f : 0xbf;
  for (size_t k = 1; k < n; k++) {
    if (p[k] < (k == 1 ? lo : 0x80) || p[k] > (k == 1 ? hi : 0xbf)) {
      return 0;
    }
  }
  return n;
}

/* `, "key": "text"` (bytes that are not UTF-8 written as '?'), or null for "". */
static void put_text(FILE *f, const char *key, const char *text)
{
  fprintf(f, ", \"%s\": ", key);
  if (!text[0]) {
    fputs("null", f);
    return;
  }
  char clean[1024];
  size_t n = 0;
  for (const unsigned char *p = (const unsigned char *)text; *p && n + 5 < sizeof clean;) {
    const size_t len = utf8_length(p);
    if (len == 0) {
      clean[n++] = '?';
      p++;
    } else {
      memcpy(clean + n, p, len);
      n += len;
      p += len;
    }
  }
  clean[n] = '\0';
  sk__json_string(f, clean);
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
  FILE *f = af.f;
  fprintf(f, "{\"id\": \"%0*zu\", \"index\": %zu, \"status\": ", width, index, index);
  sk__json_string(f, s->status);
  fprintf(f, ", \"exit_code\": %d", s->exit_code);
  cli_json_key_number(f, "wall_time", s->wall_time);
  fprintf(f, ", \"attempts\": %lld", (long long)s->attempts);
  put_text(f, "error", s->error);
  cli_json_key_number(f, "checkpoint_t", s->checkpoint_t);
  put_text(f, "requeue", s->requeue);
  fprintf(f, ",\n \"runner\": {\"pid\": %lld, \"started\": %llu", s->pid, s->started);
  put_text(f, "host", s->host);
  put_text(f, "slurm_job", s->slurm_job);
  fputs("}}\n", f);
  return cli_atomic_commit(&af);
}

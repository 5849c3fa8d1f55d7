/* src/core/context.c: context lifecycle, error record with traceback, logging, allocation hooks */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/context_impl.h"
#include "core/error.h"

sk_status sk_context_create(sk_context **ctx)
{
  if (!ctx) {
    return SK_ERR_ARG;
  }
  *ctx = calloc(1, sizeof **ctx);
  if (!*ctx) {
    return SK_ERR_NOMEM;
  }
  (*ctx)->log_level = SK_LOG_WARN;
  return SK_OK;
}

void sk_context_destroy(sk_context **ctx)
{
  if (!ctx || !*ctx) {
    return;
  }
  if ((*ctx)->mpi_owned && (*ctx)->mpi_finalize) {
    (*ctx)->mpi_finalize();
  }
  if ((*ctx)->plugin_close) {
    (*ctx)->plugin_close(*ctx);
  }
  free(*ctx);
  *ctx = NULL;
}

void sk_context_set_stop_flag(sk_context *ctx, const volatile sig_atomic_t *flag)
{
  if (ctx) {
    ctx->stop_flag = flag;
  }
}

void sk_context_set_log(sk_context *ctx, sk_log_level level, sk_log_fn fn, void *user_data)
{
  if (!ctx) {
    return;
  }
  ctx->log_level = level;
  ctx->log_fn = fn;
  ctx->log_data = user_data;
}

void sk_log_to_stream(void *stream, sk_log_level level, const char *msg)
{
  static const char *const names[] = {"error", "warning", "info", "debug"};
  FILE *out = stream ? (FILE *)stream : stderr;
  const int k =
      level < SK_LOG_ERROR ? SK_LOG_ERROR : (level > SK_LOG_DEBUG ? SK_LOG_DEBUG : level);
  fprintf(out, "stiffkit: %s: %s\n", names[k], msg);
  fflush(out);
}

const sk_error *sk_context_get_error(const sk_context *ctx)
{
  return ctx ? &ctx->err : NULL;
}

void sk_context_clear_error(sk_context *ctx)
{
  if (ctx) {
    memset(&ctx->err, 0, sizeof ctx->err);
  }
}

size_t sk_error_format(const sk_error *err, int with_traceback, char *buf, size_t len)
{
  if (!buf || len == 0) {
    return 0;
  }
  buf[0] = '\0';
  if (!err) {
    return 0;
  }
  size_t used = 0;
  int w = snprintf(buf, len, "%s", err->message[0] ? err->message : sk_status_str(err->code));
  used = w > 0 ? (size_t)w : 0;
  if (err->foreign_name[0] && used < len) {
    w = snprintf(buf + used, len - used, " [%s %d]", err->foreign_name, err->foreign_flag);
    used += w > 0 ? (size_t)w : 0;
  }
  for (int i = 0; with_traceback && i < err->nframes && used < len; i++) {
    w = snprintf(buf + used, len - used, "\n  at %s", err->frames[i]);
    used += w > 0 ? (size_t)w : 0;
  }
  return used < len ? used : len - 1;
}

static void error_add_frame(sk_error *err, const char *func, const char *file, int line)
{
  if (err->nframes < SK_ERROR_MAX_FRAMES) {
    snprintf(err->frames[err->nframes], sizeof err->frames[0], "%s() at %s:%d", func, file, line);
    err->nframes++;
  }
}

/* A fresh record: code and message, no frames. */
static void error_record(sk_error *err, sk_status code, const char *fmt, va_list ap)
{
  memset(err, 0, sizeof *err);
  err->code = code;
  vsnprintf(err->message, sizeof err->message, fmt ? fmt : "", ap);
}

sk_status sk__error_vset(sk_context *ctx, sk_status code, const char *func, const char *file,
                         int line, const char *fmt, va_list ap)
{
  if (!ctx) {
    return code;
  }
  error_record(&ctx->err, code, fmt, ap);
  error_add_frame(&ctx->err, func, file, line);
  return code;
}

sk_status sk__error_set(sk_context *ctx, sk_status code, const char *func, const char *file,
                        int line, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  sk_status st = sk__error_vset(ctx, code, func, file, line, fmt, ap);
  va_end(ap);
  return st;
}

sk_status sk_context_set_error(sk_context *ctx, sk_status code, const char *fmt, ...)
{
  if (!ctx) {
    return code;
  }
  va_list ap;
  va_start(ap, fmt);
  error_record(&ctx->err, code, fmt, ap);
  va_end(ap);
  return code;
}

void sk__error_set_foreign(sk_context *ctx, int flag, const char *name)
{
  if (!ctx) {
    return;
  }
  ctx->err.foreign_flag = flag;
  snprintf(ctx->err.foreign_name, sizeof ctx->err.foreign_name, "%s", name ? name : "");
}

void sk__error_push_frame(sk_context *ctx, const char *func, const char *file, int line)
{
  if (ctx) {
    error_add_frame(&ctx->err, func, file, line);
  }
}

void sk__error_restore(sk_context *ctx, const sk_error *saved)
{
  if (ctx && saved) {
    ctx->err = *saved;
  }
}

void sk__log(const sk_context *ctx, sk_log_level level, const char *fmt, ...)
{
  if (!ctx || !ctx->log_fn || level > ctx->log_level) {
    return;
  }
  char msg[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  ctx->log_fn(ctx->log_data, level, msg);
}

void *sk__malloc(sk_context *ctx, size_t size)
{
  if (ctx && ctx->alloc_fail_at > 0 && ++ctx->alloc_count == ctx->alloc_fail_at) {
    return NULL;
  }
  return malloc(size ? size : 1);
}

void *sk__calloc(sk_context *ctx, size_t count, size_t size)
{
  if (ctx && ctx->alloc_fail_at > 0 && ++ctx->alloc_count == ctx->alloc_fail_at) {
    return NULL;
  }
  return calloc(count ? count : 1, size ? size : 1);
}

void sk__free(sk_context *ctx, void *p)
{
  (void)ctx;
  free(p);
}

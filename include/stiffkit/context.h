/* stiffkit/context.h: the context object (no globals), error record with traceback, logging */
#ifndef STIFFKIT_CONTEXT_H
#define STIFFKIT_CONTEXT_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

#include "stiffkit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the public API: exported from libstiffkit, which hides everything else */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

typedef struct sk_context sk_context;

typedef enum {
  SK_LOG_ERROR = 0,
  SK_LOG_WARN = 1,
  SK_LOG_INFO = 2,
  SK_LOG_DEBUG = 3
} sk_log_level;

/* Log sink: receives one complete message (no trailing newline). */
typedef void (*sk_log_fn)(void *user_data, sk_log_level level, const char *msg);

#define SK_ERROR_MAX_FRAMES 16
#define SK_ERROR_MSG_LEN 1024

/* The last error: our code, the foreign flag (CVODE/KLU/...) when there is
 * one, a message, and a traceback of "func at file:line" frames, innermost
 * first. */
typedef struct {
  sk_status code;
  int foreign_flag;      /* original flag value, 0 if none */
  char foreign_name[48]; /* e.g. "CV_CONV_FAILURE", "" if none */
  char message[SK_ERROR_MSG_LEN];
  int nframes;
  char frames[SK_ERROR_MAX_FRAMES][160];
} sk_error;

/* sk_context_create: new context; logs go nowhere until a sink is set.
 * Returns SK_OK or SK_ERR_NOMEM (then *ctx is NULL). */
sk_status sk_context_create(sk_context **ctx);

/* sk_context_destroy: frees the context and NULLs *ctx; accepts NULL. */
void sk_context_destroy(sk_context **ctx);

/* sk_context_set_log: route messages at or below `level` to `fn`
 * (fn == NULL silences all logging). */
void sk_context_set_log(sk_context *ctx, sk_log_level level, sk_log_fn fn, void *user_data);

/* sk_context_set_stop_flag: a flag the application sets (from a signal
 * handler or a signal-waiting thread) to ask the library to stop. Reading
 * an input that can block without end (a config file that is a FIFO or
 * pipe with no writer yet) waits in slices of 100 ms and, once *flag is
 * nonzero, fails with SK_INTERRUPTED naming the file and the signal
 * number *flag holds. NULL (the default) never stops. */
void sk_context_set_stop_flag(sk_context *ctx, const volatile sig_atomic_t *flag);

/* sk_log_to_stream: a ready-made sink writing "stiffkit: <level>: msg\n" to
 * the FILE* passed as user_data. */
void sk_log_to_stream(void *stream, sk_log_level level, const char *msg);

/* sk_context_get_error: the last error record (code SK_OK when none). */
const sk_error *sk_context_get_error(const sk_context *ctx);

/* sk_context_set_error: record an error of user code (a model or plugin
 * callback, a stepper type) with a printf-style message, replacing the
 * previous record, and return `code` -- so that
 *   return sk_context_set_error(ctx, SK_ERR_INPUT, "n = %d: must be > 2", n);
 * reports the cause in stiffkit's messages. A NULL ctx only returns code. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
sk_status
sk_context_set_error(sk_context *ctx, sk_status code, const char *fmt, ...);

/* sk_context_clear_error: reset the error record to SK_OK. */
void sk_context_clear_error(sk_context *ctx);

/* sk_error_format: "message [FOREIGN_NAME flag]\n  at frame..." into buf
 * (always NUL-terminated). Returns the number of characters written. */
size_t sk_error_format(const sk_error *err, int with_traceback, char *buf, size_t len);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif

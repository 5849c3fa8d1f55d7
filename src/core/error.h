/* src/core/error.h: internal error recording (SK_CHECK / SK_CALL with tracebacks) and logging */
#ifndef SK_CORE_ERROR_H
#define SK_CORE_ERROR_H

#include <stdarg.h>

#include "stiffkit/context.h"

#if defined(__GNUC__)
#define SK__PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define SK__PRINTF(a, b)
#endif

/* Record a new error (replacing the previous record) and return `code`. */
sk_status sk__error_set(sk_context *ctx, sk_status code, const char *func, const char *file,
                        int line, const char *fmt, ...) SK__PRINTF(6, 7);

/* sk__error_set with the arguments as a va_list (the modules' entry, core/module.h). */
sk_status sk__error_vset(sk_context *ctx, sk_status code, const char *func, const char *file,
                         int line, const char *fmt, va_list ap) SK__PRINTF(6, 0);

/* Attach the foreign flag (value and name) to the current error record. */
void sk__error_set_foreign(sk_context *ctx, int flag, const char *name);

/* Append a "func at file:line" frame to the current error record. */
void sk__error_push_frame(sk_context *ctx, const char *func, const char *file, int line);

/* Replace the error record with a saved copy (keeps its traceback). */
void sk__error_restore(sk_context *ctx, const sk_error *saved);

/* Log a message at `level` through the context's sink. */
void sk__log(const sk_context *ctx, sk_log_level level, const char *fmt, ...) SK__PRINTF(3, 4);

/* Allocation through the context (failure injection point). */
void *sk__malloc(sk_context *ctx, size_t size);
void *sk__calloc(sk_context *ctx, size_t count, size_t size);
void sk__free(sk_context *ctx, void *p);
/* sk__realloc: a new block of new_size bytes holding the first old_size
 * bytes of p, which is then freed (p may be NULL); NULL on failure, with p
 * left intact. */
void *sk__realloc(sk_context *ctx, void *p, size_t old_size, size_t new_size);

#define SK_ERROR(ctx, code, ...) \
  sk__error_set((ctx), (code), __func__, __FILE__, __LINE__, __VA_ARGS__)

/* Validate: on failure record the error and return its code. */
#define SK_CHECK(ctx, cond, code, ...)             \
  do {                                             \
    if (!(cond)) {                                 \
      return SK_ERROR((ctx), (code), __VA_ARGS__); \
    }                                              \
  } while (0)

/* Propagate: evaluate expr (an sk_status); on error add a frame and return it. */
#define SK_CALL(ctx, expr)                                       \
  do {                                                           \
    sk_status sk__st = (expr);                                   \
    if (sk__st < 0) {                                            \
      sk__error_push_frame((ctx), __func__, __FILE__, __LINE__); \
      return sk__st;                                             \
    }                                                            \
  } while (0)

/* Propagate to a cleanup label: store the status in `var` and jump. */
#define SK_CALL_GOTO(ctx, var, expr, label)                      \
  do {                                                           \
    (var) = (expr);                                              \
    if ((var) < 0) {                                             \
      sk__error_push_frame((ctx), __func__, __FILE__, __LINE__); \
      goto label;                                                \
    }                                                            \
  } while (0)

#endif

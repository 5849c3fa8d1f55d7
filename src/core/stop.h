/* src/core/stop.h: stop requests (the context's stop flag, set from the signal thread) checked by long phases, and their propagation */
#ifndef SK_CORE_STOP_H
#define SK_CORE_STOP_H

#include <stdint.h>

#include "core/error.h"

/* sk__stop_requested: the signal number of a pending stop request on ctx
 * (sk_context_set_stop_flag), 0 when none or no flag is set. */
int sk__stop_requested(const sk_context *ctx);

/* sk__stop_check: SK_OK when no stop is pending; otherwise records
 * "stopped by signal N while <doing>" and returns SK_INTERRUPTED (positive:
 * propagate it with SK_CALL_STOP). For the loops of long phases (model
 * building, coloring, factorization, output writing): the flag is a plain
 * load, cheap enough every few thousand items. */
sk_status sk__stop_check(sk_context *ctx, const char *doing);

/* Iterations of a long loop between two stop checks (a power of two). */
#define SK__STOP_EVERY 4096

/* sk__stop_poll: sk__stop_check on every SK__STOP_EVERY-th iteration i of a
 * loop (i = 0 included), SK_OK on the others: one load of the flag per
 * SK__STOP_EVERY items keeps the cost out of the loop's profile. */
static inline sk_status sk__stop_poll(sk_context *ctx, int64_t i, const char *doing)
{
  return (i & (SK__STOP_EVERY - 1)) ? SK_OK : sk__stop_check(ctx, doing);
}

/* Propagate like SK_CALL, and pass a stop request (SK_INTERRUPTED, which
 * SK_CALL lets through as a warning) on as well. */
#define SK_CALL_STOP(ctx, expr)                                  \
  do {                                                           \
    sk_status sk__st = (expr);                                   \
    if (sk__st < 0 || sk__st == SK_INTERRUPTED) {                \
      sk__error_push_frame((ctx), __func__, __FILE__, __LINE__); \
      return sk__st;                                             \
    }                                                            \
  } while (0)

#endif

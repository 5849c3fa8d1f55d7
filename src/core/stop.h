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

/* ---- calls that cannot stop at a safe point ---------------------------- */

/* sk__stop_region_enter / sk__stop_region_leave: mark one library call that
 * polls no stop request until it returns (a CVODE, IDA or KINSOL call, whose
 * step may hold a KLU factorization of minutes; a KLU factorization of
 * stiffkit's own). `what` names it for a message ("a CVODE step"); it must be
 * a static string. Regions nest (the outermost names the call); the record is
 * process-wide and lock-free, so a signal-handling thread may read it. */
void sk__stop_region_enter(const char *what);
void sk__stop_region_leave(void);

/* sk__stop_region: the name of the outermost call in a region now, or NULL;
 * *generation changes at every entry and exit of an outermost region, so
 * that a reader can tell "still inside the same call" from "left it and
 * entered another". */
const char *sk__stop_region(uint64_t *generation);

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

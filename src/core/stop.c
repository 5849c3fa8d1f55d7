/* src/core/stop.c: stop requests read from the context's stop flag by long phases, and the record of the call that cannot poll them */
#include "core/stop.h"

#include <stdatomic.h>

#include "core/context_impl.h"

/* The region record: the nesting depth, the outermost call's name, and a
 * generation bumped at each outermost entry and exit. */
static atomic_int region_depth;
static _Atomic(const char *) region_what;
static atomic_uint_fast64_t region_generation;

void sk__stop_region_enter(const char *what)
{
  if (atomic_fetch_add(&region_depth, 1) == 0) {
    atomic_store(&region_what, what);
    atomic_fetch_add(&region_generation, 1);
  }
}

void sk__stop_region_leave(void)
{
  if (atomic_fetch_sub(&region_depth, 1) == 1) {
    atomic_store(&region_what, (const char *)NULL);
    atomic_fetch_add(&region_generation, 1);
  }
}

const char *sk__stop_region(uint64_t *generation)
{
  *generation = (uint64_t)atomic_load(&region_generation);
  return atomic_load(&region_what);
}

int sk__stop_requested(const sk_context *ctx)
{
  return ctx && ctx->stop_flag ? (int)*ctx->stop_flag : 0;
}

sk_status sk__stop_check(sk_context *ctx, const char *doing)
{
  const int sig = sk__stop_requested(ctx);
  if (sig == 0) {
    return SK_OK;
  }
  return SK_ERROR(ctx, SK_INTERRUPTED, "stopped by signal %d while %s", sig, doing);
}

/* src/core/stop.c: stop requests read from the context's stop flag by long phases */
#include "core/stop.h"

#include "core/context_impl.h"

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

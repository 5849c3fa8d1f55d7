/* src/backends/sundials_context.c: the SUNContext owned by an sk_context, and capture of SUNDIALS messages */
#include <stdio.h>
#include <string.h>

#include <cvode/cvode.h>

#include "backends/sundials_backend.h"
#include "core/context_impl.h"
#include "core/error.h"

static void free_sun_context(void *p)
{
  SUNContext sctx = (SUNContext)p;
  SUNContext_Free(&sctx);
}

sk_status sk__sundials_context(sk_context *ctx, SUNContext *out)
{
  if (!ctx->sun_ctx) {
    SUNContext sctx = NULL;
    SK_CHECK(ctx, SK_SUNCONTEXT_CREATE(&sctx) == 0 && sctx != NULL, SK_ERR_NOMEM,
             "cannot create the SUNDIALS context");
    ctx->sun_ctx = sctx;
    ctx->sun_ctx_free = free_sun_context;
  }
  *out = (SUNContext)ctx->sun_ctx;
  return SK_OK;
}

void sk__sundials_record(sk__sundials_messages *sink, int code, const char *func,
                         const char *msg)
{
  if (code == CV_WARNING && msg && strstr(msg, "t + h = t")) {
    sink->step_size_warnings++;
  }
  sink->last_code = code;
  snprintf(sink->msg, sizeof sink->msg, "%s: %s", func ? func : "?", msg ? msg : "");
}

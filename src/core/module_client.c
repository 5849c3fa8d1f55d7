/* src/core/module_client.c: compiled into every module (not libstiffkit): the error and allocation functions a module calls, over the table its loader hands it */
#include <stdarg.h>

#include "core/error.h"
#include "core/module.h"

static const sk__module_host *host;

__attribute__((visibility("default"))) int sk__module_attach(const sk__module_host *h);

int sk__module_attach(const sk__module_host *h)
{
  if (!h || h->abi != SK__MODULE_HOST_ABI || h->size != sizeof(sk__module_host)) {
    return -1;
  }
  host = h;
  return 0;
}

sk_status sk__error_set(sk_context *ctx, sk_status code, const char *func, const char *file,
                        int line, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  sk_status st = host->error_vset(ctx, code, func, file, line, fmt, ap);
  va_end(ap);
  return st;
}

void sk__error_set_foreign(sk_context *ctx, int flag, const char *name)
{
  host->error_set_foreign(ctx, flag, name);
}

void sk__error_push_frame(sk_context *ctx, const char *func, const char *file, int line)
{
  host->error_push_frame(ctx, func, file, line);
}

void *sk__malloc(sk_context *ctx, size_t size)
{
  return host->malloc(ctx, size);
}

void *sk__calloc(sk_context *ctx, size_t count, size_t size)
{
  return host->calloc(ctx, count, size);
}

void sk__free(sk_context *ctx, void *p)
{
  host->free(ctx, p);
}

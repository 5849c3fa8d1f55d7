/* src/core/muparser_loader.c: loading the muparser module on the first formula, and the table afterwards */
#include <stdatomic.h>
#include <stdio.h>

#include "core/error.h"
#include "core/muparser_module.h"

/* set once, by the first successful open; read on every evaluation */
static _Atomic(const sk__muparser_module *) loaded;

sk_status sk__muparser_open(sk_context *ctx, const char *where, const sk__muparser_module **mp)
{
  *mp = atomic_load_explicit(&loaded, memory_order_acquire);
  if (*mp) {
    return SK_OK;
  }
  char purpose[512];
  snprintf(purpose, sizeof purpose, "the formula of %s (muparser)", where);
  const void *t = NULL;
  SK_CALL(ctx,
          sk__module_open(ctx, "muparser", SK__MUPARSER_MODULE_SYMBOL, SK__MUPARSER_MODULE_ABI,
                          sizeof(sk__muparser_module), purpose, &t));
  *mp = t;
  atomic_store_explicit(&loaded, *mp, memory_order_release);
  return SK_OK;
}

const sk__muparser_module *sk__muparser(void)
{
  return atomic_load_explicit(&loaded, memory_order_acquire);
}

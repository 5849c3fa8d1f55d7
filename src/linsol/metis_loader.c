/* src/linsol/metis_loader.c: loading the METIS module when a KLU solver is set to the nested-dissection ordering, and the table afterwards */
#include <stdatomic.h>

#include "core/error.h"
#include "linsol/metis_module.h"

/* set once, by the first successful open; read by every ordering */
static _Atomic(const sk__metis_module *) loaded;

sk_status sk__metis_open(sk_context *ctx, const sk__metis_module **mp)
{
  *mp = atomic_load_explicit(&loaded, memory_order_acquire);
  if (*mp) {
    return SK_OK;
  }
  const void *t = NULL;
  SK_CALL(ctx, sk__module_open(ctx, "metis", SK__METIS_MODULE_SYMBOL, SK__METIS_MODULE_ABI,
                               sizeof(sk__metis_module),
                               "linsol.ordering=metis-nd (METIS nested dissection)", &t));
  *mp = t;
  atomic_store_explicit(&loaded, *mp, memory_order_release);
  return SK_OK;
}

const sk__metis_module *sk__metis(void)
{
  return atomic_load_explicit(&loaded, memory_order_acquire);
}

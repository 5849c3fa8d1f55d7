/* src/linsol/mg_loader.c: the structured multigrid of a build whose hypre has the Struct interface: mg_struct.h's functions, loading the hypre module on the first create */
#include <stddef.h>

#include "core/error.h"
#include "linsol/mg_module.h"
#include "linsol/mg_struct.h"

/* The module's object and the table that made it. */
struct sk__mg {
  sk_context *ctx;
  const sk__mg_module *m;
  sk__mg_impl *impl;
};

sk_status sk__mg_create(sk_context *ctx, const sk__model_grid *g, int64_t n,
                        const int64_t *colptr, const int64_t *rowind, const sk__mg_params *params,
                        sk__mg **mg)
{
  SK_CHECK(ctx, mg, SK_ERR_ARG, "sk__mg_create: NULL argument");
  *mg = NULL;
  const void *t = NULL;
  SK_CALL(ctx, sk__module_open(ctx, "hypre", SK__MG_MODULE_SYMBOL, SK__MG_MODULE_ABI,
                               sizeof(sk__mg_module),
                               "linsol.preconditioner=mg (hypre structured multigrid)", &t));
  const sk__mg_module *m = t;
  sk__mg_impl *impl = NULL;
  SK_CALL(ctx, m->create(ctx, g, n, colptr, rowind, params, &impl));
  sk__mg *w = sk__calloc(ctx, 1, sizeof *w);
  if (!w) {
    m->destroy(&impl);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the multigrid preconditioner");
  }
  w->ctx = ctx;
  w->m = m;
  w->impl = impl;
  *mg = w;
  return SK_OK;
}

sk_status sk__mg_setup(sk__mg *mg, double gamma, const double *values)
{
  return mg ? mg->m->setup(mg->impl, gamma, values) : SK_ERR_ARG;
}

sk_status sk__mg_solve(sk__mg *mg, const double *r, double *z)
{
  return mg ? mg->m->solve(mg->impl, r, z) : SK_ERR_ARG;
}

void sk__mg_get_info(const sk__mg *mg, sk__mg_info *info)
{
  if (!mg) {
    *info = (sk__mg_info){0, 0.0, 0, ""};
    return;
  }
  mg->m->get_info(mg->impl, info);
}

void sk__mg_destroy(sk__mg **mg)
{
  if (!mg || !*mg) {
    return;
  }
  (*mg)->m->destroy(&(*mg)->impl);
  sk__free((*mg)->ctx, *mg);
  *mg = NULL;
}

const char *sk__mg_available(void)
{
  return NULL;
}

/* src/linsol/amg_loader.c: the AMG preconditioner of an MPI build: amg_hypre.h's functions, loading the hypre module on the first create */
#include <stddef.h>

#include "core/error.h"
#include "linsol/amg_hypre.h"
#include "linsol/amg_module.h"

/* The module's object and the table that made it. */
struct sk__amg {
  sk_context *ctx;
  const sk__amg_module *m;
  sk__amg_impl *impl;
};

#define SK__AMG_PURPOSE "linsol.preconditioner=amg (hypre BoomerAMG)"

/* Wrap the module's object (destroyed again when the wrapper cannot be allocated). */
static sk_status amg_wrap(sk_context *ctx, const sk__amg_module *m, sk__amg_impl *impl,
                          sk__amg **amg)
{
  sk__amg *a = sk__calloc(ctx, 1, sizeof *a);
  if (!a) {
    m->destroy(&impl);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the AMG preconditioner");
  }
  a->ctx = ctx;
  a->m = m;
  a->impl = impl;
  *amg = a;
  return SK_OK;
}

static sk_status amg_module(sk_context *ctx, const sk__amg_module **m)
{
  const void *t = NULL;
  sk_status st = sk__module_open(ctx, "hypre", SK__AMG_MODULE_SYMBOL, SK__AMG_MODULE_ABI,
                                 sizeof(sk__amg_module), SK__AMG_PURPOSE, &t);
  *m = t;
  return st;
}

sk_status sk__amg_create(sk_context *ctx, int64_t n, const int64_t *colptr, const int64_t *rowind,
                         const sk__amg_params *params, sk__amg **amg)
{
  SK_CHECK(ctx, amg, SK_ERR_ARG, "sk__amg_create: NULL argument");
  *amg = NULL;
  const sk__amg_module *m = NULL;
  sk__amg_impl *impl = NULL;
  SK_CALL(ctx, amg_module(ctx, &m));
  SK_CALL(ctx, m->create(ctx, n, colptr, rowind, params, &impl));
  SK_CALL(ctx, amg_wrap(ctx, m, impl, amg));
  return SK_OK;
}

sk_status sk__amg_create_rows(sk_context *ctx, const void *comm, int64_t ilower, int64_t nlocal,
                              const int64_t *rowptr, const int64_t *cols,
                              const sk__amg_params *params, sk__amg **amg)
{
  SK_CHECK(ctx, amg, SK_ERR_ARG, "sk__amg_create_rows: NULL argument");
  *amg = NULL;
  const sk__amg_module *m = NULL;
  sk__amg_impl *impl = NULL;
  SK_CALL(ctx, amg_module(ctx, &m));
  SK_CALL(ctx, m->create_rows(ctx, comm, ilower, nlocal, rowptr, cols, params, &impl));
  SK_CALL(ctx, amg_wrap(ctx, m, impl, amg));
  return SK_OK;
}

sk_status sk__amg_setup(sk__amg *amg, double gamma, const double *values)
{
  return amg ? amg->m->setup(amg->impl, gamma, values) : SK_ERR_ARG;
}

sk_status sk__amg_setup_rows(sk__amg *amg, double gamma, const double *values)
{
  return amg ? amg->m->setup_rows(amg->impl, gamma, values) : SK_ERR_ARG;
}

sk_status sk__amg_solve(sk__amg *amg, const double *r, double *z)
{
  return amg ? amg->m->solve(amg->impl, r, z) : SK_ERR_ARG;
}

void sk__amg_destroy(sk__amg **amg)
{
  if (!amg || !*amg) {
    return;
  }
  (*amg)->m->destroy(&(*amg)->impl);
  sk__free((*amg)->ctx, *amg);
  *amg = NULL;
}

/* src/linsol/amg_module.h: the interface of the hypre module libstiffkit-hypre.so (BoomerAMG), loaded by the first AMG preconditioner */
#ifndef SK_LINSOL_AMG_MODULE_H
#define SK_LINSOL_AMG_MODULE_H

#include <stdint.h>

#include "core/module.h"
#include "linsol/amg_hypre.h"

/* hypre (and the 28 shared libraries Debian's hypre brings: SuperLU_DIST,
 * BLAS/LAPACK, gfortran) is linked by the module only (linsol/amg_hypre.c);
 * libstiffkit's sk__amg_* (linsol/amg_loader.c) load it on the first create
 * and dispatch through this table. The functions have the contracts of
 * linsol/amg_hypre.h, on the module's own object type. Bump the ABI with
 * any change of the table or of sk__amg_params. */
#define SK__AMG_MODULE_ABI 1
#define SK__AMG_MODULE_SYMBOL "sk__amg_hypre_module"

typedef struct sk__amg_impl sk__amg_impl;

typedef struct {
  sk__module_head head;
  sk_status (*create)(sk_context *ctx, int64_t n, const int64_t *colptr, const int64_t *rowind,
                      const sk__amg_params *params, sk__amg_impl **amg);
  sk_status (*create_rows)(sk_context *ctx, const void *comm, int64_t ilower, int64_t nlocal,
                           const int64_t *rowptr, const int64_t *cols,
                           const sk__amg_params *params, sk__amg_impl **amg);
  sk_status (*setup)(sk__amg_impl *amg, double gamma, const double *values);
  sk_status (*setup_rows)(sk__amg_impl *amg, double gamma, const double *values);
  sk_status (*solve)(sk__amg_impl *amg, const double *r, double *z);
  void (*destroy)(sk__amg_impl **amg);
} sk__amg_module;

#endif

/* src/linsol/mg_module.h: the structured multigrid table of the hypre module libstiffkit-hypre.so (PFMG, SMG, SysPFMG), loaded by the first mg preconditioner */
#ifndef SK_LINSOL_MG_MODULE_H
#define SK_LINSOL_MG_MODULE_H

#include <stdint.h>

#include "core/module.h"
#include "linsol/mg_struct.h"

/* The hypre module exports this table beside the AMG one
 * (linsol/amg_module.h), under its own symbol and ABI, so that either
 * interface changes without the other. libstiffkit's sk__mg_* (linsol/
 * mg_loader.c) load the module on the first create and dispatch through
 * the table; the functions have the contracts of linsol/mg_struct.h on
 * the module's object type. Bump the ABI with any change of the table, of
 * sk__mg_params or of sk__mg_info. */
#define SK__MG_MODULE_ABI 1
#define SK__MG_MODULE_SYMBOL "sk__mg_hypre_module"

typedef struct sk__mg_impl sk__mg_impl;

typedef struct {
  sk__module_head head;
  sk_status (*create)(sk_context *ctx, const sk__model_grid *g, int64_t n, const int64_t *colptr,
                      const int64_t *rowind, const sk__mg_params *params, sk__mg_impl **mg);
  sk_status (*setup)(sk__mg_impl *mg, double gamma, const double *values);
  sk_status (*solve)(sk__mg_impl *mg, const double *r, double *z);
  void (*get_info)(const sk__mg_impl *mg, sk__mg_info *info);
  void (*destroy)(sk__mg_impl **mg);
} sk__mg_module;

#endif

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
#define SK__MG_MODULE_ABI 2
#define SK__MG_MODULE_SYMBOL "sk__mg_hypre_module"

typedef struct sk__mg_impl sk__mg_impl;

/* J's entries as the module reads them, twice and in order p = 0, 1, ...,
 * count - 1 (the stencil, then the value positions): entry(u, p, &row)
 * returns entry p's stencil key (SK__MG_KEY) and its row state in the
 * block (a key outside [0, 27 ncomp) is refused). The creator reads a CSC
 * pattern through a cursor (mg_loader.c, which refuses an entry outside
 * the box stencil first, naming it), a distributed block its raw arrays. */
typedef struct {
  int64_t count;
  int (*entry)(void *u, int64_t p, int64_t *row);
  void *u;
} sk__mg_entries;

typedef struct {
  sk__module_head head;
  /* the block `box` of a grid over the ranks of *comm (MPI_Comm by address; NULL: a serial
     grid on MPI_COMM_SELF, MPI started as by sk__amg_create), J's entries from `src`.
     Collective over *comm. */
  sk_status (*create)(sk_context *ctx, const void *comm, const sk__mg_box *box,
                      const sk__mg_entries *src, const sk__mg_params *params, sk__mg_impl **mg);
  sk_status (*setup)(sk__mg_impl *mg, double gamma, const double *values);
  sk_status (*solve)(sk__mg_impl *mg, const double *r, double *z);
  void (*get_info)(const sk__mg_impl *mg, sk__mg_info *info);
  void (*destroy)(sk__mg_impl **mg);
} sk__mg_module;

#endif

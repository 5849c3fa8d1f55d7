/* src/linsol/metis_module.h: the interface of the METIS module libstiffkit-metis.so (the two METIS functions the KLU nested-dissection ordering calls), and its loader */
#ifndef SK_LINSOL_METIS_MODULE_H
#define SK_LINSOL_METIS_MODULE_H

#include <metis.h>

#include "core/module.h"

#define SK__METIS_MODULE_ABI 1
#define SK__METIS_MODULE_SYMBOL "sk__metis_module_table"

/* METIS' API as the module links it: libmetis is mapped only by a run that
 * orders a sparse factorization by nested dissection (linsol.ordering=metis-nd,
 * or auto at n >= 1000). */
typedef struct {
  sk__module_head head;
  int (*set_default_options)(idx_t *options);
  int (*node_nd)(idx_t *nvtxs, idx_t *xadj, idx_t *adjncy, idx_t *vwgt, idx_t *options,
                 idx_t *perm, idx_t *iperm);
} sk__metis_module;

/* sk__metis_open: the module's table, loading it on the first call. Errors:
 * those of sk__module_open (SK_ERR_UNSUPPORTED naming the module and the
 * loader's reason; the CLI's exit 69). */
sk_status sk__metis_open(sk_context *ctx, const sk__metis_module **mp);

/* sk__metis: the table once sk__metis_open has succeeded in this process,
 * else NULL. */
const sk__metis_module *sk__metis(void);

#endif

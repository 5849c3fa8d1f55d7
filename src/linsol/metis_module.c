/* src/linsol/metis_module.c: the table exported by the METIS module libstiffkit-metis.so: METIS_SetDefaultOptions and METIS_NodeND */
#include "linsol/metis_module.h"

__attribute__((visibility("default"))) const sk__metis_module sk__metis_module_table = {
    .head = {SK__METIS_MODULE_ABI, sizeof(sk__metis_module)},
    .set_default_options = METIS_SetDefaultOptions,
    .node_nd = METIS_NodeND,
};

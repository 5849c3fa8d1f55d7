/* src/core/module.h: optional components (HDF5, hypre) as modules loaded on first use: lookup beside libstiffkit, dlopen, table check */
#ifndef SK_CORE_MODULE_H
#define SK_CORE_MODULE_H

#include <stddef.h>

#include "stiffkit/context.h"

/* A module is the shared object libstiffkit-<name>.so built and installed
 * beside libstiffkit (the same directory, in the build tree and after
 * `cmake --install`). It exports one const table of function pointers whose
 * first member is this head; its interface header (io/hdf5_module.h,
 * linsol/amg_module.h) defines the rest. A run that needs none of a module's
 * functions never loads it, nor the libraries it links (HDF5's 36, hypre's
 * 28). Loaded modules stay loaded until the process ends (never dlclose'd:
 * HDF5 and MPI keep process-wide state). */
typedef struct {
  int abi;     /* the interface's SK__*_MODULE_ABI */
  size_t size; /* sizeof the whole table */
} sk__module_head;

/* The foreign flag name of a module that could not be loaded (the error
 * record's foreign_name): the CLI maps it to exit 69, a missing component. */
#define SK__MODULE_FLAG "dlopen"

/* sk__module_open: the table `symbol` of module `name` ("hdf5", "hypre")
 * into *table, loading libstiffkit-<name>.so on the first call. Directory:
 * $STIFFKIT_MODULE_DIR when set and non-empty, else the directory of the
 * loaded libstiffkit (dladdr). `purpose` says what needs it ("HDF5 output
 * (output.hdf5)"), for the message. The table's head must match abi and
 * size. Errors: SK_ERR_UNSUPPORTED, foreign name SK__MODULE_FLAG, message
 * "cannot load the stiffkit module '<name>' needed for <purpose>: <path>:
 * <dlerror() text>" (or naming the missing symbol or the ABI mismatch);
 * SK_ERR_NOMEM "out of memory loading the stiffkit module ..." when the
 * loader ran out of memory (an address-space limit: the loader says so). *table
 * is NULL on error. ctx may be NULL (the code only). */
sk_status sk__module_open(sk_context *ctx, const char *name, const char *symbol, int abi,
                          size_t size, const char *purpose, const void **table);

/* sk__module_peek: the table of module `name` when it is loaded in this
 * process already (and its head matches), else NULL; never loads it. */
const void *sk__module_peek(const char *name, const char *symbol, int abi, size_t size);

#endif

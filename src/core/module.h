/* src/core/module.h: optional components (HDF5, hypre) as modules loaded on first use: lookup beside libstiffkit, dlopen, table check */
#ifndef SK_CORE_MODULE_H
#define SK_CORE_MODULE_H

#include <stdarg.h>
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

/* What a module calls back into: the error record and the context's
 * allocator, which work on the context's private layout. A module links no
 * libstiffkit (whose exports are the public API only, and which a program
 * holding stiffkit statically, like the stiffkit command, does not load); the
 * loader hands it this table before it reads the module's own, through the
 * module's SK__MODULE_ATTACH_SYMBOL function, and core/module_client.c,
 * compiled into every module, defines the sk__ functions it names over it. */
typedef struct {
  int abi;     /* SK__MODULE_HOST_ABI */
  size_t size; /* sizeof(sk__module_host) */
  sk_status (*error_vset)(sk_context *ctx, sk_status code, const char *func, const char *file,
                          int line, const char *fmt, va_list ap);
  void (*error_set_foreign)(sk_context *ctx, int flag, const char *name);
  void (*error_push_frame)(sk_context *ctx, const char *func, const char *file, int line);
  void *(*malloc)(sk_context *ctx, size_t size);
  void *(*calloc)(sk_context *ctx, size_t count, size_t size);
  void (*free)(sk_context *ctx, void *p);
} sk__module_host;

#define SK__MODULE_HOST_ABI 1
/* int sk__module_attach(const sk__module_host *host): 0 when the module
 * takes the table (its abi and size match the module's), else -1. */
#define SK__MODULE_ATTACH_SYMBOL "sk__module_attach"

/* The foreign flag name of a module that could not be loaded (the error
 * record's foreign_name): the CLI maps it to exit 69, a missing component. */
#define SK__MODULE_FLAG "dlopen"

/* sk__module_open: the table `symbol` of module `name` ("hdf5", "hypre")
 * into *table, loading libstiffkit-<name>.so on the first call. Directory:
 * $STIFFKIT_MODULE_DIR when set and non-empty, else the directory of the
 * object holding stiffkit's code (libstiffkit, found with dladdr), or of a
 * program holding it statically: the libdir beside its bin/, or the build
 * tree's module directory (core/module.c). `purpose` says what needs it ("HDF5 output
 * (output.hdf5)"), for the message. The table's head must match abi and
 * size. Errors: SK_ERR_UNSUPPORTED, foreign name SK__MODULE_FLAG, message
 * "cannot load the stiffkit module '<name>' needed for <purpose>: <path>:
 * <dlerror() text>" (or naming the missing symbol or the ABI mismatch);
 * SK_ERR_NOMEM "out of memory loading the stiffkit module ..." when the
 * loader ran out of memory (an address-space limit: the loader says so). *table
 * is NULL on error. ctx may be NULL (the code only). */
sk_status sk__module_open(sk_context *ctx, const char *name, const char *symbol, int abi,
                          size_t size, const char *purpose, const void **table);

/* sk__module_peek: the table of module `name` when sk__module_open has
 * opened it in this process already (and the head matches), else NULL;
 * never loads or unloads anything. */
const void *sk__module_peek(const char *name, const char *symbol, int abi, size_t size);

#endif

/* src/core/module.c: finding, loading and checking the optional component modules (libstiffkit-<name>.so beside libstiffkit) */
#define _GNU_SOURCE /* dladdr, RTLD_NOLOAD */
#include <ctype.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/module.h"

/* An object of libstiffkit, for dladdr (ISO C has no function-to-object pointer conversion). */
static const char module_anchor = 0;

/* The module's path into buf: $STIFFKIT_MODULE_DIR, else the directory of
 * the object holding module_anchor (libstiffkit). 0, or -1 when too long. */
static int module_path(const char *name, char *buf, size_t cap)
{
  const char *env = getenv("STIFFKIT_MODULE_DIR");
  char dir[4096] = ".";
  if (env && env[0]) {
    snprintf(dir, sizeof dir, "%s", env);
  } else {
    Dl_info info;
    if (dladdr(&module_anchor, &info) && info.dli_fname) {
      snprintf(dir, sizeof dir, "%s", info.dli_fname);
      char *slash = strrchr(dir, '/');
      if (slash) {
        *slash = '\0';
      } else {
        snprintf(dir, sizeof dir, ".");
      }
    }
  }
  const int k = snprintf(buf, cap, "%s/libstiffkit-%s.so", dir, name);
  return k < 0 || (size_t)k >= cap ? -1 : 0;
}

/* 1 when the loader's message says that mapping the module or a library it
 * needs failed for want of memory (an address-space limit, ulimit -v):
 * glibc then reports "failed to map segment from shared object", "cannot
 * map zero-fill pages" or "Cannot allocate memory", without an errno. */
static int loader_out_of_memory(const char *why)
{
  char low[1024];
  size_t k = 0;
  for (; why[k] && k + 1 < sizeof low; k++) {
    low[k] = (char)tolower((unsigned char)why[k]);
  }
  low[k] = '\0';
  return strstr(low, "failed to map segment") || strstr(low, "cannot map zero-fill") ||
         strstr(low, "cannot allocate memory");
}

/* The table `symbol` of handle when its head matches, else NULL (why set). */
static const void *module_table(void *handle, const char *symbol, int abi, size_t size, char *why,
                                size_t cap)
{
  dlerror();
  const sk__module_head *head = dlsym(handle, symbol);
  if (!head) {
    const char *e = dlerror();
    snprintf(why, cap, "%s", e ? e : "symbol not found");
    return NULL;
  }
  if (head->abi != abi || head->size != size) {
    snprintf(why, cap,
             "interface %d (table of %zu bytes) where this libstiffkit needs %d (%zu bytes): the "
             "module belongs to another stiffkit build",
             head->abi, head->size, abi, size);
    return NULL;
  }
  return head;
}

sk_status sk__module_open(sk_context *ctx, const char *name, const char *symbol, int abi,
                          size_t size, const char *purpose, const void **table)
{
  SK_CHECK(ctx, name && symbol && purpose && table, SK_ERR_ARG, "sk__module_open: NULL argument");
  *table = NULL;
  char path[4200];
  char why[1024] = "";
  void *handle = NULL;
  int oom = 0;
  if (module_path(name, path, sizeof path) != 0) {
    snprintf(why, sizeof why, "module path too long");
  } else {
    dlerror();
    handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char *e = dlerror();
      snprintf(why, sizeof why, "%s", e ? e : "unknown dynamic loader error");
      oom = loader_out_of_memory(why);
    }
  }
  if (handle) {
    *table = module_table(handle, symbol, abi, size, why, sizeof why);
  }
  if (!*table) {
    /* a handle that failed its check is kept: it cannot be unloaded safely
       once its libraries (HDF5, MPI) have run their constructors */
    if (oom) {
      return SK_ERROR(ctx, SK_ERR_NOMEM,
                      "out of memory loading the stiffkit module '%s' needed for %s: %s", name,
                      purpose, why);
    }
    sk_status st =
        SK_ERROR(ctx, SK_ERR_UNSUPPORTED,
                 "cannot load the stiffkit module '%s' needed for %s: %s", name, purpose, why);
    sk__error_set_foreign(ctx, 0, SK__MODULE_FLAG);
    return st;
  }
  return SK_OK;
}

const void *sk__module_peek(const char *name, const char *symbol, int abi, size_t size)
{
  char path[4200];
  if (!name || !symbol || module_path(name, path, sizeof path) != 0) {
    return NULL;
  }
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
  if (!handle) {
    return NULL;
  }
  char why[256];
  const void *t = module_table(handle, symbol, abi, size, why, sizeof why);
  dlclose(handle); /* drops the reference NOLOAD added; the module stays loaded */
  return t;
}

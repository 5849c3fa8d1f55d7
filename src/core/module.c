/* src/core/module.c: finding, loading and checking the optional component modules (libstiffkit-<name>.so beside libstiffkit, or in the libdir of a program that holds stiffkit statically) */
#define _GNU_SOURCE /* dladdr */
#include <ctype.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "core/module.h"

/* An object of stiffkit's code, for dladdr (ISO C has no function-to-object pointer conversion). */
static const char module_anchor = 0;

/* The table every module is handed before its own is read (core/module.h). */
static const sk__module_host module_host = {
    .abi = SK__MODULE_HOST_ABI,
    .size = sizeof(sk__module_host),
    .error_vset = sk__error_vset,
    .error_set_foreign = sk__error_set_foreign,
    .error_push_frame = sk__error_push_frame,
    .malloc = sk__malloc,
    .calloc = sk__calloc,
    .free = sk__free,
};

/* The directory of the module files into dir: $STIFFKIT_MODULE_DIR when set
 * and non-empty; else libstiffkit's own directory when stiffkit's code is
 * in it (dladdr names the library as the loader opened it); else, for a
 * program that holds stiffkit statically, the build tree's module directory
 * when the program lies in the build tree (SK_BUILD_ROOT), or its
 * directory's SK_BIN_TO_LIB (an installed bin/stiffkit: PREFIX/lib). The
 * program's directory comes from /proc/self/exe, never from argv[0]: a
 * command started through PATH or a symlink finds its own tree, never the
 * working directory. 0, or -1 (dir empty) when no directory is known. */
static int module_dir(char *dir, size_t cap)
{
  const char *env = getenv("STIFFKIT_MODULE_DIR");
  if (env && env[0]) {
    snprintf(dir, cap, "%s", env);
    return 0;
  }
  dir[0] = '\0';
  Dl_info info;
  if (dladdr(&module_anchor, &info) && info.dli_fname && strchr(info.dli_fname, '/')) {
    const char *base = strrchr(info.dli_fname, '/') + 1;
    if (!strncmp(base, "libstiffkit", strlen("libstiffkit"))) {
      snprintf(dir, cap, "%.*s", (int)(base - 1 - info.dli_fname), info.dli_fname);
      return 0;
    }
  }
  char exe[4096];
  const ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (k <= 0) {
    return -1;
  }
  exe[k] = '\0';
  if (!strncmp(exe, SK_BUILD_ROOT "/", strlen(SK_BUILD_ROOT) + 1)) {
    snprintf(dir, cap, "%s", SK_BUILD_MODULE_DIR);
    return 0;
  }
  *strrchr(exe, '/') = '\0';
  const int w = snprintf(dir, cap, "%s/%s", exe, SK_BIN_TO_LIB);
  return w < 0 || (size_t)w >= cap ? -1 : 0;
}

/* The module's path into buf. 0, or -1 when no directory is known or the path is too long. */
static int module_path(const char *name, char *buf, size_t cap)
{
  char dir[4096];
  if (module_dir(dir, sizeof dir) != 0) {
    return -1;
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

/* The modules this process has opened, by name: sk__module_peek looks here
 * and never calls dlopen/dlclose itself (a dlclose, even one that only
 * drops the reference an RTLD_NOLOAD dlopen added, lets glibc unload the
 * libraries a module depends on when nothing else marks them used: HDF5's
 * were unmapped that way at the provenance's peek). Never dlclose'd. */
enum { MODULE_MAX = 8 };
static struct {
  char name[32];
  void *handle;
} opened[MODULE_MAX];
static int nopened;
static pthread_mutex_t opened_lock = PTHREAD_MUTEX_INITIALIZER;

/* The handle of module `name` opened before, NULL if none (call with opened_lock held). */
static void *opened_handle(const char *name)
{
  for (int i = 0; i < nopened; i++) {
    if (!strcmp(opened[i].name, name)) {
      return opened[i].handle;
    }
  }
  return NULL;
}

/* Record a module that passed its checks (call with opened_lock held). */
static void remember_handle(const char *name, void *handle)
{
  if (nopened < MODULE_MAX && strlen(name) < sizeof opened[0].name) {
    strcpy(opened[nopened].name, name);
    opened[nopened].handle = handle;
    nopened++;
  }
}

/* Hand the module the host table: 0, or -1 (why set) when it has no
 * attach function or refuses the table (another stiffkit build). */
static int module_attach(void *handle, char *why, size_t cap)
{
  dlerror();
  int (*attach)(const sk__module_host *) = NULL;
  *(void **)&attach = dlsym(handle, SK__MODULE_ATTACH_SYMBOL);
  if (!attach) {
    const char *e = dlerror();
    snprintf(why, cap, "%s", e ? e : "no " SK__MODULE_ATTACH_SYMBOL);
    return -1;
  }
  if (attach(&module_host) != 0) {
    snprintf(why, cap,
             "it refuses this libstiffkit's host table (interface %d, %zu bytes): the module "
             "belongs to another stiffkit build",
             SK__MODULE_HOST_ABI, sizeof(sk__module_host));
    return -1;
  }
  return 0;
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
  /* one thread at a time opens and attaches: the attach writes the module's host pointer */
  pthread_mutex_lock(&opened_lock);
  handle = opened_handle(name);
  if (handle) {
    *table = module_table(handle, symbol, abi, size, why, sizeof why);
  } else if (module_path(name, path, sizeof path) != 0) {
    snprintf(why, sizeof why, "no module directory (/proc/self/exe unreadable) or path too long");
  } else {
    dlerror();
    handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char *e = dlerror();
      snprintf(why, sizeof why, "%s", e ? e : "unknown dynamic loader error");
      oom = loader_out_of_memory(why);
    } else if (module_attach(handle, why, sizeof why) == 0) {
      *table = module_table(handle, symbol, abi, size, why, sizeof why);
      if (*table) {
        remember_handle(name, handle);
      }
    }
  }
  pthread_mutex_unlock(&opened_lock);
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
  if (!name || !symbol) {
    return NULL;
  }
  pthread_mutex_lock(&opened_lock);
  void *handle = opened_handle(name);
  pthread_mutex_unlock(&opened_lock);
  if (!handle) {
    return NULL;
  }
  char why[256];
  return module_table(handle, symbol, abi, size, why, sizeof why);
}

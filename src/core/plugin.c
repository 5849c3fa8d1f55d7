/* src/core/plugin.c: loading in-house stepper types from plugin shared objects (dlopen, ABI check, registration, close at context destroy) */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/context_impl.h"
#include "core/error.h"
#include "stiffkit/plugin.h"

typedef int (*abi_version_fn)(void);
typedef sk_status (*register_fn)(sk_context *ctx);

/* Closes every plugin, newest first (sk_context_destroy's hook). */
static void plugin_close_all(sk_context *ctx)
{
  while (ctx->n_plugins > 0) {
    dlclose(ctx->plugins[--ctx->n_plugins]);
  }
}

/* The function symbol `name` of `handle` into *fn (NULL if absent); ISO C
 * has no conversion between object and function pointers, so the bits are
 * copied, as POSIX allows for dlsym results. */
static void lookup(void *handle, const char *name, void *fn, size_t fn_size)
{
  dlerror();
  void *sym = dlsym(handle, name);
  memset(fn, 0, fn_size);
  if (sym && fn_size == sizeof sym) {
    memcpy(fn, &sym, sizeof sym);
  }
}

sk_status sk_plugin_load(sk_context *ctx, const char *path)
{
  if (!ctx) {
    return SK_ERR_ARG;
  }
  SK_CHECK(ctx, path != NULL && path[0] != '\0', SK_ERR_ARG, "sk_plugin_load: no plugin path");
  struct stat sb;
  SK_CHECK(ctx, stat(path, &sb) == 0, SK_ERR_MISSING, "cannot open plugin file '%s': %s", path,
           strerror(errno));
  SK_CHECK(ctx, S_ISREG(sb.st_mode), SK_ERR_INPUT, "plugin '%s' is not a regular file", path);
  /* dlopen searches the library path for a name without '/': make it a path */
  char local[4096];
  const char *open_path = path;
  if (!strchr(path, '/')) {
    snprintf(local, sizeof local, "./%s", path);
    open_path = local;
  }
  dlerror();
  void *handle = dlopen(open_path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    return SK_ERROR(ctx, SK_ERR_INPUT, "cannot load plugin '%s': %s", path,
                    why ? why : "unknown dynamic loader error");
  }
  for (size_t i = 0; i < ctx->n_plugins; i++) {
    if (ctx->plugins[i] == handle) {
      dlclose(handle); /* already loaded here: drop the extra reference */
      return SK_OK;
    }
  }
  abi_version_fn abi = NULL;
  register_fn reg = NULL;
  lookup(handle, "sk_plugin_abi_version", &abi, sizeof abi);
  lookup(handle, "sk_plugin_register", &reg, sizeof reg);
  const char *missing = !abi ? "sk_plugin_abi_version" : (!reg ? "sk_plugin_register" : NULL);
  if (missing) {
    dlclose(handle);
    return SK_ERROR(ctx, SK_ERR_INPUT,
                    "plugin '%s' does not export the symbol '%s' (a plugin defines "
                    "sk_plugin_abi_version and sk_plugin_register, see stiffkit/plugin.h)",
                    path, missing);
  }
  const int version = abi();
  if (version != SK_PLUGIN_ABI_VERSION) {
    dlclose(handle);
    return SK_ERROR(ctx, SK_ERR_INPUT,
                    "plugin '%s' was built for stiffkit plugin ABI %d, this is ABI %d: rebuild it "
                    "against this version",
                    path, version, SK_PLUGIN_ABI_VERSION);
  }
  if (ctx->n_plugins >= SK_MAX_PLUGINS) {
    dlclose(handle);
    return SK_ERROR(ctx, SK_ERR_TOO_LARGE, "cannot load plugin '%s': too many plugins (limit %d)",
                    path, SK_MAX_PLUGINS);
  }
  const size_t n_before = ctx->n_user_steppers;
  sk_context_clear_error(ctx);
  const sk_status rc = reg(ctx);
  if (rc < 0) {
    /* unregister what it did register: those tables go away with the handle */
    char why[SK_ERROR_MSG_LEN];
    snprintf(why, sizeof why, "%s",
             ctx->err.message[0] ? ctx->err.message : sk_status_str(rc));
    ctx->n_user_steppers = n_before;
    dlclose(handle);
    return SK_ERROR(ctx, rc, "plugin '%s': sk_plugin_register failed: %s", path, why);
  }
  ctx->plugins[ctx->n_plugins++] = handle;
  ctx->plugin_close = plugin_close_all;
  return SK_OK;
}

sk_status sk_plugin_load_from_options(sk_context *ctx, const sk_options *opts)
{
  if (!ctx || !opts) {
    return SK_ERR_ARG;
  }
  if (!sk_options_is_key(opts, "solver.plugin")) {
    return SK_OK;
  }
  const char *list;
  SK_CALL(ctx, sk_options_get_string(opts, "solver.plugin", &list));
  const char *p = list;
  while (*p) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    const char *q = p;
    while (len > 0 && (*q == ' ' || *q == '\t')) {
      q++;
      len--;
    }
    while (len > 0 && (q[len - 1] == ' ' || q[len - 1] == '\t')) {
      len--;
    }
    if (len > 0) {
      char one[4096];
      SK_CHECK(ctx, len < sizeof one, SK_ERR_INPUT, "solver.plugin: a path is too long (%zu bytes)",
               len);
      memcpy(one, q, len);
      one[len] = '\0';
      SK_CALL(ctx, sk_plugin_load(ctx, one));
    }
    if (!end) {
      break;
    }
    p = end + 1;
  }
  return SK_OK;
}

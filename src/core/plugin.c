/* src/core/plugin.c: loading plugin shared objects: in-house stepper types and user models (dlopen, ABI check, registration, close at context destroy) */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/context_impl.h"
#include "core/error.h"
#include "stiffkit/model_type.h"
#include "stiffkit/plugin.h"

typedef int (*abi_version_fn)(void);
typedef sk_status (*register_fn)(sk_context *ctx);
typedef sk_status (*create_model_fn)(sk_context *ctx, const sk_options *opts, sk_model **model);
typedef const sk_option_spec *(*model_options_fn)(size_t *n);

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

/* Load `path` as sk_plugin_load does; *out = its handle (owned by ctx). */
static sk_status plugin_open(sk_context *ctx, const char *path, void **out)
{
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
    return SK_ERROR(ctx, SK_ERR_INPUT, "cannot load plugin '%s': %s%s", path,
                    why ? why : "unknown dynamic loader error",
                    why && strstr(why, "libstiffkit.so")
                        ? " (build a plugin without linking libstiffkit: its calls of the "
                          "public API bind to the program that loads it, see stiffkit/plugin.h)"
                        : "");
  }
  *out = handle;
  for (size_t i = 0; i < ctx->n_plugins; i++) {
    if (ctx->plugins[i] == handle) {
      dlclose(handle); /* already loaded here: drop the extra reference */
      return SK_OK;
    }
  }
  abi_version_fn abi = NULL;
  register_fn reg = NULL;
  create_model_fn create = NULL;
  lookup(handle, "sk_plugin_abi_version", &abi, sizeof abi);
  lookup(handle, "sk_plugin_register", &reg, sizeof reg);
  lookup(handle, "sk_plugin_create_model", &create, sizeof create);
  if (!abi) {
    dlclose(handle);
    return SK_ERROR(
        ctx, SK_ERR_INPUT,
        "plugin '%s' does not export the symbol 'sk_plugin_abi_version' (every "
        "plugin defines it with SK_PLUGIN_DEFINE_ABI_VERSION(), see stiffkit/plugin.h)",
        path);
  }
  if (!reg && !create) {
    dlclose(handle);
    return SK_ERROR(ctx, SK_ERR_INPUT,
                    "plugin '%s' exports neither 'sk_plugin_register' (stepper types) nor "
                    "'sk_plugin_create_model' (a model), see stiffkit/plugin.h",
                    path);
  }
  const int version = abi();
  if (version < SK_PLUGIN_ABI_MIN_VERSION || version > SK_PLUGIN_ABI_VERSION) {
    dlclose(handle);
    return SK_ERROR(ctx, SK_ERR_INPUT,
                    "plugin '%s' was built for stiffkit plugin ABI %d, this is ABI %d (it loads "
                    "plugins of ABI %d to %d): rebuild it against this version",
                    path, version, SK_PLUGIN_ABI_VERSION, SK_PLUGIN_ABI_MIN_VERSION,
                    SK_PLUGIN_ABI_VERSION);
  }
  if (ctx->n_plugins >= SK_MAX_PLUGINS) {
    dlclose(handle);
    return SK_ERROR(ctx, SK_ERR_TOO_LARGE, "cannot load plugin '%s': too many plugins (limit %d)",
                    path, SK_MAX_PLUGINS);
  }
  const size_t steppers_before = ctx->n_user_steppers, models_before = ctx->n_user_models,
               precs_before = ctx->n_user_precs, linsols_before = ctx->n_user_linsols;
  sk_context_clear_error(ctx);
  ctx->registering_abi = version; /* its tables have that version's fields */
  const sk_status rc = reg ? reg(ctx) : SK_OK;
  ctx->registering_abi = 0;
  if (rc < 0) {
    /* unregister what it did register: those tables go away with the handle */
    char why[SK_ERROR_MSG_LEN];
    snprintf(why, sizeof why, "%s", ctx->err.message[0] ? ctx->err.message : sk_status_str(rc));
    ctx->n_user_steppers = steppers_before;
    ctx->n_user_models = models_before;
    ctx->n_user_precs = precs_before;
    ctx->n_user_linsols = linsols_before;
    dlclose(handle);
    return SK_ERROR(ctx, rc, "plugin '%s': sk_plugin_register failed: %s", path, why);
  }
  ctx->plugins[ctx->n_plugins++] = handle;
  ctx->plugin_close = plugin_close_all;
  return SK_OK;
}

sk_status sk_plugin_load(sk_context *ctx, const char *path)
{
  if (!ctx) {
    return SK_ERR_ARG;
  }
  void *handle;
  return plugin_open(ctx, path, &handle);
}

/* Register the plugin's parameter table (once per database). */
static sk_status register_parameters(sk_context *ctx, sk_options *opts, const char *path,
                                     void *handle)
{
  static const char prefix[] = "model.parameters.";
  model_options_fn table_fn = NULL;
  lookup(handle, "sk_plugin_model_options", &table_fn, sizeof table_fn);
  size_t n = 0;
  const sk_option_spec *table = table_fn ? table_fn(&n) : NULL;
  if (!table || n == 0 || sk_options_is_key(opts, table[0].key)) {
    return SK_OK;
  }
  for (size_t i = 0; i < n; i++) {
    SK_CHECK(ctx, table[i].key && strncmp(table[i].key, prefix, sizeof prefix - 1) == 0,
             SK_ERR_INPUT,
             "plugin '%s': parameter table entry %zu ('%s') must be named model.parameters.NAME",
             path, i + 1, table[i].key ? table[i].key : "(null)");
  }
  const sk_status rc = sk_options_register(opts, table, n);
  if (rc == SK_ERR_ARG) { /* a malformed table is the plugin's input error */
    char why[SK_ERROR_MSG_LEN];
    snprintf(why, sizeof why, "%s", sk_context_get_error(ctx)->message);
    return SK_ERROR(ctx, SK_ERR_INPUT, "plugin '%s': %s", path, why);
  }
  return rc;
}

sk_status sk_plugin_model_from_options(sk_context *ctx, sk_options *opts, sk_model **model)
{
  if (!ctx) {
    return SK_ERR_ARG;
  }
  SK_CHECK(ctx, opts != NULL && model != NULL, SK_ERR_ARG,
           "sk_plugin_model_from_options: NULL argument");
  *model = NULL;
  const char *path;
  SK_CALL(ctx, sk_options_get_input_file(opts, "model.plugin", &path));
  SK_CHECK(ctx, path[0] != '\0', SK_ERR_INPUT,
           "model.type = plugin needs model.plugin, the path of the model's shared object");
  void *handle;
  SK_CALL(ctx, plugin_open(ctx, path, &handle));
  create_model_fn create = NULL;
  lookup(handle, "sk_plugin_create_model", &create, sizeof create);
  SK_CHECK(ctx, create != NULL, SK_ERR_INPUT,
           "plugin '%s' does not export the symbol 'sk_plugin_create_model', so it provides no "
           "model for model.type = plugin (is it a stepper plugin? those go in solver.plugin)",
           path);
  SK_CALL(ctx, register_parameters(ctx, opts, path, handle));
  SK_CALL(ctx, sk_options_check_pending(opts));
  sk_context_clear_error(ctx);
  const sk_status rc = create(ctx, opts, model);
  if (rc != SK_OK || !*model) {
    char why[SK_ERROR_MSG_LEN];
    snprintf(why, sizeof why, "%s",
             ctx->err.message[0] ? ctx->err.message
                                 : (rc != SK_OK ? sk_status_str(rc) : "it returned no model"));
    sk_model_destroy(model);
    return SK_ERROR(ctx, rc < 0 ? rc : SK_ERR_INPUT,
                    "plugin '%s': sk_plugin_create_model failed: %s", path, why);
  }
  return SK_OK;
}

static const sk_option_spec plugin_model_table[] = {
    {"model.plugin", SK_OPT_PATH, "", 0, 0, NULL,
     "path of a model plugin (a shared object exporting sk_plugin_create_model, see "
     "stiffkit/plugin.h) for model.type = plugin"},
};

static const sk_option_spec *plugin_model_options(size_t *n)
{
  if (n) {
    *n = sizeof plugin_model_table / sizeof plugin_model_table[0];
  }
  return plugin_model_table;
}

/* a model plugin's parameters are declared by the plugin, known only once it is loaded */
static const char *const plugin_sections[] = {"model.parameters", NULL};

const sk_model_type sk__model_type_plugin = {
    .name = "plugin",
    .description = "a user model from a shared object (model.plugin; parameters under "
                   "model.parameters)",
    .driver = SK_MODEL_DRIVER_STEPPER,
    .flags = SK_MODEL_TYPE_DECLARES_KEYS,
    .options = plugin_model_options,
    .deferred_sections = plugin_sections,
    .create = sk_plugin_model_from_options};

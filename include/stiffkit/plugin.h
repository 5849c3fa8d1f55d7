/* stiffkit/plugin.h: plugin shared objects: in-house stepper types and user models (ABI version, entry points, loaders) */
#ifndef STIFFKIT_PLUGIN_H
#define STIFFKIT_PLUGIN_H

#include <stddef.h>

#include "stiffkit/context.h"
#include "stiffkit/model.h"
#include "stiffkit/options.h"
#include "stiffkit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the public API: exported from libstiffkit, which hides everything else */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* The plugin ABI: the layout of sk_stepper_type and sk_linear_solver_type
 * and the meaning of the entry points below. It changes whenever a plugin
 * built against an older header could misbehave with this library. Fields
 * are only ever added at the end of those tables, so a plugin built for an older version
 * from SK_PLUGIN_ABI_MIN_VERSION on still loads: the library reads its
 * tables only up to the fields its version had. sk_plugin_load refuses
 * any other version.
 *   1: the tables end at destroy;
 *   2: reinit added (optional; a type without it, or from an ABI 1
 *      plugin, is restarted by sk_stepper_reinit by re-creating it);
 *   3: initialize added (optional; without it, or from an older plugin,
 *      sk_stepper_initialize leaves the initial values as given);
 *   4: options added (optional): the type's own keys, registered by
 *      sk_stepper_register_options and read by its set_from_options;
 *   5: sk_linear_solver_type gains kind and iterate (the iterative kind);
 *      a linear solver type from an older plugin is a direct one. */
#define SK_PLUGIN_ABI_VERSION 5
/* The first ABI whose sk_linear_solver_type has kind and iterate. */
#define SK_PLUGIN_ABI_LINSOL_KIND 5
#define SK_PLUGIN_ABI_MIN_VERSION 1

/* Symbols of a plugin stay visible even when it is compiled with
 * -fvisibility=hidden. */
#if defined(__GNUC__)
#define SK_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define SK_PLUGIN_EXPORT
#endif

/* A plugin is a shared object (built with -shared -fPIC against this
 * header, and not linked with libstiffkit: its calls of the public API bind
 * to the program that loads it, the stiffkit command, which exports that
 * API, or a program linked with libstiffkit) that exports
 *   sk_plugin_abi_version (always): returns SK_PLUGIN_ABI_VERSION as seen
 *     by the plugin at compile time (write SK_PLUGIN_DEFINE_ABI_VERSION()
 *     once, at file scope, without a semicolon);
 * and at least one of
 *   sk_plugin_register (stepper plugins): registers the plugin's stepper
 *     types with sk_stepper_type_register (the tables must be static: they
 *     live as long as the plugin stays loaded, i.e. as long as ctx); returns
 *     SK_OK or the first error;
 *   sk_plugin_create_model (model plugins, model.type = plugin): builds the
 *     plugin's model from the options database, reading its parameters with
 *     the sk_options_get_* getters under "model.parameters." (and any other
 *     key it likes, e.g. solver.t0); *model is the new model (the caller
 *     destroys it, before the context: its callbacks live in the plugin);
 *     returns SK_OK, or an error (with a message recorded by
 *     sk_context_set_error), after which the caller destroys a partly
 *     built *model.
 * A model plugin may also export
 *   sk_plugin_model_options: its parameter table (static; every key starts
 *     with "model.parameters."), registered before sk_plugin_create_model is
 *     called, so that parameters are type- and range-checked, unknown ones
 *     refused with a suggestion, and all of them echoed in the provenance.
 *     Without it, any model.parameters.* key is an unknown key. */
SK_PLUGIN_EXPORT int sk_plugin_abi_version(void);
SK_PLUGIN_EXPORT sk_status sk_plugin_register(sk_context *ctx);
SK_PLUGIN_EXPORT sk_status sk_plugin_create_model(sk_context *ctx, const sk_options *opts,
                                                  sk_model **model);
SK_PLUGIN_EXPORT const sk_option_spec *sk_plugin_model_options(size_t *n);

#define SK_PLUGIN_DEFINE_ABI_VERSION()             \
  SK_PLUGIN_EXPORT int sk_plugin_abi_version(void) \
  {                                                \
    return SK_PLUGIN_ABI_VERSION;                  \
  }

/* sk_plugin_load: load the plugin at `path` (dlopen RTLD_NOW | RTLD_LOCAL;
 * a path without '/' is taken relative to the working directory, not
 * searched on the library path), check its ABI version and call its
 * sk_plugin_register when it has one. The plugin stays loaded until
 * sk_context_destroy (destroy every stepper of its types and every model it
 * made before that). Loading a plugin that this context already holds does
 * nothing and returns SK_OK.
 * Errors: SK_ERR_ARG (NULL argument), SK_ERR_MISSING (no file at path),
 * SK_ERR_INPUT (not loadable: the dynamic loader's message; no
 * sk_plugin_abi_version, or neither sk_plugin_register nor
 * sk_plugin_create_model, named; an ABI version outside
 * SK_PLUGIN_ABI_MIN_VERSION..SK_PLUGIN_ABI_VERSION),
 * SK_ERR_TOO_LARGE (more than 16 plugins in one context), or the error of
 * sk_plugin_register. On error nothing stays registered or loaded. */
sk_status sk_plugin_load(sk_context *ctx, const char *path);

/* sk_plugin_load_from_options: load every plugin named in the option
 * solver.plugin (a comma-separated list of paths; blanks around a name are
 * ignored; "" = none; relative to the config that names them, or to the
 * working directory when given with --set), in order. A database without
 * the stepper options (sk_stepper_options) loads nothing. Errors: as
 * sk_plugin_load, and SK_ERR_MISSING (sk_options_get_input_files) for a
 * path that names no file. */
sk_status sk_plugin_load_from_options(sk_context *ctx, const sk_options *opts);

/* sk_plugin_model_from_options: the model of the plugin named by the
 * option model.plugin (model.type = plugin): load it (sk_plugin_load),
 * register its sk_plugin_model_options table in opts (once; values of
 * model.parameters.* given before, in a config file or with --set, are
 * checked now against it, their errors naming file:line:column), refuse
 * any model.parameters.* key it does not declare, then call its
 * sk_plugin_create_model. opts must defer the section "model.parameters"
 * (sk_options_defer_section) for parameters to be accepted before the
 * plugin is known. Errors: those of sk_plugin_load; SK_ERR_MISSING
 * (sk_options_get_input_file) when model.plugin names no file; SK_ERR_INPUT (empty
 * model.plugin; no sk_plugin_create_model; a table key outside
 * model.parameters or a bad table; no model returned),
 * SK_ERR_UNKNOWN_KEY (an undeclared parameter), and the plugin's own error,
 * prefixed with the plugin's path. */
sk_status sk_plugin_model_from_options(sk_context *ctx, sk_options *opts, sk_model **model);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif

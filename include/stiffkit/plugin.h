/* stiffkit/plugin.h: in-house stepper types from plugin shared objects (ABI version, entry points, loader) */
#ifndef STIFFKIT_PLUGIN_H
#define STIFFKIT_PLUGIN_H

#include "stiffkit/context.h"
#include "stiffkit/options.h"
#include "stiffkit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The plugin ABI: the layout of sk_stepper_type and the meaning of the
 * entry points below. It changes whenever a plugin built against an older
 * header could misbehave with this library; sk_plugin_load refuses a
 * plugin built for another version. */
#define SK_PLUGIN_ABI_VERSION 1

/* Symbols of a plugin stay visible even when it is compiled with
 * -fvisibility=hidden. */
#if defined(__GNUC__)
#define SK_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define SK_PLUGIN_EXPORT
#endif

/* A plugin is a shared object (built with -shared -fPIC against this
 * header) that exports both entry points:
 *   sk_plugin_abi_version: returns SK_PLUGIN_ABI_VERSION as seen by the
 *     plugin at compile time (write SK_PLUGIN_DEFINE_ABI_VERSION() once, at
 *     file scope, without a semicolon);
 *   sk_plugin_register: registers the plugin's stepper types with
 *     sk_stepper_type_register (the tables must be static: they live as long
 *     as the plugin stays loaded, i.e. as long as ctx); returns SK_OK or the
 *     first error. */
SK_PLUGIN_EXPORT int sk_plugin_abi_version(void);
SK_PLUGIN_EXPORT sk_status sk_plugin_register(sk_context *ctx);

#define SK_PLUGIN_DEFINE_ABI_VERSION()                                                  \
  SK_PLUGIN_EXPORT int sk_plugin_abi_version(void)                                      \
  {                                                                                     \
    return SK_PLUGIN_ABI_VERSION;                                                       \
  }

/* sk_plugin_load: load the plugin at `path` (dlopen RTLD_NOW | RTLD_LOCAL;
 * a path without '/' is taken relative to the working directory, not
 * searched on the library path), check its ABI version and call its
 * sk_plugin_register. The plugin stays loaded until sk_context_destroy
 * (destroy every stepper of its types before that). Loading a plugin that
 * this context already holds does nothing and returns SK_OK.
 * Errors: SK_ERR_ARG (NULL argument), SK_ERR_MISSING (no file at path),
 * SK_ERR_INPUT (not loadable: the dynamic loader's message; a missing entry
 * point, named; an ABI version other than SK_PLUGIN_ABI_VERSION),
 * SK_ERR_TOO_LARGE (more than 16 plugins in one context), or the error of
 * sk_plugin_register. On error nothing stays registered or loaded. */
sk_status sk_plugin_load(sk_context *ctx, const char *path);

/* sk_plugin_load_from_options: load every plugin named in the option
 * solver.plugin (a comma-separated list of paths; blanks around a name are
 * ignored; "" = none), in order. A database without the stepper options
 * (sk_stepper_options) loads nothing. Errors: as sk_plugin_load. */
sk_status sk_plugin_load_from_options(sk_context *ctx, const sk_options *opts);

#ifdef __cplusplus
}
#endif
#endif

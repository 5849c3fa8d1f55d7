/* stiffkit/model_type.h: the registry of model types, the families that model.type names */
#ifndef STIFFKIT_MODEL_TYPE_H
#define STIFFKIT_MODEL_TYPE_H

#include <stddef.h>

#include "stiffkit/context.h"
#include "stiffkit/model.h"
#include "stiffkit/options.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the public API: exported from libstiffkit, which hides everything else */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* What solves a model type's problem. */
typedef enum {
  SK_MODEL_DRIVER_STEPPER = 0,  /* create builds an sk_model for sk_stepper (and sk_steady) */
  SK_MODEL_DRIVER_BVP = 1,      /* a boundary-value problem: sk_bvp_from_options, sk_bvp_solve */
  SK_MODEL_DRIVER_MULTIBODY = 2 /* a mechanism: sk_multibody_load, sk_multibody_simulate */
} sk_model_driver;

/* The earlier name of SK_MODEL_DRIVER_MULTIBODY (define SK_NO_RETIRED_NAMES to drop it). */
#ifndef SK_NO_RETIRED_NAMES
#define SK_MODEL_DRIVER_MECHANISM SK_MODEL_DRIVER_MULTIBODY
#endif

/* Capabilities of a model type (bit flags of sk_model_type.flags). */
enum {
  /* on a structured grid: the shared keys model.dim, model.n, model.length apply */
  SK_MODEL_TYPE_GRID = 1u << 0,
  /* runs over MPI ranks (mpirun -np K stiffkit run) */
  SK_MODEL_TYPE_DISTRIBUTABLE = 1u << 1,
  /* create declares further keys (a plugin's parameters) and checks the pending ones
     itself; until it has run, the configuration cannot be checked for unknown keys */
  SK_MODEL_TYPE_DECLARES_KEYS = 1u << 2
};

/* The model type table. One `const sk_model_type` per family; the registry
 * lists the built-in ones (diffusion, brusselator, problem, plugin, linear,
 * network, bvp, multibody), and users may register their own. */
typedef struct sk_model_type {
  const char *name;        /* the value of model.type */
  const char *description; /* one line, for listings */
  sk_model_driver driver;
  unsigned flags; /* SK_MODEL_TYPE_* */
  /* the keys the type owns (NULL: none); registered by sk_model_register_options */
  const sk_option_spec *(*options)(size_t *n);
  /* sections whose keys the type's own input names (a BVP's equations), deferred until
     that input is read (sk_options_defer_section); NULL-terminated, NULL for none */
  const char *const *deferred_sections;
  /* build the model from the options (required when driver is SK_MODEL_DRIVER_STEPPER,
     NULL otherwise); on failure *model stays NULL and the context holds the message */
  sk_status (*create)(sk_context *ctx, sk_options *opts, sk_model **model);
} sk_model_type;

/* SK_MODEL_TYPE_KEY: the option key that names a configuration's model
 * type (registered with the types' own keys by sk_model_register_options). */
#define SK_MODEL_TYPE_KEY "model.type"

/* sk_model_type_find: the type named `name` (built-in or registered in ctx;
 * ctx may be NULL for the built-ins only), NULL when there is none. */
const sk_model_type *sk_model_type_find(const sk_context *ctx, const char *name);

/* sk_model_type_list: the i-th known type (built-ins, then registered), NULL
 * past the end. */
const sk_model_type *sk_model_type_list(const sk_context *ctx, size_t i);

/* sk_model_type_register: add a user type to ctx (the table must outlive
 * ctx). Errors: SK_ERR_ARG for a NULL table or name, a stepper-driven type
 * without create, a name already taken, or too many registered types. */
sk_status sk_model_type_register(sk_context *ctx, const sk_model_type *type);

/* sk_model_register_options: register in opts the generic model.* keys
 * (model.type; model.dim, model.n, model.length shared by the grid types)
 * and the option table of every known type (built-in and registered in
 * opts' context at the time of the call). Errors: as sk_options_register. */
sk_status sk_model_register_options(sk_options *opts);

/* sk_model_type_from_options: the type that model.type names. Errors:
 * SK_ERR_INPUT naming the origin of the value (file:line:column when it
 * came from a config) and the known types. */
sk_status sk_model_type_from_options(sk_context *ctx, const sk_options *opts,
                                     const sk_model_type **type);

/* sk_model_from_options: build the model that model.type names from the
 * model.* keys (registered by sk_model_register_options). Unless the type
 * declares keys itself (SK_MODEL_TYPE_DECLARES_KEYS), a key that no table
 * declared is refused first (sk_options_check_pending). Errors: as
 * sk_model_type_from_options; SK_ERR_UNSUPPORTED for a type not driven by a
 * stepper (bvp, multibody); otherwise as the type's create. */
sk_status sk_model_from_options(sk_context *ctx, sk_options *opts, sk_model **model);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif

/* src/core/context_impl.h: the context's body (error record, log sink, registry, backend handles, MPI ownership) */
#ifndef SK_CORE_CONTEXT_IMPL_H
#define SK_CORE_CONTEXT_IMPL_H

#include <signal.h>

#include "stiffkit/context.h"
#include "stiffkit/linear_solver.h"
#include "stiffkit/model_type.h"
#include "stiffkit/preconditioner.h"
#include "stiffkit/stepper.h"

#define SK_MAX_USER_STEPPERS 32
#define SK_MAX_USER_MODELS 32
#define SK_MAX_PLUGINS 16
#define SK_MAX_USER_PRECS 16
#define SK_MAX_USER_LINSOLS 16

struct sk_context {
  sk_error err;
  sk_log_level log_level;
  sk_log_fn log_fn;
  void *log_data;
  /* allocation failure injection: fail the k-th allocation (0 = never) */
  long alloc_fail_at;
  long alloc_count;
  /* user-registered stepper types */
  const sk_stepper_type *user_steppers[SK_MAX_USER_STEPPERS];
  size_t n_user_steppers;
  /* user-registered model types (src/registry/model_types.c) */
  const sk_model_type *user_models[SK_MAX_USER_MODELS];
  size_t n_user_models;
  /* user-registered preconditioner and linear solver types (src/linsol/linsol_types.c) */
  const sk_preconditioner_type *user_precs[SK_MAX_USER_PRECS];
  size_t n_user_precs;
  const sk_linear_solver_type *user_linsols[SK_MAX_USER_LINSOLS];
  size_t n_user_linsols;
  /* the tables of linear solver types from plugins built for ABI 4 or older (which end at
   * destroy), copied and completed (a direct type), so that no later field is read from
   * them; user_linsols points here for those */
  sk_linear_solver_type user_linsol_copies[SK_MAX_USER_LINSOLS];
  /* the plugin ABI each user type's table was built for (a plugin's, read
   * from registering_abi while its sk_plugin_register runs; the
   * application's own: SK_PLUGIN_ABI_VERSION), so that fields added in
   * later versions are not read from older tables */
  int user_stepper_abi[SK_MAX_USER_STEPPERS];
  int registering_abi; /* 0 outside a plugin's sk_plugin_register */
  /* plugin shared objects loaded by sk_plugin_load (src/core/plugin.c), in
   * load order; sk_context_destroy calls plugin_close, which dlclose's them
   * (after MPI is finalized, before the context is freed), so that this file
   * needs no dlfcn header */
  void *plugins[SK_MAX_PLUGINS];
  size_t n_plugins;
  void (*plugin_close)(sk_context *ctx);
  /* MPI, initialized by the first AMG preconditioner when the application
   * had not (src/linsol/amg_hypre.c): mpi_owned is 1 in the context that did
   * it, and sk_context_destroy then calls mpi_finalize (hypre's and MPI's
   * finalize), so that this file needs no MPI header */
  int mpi_owned;
  void (*mpi_finalize)(void);
  /* the N_Vector kernels the last CVODE engine set up with ("stiffkit" or
   * "sundials"; NULL when none): the provenance records them */
  const char *vector_kernels;
  /* why the last engine resolved linsol.type=auto as it did ("" when not
   * auto): the provenance records it */
  char linsol_reason[512];
  /* set by the application to ask for a stop (sk_context_set_stop_flag); NULL: never */
  const volatile sig_atomic_t *stop_flag;
};

#endif

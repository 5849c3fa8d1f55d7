/* src/linsol/linsol_types.h: the registry of linear solvers and preconditioners that linsol.type and linsol.preconditioner name: each one's kind and the engines that attach it */
#ifndef SK_LINSOL_LINSOL_TYPES_H
#define SK_LINSOL_LINSOL_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_nvector.h>

#include "stiffkit/context.h"
#include "stiffkit/status.h"

/* What a linear solver is, which is all an engine asks of it: how to attach
 * it follows from the kind (a dense or band SUNMatrix and LU, the model's
 * CSC matrix and a sparse factorization, a matrix-free Krylov solver with a
 * preconditioner, or none: CVODE's fixed-point iteration). */
typedef enum { SK__LS_NONE, SK__LS_DENSE, SK__LS_BAND, SK__LS_SPARSE, SK__LS_KRYLOV } sk__ls_kind;

/* The engines, as bits of a registry entry's `engines`: who can use it. */
enum {
  SK__ENGINE_CVODE = 1u,  /* cvode-bdf, cvode-adams */
  SK__ENGINE_IDA = 2u,    /* ida-bdf */
  SK__ENGINE_KINSOL = 4u, /* the steady solve */
  SK__ENGINE_NEWTON = 8u, /* the reference steppers' Newton iteration (steppers/newton_klu.c) */
  SK__ENGINE_MPI = 16u    /* the distributed runs (parallel/: CVODE on NVECTOR_PARALLEL) */
};

/* X(name, kind, engines, Krylov constructor or NULL): every linear solver,
 * once. linsol.type's choices are "auto" and these names, in this order. */
#define SK__CVODE_IDA (SK__ENGINE_CVODE | SK__ENGINE_IDA)
#define SK__LINSOL_TYPES(X)                                                                    \
  X(none, SK__LS_NONE, SK__ENGINE_CVODE, NULL)                                                 \
  X(dense, SK__LS_DENSE, SK__CVODE_IDA | SK__ENGINE_KINSOL, NULL)                              \
  X(band, SK__LS_BAND, SK__CVODE_IDA, NULL)                                                    \
  X(klu, SK__LS_SPARSE, SK__CVODE_IDA | SK__ENGINE_KINSOL | SK__ENGINE_NEWTON, NULL)           \
  X(umfpack, SK__LS_SPARSE, SK__CVODE_IDA | SK__ENGINE_KINSOL, NULL)                           \
  X(spgmr, SK__LS_KRYLOV, SK__CVODE_IDA | SK__ENGINE_KINSOL | SK__ENGINE_MPI, SUNLinSol_SPGMR) \
  X(spfgmr, SK__LS_KRYLOV, SK__CVODE_IDA, SUNLinSol_SPFGMR)                                    \
  X(spbcgs, SK__LS_KRYLOV, SK__CVODE_IDA, SUNLinSol_SPBCGS)                                    \
  X(sptfqmr, SK__LS_KRYLOV, SK__CVODE_IDA, SUNLinSol_SPTFQMR)                                  \
  X(pcg, SK__LS_KRYLOV, SK__CVODE_IDA, SUNLinSol_PCG)

/* What a preconditioner needs of the model (bits of its `needs`). */
enum {
  SK__PREC_NEEDS_VALUES = 1u,   /* the Jacobian's values (its own or colored differences) */
  SK__PREC_NEEDS_PATTERN = 2u,  /* the Jacobian's pattern only */
  SK__PREC_NEEDS_MODEL = 4u,    /* the model's own preconditioner */
  SK__PREC_NEEDS_GRID = 8u,     /* a structured grid (core/model_grid.h) */
  SK__PREC_NEEDS_ANALYTIC = 16u /* the model's own Jacobian values, not colored differences
                                   (asked by the "auto" rule only, below) */
};

/* X(name, engines, needs): every Krylov preconditioner, once;
 * linsol.preconditioner's choices are "auto" and these. */
#define SK__PREC_TYPES(X)                                                               \
  X(none, SK__CVODE_IDA | SK__ENGINE_KINSOL | SK__ENGINE_MPI, 0u)                       \
  X(jacobi, SK__ENGINE_CVODE | SK__ENGINE_KINSOL, SK__PREC_NEEDS_VALUES)                \
  X(model, SK__ENGINE_CVODE | SK__ENGINE_KINSOL | SK__ENGINE_MPI, SK__PREC_NEEDS_MODEL) \
  X(amg, SK__ENGINE_CVODE | SK__ENGINE_MPI, SK__PREC_NEEDS_VALUES)                      \
  X(mg, SK__ENGINE_CVODE | SK__ENGINE_MPI, SK__PREC_NEEDS_VALUES | SK__PREC_NEEDS_GRID) \
  X(bbd, SK__ENGINE_CVODE | SK__ENGINE_MPI, SK__PREC_NEEDS_PATTERN)

/* linsol.preconditioner = auto, as data: X(name, engines, needs, min_n, min_dim,
 * strong), in order of preference. An engine's auto takes the first row whose
 * engines include it, whose needs the model meets (SK__PREC_NEEDS_* bits, the
 * ANALYTIC one included), with at least min_n states on a grid of at least
 * min_dim dimensions (0: any model), and which this build has (mg: hypre's
 * Struct interface). `strong`: a Krylov path with it competes with a sparse
 * factorization (linsol.type = auto weighs it, linsol/linsol_choice.c). The
 * measurements behind the mg row (benchmarks/README.md, "Structured
 * multigrid (mg)" and "Distributed runs"; 2D heat, spgmr, seconds ADI / mg /
 * amg): on a start with all modes (u0 = 1) mg wins from 10^5 (7.6 / 2.7 /
 * 6.6 s; at 10^6 ADI > 240 s, mg 41 s, amg 88 s; 3D 100^3 66 / 38 / 124 s),
 * at 10^4 the 0.5 s MPI and hypre start outweighs it; on the single smooth
 * sine mode ADI stays 2.2x faster (0.31 / 0.71 s at 10^5); the Brusselator
 * at 2x512^2: KLU 196 s, spgmr + mg 10.8 s; distributed runs: mg 2.2-3.7x
 * faster than amg on 2D/3D heat, 53-82x faster than bbd on the Brusselator.
 * The steady solve's auto never takes the model's preconditioner (it
 * approximates I - gamma J of a time step, not the Newton matrix J). In a
 * distributed run "model" is the model's own choice there (amg or bbd). */
#define SK__PREC_AUTO(X)                                                                \
  X(mg, SK__ENGINE_CVODE | SK__ENGINE_MPI,                                              \
    SK__PREC_NEEDS_VALUES | SK__PREC_NEEDS_GRID | SK__PREC_NEEDS_ANALYTIC, 50000, 2, 1) \
  X(model, SK__ENGINE_CVODE | SK__ENGINE_MPI, SK__PREC_NEEDS_MODEL, 0, 0, 1)            \
  X(jacobi, SK__ENGINE_CVODE | SK__ENGINE_KINSOL, SK__PREC_NEEDS_VALUES, 0, 0, 0)       \
  X(none, SK__CVODE_IDA | SK__ENGINE_KINSOL | SK__ENGINE_MPI, 0u, 0, 0, 0)

#define SK__TYPE_TEXT(name, ...) ", " #name
#define SK__PREC_CHOICES_TEXT "auto" SK__PREC_TYPES(SK__TYPE_TEXT)
#define SK__LINSOL_CHOICES_TEXT "auto" SK__LINSOL_TYPES(SK__TYPE_TEXT)

/* The fill-reducing orderings of the sparse direct solvers (linsol.ordering): the one list. */
#define SK__ORDERING_CHOICES "auto|amd|colamd|metis-nd"

/* A SUNDIALS Krylov solver's constructor (SUNLinSol_SPGMR and its kin). */
typedef SUNLinearSolver (*sk__krylov_create_fn)(N_Vector y, int pretype, int maxl,
                                                SUNContext sunctx);

/* What every entry of both registries starts with. */
typedef struct {
  const char *name;
  unsigned engines; /* SK__ENGINE_* bits */
} sk__linsol_entry;

typedef struct {
  sk__linsol_entry id;
  sk__ls_kind kind;
  sk__krylov_create_fn krylov; /* SK__LS_KRYLOV: its constructor */
} sk__linsol_type;

typedef struct {
  sk__linsol_entry id;
  unsigned needs; /* SK__PREC_NEEDS_* bits */
} sk__prec_type;

/* sk__prec_needs: the SK__PREC_NEEDS_* bits of preconditioner `name` (0 for
 * "auto", none or an unknown name). */
unsigned sk__prec_needs(const char *name);

/* What a model offers a preconditioner: the SK__PREC_NEEDS_* bits it meets,
 * its states, and its grid's dimensions (0 without a grid). */
typedef struct {
  unsigned has;
  int64_t n;
  int dim;
} sk__prec_model;

/* sk__prec_auto: the preconditioner linsol.preconditioner = auto takes for
 * `engine` (one SK__ENGINE_* bit) on model m: the first row of
 * SK__PREC_AUTO that fits; *strong (may be NULL) gets the row's strong. */
const char *sk__prec_auto(unsigned engine, const sk__prec_model *m, int *strong);

/* sk__prec_applicable: the names of the preconditioners of `engines` whose
 * needs lie within `has` (SK__PREC_NEEDS_* bits a model provides), joined by
 * ", " into buf (always NUL-terminated). */
void sk__prec_applicable(unsigned engines, unsigned has, char *buf, size_t len);

/* sk__prec_check_needs: SK_OK when the model (named `model`) provides every
 * need of preconditioner `name` (`has`: the SK__PREC_NEEDS_* bits it provides;
 * "auto" and unknown names need nothing), else SK_ERR_UNSUPPORTED:
 * "linsol.preconditioner=NAME needs WHAT; model 'MODEL' has none, the
 * preconditioners that apply to it: LIST" (LIST: sk__prec_applicable). */
sk_status sk__prec_check_needs(sk_context *ctx, const char *name, unsigned engines, unsigned has,
                               const char *model);

/* sk__linsol_type_find / sk__prec_type_find: the entry named `name`, NULL
 * for "auto", NULL or a name no entry has. */
const sk__linsol_type *sk__linsol_type_find(const char *name);
const sk__prec_type *sk__prec_type_find(const char *name);

/* sk__linsol_is: 1 when `name` is a linear solver of `kind`: a built-in one,
 * or a type registered in ctx (ctx may be NULL: built-in ones only), which
 * is SK__LS_SPARSE when direct and SK__LS_KRYLOV when iterative. */
int sk__linsol_is(const sk_context *ctx, const char *name, sk__ls_kind kind);

/* The engines a linear solver type registered at run time
 * (stiffkit/linear_solver.h) serves: a direct one is a sparse direct
 * solver, an iterative one a Krylov solver on the engine's serial vectors ... */
#define SK__USER_LINSOL_ENGINES (SK__CVODE_IDA | SK__ENGINE_KINSOL)
/* ... and a preconditioner type registered at run time
 * (stiffkit/preconditioner.h): the cvode-* engines. */
#define SK__USER_PREC_ENGINES SK__ENGINE_CVODE

/* sk__linsol_names / sk__prec_names: the names of the entries whose
 * engines include one of `engines` (and the linear solver types registered
 * in ctx, when those engines take them), joined by ", " into buf (always
 * NUL-terminated), for the messages that list what is supported. */
void sk__linsol_names(const sk_context *ctx, unsigned engines, char *buf, size_t len);
void sk__prec_names(const sk_context *ctx, unsigned engines, char *buf, size_t len);

/* sk__linsol_accepts / sk__prec_accepts: 1 when `name` is "auto", an entry
 * whose engines include one of `engines`, or (linear solvers) a type
 * registered in ctx that those engines take; buf (len > 0) gets the names
 * those engines take (sk__linsol_names / sk__prec_names), for the message. */
int sk__linsol_accepts(const sk_context *ctx, const char *name, unsigned engines, char *buf,
                       size_t len);
int sk__prec_accepts(const sk_context *ctx, const char *name, unsigned engines, char *buf,
                     size_t len);

/* sk__linsol_check_name / sk__prec_check_name: SK_OK when `name` is "auto",
 * a built-in entry or a type registered in ctx, else SK_ERR_ARG: "unknown
 * linear solver 'NAME'; valid: auto, NAMES" (the registered ones included). */
sk_status sk__linsol_check_name(sk_context *ctx, const char *name);
sk_status sk__prec_check_name(sk_context *ctx, const char *name);

/* sk__ordering_known: 1 when `name` is one of SK__ORDERING_CHOICES other
 * than "auto"; sk__ordering_names: those, joined by ", " into buf. */
int sk__ordering_known(const char *name);
void sk__ordering_names(char *buf, size_t len);

#endif

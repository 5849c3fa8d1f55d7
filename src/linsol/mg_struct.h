/* src/linsol/mg_struct.h: geometric multigrid preconditioner on a structured grid (hypre PFMG/SMG, SysPFMG for several components per point) for A = I - gamma*J */
#ifndef SK_LINSOL_MG_STRUCT_H
#define SK_LINSOL_MG_STRUCT_H

#include <stddef.h>
#include <stdint.h>

#include "core/model_grid.h"
#include "stiffkit/context.h"

/* A structured multigrid preconditioner for A = I - gamma*J, J given by a
 * fixed CSC pattern on the states of a structured grid (core/model_grid.h)
 * and per-setup values in pattern order (the ones the AMG path takes), or,
 * for a grid distributed over MPI ranks, by each rank's raw entries of its
 * block (sk__mg_create_box: the distributed runs).
 * Every entry must couple a point with itself or with a point at most one
 * step away along each axis (the 3^dim-point box stencil); A's stencil is
 * read off the pattern once. The grid, the stencil, the hypre matrix and
 * vectors are built once; each setup writes new values and rebuilds the
 * multigrid hierarchy (its coarse operators depend on gamma). No hypre or
 * MPI type appears in this header. */
typedef struct sk__mg sk__mg;

/* The solvers: hypre's semicoarsening multigrids. */
typedef enum {
  SK__MG_PFMG = 0, /* HYPRE_StructPFMG (one component), HYPRE_SStructSysPFMG (several) */
  SK__MG_SMG = 1   /* HYPRE_StructSMG (one component only) */
} sk__mg_solver;

/* Smoothers (PFMG's numbering). */
typedef enum {
  SK__MG_RELAX_AUTO = -1,   /* rbgs for PFMG, wjacobi for SysPFMG */
  SK__MG_RELAX_JACOBI = 0,  /* Jacobi */
  SK__MG_RELAX_WJACOBI = 1, /* weighted Jacobi */
  SK__MG_RELAX_RBGS = 2     /* symmetric red/black Gauss-Seidel (PFMG only) */
} sk__mg_relax;

typedef struct {
  sk__mg_solver solver;
  int cycles;         /* V-cycles per preconditioner solve, from z = 0 (>= 1) */
  sk__mg_relax relax; /* PFMG/SysPFMG smoother; SMG has its own (plane solves) */
  /* the engine's hand-off (cvode-*, a model with a preconditioner of its own): a setup with
     gamma ||J||_1 below this takes the model's preconditioner instead of a hierarchy; 0 never */
  double model_below;
  /* above it, the model's preconditioner keeps serving while its Krylov iterations per
     nonlinear iteration stay at most this; 0: the bound alone */
  double model_max_lin;
} sk__mg_params;

/* the default of linsol.mg_model_below (benchmarks/README.md, "Multigrid hand-off") */
#define SK__MG_MODEL_BELOW_DEFAULT 25.0
/* the default of linsol.mg_model_max_lin */
#define SK__MG_MODEL_MAX_LIN_DEFAULT 3.0

/* sk__mg_params_default: PFMG, one V-cycle, relax auto, hand-off below
 * SK__MG_MODEL_BELOW_DEFAULT and up to SK__MG_MODEL_MAX_LIN_DEFAULT. */
void sk__mg_params_default(sk__mg_params *p);

/* sk__mg_relax_from_name: the smoother of a linsol.mg_relax choice
 * (auto|jacobi|wjacobi|rbgs; anything else is auto). */
sk__mg_relax sk__mg_relax_from_name(const char *name);

/* sk__mg_create: the preconditioner for the states of grid g with the n x n
 * CSC pattern (colptr[n+1], rowind[colptr[n]]; n = ncomp x points; the
 * diagonal may be absent and is added). `params` may be NULL (defaults).
 * MPI is initialized as by sk__amg_create (linsol/amg_hypre.h), with the
 * same ownership rules; the object lives on MPI_COMM_SELF.
 * Errors: SK_ERR_UNSUPPORTED (an entry outside the box stencil: the
 * message names the entry and the offset; SMG with several components;
 * rbgs with several components; no structured multigrid in this build:
 * the message says why), SK_ERR_TOO_LARGE (beyond hypre's 32-bit
 * indices), SK_ERR_ARG, SK_ERR_STATE (MPI finalized), SK_ERR_SOLVER,
 * SK_ERR_NOMEM. On error *mg is NULL. */
sk_status sk__mg_create(sk_context *ctx, const sk__model_grid *g, int64_t n,
                        const int64_t *colptr, const int64_t *rowind, const sk__mg_params *params,
                        sk__mg **mg);

/* One rank's block of a structured grid distributed over the ranks of a
 * communicator: points lo[d] .. lo[d] + cnt[d] - 1 of the global grid along
 * each axis d (lo = 0, cnt = 1 beyond dim); ncomp states per point. The
 * block's states are numbered point-major (components fastest), points x
 * fastest, as the serial grids' states. */
typedef struct {
  int dim, ncomp;
  int64_t lo[3], cnt[3];
} sk__mg_box;

/* The stencil key of the coupling of a row state to the state of component
 * `comp` at offset (ox, oy, oz) (each -1, 0 or 1) from the row's point. */
#define SK__MG_KEY(ox, oy, oz, comp, ncomp) \
  ((((ox) + 1) + 3 * ((oy) + 1) + 9 * ((oz) + 1)) * (ncomp) + (comp))

/* sk__mg_create_box: the preconditioner for this rank's block `box` of a
 * grid distributed over the ranks of *comm (an MPI_Comm passed by address,
 * so that no MPI type appears here; MPI initialized by the caller). J's
 * entries of the block's rows are given raw, in an order the setups keep:
 * entry p belongs to the block's state row[p] and couples it with the
 * state of key[p] (SK__MG_KEY); entries may repeat a coupling (their values
 * are summed) and may couple to points of other ranks' blocks, but not
 * beyond the global grid. The stencil is the union over the ranks.
 * Collective over *comm. Errors: as sk__mg_create (agreed over the ranks
 * only for what every rank sees alike: a bad key on one rank fails there). */
sk_status sk__mg_create_box(sk_context *ctx, const void *comm, const sk__mg_box *box,
                            int64_t nraw, const int64_t *row, const int *key,
                            const sk__mg_params *params, sk__mg **mg);

/* sk__mg_setup: A = I - gamma*J from `values` (J's entries in the order
 * the create was given: length colptr[n] in pattern order, or nraw) into
 * the matrix, and the hierarchy rebuilt. Collective for a box object.
 * Errors: SK_ERR_SOLVER (hypre failure, named). */
sk_status sk__mg_setup(sk__mg *mg, double gamma, const double *values);

/* sk__mg_solve: z = M r, params.cycles cycles from z = 0 (length n each,
 * or the block's states, may not alias; collective for a box object). Errors: SK_ERR_STATE (no setup), SK_ERR_SOLVER. */
sk_status sk__mg_solve(sk__mg *mg, const double *r, double *z);

/* What the object did: setups and their total wall seconds (value fill,
 * assembly and hierarchy), and the stencil read off the pattern. */
typedef struct {
  int64_t setups;
  double setup_seconds;
  int stencil; /* entries of the largest component stencil (5 in 2D, 7 in 3D for diffusion) */
  const char *solver; /* "pfmg", "smg", "syspfmg" */
} sk__mg_info;

/* sk__mg_get_info: the counters above (zero for NULL). */
void sk__mg_get_info(const sk__mg *mg, sk__mg_info *info);

/* sk__mg_report: one line of what the object did ("pfmg, 5-entry stencil,
 * 1 V-cycle per solve: 35 setups, ...") into buf, "" for NULL; `cycles` is
 * the V-cycles per solve it was created with. */
void sk__mg_report(const sk__mg *mg, int cycles, char *buf, size_t cap);

/* sk__mg_destroy: free and NULL *mg; accepts NULL. */
void sk__mg_destroy(sk__mg **mg);

/* sk__mg_available: NULL when this build has the structured multigrid, else
 * the sentence that says why not (for refusals and for auto). */
const char *sk__mg_available(void);

#endif

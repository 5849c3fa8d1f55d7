/* src/linsol/amg_hypre.h: algebraic multigrid preconditioner (hypre BoomerAMG, one V-cycle) for A = I - gamma*J */
#ifndef SK_LINSOL_AMG_HYPRE_H
#define SK_LINSOL_AMG_HYPRE_H

#include <stdint.h>

#include "stiffkit/context.h"

/* An AMG preconditioner for A = I - gamma*J, with J given by a fixed CSC
 * pattern and per-setup values in pattern order: one hypre ParCSR matrix,
 * serial on MPI_COMM_SELF (sk__amg_create) or distributed by rows
 * (sk__amg_create_rows); no hypre or MPI type appears in this header. */
typedef struct sk__amg sk__amg;

/* BoomerAMG settings (hypre's numbering; see HYPRE_parcsr_ls.h). */
typedef struct {
  int coarsen_type;        /* 10 = HMIS, 8 = PMIS, 6 = Falgout */
  int interp_type;         /* 6 = extended+i, 0 = classical */
  int p_max_elmts;         /* interpolation truncation: entries per row (0 = none) */
  double strong_threshold; /* 0.25 for 2D diffusion, 0.5 usual in 3D */
  int relax_type;      /* 8 = l1 symmetric Gauss-Seidel, 6 = hybrid symmetric GS, 18 = l1 Jacobi;
                              < 0: hypre's default (l1 GS forward down (13), backward up (14)) */
  int num_sweeps;      /* relaxation sweeps per level, down and up */
  int agg_num_levels;  /* levels of aggressive coarsening (0 = off) */
  int max_coarse_size; /* coarsest level solved directly at or below this size (0 = hypre's) */
  int print_level;     /* 0; > 0 makes hypre print setup/solve statistics to stdout
                              (measurements only: the library itself never prints) */
} sk__amg_params;

/* sk__amg_params_default: the settings stiffkit uses (HMIS coarsening,
 * ext+i interpolation with 4 entries per row, strong threshold 0.25, l1
 * symmetric Gauss-Seidel, one sweep, no aggressive coarsening); the
 * measurements behind them are in benchmarks/README.md ("AMG preconditioner"). */
void sk__amg_params_default(sk__amg_params *p);

/* sk__amg_create: an AMG object for the n x n pattern (colptr[n+1],
 * rowind[colptr[n]], rows increasing within a column; the diagonal may be
 * absent and is added). The pattern is read now and not kept: a CSC->CSR
 * position map is built once. `params` may be NULL (defaults).
 *
 * MPI: hypre needs MPI. When MPI is not initialized yet, this calls
 * MPI_Init and records in ctx that stiffkit owns MPI: sk_context_destroy of
 * that context then finalizes hypre and MPI. MPI can be initialized only
 * once per process, so after that destroy no context of the process can
 * create an AMG object again (SK_ERR_STATE), unless the application itself
 * initializes MPI before the first create and finalizes it after the last
 * destroy (then stiffkit never finalizes it). mpirun is not needed (MPI's
 * singleton start).
 *
 * Errors: SK_ERR_ARG (NULL argument, n < 1), SK_ERR_TOO_LARGE (n or the
 * nonzero count beyond hypre's 32-bit indices), SK_ERR_STATE (MPI already
 * finalized), SK_ERR_SOLVER (MPI or hypre failure, with hypre's error
 * code), SK_ERR_NOMEM. On error *amg is NULL. */
sk_status sk__amg_create(sk_context *ctx, int64_t n, const int64_t *colptr, const int64_t *rowind,
                         const sk__amg_params *params, sk__amg **amg);

/* sk__amg_create_rows: an AMG object for the rows [ilower, ilower + nlocal)
 * of a matrix distributed by contiguous row blocks over the ranks of the
 * communicator *comm (an MPI_Comm passed by address, so that no MPI type
 * appears in this header): rowptr[nlocal + 1] and cols[rowptr[nlocal]] are
 * this rank's rows, with GLOBAL column indices increasing within each row
 * (the diagonal may be absent and is added). Used by the distributed grid
 * models (src/parallel/); sk__amg_create is the one-rank case on MPI_COMM_SELF
 * and shares this code. MPI must be initialized by the caller. Collective
 * over *comm. Errors: as sk__amg_create. */
sk_status sk__amg_create_rows(sk_context *ctx, const void *comm, int64_t ilower, int64_t nlocal,
                              const int64_t *rowptr, const int64_t *cols,
                              const sk__amg_params *params, sk__amg **amg);

/* sk__amg_setup_rows: as sk__amg_setup for an object of
 * sk__amg_create_rows, with J's values in the row order given there
 * (length rowptr[nlocal]). Collective. */
sk_status sk__amg_setup_rows(sk__amg *amg, double gamma, const double *values);

/* sk__amg_setup: assemble A = I - gamma*J from `values` (length colptr[n],
 * pattern order) and build the multigrid hierarchy (HYPRE_BoomerAMGSetup).
 * Errors: SK_ERR_SOLVER (hypre failure, message names hypre's error). */
sk_status sk__amg_setup(sk__amg *amg, double gamma, const double *values);

/* sk__amg_solve: z = M r, one V-cycle from z = 0 (r, z length n, or this
 * rank's nlocal rows for sk__amg_create_rows, then collective; may not
 * alias). Requires a successful setup. Errors: SK_ERR_STATE (no setup),
 * SK_ERR_SOLVER. */
sk_status sk__amg_solve(sk__amg *amg, const double *r, double *z);

/* sk__amg_destroy: free the object and NULL *amg; accepts NULL. Does not
 * finalize MPI (that is the context's destroy). */
void sk__amg_destroy(sk__amg **amg);

#endif

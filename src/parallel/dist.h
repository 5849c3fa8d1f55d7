/* src/parallel/dist.h: one MPI rank's share of a distributed grid run: block decomposition, halo exchange, the block as a distributed model on NVECTOR_PARALLEL, integrated by the cvode-bdf stepper with GMRES and CVBBDPRE, BoomerAMG or the structured multigrid */
#ifndef SK_DIST_DIST_H
#define SK_DIST_DIST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <mpi.h>

#include "parallel/dist_keys.h"
#include "stiffkit/stiffkit.h"

/* The distributed models are the structured-grid models of the serial
 * library, evaluated block by block through their kernels
 * (models/grid_block.h), with the same options (model.*), the same discretization and
 * the same global state ordering (diffusion: idx = i + n0 (j + n1 k);
 * Brusselator: interleaved u, v per node q = i + n j, y[2q], y[2q+1]), so a
 * gathered distributed state is comparable entry by entry with a serial
 * run. Each rank owns a rectangular block of nodes; the ranks of a
 * direction divide its nodes exactly (parallel.decomposition, or the
 * automatic choice), so every block of a direction has the same size.
 *
 * Collective contract: every function below that takes or holds the
 * communicator is collective, and returns the SAME status on every rank
 * (sk__dist_agree). The rank where a failure happened records the detailed
 * message (time, global component, rank, likely cause); sk__dist_agree
 * copies the first failing rank's message into every rank's error record.
 * Every op of the distributed model the engine calls (the right-hand side,
 * the preconditioner, the blow-up check after a step) agrees its status
 * inside (sk__dist_agree_op: a NaN in one block is recoverable on every
 * rank), so that the stepper takes the same path on every rank and no rank
 * waits in a collective that another rank never reaches. */

typedef struct sk__dist sk__dist;

/* The layout of the decomposition, as seen by one rank. */
typedef struct {
  int nranks, rank;
  int dim;               /* grid dimension 1..3 */
  int ncomp;             /* states per node: 1 diffusion, 2 Brusselator */
  int64_t n[3];          /* global unknown nodes per direction (1 beyond dim) */
  int procs[3];          /* ranks per direction (1 beyond dim); product = nranks */
  int coords[3];         /* this rank's block position */
  int64_t lo[3], cnt[3]; /* this rank's first node and node count per direction */
  int64_t nlocal;        /* cnt[0] cnt[1] cnt[2] ncomp */
  int64_t nglobal;
  char prec[8];        /* the preconditioner in use: "bbd", "amg", "mg" or "none" */
  int64_t bbd_band[2]; /* BBD: difference-quotient and kept half-bandwidths (upper = lower) */
} sk__dist_layout;

/* sk__dist_check_options: refuse, with a message naming the key, what the
 * distributed models do not support (a model type without block kernels,
 * models/grid_block.h: other than diffusion or brusselator;
 * solver.method other than cvode-bdf; a direct linsol.type; and a
 * decomposition that does not fit: "parallel.decomposition = [3, 1] does
 * not divide model.n = [100, 100]: ..., would fit" or more ranks than
 * blocks, naming rank counts that would work). Not collective (pure
 * function of the options and nranks). Errors: SK_ERR_INPUT,
 * SK_ERR_UNSUPPORTED. */
sk_status sk__dist_check_options(sk_context *ctx, const sk_options *opts, int nranks);

/* sk__dist_create: build this rank's block of the model given by the
 * model.* keys, its halo buffers, the block as a distributed model
 * (core/model_dist.h: its state an NVECTOR_PARALLEL vector) and the
 * cvode-bdf stepper of the serial runs on it, set from the same options
 * (solver.*, linsol.maxl, linsol.eps_lin, ...) with spgmr and the
 * preconditioner of linsol.preconditioner (bbd: the engine's CVBBDPRE;
 * amg, mg: the model's own). Collective. Errors (agreed): those of
 * sk__dist_check_options, SK_ERR_NOMEM, SK_ERR_SOLVER (CVODE/hypre setup,
 * naming the call). On error *d is NULL on every rank. */
sk_status sk__dist_create(sk_context *ctx, MPI_Comm comm, const sk_options *opts, sk__dist **d);

/* sk__dist_get_layout: the decomposition (valid while d lives). */
const sk__dist_layout *sk__dist_get_layout(const sk__dist *d);

/* sk__dist_set_monitor: call fn(t, h, data) after every internal step on
 * every rank (progress); a nonzero return interrupts the advance with
 * SK_INTERRUPTED. fn must return the same value on every rank (the caller
 * agrees it, e.g. by an MPI_Allreduce of a stop flag). */
void sk__dist_set_monitor(sk__dist *d, int (*fn)(double t, double h, void *data), void *data);

/* sk__dist_advance: integrate to tout (> current time); *t receives the
 * time reached (tout on success; the last successful step's time after a
 * failure). Collective. Errors (agreed): those of the serial cvode-bdf
 * stepper (SK_ERR_CONV, SK_ERR_STEP_TOO_SMALL, SK_ERR_TOO_MUCH_WORK, ...),
 * with the time and the likely cause in the message; SK_ERR_NONFINITE when
 * a right-hand side held NaN/Inf (the rank that held it speaks: the
 * message names t, the global component and the rank); SK_INTERRUPTED. */
sk_status sk__dist_advance(sk__dist *d, double tout, double *t);

/* sk__dist_gather: the global state in the serial ordering into y_global
 * (length nglobal) on rank `root`; other ranks pass NULL. Collective
 * (MPI_Gatherv of the blocks, reordered on root). Errors: SK_ERR_NOMEM. */
sk_status sk__dist_gather(sk__dist *d, int root, double *y_global);

/* sk__dist_get_stats: the stepper's counters (equal on every rank), the
 * preconditioner's, the current time, last step and order, and the wall
 * time spent in sk__dist_advance on this rank. */
void sk__dist_get_stats(sk__dist *d, sk_stats *st);

/* sk__dist_describe_yaml: the parallel block of the provenance, as a YAML
 * block mapping at indentation 0 (ranks, decomposition, per-rank block
 * extent of this layout, preconditioner, BBD bandwidths, halo message
 * sizes in bytes per exchange, the multigrid's report), into out. */
void sk__dist_describe_yaml(const sk__dist *d, FILE *out);

/* sk__dist_prec_report: with linsol.preconditioner=mg, one line of what
 * this rank's structured multigrid did (sk__mg_report), else "". */
void sk__dist_prec_report(const sk__dist *d, char *buf, size_t cap);

/* sk__dist_destroy: free everything (the stepper, the model, hypre objects,
 * requests) and NULL *d; accepts NULL. Not collective. */
void sk__dist_destroy(sk__dist **d);

/* sk__dist_agree: the collective agreement of a status (MPI_Allreduce):
 * returns the status of the lowest rank that failed (SK_OK when none did;
 * any status other than SK_OK, SK_INTERRUPTED included, counts as a
 * failure), the same on every rank, and puts that rank's error message
 * (with its foreign flag) into the error record of every rank, prefixed
 * "rank R: " when there are several ranks, so that every rank holds the
 * same message. Collective. */
sk_status sk__dist_agree(sk_context *ctx, MPI_Comm comm, sk_status st);

/* ---- evaluation and test hooks (src/parallel/ tests, the CLI's fault injection) ---- */

/* sk__dist_inject_nan: from time t on, the right-hand side returns NaN in
 * the global component `global_component` (serial ordering), on the rank
 * that owns it. Not collective (every rank may call it with the same
 * arguments). Errors: SK_ERR_ARG (component outside [0, nglobal)). */
sk_status sk__dist_inject_nan(sk__dist *d, int64_t global_component, double t);

/* sk__dist_inject_halo_short: this rank sends `missing` values fewer in
 * every halo message from now on (a bad halo size at its neighbours).
 * Not collective. */
void sk__dist_inject_halo_short(sk__dist *d, int missing);

/* sk__dist_local_from_global: this rank's block (length nlocal, local
 * ordering: x fastest, components interleaved) of a global vector in the
 * serial ordering. Not collective. */
void sk__dist_local_from_global(const sk__dist *d, const double *y_global, double *y_local);

/* sk__dist_gather_vector: as sk__dist_gather for any local vector
 * (length nlocal). Collective. Errors (agreed): SK_ERR_NOMEM. */
sk_status sk__dist_gather_vector(sk__dist *d, int root, const double *y_local, double *y_global);

/* sk__dist_eval_rhs: the distributed right-hand side f(t, y) of this
 * rank's block (halo exchange, then the local stencil; lengths nlocal),
 * the function CVODE integrates. Collective. Errors (agreed):
 * SK_ERR_NONFINITE (NaN/Inf in some block: message names t, the global
 * component, the node and the rank), SK_ERR_SOLVER (a bad halo size). */
sk_status sk__dist_eval_rhs(sk__dist *d, double t, const double *y_local, double *f_local);

/* sk__dist_halo_values: exchange the halo of y_local and return this
 * rank's ghosted copy of the block: node (a, b, c) of the block, with a
 * in [-1, cnt[0]] (ghosts at -1 and cnt[0]; likewise b, c in the
 * directions below dim, 0 beyond it), component k is
 * (*ghosted)[ncomp (a+g0 + G0 (b+g1 + G1 (c+g2))) + k] with g_d = 1 and
 * G_d = cnt[d] + 2 for d < dim, else g_d = 0, G_d = 1. Ghosts on a
 * physical boundary are left unset. The array lives until the next
 * evaluation. Collective. Errors (agreed): SK_ERR_SOLVER (bad halo size). */
sk_status sk__dist_halo_values(sk__dist *d, const double *y_local, const double **ghosted);

#endif

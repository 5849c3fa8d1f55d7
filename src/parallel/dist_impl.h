/* src/parallel/dist_impl.h: internals shared by the src/parallel/ files: the rank's object, halo state, the calls into the model's block kernels */
#ifndef SK_DIST_DIST_IMPL_H
#define SK_DIST_DIST_IMPL_H

#include <mpi.h>
#include <nvector/nvector_parallel.h>

#include "backends/sundials_backend.h"
#include "core/model_dist.h"
#include "parallel/dist.h"
#include "linsol/mg_struct.h"
#include "models/grid_block.h"

/* The settings read from the options (dist_options.c). */
typedef struct {
  const sk__block_kernels *model; /* the model's block kernels (model.type) */
  sk__block_shape shape;          /* its grid, from the model.* keys */
  int dim, ncomp;
  int64_t n[3];
  int procs[3];     /* the process grid (checked: divides n) */
  char prec[8];     /* resolved: bbd, amg, mg or none */
  sk__mg_params mg; /* linsol.mg_solver, mg_cycles, mg_relax */
  int64_t band;     /* linsol.bbd_band (0 = automatic) */
} sk__dist_settings;

/* sk__dist_read_settings: the options as the distributed run uses them,
 * checked against nranks (the messages of sk__dist_check_options). Not
 * collective. */
sk_status sk__dist_read_settings(sk_context *ctx, const sk_options *opts, int nranks,
                                 sk__dist_settings *s);

/* Halo exchange state (dist_halo.c): one ghost layer per side, faces only. */
typedef struct {
  MPI_Comm comm; /* the Cartesian communicator (not owned) */
  int rank;
  int nb[3][2];         /* neighbour ranks, MPI_PROC_NULL at a physical side */
  int64_t face[3];      /* values per message normal to d */
  double *buf[3][2][2]; /* [d][side][0 send, 1 receive], receive ones one value longer */
  int missing;          /* test hook: values left out of every message sent */
  char msg[256];        /* the last failure of this rank */
} sk__halo;

struct sk__dist {
  sk_context *ctx;
  MPI_Comm comm; /* Cartesian communicator (owned) */
  sk__dist_layout L;
  sk__dist_settings s;
  sk__grid_block B;    /* this rank's block (B.g = &s.shape.g, B.ug its ghosted state) */
  sk__block_model *bm; /* the model's state on the block (s.model's kernels) */
  int *rank_of;        /* rank of process-grid coordinates c0 + p0 (c1 + p1 c2) */
  sk__halo halo;
  /* the run: this rank's block as a distributed model (dist_model.c), integrated by the
     cvode-bdf stepper */
  sk_model *model;
  sk_stepper *stepper;
  int have_cb_error; /* this rank saw the cause of the last failure (sk__dist_agree_op) */
  double wall;
  double t_out; /* the time the last advance reached (its output time) */
  int (*monitor)(double t, double h, void *data);
  void *monitor_data;
  /* the preconditioners built from J's rows (dist_prec.c): AMG on this rank's rows in the
     rank-contiguous numbering, or the structured multigrid on its block */
  struct sk__amg *amg;
  sk__mg *mg;
  int64_t *arow, *acol, *amap; /* AMG: row pointers, sorted columns, raw entry -> position */
  int64_t araw;                /* raw stencil entries (before merging duplicates) */
  double *aval;                /* AMG: the merged rows' values; mg: the raw entries' */
  int prec_have_jac;           /* the rows' values are held (CVODE may reuse them: jok) */
  int64_t prec_jac_evals;
  /* test hooks */
  int64_t inject_local; /* local component made NaN, -1 for none */
  int64_t inject_global;
  double inject_t;
};

/* ---- decomposition (dist_decomp.c) ---- */

/* sk__dist_choose_grid: the automatic process grid (the most compact
 * grid, smallest halo surface, whose counts divide n); 0 when none exists. */
int sk__dist_choose_grid(int nranks, int dim, const int64_t n[3], int procs[3]);

/* sk__dist_setup_layout: Cartesian communicator, block of this rank,
 * ghosted extents, rank table. Collective (MPI_Cart_create). */
sk_status sk__dist_setup_layout(sk__dist *d, MPI_Comm comm);

/* sk__dist_ghost: ghosted node index of local node (a, b, c) (each may
 * be -1 or cnt: a ghost). */
static inline int64_t sk__dist_ghost(const sk__dist *d, int64_t a, int64_t b, int64_t c)
{
  return sk__grid_block_ghost(&d->B, a, b, c);
}

/* sk__dist_block_index: position of global node (i, j, k) in the
 * rank-contiguous numbering (owner rank * nlocal + local index), times ncomp. */
int64_t sk__dist_block_index(const sk__dist *d, const int64_t ijk[3]);

/* sk__dist_copy_in: the local vector into the interior of d->B.ug. */
void sk__dist_copy_in(sk__dist *d, const double *y_local);

/* ---- halo exchange (dist_halo.c) ---- */

sk_status sk__halo_init(sk__dist *d);
void sk__halo_free(sk__dist *d);
/* sk__halo_exchange: faces of y_local into the ghost layers of d->B.ug.
 * Local result: 0, or -1 with d->halo.msg set (bad size from a
 * neighbour, an MPI error). Not agreed (callers agree). */
int sk__halo_exchange(sk__dist *d, const double *y_local);

/* ---- the model on the block (src/models/grid_block.h) ---- */

/* sk__dist_row: the Jacobian row of local state r from d->B.ug (after the
 * model's prepare_rows): the kernels' raw entries (column in the
 * rank-contiguous numbering, stencil key, value); returns the count. */
static inline int sk__dist_row(const sk__dist *d, int64_t r, int64_t *cols, int *keys,
                               double *vals)
{
  return d->s.model->row(d->bm, &d->B, r, cols, keys, vals);
}

/* sk__dist_prepare_rows: what the rows need, from d->B.ug (halo in place), at time t. */
static inline void sk__dist_prepare_rows(sk__dist *d, double t)
{
  d->s.model->prepare_rows(d->bm, &d->B, t);
}

#define SK__DIST_ROW_MAX SK__GRID_BLOCK_ROW_MAX

/* ---- preconditioners (dist_prec.c) ---- */

/* ---- this rank's block as a distributed model (dist_model.c) ---- */

/* sk__dist_model_create: d->model, n = nlocal: the agreed right-hand side,
 * the global components' names, the initial state, the vectors on
 * NVECTOR_PARALLEL, the preconditioner attached (sk__dist_attach_prec,
 * in it) and what CVBBDPRE reads (core/model_dist.h). Collective (the
 * preconditioner's setup, agreed); the rest local. */
sk_status sk__dist_model_create(sk__dist *d);

/* sk__dist_nvector_use_fast_ops: an NVECTOR_PARALLEL vector's operation
 * table becomes the fast local kernels (sk__nvector_use_fast_local_ops)
 * with global reductions of the local kernel plus one MPI_Allreduce on its
 * communicator; clones inherit it. Another vector kind is left unchanged. */
void sk__dist_nvector_use_fast_ops(N_Vector v);

/* sk__dist_nvector_guard_clone: sk__nvector_guard_clone for an
 * NVECTOR_PARALLEL vector (its clones end the process with exit 71 when
 * their allocation fails). */
void sk__dist_nvector_guard_clone(N_Vector v);

/* sk__dist_attach_prec: the preconditioner d->L.prec names, built on the
 * block (amg: this rank's rows; mg: the structured multigrid; bbd: its
 * half-bandwidth checked to fit), its ops into *dist (prec_setup,
 * prec_solve, bbd_band). Collective, agreed. */
sk_status sk__dist_attach_prec(sk__dist *d, sk__model_distribution *dist);
void sk__dist_free_prec(sk__dist *d);

/* ---- shared by the RHS and the preconditioners (dist_agree.c; the RHS inline) ---- */

/* sk__dist_local_rhs: d->B.ug's interior set, halo in place: the local
 * RHS into f (the BBD gloc and the full RHS). */
static inline void sk__dist_local_rhs(sk__dist *d, double t, double *f)
{
  d->s.model->rhs(d->bm, &d->B, t, f);
}

/* sk__dist_agree_op: the status of a collective op (the right-hand side,
 * a halo exchange, the preconditioner's setup or solve, the check of the
 * state after a step) that each rank computed on its block, agreed on its
 * kind: SK_OK, recoverable (SK_RECOVERABLE), non-finite (SK_ERR_NONFINITE)
 * or fatal, the most severe any rank saw, on every rank. A rank whose own
 * status is of the agreed kind keeps it and its message and is marked as
 * the cause (d->have_cb_error); the others return SK_RECOVERABLE,
 * SK_ERR_NONFINITE or SK_ERR_SOLVER naming `what` as failed on another
 * rank. Collective. */
sk_status sk__dist_agree_op(sk__dist *d, sk_status st, const char *what);

/* sk__dist_agree_ex: sk__dist_agree where the failing ranks with
 * primary != 0 (the ones that saw the cause) take precedence. */
sk_status sk__dist_agree_ex(sk_context *ctx, MPI_Comm comm, sk_status st, int primary);

#endif

/* src/models/grid_block.h: a structured-grid model on one block of its grid (the distributed runs' unit): the block's geometry and ghosted state, and each distributable model's block kernels */
#ifndef SK_MODELS_GRID_BLOCK_H
#define SK_MODELS_GRID_BLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "models/grid.h"
#include "stiffkit/options.h"

/* A distributable model is evaluated block by block: the owner (the
 * distributed run, src/parallel/) splits the global grid into blocks, fills
 * each block's ghosted state (interior and one halo layer from the
 * neighbouring blocks), and calls the model's kernels below. The kernels
 * are the serial model's discretization (src/models/diffusion.c,
 * brusselator.c) restricted to a block, in the serial operation order, so
 * that a gathered right-hand side equals the serial one bit for bit
 * (tests/mpi/test_dist_halo.c). */

/* One block of the global grid. */
typedef struct {
  int dim, ncomp;
  int64_t n[3];          /* global unknown nodes per direction (1 beyond dim) */
  int64_t lo[3], cnt[3]; /* the block's first node and node count per direction */
  int64_t G[3];          /* ghosted extents: cnt + 2 below dim, else 1 */
  int64_t gs[3];         /* node strides of the ghosted array */
  int64_t nghost;        /* ghosted nodes */
  double *ug;            /* ghosted state, ncomp per node (the owner's) */
  const sk__grid *g;     /* the global grid: spacings and coordinates as the serial model */
  /* the position of global node ijk's first state in the owner's numbering of the global
     states (the Jacobian rows' columns) */
  int64_t (*column)(const void *owner, const int64_t ijk[3]);
  const void *owner;
} sk__grid_block;

/* sk__grid_block_ghost: ghosted node index of block node (a, b, c) (each
 * may be -1 or cnt: a ghost). */
static inline int64_t sk__grid_block_ghost(const sk__grid_block *B, int64_t a, int64_t b,
                                           int64_t c)
{
  return (a + 1) + B->G[0] * ((b + (B->dim > 1)) + B->G[1] * (c + (B->dim > 2)));
}

/* The most Jacobian entries a block row has (raw: a column may repeat). */
#define SK__GRID_BLOCK_ROW_MAX 8

/* A model's block state (its parameters and scratch), owned by the kernels. */
typedef struct sk__block_model sk__block_model;

/* The shape of a distributable model's grid, from its model.* keys. */
typedef struct {
  int dim, ncomp;
  int64_t n[3];
  sk__grid g;
} sk__block_shape;

typedef struct {
  const char *model_type; /* the model.type it serves */
  const char *own_prec;   /* what linsol.preconditioner=model means for it: amg or bbd */
  /* shape: read the model.* keys, refuse (naming the key) what the block kernels do not
     support, and give the grid. Not collective; allocates nothing. */
  sk_status (*shape)(sk_context *ctx, const sk_options *opts, sk__block_shape *out);
  /* create: the block state for block B (B->ug allocated, its contents unset); checks the
     initial state on the block (a formula's NaN names the global node). */
  sk_status (*create)(sk_context *ctx, const sk_options *opts, const sk__grid_block *B,
                      sk__block_model **out);
  void (*destroy)(sk__block_model **m);
  /* name: "diffusion-2d", "brusselator-2d" (messages) */
  const char *(*name)(const sk__block_model *m);
  /* var: the name of component c of a node ("u", "v") */
  const char *(*var)(const sk__block_model *m, int c);
  /* initial: the block's initial state at t0 into y (length B's states, x fastest,
     components interleaved) */
  void (*initial)(const sk__block_model *m, const sk__grid_block *B, double t0, double *y);
  /* rhs: the block's right-hand side from B->ug (halo in place) into f */
  void (*rhs)(sk__block_model *m, const sk__grid_block *B, double t, double *f);
  /* prepare_rows: what the rows need from B->ug (halo in place) and the time t (boundary
     data that change with it), once before a sweep of rows */
  void (*prepare_rows)(sk__block_model *m, const sk__grid_block *B, double t);
  /* row: the Jacobian row of block state r: raw entries (column in the owner's numbering,
     structured-grid stencil key SK__MG_KEY (linsol/mg_struct.h), value), a column possibly
     repeated; returns the count (<= SK__GRID_BLOCK_ROW_MAX) */
  int (*row)(const sk__block_model *m, const sk__grid_block *B, int64_t r, int64_t *cols,
             int *keys, double *vals);
} sk__block_kernels;

/* The kernels of the distributable models (diffusion_block.c, brusselator_block.c). */
extern const sk__block_kernels sk__diffusion_block;
extern const sk__block_kernels sk__brusselator_block;

/* sk__block_kernels_find: the block kernels of model type `type`, NULL when
 * the type has none (it cannot run distributed). */
const sk__block_kernels *sk__block_kernels_find(const char *type);

/* sk__block_kernels_list: the model types with block kernels, as "a and b",
 * into buf. */
void sk__block_kernels_list(char *buf, size_t cap);

#endif

/* src/core/model_grid.h: the structured grid a model's states live on (dimensions, points per axis, components per point), for geometric multigrid */
#ifndef SK_CORE_MODEL_GRID_H
#define SK_CORE_MODEL_GRID_H

#include <stdint.h>

#include "stiffkit/model.h"

/* A logically rectangular grid of n[0] x n[1] x n[2] points (n[d] = 1 for
 * d >= dim) with ncomp states per point, interleaved: state
 *   s = c + ncomp (i + n[0] (j + n[1] k)),  0 <= c < ncomp.
 * The grid carries no geometry (spacing, boundaries): those are in the
 * Jacobian's values. No axis is periodic (no model has one yet: a
 * coupling that wraps around an axis is outside the nearest-neighbour
 * stencil and a structured solver refuses it). dim == 0: no grid. */
typedef struct {
  int dim;      /* 1, 2 or 3 */
  int64_t n[3]; /* points per axis */
  int ncomp;    /* states per point */
} sk__model_grid;

/* sk__model_set_grid: declare that the model's states live on grid g
 * (copied). Errors: SK_ERR_ARG when dim is not 1..3, an n[d] < 1, n[d] != 1
 * beyond dim, ncomp < 1, or ncomp x n[0] x n[1] x n[2] is not the model's
 * state count. */
sk_status sk__model_set_grid(sk_model *m, const sk__model_grid *g);

/* sk__model_get_grid: the model's grid, or NULL when it declared none. */
const sk__model_grid *sk__model_get_grid(const sk_model *m);

#endif

/* src/core/model_dist.h: a model whose state is one rank's block of a distributed vector: how the engines make its vectors, its collective right-hand side and preconditioner, and what CVBBDPRE reads */
#ifndef SK_CORE_MODEL_DIST_H
#define SK_CORE_MODEL_DIST_H

#include <stdint.h>

#include "stiffkit/model.h"

/* A distributed model (src/parallel/ makes them). Its n is this rank's
 * share; every op below is collective and returns the same status on every
 * rank, the failing rank's message in every rank's error record, so that
 * an engine takes the same path everywhere. The engines call them in place
 * of the model's public callbacks:
 *   make_vector: an N_Vector (as void *) of this rank's n entries over buf
 *     (not copied), in the SUNDIALS context sunctx (a SUNContext), with the
 *     project's fast kernels when fast != 0; clones of it end the process
 *     (exit 71) when their allocation fails; NULL when out of memory
 *     (collective: NVECTOR_PARALLEL sums the local lengths; the engine's
 *     setup status is agreed after it, in sk_stepper_setup);
 *   rhs: f(t, y) of this rank's block (SK_ERR_NONFINITE when some block
 *     holds NaN or Inf, naming the rank and the global component);
 *   prec_setup, prec_solve (may be NULL: no preconditioner of its own):
 *     P ~ I - gamma J at (t, y) (jac_current: the engine asks for fresh
 *     Jacobian data) and z = P^-1 r;
 *   bbd_band: the half-bandwidth of the local blocks CVBBDPRE keeps
 *     (checked to fit in memory), bbd_local: the local function g(t, y)
 *     on the ghosts of the last bbd_exchange (local, not collective),
 *     bbd_exchange: the exchange of y's ghosts;
 *   agree: a status every rank computed locally (a check of its block
 *     after a step), agreed: the failing rank's status and message on
 *     every rank, SK_OK when none failed;
 *   max: the maximum over the ranks of a local value;
 *   global_index: the global component of local component i (messages).
 * Every op is required except prec_setup and prec_solve; the model needs no
 * public RHS callback. Only a stepper type flagged SK_STEPPER_DISTRIBUTED
 * (cvode-bdf) with a Krylov linear solver integrates a distributed model
 * (the other stepper types and linear solvers refuse it). */
typedef struct sk__model_distribution {
  void *data;
  void *(*make_vector)(void *data, double *buf, int64_t n, void *sunctx, int fast);
  sk_status (*rhs)(void *data, double t, const double *y, double *f);
  sk_status (*prec_setup)(void *data, double t, const double *y, double gamma, int jac_current);
  sk_status (*prec_solve)(void *data, const double *r, double *z);
  int64_t bbd_band;
  sk_status (*bbd_local)(void *data, double t, const double *y, double *g);
  sk_status (*bbd_exchange)(void *data, double t, const double *y);
  sk_status (*agree)(void *data, sk_status st);
  double (*max)(void *data, double local);
  int64_t (*global_index)(void *data, int64_t i);
} sk__model_distribution;

/* sk__model_set_distribution: m becomes a distributed model (dist is
 * copied); cvode-bdf reads it (sk__model_get_distribution). */
void sk__model_set_distribution(sk_model *m, const sk__model_distribution *dist);

/* sk__model_get_distribution: m's distribution, NULL for a serial model. */
const sk__model_distribution *sk__model_get_distribution(const sk_model *m);

/* sk__model_global_index: the component of the whole problem that m's component i is (i for a
 * serial model), for messages. */
int64_t sk__model_global_index(const sk_model *m, int64_t i);

#endif

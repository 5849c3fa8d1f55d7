/* src/parallel/dist_model.c: this rank's block as a distributed model (core/model_dist.h): vectors on NVECTOR_PARALLEL, the right-hand side with its failure agreed, the global components' names, the injected faults */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "parallel/dist_impl.h"

/* Global component (serial ordering) of local state m, and its node. */
static int64_t global_component(const sk__dist *d, int64_t m, int64_t *node)
{
  const sk__dist_layout *L = &d->L;
  const int64_t ln = m / L->ncomp;
  const int64_t a = ln % L->cnt[0], b = (ln / L->cnt[0]) % L->cnt[1],
                c = ln / (L->cnt[0] * L->cnt[1]);
  *node = (L->lo[0] + a) + L->n[0] * ((L->lo[1] + b) + L->n[1] * (L->lo[2] + c));
  return *node * L->ncomp + m % L->ncomp;
}

/* "u[i,j]" of local state m. */
static void local_name(const sk__dist *d, int64_t m, char *buf, size_t len)
{
  int64_t node;
  const int64_t comp = global_component(d, m, &node);
  const char *var = d->s.model->var(d->bm, (int)(comp % d->L.ncomp));
  sk__grid_node_name(d->B.g, var, node, buf, len);
}

/* Halo, local RHS and the NaN/Inf check on this rank only (not agreed). */
static sk_status eval_local(sk__dist *d, double t, const double *y, double *f)
{
  sk_context *ctx = d->ctx;
  if (sk__halo_exchange(d, y)) {
    return SK_ERROR(ctx, SK_ERR_SOLVER, "%s", d->halo.msg);
  }
  sk__dist_local_rhs(d, t, f);
  if (d->inject_local >= 0 && t >= d->inject_t) {
    f[d->inject_local] = NAN;
  }
  for (int64_t m = 0; m < d->L.nlocal; m++) {
    if (isfinite(f[m])) {
      continue;
    }
    int64_t node;
    const int64_t comp = global_component(d, m, &node);
    char name[96];
    local_name(d, m, name, sizeof name);
    return SK_ERROR(ctx, SK_ERR_NONFINITE,
                    "right-hand side of model '%s' returned %g at t=%.6e in component %lld (%s) "
                    "on rank %d",
                    d->s.model->name(d->bm), f[m], t, (long long)comp, name, d->L.rank);
  }
  return SK_OK;
}

/* The model's right-hand side: NaN/Inf in some block is recoverable on every rank (the
 * engine cuts the step, then stops on the third in a row), a halo failure fatal. */
static sk_status model_rhs(void *data, double t, const double *y, double *f)
{
  sk__dist *d = data;
  return sk__dist_agree_op(d, eval_local(d, t, y, f), "the right-hand side");
}

sk_status sk__dist_eval_rhs(sk__dist *d, double t, const double *y_local, double *f_local)
{
  SK_CALL(d->ctx, sk__dist_agree(d->ctx, d->comm, eval_local(d, t, y_local, f_local)));
  return SK_OK;
}

sk_status sk__dist_halo_values(sk__dist *d, const double *y_local, const double **ghosted)
{
  sk_status st = SK_OK;
  if (sk__halo_exchange(d, y_local)) {
    st = SK_ERROR(d->ctx, SK_ERR_SOLVER, "%s", d->halo.msg);
  }
  SK_CALL(d->ctx, sk__dist_agree(d->ctx, d->comm, st));
  *ghosted = d->B.ug;
  return SK_OK;
}

/* CVBBDPRE's local function: the RHS on the ghosts of the last exchange. */
static sk_status model_bbd_local(void *data, double t, const double *y, double *g)
{
  sk__dist *d = data;
  sk__dist_copy_in(d, y);
  sk__dist_local_rhs(d, t, g);
  return SK_OK;
}

/* CVBBDPRE's exchange (every rank calls the BBD setup at the same time). */
static sk_status model_bbd_exchange(void *data, double t, const double *y)
{
  (void)t;
  sk__dist *d = data;
  sk_status st = SK_OK;
  if (sk__halo_exchange(d, y)) {
    st = SK_ERROR(d->ctx, SK_ERR_SOLVER, "%s", d->halo.msg);
  }
  return sk__dist_agree_op(d, st, "the halo exchange");
}

static sk_status model_agree(void *data, sk_status st)
{
  return sk__dist_agree_op(data, st, "the check of the state");
}

static double model_max(void *data, double local)
{
  sk__dist *d = data;
  MPI_Allreduce(MPI_IN_PLACE, &local, 1, MPI_DOUBLE, MPI_MAX, d->comm);
  return local;
}

static void *model_vector(void *data, double *buf, int64_t n, void *sunctx, int fast)
{
  sk__dist *d = data;
  N_Vector v = N_VMake_Parallel(d->comm, (sunindextype)n, (sunindextype)d->L.nglobal, buf,
                                (SUNContext)sunctx);
  if (v) {
    sk__dist_nvector_guard_clone(v);
    if (fast) {
      sk__dist_nvector_use_fast_ops(v);
    }
  }
  return v;
}

static int64_t model_global_index(void *data, int64_t i)
{
  int64_t node;
  return global_component(data, i, &node);
}

static void component_name(int64_t i, char *buf, size_t len, void *data)
{
  local_name(data, i, buf, len);
}

static int initial(double t0, double *y0, void *data)
{
  sk__dist *d = data;
  d->s.model->initial(d->bm, &d->B, t0, y0);
  return 0;
}

sk_status sk__dist_model_create(sk__dist *d)
{
  sk_context *ctx = d->ctx;
  sk__model_distribution dist = {.data = d,
                                 .make_vector = model_vector,
                                 .rhs = model_rhs,
                                 .bbd_local = model_bbd_local,
                                 .bbd_exchange = model_bbd_exchange,
                                 .agree = model_agree,
                                 .max = model_max,
                                 .global_index = model_global_index};
  SK_CALL(ctx, sk__dist_attach_prec(d, &dist));
  SK_CALL(ctx, sk_model_create(ctx, SK_MODEL_ODE, d->L.nlocal, &d->model));
  sk_model_set_name(d->model, d->s.model->name(d->bm));
  sk_model_set_user_data(d->model, d, NULL);
  sk_model_set_initial(d->model, initial);
  sk_model_set_component_name(d->model, component_name);
  sk__model_set_distribution(d->model, &dist);
  return SK_OK;
}

sk_status sk__dist_inject_nan(sk__dist *d, int64_t global_component, double t)
{
  const sk__dist_layout *L = &d->L;
  SK_CHECK(d->ctx, global_component >= 0 && global_component < L->nglobal, SK_ERR_ARG,
           "NaN injection: component %lld outside [0, %lld)", (long long)global_component,
           (long long)L->nglobal);
  const int64_t node = global_component / L->ncomp;
  const int64_t ijk[3] = {node % L->n[0], (node / L->n[0]) % L->n[1], node / (L->n[0] * L->n[1])};
  d->inject_local = -1;
  d->inject_global = global_component;
  d->inject_t = t;
  int64_t l[3];
  for (int k = 0; k < 3; k++) {
    l[k] = ijk[k] - L->lo[k];
    if (l[k] < 0 || l[k] >= L->cnt[k]) {
      return SK_OK; /* another rank's */
    }
  }
  d->inject_local =
      L->ncomp * (l[0] + L->cnt[0] * (l[1] + L->cnt[1] * l[2])) + global_component % L->ncomp;
  return SK_OK;
}

void sk__dist_inject_halo_short(sk__dist *d, int missing)
{
  d->halo.missing = missing;
}

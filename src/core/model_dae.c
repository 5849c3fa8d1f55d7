/* src/core/model_dae.c: DAE models F(t, y, y') = 0: residual, differential/algebraic split, initial values, Jacobian dF/dy + cj dF/dy' (callback or colored differences) */
#include <stdio.h>
#include <math.h>
#include <string.h>

#include "core/error.h"
#include "core/stop.h"
#include "core/model_impl.h"

/* SK_ERR_ARG unless m is a DAE model. */
static sk_status require_dae(sk_model *m, const char *func)
{
  if (!m) {
    return SK_ERR_ARG;
  }
  SK_CHECK(m->ctx, m->kind == SK_MODEL_DAE, SK_ERR_ARG, "%s: model '%s' is not a DAE model", func,
           m->name);
  return SK_OK;
}

sk_status sk_model_set_residual(sk_model *m, sk_residual_fn residual)
{
  SK_CALL(m ? m->ctx : NULL, require_dae(m, __func__));
  m->residual = residual;
  return SK_OK;
}

int sk__model_has_analytic_dae_jac(const sk_model *m)
{
  return m && (m->dae_jac != NULL || m->dae_dense_jac != NULL);
}

sk_status sk_model_set_dae_jac_values(sk_model *m, sk_dae_jac_fn jac)
{
  SK_CALL(m ? m->ctx : NULL, require_dae(m, __func__));
  SK_CHECK(m->ctx, jac == NULL || m->dae_dense_jac == NULL, SK_ERR_ARG,
           "%s: model '%s' already has a dense DAE Jacobian (sk_model_set_dae_dense_jacobian): "
           "give one or the other",
           __func__, m->name);
  m->dae_jac = jac;
  return SK_OK;
}

sk_status sk_model_set_dae_initial(sk_model *m, sk_dae_initial_fn initial)
{
  SK_CALL(m ? m->ctx : NULL, require_dae(m, __func__));
  m->dae_initial = initial;
  return SK_OK;
}

sk_status sk_model_set_differential(sk_model *m, const int *id)
{
  SK_CALL(m ? m->ctx : NULL, require_dae(m, __func__));
  int *copy = NULL;
  if (id) {
    for (int64_t i = 0; i < m->n; i++) {
      SK_CHECK(m->ctx, id[i] == 0 || id[i] == 1, SK_ERR_ARG,
               "sk_model_set_differential: id[%lld] = %d, expected 1 (differential) or 0 "
               "(algebraic)",
               (long long)i, id[i]);
    }
    copy = sk__malloc(m->ctx, (size_t)m->n * sizeof *copy);
    SK_CHECK(m->ctx, copy != NULL, SK_ERR_NOMEM, "cannot allocate the differential ids");
    memcpy(copy, id, (size_t)m->n * sizeof *copy);
  }
  sk__free(m->ctx, m->dae_id);
  m->dae_id = copy;
  return SK_OK;
}

const int *sk_model_get_differential(const sk_model *m)
{
  return m ? m->dae_id : NULL;
}

sk_status sk_model_set_dae_consistent(sk_model *m, int suppress_alg)
{
  SK_CALL(m ? m->ctx : NULL, require_dae(m, __func__));
  m->dae_consistent = 1;
  m->dae_suppress_alg = suppress_alg != 0;
  return SK_OK;
}

int sk_model_get_dae_consistent(const sk_model *m, int *suppress_alg)
{
  if (suppress_alg) {
    *suppress_alg = m ? m->dae_suppress_alg : 0;
  }
  return m ? m->dae_consistent : 0;
}

sk_status sk_model_eval_residual(sk_model *m, double t, const double *y, const double *yp,
                                 double *r)
{
  SK_CHECK(m->ctx, m->residual != NULL, SK_ERR_STATE, "model '%s' has no DAE residual", m->name);
  return sk__model_checked(m, "residual", m->residual(t, y, yp, r, m->user_data), t, r, m->n, 1);
}

/* The residual as a function of y alone for the colored differences: y' moves with y,
 * y'(y~) = yp + cj (y~ - y), so that the differences give dF/dy + cj dF/dy'. */
typedef struct {
  sk_model *m;
  const double *y, *yp;
  double cj;
  double *ypm; /* work: the moved y' */
} dae_fd;

static sk_status dae_fd_residual(void *data, double t, const double *ym, double *r)
{
  dae_fd *d = data;
  for (int64_t i = 0; i < d->m->n; i++) {
    d->ypm[i] = d->yp[i] + d->cj * (ym[i] - d->y[i]);
  }
  return sk_model_eval_residual(d->m, t, ym, d->ypm, r);
}

static sk_status eval_fd_dae_jac(sk_model *m, double t, double cj, const double *y,
                                 const double *yp, const double *r, double *values)
{
  SK_CALL_STOP(m->ctx, sk__model_fd_engine(m));
  const size_t n = (size_t)m->n;
  double *work = sk__malloc(m->ctx, 3 * n * sizeof *work);
  SK_CHECK(m->ctx, work != NULL, SK_ERR_NOMEM, "cannot allocate the FD DAE Jacobian");
  /* increments on the scale of y and of y'/cj (IDA's rule, its h y' term): y'_j moves
     by cj inc_j, which must not drown in |y'_j| (a y_j near zero with a tiny atol
     while y'_j is not) */
  double *atolv = work + 2 * n;
  for (size_t i = 0; i < n; i++) {
    const double a = m->fd_atolv ? m->fd_atolv[i] : m->fd_atol;
    atolv[i] = cj > 0 ? fmax(a, fabs(yp[i]) / cj) : a;
  }
  sk_status st = SK_OK;
  if (!r) {
    m->fd_rhs_evals++;
    st = sk_model_eval_residual(m, t, y, yp, work + n);
    r = work + n;
  }
  dae_fd d = {m, y, yp, cj, work};
  if (st == SK_OK) {
    st = sk__fd_jac_eval(m->fd, dae_fd_residual, &d, t, y, r, m->fd_rtol, m->fd_atol, atolv,
                         values, &m->fd_rhs_evals);
  }
  sk__free(m->ctx, work);
  SK_CALL(m->ctx, st);
  return sk__model_checked(m, "finite-difference DAE Jacobian", 0, t, values, m->colptr[m->n], 0);
}

sk_status sk__model_eval_fd_dae_jac(sk_model *m, double t, double cj, const double *y,
                                    const double *yp, double *values)
{
  return eval_fd_dae_jac(m, t, cj, y, yp, NULL, values);
}

sk_status sk_model_eval_dae_jac(sk_model *m, double t, double cj, const double *y,
                                const double *yp, const double *r, double *values)
{
  SK_CALL_STOP(m->ctx, sk__model_pattern(m));
  SK_CHECK(m->ctx, m->colptr != NULL, SK_ERR_STATE, "model '%s' has no Jacobian pattern",
           m->name);
  if (!m->dae_jac && !m->dae_dense_jac) {
    return eval_fd_dae_jac(m, t, cj, y, yp, r, values); /* evaluates r itself when NULL */
  }
  /* a model's own callback is handed r = F(t, y, y') always (the contract lets the caller omit it) */
  double *own = NULL;
  if (!r) {
    own = sk__malloc(m->ctx, (size_t)m->n * sizeof *own);
    SK_CHECK(m->ctx, own != NULL, SK_ERR_NOMEM, "cannot allocate the residual for the Jacobian");
    const sk_status st = sk_model_eval_residual(m, t, y, yp, own);
    if (st != SK_OK) { /* an error, or a recoverable failure the caller retries */
      sk__free(m->ctx, own);
      SK_CALL(m->ctx, st);
      return st;
    }
    r = own;
  }
  const sk_status st = m->dae_jac
                           ? sk__model_checked(m, "DAE Jacobian",
                                               m->dae_jac(t, cj, y, yp, r, values, m->user_data),
                                               t, values, m->colptr[m->n], 0)
                           : sk__model_eval_dae_dense_jac(m, t, cj, y, yp, r, values);
  sk__free(m->ctx, own);
  return st;
}

sk_status sk_model_eval_dae_initial(sk_model *m, double t0, double *y0, double *yp0)
{
  if (m->dae_initial) {
    const int rc = m->dae_initial(t0, y0, yp0, m->user_data);
    SK_CALL(m->ctx, sk__model_checked(m, "initial values", rc, t0, y0, m->n, 1));
    return sk__model_checked(m, "initial derivatives", 0, t0, yp0, m->n, 1);
  }
  SK_CALL(m->ctx, sk_model_eval_initial(m, t0, y0));
  memset(yp0, 0, (size_t)m->n * sizeof *yp0);
  return SK_OK;
}

sk_status sk_model_set_residual_name(sk_model *m, sk_component_name_fn name)
{
  SK_CALL(m ? m->ctx : NULL, require_dae(m, __func__));
  m->residual_name = name;
  return SK_OK;
}

void sk_model_residual_name(const sk_model *m, int64_t i, char *buf, size_t len)
{
  if (m && m->residual_name) {
    m->residual_name(i, buf, len, m->user_data);
    return;
  }
  char comp[96];
  sk_model_component_name(m, i, comp, sizeof comp);
  snprintf(buf, len, "F[%lld] (row of %s)", (long long)i, comp);
}

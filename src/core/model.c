/* src/core/model.c: model lifecycle, setters, CSC pattern validation, checked callback evaluation */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/stop.h"
#include "core/model_impl.h"
#include "core/threads.h"

sk_status sk_model_create(sk_context *ctx, sk_model_kind kind, int64_t n, sk_model **model)
{
  SK_CHECK(ctx, model != NULL, SK_ERR_ARG, "sk_model_create: model is NULL");
  *model = NULL;
  SK_CHECK(ctx, n > 0, SK_ERR_ARG, "model size must be positive (got %lld)", (long long)n);
  SK_CHECK(ctx, kind == SK_MODEL_ODE || kind == SK_MODEL_DAE || kind == SK_MODEL_ALGEBRAIC,
           SK_ERR_ARG, "unknown model kind %d", (int)kind);
  sk_model *m = sk__calloc(ctx, 1, sizeof *m);
  SK_CHECK(ctx, m != NULL, SK_ERR_NOMEM, "cannot allocate a model");
  m->ctx = ctx;
  m->kind = kind;
  m->n = n;
  m->fault_comp = -1;
  snprintf(m->name, sizeof m->name, "model");
  *model = m;
  return SK_OK;
}

void sk_model_destroy(sk_model **model)
{
  if (!model || !*model) {
    return;
  }
  sk_model *m = *model;
  if (m->free_fn) {
    m->free_fn(m->user_data);
  }
  sk__fd_jac_destroy(&m->fd);
  sk__free(m->ctx, m->fd_atolv);
  sk__free(m->ctx, m->dae_id);
  sk__free(m->ctx, m->event_dir);
  sk__free(m->ctx, m->constraints);
  sk__model_mass_free(m);
  sk__free(m->ctx, m->params); /* the parameter table (model_params.c) */
  sk__free(m->ctx, m->dense_work);
  sk__free(m->ctx, m->colptr);
  sk__free(m->ctx, m->rowind);
  sk__free(m->ctx, m->pattern_arg);
  sk__free(m->ctx, m);
  *model = NULL;
}

sk_status sk_model_set_name(sk_model *m, const char *name)
{
  if (!m || !name) {
    return SK_ERR_ARG;
  }
  snprintf(m->name, sizeof m->name, "%s", name);
  return SK_OK;
}

sk_status sk_model_set_user_data(sk_model *m, void *user_data, sk_free_fn free_fn)
{
  if (!m) {
    return SK_ERR_ARG;
  }
  m->user_data = user_data;
  m->free_fn = free_fn;
  return SK_OK;
}

#define SK__MODEL_SETTER(fname, type, field) \
  sk_status fname(sk_model *m, type v)       \
  {                                          \
    if (!m) {                                \
      return SK_ERR_ARG;                     \
    }                                        \
    m->field = v;                            \
    return SK_OK;                            \
  }
SK__MODEL_SETTER(sk_model_set_rhs, sk_rhs_fn, rhs)
SK__MODEL_SETTER(sk_model_set_initial, sk_initial_fn, initial)
SK__MODEL_SETTER(sk_model_set_exact, sk_exact_fn, exact)
SK__MODEL_SETTER(sk_model_set_component_name, sk_component_name_fn, component_name)
SK__MODEL_SETTER(sk_model_set_jtimes, sk_jtimes_fn, jtimes)
SK__MODEL_SETTER(sk_model_set_projection, sk_projection_fn, projection)

int sk_model_has_projection(const sk_model *m)
{
  return m && m->projection;
}

sk_status sk_model_eval_projection(sk_model *m, double t, const double *y, double *corr)
{
  SK_CHECK(m->ctx, m->projection != NULL, SK_ERR_STATE, "model '%s' has no projection", m->name);
  return sk__model_checked(m, "projection", m->projection(t, y, corr, m->user_data), t, corr,
                           m->n, 1);
}
#undef SK__MODEL_SETTER

sk_status sk_model_set_jac_values(sk_model *m, sk_jac_values_fn jac)
{
  if (!m) {
    return SK_ERR_ARG;
  }
  SK_CHECK(m->ctx, jac == NULL || m->dense_jac == NULL, SK_ERR_ARG,
           "sk_model_set_jac_values: model '%s' already has a dense Jacobian "
           "(sk_model_set_dense_jacobian): give one or the other",
           m->name);
  m->jac = jac;
  return SK_OK;
}

sk_status sk_model_set_preconditioner(sk_model *m, sk_prec_setup_fn setup, sk_prec_solve_fn solve)
{
  if (!m) {
    return SK_ERR_ARG;
  }
  SK_CHECK(m->ctx, solve != NULL || setup == NULL, SK_ERR_ARG,
           "a preconditioner needs a solve function");
  m->prec_setup = setup;
  m->prec_solve = solve;
  return SK_OK;
}

sk_status sk_model_set_jac_pattern(sk_model *m, const int64_t *colptr, const int64_t *rowind)
{
  if (!m) {
    return SK_ERR_ARG;
  }
  sk_context *ctx = m->ctx;
  SK_CHECK(ctx, colptr && rowind, SK_ERR_ARG, "Jacobian pattern arrays are NULL");
  const int64_t n = m->n;
  SK_CHECK(ctx, colptr[0] == 0, SK_ERR_INPUT, "Jacobian pattern: colptr[0] = %lld, expected 0",
           (long long)colptr[0]);
  for (int64_t j = 0; j < n; j++) {
    SK_CHECK(ctx, colptr[j + 1] >= colptr[j], SK_ERR_INPUT,
             "Jacobian pattern: colptr decreases at column %lld", (long long)j);
    for (int64_t p = colptr[j]; p < colptr[j + 1]; p++) {
      SK_CHECK(ctx, rowind[p] >= 0 && rowind[p] < n, SK_ERR_INPUT,
               "Jacobian pattern: row %lld out of range [0, %lld) in column %lld",
               (long long)rowind[p], (long long)n, (long long)j);
      SK_CHECK(ctx, p == colptr[j] || rowind[p] > rowind[p - 1], SK_ERR_INPUT,
               "Jacobian pattern: rows not strictly increasing in column %lld (row %lld)",
               (long long)j, (long long)rowind[p]);
    }
  }
  const int64_t nnz = colptr[n];
  int64_t *cp = sk__malloc(ctx, (size_t)(n + 1) * sizeof *cp);
  int64_t *ri = sk__malloc(ctx, (size_t)(nnz > 0 ? nnz : 1) * sizeof *ri);
  if (!cp || !ri) {
    sk__free(ctx, cp);
    sk__free(ctx, ri);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the Jacobian pattern (nnz %lld)",
                    (long long)nnz);
  }
  memcpy(cp, colptr, (size_t)(n + 1) * sizeof *cp);
  memcpy(ri, rowind, (size_t)nnz * sizeof *ri);
  sk__fd_jac_destroy(&m->fd); /* its coloring belongs to the old pattern */
  sk__free(ctx, m->colptr);
  sk__free(ctx, m->rowind);
  sk__free(ctx, m->pattern_arg);
  m->pattern_fn = NULL;
  m->pattern_arg = NULL;
  m->colptr = cp;
  m->rowind = ri;
  m->dense_pattern = 0; /* the model's own pattern, kept when a dense Jacobian is removed */
  return SK_OK;
}

sk_status sk__model_set_lazy_pattern(sk_model *m, sk__model_pattern_fn fn, const void *arg,
                                     size_t arg_size)
{
  void *copy = sk__malloc(m->ctx, arg_size ? arg_size : 1);
  SK_CHECK(m->ctx, copy != NULL, SK_ERR_NOMEM, "cannot allocate the Jacobian pattern's recipe");
  memcpy(copy, arg, arg_size);
  sk__fd_jac_destroy(&m->fd);
  sk__free(m->ctx, m->colptr);
  sk__free(m->ctx, m->rowind);
  sk__free(m->ctx, m->pattern_arg);
  m->colptr = NULL;
  m->rowind = NULL;
  m->pattern_fn = fn;
  m->pattern_arg = copy;
  m->dense_pattern = 0;
  return SK_OK;
}

sk_status sk__model_pattern(const sk_model *m)
{
  if (!m || m->colptr || !m->pattern_fn) {
    return SK_OK;
  }
  /* the pattern is a cache of the recipe: building it does not change what the model
     computes (as the coloring's cache below) */
  sk_model *mm = (sk_model *)m;
  int64_t *cp = NULL, *ri = NULL;
  const sk_status st = m->pattern_fn(m->ctx, m->pattern_arg, &cp, &ri);
  if (st != SK_OK) { /* also SK_INTERRUPTED (a stop while it was built), which is positive */
    sk__error_push_frame(m->ctx, __func__, __FILE__, __LINE__);
    return st;
  }
  mm->colptr = cp;
  mm->rowind = ri;
  return SK_OK;
}

sk_status sk_model_set_second_order(sk_model *m, int64_t nq)
{
  if (!m) {
    return SK_ERR_ARG;
  }
  SK_CHECK(m->ctx, m->kind == SK_MODEL_ODE, SK_ERR_ARG,
           "model '%s': only an ODE model can be marked second order", m->name);
  SK_CHECK(m->ctx, nq == 0 || (nq > 0 && 2 * nq == m->n), SK_ERR_ARG,
           "model '%s': a second-order model y = (q, v) needs n = 2 nq (n = %lld, nq = %lld)",
           m->name, (long long)m->n, (long long)nq);
  m->nq = nq;
  return SK_OK;
}

int64_t sk_model_get_n(const sk_model *m)
{
  return m ? m->n : 0;
}
int64_t sk_model_get_second_order(const sk_model *m)
{
  return m ? m->nq : 0;
}
sk_model_kind sk_model_get_kind(const sk_model *m)
{
  return m ? m->kind : SK_MODEL_ODE;
}
const char *sk_model_get_name(const sk_model *m)
{
  return m ? m->name : NULL;
}
void *sk_model_get_user_data(const sk_model *m)
{
  return m ? m->user_data : NULL;
}
int sk_model_has_exact(const sk_model *m)
{
  return m && m->exact;
}
int sk_model_has_jacobian(const sk_model *m)
{
  return m && (m->colptr || m->pattern_fn);
}
int sk_model_has_jacobian_values(const sk_model *m)
{
  return m && (m->jac || m->dense_jac) && (m->colptr || m->pattern_fn);
}
int64_t sk_model_get_fd_rhs_evals(const sk_model *m)
{
  return m ? m->fd_rhs_evals : 0;
}
int64_t sk_model_get_rhs_evals(const sk_model *m)
{
  return m ? m->rhs_calls : 0;
}

/* The FD engine of the current pattern, built on first use. */
sk_status sk__model_fd_engine(sk_model *m)
{
  if (!m->fd) {
    SK_CALL_STOP(m->ctx, sk__model_pattern(m));
    SK_CALL_STOP(m->ctx, sk__fd_jac_create(m->ctx, m->n, m->colptr, m->rowind, &m->fd));
  }
  return SK_OK;
}

int64_t sk_model_get_jac_colors(const sk_model *m)
{
  if (!m || !sk_model_has_jacobian(m)) {
    return 0;
  }
  /* the coloring is a cache of the (const) pattern: building it does not
   * change what the model computes */
  sk_model *mm = (sk_model *)m;
  return sk__model_fd_engine(mm) == SK_OK ? sk__fd_jac_colors(mm->fd) : -1;
}

sk_status sk__model_set_fd_weights(sk_model *m, double rtol, double atol, const double *atolv)
{
  double *v = NULL;
  if (atolv && rtol > 0) {
    v = sk__malloc(m->ctx, (size_t)m->n * sizeof *v);
    SK_CHECK(m->ctx, v != NULL, SK_ERR_NOMEM, "cannot allocate the FD Jacobian weights");
    memcpy(v, atolv, (size_t)m->n * sizeof *v);
  }
  sk__free(m->ctx, m->fd_atolv);
  m->fd_atolv = v;
  m->fd_rtol = rtol > 0 ? rtol : 0.0;
  m->fd_atol = atol;
  return SK_OK;
}
int sk_model_has_preconditioner(const sk_model *m)
{
  return m && (m->prec_solve || m->dist.prec_solve);
}

void sk__model_set_distribution(sk_model *m, const sk__model_distribution *dist)
{
  m->dist = *dist;
}

const sk__model_distribution *sk__model_get_distribution(const sk_model *m)
{
  return m && m->dist.rhs ? &m->dist : NULL;
}

int64_t sk__model_global_index(const sk_model *m, int64_t i)
{
  return m->dist.rhs ? m->dist.global_index(m->dist.data, i) : i;
}
int sk_model_has_jtimes(const sk_model *m)
{
  return m && m->jtimes;
}
sk_context *sk_model_get_context(const sk_model *m)
{
  return m ? m->ctx : NULL;
}

void sk_model_get_jac_pattern(const sk_model *m, const int64_t **colptr, const int64_t **rowind,
                              int64_t *nnz)
{
  if (sk__model_pattern(m) != SK_OK) { /* out of memory: recorded; no pattern then */
    *colptr = *rowind = NULL;
    *nnz = 0;
    return;
  }
  *colptr = m ? m->colptr : NULL;
  *rowind = m ? m->rowind : NULL;
  *nnz = (m && m->colptr) ? m->colptr[m->n] : 0;
}

void sk_model_component_name(const sk_model *m, int64_t i, char *buf, size_t len)
{
  if (m && m->component_name) {
    m->component_name(i, buf, len, m->user_data);
  } else {
    snprintf(buf, len, "y[%lld]", (long long)i);
  }
}

/* Index of the first non-finite entry of v[0..n), or -1. */
static int64_t first_nonfinite(const double *v, int64_t n)
{
  for (int64_t i = 0; i < n; i++) {
    if (!isfinite(v[i])) {
      return i;
    }
  }
  return -1;
}

/* Map a callback's three-way return value and check its output. */
sk_status sk__model_checked(sk_model *m, const char *what, int rc, double t, const double *out,
                            int64_t len, int values_are_components)
{
  if (rc > 0) {
    /* recorded so that a later failure can name its cause */
    return SK_ERROR(m->ctx, SK_RECOVERABLE,
                    "%s of model '%s' reported a recoverable failure (returned %d) at t=%.6e",
                    what, m->name, rc, t);
  }
  if (rc < 0) {
    return SK_ERROR(m->ctx, SK_ERR_CALLBACK, "%s of model '%s' failed (returned %d) at t=%.6e",
                    what, m->name, rc, t);
  }
  const int64_t bad = first_nonfinite(out, len);
  if (bad >= 0) {
    char name[96];
    if (values_are_components) {
      sk_model_component_name(m, bad, name, sizeof name);
    } else {
      snprintf(name, sizeof name, "entry %lld", (long long)bad);
    }
    return SK_ERROR(m->ctx, SK_ERR_NONFINITE,
                    "%s of model '%s' returned %g at t=%.6e in component %lld (%s)", what,
                    m->name, out[bad], t, (long long)bad, name);
  }
  return SK_OK;
}

sk_status sk_model_eval_rhs(sk_model *m, double t, const double *y, double *ydot)
{
  if (m->dist.rhs) { /* collective, checked and agreed by the distribution */
    m->rhs_calls++;
    return m->dist.rhs(m->dist.data, t, y, ydot);
  }
  SK_CHECK(m->ctx, m->rhs != NULL, SK_ERR_STATE, "model '%s' has no right-hand side", m->name);
  m->rhs_calls++;
  const int rc = m->rhs(t, y, ydot, m->user_data);
  if (rc == 0 && m->fault_comp >= 0 && t >= m->fault_t) {
    ydot[m->fault_comp] = NAN;
  }
  return sk__model_checked(m, "right-hand side", rc, t, ydot, m->n, 1);
}

sk_status sk_model_inject_nan(sk_model *m, int64_t comp, double t_from)
{
  if (!m) {
    return SK_ERR_ARG;
  }
  SK_CHECK(m->ctx, !isnan(t_from), SK_ERR_ARG, "fault injection: t is NaN");
  SK_CHECK(m->ctx, comp >= 0 && comp < m->n, SK_ERR_ARG,
           "fault injection: component %lld outside [0, %lld)", (long long)comp, (long long)m->n);
  m->fault_comp = comp;
  m->fault_t = t_from;
  return SK_OK;
}

static sk_status fd_rhs(void *data, double t, const double *y, double *f)
{
  return sk_model_eval_rhs(data, t, y, f);
}

/* The RHS of a thread-safe model for parallel colour groups: the checks of
 * sk_model_eval_rhs without touching the context (no error record); a
 * failure is then repeated serially through fd_rhs, which records it. */
static sk_status fd_rhs_quiet(void *data, double t, const double *y, double *f)
{
  sk_model *m = data;
  SK__OMP(atomic update)
  m->rhs_calls++;
  const int rc = m->rhs(t, y, f, m->user_data);
  if (rc != 0) {
    return rc > 0 ? SK_RECOVERABLE : SK_ERR_CALLBACK;
  }
  if (m->fault_comp >= 0 && t >= m->fault_t) {
    return SK_ERR_NONFINITE;
  }
  return first_nonfinite(f, m->n) < 0 ? SK_OK : SK_ERR_NONFINITE;
}

/* Colored forward differences (core/fd_jacobian.h); f(t, y) is computed
 * when the caller has none. */
static sk_status eval_fd_jac(sk_model *m, double t, const double *y, const double *fy,
                             double *values)
{
  SK_CALL_STOP(m->ctx, sk__model_fd_engine(m));
  double *f0 = NULL;
  if (!fy) {
    f0 = sk__malloc(m->ctx, (size_t)m->n * sizeof *f0);
    SK_CHECK(m->ctx, f0 != NULL, SK_ERR_NOMEM, "cannot allocate f(t, y) for the FD Jacobian");
    m->fd_rhs_evals++;
    const sk_status st = sk_model_eval_rhs(m, t, y, f0);
    if (st != SK_OK) {
      sk__free(m->ctx, f0);
      SK_CALL(m->ctx, st);
      return st;
    }
    fy = f0;
  }
  const sk_status st =
      m->thread_safe && m->rhs
          ? sk__fd_jac_eval_concurrent(m->fd, fd_rhs_quiet, fd_rhs, m, t, y, fy, m->fd_rtol,
                                       m->fd_atol, m->fd_atolv, values, &m->fd_rhs_evals)
          : sk__fd_jac_eval(m->fd, fd_rhs, m, t, y, fy, m->fd_rtol, m->fd_atol, m->fd_atolv,
                            values, &m->fd_rhs_evals);
  sk__free(m->ctx, f0);
  SK_CALL(m->ctx, st);
  return sk__model_checked(m, "finite-difference Jacobian", 0, t, values, m->colptr[m->n], 0);
}

/* ---- the dense Jacobian callback (set in model_dense_jac.c) ---- */

/* Where the callback writes: the values themselves for the full pattern
 * (its order is the column-major array's), else the n x n work array. */
static sk_status target(sk_model *m, double *values, double **J)
{
  const size_t nn = (size_t)(m->n * m->n);
  if (m->colptr[m->n] == m->n * m->n) { /* full: rows 0..n-1 in every column */
    *J = values;
  } else {
    if (!m->dense_work) {
      m->dense_work = sk__malloc(m->ctx, nn * sizeof *m->dense_work);
      SK_CHECK(m->ctx, m->dense_work != NULL, SK_ERR_NOMEM,
               "cannot allocate the %lld x %lld dense Jacobian", (long long)m->n,
               (long long)m->n);
    }
    *J = m->dense_work;
  }
  memset(*J, 0, nn * sizeof **J);
  return SK_OK;
}

/* Gather J into the pattern's order; a nonzero outside the pattern is an error. */
static sk_status gather(sk_model *m, const double *J, double *values, double t)
{
  if (J == values) {
    return SK_OK;
  }
  const int64_t n = m->n;
  for (int64_t j = 0; j < n; j++) {
    const double *col = J + j * n;
    int64_t p = m->colptr[j];
    for (int64_t i = 0; i < n; i++) {
      if (p < m->colptr[j + 1] && m->rowind[p] == i) {
        values[p++] = col[i];
      } else if (col[i] != 0.0) {
        char ri[64], cj[64];
        sk_model_component_name(m, i, ri, sizeof ri);
        sk_model_component_name(m, j, cj, sizeof cj);
        return SK_ERROR(m->ctx, SK_ERR_INPUT,
                        "dense Jacobian of model '%s' at t=%.6e: entry (row %lld %s, column "
                        "%lld %s) = %g lies outside the Jacobian pattern: widen the pattern "
                        "(sk_model_set_jac_pattern) or leave it unset (full)",
                        m->name, t, (long long)i, ri, (long long)j, cj, col[i]);
      }
    }
  }
  return SK_OK;
}

sk_status sk__model_eval_dense_jac(sk_model *m, double t, const double *y, const double *fy,
                                   double *values)
{
  double *J = NULL;
  SK_CALL(m->ctx, target(m, values, &J));
  SK_CALL(m->ctx, sk__model_checked(m, "dense Jacobian", m->dense_jac(t, y, fy, J, m->user_data),
                                    t, J, m->n * m->n, 0));
  return gather(m, J, values, t);
}

sk_status sk__model_eval_dae_dense_jac(sk_model *m, double t, double cj, const double *y,
                                       const double *yp, const double *r, double *values)
{
  double *J = NULL;
  SK_CALL(m->ctx, target(m, values, &J));
  SK_CALL(m->ctx, sk__model_checked(m, "dense DAE Jacobian",
                                    m->dae_dense_jac(t, cj, y, yp, r, J, m->user_data), t, J,
                                    m->n * m->n, 0));
  return gather(m, J, values, t);
}

sk_status sk_model_eval_jac(sk_model *m, double t, const double *y, const double *fy,
                            double *values)
{
  SK_CALL_STOP(m->ctx, sk__model_pattern(m));
  SK_CHECK(m->ctx, m->colptr != NULL, SK_ERR_STATE, "model '%s' has no Jacobian pattern",
           m->name);
  if (!m->jac) {
    return m->dense_jac ? sk__model_eval_dense_jac(m, t, y, fy, values)
                        : eval_fd_jac(m, t, y, fy, values);
  }
  return sk__model_checked(m, "Jacobian", m->jac(t, y, fy, values, m->user_data), t, values,
                           m->colptr[m->n], 0);
}

sk_status sk_model_eval_exact(sk_model *m, double t, double *y)
{
  SK_CHECK(m->ctx, m->exact != NULL, SK_ERR_STATE, "model '%s' has no exact solution", m->name);
  return sk__model_checked(m, "exact solution", m->exact(t, y, m->user_data), t, y, m->n, 1);
}

sk_status sk_model_eval_initial(sk_model *m, double t0, double *y0)
{
  if (m->initial) {
    return sk__model_checked(m, "initial state", m->initial(t0, y0, m->user_data), t0, y0, m->n,
                             1);
  }
  if (m->exact) {
    return sk_model_eval_exact(m, t0, y0);
  }
  return SK_ERROR(m->ctx, SK_ERR_STATE,
                  "model '%s' has neither an initial state nor an exact solution", m->name);
}

sk_status sk_model_eval_prec_setup(sk_model *m, double t, const double *y, double gamma,
                                   int jac_current)
{
  if (m->dist.prec_solve) {
    return m->dist.prec_setup ? m->dist.prec_setup(m->dist.data, t, y, gamma, jac_current)
                              : SK_OK;
  }
  SK_CHECK(m->ctx, m->prec_solve != NULL, SK_ERR_STATE, "model '%s' has no preconditioner",
           m->name);
  if (!m->prec_setup) {
    return SK_OK;
  }
  return sk__model_checked(m, "preconditioner setup",
                           m->prec_setup(t, y, gamma, jac_current, m->user_data), t, NULL, 0, 0);
}

sk_status sk_model_eval_prec_solve(sk_model *m, double t, const double *y, const double *r,
                                   double *z, double gamma)
{
  if (m->dist.prec_solve) {
    return m->dist.prec_solve(m->dist.data, r, z);
  }
  SK_CHECK(m->ctx, m->prec_solve != NULL, SK_ERR_STATE, "model '%s' has no preconditioner",
           m->name);
  return sk__model_checked(m, "preconditioner solve",
                           m->prec_solve(t, y, r, z, gamma, m->user_data), t, z, m->n, 1);
}

sk_status sk_model_eval_jtimes(sk_model *m, double t, const double *y, const double *fy,
                               const double *v, double *jv)
{
  SK_CHECK(m->ctx, m->jtimes != NULL, SK_ERR_STATE, "model '%s' has no Jacobian-vector product",
           m->name);
  return sk__model_checked(m, "Jacobian-vector product", m->jtimes(t, y, fy, v, jv, m->user_data),
                           t, jv, m->n, 1);
}

sk_status sk_model_set_default_t_end(sk_model *m, double t_end)
{
  if (!m) {
    return SK_ERR_ARG;
  }
  SK_CHECK(m->ctx, isfinite(t_end) && t_end >= 0.0, SK_ERR_ARG,
           "default end time %g: must be finite and >= 0", t_end);
  m->default_t_end = t_end;
  return SK_OK;
}

double sk_model_get_default_t_end(const sk_model *m)
{
  return m ? m->default_t_end : 0.0;
}

sk_status sk_model_set_thread_safe(sk_model *m, int yes)
{
  if (!m) {
    return SK_ERR_ARG;
  }
  m->thread_safe = yes ? 1 : 0;
  return SK_OK;
}

int sk_model_get_thread_safe(const sk_model *m)
{
  return m ? m->thread_safe : 0;
}

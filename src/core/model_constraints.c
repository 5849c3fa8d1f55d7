/* src/core/model_constraints.c: per-component inequality constraints of a model's state (SUNDIALS' 0, +-1, +-2), set by API or solver.constraints */
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/model_impl.h"

/* 1 when c is one of SUNDIALS' constraint codes. */
static int valid_code(int64_t c)
{
  return c >= -2 && c <= 2;
}

sk_status sk_model_set_constraints(sk_model *m, const int *c)
{
  if (!m) {
    return SK_ERR_ARG;
  }
  int *copy = NULL;
  int any = 0;
  if (c) {
    for (int64_t i = 0; i < m->n; i++) {
      SK_CHECK(m->ctx, valid_code(c[i]), SK_ERR_INPUT,
               "sk_model_set_constraints: model '%s' component %lld: constraint %d, expected "
               "0 (none), 1 (>= 0), -1 (<= 0), 2 (> 0) or -2 (< 0)",
               m->name, (long long)i, c[i]);
      any |= c[i] != 0;
    }
  }
  if (any) { /* all zero is no constraint: engines then skip it */
    copy = sk__malloc(m->ctx, (size_t)m->n * sizeof *copy);
    SK_CHECK(m->ctx, copy != NULL, SK_ERR_NOMEM, "cannot allocate the constraints");
    memcpy(copy, c, (size_t)m->n * sizeof *copy);
  }
  sk__free(m->ctx, m->constraints);
  m->constraints = copy;
  return SK_OK;
}

const int *sk_model_get_constraints(const sk_model *m)
{
  return m ? m->constraints : NULL;
}

/* What code c asks of a component, for messages. */
static const char *meaning(int c)
{
  static const char *const m[] = {"< 0", "<= 0", "none", ">= 0", "> 0"};
  return m[c + 2];
}

sk_status sk__model_check_constraints(sk_model *m, const double *y)
{
  const int *c = m->constraints;
  for (int64_t i = 0; c && i < m->n; i++) {
    const int ok = c[i] == 0 || (c[i] == 1 && y[i] >= 0) || (c[i] == 2 && y[i] > 0) ||
                   (c[i] == -1 && y[i] <= 0) || (c[i] == -2 && y[i] < 0);
    if (!ok) {
      char name[64];
      sk_model_component_name(m, i, name, sizeof name);
      return SK_ERROR(m->ctx, SK_ERR_INPUT,
                      "model '%s': the initial state violates its constraints: component %lld "
                      "(%s) = %.17g, constraint %d (%s)",
                      m->name, (long long)i, name, y[i], c[i], meaning(c[i]));
    }
  }
  return SK_OK;
}

sk_status sk_model_constraints_from_options(sk_model *m, const sk_options *opts)
{
  if (!m || !opts) {
    return SK_ERR_ARG;
  }
  if (!sk_options_is_set(opts, "solver.constraints")) {
    return SK_OK;
  }
  const int64_t *v = NULL;
  size_t nv = 0;
  SK_CALL(m->ctx, sk_options_get_int_list(opts, "solver.constraints", &v, &nv));
  sk_option_origin o = {0};
  sk_options_get_origin(opts, "solver.constraints", &o);
  char where[320] = "";
  if (o.file) {
    snprintf(where, sizeof where, "%s:%d: ", o.file, o.line);
  }
  if (nv == 0) {
    return sk_model_set_constraints(m, NULL);
  }
  for (size_t k = 0; k < nv; k++) {
    SK_CHECK(m->ctx, valid_code(v[k]), SK_ERR_INPUT,
             "%ssolver.constraints[%zu] = %lld: expected 0 (none), 1 (>= 0), -1 (<= 0), "
             "2 (> 0) or -2 (< 0)",
             where, k, (long long)v[k]);
  }
  SK_CHECK(m->ctx, nv == 1 || (int64_t)nv == m->n, SK_ERR_INPUT,
           "%ssolver.constraints has %zu values; model '%s' has %lld components (give one "
           "value for all components or one per component)",
           where, nv, m->name, (long long)m->n);
  int *c = sk__malloc(m->ctx, (size_t)m->n * sizeof *c);
  SK_CHECK(m->ctx, c != NULL, SK_ERR_NOMEM, "cannot allocate the constraints");
  for (int64_t i = 0; i < m->n; i++) {
    c[i] = (int)v[nv == 1 ? 0 : i];
  }
  const sk_status rc = sk_model_set_constraints(m, c);
  sk__free(m->ctx, c);
  return rc;
}

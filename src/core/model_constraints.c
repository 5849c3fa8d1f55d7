/* src/core/model_constraints.c: per-component inequality constraints of a model's state (SUNDIALS' 0, +-1, +-2) (solver.constraints: steppers/stepper_options.c) */
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

/* src/core/model_params.c: a model's parameters addressable by name, the changed hook and the analytic df/dp */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/model_impl.h"

static int name_ok(const char *name)
{
  const size_t len = strlen(name);
  if (len == 0 || len > 63) {
    return 0;
  }
  for (size_t i = 0; i < len; i++) {
    const char c = name[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
          strchr("_.[]-", c))) {
      return 0;
    }
  }
  return 1;
}

sk_status sk_model_add_param(sk_model *m, const char *name, double *value)
{
  if (!m) {
    return SK_ERR_ARG;
  }
  SK_CHECK(m->ctx, name && value, SK_ERR_ARG, "sk_model_add_param: NULL argument");
  SK_CHECK(m->ctx, name_ok(name), SK_ERR_ARG,
           "sk_model_add_param: '%.80s' is not a parameter name (1 to 63 of letters, digits and "
           "_.[]-)",
           name);
  SK_CHECK(m->ctx, sk_model_find_param(m, name) < 0, SK_ERR_ARG,
           "sk_model_add_param: model '%s' already has a parameter '%s'", m->name, name);
  if (m->nparams == m->cap_params) {
    const int cap = m->cap_params ? 2 * m->cap_params : 8;
    sk__model_param *p =
        sk__realloc(m->ctx, m->params, (size_t)m->nparams * sizeof *p, (size_t)cap * sizeof *p);
    SK_CHECK(m->ctx, p != NULL, SK_ERR_NOMEM, "cannot grow the parameter table");
    m->params = p;
    m->cap_params = cap;
  }
  sk__model_param *p = &m->params[m->nparams++];
  snprintf(p->name, sizeof p->name, "%s", name);
  p->value = value;
  return SK_OK;
}

sk_status sk_model_set_param_changed(sk_model *m, sk_param_changed_fn fn)
{
  if (!m) {
    return SK_ERR_ARG;
  }
  m->param_changed = fn;
  return SK_OK;
}

sk_status sk_model_set_rhs_param(sk_model *m, sk_rhs_param_fn fn)
{
  if (!m) {
    return SK_ERR_ARG;
  }
  SK_CHECK(m->ctx, m->kind == SK_MODEL_ODE, SK_ERR_ARG,
           "sk_model_set_rhs_param: model '%s' is not an ODE model", m->name);
  m->rhs_param = fn;
  return SK_OK;
}

int sk_model_has_rhs_param(const sk_model *m)
{
  return m && m->rhs_param != NULL;
}

int sk_model_get_nparams(const sk_model *m)
{
  return m ? m->nparams : 0;
}

const char *sk_model_get_param_name(const sk_model *m, int k)
{
  return m && k >= 0 && k < m->nparams ? m->params[k].name : NULL;
}

int sk_model_find_param(const sk_model *m, const char *name)
{
  for (int k = 0; m && name && k < m->nparams; k++) {
    if (!strcmp(m->params[k].name, name)) {
      return k;
    }
  }
  return -1;
}

double sk_model_get_param(const sk_model *m, int k)
{
  return m && k >= 0 && k < m->nparams ? *m->params[k].value : 0.0;
}

sk_status sk_model_set_param(sk_model *m, int k, double v)
{
  if (!m) {
    return SK_ERR_ARG;
  }
  SK_CHECK(m->ctx, k >= 0 && k < m->nparams, SK_ERR_ARG,
           "sk_model_set_param: model '%s' has no parameter %d", m->name, k);
  SK_CHECK(m->ctx, isfinite(v), SK_ERR_ARG, "sk_model_set_param: %s = %g is not finite",
           m->params[k].name, v);
  if (*m->params[k].value == v) {
    return SK_OK;
  }
  *m->params[k].value = v;
  if (m->param_changed) {
    const int rc = m->param_changed(k, m->user_data);
    SK_CHECK(m->ctx, rc >= 0, SK_ERR_CALLBACK,
             "model '%s': recomputing after parameter %s = %.17g changed failed (code %d)",
             m->name, m->params[k].name, v, rc);
  }
  return SK_OK;
}

void sk_model_param_names(const sk_model *m, char *buf, size_t len)
{
  if (!buf || len == 0) {
    return;
  }
  buf[0] = '\0';
  size_t used = 0;
  for (int k = 0; m && k < m->nparams && used + 1 < len; k++) {
    const int w = snprintf(buf + used, len - used, "%s%s", k ? ", " : "", m->params[k].name);
    used += w > 0 ? (size_t)w : 0;
  }
  if (!m || m->nparams == 0) {
    snprintf(buf, len, "none");
  }
}

sk_status sk_model_eval_rhs_param(sk_model *m, double t, const double *y, const double *fy, int k,
                                  double *dfdp)
{
  if (!m) {
    return SK_ERR_ARG;
  }
  SK_CHECK(m->ctx, m->rhs_param != NULL, SK_ERR_STATE, "model '%s' has no df/dp callback",
           m->name);
  SK_CHECK(m->ctx, k >= 0 && k < m->nparams, SK_ERR_ARG, "model '%s' has no parameter %d",
           m->name, k);
  memset(dfdp, 0, (size_t)m->n * sizeof *dfdp);
  const int rc = m->rhs_param(t, y, fy, k, dfdp, m->user_data);
  return sk__model_checked(m, "df/dp", rc, t, dfdp, m->n, 1);
}

sk_status sk_model_set_sens_initial(sk_model *m, sk_sens_initial_fn fn)
{
  if (!m) {
    return SK_ERR_ARG;
  }
  m->sens_initial = fn;
  return SK_OK;
}

int sk_model_has_sens_initial(const sk_model *m)
{
  return m && m->sens_initial != NULL;
}

sk_status sk_model_eval_sens_initial(sk_model *m, double t0, int k, double *s, double *sp)
{
  if (!m) {
    return SK_ERR_ARG;
  }
  SK_CHECK(m->ctx, m->sens_initial != NULL, SK_ERR_STATE,
           "model '%s' gives no start sensitivities", m->name);
  SK_CHECK(m->ctx, k >= 0 && k < m->nparams, SK_ERR_ARG, "model '%s' has no parameter %d",
           m->name, k);
  memset(s, 0, (size_t)m->n * sizeof *s);
  if (sp) {
    memset(sp, 0, (size_t)m->n * sizeof *sp);
  }
  const int rc = m->sens_initial(t0, k, s, sp, m->user_data);
  SK_CALL(m->ctx, sk__model_checked(m, "start sensitivities", rc, t0, s, m->n, 1));
  return sp ? sk__model_checked(m, "start sensitivity derivatives", 0, t0, sp, m->n, 1) : SK_OK;
}

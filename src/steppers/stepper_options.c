/* src/steppers/stepper_options.c: the shared solver.* and the linsol.* keys applied to a stepper (sk_stepper_set_from_options, which then hands opts to the type's own), solver.constraints to a model and solver.plugin to the plugin loader */
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "linsol/linsol_keys.h"
#include "steppers/atol_fields.h"
#include "steppers/stepper_impl.h"
#include "steppers/stepper_keys.h"
#include "stiffkit/plugin.h"

/* "file:line: " of key k when a config set it, else "" */
static void key_where(const sk_options *opts, int k, char *where, size_t len)
{
  sk_option_origin o = {0};
  where[0] = '\0';
  sk_options_get_origin(opts, sk__stepper_key(k), &o);
  if (o.file) {
    snprintf(where, len, "%s:%d: ", o.file, o.line);
  }
}

/* 1 when c is one of SUNDIALS' constraint codes */
static int valid_code(int64_t c)
{
  return c >= -2 && c <= 2;
}

sk_status sk_model_constraints_from_options(sk_model *m, const sk_options *opts)
{
  if (!m || !opts) {
    return SK_ERR_ARG;
  }
  sk_context *ctx = sk_model_get_context(m);
  if (!sk__stepper_keys_registered(opts)) { /* a database without the solver.* table */
    return SK_OK;
  }
  sk__stepper_settings st;
  uint64_t given = 0;
  SK_CALL(ctx, sk__stepper_settings_read(opts, &st, &given));
  if (!SK__STEPPER_GIVEN(given, constraints)) {
    return SK_OK;
  }
  const int64_t *v = st.constraints.v;
  const size_t nv = st.constraints.n;
  const int64_t n = sk_model_get_n(m);
  char where[320];
  key_where(opts, SK__STEPPER_KEY_constraints, where, sizeof where);
  if (nv == 0) {
    return sk_model_set_constraints(m, NULL);
  }
  for (size_t k = 0; k < nv; k++) {
    SK_CHECK(ctx, valid_code(v[k]), SK_ERR_INPUT,
             "%ssolver.constraints[%zu] = %lld: expected 0 (none), 1 (>= 0), -1 (<= 0), "
             "2 (> 0) or -2 (< 0)",
             where, k, (long long)v[k]);
  }
  SK_CHECK(ctx, nv == 1 || (int64_t)nv == n, SK_ERR_INPUT,
           "%ssolver.constraints has %zu values; model '%s' has %lld components (give one "
           "value for all components or one per component)",
           where, nv, sk_model_get_name(m), (long long)n);
  int *c = sk__malloc(ctx, (size_t)n * sizeof *c);
  SK_CHECK(ctx, c != NULL, SK_ERR_NOMEM, "cannot allocate the constraints");
  for (int64_t i = 0; i < n; i++) {
    c[i] = (int)v[nv == 1 ? 0 : i];
  }
  const sk_status rc = sk_model_set_constraints(m, c);
  sk__free(ctx, c);
  return rc;
}

/* solver.atol_list: one absolute tolerance per component */
static sk_status atol_list_apply(sk_stepper *s, const sk_options *opts, const sk__real_list *l)
{
  if (l->n == 0) {
    return sk_stepper_set_atol_vector(s, NULL);
  }
  const int64_t n = sk_model_get_n(s->model);
  char where[320];
  key_where(opts, SK__STEPPER_KEY_atol_list, where, sizeof where);
  SK_CHECK(s->ctx, (int64_t)l->n == n, SK_ERR_INPUT,
           "%ssolver.atol_list has %zu values; model '%s' has %lld components (give one "
           "absolute tolerance per component, or use the scalar solver.atol)",
           where, l->n, sk_model_get_name(s->model), (long long)n);
  return sk_stepper_set_atol_vector(s, l->v);
}

/* solver.atol_field: tolerances per named field over what the stepper holds */
static sk_status atol_field_apply(sk_stepper *s, const sk_options *opts, const char *spec)
{
  sk_context *ctx = s->ctx;
  char where[512];
  key_where(opts, SK__STEPPER_KEY_atol_field, where, sizeof where);
  const int64_t n = sk_model_get_n(s->model);
  double *v = sk__malloc(ctx, (size_t)n * sizeof *v);
  SK_CHECK(ctx, v != NULL, SK_ERR_NOMEM, "cannot allocate the tolerance vector");
  for (int64_t k = 0; k < n; k++) {
    v[k] = s->atol_vec ? s->atol_vec[k] : s->atol;
  }
  sk_status st = sk__atol_fields_fill(ctx, s->model, spec, where, v);
  if (st == SK_OK) {
    st = sk_stepper_set_atol_vector(s, v);
  }
  sk__free(ctx, v);
  return st;
}

/* the per-component keys given: solver.atol_list, solver.constraints, solver.atol_field */
static sk_status apply_state_keys(sk_stepper *s, const sk_options *opts,
                                  const sk__stepper_settings *st, uint64_t given)
{
  if (SK__STEPPER_GIVEN(given, atol_list)) {
    SK_CALL(s->ctx, atol_list_apply(s, opts, &st->atol_list));
  }
  SK_CALL(s->ctx, sk_model_constraints_from_options(s->model, opts));
  if (SK__STEPPER_GIVEN(given, atol_field)) {
    SK_CALL(s->ctx, atol_field_apply(s, opts, st->atol_field));
  }
  return SK_OK;
}

/* the enum value of a choice key, by its choice text */
static int choice3(const char *v, const char *on, int on_val, const char *off, int off_val,
                   int other)
{
  return !strcmp(v, on) ? on_val : !strcmp(v, off) ? off_val : other;
}

/* the linsol.* keys given (the mask of sk__linsol_settings_read) */
static sk_status apply_linsol_keys(sk_stepper *s, const sk_options *opts,
                                   const sk__linsol_settings *ls, uint64_t given)
{
  sk_context *ctx = s->ctx;
#define GIVEN(f) SK__LINSOL_GIVEN(given, f)
  if (GIVEN(type)) { /* a string: the types registered at run time count too */
    SK_CALL(ctx, sk__options_refused_at(ctx, opts, sk__linsol_key(SK__LINSOL_KEY_type),
                                        sk_stepper_set_linear_solver(s, ls->type)));
  }
  if (GIVEN(dq_jacobian)) {
    SK_CALL(ctx, sk_stepper_set_dq_jacobian(
                     s, choice3(ls->dq_jacobian, "sundials", SK_DQ_JACOBIAN_SUNDIALS, "stiffkit",
                                SK_DQ_JACOBIAN_STIFFKIT, SK_DQ_JACOBIAN_STIFFKIT)));
  }
  if (GIVEN(preconditioner)) { /* a string: the types registered at run time count too */
    SK_CALL(ctx, sk__options_refused_at(ctx, opts, sk__linsol_key(SK__LINSOL_KEY_preconditioner),
                                        sk_stepper_set_preconditioner(s, ls->preconditioner)));
  }
  if (GIVEN(ordering)) {
    SK_CALL(ctx, sk_stepper_set_ordering(s, ls->ordering));
  }
  if (GIVEN(mg_solver)) {
    s->mg.solver = !strcmp(ls->mg_solver, "smg") ? SK__MG_SMG : SK__MG_PFMG;
  }
  if (GIVEN(mg_cycles)) {
    s->mg.cycles = (int)ls->mg_cycles;
  }
  if (GIVEN(mg_relax)) {
    s->mg.relax = sk__mg_relax_from_name(ls->mg_relax);
  }
  if (GIVEN(mg_model_below)) {
    s->mg.model_below = ls->mg_model_below;
  }
  if (GIVEN(mg_model_max_lin)) {
    s->mg.model_max_lin = ls->mg_model_max_lin;
  }
  if (GIVEN(maxl) || GIVEN(eps_lin)) {
    SK_CALL(ctx, sk_stepper_set_krylov(s, GIVEN(maxl) ? (int)ls->maxl : s->maxl,
                                       GIVEN(eps_lin) ? ls->eps_lin : s->eps_lin));
  }
  if (GIVEN(amg_reuse_ratio)) {
    SK_CALL(ctx, sk_stepper_set_amg_reuse(s, ls->amg_reuse_ratio));
  }
#undef GIVEN
  return SK_OK;
}

/* Layering: a key applies only when the database sets it (a config file or
 * the command line); unset keys leave the stepper's own values. The keys and
 * their fields: steppers/stepper_keys.h (shared), linsol/linsol_keys.h; the
 * type's own keys are its set_from_options'. */
sk_status sk_stepper_set_from_options(sk_stepper *s, const sk_options *opts)
{
  sk_context *ctx = s->ctx;
  SK__NOT_AFTER_SETUP(s);
  sk__stepper_settings st;
  uint64_t given; /* a database without the solver.* table gives none of its keys */
  SK_CALL(ctx, sk__stepper_settings_given(opts, &st, &given));
#define GIVEN(f) SK__STEPPER_GIVEN(given, f)
  if (GIVEN(rtol) || GIVEN(atol)) {
    SK_CALL(ctx, sk_stepper_set_tolerances(s, GIVEN(rtol) ? st.rtol : s->rtol,
                                           GIVEN(atol) ? st.atol : s->atol));
  }
  SK_CALL(ctx, apply_state_keys(s, opts, &st, given));
  if (GIVEN(t0)) { /* the database holds finite reals only */
    s->t0 = st.t0;
    s->t = st.t0;
  }
  if (GIVEN(max_steps)) {
    SK_CALL(ctx, sk_stepper_set_max_steps(s, st.max_steps));
  }
  if (GIVEN(max_order)) {
    SK_CALL(ctx, sk_stepper_set_max_order(s, (int)st.max_order));
  }
  if (GIVEN(h0) || GIVEN(hmin) || GIVEN(hmax)) {
    SK_CALL(ctx, sk_stepper_set_step_limits(s, GIVEN(h0) ? st.h0 : s->h0,
                                            GIVEN(hmin) ? st.hmin : s->hmin,
                                            GIVEN(hmax) ? st.hmax : s->hmax));
  }
  if (GIVEN(fixed_step)) {
    SK_CALL(ctx, sk_stepper_set_fixed_step(s, st.fixed_step));
  }
  if (GIVEN(threads)) { /* the table's range: 0..4096 */
    SK_CALL(ctx, sk_stepper_set_threads(s, (int)st.threads));
  }
  if (GIVEN(check_jacobian)) {
    SK_CALL(ctx, sk_stepper_set_check_jacobian(s, st.check_jacobian));
  }
  if (GIVEN(max_growth)) {
    SK_CALL(ctx, sk_stepper_set_max_growth(s, st.max_growth));
  }
  if (GIVEN(detect_pattern)) {
    SK_CALL(ctx, sk_stepper_set_detect_pattern(
                     s, choice3(st.detect_pattern, "on", SK_DETECT_PATTERN_ON, "off",
                                SK_DETECT_PATTERN_OFF, SK_DETECT_PATTERN_AUTO)));
  }
  if (GIVEN(stop_time)) {
    SK_CALL(ctx, sk_stepper_set_stop_time(s, st.stop_time));
  }
#undef GIVEN
  sk__linsol_settings ls;
  uint64_t lgiven;
  SK_CALL(ctx, sk__linsol_settings_given(opts, &ls, &lgiven));
  SK_CALL(ctx, apply_linsol_keys(s, opts, &ls, lgiven));
  SK_CALL(ctx, sk__stepper_sens_from_options(s, opts));
  if (s->type->set_from_options) {
    SK_CALL(ctx, s->type->set_from_options(s, opts));
  }
  return SK_OK;
}

/* solver.plugin: the paths, each checked to exist (file:line named), loaded in order */
sk_status sk_plugin_load_from_options(sk_context *ctx, const sk_options *opts)
{
  if (!ctx || !opts) {
    return SK_ERR_ARG;
  }
  if (!sk__stepper_keys_registered(opts)) {
    return SK_OK;
  }
  const char *const *paths;
  size_t n;
  SK_CALL(ctx,
          sk_options_get_input_files(opts, sk__stepper_key(SK__STEPPER_KEY_plugin), &paths, &n));
  for (size_t i = 0; i < n; i++) {
    SK_CALL(ctx, sk_plugin_load(ctx, paths[i]));
  }
  return SK_OK;
}

/* src/bvp/bvp_settings.c: the solver settings and the continuation of a boundary-value problem from the bvp.* keys */
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/options_impl.h"
#include "models/bvp_keys.h"
#include "stiffkit/bvp.h"
#include "stiffkit/stepper.h"

sk_status sk_bvp_settings_from_options(sk_context *ctx, const sk_options *opts,
                                       sk_bvp_settings *s)
{
  sk_bvp_settings_default(s);
  sk__bvp_keys k;
  SK_CALL(ctx, sk__bvp_keys_read(opts, &k, NULL));
  s->method = !strcmp(k.method, "fd")         ? SK_BVP_FD
              : !strcmp(k.method, "shooting") ? SK_BVP_SHOOTING
                                              : SK_BVP_MULTIPLE_SHOOTING;
  s->tol = k.tol;
  s->mesh_n = k.mesh_n;
  s->mesh_ratio = k.mesh_ratio;
  s->refine = k.mesh_refine;
  s->estimate = k.mesh_estimate;
  s->max_points = k.mesh_max_points;
  s->max_refinements = (int)k.mesh_max_refinements;
  s->max_iters = k.newton_max_iters;
  s->fnormtol = k.newton_fnormtol;
  s->linesearch = k.newton_linesearch;
  s->shoot_intervals = k.shooting_intervals;
  s->shoot_nodes = k.shooting_nodes.v;
  s->shoot_nnodes = (int64_t)k.shooting_nodes.n;
  const char *ivp = k.shooting_ivp_method;
  SK_CHECK(ctx, strlen(ivp) < sizeof s->ivp_method, SK_ERR_INPUT,
           "bvp.shooting.ivp_method '%s' is too long", ivp);
  const sk_stepper_type *ivp_type = sk_stepper_type_find(ctx, ivp);
  SK_CHECK(ctx, ivp_type != NULL, SK_ERR_INPUT,
           "bvp.shooting.ivp_method: '%s' is not a stepper (stiffkit run --help-options lists "
           "solver.method's choices; cvode-bdf integrates stiff IVPs)",
           ivp);
  SK_CHECK(ctx, ivp_type->flags & SK_STEPPER_ADAPTIVE, SK_ERR_INPUT,
           "bvp.shooting.ivp_method: '%s' takes fixed steps; shooting needs an adaptive engine "
           "that meets the IVP tolerances (cvode-bdf, cvode-adams, rk45)",
           ivp);
  snprintf(s->ivp_method, sizeof s->ivp_method, "%s", ivp);
  s->ivp_rtol = k.shooting_rtol;
  s->ivp_atol = k.shooting_atol;
  s->sensitivity_limit = k.shooting_sensitivity_limit;
  s->output_points = k.output_points;
  return SK_OK;
}

sk_status sk_bvp_continuation_from_options(sk_context *ctx, const sk_options *opts,
                                           const sk_bvp *bvp, sk_bvp_continuation *c,
                                           int *enabled)
{
  *enabled = 0;
  memset(c, 0, sizeof *c);
  sk__bvp_keys k;
  uint64_t given = 0;
  SK_CALL(ctx, sk__bvp_keys_read(opts, &k, &given));
  const char *name = k.continuation_parameter;
  if (!name[0]) {
    return SK_OK;
  }
  char where[256];
  sk_options_where(opts, sk__bvp_key(SK__BVP_KEY_continuation_parameter), where, sizeof where);
  c->param = sk_bvp_find_parameter(bvp, name);
  if (c->param < 0) {
    char known[512] = "";
    for (int i = 0; i < sk_bvp_get_nparams(bvp); i++) {
      snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "",
               sk_bvp_get_parameter_name(bvp, i));
    }
    return SK_ERROR(ctx, SK_ERR_INPUT, "%s: '%s' is not a parameter (bvp.parameters: %s)", where,
                    name, known[0] ? known : "none declared");
  }
  SK_CHECK(ctx, SK__BVP_GIVEN(given, continuation_to), SK_ERR_INPUT,
           "%s: continuation needs bvp.continuation.to", where);
  c->to = k.continuation_to;
  c->step = k.continuation_step;
  c->min_step = k.continuation_min_step;
  SK_CHECK(ctx, c->min_step <= c->step, SK_ERR_INPUT,
           "bvp.continuation.min_step %g exceeds bvp.continuation.step %g", c->min_step, c->step);
  *enabled = 1;
  return SK_OK;
}

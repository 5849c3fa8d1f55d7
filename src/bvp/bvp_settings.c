/* src/bvp/bvp_settings.c: the solver settings and the continuation of a boundary-value problem from the bvp.* keys */
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/options_impl.h"
#include "stiffkit/bvp.h"
#include "stiffkit/stepper.h"

sk_status sk_bvp_settings_from_options(sk_context *ctx, const sk_options *opts,
                                       sk_bvp_settings *s)
{
  sk_bvp_settings_default(s);
  const char *method, *ivp;
  int64_t v;
  SK_CALL(ctx, sk_options_get_string(opts, "bvp.method", &method));
  s->method = !strcmp(method, "fd")         ? SK_BVP_FD
              : !strcmp(method, "shooting") ? SK_BVP_SHOOTING
                                            : SK_BVP_MULTIPLE_SHOOTING;
  SK_CALL(ctx, sk_options_get_real(opts, "bvp.tol", &s->tol));
  SK_CALL(ctx, sk_options_get_int(opts, "bvp.mesh.n", &s->mesh_n));
  SK_CALL(ctx, sk_options_get_real(opts, "bvp.mesh.ratio", &s->mesh_ratio));
  SK_CALL(ctx, sk_options_get_bool(opts, "bvp.mesh.refine", &s->refine));
  SK_CALL(ctx, sk_options_get_bool(opts, "bvp.mesh.estimate", &s->estimate));
  SK_CALL(ctx, sk_options_get_int(opts, "bvp.mesh.max_points", &s->max_points));
  SK_CALL(ctx, sk_options_get_int(opts, "bvp.mesh.max_refinements", &v));
  s->max_refinements = (int)v;
  SK_CALL(ctx, sk_options_get_int(opts, "bvp.newton.max_iters", &s->max_iters));
  SK_CALL(ctx, sk_options_get_real(opts, "bvp.newton.fnormtol", &s->fnormtol));
  SK_CALL(ctx, sk_options_get_bool(opts, "bvp.newton.linesearch", &s->linesearch));
  SK_CALL(ctx, sk_options_get_int(opts, "bvp.shooting.intervals", &s->shoot_intervals));
  size_t nn;
  SK_CALL(ctx, sk_options_get_real_list(opts, "bvp.shooting.nodes", &s->shoot_nodes, &nn));
  s->shoot_nnodes = (int64_t)nn;
  SK_CALL(ctx, sk_options_get_string(opts, "bvp.shooting.ivp_method", &ivp));
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
  SK_CALL(ctx, sk_options_get_real(opts, "bvp.shooting.rtol", &s->ivp_rtol));
  SK_CALL(ctx, sk_options_get_real(opts, "bvp.shooting.atol", &s->ivp_atol));
  SK_CALL(ctx,
          sk_options_get_real(opts, "bvp.shooting.sensitivity_limit", &s->sensitivity_limit));
  SK_CALL(ctx, sk_options_get_int(opts, "bvp.output.points", &s->output_points));
  return SK_OK;
}

sk_status sk_bvp_continuation_from_options(sk_context *ctx, const sk_options *opts,
                                           const sk_bvp *bvp, sk_bvp_continuation *c,
                                           int *enabled)
{
  const char *name;
  *enabled = 0;
  memset(c, 0, sizeof *c);
  SK_CALL(ctx, sk_options_get_string(opts, "bvp.continuation.parameter", &name));
  if (!name[0]) {
    return SK_OK;
  }
  char where[256];
  sk_options_where(opts, "bvp.continuation.parameter", where, sizeof where);
  c->param = sk_bvp_find_parameter(bvp, name);
  if (c->param < 0) {
    char known[512] = "";
    for (int k = 0; k < sk_bvp_get_nparams(bvp); k++) {
      snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", k ? ", " : "",
               sk_bvp_get_parameter_name(bvp, k));
    }
    return SK_ERROR(ctx, SK_ERR_INPUT, "%s: '%s' is not a parameter (bvp.parameters: %s)", where,
                    name, known[0] ? known : "none declared");
  }
  SK_CHECK(ctx, sk_options_is_set(opts, "bvp.continuation.to"), SK_ERR_INPUT,
           "%s: continuation needs bvp.continuation.to", where);
  SK_CALL(ctx, sk_options_get_real(opts, "bvp.continuation.to", &c->to));
  SK_CALL(ctx, sk_options_get_real(opts, "bvp.continuation.step", &c->step));
  SK_CALL(ctx, sk_options_get_real(opts, "bvp.continuation.min_step", &c->min_step));
  SK_CHECK(ctx, c->min_step <= c->step, SK_ERR_INPUT,
           "bvp.continuation.min_step %g exceeds bvp.continuation.step %g", c->min_step, c->step);
  *enabled = 1;
  return SK_OK;
}

/* src/models/mbs_options.c: the mbs.* option keys of a multibody run (mechanism file, formulation, stabilization, initialization) and the settings built from them */
#include <math.h>
#include <string.h>

#include "core/error.h"
#include "models/mbs_impl.h"
#include "stiffkit/model_type.h"

static const sk_option_spec mbs_table[] = {
    {"mbs.file", SK_OPT_PATH, "", 0, 0, NULL,
     "the mechanism file (YAML: bodies, joints, drivers, forces, events; model.type = "
     "multibody; in a config relative to the config's directory)"},
    {"mbs.formulation", SK_OPT_CHOICE, "ggl", 0, 0, "ggl|index1|reduced",
     "ggl: stabilized index 2 in IDA; index1: acceleration level (Baumgarte) in CVODE; "
     "reduced: coordinate partitioning in CVODE"},
    {"mbs.compare", SK_OPT_CHOICE, "reduced", 0, 0, "ggl|index1|reduced",
     "the second formulation `stiffkit verify` compares with mbs.formulation"},
    {"mbs.baumgarte.alpha", SK_OPT_REAL, "0", 0, 1e6, NULL,
     "index1: Baumgarte velocity-drift damping alpha (gamma - 2 alpha Phi' - beta^2 Phi)"},
    {"mbs.baumgarte.beta", SK_OPT_REAL, "0", 0, 1e6, NULL,
     "index1: Baumgarte position term beta"},
    {"mbs.projection", SK_OPT_BOOL, "false", 0, 0, NULL,
     "index1: project q and v back onto the constraints after every step (cvode-bdf)"},
    {"mbs.inconsistent", SK_OPT_CHOICE, "fix", 0, 0, "fix|refuse",
     "an initial state off the constraints: fix it (least change, reported) or refuse"},
    {"mbs.init_tol", SK_OPT_REAL, "1e-10", 0, 1, NULL,
     "max |Phi| and |G v + Phi_t| an initial state may have without being called inconsistent"},
    {"mbs.cond_limit", SK_OPT_REAL, "1e6", 1, 1e300, NULL,
     "warn when cond(G) (rows and columns equilibrated) exceeds this: near a toggle"},
    {"mbs.repartition", SK_OPT_REAL, "4", 1.5, 1e300, NULL,
     "reduced: a new coordinate partition once cond(G_D) has grown by this factor since the "
     "last one (checked after every step)"},
};

const sk_option_spec *sk_mechanism_options(size_t *n)
{
  if (n) {
    *n = sizeof mbs_table / sizeof mbs_table[0];
  }
  return mbs_table;
}

static sk_mbs_formulation formulation_of(const char *name)
{
  return !strcmp(name, "ggl")      ? SK_MBS_GGL
         : !strcmp(name, "index1") ? SK_MBS_INDEX1
                                   : SK_MBS_REDUCED;
}

sk_status sk_mechanism_settings_from_options(sk_context *ctx, const sk_options *opts, int compare,
                                             sk_mbs_settings *s, int *project)
{
  const char *name;
  memset(s, 0, sizeof *s);
  SK_CALL(ctx, sk_options_get_string(opts, compare ? "mbs.compare" : "mbs.formulation", &name));
  s->formulation = formulation_of(name);
  SK_CALL(ctx, sk_options_get_real(opts, "mbs.baumgarte.alpha", &s->alpha));
  SK_CALL(ctx, sk_options_get_real(opts, "mbs.baumgarte.beta", &s->beta));
  SK_CALL(ctx, sk_options_get_real(opts, "mbs.cond_limit", &s->cond_limit));
  SK_CALL(ctx, sk_options_get_real(opts, "mbs.repartition", &s->repartition));
  SK_CALL(ctx, sk_options_get_bool(opts, "mbs.projection", project));
  return SK_OK;
}

const char *sk_mechanism_formulation_name(sk_mbs_formulation f)
{
  static const char *const names[3] = {"ggl", "index1", "reduced"};
  return f >= SK_MBS_GGL && f <= SK_MBS_REDUCED ? names[f] : "unknown";
}

const sk_model_type sk__model_type_multibody = {
    .name = "multibody",
    .description = "a constrained mechanism from a mechanism file (mbs.file)",
    .driver = SK_MODEL_DRIVER_MECHANISM,
    .options = sk_mechanism_options};

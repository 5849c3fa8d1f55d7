/* src/models/multibody_options.c: the multibody.* option keys of a multibody run (mechanism file, formulation, stabilization, initialization) and the settings built from them */
#include <math.h>
#include <string.h>

#include "core/error.h"
#include "models/multibody_impl.h"
#include "models/multibody_keys.h"
#include "stiffkit/model_type.h"

#define SK__BIND_STRUCT sk__multibody_keys
SK__BIND_DEFINE(sk__multibody, SK__MULTIBODY_KEYS, sk__multibody_keys, SK__MULTIBODY_KEY_COUNT)
#undef SK__BIND_STRUCT

const sk_option_spec *sk_multibody_options(size_t *n)
{
  return sk__multibody_options(n);
}

/* the formulation a choice names (the choices' order is the enum's: ggl, index1, reduced) */
static sk_multibody_formulation formulation_of(const char *name)
{
  return (sk_multibody_formulation)sk__choice_index(
      sk__multibody_options(NULL)[SK__MULTIBODY_KEY_formulation].choices, name);
}

sk_status sk_multibody_settings_from_options(sk_context *ctx, const sk_options *opts, int compare,
                                             sk_multibody_settings *s, int *project)
{
  sk__multibody_keys k;
  memset(s, 0, sizeof *s);
  SK_CALL(ctx, sk__multibody_settings_read(opts, &k, NULL));
  s->formulation = formulation_of(compare ? k.compare : k.formulation);
  s->alpha = k.alpha;
  s->beta = k.beta;
  s->cond_limit = k.cond_limit;
  s->repartition = k.repartition;
  *project = k.projection;
  return SK_OK;
}

sk_status sk_multibody_start_from_options(sk_context *ctx, const sk_options *opts,
                                          const char **file, double *init_tol, int *fix)
{
  sk__multibody_keys k;
  SK_CALL(ctx, sk__multibody_settings_read(opts, &k, NULL));
  SK_CALL(ctx, sk__multibody_paths_resolve(opts, &k));
  *file = k.file;
  SK_CHECK(ctx, (*file)[0], SK_ERR_INPUT,
           "model.type = multibody needs multibody.file, the mechanism description (see "
           "data/mechanisms/README.md)");
  *init_tol = k.init_tol;
  *fix = !strcmp(k.inconsistent, "fix");
  return SK_OK;
}

const char *sk_multibody_formulation_name(sk_multibody_formulation f)
{
  static const char *const names[3] = {"ggl", "index1", "reduced"};
  return f >= SK_MULTIBODY_GGL && f <= SK_MULTIBODY_REDUCED ? names[f] : "unknown";
}

const sk_model_type sk__model_type_multibody = {
    .name = "multibody",
    .description = "a constrained mechanism from a mechanism file (multibody.file)",
    .driver = SK_MODEL_DRIVER_MULTIBODY,
    .options = sk_multibody_options};

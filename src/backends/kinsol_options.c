/* src/backends/kinsol_options.c: the steady-state solve's settings: the steady.* table (backends/steady_keys.h), defaults, and reading them with the shared and linsol.* keys into sk_steady_settings */
#include <stdio.h>
#include <string.h>

#include "backends/steady_keys.h"
#include "core/error.h"
#include "linsol/linsol_keys.h"
#include "steppers/stepper_keys.h"
#include "stiffkit/steady.h"

#define SK__BIND_STRUCT sk__steady_keys
SK__BIND_DEFINE(sk__steady, SK__STEADY_KEYS, sk__steady_keys, SK__STEADY_KEY_COUNT)
#undef SK__BIND_STRUCT

const sk_option_spec *sk_steady_options(size_t *n)
{
  size_t count = 0;
  const sk_option_spec *spec = sk__steady_options(&count);
  if (n) {
    *n = count;
  }
  return spec;
}

void sk_steady_settings_default(sk_steady_settings *s)
{
  memset(s, 0, sizeof *s);
  snprintf(s->guess, sizeof s->guess, "initial");
  snprintf(s->strategy, sizeof s->strategy, "linesearch");
  snprintf(s->linsol, sizeof s->linsol, "auto");
  snprintf(s->prec, sizeof s->prec, "auto");
  snprintf(s->ordering, sizeof s->ordering, "auto");
  s->fnormtol = 1e-8;
  s->scsteptol = 1e-12;
  s->u_scale = 1.0;
  s->f_scale = 1.0;
  s->max_iters = 200;
  s->max_setup_calls = 1;
  s->maxl = 50;
  s->max_restarts = 5;
  s->prec_gamma = 1e-3;
  s->check_jacobian = 1;
}

sk_status sk_steady_settings_from_options(sk_context *ctx, const sk_options *o,
                                          sk_steady_settings *s)
{
  SK_CHECK(ctx, o != NULL && s != NULL, SK_ERR_ARG,
           "sk_steady_settings_from_options: NULL argument");
  sk_steady_settings_default(s);
  /* the keys every engine shares (steppers/stepper_keys.h), where registered */
  sk__stepper_settings st;
  uint64_t given = 0;
  const int shared = sk__stepper_keys_registered(o);
  if (shared) {
    SK_CALL(ctx, sk__stepper_settings_read(o, &st, &given));
  }
  sk__steady_keys k;
  uint64_t kgiven = 0;
  SK_CALL(ctx, sk__steady_settings_read(o, &k, &kgiven));
  s->t = SK__STEADY_GIVEN(kgiven, t) || !shared ? k.t : st.t0;
  snprintf(s->guess, sizeof s->guess, "%s", k.guess);
  snprintf(s->strategy, sizeof s->strategy, "%s", k.strategy);
  if (shared) {
    s->check_jacobian = st.check_jacobian; /* one switch for every engine */
  }
  if (sk__linsol_keys_registered(o)) { /* the linear solver: the linsol.* keys */
    sk__linsol_settings ls;
    SK_CALL(ctx, sk__linsol_settings_read(o, &ls, NULL));
    char names[256], where[320];
    if (!sk__linsol_accepts(ctx, ls.type, SK__ENGINE_KINSOL, names, sizeof names)) {
      sk_options_where(o, sk__linsol_key(SK__LINSOL_KEY_type), where, sizeof where);
      return SK_ERROR(ctx, SK_ERR_INPUT,
                      "%s: '%s' is not a linear solver of the steady solve (KINSOL), which "
                      "takes auto, %s",
                      where, ls.type, names);
    }
    snprintf(s->linsol, sizeof s->linsol, "%s", ls.type);
    snprintf(s->prec, sizeof s->prec, "%s", ls.preconditioner);
    snprintf(s->ordering, sizeof s->ordering, "%s", ls.ordering);
    s->maxl = ls.maxl > 0 ? (int)ls.maxl : s->maxl; /* 0: the steady solve's default */
  }
  s->fnormtol = k.fnormtol;
  s->scsteptol = k.scsteptol;
  s->u_scale = k.u_scale;
  s->f_scale = k.f_scale;
  s->prec_gamma = k.prec_gamma;
  s->max_step = k.max_step;
  s->max_iters = k.max_iters;
  s->max_setup_calls = k.max_setup_calls;
  s->max_restarts = (int)k.max_restarts;
  return SK_OK;
}

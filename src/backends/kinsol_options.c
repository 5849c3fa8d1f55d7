/* src/backends/kinsol_options.c: the steady.* option keys of the KINSOL steady-state solve, defaults and reading them into sk_steady_settings */
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "linsol/linsol_keys.h"
#include "steppers/stepper_keys.h"
#include "stiffkit/steady.h"

static const sk_option_spec steady_options[] = {
    {"steady.t", SK_OPT_REAL, "", -1e300, 1e300, NULL,
     "time t_s of the steady state f(t_s, u) = 0 (unset: solver.t0)"},
    {"steady.guess", SK_OPT_CHOICE, "initial", 0, 0, "initial|zero",
     "initial guess: the model's initial state at solver.t0, or zero"},
    {"steady.strategy", SK_OPT_CHOICE, "linesearch", 0, 0, "linesearch|none",
     "globalization of Newton's method: KINSOL's line search, or the full Newton step"},
    {"steady.prec_gamma", SK_OPT_REAL, "1e-3", 1e-300, 1e300, NULL,
     "gamma of the model preconditioner M = J - I/gamma (for the model's ADI-type P, about "
     "1/sqrt(|lambda_max lambda_min|) of J works best: stiffkit diagnose prints both)"},
    {"steady.fnormtol", SK_OPT_REAL, "1e-8", 1e-300, 1e300, NULL,
     "accept u when max_i |f_scale f_i(t_s, u)| <= fnormtol (checked again after KINSOL)"},
    {"steady.scsteptol", SK_OPT_REAL, "1e-12", 1e-300, 1, NULL,
     "KINSOL stops when the scaled Newton step falls below this (a stall unless the residual "
     "passes steady.fnormtol)"},
    {"steady.u_scale", SK_OPT_REAL, "1", 1e-300, 1e300, NULL,
     "scale of u: KINSOL measures steps in u_scale * u (1 / typical size of u)"},
    {"steady.f_scale", SK_OPT_REAL, "1", 1e-300, 1e300, NULL,
     "scale of f: the residual is measured as f_scale * f (1 / typical size of f)"},
    {"steady.max_step", SK_OPT_REAL, "0", 0, 1e300, NULL,
     "longest Newton step ||u_scale d||_2 (0: 1000 max(||u_scale u_guess||_2, ||u_scale||_2); "
     "KINSOL's own default, 1000 ||u_scale u_guess||_2, would cripple a zero guess)"},
    {"steady.max_iters", SK_OPT_INT, "200", 1, 1e9, NULL, "Newton iterations at most"},
    {"steady.max_setup_calls", SK_OPT_INT, "1", 1, 1e9, NULL,
     "Newton iterations per Jacobian evaluation (1 = full Newton; KINSOL's default is 10)"},
    {"steady.max_restarts", SK_OPT_INT, "5", 0, 10000, NULL, "spgmr: restarts per linear solve"},
};

const sk_option_spec *sk_steady_options(size_t *n)
{
  if (n) {
    *n = sizeof steady_options / sizeof steady_options[0];
  }
  return steady_options;
}

void sk_steady_settings_default(sk_steady_settings *s)
{
  memset(s, 0, sizeof *s);
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

static sk_status get_name(const sk_options *o, const char *key, char *dst, size_t len)
{
  const char *v = NULL;
  SK_CALL(sk_options_get_context(o), sk_options_get_string(o, key, &v));
  snprintf(dst, len, "%s", v);
  return SK_OK;
}

static sk_status get_small_int(const sk_options *o, const char *key, int *dst)
{
  int64_t v = 0;
  SK_CALL(sk_options_get_context(o), sk_options_get_int(o, key, &v));
  *dst = (int)v;
  return SK_OK;
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
  if (shared && !sk_options_is_set(o, "steady.t")) {
    s->t = st.t0;
  } else {
    SK_CALL(ctx, sk_options_get_real(o, "steady.t", &s->t));
  }
  SK_CALL(ctx, get_name(o, "steady.strategy", s->strategy, sizeof s->strategy));
  if (shared) {
    s->check_jacobian = st.check_jacobian; /* one switch for every engine */
  }
  if (sk__linsol_keys_registered(o)) { /* the linear solver: the linsol.* keys */
    sk__linsol_settings ls;
    SK_CALL(ctx, sk__linsol_settings_read(o, &ls, NULL));
    snprintf(s->linsol, sizeof s->linsol, "%s", ls.type);
    snprintf(s->prec, sizeof s->prec, "%s", ls.preconditioner);
    snprintf(s->ordering, sizeof s->ordering, "%s", ls.ordering);
    s->maxl = ls.maxl > 0 ? (int)ls.maxl : s->maxl; /* 0: the steady solve's default */
  }
  SK_CALL(ctx, sk_options_get_real(o, "steady.fnormtol", &s->fnormtol));
  SK_CALL(ctx, sk_options_get_real(o, "steady.scsteptol", &s->scsteptol));
  SK_CALL(ctx, sk_options_get_real(o, "steady.u_scale", &s->u_scale));
  SK_CALL(ctx, sk_options_get_real(o, "steady.f_scale", &s->f_scale));
  SK_CALL(ctx, sk_options_get_real(o, "steady.prec_gamma", &s->prec_gamma));
  SK_CALL(ctx, sk_options_get_real(o, "steady.max_step", &s->max_step));
  SK_CALL(ctx, sk_options_get_int(o, "steady.max_iters", &s->max_iters));
  SK_CALL(ctx, sk_options_get_int(o, "steady.max_setup_calls", &s->max_setup_calls));
  SK_CALL(ctx, get_small_int(o, "steady.max_restarts", &s->max_restarts));
  return SK_OK;
}

/* tests/unit/test_multibody_retired_names.c: the multibody family's earlier names still work: the API's sk_mechanism_* / sk_mbs_* / SK_MBS_* build and call the sk_multibody_* functions, and the options' mbs.* keys set and read the multibody.* ones */
#include "../test.h"

#ifndef SK_SOURCE_DIR
#define SK_SOURCE_DIR "."
#endif

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));

  /* the API: a program written against the earlier names (data/mechanisms/pendulum.yaml: one
     body, three coordinates, two revolute constraints) */
  sk_mechanism *old = NULL;
  sk_multibody *now = NULL;
  CHECK_OK(ctx, sk_mechanism_load(ctx, SK_SOURCE_DIR "/data/mechanisms/pendulum.yaml", &old));
  CHECK_OK(ctx, sk_multibody_load(ctx, SK_SOURCE_DIR "/data/mechanisms/pendulum.yaml", &now));
  CHECK_EQ_INT(sk_mechanism_nbodies(old), 1);
  CHECK_EQ_INT(sk_mechanism_ncoords(old), sk_multibody_ncoords(now));
  CHECK_EQ_INT(sk_mechanism_nconstraints(old), 2);
  double q_old[3], v_old[3], q_now[3], v_now[3];
  sk_mechanism_initial(old, q_old, v_old);
  sk_multibody_initial(now, q_now, v_now);
  for (int i = 0; i < 3; i++) {
    CHECK(q_old[i] == q_now[i] && v_old[i] == v_now[i]);
  }
  const sk_mbs_formulation f = SK_MBS_GGL;
  CHECK(f == SK_MULTIBODY_GGL && SK_MBS_INDEX1 == SK_MULTIBODY_INDEX1);
  CHECK(SK_MODEL_DRIVER_MECHANISM == SK_MODEL_DRIVER_MULTIBODY);
  CHECK_STR_CONTAINS(sk_mechanism_formulation_name(SK_MBS_REDUCED), "reduced");

  /* the options: mbs.* keys are the multibody.* keys under their earlier prefix */
  size_t nk = 0;
  const sk_option_spec *keys = sk_mechanism_options(&nk);
  CHECK(nk > 0);
  for (size_t i = 0; i < nk; i++) {
    CHECK_STR_CONTAINS(keys[i].key, "multibody.");
  }
  sk_options *opts = NULL;
  CHECK_OK(ctx, sk_options_create(ctx, &opts));
  CHECK_OK(ctx, sk_options_register(opts, keys, nk));
  CHECK_OK(ctx, sk_options_set(opts, "mbs.formulation", "index1", NULL));
  CHECK_OK(ctx, sk_options_set_assignment(opts, "mbs.baumgarte.alpha=5"));
  const char *s = NULL;
  CHECK_OK(ctx, sk_options_get_string(opts, "multibody.formulation", &s));
  CHECK_STR_CONTAINS(s, "index1");
  double a = 0.0;
  CHECK_OK(ctx, sk_options_get_real(opts, "mbs.baumgarte.alpha", &a));
  CHECK(a == 5.0);
  CHECK(sk_options_is_set(opts, "mbs.formulation") &&
        sk_options_is_set(opts, "multibody.formulation"));
  sk_mbs_settings st;
  int project = -1;
  CHECK_OK(ctx, sk_mechanism_settings_from_options(ctx, opts, 0, &st, &project));
  CHECK(st.formulation == SK_MBS_INDEX1);
  CHECK(sk_options_is_key(opts, "mbs.formulation") && sk_options_is_section(opts, "mbs") &&
        sk_options_is_section(opts, "mbs.baumgarte"));
  char buf[64];
  CHECK_STR_CONTAINS(sk_options_current_key("mbs.init_tol", buf, sizeof buf),
                     "multibody.init_tol");
  CHECK(sk_options_current_key("solver.rtol", buf, sizeof buf)[0] == 's');
  /* an unknown key under the earlier prefix is an unknown key under the present one */
  CHECK_EQ_INT(sk_options_set(opts, "mbs.no_such_key", "1", NULL), SK_ERR_UNKNOWN_KEY);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "multibody.no_such_key");

  sk_options_destroy(&opts);
  sk_mechanism_destroy(&old);
  sk_multibody_destroy(&now);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

/* tests/unit/test_options_deferred.c: deferred option sections: values set before their table is registered, from --set and YAML, checked on registration */
#include <string.h>

#include "test.h"

static const sk_option_spec base_table[] = {
    {"model.type", SK_OPT_CHOICE, "a", 0, 0, "a|b", "type"},
};

static const sk_option_spec late_table[] = {
    {"model.parameters.kappa", SK_OPT_REAL, "1.0", 0, 10, NULL, "diffusivity"},
    {"model.parameters.n", SK_OPT_INT, "4", 1, 100, NULL, "nodes"},
    {"model.parameters.weights", SK_OPT_REAL_LIST, "", 0, 0, NULL, "weights"},
    {"model.parameters.sub.flag", SK_OPT_BOOL, "false", 0, 0, NULL, "nested key"},
};

static sk_options *make(sk_context *ctx)
{
  sk_options *o = NULL;
  CHECK_OK(ctx, sk_options_create(ctx, &o));
  CHECK_OK(ctx, sk_options_register(o, base_table, 1));
  CHECK_OK(ctx, sk_options_defer_section(o, "model.parameters"));
  return o;
}

static const char *message(sk_context *ctx)
{
  return sk_context_get_error(ctx)->message;
}

/* Values set before the table arrive with it; the last set wins; the origin is kept. */
static void test_set_then_register(sk_context *ctx)
{
  sk_options *o = make(ctx);
  CHECK(sk_options_is_deferred(o, "model.parameters.kappa"));
  CHECK(!sk_options_is_deferred(o, "model.type"));
  CHECK(!sk_options_is_deferred(o, "model.parameters"));
  CHECK(sk_options_is_section(o, "model.parameters"));
  CHECK_OK(ctx, sk_options_set_assignment(o, "model.parameters.kappa=2.5"));
  CHECK_OK(ctx, sk_options_set_assignment(o, "model.parameters.kappa=3.5"));
  CHECK_OK(ctx, sk_options_set_assignment(o, "model.parameters.weights=[1, 2]"));
  CHECK(!sk_options_is_key(o, "model.parameters.kappa"));
  CHECK_EQ_INT(sk_options_check_pending(o), SK_ERR_UNKNOWN_KEY);
  CHECK_OK(ctx, sk_options_register(o, late_table, 4));
  CHECK_OK(ctx, sk_options_check_pending(o));
  double kappa = 0;
  int64_t n = 0;
  const double *w = NULL;
  size_t nw = 0;
  CHECK_OK(ctx, sk_options_get_real(o, "model.parameters.kappa", &kappa));
  CHECK_OK(ctx, sk_options_get_int(o, "model.parameters.n", &n));
  CHECK_OK(ctx, sk_options_get_real_list(o, "model.parameters.weights", &w, &nw));
  CHECK_NEAR(kappa, 3.5, 0, 0);
  CHECK_EQ_INT(n, 4);
  CHECK_EQ_INT(nw, 2);
  CHECK(nw == 2 && w[0] == 1.0 && w[1] == 2.0);
  CHECK(sk_options_is_set(o, "model.parameters.kappa"));
  CHECK(!sk_options_is_set(o, "model.parameters.n"));
  /* once registered, a set is checked at once */
  CHECK_EQ_INT(sk_options_set_assignment(o, "model.parameters.kappa=11"), SK_ERR_INPUT);
  sk_options_destroy(&o);
}

/* A bad value fails the registration, naming where it was written. */
static void test_bad_value_named_at_registration(sk_context *ctx)
{
  sk_options *o = make(ctx);
  static const char yaml[] = "model:\n  type: b\n  parameters:\n    n: 0\n";
  CHECK_OK(ctx, sk_config_load_buffer(o, "case.yaml", yaml, sizeof yaml - 1));
  CHECK_EQ_INT(sk_options_register(o, late_table, 4), SK_ERR_INPUT);
  CHECK_STR_CONTAINS(message(ctx),
                     "case.yaml:4:8: model.parameters.n: expected an integer in [1, 100]");
  sk_options_destroy(&o);
}

/* YAML: nested mappings and sequences inside the deferred section. */
static void test_yaml_nesting(sk_context *ctx)
{
  sk_options *o = make(ctx);
  static const char yaml[] = "model:\n  parameters:\n    weights: [0.5, 1.5]\n    sub:\n"
                             "      flag: yes\n";
  CHECK_OK(ctx, sk_config_load_buffer(o, "nest.yaml", yaml, sizeof yaml - 1));
  CHECK_OK(ctx, sk_options_register(o, late_table, 4));
  CHECK_OK(ctx, sk_options_check_pending(o));
  int flag = 0;
  const double *w = NULL;
  size_t nw = 0;
  CHECK_OK(ctx, sk_options_get_bool(o, "model.parameters.sub.flag", &flag));
  CHECK_OK(ctx, sk_options_get_real_list(o, "model.parameters.weights", &w, &nw));
  CHECK(flag == 1);
  CHECK(nw == 2 && w[1] == 1.5);
  sk_options_destroy(&o);
}

/* A deferred value no table claims is an unknown key with a suggestion and its origin. */
static void test_unclaimed(sk_context *ctx)
{
  sk_options *o = make(ctx);
  static const char yaml[] = "model:\n  parameters:\n    kapa: 2\n";
  CHECK_OK(ctx, sk_config_load_buffer(o, "typo.yaml", yaml, sizeof yaml - 1));
  CHECK_OK(ctx, sk_options_register(o, late_table, 4));
  CHECK_EQ_INT(sk_options_check_pending(o), SK_ERR_UNKNOWN_KEY);
  CHECK_STR_CONTAINS(message(ctx), "typo.yaml:3:11: unknown key 'model.parameters.kapa'");
  CHECK_STR_CONTAINS(message(ctx), "did you mean 'model.parameters.kappa'");
  /* outside a deferred section, unknown keys are refused at once, as always */
  CHECK_EQ_INT(sk_options_set_assignment(o, "model.other=1"), SK_ERR_UNKNOWN_KEY);
  sk_options_destroy(&o);
}

/* The check of one section leaves the others waiting; an ended deferral refuses new keys
   there at once and keeps what was pending. */
static void test_check_in_and_undefer(sk_context *ctx)
{
  sk_options *o = make(ctx);
  CHECK_OK(ctx, sk_options_defer_section(o, "solver"));
  CHECK_OK(ctx, sk_options_set_assignment(o, "model.parameters.kappa=2.5"));
  CHECK_OK(ctx, sk_options_check_pending_in(o, "solver")); /* nothing under solver. */
  CHECK_OK(ctx, sk_options_set_assignment(o, "solver.rtoll=1e-6"));
  CHECK_EQ_INT(sk_options_check_pending_in(o, "solver"), SK_ERR_UNKNOWN_KEY);
  CHECK(strstr(message(ctx), "solver.rtoll") != NULL);
  /* a prefix names a section: the key itself is not under it */
  CHECK_OK(ctx, sk_options_check_pending_in(o, "model.parameters.kappa"));
  CHECK_EQ_INT(sk_options_check_pending_in(o, "model"), SK_ERR_UNKNOWN_KEY);
  CHECK(strstr(message(ctx), "model.parameters.kappa") != NULL);
  CHECK_OK(ctx, sk_options_undefer_section(o, "solver"));
  CHECK_OK(ctx, sk_options_undefer_section(o, "solver")); /* twice: no-op */
  CHECK(!sk_options_is_deferred(o, "solver.atol"));
  CHECK(sk_options_is_deferred(o, "model.parameters.n"));
  CHECK_EQ_INT(sk_options_set_assignment(o, "solver.atol=1"), SK_ERR_UNKNOWN_KEY);
  CHECK_EQ_INT(sk_options_check_pending_in(o, "solver"), SK_ERR_UNKNOWN_KEY); /* still kept */
  CHECK_EQ_INT(sk_options_check_pending_in(NULL, "solver"), SK_ERR_ARG);
  CHECK_EQ_INT(sk_options_undefer_section(o, NULL), SK_ERR_ARG);
  sk_options_destroy(&o);
}

static void test_defer_errors(sk_context *ctx)
{
  sk_options *o = make(ctx);
  CHECK_EQ_INT(sk_options_defer_section(o, "bad..name"), SK_ERR_ARG);
  CHECK_EQ_INT(sk_options_defer_section(o, NULL), SK_ERR_ARG);
  CHECK_OK(ctx, sk_options_defer_section(o, "model.parameters")); /* twice: no-op */
  char name[32];
  sk_status last = SK_OK;
  for (int k = 0; k < 40 && last == SK_OK; k++) { /* the limit is 32 sections */
    snprintf(name, sizeof name, "extra%d", k);
    last = sk_options_defer_section(o, name);
  }
  CHECK_EQ_INT(last, SK_ERR_TOO_LARGE);
  CHECK_EQ_INT(sk_options_check_pending(NULL), SK_ERR_ARG);
  sk_options_destroy(&o);
}

int main(void)
{
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK) {
    return 1;
  }
  test_set_then_register(ctx);
  test_bad_value_named_at_registration(ctx);
  test_yaml_nesting(ctx);
  test_unclaimed(ctx);
  test_check_in_and_undefer(ctx);
  test_defer_errors(ctx);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

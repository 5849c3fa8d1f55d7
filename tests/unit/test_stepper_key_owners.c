/* tests/unit/test_stepper_key_owners.c: stepper types own their keys: each type's set_from_options applies its own table, sk_stepper_check_options refuses another type's key, and a user type brings a table of its own with one registration call */
#include <string.h>

#include "test.h"

extern const sk_stepper_type sk__stepper_rk4;

/* ---- a user type: rk4 with a key of its own that scales the fixed step ---- */

static const sk_option_spec scaled_table[] = {
    {"solver.rk4_scaled.factor", SK_OPT_REAL, "1", 1e-6, 1e6, NULL, "fixed step multiplier"},
};

static const sk_option_spec *scaled_options(size_t *n)
{
  *n = sizeof scaled_table / sizeof scaled_table[0];
  return scaled_table;
}

static sk_status scaled_set_from_options(sk_stepper *s, const sk_options *opts)
{
  sk_status st = sk__stepper_rk4.set_from_options(s, opts);
  double f = 1.0;
  if (st == SK_OK) {
    st = sk_options_get_real(opts, "solver.rk4_scaled.factor", &f);
  }
  return st == SK_OK ? sk_stepper_set_fixed_step(s, f * sk_stepper_get_fixed_step(s)) : st;
}

/* a database with every stepper table of ctx (sk_stepper_register_options) and the sets */
static sk_options *options_with(sk_context *ctx, const char *const *sets, size_t n)
{
  sk_options *o = NULL;
  if (sk_options_create(ctx, &o) != SK_OK || sk_stepper_register_options(o) != SK_OK) {
    sk_options_destroy(&o);
    return NULL;
  }
  for (size_t k = 0; k < n; k++) {
    if (sk_options_set_assignment(o, sets[k]) != SK_OK) {
      sk_options_destroy(&o);
      return NULL;
    }
  }
  return o;
}

/* the status of set_from_options followed by check_options for a stepper of `method` */
static sk_status configure(sk_context *ctx, sk_model *m, const char *method, const sk_options *o,
                           sk_stepper **s)
{
  sk_status st = sk_stepper_create(ctx, method, m, s);
  if (st == SK_OK) {
    st = sk_stepper_set_from_options(*s, o);
  }
  return st == SK_OK ? sk_stepper_check_options(*s, o) : st;
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_problem_create(ctx, "rober", &m));
  sk_stepper *s = NULL;

  /* a reference stepper takes solver.allow_unstable */
  const char *unstable[] = {"solver.allow_unstable=true"};
  sk_options *o = options_with(ctx, unstable, 1);
  CHECK(o != NULL);
  CHECK_OK(ctx, configure(ctx, m, "rk4", o, &s));
  CHECK(sk_stepper_get_allow_unstable(s) == 1);
  sk_stepper_destroy(&s);
  /* CVODE does not: its set_from_options leaves it, and the check names the key, where it
     was set, the types that take it and the method */
  CHECK(configure(ctx, m, "cvode-bdf", o, &s) == SK_ERR_INPUT);
  CHECK(sk_stepper_get_allow_unstable(s) == 0);
  const char *msg = sk_context_get_error(ctx)->message;
  CHECK(strstr(msg, "--set solver.allow_unstable") != NULL);
  CHECK(strstr(msg, "euler, rk4") != NULL && strstr(msg, "cvode-bdf does not take it") != NULL);
  CHECK(strstr(msg, "ida-bdf") == NULL);
  sk_stepper_destroy(&s);
  sk_options_destroy(&o);

  /* CVODE's own key: applied by the cvode-* types, refused for the others */
  const char *kernels[] = {"solver.fast_vector_ops=off"};
  o = options_with(ctx, kernels, 1);
  CHECK(o != NULL);
  CHECK_OK(ctx, configure(ctx, m, "cvode-adams", o, &s));
  CHECK(!strcmp(sk_stepper_get_vector_kernels(s), "off"));
  sk_stepper_destroy(&s);
  CHECK(configure(ctx, m, "beuler", o, &s) == SK_ERR_INPUT);
  msg = sk_context_get_error(ctx)->message;
  CHECK(strstr(msg, "cvode-bdf, cvode-adams") != NULL);
  sk_stepper_destroy(&s);
  sk_options_destroy(&o);

  /* the shared and linear-solver keys go to every type: no refusal */
  const char *shared[] = {"solver.rtol=1e-5", "linsol.type=dense", "solver.fixed_step=1e-3"};
  o = options_with(ctx, shared, 3);
  CHECK(o != NULL);
  CHECK_OK(ctx, configure(ctx, m, "beuler", o, &s));
  CHECK(sk_stepper_get_rtol(s) == 1e-5 && sk_stepper_get_fixed_step(s) == 1e-3);
  CHECK(!strcmp(sk_stepper_get_linear_solver(s), "dense"));
  sk_stepper_destroy(&s);
  sk_options_destroy(&o);

  /* a user type: one table, one registration; its key is registered by
     sk_stepper_register_options, read by its set_from_options, and refused for others */
  sk_stepper_type scaled = sk__stepper_rk4;
  scaled.name = "rk4-scaled";
  scaled.options = scaled_options;
  scaled.set_from_options = scaled_set_from_options;
  CHECK_OK(ctx, sk_stepper_type_register(ctx, &scaled));
  const char *factor[] = {"solver.fixed_step=1e-3", "solver.rk4_scaled.factor=0.5"};
  o = options_with(ctx, factor, 2);
  CHECK(o != NULL);
  CHECK_OK(ctx, configure(ctx, m, "rk4-scaled", o, &s));
  CHECK(sk_stepper_get_fixed_step(s) == 0.5e-3);
  CHECK_OK(ctx, sk_stepper_setup(s));
  double t = 0.0;
  CHECK_OK(ctx, sk_stepper_advance(s, 0.01, &t));
  sk_stats stats;
  CHECK_OK(ctx, sk_stepper_get_stats(s, &stats));
  CHECK(t == 0.01 && stats.steps == 20); /* 0.01 / (0.5 * 1e-3) */
  sk_stepper_destroy(&s);
  CHECK(configure(ctx, m, "rk4", o, &s) == SK_ERR_INPUT);
  msg = sk_context_get_error(ctx)->message;
  CHECK(strstr(msg, "solver.rk4_scaled.factor") != NULL &&
        strstr(msg, "rk4-scaled only") != NULL);
  sk_stepper_destroy(&s);
  /* registering again adds nothing twice */
  CHECK_OK(ctx, sk_stepper_register_options(o));
  sk_options_destroy(&o);

  sk_model_destroy(&m);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

/* tests/unit/test_options_bind.c: keys bound to struct fields (core/options_bind.h): every type lands in its field, defaults when not given, the given mask, the stepper table's fields match its keys */
#include <stddef.h>

#include "core/options_bind.h"
#include "backends/cvode_keys.h"
#include "backends/ida_keys.h"
#include "linsol/linsol_keys.h"
#include "steppers/reference_keys.h"
#include "steppers/stepper_keys.h"
#include "test.h"

typedef struct {
  double r;
  int64_t i;
  int b;
  const char *s;
  const char *c;
  sk__real_list rl;
  sk__int_list il;
  double unset; /* a real without default, never set: left as it was */
} demo_settings;

static const sk_option_spec demo_table[] = {
    {"demo.r", SK_OPT_REAL, "0.5", 0, 10, NULL, "a real"},
    {"demo.i", SK_OPT_INT, "7", 0, 100, NULL, "an integer"},
    {"demo.b", SK_OPT_BOOL, "true", 0, 0, NULL, "a flag"},
    {"demo.s", SK_OPT_STRING, "abc", 0, 0, NULL, "a string"},
    {"demo.c", SK_OPT_CHOICE, "x", 0, 0, "x|y|z", "a choice"},
    {"demo.rl", SK_OPT_REAL_LIST, "", 0, 10, NULL, "reals"},
    {"demo.il", SK_OPT_INT_LIST, "", -5, 5, NULL, "integers"},
    {"demo.unset", SK_OPT_REAL, "", 0, 10, NULL, "no default"},
};
static const size_t demo_offsets[] = {
    offsetof(demo_settings, r),  offsetof(demo_settings, i),     offsetof(demo_settings, b),
    offsetof(demo_settings, s),  offsetof(demo_settings, c),     offsetof(demo_settings, rl),
    offsetof(demo_settings, il), offsetof(demo_settings, unset),
};

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  sk_options *o = NULL;
  CHECK_OK(ctx, sk_options_create(ctx, &o));
  CHECK_OK(ctx, sk_options_register(o, demo_table, 8));

  /* nothing given: the defaults, an empty mask, the field without default untouched */
  demo_settings d = {.unset = -1.0};
  uint64_t given = 99;
  CHECK_OK(ctx, sk__options_read_bound(o, demo_table, demo_offsets, 8, &d, &given));
  CHECK(given == 0);
  CHECK(d.r == 0.5 && d.i == 7 && d.b == 1 && !strcmp(d.s, "abc") && !strcmp(d.c, "x"));
  CHECK(d.rl.n == 0 && d.rl.v == NULL && d.il.n == 0 && d.il.v == NULL);
  CHECK(d.unset == -1.0);

  /* given keys: their values, their bits */
  CHECK_OK(ctx, sk_options_set_assignment(o, "demo.r=2.25"));
  CHECK_OK(ctx, sk_options_set_assignment(o, "demo.b=false"));
  CHECK_OK(ctx, sk_options_set_assignment(o, "demo.c=Z"));
  CHECK_OK(ctx, sk_options_set_assignment(o, "demo.rl=[1, 2.5, 3]"));
  CHECK_OK(ctx, sk_options_set_assignment(o, "demo.il=-5,5"));
  CHECK_OK(ctx, sk_options_set_assignment(o, "demo.unset=4"));
  CHECK_OK(ctx, sk__options_read_bound(o, demo_table, demo_offsets, 8, &d, &given));
  CHECK(given == ((1u << 0) | (1u << 2) | (1u << 4) | (1u << 5) | (1u << 6) | (1u << 7)));
  CHECK(d.r == 2.25 && d.i == 7 && d.b == 0 && !strcmp(d.c, "z") && d.unset == 4.0);
  CHECK(d.rl.n == 3 && d.rl.v && d.rl.v[0] == 1.0 && d.rl.v[1] == 2.5 && d.rl.v[2] == 3.0);
  CHECK(d.il.n == 2 && d.il.v && d.il.v[0] == -5 && d.il.v[1] == 5);
  /* more than 64 keys cannot have a mask */
  CHECK(sk__options_read_bound(o, demo_table, demo_offsets, 65, &d, &given) == SK_ERR_ARG);
  sk_options_destroy(&o);

  /* the stepper tables: sk_stepper_options holds the shared table, then the linear
     solvers', CVODE's, IDA's and the reference steppers' rows, each field is filled from its
     own key (the key read back by name agrees with the field), and the mask bit of a field
     is its key's */
  CHECK_OK(ctx, sk_options_create(ctx, &o));
  size_t n = 0;
  const sk_option_spec *t = sk_stepper_options(&n);
  CHECK(n == SK__STEPPER_KEY_COUNT + SK__LINSOL_KEY_COUNT + SK__CVODE_KEY_COUNT +
                 SK__IDA_KEY_COUNT + SK__REFERENCE_KEY_COUNT);
  CHECK_OK(ctx, sk_options_register(o, t, n));
  CHECK(sk__stepper_keys_registered(o) && sk__linsol_keys_registered(o));
  CHECK(sk__cvode_keys_registered(o) && sk__ida_keys_registered(o));
  CHECK(sk__reference_keys_registered(o));
  CHECK_OK(ctx, sk_options_set_assignment(o, "solver.rtol=3e-7"));
  CHECK_OK(ctx, sk_options_set_assignment(o, "linsol.maxl=17"));
  CHECK_OK(ctx, sk_options_set_assignment(o, "linsol.preconditioner=jacobi"));
  CHECK_OK(ctx, sk_options_set_assignment(o, "solver.stop_time=2.5"));
  sk__stepper_settings st;
  CHECK_OK(ctx, sk__stepper_settings_read(o, &st, &given));
  CHECK(given ==
        ((UINT64_C(1) << SK__STEPPER_KEY_rtol) | (UINT64_C(1) << SK__STEPPER_KEY_stop_time)));
  CHECK(st.rtol == 3e-7 && st.stop_time == 2.5 && SK__STEPPER_GIVEN(given, stop_time));
  CHECK(!SK__STEPPER_GIVEN(given, atol) && st.atol == 1e-9); /* the table's default */
  sk__linsol_settings ls;
  CHECK_OK(ctx, sk__linsol_settings_read(o, &ls, &given));
  CHECK(given ==
        ((UINT64_C(1) << SK__LINSOL_KEY_maxl) | (UINT64_C(1) << SK__LINSOL_KEY_preconditioner)));
  CHECK(ls.maxl == 17 && !strcmp(ls.preconditioner, "jacobi") && !strcmp(ls.type, "auto"));
  CHECK(!strcmp(sk__stepper_key(SK__STEPPER_KEY_rtol), "solver.rtol"));
  CHECK(!strcmp(sk__linsol_key(SK__LINSOL_KEY_type), "linsol.type"));
  CHECK(!strcmp(sk__cvode_key(SK__CVODE_KEY_fast_vector_ops), "solver.fast_vector_ops"));
  CHECK(!strcmp(sk__ida_key(SK__IDA_KEY_suppress_alg), "solver.suppress_alg"));
  CHECK(!strcmp(sk__reference_key(SK__REFERENCE_KEY_allow_unstable), "solver.allow_unstable"));
  CHECK(!strcmp(sk__stepper_key(-1), "") && !strcmp(sk__stepper_key(SK__STEPPER_KEY_COUNT), ""));
  for (size_t k = 0; k < SK__STEPPER_KEY_COUNT; k++) { /* the row order is the index order */
    CHECK(!strcmp(sk__stepper_key((int)k), t[k].key));
  }
  for (size_t k = 0; k < SK__LINSOL_KEY_COUNT; k++) {
    CHECK(!strcmp(sk__linsol_key((int)k), t[SK__STEPPER_KEY_COUNT + k].key));
  }
  sk_options_destroy(&o);
  /* a database without the table */
  CHECK_OK(ctx, sk_options_create(ctx, &o));
  CHECK(!sk__stepper_keys_registered(o));
  CHECK(sk__stepper_settings_read(o, &st, &given) == SK_ERR_UNKNOWN_KEY);
  /* ... which the public readers take as "no solver.* key given" */
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_problem_create(ctx, "rober", &m));
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-5, 1e-8));
  CHECK_OK(ctx, sk_stepper_set_from_options(s, o));
  CHECK(sk_stepper_get_rtol(s) == 1e-5 && sk_stepper_get_atol(s) == 1e-8);
  CHECK_OK(ctx, sk_model_constraints_from_options(m, o));
  CHECK(sk_model_get_constraints(m) == NULL);
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
  sk_options_destroy(&o);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

/* tests/unit/test_options.c: options database: types, messages, precedence, help, echo */
#include <float.h>
#include <stdint.h>

#include "core/context_impl.h"
#include "test.h"

/* A small table in the shape the modules use. */
static const sk_option_spec spec[] = {
    {"solver.rtol", SK_OPT_REAL, "1e-6", 1e-14, 1.0, NULL, "relative tolerance"},
    {"solver.atol", SK_OPT_REAL, "1e-9", 0.0, 1e10, NULL, "absolute tolerance"},
    {"solver.max_steps", SK_OPT_INT, "500", 1.0, 1e9, NULL, "step budget"},
    {"linsol.type", SK_OPT_CHOICE, "klu", 0, 0, "klu|dense|spgmr", "linear solver"},
    {"linsol.reuse", SK_OPT_BOOL, "true", 0, 0, NULL, "reuse the factorization"},
    {"model.bc.x0.type", SK_OPT_CHOICE, "dirichlet", 0, 0, "dirichlet|neumann|robin",
     "left side"},
    {"model.bc.x0.value", SK_OPT_REAL, "0", -DBL_MAX, DBL_MAX, NULL, "left value"},
    {"model.weights", SK_OPT_REAL_LIST, "1,2", 0.0, 10.0, NULL, "weights"},
    {"model.ids", SK_OPT_INT_LIST, "", -5, 5, NULL, "ids"},
    {"model.t_stop", SK_OPT_REAL, "", 0, 0, NULL, "stop time (none by default)"},
    {"output.file", SK_OPT_STRING, "out.h5", 0, 0, NULL, "result file"},
    {"verbose", SK_OPT_BOOL, "no", 0, 0, NULL, "chatty output"},
};
#define NSPEC (sizeof spec / sizeof spec[0])

static const char *msg(sk_context *ctx)
{
  return sk_context_get_error(ctx)->message;
}

/* Expect `st` to be `code` and the message to equal `text` exactly. */
#define CHECK_ERR_EQ(ctx, st, code, text)                                                     \
  do {                                                                                        \
    CHECK_EQ_INT((st), (code));                                                               \
    if (strcmp(msg(ctx), (text)) != 0) {                                                      \
      fprintf(stderr, "%s:%d: message\n  got:      %s\n  expected: %s\n", __FILE__, __LINE__, \
              msg(ctx), (text));                                                              \
      sk_test_failures++;                                                                     \
    }                                                                                         \
  } while (0)

static sk_options *make(sk_context *ctx)
{
  sk_options *o = NULL;
  CHECK_OK(ctx, sk_options_create(ctx, &o));
  CHECK_OK(ctx, sk_options_register(o, spec, NSPEC));
  return o;
}

/* Read the whole of a stream written by a printer. */
static char *slurp(FILE *f)
{
  long n = ftell(f);
  rewind(f);
  char *s = calloc((size_t)n + 1, 1);
  if (s && n > 0 && fread(s, 1, (size_t)n, f) != (size_t)n) {
    s[0] = '\0';
  }
  return s;
}

static void test_lifecycle(sk_context *ctx)
{
  sk_options *o = NULL;
  CHECK_EQ_INT(sk_options_create(NULL, &o), SK_ERR_ARG);
  CHECK(o == NULL);
  CHECK_EQ_INT(sk_options_create(ctx, NULL), SK_ERR_ARG);
  sk_options_destroy(NULL);
  sk_options_destroy(&o);
  o = make(ctx);
  CHECK(sk_options_get_context(o) == ctx);
  CHECK(sk_options_is_key(o, "solver.rtol"));
  CHECK(!sk_options_is_key(o, "solver"));
  CHECK(sk_options_is_section(o, "solver"));
  CHECK(sk_options_is_section(o, "model.bc"));
  CHECK(sk_options_is_section(o, "model.bc.x0"));
  CHECK(!sk_options_is_section(o, "model.b"));
  CHECK(!sk_options_is_section(o, "solver.rtol"));
  CHECK(!sk_options_is_section(o, ""));
  sk_options_destroy(&o);
  CHECK(o == NULL);
}

static void test_register_errors(sk_context *ctx)
{
  sk_options *o = make(ctx);
  sk_status st = sk_options_register(o, spec, 1);
  CHECK_ERR_EQ(ctx, st, SK_ERR_ARG, "option table: duplicate key 'solver.rtol'");

  static const sk_option_spec bad_def[] = {
      {"a.fine", SK_OPT_REAL, "1", 0, 2, NULL, ""},
      {"a.rtol", SK_OPT_REAL, "-1", 1e-14, 1.0, NULL, ""},
  };
  st = sk_options_register(o, bad_def, 2);
  CHECK_ERR_EQ(ctx, st, SK_ERR_ARG,
               "option table: key 'a.rtol': default '-1' is invalid: expected a real number in "
               "[1e-14, 1], got '-1'");
  CHECK(!sk_options_is_key(o, "a.fine")); /* a failed table adds nothing */

  static const sk_option_spec dup_in_table[] = {
      {"b.x", SK_OPT_INT, "1", 0, 0, NULL, ""},
      {"b.x", SK_OPT_INT, "1", 0, 0, NULL, ""},
  };
  st = sk_options_register(o, dup_in_table, 2);
  CHECK_ERR_EQ(ctx, st, SK_ERR_ARG, "option table: duplicate key 'b.x'");
  CHECK(!sk_options_is_key(o, "b.x"));

  static const sk_option_spec bad_keys[] = {
      {"c..x", SK_OPT_INT, "", 0, 0, NULL, ""}, {".x", SK_OPT_INT, "", 0, 0, NULL, ""},
      {"x.", SK_OPT_INT, "", 0, 0, NULL, ""},   {"a b", SK_OPT_INT, "", 0, 0, NULL, ""},
      {"", SK_OPT_INT, "", 0, 0, NULL, ""},
  };
  for (size_t i = 0; i < sizeof bad_keys / sizeof bad_keys[0]; i++) {
    st = sk_options_register(o, &bad_keys[i], 1);
    CHECK_EQ_INT(st, SK_ERR_ARG);
    CHECK_STR_CONTAINS(msg(ctx), "option table: invalid key");
  }
  static const sk_option_spec bad_choice[] = {{"c.x", SK_OPT_CHOICE, "", 0, 0, "a||b", ""}};
  CHECK_EQ_INT(sk_options_register(o, bad_choice, 1), SK_ERR_ARG);
  static const sk_option_spec bad_range[] = {{"c.x", SK_OPT_REAL, "", 2, 1, NULL, ""}};
  CHECK_EQ_INT(sk_options_register(o, bad_range, 1), SK_ERR_ARG);
  static const sk_option_spec bad_list_def[] = {{"c.x", SK_OPT_INT_LIST, "1,x", 0, 0, NULL, ""}};
  st = sk_options_register(o, bad_list_def, 1);
  CHECK_EQ_INT(st, SK_ERR_ARG);
  CHECK_STR_CONTAINS(msg(ctx), "item 2 of 2: expected an integer, got 'x'");
  CHECK_OK(ctx, sk_options_register(o, NULL, 0));
  sk_options_destroy(&o);
}

static void test_defaults(sk_context *ctx)
{
  sk_options *o = make(ctx);
  double r = 0;
  int64_t k = 0;
  int b = -1;
  const char *s = NULL;
  const double *rl = NULL;
  const int64_t *il = NULL;
  size_t n = 99;
  CHECK_OK(ctx, sk_options_get_real(o, "solver.rtol", &r));
  CHECK(r == 1e-6);
  CHECK_OK(ctx, sk_options_get_int(o, "solver.max_steps", &k));
  CHECK_EQ_INT(k, 500);
  CHECK_OK(ctx, sk_options_get_bool(o, "linsol.reuse", &b));
  CHECK_EQ_INT(b, 1);
  CHECK_OK(ctx, sk_options_get_string(o, "linsol.type", &s));
  CHECK(s && strcmp(s, "klu") == 0);
  CHECK_OK(ctx, sk_options_get_string(o, "output.file", &s));
  CHECK(s && strcmp(s, "out.h5") == 0);
  CHECK_OK(ctx, sk_options_get_real_list(o, "model.weights", &rl, &n));
  CHECK_EQ_INT(n, 2);
  CHECK(rl && rl[0] == 1.0 && rl[1] == 2.0);
  CHECK_OK(ctx, sk_options_get_int_list(o, "model.ids", &il, &n));
  CHECK_EQ_INT(n, 0);
  CHECK(il == NULL);
  /* no default: the caller's value stays */
  r = 42.0;
  CHECK_OK(ctx, sk_options_get_real(o, "model.t_stop", &r));
  CHECK(r == 42.0);
  CHECK(!sk_options_is_set(o, "solver.rtol"));
  CHECK(!sk_options_is_set(o, "model.t_stop"));
  CHECK(!sk_options_is_set(o, "no.such"));

  /* getter errors */
  CHECK_EQ_INT(sk_options_get_int(o, "solver.rtol", &k), SK_ERR_ARG);
  CHECK_STR_CONTAINS(msg(ctx), "key 'solver.rtol' holds a real number, not an integer");
  CHECK_EQ_INT(sk_options_get_real(o, "solver.rtoll", &r), SK_ERR_UNKNOWN_KEY);
  CHECK_STR_CONTAINS(msg(ctx), "unknown key 'solver.rtoll'");
  CHECK_EQ_INT(sk_options_get_string(o, "solver.rtol", &s), SK_ERR_ARG);
  CHECK_EQ_INT(sk_options_get_real_list(o, "model.ids", &rl, &n), SK_ERR_ARG);
  CHECK_EQ_INT(sk_options_get_bool(o, "solver", &b), SK_ERR_UNKNOWN_KEY);
  sk_options_destroy(&o);
}

static void test_real_parsing(sk_context *ctx)
{
  sk_options *o = make(ctx);
  sk_option_origin file = {"cfg.yaml", 4, 9, 0};
  double r = 0;
  sk_status st = sk_options_set(o, "solver.rtol", "-1", &file);
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "cfg.yaml:4:9: solver.rtol: expected a real number in [1e-14, 1], got '-1'");
  st = sk_options_set(o, "solver.rtol", "-1", NULL);
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "--set: solver.rtol: expected a real number in [1e-14, 1], got '-1'");
  st = sk_options_set(o, "solver.rtol", "1e999", NULL);
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "--set: solver.rtol: expected a real number in [1e-14, 1], got '1e999' "
               "(out of range)");
  st = sk_options_set(o, "model.bc.x0.value", "-1e999", NULL);
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "--set: model.bc.x0.value: expected a real number in [-inf, inf], got '-1e999' "
               "(out of range)");
  st = sk_options_set(o, "model.t_stop", "1e-400", NULL);
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "--set: model.t_stop: expected a real number, got '1e-400' (out of range)");
  static const char *const rejected[] = {"1.5x", "",         "  ",     "nan", "NaN", "inf",
                                         "-inf", "infinity", "0x1p-3", "1e",  "1,5", ".inf",
                                         "1_0",  "e5",       "--1",    "1 2"};
  for (size_t i = 0; i < sizeof rejected / sizeof rejected[0]; i++) {
    st = sk_options_set(o, "model.t_stop", rejected[i], NULL);
    CHECK_EQ_INT(st, SK_ERR_INPUT);
    CHECK_STR_CONTAINS(msg(ctx), "--set: model.t_stop: expected a real number, got '");
  }
  CHECK(!sk_options_is_set(o, "model.t_stop")); /* failed sets change nothing */
  static const struct {
    const char *text;
    double v;
  } accepted[] = {{"1e-3", 1e-3}, {"  2.5\t", 2.5}, {"+3", 3.0}, {"-0.125", -0.125},
                  {".5", 0.5},    {"1E2", 100.0},   {"7.", 7.0}, {"1e308", 1e308}};
  for (size_t i = 0; i < sizeof accepted / sizeof accepted[0]; i++) {
    CHECK_OK(ctx, sk_options_set(o, "model.t_stop", accepted[i].text, NULL));
    CHECK_OK(ctx, sk_options_get_real(o, "model.t_stop", &r));
    CHECK(r == accepted[i].v);
  }
  /* range ends are inclusive */
  CHECK_OK(ctx, sk_options_set(o, "solver.rtol", "1e-14", NULL));
  CHECK_OK(ctx, sk_options_set(o, "solver.rtol", "1", NULL));
  CHECK_EQ_INT(sk_options_set(o, "solver.rtol", "1.0000001", NULL), SK_ERR_INPUT);
  CHECK_EQ_INT(sk_options_set(o, "solver.rtol", "9e-15", NULL), SK_ERR_INPUT);
  sk_options_destroy(&o);
}

static void test_int_bool_choice_string(sk_context *ctx)
{
  sk_options *o = make(ctx);
  int64_t k = 0;
  int b = 0;
  const char *s = NULL;
  sk_status st = sk_options_set(o, "solver.max_steps", "0", NULL);
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "--set: solver.max_steps: expected an integer in [1, 1000000000], got '0'");
  static const char *const rejected[] = {"0x10", "1e6",        "1.0", "12a", "",
                                         "- 1",  "1000000001", "ten", "0b1"};
  for (size_t i = 0; i < sizeof rejected / sizeof rejected[0]; i++) {
    st = sk_options_set(o, "solver.max_steps", rejected[i], NULL);
    CHECK_EQ_INT(st, SK_ERR_INPUT);
    CHECK_STR_CONTAINS(msg(ctx), "expected an integer in [1, 1000000000], got '");
  }
  st = sk_options_set(o, "solver.max_steps", "9223372036854775808", NULL);
  CHECK_EQ_INT(st, SK_ERR_INPUT);
  CHECK_STR_CONTAINS(msg(ctx), "got '9223372036854775808' (out of range)");
  CHECK_OK(ctx, sk_options_set(o, "solver.max_steps", " +1000000000 ", NULL));
  CHECK_OK(ctx, sk_options_get_int(o, "solver.max_steps", &k));
  CHECK_EQ_INT(k, 1000000000);
  CHECK_OK(ctx, sk_options_set(o, "solver.max_steps", "010", NULL)); /* decimal */
  CHECK_OK(ctx, sk_options_get_int(o, "solver.max_steps", &k));
  CHECK_EQ_INT(k, 10);

  static const char *const yes[] = {"true", "yes", "on", "1", "TRUE", "Yes", " On "};
  static const char *const no[] = {"false", "no", "off", "0", "False", "NO", "oFF"};
  for (size_t i = 0; i < 7; i++) {
    CHECK_OK(ctx, sk_options_set(o, "verbose", yes[i], NULL));
    CHECK_OK(ctx, sk_options_get_bool(o, "verbose", &b));
    CHECK_EQ_INT(b, 1);
    CHECK_OK(ctx, sk_options_set(o, "verbose", no[i], NULL));
    CHECK_OK(ctx, sk_options_get_bool(o, "verbose", &b));
    CHECK_EQ_INT(b, 0);
  }
  st = sk_options_set(o, "verbose", "maybe", NULL);
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "--set: verbose: expected a boolean (true/false, yes/no, on/off, 1/0), got "
               "'maybe'");
  CHECK_EQ_INT(sk_options_set(o, "verbose", "2", NULL), SK_ERR_INPUT);
  CHECK_EQ_INT(sk_options_set(o, "verbose", "y", NULL), SK_ERR_INPUT);

  st = sk_options_set(o, "linsol.type", "superlu", NULL);
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "--set: linsol.type: expected one of klu|dense|spgmr, got 'superlu'");
  CHECK_EQ_INT(sk_options_set(o, "linsol.type", "kl", NULL), SK_ERR_INPUT);
  CHECK_EQ_INT(sk_options_set(o, "linsol.type", "", NULL), SK_ERR_INPUT);
  CHECK_OK(ctx, sk_options_set(o, "linsol.type", "DENSE", NULL));
  CHECK_OK(ctx, sk_options_get_string(o, "linsol.type", &s));
  CHECK(strcmp(s, "dense") == 0); /* the table's spelling */
  CHECK_OK(ctx, sk_options_set(o, "linsol.type", "spgmr", NULL));
  CHECK_OK(ctx, sk_options_get_string(o, "linsol.type", &s));
  CHECK(strcmp(s, "spgmr") == 0);

  CHECK_OK(ctx, sk_options_set(o, "output.file", "  spaced name.h5 ", NULL));
  CHECK_OK(ctx, sk_options_get_string(o, "output.file", &s));
  CHECK(strcmp(s, "  spaced name.h5 ") == 0); /* strings are kept verbatim */
  CHECK_OK(ctx, sk_options_set(o, "output.file", "", NULL));
  CHECK_OK(ctx, sk_options_get_string(o, "output.file", &s));
  CHECK(strcmp(s, "") == 0);
  sk_options_destroy(&o);
}

static void test_unknown_keys(sk_context *ctx)
{
  sk_options *o = make(ctx);
  sk_option_origin file = {"cfg.yaml", 3, 5, 0};
  sk_status st = sk_options_set(o, "solver.rtoll", "1", &file);
  CHECK_ERR_EQ(ctx, st, SK_ERR_UNKNOWN_KEY,
               "cfg.yaml:3:5: unknown key 'solver.rtoll'; did you mean 'solver.rtol'? valid keys "
               "in 'solver': rtol, atol, max_steps");
  st = sk_options_set(o, "solver.rtoll", "1", NULL);
  CHECK_ERR_EQ(ctx, st, SK_ERR_UNKNOWN_KEY,
               "--set: unknown key 'solver.rtoll'; did you mean 'solver.rtol'? valid keys in "
               "'solver': rtol, atol, max_steps");
  /* too far for a suggestion */
  st = sk_options_set(o, "solver.zzzzzzzzzz", "1", NULL);
  CHECK_ERR_EQ(ctx, st, SK_ERR_UNKNOWN_KEY,
               "--set: unknown key 'solver.zzzzzzzzzz'; valid keys in 'solver': rtol, atol, "
               "max_steps");
  /* the prefix is not a section: the top level */
  st = sk_options_set(o, "solvr.rtol", "1", NULL);
  CHECK_ERR_EQ(ctx, st, SK_ERR_UNKNOWN_KEY,
               "--set: unknown key 'solvr.rtol'; did you mean 'solver.rtol'? valid sections: "
               "solver, linsol, model, output; valid top-level keys: verbose");
  st = sk_options_set(o, "verbos", "1", NULL);
  CHECK_ERR_EQ(ctx, st, SK_ERR_UNKNOWN_KEY,
               "--set: unknown key 'verbos'; did you mean 'verbose'? valid sections: solver, "
               "linsol, model, output; valid top-level keys: verbose");
  /* a section name is suggested when it is closer than any key */
  st = sk_options_set(o, "solverr", "1", NULL);
  CHECK_EQ_INT(st, SK_ERR_UNKNOWN_KEY);
  CHECK_STR_CONTAINS(msg(ctx), "unknown key 'solverr'; did you mean 'solver'?");
  /* nested sections: the nearest enclosing one */
  st = sk_options_set(o, "model.bc.x0.typo", "1", NULL);
  CHECK_ERR_EQ(ctx, st, SK_ERR_UNKNOWN_KEY,
               "--set: unknown key 'model.bc.x0.typo'; did you mean 'model.bc.x0.type'? valid "
               "keys in 'model.bc.x0': type, value");
  st = sk_options_set(o, "model.bcc.x0.type", "1", NULL);
  CHECK_ERR_EQ(ctx, st, SK_ERR_UNKNOWN_KEY,
               "--set: unknown key 'model.bcc.x0.type'; did you mean 'model.bc.x0.type'? valid "
               "keys in 'model': bc.x0.type, bc.x0.value, weights, ids, t_stop");
  /* distance limit max(2, len/3): 'linsol.tpye' (len 11) is 2 edits away */
  st = sk_options_set(o, "linsol.tpye", "klu", NULL);
  CHECK_STR_CONTAINS(msg(ctx), "did you mean 'linsol.type'?");
  st = sk_options_set(o, "ab", "1", NULL);
  CHECK_EQ_INT(st, SK_ERR_UNKNOWN_KEY);
  CHECK(strstr(msg(ctx), "did you mean") == NULL);
  /* a value given to a section */
  st = sk_options_set(o, "solver", "3", NULL);
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "--set: solver: is a section, not a key (its keys: rtol, atol, max_steps); got "
               "'3'");
  /* an empty database */
  sk_options *empty = NULL;
  CHECK_OK(ctx, sk_options_create(ctx, &empty));
  st = sk_options_set(empty, "a.b", "1", NULL);
  CHECK_ERR_EQ(ctx, st, SK_ERR_UNKNOWN_KEY, "--set: unknown key 'a.b'; no keys are registered");
  sk_options_destroy(&empty);
  sk_options_destroy(&o);
}

static void test_lists(sk_context *ctx)
{
  sk_options *o = make(ctx);
  const double *rl = NULL;
  const int64_t *il = NULL;
  size_t n = 0;
  CHECK_OK(ctx, sk_options_set(o, "model.weights", "[0.5, 1, 2.5]", NULL));
  CHECK_OK(ctx, sk_options_get_real_list(o, "model.weights", &rl, &n));
  CHECK_EQ_INT(n, 3);
  CHECK(rl[0] == 0.5 && rl[1] == 1.0 && rl[2] == 2.5);
  CHECK_OK(ctx, sk_options_set(o, "model.weights", "3,4", NULL));
  CHECK_OK(ctx, sk_options_get_real_list(o, "model.weights", &rl, &n));
  CHECK_EQ_INT(n, 2);
  CHECK(rl[0] == 3.0 && rl[1] == 4.0);
  CHECK_OK(ctx, sk_options_set(o, "model.weights", " [ ] ", NULL));
  CHECK_OK(ctx, sk_options_get_real_list(o, "model.weights", &rl, &n));
  CHECK_EQ_INT(n, 0);
  CHECK_OK(ctx, sk_options_set(o, "model.weights", "", NULL));
  CHECK_OK(ctx, sk_options_set(o, "model.weights", "7", NULL));
  CHECK_OK(ctx, sk_options_get_real_list(o, "model.weights", &rl, &n));
  CHECK_EQ_INT(n, 1);
  CHECK(rl[0] == 7.0);

  sk_status st = sk_options_set(o, "model.weights", "1,,2", NULL);
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "--set: model.weights: item 2 of 3: expected a real number in [0, 10], got ''");
  st = sk_options_set(o, "model.weights", "[1, 11]", NULL);
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "--set: model.weights: item 2 of 2: expected a real number in [0, 10], got '11'");
  st = sk_options_set(o, "model.weights", "[1, 2", NULL);
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "--set: model.weights: expected a list of real numbers in [0, 10] (\"1,2,3\" or "
               "\"[1, 2, 3]\"), got '[1, 2'");
  CHECK_EQ_INT(sk_options_set(o, "model.weights", "1,2,", NULL), SK_ERR_INPUT);
  CHECK_EQ_INT(sk_options_set(o, "model.weights", "1 2", NULL), SK_ERR_INPUT);
  CHECK_EQ_INT(sk_options_set(o, "model.weights", "[[1]]", NULL), SK_ERR_INPUT);
  CHECK_OK(ctx, sk_options_get_real_list(o, "model.weights", &rl, &n));
  CHECK_EQ_INT(n, 1); /* unchanged by the failures */

  CHECK_OK(ctx, sk_options_set(o, "model.ids", "-5, 0, 5", NULL));
  CHECK_OK(ctx, sk_options_get_int_list(o, "model.ids", &il, &n));
  CHECK_EQ_INT(n, 3);
  CHECK(il[0] == -5 && il[1] == 0 && il[2] == 5);
  st = sk_options_set(o, "model.ids", "1, 0x2", NULL);
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "--set: model.ids: item 2 of 2: expected an integer in [-5, 5], got '0x2'");

  static const char *const items[] = {"1", " 2 ", "3"};
  CHECK_OK(ctx, sk_options_set_list(o, "model.ids", items, 3, NULL));
  CHECK_OK(ctx, sk_options_get_int_list(o, "model.ids", &il, &n));
  CHECK_EQ_INT(n, 3);
  CHECK(il[0] == 1 && il[1] == 2 && il[2] == 3);
  CHECK_OK(ctx, sk_options_set_list(o, "model.ids", NULL, 0, NULL));
  CHECK_OK(ctx, sk_options_get_int_list(o, "model.ids", &il, &n));
  CHECK_EQ_INT(n, 0);
  static const char *const bad[] = {"1", "6"};
  st = sk_options_set_list(o, "model.ids", bad, 2, NULL);
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "--set: model.ids: item 2 of 2: expected an integer in [-5, 5], got '6'");
  sk_option_origin file = {"cfg.yaml", 2, 9, 0};
  st = sk_options_set_list(o, "solver.rtol", items, 3, &file);
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "cfg.yaml:2:9: solver.rtol: expected a real number in [1e-14, 1], got a list");
  st = sk_options_set_list(o, "solver.rtoll", items, 3, &file);
  CHECK_EQ_INT(st, SK_ERR_UNKNOWN_KEY);
  st = sk_options_set_list(o, "model", items, 3, &file);
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "cfg.yaml:2:9: model: is a section, not a key (its keys: bc.x0.type, bc.x0.value, "
               "weights, ids, t_stop); got a list");
  sk_options_destroy(&o);
}

static void test_assignment_and_precedence(sk_context *ctx)
{
  sk_options *o = make(ctx);
  double r = 0;
  const double *rl = NULL;
  size_t n = 0;
  CHECK_OK(ctx, sk_options_get_real(o, "solver.rtol", &r));
  CHECK(r == 1e-6); /* default */
  sk_option_origin file = {"cfg.yaml", 2, 9, 0};
  CHECK_OK(ctx, sk_options_set(o, "solver.rtol", "1e-8", &file));
  CHECK_OK(ctx, sk_options_get_real(o, "solver.rtol", &r));
  CHECK(r == 1e-8); /* file over default */
  CHECK(sk_options_is_set(o, "solver.rtol"));
  CHECK_OK(ctx, sk_options_set_assignment(o, "solver.rtol=1e-10"));
  CHECK_OK(ctx, sk_options_get_real(o, "solver.rtol", &r));
  CHECK(r == 1e-10); /* command line over file */
  CHECK_OK(ctx, sk_options_set_assignment(o, "  solver.atol =  2e-9 "));
  CHECK_OK(ctx, sk_options_get_real(o, "solver.atol", &r));
  CHECK(r == 2e-9);
  CHECK_OK(ctx, sk_options_set_assignment(o, "model.weights=[1, 2, 3]"));
  CHECK_OK(ctx, sk_options_get_real_list(o, "model.weights", &rl, &n));
  CHECK_EQ_INT(n, 3);
  CHECK_OK(ctx, sk_options_set_assignment(o, "model.weights=4,5"));
  CHECK_OK(ctx, sk_options_get_real_list(o, "model.weights", &rl, &n));
  CHECK(n == 2 && rl[0] == 4.0 && rl[1] == 5.0);
  CHECK_OK(ctx, sk_options_set_assignment(o, "output.file=a=b.h5")); /* first '=' splits */
  const char *s = NULL;
  CHECK_OK(ctx, sk_options_get_string(o, "output.file", &s));
  CHECK(strcmp(s, "a=b.h5") == 0);
  sk_status st = sk_options_set_assignment(o, "solver.rtol");
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT, "--set: expected key=value, got 'solver.rtol'");
  st = sk_options_set_assignment(o, " =1");
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT, "--set: expected key=value, got ' =1'");
  st = sk_options_set_assignment(o, "solver.rtoll=1");
  CHECK_EQ_INT(st, SK_ERR_UNKNOWN_KEY);
  CHECK_STR_CONTAINS(msg(ctx), "--set: unknown key 'solver.rtoll'; did you mean 'solver.rtol'?");
  CHECK_EQ_INT(sk_options_set_assignment(o, NULL), SK_ERR_ARG);
  CHECK_EQ_INT(sk_options_set(o, NULL, "1", NULL), SK_ERR_ARG);
  CHECK_EQ_INT(sk_options_set(o, "solver.rtol", NULL, NULL), SK_ERR_ARG);
  CHECK_EQ_INT(sk_options_set(NULL, "solver.rtol", "1", NULL), SK_ERR_ARG);
  sk_options_destroy(&o);
}

static void test_help_and_echo(sk_context *ctx)
{
  sk_options *o = make(ctx);
  sk_option_origin file = {"cfg.yaml", 3, 9, 0};
  CHECK_OK(ctx, sk_options_set(o, "solver.atol", "1e-12", &file));
  CHECK_OK(ctx, sk_options_set_assignment(o, "solver.max_steps=1000"));

  FILE *f = tmpfile();
  CHECK(f != NULL);
  if (f) {
    sk_options_print_help(o, f);
    char *h = slurp(f);
    fclose(f);
    CHECK_STR_CONTAINS(h, "solver.rtol  (real in [1e-14, 1], default 1e-6)  relative "
                          "tolerance\n");
    CHECK_STR_CONTAINS(h, "solver.atol  (real in [0, 1e+10], default 1e-9)  absolute "
                          "tolerance\n    current: 1e-12 (cfg.yaml:3:9)\n");
    CHECK_STR_CONTAINS(h, "solver.max_steps  (integer in [1, 1000000000], default 500)  step "
                          "budget\n    current: 1000 (--set)\n");
    CHECK_STR_CONTAINS(h, "linsol.type  (one of klu|dense|spgmr, default klu)  linear solver\n");
    CHECK_STR_CONTAINS(h, "linsol.reuse  (bool, default true)");
    CHECK_STR_CONTAINS(h, "model.weights  (list of reals in [0, 10], default 1,2)  weights\n");
    CHECK_STR_CONTAINS(h, "model.ids  (list of integers in [-5, 5], default [])  ids\n");
    CHECK_STR_CONTAINS(h, "model.t_stop  (real, no default)  stop time");
    CHECK_STR_CONTAINS(h, "model.bc.x0.value  (real in [-inf, inf], default 0)");
    CHECK_STR_CONTAINS(h, "output.file  (string, default out.h5)  result file\n");
    CHECK(strstr(h, "solver.rtol  (real in [1e-14, 1], default 1e-6)  relative tolerance\n"
                    "    current") == NULL);
    free(h);
  }

  CHECK_OK(ctx, sk_options_set(o, "output.file", "run: 1 # \"x\"", NULL));
  CHECK_OK(ctx, sk_options_set(o, "model.ids", "[-1, 2]", NULL));
  char *e = sk_options_effective_string(o);
  static const char expected[] = "solver.rtol: 1e-06\n"
                                 "solver.atol: 1e-12\n"
                                 "solver.max_steps: 1000\n"
                                 "linsol.type: klu\n"
                                 "linsol.reuse: true\n"
                                 "model.bc.x0.type: dirichlet\n"
                                 "model.bc.x0.value: 0\n"
                                 "model.weights: [1, 2]\n"
                                 "model.ids: [-1, 2]\n"
                                 "# model.t_stop: (not set)\n"
                                 "output.file: \"run: 1 # \\\"x\\\"\"\n"
                                 "verbose: false\n";
  CHECK(e != NULL);
  if (e && strcmp(e, expected) != 0) {
    fprintf(stderr, "effective options:\n%s\nexpected:\n%s\n", e, expected);
    sk_test_failures++;
  }
  f = tmpfile();
  CHECK(f != NULL);
  if (f && e) {
    sk_options_write_effective(o, f);
    char *w = slurp(f);
    CHECK(w && strcmp(w, e) == 0);
    free(w);
  }
  if (f) {
    fclose(f);
  }
  free(e);

  /* shortest round-trip real text */
  CHECK_OK(ctx, sk_options_set(o, "model.t_stop", "0.1", NULL));
  CHECK_OK(ctx, sk_options_set(o, "model.bc.x0.value", "0.33333333333333331", NULL));
  e = sk_options_effective_string(o);
  CHECK_STR_CONTAINS(e, "model.t_stop: 0.1\n");
  CHECK_STR_CONTAINS(e, "model.bc.x0.value: 0.3333333333333333\n");
  free(e);
  CHECK(sk_options_effective_string(NULL) == NULL);
  sk_options_destroy(&o);
}

/* Every allocation may fail: the call reports SK_ERR_NOMEM and nothing leaks. */
static void test_alloc_failures(sk_context *ctx)
{
  int completed = 0;
  for (long k = 1; k < 200 && !completed; k++) {
    ctx->alloc_fail_at = k;
    ctx->alloc_count = 0;
    sk_options *o = NULL;
    sk_status st = sk_options_create(ctx, &o);
    if (st == SK_OK) {
      st = sk_options_register(o, spec, NSPEC);
    }
    if (st == SK_OK) {
      sk_option_origin file = {"cfg.yaml", 1, 1, 0};
      st = sk_options_set(o, "output.file", "x.h5", &file);
    }
    if (st == SK_OK) {
      st = sk_options_set(o, "model.weights", "1,2,3", NULL);
    }
    if (st == SK_OK) {
      st = sk_options_set_assignment(o, "solver.rtol=1e-7");
    }
    if (st == SK_OK) {
      char *e = sk_options_effective_string(o);
      st = e ? SK_OK : SK_ERR_NOMEM;
      free(e);
    }
    if (st == SK_OK) {
      completed = 1;
    } else {
      CHECK_EQ_INT(st, SK_ERR_NOMEM);
    }
    CHECK(st != SK_OK || o != NULL);
    sk_options_destroy(&o);
  }
  ctx->alloc_fail_at = 0;
  CHECK(completed);
}

int main(void)
{
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK) {
    return 1;
  }
  test_lifecycle(ctx);
  test_register_errors(ctx);
  test_defaults(ctx);
  test_real_parsing(ctx);
  test_int_bool_choice_string(ctx);
  test_unknown_keys(ctx);
  test_lists(ctx);
  test_assignment_and_precedence(ctx);
  test_help_and_echo(ctx);
  test_alloc_failures(ctx);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

/* tests/unit/test_config.c: YAML loader: nesting, dotted keys, located errors, round trip */
#include <float.h>
#include <stdint.h>
#include <stdio.h>

#include "core/context_impl.h"
#include "test.h"

#ifndef SK_TEST_DATA_DIR
#define SK_TEST_DATA_DIR "tests/unit/data"
#endif

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
    {"model.t_stop", SK_OPT_REAL, "", 0, 0, NULL, "stop time"},
    {"output.file", SK_OPT_STRING, "out.h5", 0, 0, NULL, "result file"},
    {"verbose", SK_OPT_BOOL, "no", 0, 0, NULL, "chatty output"},
};
#define NSPEC (sizeof spec / sizeof spec[0])

#define TMP_YAML "test_config_tmp.yaml"
#define ECHO_YAML "test_config_echo.yaml"

static const char *msg(sk_context *ctx)
{
  return sk_context_get_error(ctx)->message;
}

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

/* Load YAML text as if it were the file "cfg.yaml". */
static sk_status load(sk_options *o, const char *text)
{
  return sk_config_load_buffer(o, "cfg.yaml", text, strlen(text));
}

/* Load `text` into a fresh database; return the status (message stays in ctx). */
static sk_status load_fresh(sk_context *ctx, const char *text)
{
  sk_options *o = make(ctx);
  sk_status st = load(o, text);
  sk_options_destroy(&o);
  return st;
}

static int write_file(const char *path, const char *text, size_t n)
{
  FILE *f = fopen(path, "wb");
  if (!f) {
    return 0;
  }
  int ok = fwrite(text, 1, n, f) == n;
  return fclose(f) == 0 && ok;
}

static void test_nested_and_dotted(sk_context *ctx)
{
  sk_options *o = make(ctx);
  const char *cfg = "# a comment\n"
                    "solver:\n"
                    "  rtol: 1e-8\n"
                    "  atol: \"1e-10\"\n"
                    "model:\n"
                    "  bc:\n"
                    "    x0: {type: neumann, value: -2.5}\n"
                    "  weights: [1, 2, 3]\n"
                    "  ids:\n"
                    "    - -1\n"
                    "    - 4\n"
                    "verbose: yes\n";
  CHECK_OK(ctx, load(o, cfg));
  double r = 0;
  const char *s = NULL;
  const double *rl = NULL;
  const int64_t *il = NULL;
  size_t n = 0;
  int b = 0;
  CHECK_OK(ctx, sk_options_get_real(o, "solver.rtol", &r));
  CHECK(r == 1e-8);
  CHECK_OK(ctx, sk_options_get_real(o, "solver.atol", &r));
  CHECK(r == 1e-10);
  CHECK_OK(ctx, sk_options_get_string(o, "model.bc.x0.type", &s));
  CHECK(strcmp(s, "neumann") == 0);
  CHECK_OK(ctx, sk_options_get_real(o, "model.bc.x0.value", &r));
  CHECK(r == -2.5);
  CHECK_OK(ctx, sk_options_get_real_list(o, "model.weights", &rl, &n));
  CHECK(n == 3 && rl[0] == 1.0 && rl[1] == 2.0 && rl[2] == 3.0);
  CHECK_OK(ctx, sk_options_get_int_list(o, "model.ids", &il, &n));
  CHECK(n == 2 && il[0] == -1 && il[1] == 4);
  CHECK_OK(ctx, sk_options_get_bool(o, "verbose", &b));
  CHECK_EQ_INT(b, 1);
  CHECK(sk_options_is_set(o, "solver.rtol"));
  CHECK(!sk_options_is_set(o, "solver.max_steps"));
  CHECK(!sk_options_is_set(o, "linsol.type"));

  /* origins: the value's position */
  FILE *f = tmpfile();
  if (f) {
    sk_options_print_help(o, f);
    long len = ftell(f);
    rewind(f);
    char *h = calloc((size_t)len + 1, 1);
    if (h && fread(h, 1, (size_t)len, f) == (size_t)len) {
      CHECK_STR_CONTAINS(h, "    current: 1e-08 (cfg.yaml:3:9)\n");
      CHECK_STR_CONTAINS(h, "    current: neumann (cfg.yaml:7:16)\n");
      CHECK_STR_CONTAINS(h, "    current: [-1, 4] (cfg.yaml:10:5)\n");
    }
    free(h);
    fclose(f);
  }
  sk_options_destroy(&o);

  /* dotted keys at any level, mixed with nesting */
  o = make(ctx);
  CHECK_OK(ctx, load(o, "solver.rtol: 1e-7\n"
                        "model:\n"
                        "  bc.x0.type: robin\n"
                        "  bc: {x0.value: 3}\n"
                        "model.weights: []\n"
                        "output.file: 'a b.h5'\n"));
  CHECK_OK(ctx, sk_options_get_real(o, "solver.rtol", &r));
  CHECK(r == 1e-7);
  CHECK_OK(ctx, sk_options_get_string(o, "model.bc.x0.type", &s));
  CHECK(strcmp(s, "robin") == 0);
  CHECK_OK(ctx, sk_options_get_real(o, "model.bc.x0.value", &r));
  CHECK(r == 3.0);
  CHECK_OK(ctx, sk_options_get_real_list(o, "model.weights", &rl, &n));
  CHECK_EQ_INT(n, 0);
  CHECK_OK(ctx, sk_options_get_string(o, "output.file", &s));
  CHECK(strcmp(s, "a b.h5") == 0);
  sk_options_destroy(&o);

  /* list keys also take a scalar: one item or "a, b" text */
  o = make(ctx);
  CHECK_OK(ctx, load(o, "model: {weights: 4, ids: '1, 2, 3'}\n"));
  CHECK_OK(ctx, sk_options_get_real_list(o, "model.weights", &rl, &n));
  CHECK(n == 1 && rl[0] == 4.0);
  CHECK_OK(ctx, sk_options_get_int_list(o, "model.ids", &il, &n));
  CHECK(n == 3 && il[2] == 3);
  /* an empty value is an empty string for string keys, an error for reals */
  CHECK_OK(ctx, load(o, "output.file:\n"));
  CHECK_OK(ctx, sk_options_get_string(o, "output.file", &s));
  CHECK(strcmp(s, "") == 0);
  sk_status st = load(o, "solver:\n  rtol:\n");
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "cfg.yaml:2:8: solver.rtol: expected a real number in [1e-14, 1], got ''");
  sk_options_destroy(&o);
}

static void test_empty_inputs(sk_context *ctx)
{
  static const char *const empty[] = {"",       "\n\n", "# only a comment\n", "---\n", "--- ~\n",
                                      "null\n", "{}\n", "---\n...\n"};
  for (size_t i = 0; i < sizeof empty / sizeof empty[0]; i++) {
    sk_options *o = make(ctx);
    CHECK_OK(ctx, load(o, empty[i]));
    for (size_t k = 0; k < NSPEC; k++) {
      CHECK(!sk_options_is_set(o, spec[k].key));
    }
    sk_options_destroy(&o);
  }
  /* a database with no keys accepts an empty file too */
  sk_options *none = NULL;
  CHECK_OK(ctx, sk_options_create(ctx, &none));
  CHECK_OK(ctx, sk_config_load_buffer(none, "empty.yaml", NULL, 0));
  sk_options_destroy(&none);
}

static void test_key_errors(sk_context *ctx)
{
  sk_status st = load_fresh(ctx, "solver:\n    rtol: 1e-6\n    rtoll: 1e-6\n");
  CHECK_ERR_EQ(ctx, st, SK_ERR_UNKNOWN_KEY,
               "cfg.yaml:3:5: unknown key 'solver.rtoll'; did you mean 'solver.rtol'? valid keys "
               "in 'solver': rtol, atol, max_steps");
  st = load_fresh(ctx, "solvr:\n  rtol: 1\n");
  CHECK_ERR_EQ(ctx, st, SK_ERR_UNKNOWN_KEY,
               "cfg.yaml:2:3: unknown key 'solvr.rtol'; did you mean 'solver.rtol'? valid "
               "sections: solver, linsol, model, output; valid top-level keys: verbose");
  st = load_fresh(ctx, "verbose: no\nsolverr: {}\n");
  CHECK_EQ_INT(st, SK_ERR_UNKNOWN_KEY);
  CHECK_STR_CONTAINS(msg(ctx), "cfg.yaml:2:1: unknown key 'solverr'; did you mean 'solver'?");
  st = load_fresh(ctx, "model:\n  bc:\n    x0:\n      tpye: robin\n");
  CHECK_ERR_EQ(ctx, st, SK_ERR_UNKNOWN_KEY,
               "cfg.yaml:4:7: unknown key 'model.bc.x0.tpye'; did you mean 'model.bc.x0.type'? "
               "valid keys in 'model.bc.x0': type, value");
  st = load_fresh(ctx, "model: {bc: {x1: {type: robin}}}\n");
  CHECK_EQ_INT(st, SK_ERR_UNKNOWN_KEY);
  CHECK_STR_CONTAINS(msg(ctx), "cfg.yaml:1:19: unknown key 'model.bc.x1.type'");
  CHECK_STR_CONTAINS(msg(ctx), "valid keys in 'model.bc': x0.type, x0.value");
  st = load_fresh(ctx, "solver.rtol.x: 1\n");
  CHECK_EQ_INT(st, SK_ERR_UNKNOWN_KEY);
  CHECK_STR_CONTAINS(msg(ctx), "cfg.yaml:1:1: unknown key 'solver.rtol.x'");
  /* unknown keys in a sequence form point at the key */
  st = load_fresh(ctx, "model:\n  weight: [1, 2]\n");
  CHECK_EQ_INT(st, SK_ERR_UNKNOWN_KEY);
  CHECK_STR_CONTAINS(msg(ctx), "cfg.yaml:2:3: unknown key 'model.weight'; did you mean "
                               "'model.weights'?");
}

static void test_value_errors(sk_context *ctx)
{
  sk_status st = load_fresh(ctx, "# tolerances\nsolver:\n  atol: 1\n  rtol: -1\n");
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "cfg.yaml:4:9: solver.rtol: expected a real number in [1e-14, 1], got '-1'");
  st = load_fresh(ctx, "solver: {rtol: 1e999}\n");
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "cfg.yaml:1:16: solver.rtol: expected a real number in [1e-14, 1], got '1e999' "
               "(out of range)");
  st = load_fresh(ctx, "solver:\n  max_steps: 0x10\n");
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "cfg.yaml:2:14: solver.max_steps: expected an integer in [1, 1000000000], got "
               "'0x10'");
  st = load_fresh(ctx, "solver:\n  rtol: 1.5x\n");
  CHECK_EQ_INT(st, SK_ERR_INPUT);
  CHECK_STR_CONTAINS(msg(ctx), "cfg.yaml:2:9: solver.rtol: expected a real number");
  st = load_fresh(ctx, "linsol:\n  type: superlu\n");
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "cfg.yaml:2:9: linsol.type: expected one of klu|dense|spgmr, got 'superlu'");
  st = load_fresh(ctx, "linsol: {reuse: maybe}\n");
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "cfg.yaml:1:17: linsol.reuse: expected a boolean (true/false, yes/no, on/off, "
               "1/0), got 'maybe'");
  st = load_fresh(ctx, "model:\n  weights: [1, 20]\n");
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "cfg.yaml:2:12: model.weights: item 2 of 2: expected a real number in [0, 10], "
               "got '20'");
  /* structure: a mapping given to a single-valued key */
  st = load_fresh(ctx, "solver: {rtol: {a: 1}}\n");
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "cfg.yaml:1:16: solver.rtol: expected a single value, got a mapping");
  st = load_fresh(ctx, "model:\n  weights:\n    a: 1\n");
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "cfg.yaml:3:5: model.weights: expected a single value, got a mapping");
  /* a scalar where a section is expected */
  st = load_fresh(ctx, "solver: 3\n");
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "cfg.yaml:1:9: solver: is a section, not a key (its keys: rtol, atol, "
               "max_steps); got '3'");
  st = load_fresh(ctx, "solver: [1, 2]\n");
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "cfg.yaml:1:9: solver: is a section, not a key (its keys: rtol, atol, "
               "max_steps); got a list");
  /* a sequence for a non-list key */
  st = load_fresh(ctx, "solver:\n  rtol: [1e-6, 1e-7]\n");
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "cfg.yaml:2:9: solver.rtol: expected a real number in [1e-14, 1], got a list");
  st = load_fresh(ctx, "output:\n  file:\n    - a\n");
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT, "cfg.yaml:3:5: output.file: expected a string, got a list");
  /* nested sequences */
  st = load_fresh(ctx, "model:\n  weights: [[1], 2]\n");
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "cfg.yaml:2:13: model.weights: list items must be single values, got a sequence");
  st = load_fresh(ctx, "model:\n  weights: [{a: 1}]\n");
  CHECK_EQ_INT(st, SK_ERR_INPUT);
  CHECK_STR_CONTAINS(msg(ctx), "list items must be single values, got a mapping");
  /* keys that are not names */
  st = load_fresh(ctx, "? [a, b]\n: 1\n");
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT, "cfg.yaml:1:3: a key must be a plain name, got a sequence");
  st = load_fresh(ctx, "\"\": 1\n");
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT, "cfg.yaml:1:1: empty key");
  st = load_fresh(ctx, "output:\n  file: \"a\\0b\"\n");
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT, "cfg.yaml:2:9: value contains a NUL character");
}

static void test_duplicates(sk_context *ctx)
{
  sk_status st = load_fresh(ctx, "solver:\n  rtol: 1e-6\n  rtol: 1e-7\n");
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "cfg.yaml:3:3: duplicate key 'solver.rtol' (first given at line 2, column 3)");
  st = load_fresh(ctx, "solver:\n  rtol: 1e-6\nsolver.rtol: 1e-7\n");
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "cfg.yaml:3:1: duplicate key 'solver.rtol' (first given at line 2, column 3)");
  st = load_fresh(ctx, "solver: {rtol: 1e-6}\nsolver: {atol: 1e-7}\n");
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "cfg.yaml:2:1: duplicate key 'solver' (first given at line 1, column 1)");
  st = load_fresh(ctx, "model:\n  weights: [1]\nmodel.weights: 2\n");
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "cfg.yaml:3:1: duplicate key 'model.weights' (first given at line 2, column 3)");
  /* different keys of one section split over dotted and nested forms are fine */
  sk_options *o = make(ctx);
  CHECK_OK(ctx, load(o, "solver.rtol: 1e-6\nsolver: {atol: 1e-7}\nmodel.bc: {x0.type: robin}\n"
                        "model: {bc: {x0: {value: 1}}}\n"));
  /* a second load of another file may set the same keys again */
  CHECK_OK(ctx, load(o, "solver.rtol: 1e-5\n"));
  double r = 0;
  CHECK_OK(ctx, sk_options_get_real(o, "solver.rtol", &r));
  CHECK(r == 1e-5);
  sk_options_destroy(&o);
}

static void test_yaml_errors(sk_context *ctx)
{
  sk_options *o = make(ctx);
  /* bad indentation after a valid key: nothing is set (syntax is checked first) */
  sk_status st = load(o, "solver:\n  rtol: 1e-8\n atol: 2\n");
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "cfg.yaml:3:2: YAML syntax error: did not find expected key (while parsing a "
               "block mapping at 1:1)");
  CHECK(!sk_options_is_set(o, "solver.rtol"));
  st = load(o, "model:\n  weights: [1, 2\n");
  CHECK_EQ_INT(st, SK_ERR_INPUT);
  CHECK_STR_CONTAINS(msg(ctx), "cfg.yaml:3:1: YAML syntax error: did not find expected ',' or "
                               "']' (while parsing a flow sequence at 2:12)");
  st = load(o, "solver:\n\trtol: 1\n");
  CHECK_EQ_INT(st, SK_ERR_INPUT);
  CHECK_STR_CONTAINS(msg(ctx), "cfg.yaml:2:1: YAML syntax error: found character that cannot "
                               "start any token");
  st = load(o, "output: {file: \"abc}\n");
  CHECK_EQ_INT(st, SK_ERR_INPUT);
  CHECK_STR_CONTAINS(msg(ctx), "YAML syntax error: found unexpected end of stream");
  st = load(o, "a: b: c\n");
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "cfg.yaml:1:5: YAML syntax error: mapping values are not allowed in this context");
  st = load(o, "solver:\n  rtol: \xff\n");
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "cfg.yaml:2:9: YAML syntax error: invalid leading UTF-8 octet (byte 0xff)");
  /* the top level */
  st = load(o, "hello\n");
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "cfg.yaml:1:1: the top level of a config file must be a mapping of keys, got a "
               "scalar");
  st = load(o, "- solver.rtol: 1\n");
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "cfg.yaml:1:1: the top level of a config file must be a mapping of keys, got a "
               "sequence");
  /* anchors, aliases, several documents */
  st = load(o, "model:\n  weights: &w [1, 2]\noutput: {file: *w}\n");
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "cfg.yaml:2:12: anchors and aliases are not supported in config files");
  st = load(o, "solver: {rtol: &r 1e-6, atol: *r}\n");
  CHECK_EQ_INT(st, SK_ERR_INPUT);
  CHECK_STR_CONTAINS(msg(ctx), "cfg.yaml:1:16: anchors and aliases are not supported");
  st = load(o, "&top {verbose: yes}\n");
  CHECK_EQ_INT(st, SK_ERR_INPUT);
  CHECK_STR_CONTAINS(msg(ctx), "anchors and aliases are not supported");
  st = load(o, "verbose: yes\n---\nverbose: no\n");
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               "cfg.yaml:2:1: a config file holds one YAML document; found a second one");
  /* nesting limit */
  char deep[512];
  size_t k = 0;
  for (int i = 0; i < SK_CONFIG_MAX_DEPTH + 6; i++) {
    deep[k++] = '{';
    deep[k++] = 'a';
    deep[k++] = ':';
    deep[k++] = ' ';
  }
  deep[k++] = '1';
  for (int i = 0; i < SK_CONFIG_MAX_DEPTH + 6; i++) {
    deep[k++] = '}';
  }
  deep[k] = '\0';
  st = load(o, deep);
  CHECK_EQ_INT(st, SK_ERR_INPUT);
  CHECK_STR_CONTAINS(msg(ctx), "nesting deeper than 64 levels (limit exceeded)");
  sk_options_destroy(&o);
}

static void test_files(sk_context *ctx)
{
  sk_options *o = make(ctx);
  sk_status st = sk_config_load(o, "no_such_dir/x.yaml");
  CHECK_ERR_EQ(ctx, st, SK_ERR_MISSING,
               "cannot open config file 'no_such_dir/x.yaml': No such file or directory");
  st = sk_config_load(o, ".");
  CHECK_EQ_INT(st, SK_ERR_MISSING);
  CHECK_STR_CONTAINS(msg(ctx), "cannot open config file '.': it is a directory");
  CHECK_EQ_INT(sk_config_load(o, NULL), SK_ERR_ARG);
  CHECK_EQ_INT(sk_config_load(NULL, "x.yaml"), SK_ERR_ARG);

  /* an empty file is valid */
  CHECK(write_file(TMP_YAML, "", 0));
  CHECK_OK(ctx, sk_config_load(o, TMP_YAML));
  /* a file's messages carry its own name */
  const char *bad = "solver:\n  rtol: 2\n";
  CHECK(write_file(TMP_YAML, bad, strlen(bad)));
  st = sk_config_load(o, TMP_YAML);
  CHECK_ERR_EQ(ctx, st, SK_ERR_INPUT,
               TMP_YAML ":2:9: solver.rtol: expected a real number in [1e-14, 1], got '2'");
  /* a large file crosses the read buffer size */
  size_t big = 200000;
  char *text = malloc(big + 32);
  if (text) {
    memset(text, '#', big);
    text[big - 1] = '\n';
    strcpy(text + big, "verbose: on\n");
    CHECK(write_file(TMP_YAML, text, strlen(text)));
    CHECK_OK(ctx, sk_config_load(o, TMP_YAML));
    CHECK(sk_options_is_set(o, "verbose"));
    free(text);
  }
  remove(TMP_YAML);

  /* the fixture */
  sk_options_destroy(&o);
  o = make(ctx);
  CHECK_OK(ctx, sk_config_load(o, SK_TEST_DATA_DIR "/config_example.yaml"));
  double r = 0;
  int64_t k = 0;
  int b = 1;
  const char *s = NULL;
  const double *rl = NULL;
  const int64_t *il = NULL;
  size_t n = 0;
  CHECK_OK(ctx, sk_options_get_real(o, "solver.rtol", &r));
  CHECK(r == 1e-8);
  CHECK_OK(ctx, sk_options_get_int(o, "solver.max_steps", &k));
  CHECK_EQ_INT(k, 20000);
  CHECK_OK(ctx, sk_options_get_string(o, "linsol.type", &s));
  CHECK(strcmp(s, "dense") == 0);
  CHECK_OK(ctx, sk_options_get_bool(o, "linsol.reuse", &b));
  CHECK_EQ_INT(b, 0);
  CHECK_OK(ctx, sk_options_get_real(o, "model.bc.x0.value", &r));
  CHECK(r == 2.5);
  CHECK_OK(ctx, sk_options_get_real_list(o, "model.weights", &rl, &n));
  CHECK(n == 3 && rl[0] == 0.5 && rl[2] == 2.0);
  CHECK_OK(ctx, sk_options_get_int_list(o, "model.ids", &il, &n));
  CHECK(n == 2 && il[0] == 1 && il[1] == -2);
  CHECK_OK(ctx, sk_options_get_string(o, "output.file", &s));
  CHECK(strcmp(s, "results/run 1.h5") == 0);
  sk_options_destroy(&o);
}

/* defaults < config file < command line, whatever the order of the calls
 * within one source */
static void test_precedence(sk_context *ctx)
{
  sk_options *o = make(ctx);
  double r = 0;
  int64_t k = 0;
  CHECK_OK(ctx, load(o, "solver:\n  rtol: 1e-8\n  atol: 1e-12\n"));
  CHECK_OK(ctx, sk_options_set_assignment(o, "solver.rtol=1e-10"));
  CHECK_OK(ctx, sk_options_get_real(o, "solver.rtol", &r));
  CHECK(r == 1e-10);
  CHECK_OK(ctx, sk_options_get_real(o, "solver.atol", &r));
  CHECK(r == 1e-12);
  CHECK_OK(ctx, sk_options_get_int(o, "solver.max_steps", &k));
  CHECK_EQ_INT(k, 500);
  CHECK(sk_options_is_set(o, "solver.rtol"));
  CHECK(sk_options_is_set(o, "solver.atol"));
  CHECK(!sk_options_is_set(o, "solver.max_steps"));
  sk_options_destroy(&o);
}

/* Write the effective options, load them back, compare. */
static void test_echo_round_trip(sk_context *ctx)
{
  sk_options *a = make(ctx);
  CHECK_OK(ctx, load(a, "solver: {rtol: 0.1, atol: 3.3333333333333335e-05, max_steps: 77}\n"
                        "linsol: {type: SPGMR, reuse: no}\n"
                        "model:\n"
                        "  bc: {x0: {type: robin, value: -1e-300}}\n"
                        "  weights: [0.1, 0.2, 1e-7]\n"
                        "  ids: []\n"
                        "verbose: on\n"));
  static const char *const strings[] = {
      "plain.h5",  "yes", "",     " lead", "a: b # c", "quote\"s",    "back\\slash",
      "tab\tnl\n", "[x]", "1e-6", "~",     "-dash",    "caf\xc3\xa9", "ctl\x01"};
  for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) {
    sk_option_origin cl = {NULL, 0, 0, 1};
    CHECK_OK(ctx, sk_options_set(a, "output.file", strings[i], &cl));
    char *ea = sk_options_effective_string(a);
    CHECK(ea != NULL);
    if (!ea) {
      break;
    }
    FILE *f = fopen(ECHO_YAML, "wb");
    CHECK(f != NULL);
    if (f) {
      sk_options_write_effective(a, f);
      fclose(f);
    }
    sk_options *b = make(ctx);
    CHECK_OK(ctx, sk_config_load(b, ECHO_YAML));
    char *eb = sk_options_effective_string(b);
    if (!eb || strcmp(ea, eb) != 0) {
      fprintf(stderr, "round trip %zu differs:\n%s\n---\n%s\n", i, ea, eb ? eb : "(null)");
      sk_test_failures++;
    }
    const char *s = NULL;
    CHECK_OK(ctx, sk_options_get_string(b, "output.file", &s));
    CHECK(s && strcmp(s, strings[i]) == 0);
    double ra = 0, rb = 1;
    CHECK_OK(ctx, sk_options_get_real(a, "solver.atol", &ra));
    CHECK_OK(ctx, sk_options_get_real(b, "solver.atol", &rb));
    CHECK(ra == rb);
    CHECK(!sk_options_is_set(b, "model.t_stop")); /* the "(not set)" comment line */
    free(ea);
    free(eb);
    sk_options_destroy(&b);
  }
  remove(ECHO_YAML);
  sk_options_destroy(&a);
}

/* Every allocation in the loader may fail: SK_ERR_NOMEM, no leak, no crash. */
static void test_alloc_failures(sk_context *ctx)
{
  const char *cfg = "solver: {rtol: 1e-8}\nmodel:\n  weights: [1, 2, 3, 4, 5, 6, 7, 8, 9]\n"
                    "  bc.x0.type: robin\noutput.file: x.h5\n";
  CHECK(write_file(TMP_YAML, cfg, strlen(cfg)));
  int completed = 0;
  for (long k = 1; k < 400 && !completed; k++) {
    sk_options *o = make(ctx);
    ctx->alloc_fail_at = k;
    ctx->alloc_count = 0;
    sk_status st = sk_config_load(o, TMP_YAML);
    ctx->alloc_fail_at = 0;
    if (st == SK_OK) {
      completed = 1;
      double r = 0;
      CHECK_OK(ctx, sk_options_get_real(o, "solver.rtol", &r));
      CHECK(r == 1e-8);
    } else {
      CHECK_EQ_INT(st, SK_ERR_NOMEM);
    }
    sk_options_destroy(&o);
  }
  CHECK(completed);
  remove(TMP_YAML);
}

int main(void)
{
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK) {
    return 1;
  }
  test_nested_and_dotted(ctx);
  test_empty_inputs(ctx);
  test_key_errors(ctx);
  test_value_errors(ctx);
  test_duplicates(ctx);
  test_yaml_errors(ctx);
  test_files(ctx);
  test_precedence(ctx);
  test_echo_round_trip(ctx);
  test_alloc_failures(ctx);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

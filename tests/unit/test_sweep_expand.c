/* tests/unit/test_sweep_expand.c: sweep files expanded into cases (ranges, products, zips, seeded samples, CSV rows, bad input) against hand-computed values; the CLI's CSV and JSON readers; the requeue decision of interrupted cases */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/csv_read.h"
#include "cli/json_read.h"
#include "cli/sweep.h"
#include "cli/sweep_requeue.h"
#include "test.h"

/* The keys the sweeps below may vary: a real, a string, an integer list and an integer. */
static const sk_option_spec table[] = {
    {"solver.rtol", SK_OPT_REAL, "1e-6", 1e-15, 1, NULL, "relative tolerance"},
    {"solver.method", SK_OPT_STRING, "cvode-bdf", 0, 0, NULL, "engine"},
    {"model.n", SK_OPT_INT_LIST, "64", 1, 1e15, NULL, "nodes per direction"},
    {"model.k0", SK_OPT_REAL, "1.0", 0, 0, NULL, "conductivity"},
    {"model.steps", SK_OPT_INT, "10", 1, 1e9, NULL, "an integer"},
};

static char dir[64];

/* Write `text` to dir/name; path receives the file's path. */
static const char *write_file(const char *name, const char *text, char *path, size_t cap)
{
  snprintf(path, cap, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  if (!f) {
    return NULL;
  }
  fputs(text, f);
  fclose(f);
  return path;
}

/* Load and expand the sweep `text`; returns the status (cases filled on SK_OK). */
static sk_status expand(sk_context *ctx, const char *text, sweep_spec *s, sweep_cases *c)
{
  char path[256];
  memset(c, 0, sizeof *c);
  write_file("sweep.yaml", text, path, sizeof path);
  sk_status st = sweep_spec_load(ctx, path, s);
  if (st != SK_OK) {
    return st;
  }
  sk_options *o = NULL;
  CHECK_OK(ctx, sk_options_create(ctx, &o));
  CHECK_OK(ctx, sk_options_register(o, table, sizeof table / sizeof table[0]));
  st = sweep_expand(ctx, s, o, c);
  sk_options_destroy(&o);
  return st;
}

static const char *value(const sweep_cases *c, size_t i, size_t j)
{
  return c->values[i * c->nkeys + j];
}

static const char *message(sk_context *ctx)
{
  return sk_context_get_error(ctx)->message;
}

/* Log range 0.1 .. 10, 3 points: 0.1 * (10 / 0.1)^(k/2) = 0.1, 1, 10 (the
 * endpoints as written); linear 0 .. 1, 5 points: k / 4. */
static void test_ranges(sk_context *ctx)
{
  sweep_spec s;
  sweep_cases c;
  CHECK_OK(ctx, expand(ctx,
                       "parameters:\n"
                       "  model.k0: {range: [0.1, 10], num: 3, scale: log}\n",
                       &s, &c));
  CHECK_EQ_INT(c.ncases, 3);
  const char *log_expected[] = {"0.1", "1", "10"};
  for (size_t i = 0; i < 3 && c.ncases == 3; i++) {
    CHECK(!strcmp(value(&c, i, 0), log_expected[i]));
  }
  sweep_cases_free(&c);
  sweep_spec_free(&s);
  CHECK_OK(ctx, expand(ctx, "parameters:\n  model.k0: {range: [0, 1], num: 5}\n", &s, &c));
  const char *lin_expected[] = {"0", "0.25", "0.5", "0.75", "1"};
  CHECK_EQ_INT(c.ncases, 5);
  for (size_t i = 0; i < 5 && c.ncases == 5; i++) {
    CHECK(!strcmp(value(&c, i, 0), lin_expected[i]));
  }
  /* each value remembers where it was written: the range's mapping, line 2 column 13 */
  CHECK_EQ_INT(c.origins[2].line, 2);
  CHECK_EQ_INT(c.origins[2].column, 13);
  sweep_cases_free(&c);
  sweep_spec_free(&s);
}

/* An integer key: 20 .. 80 in 4 points is 20, 40, 60, 80 exactly; 1 .. 3 in
 * 5 points would round 1, 1.5, 2, 2.5, 3 to 1, 2, 2, 3, 3 (llround rounds
 * halves away from zero), a repeated case, so it is refused. */
static void test_integer_range(sk_context *ctx)
{
  sweep_spec s;
  sweep_cases c;
  CHECK_OK(ctx, expand(ctx, "parameters:\n  model.n: {range: [20, 80], num: 4}\n", &s, &c));
  const char *expected[] = {"20", "40", "60", "80"};
  CHECK_EQ_INT(c.ncases, 4);
  for (size_t i = 0; i < 4 && c.ncases == 4; i++) {
    CHECK(!strcmp(value(&c, i, 0), expected[i]));
  }
  sweep_cases_free(&c);
  sweep_spec_free(&s);
  CHECK_EQ_INT(expand(ctx, "parameters:\n  model.steps: {range: [1, 3], num: 5}\n", &s, &c),
               SK_ERR_INPUT);
  CHECK_STR_CONTAINS(message(ctx), "sweep.yaml:2:16: parameter 'model.steps' takes integers");
  CHECK_STR_CONTAINS(message(ctx), "repeats 2 after rounding");
  sweep_cases_free(&c);
  sweep_spec_free(&s);
}

/* Product: the last parameter varies fastest: (a,20) (a,40) (a,60) (b,20) ... */
static void test_product_and_zip(sk_context *ctx)
{
  sweep_spec s;
  sweep_cases c;
  CHECK_OK(ctx, expand(ctx,
                       "parameters:\n"
                       "  solver.rtol: [1.0e-4, 1.0e-6]\n"
                       "  model.n: [20, 40, 60]\n",
                       &s, &c));
  CHECK_EQ_INT(c.ncases, 6);
  CHECK_EQ_INT(c.nkeys, 2);
  const char *rtol[] = {"1.0e-4", "1.0e-4", "1.0e-4", "1.0e-6", "1.0e-6", "1.0e-6"};
  const char *n[] = {"20", "40", "60", "20", "40", "60"};
  for (size_t i = 0; i < 6 && c.ncases == 6; i++) {
    CHECK(!strcmp(value(&c, i, 0), rtol[i]));
    CHECK(!strcmp(value(&c, i, 1), n[i]));
  }
  CHECK(!strcmp(c.keys[0], "solver.rtol") && !strcmp(c.keys[1], "model.n"));
  /* case 4 = (1.0e-6, 40): the 40 was written on line 3, column 17
   * ("  model.n: [20, " is 16 characters) */
  CHECK_EQ_INT(c.origins[4 * 2 + 1].line, 3);
  CHECK_EQ_INT(c.origins[4 * 2 + 1].column, 17);
  sweep_cases_free(&c);
  sweep_spec_free(&s);

  /* zip: pairs in order; a list of lists gives list values */
  CHECK_OK(ctx, expand(ctx,
                       "parameters:\n"
                       "  solver.method: [cvode-bdf, rk45, bdf2]\n"
                       "  model.n: [[20], [40, 20], 60]\n"
                       "combine: zip\n",
                       &s, &c));
  CHECK_EQ_INT(c.ncases, 3);
  if (c.ncases == 3) {
    CHECK(!strcmp(value(&c, 0, 0), "cvode-bdf") && !strcmp(value(&c, 0, 1), "[20]"));
    CHECK(!strcmp(value(&c, 1, 0), "rk45") && !strcmp(value(&c, 1, 1), "[40, 20]"));
    CHECK(!strcmp(value(&c, 2, 0), "bdf2") && !strcmp(value(&c, 2, 1), "60"));
  }
  sweep_cases_free(&c);
  sweep_spec_free(&s);

  CHECK_EQ_INT(expand(ctx,
                      "parameters:\n"
                      "  solver.rtol: [1.0e-4, 1.0e-6]\n"
                      "  model.n: [20, 40, 60]\n"
                      "combine: zip\n",
                      &s, &c),
               SK_ERR_INPUT);
  CHECK_STR_CONTAINS(message(ctx),
                     "sweep.yaml:3:3: combine: zip needs parameters of equal length");
  sweep_spec_free(&s);
}

/* Latin hypercube, n = 8: every parameter hits each of its 8 strata once. A
 * linear range [0, 1]: stratum floor(8 v); a log range [1e-3, 10]: stratum
 * floor(8 log(v / 1e-3) / log(1e4)); a list of 4 values: stratum k of 8 maps
 * to item floor(k / 2), so each item is taken exactly twice. */
static void test_lhs(sk_context *ctx)
{
  const char *text = "parameters:\n"
                     "  model.k0: {range: [0, 1]}\n"
                     "  solver.rtol: {range: [1.0e-3, 10], scale: log}\n"
                     "  solver.method: [a, b, c, d]\n"
                     "samples: {method: lhs, n: 8, seed: 7}\n";
  sweep_spec s;
  sweep_cases c, again;
  CHECK_OK(ctx, expand(ctx, text, &s, &c));
  sweep_spec_free(&s);
  CHECK_EQ_INT(c.ncases, 8);
  int hit_lin[8] = {0}, hit_log[8] = {0}, items[4] = {0};
  for (size_t i = 0; i < 8 && c.ncases == 8; i++) {
    const double v = strtod(value(&c, i, 0), NULL), w = strtod(value(&c, i, 1), NULL);
    CHECK(v >= 0 && v <= 1 && w >= 1e-3 && w <= 10);
    const int sl = (int)floor(8 * v), sg = (int)floor(8 * log(w / 1e-3) / log(1e4));
    if (sl >= 0 && sl < 8 && sg >= 0 && sg < 8) {
      hit_lin[sl]++;
      hit_log[sg]++;
    }
    const char *m = value(&c, i, 2);
    if (strlen(m) == 1 && m[0] >= 'a' && m[0] <= 'd') {
      items[m[0] - 'a']++;
    }
  }
  for (int k = 0; k < 8; k++) {
    CHECK_EQ_INT(hit_lin[k], 1);
    CHECK_EQ_INT(hit_log[k], 1);
  }
  for (int k = 0; k < 4; k++) {
    CHECK_EQ_INT(items[k], 2);
  }
  /* the same seed gives the same cases */
  CHECK_OK(ctx, expand(ctx, text, &s, &again));
  sweep_spec_free(&s);
  for (size_t i = 0; i < 24 && again.ncases == 8 && c.ncases == 8; i++) {
    CHECK(!strcmp(c.values[i], again.values[i]));
  }
  sweep_cases_free(&c);
  sweep_cases_free(&again);
}

/* splitmix64 from 1234567 gives the published reference outputs, and from
 * 0 the first output 0xe220a8397b1dcdaf; random samples stay in range and a
 * seed reproduces them while another seed does not. */
static void test_random(sk_context *ctx)
{
  uint64_t x = 1234567;
  const uint64_t ref[] = {6457827717110365317ULL, 3203168211198807973ULL, 9817491932198370423ULL,
                          4593380528125082431ULL, 16408922859458223821ULL};
  for (int k = 0; k < 5; k++) {
    CHECK(sweep_splitmix64(&x) == ref[k]);
  }
  x = 0;
  CHECK(sweep_splitmix64(&x) == 0xe220a8397b1dcdafULL);
  /* xoshiro256** seeded from 7 (its state = splitmix64 outputs 1..4 from 7):
   * first output computed independently with the reference algorithm */
  sweep_rng r;
  sweep_rng_seed(&r, 7);
  CHECK(sweep_rng_next(&r) == 0xb358faf74ef9765aULL);
  CHECK(sweep_rng_next(&r) == 0x475c3d964f482cd2ULL);

  const char *text = "parameters:\n"
                     "  model.k0: {range: [2, 5]}\n"
                     "  model.n: {range: [10, 20]}\n"
                     "samples: {method: random, n: 50, seed: 3}\n";
  sweep_spec s;
  sweep_cases c, again, other;
  CHECK_OK(ctx, expand(ctx, text, &s, &c));
  sweep_spec_free(&s);
  CHECK_OK(ctx, expand(ctx, text, &s, &again));
  sweep_spec_free(&s);
  CHECK_OK(ctx, expand(ctx,
                       "parameters:\n"
                       "  model.k0: {range: [2, 5]}\n"
                       "  model.n: {range: [10, 20]}\n"
                       "samples: {method: random, n: 50, seed: 4}\n",
                       &s, &other));
  sweep_spec_free(&s);
  CHECK_EQ_INT(c.ncases, 50);
  int same = 0, differ = 0;
  for (size_t i = 0; i < 50 && c.ncases == 50 && again.ncases == 50 && other.ncases == 50; i++) {
    const double k0 = strtod(value(&c, i, 0), NULL);
    char *end;
    const long long n = strtoll(value(&c, i, 1), &end, 10);
    CHECK(k0 >= 2 && k0 <= 5);
    CHECK(*end == '\0' && n >= 10 && n <= 20); /* an integer key gets integer text */
    same += !strcmp(value(&c, i, 0), value(&again, i, 0));
    differ += strcmp(value(&c, i, 0), value(&other, i, 0)) != 0;
  }
  CHECK_EQ_INT(same, 50);
  CHECK(differ > 45);
  sweep_cases_free(&c);
  sweep_cases_free(&again);
  sweep_cases_free(&other);
}

/* Cases from a CSV file next to the sweep file: one case per row, quoted
 * fields may hold commas, origins name the file, line and column. */
static void test_csv(sk_context *ctx)
{
  char path[256];
  write_file("cases.csv",
             "# two cases\n"
             "solver.rtol,model.n\n"
             "1e-4,\"[20, 10]\"\n"
             "1e-6, 40\n",
             path, sizeof path);
  sweep_spec s;
  sweep_cases c;
  CHECK_OK(ctx, expand(ctx, "cases: cases.csv\n", &s, &c));
  CHECK_EQ_INT(c.ncases, 2);
  CHECK_EQ_INT(c.nkeys, 2);
  if (c.ncases == 2 && c.nkeys == 2) {
    CHECK(!strcmp(c.keys[1], "model.n"));
    CHECK(!strcmp(value(&c, 0, 1), "[20, 10]"));
    CHECK(!strcmp(value(&c, 1, 1), "40"));
    /* "1e-6, 40" on line 4: the 40 starts at column 7 (the blank is trimmed) */
    CHECK_EQ_INT(c.origins[3].line, 4);
    CHECK_EQ_INT(c.origins[3].column, 7);
    CHECK_STR_CONTAINS(c.origins[3].file, "cases.csv");
  }
  sweep_cases_free(&c);
  sweep_spec_free(&s);
  write_file("cases.csv", "solver.rtol,model.n\n1e-4,\n", path, sizeof path);
  CHECK_EQ_INT(expand(ctx, "cases: cases.csv\n", &s, &c), SK_ERR_INPUT);
  CHECK_STR_CONTAINS(message(ctx), "cases.csv:2:6: empty value for 'model.n'");
  sweep_cases_free(&c);
  sweep_spec_free(&s);
}

/* Bad sweep files: each error names the file, line and column. */
static void test_bad_input(sk_context *ctx)
{
  struct {
    const char *text;
    sk_status code;
    const char *msg;
  } bad[] = {
      {"parameters:\n  solver.rtol: [1e-4]\n  solver.rtoll: [1e-6]\n", SK_ERR_UNKNOWN_KEY,
       "sweep.yaml:3:3: unknown key 'solver.rtoll'; did you mean 'solver.rtol'?"},
      {"parameters:\n  model.k0: {range: [1, 2], num: 0}\n", SK_ERR_INPUT,
       "sweep.yaml:2:34: parameter 'model.k0': empty range (num: 0)"},
      {"parameters:\n  model.k0: []\n", SK_ERR_INPUT,
       "sweep.yaml:2:13: parameter 'model.k0': empty list"},
      {"parameters:\n  model.k0: {range: [1, 2]}\n", SK_ERR_INPUT,
       "sweep.yaml:2:13: parameter 'model.k0': a range needs num"},
      {"parameters:\n  model.k0: {range: [0, 2], num: 3, scale: log}\n", SK_ERR_INPUT,
       "a log range needs positive endpoints"},
      {"parameters:\n  model.k0: [1]\ncombine: zip\nsamples: {method: lhs, n: 2}\n", SK_ERR_INPUT,
       "sweep.yaml:4:10: give either combine"},
      {"parameters:\n  model.k0: [1]\nsamples: {method: sobol, n: 2}\n", SK_ERR_INPUT,
       "samples: method must be random or lhs"},
      {"base: x.yaml\n", SK_ERR_INPUT, "no parameters to vary"},
      {"parameter:\n  model.k0: [1]\n", SK_ERR_INPUT,
       "sweep.yaml:1:1: unknown key 'parameter' in a sweep file"},
      /* a key set twice, nested then dotted, or twice in one mapping: both places named */
      {"set:\n  solver: {rtol: 1.0e-6}\n  solver.rtol: 1.0e-8\nparameters:\n  model.k0: [1]\n",
       SK_ERR_INPUT, "sweep.yaml:3:3: set: 'solver.rtol' is given twice (first at "},
      {"set:\n  solver.rtol: 1.0e-6\n  solver.rtol: 1.0e-8\nparameters:\n  model.k0: [1]\n",
       SK_ERR_INPUT, "sweep.yaml:3:3: set: 'solver.rtol' is given twice"},
  };
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    sweep_spec s;
    sweep_cases c;
    CHECK_EQ_INT(expand(ctx, bad[k].text, &s, &c), bad[k].code);
    CHECK_STR_CONTAINS(message(ctx), bad[k].msg);
    sweep_cases_free(&c);
    sweep_spec_free(&s);
  }
}

/* The first duplicate's position is the nested key: line 2, column 12 ("  solver: {" is 11). */
static void test_duplicate_set(sk_context *ctx)
{
  sweep_spec s;
  sweep_cases c;
  CHECK_EQ_INT(expand(ctx,
                      "set:\n  solver: {rtol: 1.0e-6}\n  solver.rtol: 1.0e-8\n"
                      "parameters:\n  model.k0: [1]\n",
                      &s, &c),
               SK_ERR_INPUT);
  CHECK_STR_CONTAINS(message(ctx), "/sweep.yaml:2:12)");
  sweep_cases_free(&c);
  sweep_spec_free(&s);
  /* different keys under one prefix are fine */
  CHECK_OK(ctx, expand(ctx,
                       "set:\n  solver: {rtol: 1.0e-6}\n  solver.atol: 1.0e-8\n"
                       "parameters:\n  model.k0: [1]\n",
                       &s, &c));
  CHECK_EQ_INT(s.nsets, 2);
  sweep_cases_free(&c);
  sweep_spec_free(&s);
}

/* The CSV reader: comment and blank lines skipped, quoted fields with commas, doubled quotes
 * and line breaks, CRLF line ends, blanks trimmed around unquoted fields only, the position of
 * every field; malformed quoting located; a large table read whole. */
static void test_csv_reader(sk_context *ctx)
{
  char path[256];
  write_file("t.csv",
             "# a comment\r\n"
             "\r\n"
             "a , \"b,1\" ,c\r\n"
             "\"x \"\"y\"\"\",\"two\n"
             "lines\",  z  \n"
             "last,,\n",
             path, sizeof path);
  cli_csv t;
  CHECK_OK(ctx, cli_csv_read(ctx, path, &t));
  CHECK_EQ_INT(t.nrows, 3);
  if (t.nrows == 3 && t.rows[0].nfields == 3 && t.rows[1].nfields == 3 &&
      t.rows[2].nfields == 3) {
    CHECK(!strcmp(t.rows[0].fields[0], "a") && !strcmp(t.rows[0].fields[1], "b,1"));
    CHECK_EQ_INT(t.rows[0].line, 3);
    CHECK_EQ_INT(t.rows[0].columns[1], 5); /* the opening quote, after "a , " */
    CHECK(!strcmp(t.rows[1].fields[0], "x \"y\""));
    CHECK(!strcmp(t.rows[1].fields[1], "two\nlines"));
    CHECK(!strcmp(t.rows[1].fields[2], "z"));
    CHECK_EQ_INT(t.rows[1].line, 4);
    CHECK_EQ_INT(t.rows[1].columns[2], 10); /* line 5: "lines\",  z": z at column 10 */
    CHECK(!strcmp(t.rows[2].fields[1], "") && !strcmp(t.rows[2].fields[2], ""));
    CHECK_EQ_INT(t.rows[2].columns[2], 7); /* an empty last field: where it would start */
  }
  CHECK_EQ_INT(cli_csv_column(&t, "c"), 2);
  CHECK_EQ_INT(cli_csv_column(&t, "d"), -1);
  cli_csv_free(&t);

  write_file("t.csv", "a,b\n1,\"2\"x\n", path, sizeof path);
  CHECK_EQ_INT(cli_csv_read(ctx, path, &t), SK_ERR_INPUT);
  CHECK_STR_CONTAINS(message(ctx), "t.csv:2:6: malformed CSV");
  cli_csv_free(&t);
  write_file("t.csv", "a,b\n1,2\n3,\"open\n", path, sizeof path);
  CHECK_EQ_INT(cli_csv_read(ctx, path, &t), SK_ERR_INPUT);
  CHECK_STR_CONTAINS(message(ctx), "t.csv:3:3: unterminated quoted field");
  cli_csv_free(&t);

  /* 100000 rows of 12 fields: every row and field kept, in order */
  snprintf(path, sizeof path, "%s/big.csv", dir);
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  for (int r = 0; f && r < 100000; r++) {
    for (int k = 0; k < 12; k++) {
      fprintf(f, k ? ",%d" : "%d", r * 12 + k);
    }
    fputc('\n', f);
  }
  if (f) {
    fclose(f);
  }
  CHECK_OK(ctx, cli_csv_read(ctx, path, &t));
  CHECK_EQ_INT(t.nrows, 100000);
  if (t.nrows == 100000) {
    CHECK_EQ_INT(t.rows[99999].nfields, 12);
    CHECK(!strcmp(t.rows[99999].fields[11], "1199999"));
    CHECK_EQ_INT(t.rows[99999].line, 100000);
  }
  cli_csv_free(&t);
  remove(path);
}

/* The JSON reader: nested objects flattened in file order, kinds kept, arrays skipped;
 * malformed text and a repeated key refused with their position. */
static void test_json_reader(sk_context *ctx)
{
  char path[256];
  write_file("t.json",
             "{\"status\": \"ok\", \"n\": 3, \"list\": [1, 2],\n"
             " \"stats\": {\"steps\": 17, \"inner\": {\"t\": 2.5e-1}}, \"flag\": true, "
             "\"none\": null, \"text\": \"a\\\"b\\u00e9\"}\n",
             path, sizeof path);
  cli_json_flat j;
  CHECK_OK(ctx, cli_json_read_flat(ctx, path, &j));
  const char *keys[] = {"status", "n", "stats.steps", "stats.inner.t", "flag", "none", "text"};
  CHECK_EQ_INT(j.n, 7);
  for (size_t k = 0; k < 7 && j.n == 7; k++) {
    CHECK(!strcmp(j.fields[k].key, keys[k]));
  }
  const cli_json_field *t = cli_json_flat_get(&j, "stats.inner.t");
  CHECK(t && t->kind == CLI_JSON_NUMBER && t->number == 0.25);
  CHECK(cli_json_flat_get(&j, "flag")->kind == CLI_JSON_BOOL);
  CHECK(cli_json_flat_get(&j, "none")->kind == CLI_JSON_NULL);
  CHECK(!strcmp(cli_json_flat_get(&j, "text")->text, "a\"b\xc3\xa9"));
  CHECK(cli_json_flat_get(&j, "list") == NULL);
  cli_json_flat_free(&j);
  write_file("t.json", "{\"a\": 1,\n \"b\": }\n", path, sizeof path);
  CHECK_EQ_INT(cli_json_read_flat(ctx, path, &j), SK_ERR_INPUT);
  CHECK_STR_CONTAINS(message(ctx), "t.json:2:7: malformed JSON");
  cli_json_flat_free(&j);
  write_file("t.json", "{\"a\": 1, \"a\": 2}", path, sizeof path);
  CHECK_EQ_INT(cli_json_read_flat(ctx, path, &j), SK_ERR_INPUT);
  CHECK_STR_CONTAINS(message(ctx), "duplicate object key");
  cli_json_flat_free(&j);
  CHECK_EQ_INT(cli_json_read_flat(ctx, "/nonexistent/t.json", &j), SK_ERR_MISSING);
  cli_json_flat_free(&j);
}

/* The held time is read from the run's message on exit 75; an interrupted case is requeued
 * only when its checkpoint advanced and attempts remain. */
static void test_requeue_decision(void)
{
  CHECK(sweep_held_time("run interrupted by SIGUSR1 at t=4.100000e-01; the results so far are "
                        "kept and the checkpoint 'out/slow.ckpt' holds t=4.000000e-01: continue "
                        "with the same command and --restart out/slow.ckpt") == 0.4);
  CHECK(isnan(sweep_held_time("run interrupted by SIGTERM at t=1.0e-02; the results so far are "
                              "kept")));
  CHECK(isnan(sweep_held_time(NULL)));
  /* a path holding the phrase: the last one counts */
  CHECK(sweep_held_time("checkpoint 'a' holds t=x' holds t=2.5e-01: continue") == 0.25);
  char why[200];
  CHECK_EQ_INT(sweep_requeue_decide(NAN, 0.4, 1, 20, why, sizeof why), 1);
  CHECK_STR_CONTAINS(why, "its checkpoint holds t=0.4");
  CHECK_EQ_INT(sweep_requeue_decide(0.4, 0.6, 2, 20, why, sizeof why), 1);
  CHECK_STR_CONTAINS(why, "advanced from t=0.4 to t=0.6");
  CHECK_EQ_INT(sweep_requeue_decide(0.6, 0.6, 3, 20, why, sizeof why), 0);
  CHECK_STR_CONTAINS(why, "no progress: the checkpoint still holds t=0.6");
  CHECK_EQ_INT(sweep_requeue_decide(0.6, 0.5, 3, 20, why, sizeof why), 0);
  CHECK_EQ_INT(sweep_requeue_decide(0.6, NAN, 3, 20, why, sizeof why), 0);
  CHECK_STR_CONTAINS(why, "kept no checkpoint");
  CHECK_EQ_INT(sweep_requeue_decide(NAN, NAN, 1, 20, why, sizeof why), 0);
  CHECK_EQ_INT(sweep_requeue_decide(0.4, 0.6, 20, 20, why, sizeof why), 0);
  CHECK_STR_CONTAINS(why, "20 attempts made, the most slurm.max_attempts allows");
  CHECK_EQ_INT(sweep_requeue_decide(0.4, 0.6, 19, 20, why, sizeof why), 1);
}

int main(void)
{
  snprintf(dir, sizeof dir, "/tmp/sk_sweep_XXXXXX");
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK) {
    return 1;
  }
  test_ranges(ctx);
  test_integer_range(ctx);
  test_product_and_zip(ctx);
  test_lhs(ctx);
  test_random(ctx);
  test_csv(ctx);
  test_bad_input(ctx);
  test_duplicate_set(ctx);
  test_csv_reader(ctx);
  test_json_reader(ctx);
  test_requeue_decision();
  sk_context_destroy(&ctx);
  char path[256];
  snprintf(path, sizeof path, "%s/sweep.yaml", dir);
  remove(path);
  snprintf(path, sizeof path, "%s/cases.csv", dir);
  remove(path);
  snprintf(path, sizeof path, "%s/t.csv", dir);
  remove(path);
  snprintf(path, sizeof path, "%s/t.json", dir);
  remove(path);
  rmdir(dir);
  TEST_RETURN();
}

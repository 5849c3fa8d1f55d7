/* tests/unit/test_time_function.c: load amplitudes g(t): muparser formulas (values and parse errors) and piecewise-linear CSV tables (interpolation, ends, every error) */
/*
 * Expected values are worked out by hand: 1 + sin(2 pi t) at t = 1/4 is 2;
 * the table (0, 0), (1, 2), (3, -2) interpolates to 1 at t = 0.5 and to 0
 * at t = 2, and is 0 before t = 0 and -2 after t = 3.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "io/time_function.h"
#include "test.h"
#include "test_files.h"

/* Write `text` to dir/name; the path goes to `path`. */
static void write_file(const char *dir, const char *name, const char *text, char *path,
                       size_t len)
{
  snprintf(path, len, "%s/%s", dir, name);
  test_write_file(path, text);
}

static double eval_formula(sk_context *ctx, const char *expr, double t)
{
  sk__time_function *tf = NULL;
  CHECK_OK(ctx, sk__time_function_formula(ctx, expr, "model.load_amplitude", &tf));
  const double v = tf ? sk__time_function_eval(tf, t) : NAN;
  CHECK_EQ_INT(sk__time_function_rows(tf), 0);
  sk__time_function_destroy(&tf);
  CHECK(tf == NULL);
  return v;
}

static void test_formulas(sk_context *ctx)
{
  CHECK_NEAR(eval_formula(ctx, "1 + sin(2*pi*t)", 0.25), 2.0, 1e-15, 0);
  CHECK_NEAR(eval_formula(ctx, "1 - exp(-t/2)", 2.0), 1.0 - exp(-1.0), 1e-15, 0);
  CHECK_NEAR(eval_formula(ctx, "t < 1 ? 5 : 7", 0.5), 5.0, 0, 0);
  CHECK_NEAR(eval_formula(ctx, "t < 1 ? 5 : 7", 1.5), 7.0, 0, 0);
  CHECK_NEAR(eval_formula(ctx, "min(t, 2) * pi", 3.0), 2.0 * 3.14159265358979323846, 1e-15, 0);
  /* muparser's own _pi carries 13 digits (3.141592653589) */
  CHECK_NEAR(eval_formula(ctx, "_pi", 0.0), 3.14159265358979323846, 1e-12, 0);
  CHECK_NEAR(eval_formula(ctx, " 3 ", 10.0), 3.0, 0, 0);
  /* one parser evaluated at many times */
  sk__time_function *tf = NULL;
  CHECK_OK(ctx, sk__time_function_formula(ctx, "t^2", "x", &tf));
  for (int k = 0; tf && k < 5; k++) {
    CHECK_NEAR(sk__time_function_eval(tf, (double)k), (double)(k * k), 0, 0);
  }
  sk__time_function_destroy(&tf);
  sk__time_function_destroy(&tf); /* accepts NULL */

  static const struct {
    const char *expr, *message;
  } bad[] = {
      {"1 + * t", "model.load_amplitude: cannot parse the formula '1 + * t' at character 5: "
                  "Unexpected operator \"*\" found at position 4"},
      {"t + x", "cannot parse the formula 't + x' at character 5: Unexpected token \"x\""},
      {"sin(t", "cannot parse the formula 'sin(t'"},
      {"foo(t)", "cannot parse the formula 'foo(t)' at character 1"},
      {"  ", "model.load_amplitude: empty formula"},
  };
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    tf = NULL;
    CHECK(sk__time_function_formula(ctx, bad[k].expr, "model.load_amplitude", &tf) ==
          SK_ERR_INPUT);
    CHECK(tf == NULL);
    CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, bad[k].message);
  }
}

static void test_tables(sk_context *ctx, const char *dir)
{
  char path[512];
  write_file(dir, "g.csv",
             "# load history\r\n"
             "t, g\r\n"
             "\r\n"
             "0, 0\r\n"
             " 1 , 2e0\r\n"
             "# a comment between rows\r\n"
             "3,-2\r\n",
             path, sizeof path);
  sk__time_function *tf = NULL;
  CHECK_OK(ctx, sk__time_function_table(ctx, path, "model.load_table", &tf));
  CHECK_EQ_INT(sk__time_function_rows(tf), 3);
  if (tf) {
    const double t[] = {-1.0, 0.0, 0.5, 1.0, 2.0, 2.5, 3.0, 10.0, 0.25};
    const double g[] = {0.0, 0.0, 1.0, 2.0, 0.0, -1.0, -2.0, -2.0, 0.5};
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
      CHECK_NEAR(sk__time_function_eval(tf, t[k]), g[k], 1e-15, 1e-15);
    }
  }
  sk__time_function_destroy(&tf);

  static const struct {
    const char *name, *text, *message;
  } bad[] = {
      {"repeat.csv", "0,1\n1,2\n\n1,3\n",
       "repeat.csv:4: t = 1 does not increase (line 2 has t = 1): t must increase strictly"},
      {"decrease.csv", "t,g\n0,1\n2,2\n1,3\n", "decrease.csv:4: t = 1 does not increase (line 3"},
      {"text_g.csv", "0,1\n1,abc\n", "text_g.csv:2: field 2 (g) 'abc' is not a finite number"},
      {"text_t.csv", "0,1\nx1,2\n", "text_t.csv:2: field 1 (t) 'x1' is not a finite number"},
      {"nan.csv", "0,1\n1,nan\n", "nan.csv:2: field 2 (g) 'nan' is not a finite number"},
      {"empty_field.csv", "0,1\n1,\n",
       "empty_field.csv:2: field 2 (g) '' is not a finite number"},
      {"three.csv", "0,1,2\n",
       "three.csv:1: expected 2 fields 't, g' separated by a comma, found "
       "more than 2"},
      {"one.csv", "0 1\n", "one.csv:1: expected 2 fields 't, g' separated by a comma, found 1"},
      {"single.csv", "# c\nt,g\n0,1\n",
       "single.csv:3: 1 data row: a table needs at least 2 rows"},
      {"empty.csv", "", "empty.csv:0: 0 data rows: a table needs at least 2 rows"},
      {"two_headers.csv", "t,g\ntime,value\n0,1\n", "two_headers.csv:2: field 1 (t) 'time'"},
  };
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    write_file(dir, bad[k].name, bad[k].text, path, sizeof path);
    tf = NULL;
    CHECK(sk__time_function_table(ctx, path, "model.load_table", &tf) == SK_ERR_INPUT);
    CHECK(tf == NULL);
    CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, bad[k].message);
    unlink(path);
  }
  CHECK(sk__time_function_table(ctx, "/nonexistent/g.csv", "model.load_table", &tf) ==
        SK_ERR_MISSING);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message,
                     "cannot open table '/nonexistent/g.csv' given by model.load_table");
  snprintf(path, sizeof path, "%s/g.csv", dir);
  unlink(path);
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  char dir[256];
  test_tmpdir(dir, sizeof dir, "tf");
  test_formulas(ctx);
  test_tables(ctx, dir);
  rmdir(dir);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

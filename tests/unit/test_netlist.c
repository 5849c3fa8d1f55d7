/* tests/unit/test_netlist.c: the netlist parser: numbers and suffixes, comments and continuation, parameters and expressions, .include, subcircuit expansion, and each error with its file:line:column message */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <unistd.h>

#include "io/netlist_impl.h"
#include "test.h"

/* Parse text; the netlist or NULL (the error message into msg). */
static sk__netlist *parse(sk_context *ctx, const char *text, char *msg, size_t len)
{
  sk__netlist *nl = NULL;
  msg[0] = '\0';
  if (sk__netlist_parse_string(ctx, text, "t.net", &nl) != SK_OK) {
    snprintf(msg, len, "%s", sk_context_get_error(ctx)->message);
  }
  return nl;
}

/* The value of the element named `name`. */
static const sk__net_element *elem(const sk__netlist *nl, const char *name)
{
  for (int64_t k = 0; nl && k < nl->nelems; k++) {
    if (strcmp(nl->elems[k].name, name) == 0) {
      return &nl->elems[k];
    }
  }
  return NULL;
}

static void test_numbers(sk_context *ctx)
{
  static const struct {
    const char *s;
    double v;
  } ok[] = {{"10k", 1e4},   {"4.7u", 4.7e-6}, {"1meg", 1e6},  {"1MEG", 1e6},
            {"2m", 2e-3},   {"3M", 3e-3},     {"5n", 5e-9},   {"6p", 6e-12},
            {"7f", 7e-15},  {"1g", 1e9},      {"2T", 2e12},   {"1.5e3", 1500},
            {"-2.5", -2.5}, {".5", 0.5},      {"1e-3k", 1.0}, {"+3", 3}};
  for (size_t k = 0; k < sizeof ok / sizeof ok[0]; k++) {
    double v = 0;
    CHECK(sk__net_number(ok[k].s, &v));
    CHECK_NEAR(v, ok[k].v, 1e-15, 0);
  }
  static const char *const bad[] = {"",    "k",    "1x",    "1kk",   "1e", "inf",
                                    "nan", "0x10", "1.2.3", "1megx", "--1"};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    double v;
    CHECK(!sk__net_number(bad[k], &v));
  }
  (void)ctx;
}

static void test_syntax(sk_context *ctx)
{
  char msg[1024];
  sk__netlist *nl = parse(ctx,
                          "* title comment\n"
                          "   * indented comment\n"
                          ".param Rth=10 two=2\n"
                          ".param derived={Rth*two + 1}\n"
                          "Vamb amb 0 300 ; end-of-line comment\n"
                          "C1 a 1m\n"
                          "R1 a\n"
                          "+ amb\n"
                          "  + {derived}\n"
                          "R2 a b Rth\n"
                          "G3 b gnd {2^3 - max(1, 2) * sqrt(4) / 2}\n"
                          "C2 b 0 2k\n"
                          "I1 0 a SIN(1 2 3)\n"
                          ".ic a=310\n"
                          ".option tunit=c tinit=20\n",
                          msg, sizeof msg);
  CHECK_STR_CONTAINS(msg[0] ? msg : "ok", "ok");
  CHECK(nl != NULL);
  if (!nl) {
    return;
  }
  CHECK_EQ_INT(nl->nnodes, 3);
  CHECK_NEAR(elem(nl, "R1")->value, 1.0 / 21.0, 1e-15, 0);
  CHECK_NEAR(elem(nl, "R2")->value, 0.1, 1e-15, 0);
  CHECK_NEAR(elem(nl, "G3")->value, 6.0, 1e-15, 0);
  CHECK_EQ_INT(elem(nl, "G3")->b, -1);
  CHECK_NEAR(elem(nl, "C2")->value, 2000.0, 1e-15, 0);
  CHECK_EQ_INT(elem(nl, "I1")->sched.kind, SK__SCHED_SIN);
  CHECK(nl->celsius == 1);
  CHECK_NEAR(nl->tinit, 20.0, 0, 0);
  CHECK_EQ_INT(nl->nic, 1);
  CHECK_NEAR(nl->ic_value[0], 310.0, 0, 0);
  /* schedules */
  const sk__net_element *i1 = elem(nl, "I1");
  CHECK_NEAR(sk__net_schedule_eval(nl, &i1->sched, 0.1), 1 + 2 * sin(2 * 3.14159265358979 * 0.3),
             1e-12, 0);
  sk__netlist_destroy(ctx, &nl);
  CHECK(nl == NULL);

  nl = parse(ctx, "Vamb amb 0 PWL(0 1, 2 3)\nC1 a 1\nR1 a amb 1\nI1 0 a PULSE(0 1 1 1 1 2 10)\n",
             msg, sizeof msg);
  CHECK(nl != NULL);
  if (nl) {
    const sk__net_element *v = elem(nl, "Vamb"), *p = elem(nl, "I1");
    CHECK_NEAR(sk__net_schedule_eval(nl, &v->sched, -1), 1, 0, 0);
    CHECK_NEAR(sk__net_schedule_eval(nl, &v->sched, 1), 2, 1e-15, 0);
    CHECK_NEAR(sk__net_schedule_eval(nl, &v->sched, 5), 3, 0, 0);
    const double pt[] = {0.5, 1.5, 2.5, 4.5, 5.5, 8, 12.5};
    const double pv[] = {0, 0.5, 1, 0.5, 0, 0, 1};
    for (int k = 0; k < 7; k++) {
      CHECK_NEAR(sk__net_schedule_eval(nl, &p->sched, pt[k]), pv[k], 1e-12, 1e-12);
    }
  }
  sk__netlist_destroy(ctx, &nl);
}

static void test_subckt(sk_context *ctx)
{
  char msg[1024];
  sk__netlist *nl = parse(ctx,
                          ".param g=1\n"
                          "Vamb amb 0 300\n"
                          ".subckt leaf p q params: r=2\n"
                          "R1 p n3 r\nR2 n3 q {r*g}\nC1 n3 1\n"
                          ".ends leaf\n"
                          ".SUBCKT pair a b\n"
                          "X1 a mid leaf\nX2 mid b leaf r=5\n"
                          ".ends\n"
                          "X1 top amb pair\nC0 top 1\n",
                          msg, sizeof msg);
  CHECK(nl != NULL);
  if (!nl) {
    fprintf(stderr, "%s\n", msg);
    return;
  }
  CHECK(sk__netlist_find_node(nl, "X1.X1.n3") >= 0);
  CHECK(sk__netlist_find_node(nl, "X1.X2.n3") >= 0);
  CHECK(sk__netlist_find_node(nl, "X1.mid") >= 0);
  CHECK(sk__netlist_find_node(nl, "gnd") == -1);
  CHECK_EQ_INT(nl->nnodes, 5); /* amb top X1.mid X1.X1.n3 X1.X2.n3 */
  CHECK_NEAR(elem(nl, "X1.X1.R1")->value, 0.5, 1e-15, 0);
  CHECK_NEAR(elem(nl, "X1.X2.R2")->value, 0.2, 1e-15, 0);
  CHECK_EQ_INT(elem(nl, "X1.X2.R2")->b, sk__netlist_find_node(nl, "amb"));
  sk__netlist_destroy(ctx, &nl);
}

static void test_include(sk_context *ctx)
{
  char dir[] = "/tmp/sk_netlist_XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char path[256], sub[256];
  snprintf(path, sizeof path, "%s/main.net", dir);
  snprintf(sub, sizeof sub, "%s/parts.inc", dir);
  FILE *f = fopen(sub, "w");
  fprintf(f, ".param rr=4\nR1 a amb rr\n");
  fclose(f);
  f = fopen(path, "w");
  fprintf(f, "Vamb amb 0 300\n.include parts.inc\nC1 a 1\nR2 a amb {rr}\n");
  fclose(f);
  sk__netlist *nl = NULL;
  CHECK_OK(ctx, sk__netlist_parse_file(ctx, path, &nl));
  CHECK(nl && nl->nelems == 4 && nl->nfiles == 2);
  sk__netlist_destroy(ctx, &nl);
  /* a cycle names the chain */
  f = fopen(sub, "w");
  fprintf(f, "R1 a amb 1\n.include main.net\n");
  fclose(f);
  CHECK(sk__netlist_parse_file(ctx, path, &nl) == SK_ERR_INPUT);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "parts.inc:2:10: .include cycle: ");
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "main.net -> ");
  remove(sub);
  CHECK(sk__netlist_parse_file(ctx, path, &nl) == SK_ERR_MISSING);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message,
                     "main.net:2:10: cannot open included file");
  remove(path);
  rmdir(dir);
}

static void test_errors(sk_context *ctx)
{
  static const struct {
    const char *text, *msg;
  } cases[] = {
      {"Q1 a b 1\n", "t.net:1:1: unknown element 'Q1'"},
      {"C1 a 1\nR1 a 10\n", "t.net:2:1: R1: wrong number of fields (2 after the name)"},
      {"C1 a 1\nC1 a 2\n", "t.net:2:1: duplicate element name 'C1' (first defined at t.net:1)"},
      {"C1 a Cx\n", "t.net:1:6: undefined parameter 'Cx'"},
      {"C1 a {1 + Cx}\n", "t.net:1:11: in expression '{1 + Cx}': undefined parameter 'Cx'"},
      {"C1 a {1 + }\n", "t.net:1:11: in expression '{1 + }': expected a value before '}'"},
      {"C1 a 10q\n", "t.net:1:6: malformed number '10q'"},
      {"C1 a -1\n", "t.net:1:6: C1: negative capacitance -1 J/K"},
      {"C1 a 1\nR1 a 0 -3\n", "t.net:2:8: R1: negative resistance -3 K/W"},
      {"C1 a 1\nR1 a 0 0\n", "t.net:2:8: R1: zero resistance 0 K/W"},
      {"C1 a 1\nI1 0 a PWL(0 1 1 2 1 3)\n",
       "t.net:2:20: PWL times must increase strictly: 1 after 1"},
      {"X1 a b nope\n", "t.net:1:8: X1: unknown subcircuit 'nope'"},
      {".subckt s p q\nR1 p q 1\n.ends\nX1 a s\n",
       "t.net:4:1: X1: subcircuit 's' (t.net:1) has 2 pins, the instance gives 1 nodes"},
      {".subckt s p\nR1 p q 1\nX1 p s\n.ends\nX1 a s\n",
       "X1: subcircuit 's' instantiates itself"},
      {".subckt s p\n", "t.net:1:1: .subckt s has no matching .ends"},
      {".ends\n", "t.net:1:1: .ends without a .subckt"},
      {".subckt s p params: r=1\nR1 p 0 r\n.ends\nX1 a s rr=2\n",
       "t.net:4:8: X1: subcircuit 's' has no parameter 'rr'"},
      {"+ R1 a b 1\n", "t.net:1:1: continuation line '+' without a line to continue"},
      {".foo\n", "t.net:1:1: unknown directive '.foo'"},
      {"C1 a {1\n", "t.net:1:6: unterminated '{'"},
      {"V1 a b 3\n", "t.net:1:6: V1: a fixed temperature is set against the reference"},
      {"C1 a b 3\n", "t.net:1:6: C1: a capacitance is to the reference"},
      {"R1 a a 3\n", "t.net:1:6: R1: both terminals are the node 'a'"},
      {"C1 a 1\nI1 0 a SIN(1 2)\n", "t.net:2:8: SIN(offset amplitude freq"},
      {"C1 a 1\nH1 a 0 1 m=2\n", "t.net:2:10: unknown keyword 'm' (expected n, dt0)"},
      {"C1 a 1\nE1 a 0 eps=2 area=1\n", "radiation: eps and f must lie in [0, 1]"},
      {".option tunit=F\n", "t.net:1:15: tunit=F: expected C or K"},
      {".ic a=3\n", "t.net:1:5: .ic: no node named 'a'"},
      {"* nothing\n", "the netlist has no node other than the reference"},
      {"C1 a {foo(1)}\n", "unknown function 'foo'"},
      {"C1 a} 1\n", "t.net:1:5: unexpected '}' without an opening '{'"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    char msg[1024];
    sk__netlist *nl = parse(ctx, cases[k].text, msg, sizeof msg);
    CHECK(nl == NULL);
    CHECK_STR_CONTAINS(msg, cases[k].msg);
    sk__netlist_destroy(ctx, &nl);
  }
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  test_numbers(ctx);
  test_syntax(ctx);
  test_subckt(ctx);
  test_include(ctx);
  test_errors(ctx);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

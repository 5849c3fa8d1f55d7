/* src/core/formula_expr.c: muparser formulas over named variables (the one place muparser is called, through its module): compile with located messages, evaluate, list what they read */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <muParserDLL.h>

#include "core/error.h"
#include "core/formula_expr.h"
#include "core/muparser_module.h"

#define SK__PI 3.14159265358979323846

sk_status sk__formula_compile(sk_context *ctx, const char *expr, const char *where,
                              const sk__formula_var *vars, int nvars, sk__formula *out)
{
  *out = NULL;
  SK_CHECK(ctx, expr[strspn(expr, " \t\r\n")] != '\0', SK_ERR_INPUT, "%s: empty formula", where);
  SK_CHECK(ctx, strlen(expr) <= SK__FORMULA_MAX_LEN, SK_ERR_INPUT,
           "%s: formula longer than %d characters", where, SK__FORMULA_MAX_LEN);
  const sk__muparser_module *mp = NULL;
  SK_CALL(ctx, sk__muparser_open(ctx, where, &mp));
  muParserHandle_t h = mp->create(muBASETYPE_FLOAT);
  SK_CHECK(ctx, h != NULL, SK_ERR_NOMEM, "%s: cannot create the formula parser", where);
  mp->define_const(h, "pi", SK__PI);
  for (int i = 0; i < nvars; i++) {
    mp->define_var(h, vars[i].name, vars[i].value);
  }
  mp->set_expr(h, expr);
  (void)mp->eval(h);
  if (!mp->error(h)) {
    *out = h;
    return SK_OK;
  }
  /* copied at once: the C API returns the message in a shared buffer */
  char msg[512], names[1024] = "";
  snprintf(msg, sizeof msg, "%s", mp->error_msg(h));
  const int pos = mp->error_pos(h);
  mp->release(h);
  size_t used = 0;
  for (int i = 0; i < nvars && used < sizeof names - 8; i++) {
    const int w =
        snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "", vars[i].name);
    used += w > 0 ? (size_t)w : 0;
  }
  if (used >= sizeof names - 8) {
    snprintf(names + sizeof names - 8, 8, ", ...");
  }
  return SK_ERROR(ctx, SK_ERR_INPUT,
                  "%s: cannot parse the formula '%s'%s%.0d: %s (muparser; the names known here "
                  "are %s%spi)",
                  where, expr, pos >= 0 ? " at character " : "", pos >= 0 ? pos + 1 : 0, msg,
                  names, nvars ? ", " : "");
}

/* A formula exists only once the module was loaded to compile it. */
double sk__formula_eval(sk__formula f)
{
  const sk__muparser_module *mp = sk__muparser();
  const double v = mp->eval(f);
  return mp->error(f) ? NAN : v;
}

/* The i-th variable the formula reads. */
static void read_var(sk__formula f, int i, const char **name, double **value)
{
  const muChar_t *nm = NULL;
  muFloat_t *addr = NULL;
  sk__muparser()->expr_var(f, (unsigned)i, &nm, &addr);
  *name = nm;
  *value = addr;
}

int sk__formula_reads(sk__formula f, const char *name)
{
  const int nv = f ? sk__muparser()->expr_var_num(f) : 0;
  for (int v = 0; v < nv; v++) {
    const char *used;
    double *addr;
    read_var(f, v, &used, &addr);
    if (used && !strcmp(used, name)) {
      return 1;
    }
  }
  return 0;
}

int sk__formula_nreads(sk__formula f)
{
  return f ? sk__muparser()->expr_var_num(f) : 0;
}

const double *sk__formula_read(sk__formula f, int i)
{
  const char *name;
  double *value;
  read_var(f, i, &name, &value);
  return value;
}

void sk__formula_free(sk__formula f)
{
  if (f) {
    sk__muparser()->release(f);
  }
}

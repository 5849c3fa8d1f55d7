/* src/steppers/atol_fields.c: solver.atol_field: absolute tolerances per named field of the state (u, v, ...), the field of a component being its name up to '[' */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "steppers/atol_fields.h"

/* The field of component i: its name (sk_model_component_name) up to '['. */
static void field_of(const sk_model *m, int64_t i, char *buf, size_t len)
{
  sk_model_component_name(m, i, buf, len);
  buf[strcspn(buf, "[")] = '\0';
}

/* 1 when f is one of the ", "-separated names of list. */
static int listed(const char *list, const char *f)
{
  const size_t lf = strlen(f);
  for (const char *p = list; *p;) {
    const char *e = strstr(p, ", ");
    const size_t lt = e ? (size_t)(e - p) : strlen(p);
    if (lt == lf && !strncmp(p, f, lf)) {
      return 1;
    }
    p += lt + (e ? 2 : 0);
  }
  return 0;
}

/* The distinct fields in component order, ", "-separated (cut with "..."). */
static void known_fields(const sk_model *m, char *out, size_t len)
{
  char f[96];
  out[0] = '\0';
  for (int64_t i = 0; i < sk_model_get_n(m); i++) {
    field_of(m, i, f, sizeof f);
    if (listed(out, f)) {
      continue;
    }
    const size_t used = strlen(out);
    if (used + strlen(f) + 8 >= len) {
      snprintf(out + used, len - used, ", ...");
      return;
    }
    snprintf(out + used, len - used, "%s%s", used ? ", " : "", f);
  }
}

sk_status sk__atol_fields_fill(sk_context *ctx, const sk_model *m, const char *spec,
                               const char *where, double *v)
{
  const int64_t n = sk_model_get_n(m);
  sk_status st = SK_OK;
  const char *p = spec;
  char name[96], f[96], known[1024];
  while (st == SK_OK && *p) {
    while (*p == ',' || isspace((unsigned char)*p)) {
      p++;
    }
    if (!*p) {
      break;
    }
    const size_t ln = strcspn(p, "=, \t");
    char *end = NULL;
    const double a = p[ln] == '=' ? strtod(p + ln + 1, &end) : NAN;
    if (ln == 0 || ln >= sizeof name || p[ln] != '=' || end == p + ln + 1 ||
        (*end && *end != ',' && !isspace((unsigned char)*end)) || !(isfinite(a) && a > 0)) {
      st = SK_ERROR(ctx, SK_ERR_INPUT,
                    "%ssolver.atol_field: cannot read '%.*s': expected field=value pairs with "
                    "values > 0, as \"u=1e-8, v=1e-6\"",
                    where, (int)strcspn(p, ", \t"), p);
      break;
    }
    memcpy(name, p, ln);
    name[ln] = '\0';
    int64_t hits = 0;
    for (int64_t i = 0; i < n; i++) {
      field_of(m, i, f, sizeof f);
      if (!strcmp(f, name)) {
        v[i] = a;
        hits++;
      }
    }
    if (hits == 0) {
      known_fields(m, known, sizeof known);
      st = SK_ERROR(ctx, SK_ERR_INPUT,
                    "%ssolver.atol_field: model '%s' has no field '%s' (its fields: %s)", where,
                    sk_model_get_name(m), name, known);
    }
    p = end;
  }
  return st;
}

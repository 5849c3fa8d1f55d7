/* src/io/netlist_elem.c: netlist element lines (C R G H E I V S) with their values, tables and schedules */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "io/netlist_impl.h"

/* Element forms, for messages. */
static const char *usage(char letter)
{
  switch (letter) {
  case 'C':
    return "C<name> node [0] capacitance";
  case 'R':
    return "R<name> node1 node2 resistance";
  case 'G':
    return "G<name> node1 node2 conductance|TABLE(T1 g1 T2 g2 ...)";
  case 'H':
    return "H<name> node1 node2 hA [n=exponent dt0=dT]|TABLE(dT1 hA1 ...)";
  case 'E':
    return "E<name> node1 node2 epsAF|eps=.. area=.. [f=..]";
  case 'I':
    return "I<name> from_node to_node value|PWL(..)|SIN(..)|PULSE(..)";
  case 'V':
    return "V<name> node 0 value|PWL(..)|SIN(..)|PULSE(..)";
  case 'S':
    return "S<name> node1 node2 sense_node T_low T_high g=G|q=Q [cool=0|1] [on=0|1]";
  default:
    return "X<name> node1 ... SUBCKT [name=value ...]";
  }
}

char *sk__net_join(sk_context *ctx, const char *prefix, const char *name)
{
  const size_t a = strlen(prefix), b = strlen(name);
  char *s = sk__malloc(ctx, a + b + 1);
  if (s) {
    memcpy(s, prefix, a);
    memcpy(s + a, name, b + 1);
  }
  return s;
}

sk_status sk__net_resolve_node(sk__nparser *p, const sk__nscope *scope, const sk__ntok *t,
                               int64_t *node)
{
  if (strcmp(t->text, "0") == 0 || sk__net_ieq(t->text, "gnd")) {
    *node = -1;
    return SK_OK;
  }
  if (strcmp(t->text, "=") == 0 || strcmp(t->text, "(") == 0 || strcmp(t->text, ")") == 0 ||
      t->text[0] == '{') {
    return sk__net_error(p, t, "expected a node name, got '%s'", t->text);
  }
  for (int64_t k = 0; scope->sub && k < scope->sub->npins; k++) {
    if (strcmp(p->toks[scope->sub->pin_first + k].text, t->text) == 0) {
      *node = scope->pin_nodes[k];
      return SK_OK;
    }
  }
  char *full = sk__net_join(p->ctx, scope->prefix, t->text);
  SK_CHECK(p->ctx, full != NULL, SK_ERR_NOMEM, "netlist: out of memory");
  const int64_t found = sk__nhash_find(&p->node_hash, full);
  if (found >= 0) {
    sk__free(p->ctx, full);
    *node = found;
    return SK_OK;
  }
  sk__netlist *nl = p->nl;
  sk_status st =
      sk__net_grow(p, (void **)&nl->nodes, nl->nnodes, &p->cap_nodes, sizeof *nl->nodes);
  if (st == SK_OK) {
    st = sk__nhash_put(p, &p->node_hash, full, nl->nnodes);
  }
  if (st != SK_OK) {
    sk__free(p->ctx, full);
    SK_CALL(p->ctx, st);
  }
  nl->nodes[nl->nnodes] = full;
  *node = nl->nnodes++;
  return SK_OK;
}

/* Append count reals; their offset into *off. */
static sk_status push_reals(sk__nparser *p, const double *v, int64_t count, int64_t *off)
{
  sk__netlist *nl = p->nl;
  *off = nl->nreals;
  for (int64_t k = 0; k < count; k++) {
    SK_CALL(p->ctx,
            sk__net_grow(p, (void **)&nl->reals, nl->nreals, &nl->cap_reals, sizeof *nl->reals));
    nl->reals[nl->nreals++] = v[k];
  }
  return SK_OK;
}

/* Values of tokens [k, end) into v (at most SK__NET_MAX_LIST). */
static sk_status value_list(sk__nparser *p, const sk__nscope *scope, int64_t k, int64_t end,
                            double *v, int64_t *count)
{
  *count = 0;
  for (; k < end; k++) {
    if (*count == SK__NET_MAX_LIST) {
      return sk__net_error(p, &p->toks[k], "more than %d values in one list", SK__NET_MAX_LIST);
    }
    SK_CALL(p->ctx, sk__net_value(p, scope, &p->toks[k], &v[(*count)++]));
  }
  return SK_OK;
}

/* 1 when tokens [k, end) are KEYWORD ( ... ). */
static int is_call(const sk__nparser *p, int64_t k, int64_t end, const char *keyword)
{
  return end - k >= 3 && sk__net_ieq(p->toks[k].text, keyword) &&
         strcmp(p->toks[k + 1].text, "(") == 0 && strcmp(p->toks[end - 1].text, ")") == 0;
}

/* (x, y) pairs with x strictly increasing (what = "PWL time", "TABLE T"). */
static sk_status check_pairs(sk__nparser *p, int64_t k, const double *v, int64_t count,
                             const char *what)
{
  if (count < 2 || count % 2) {
    return sk__net_error(p, &p->toks[k], "expected (%s, value) pairs, got %lld values", what,
                         (long long)count);
  }
  for (int64_t i = 2; i < count; i += 2) {
    if (!(v[i] > v[i - 2])) {
      return sk__net_error(p, &p->toks[k + 2 + i], "%ss must increase strictly: %g after %g",
                           what, v[i], v[i - 2]);
    }
  }
  return SK_OK;
}

/* A TABLE(x1 y1 x2 y2 ...) in tokens [k, end) into e. */
static sk_status table(sk__nparser *p, const sk__nscope *scope, int64_t k, int64_t end,
                       sk__net_element *e, const char *what)
{
  double *v = p->list;
  int64_t count;
  SK_CALL(p->ctx, value_list(p, scope, k + 2, end - 1, v, &count));
  SK_CALL(p->ctx, check_pairs(p, k, v, count, what));
  e->tlen = count / 2;
  SK_CALL(p->ctx, push_reals(p, v, count, &e->toff));
  return SK_OK;
}

/* A schedule in tokens [k, end): VALUE | PWL(...) | SIN(...) | PULSE(...). */
static sk_status schedule(sk__nparser *p, const sk__nscope *scope, int64_t k, int64_t end,
                          sk__net_schedule *s)
{
  double *v = p->list;
  int64_t count = 0;
  if (end - k == 1) {
    SK_CALL(p->ctx, sk__net_value(p, scope, &p->toks[k], &v[0]));
    s->kind = SK__SCHED_CONST;
    SK_CALL(p->ctx, push_reals(p, v, 1, &s->off));
    s->len = 1;
    return SK_OK;
  }
  const sk__ntok *t = &p->toks[k < end ? k : end - 1];
  if (is_call(p, k, end, "pwl")) {
    SK_CALL(p->ctx, value_list(p, scope, k + 2, end - 1, v, &count));
    SK_CALL(p->ctx, check_pairs(p, k, v, count, "PWL time"));
    s->kind = SK__SCHED_PWL;
  } else if (is_call(p, k, end, "sin")) {
    SK_CALL(p->ctx, value_list(p, scope, k + 2, end - 1, v, &count));
    if (count < 3 || count > 6) {
      return sk__net_error(p, t,
                           "SIN(offset amplitude freq [delay [damping [phase]]]) takes 3 to "
                           "6 values, got %lld",
                           (long long)count);
    }
    for (; count < 6; count++) {
      v[count] = 0.0;
    }
    s->kind = SK__SCHED_SIN;
  } else if (is_call(p, k, end, "pulse")) {
    SK_CALL(p->ctx, value_list(p, scope, k + 2, end - 1, v, &count));
    if (count < 2 || count > 7) {
      return sk__net_error(p, t, "PULSE(v1 v2 [td tr tf pw per]) takes 2 to 7 values, got %lld",
                           (long long)count);
    }
    const double defaults[7] = {0, 0, 0, 0, 0, HUGE_VAL, HUGE_VAL};
    for (; count < 7; count++) {
      v[count] = defaults[count];
    }
    if (v[3] < 0 || v[4] < 0 || v[5] < 0 || !(v[6] > 0) || v[2] < 0) {
      return sk__net_error(p, t, "PULSE: td, tr, tf and pw must be >= 0 and per > 0");
    }
    s->kind = SK__SCHED_PULSE;
  } else {
    return sk__net_error(p, t,
                         "expected a value, PWL(t1 v1 ...), SIN(vo va freq ...) or "
                         "PULSE(v1 v2 td tr tf pw per), got '%s'",
                         t->text);
  }
  s->len = count;
  SK_CALL(p->ctx, push_reals(p, v, count, &s->off));
  return SK_OK;
}

/* The keyword values k=v of tokens [k, end) for names in `names`
 * (vals[i] set, seen[i] = 1). */
static sk_status keywords(sk__nparser *p, const sk__nscope *scope, int64_t k, int64_t end,
                          const char *const *names, int nnames, double *vals, int *seen)
{
  for (; k < end; k += 3) {
    const sk__ntok *t = &p->toks[k];
    if (k + 2 >= end || strcmp(t[1].text, "=") != 0) {
      return sk__net_error(p, t, "expected NAME=VALUE, got '%s'", t->text);
    }
    int i = 0;
    while (i < nnames && !sk__net_ieq(names[i], t->text)) {
      i++;
    }
    if (i == nnames) {
      char list[128] = "";
      for (int j = 0; j < nnames; j++) {
        strncat(list, names[j], sizeof list - strlen(list) - 2);
        strncat(list, j + 1 < nnames ? ", " : "", sizeof list - strlen(list) - 1);
      }
      return sk__net_error(p, t, "unknown keyword '%s' (expected %s)", t->text, list);
    }
    SK_CALL(p->ctx, sk__net_value(p, scope, t + 2, &vals[i]));
    seen[i] = 1;
  }
  return SK_OK;
}

/* Convection: hA [n= dt0=] or TABLE(dT hA ...) from tokens [k, end). */
static sk_status convection(sk__nparser *p, const sk__nscope *scope, int64_t k, int64_t end,
                            sk__net_element *e)
{
  e->kind = SK__NET_CONV;
  e->dt0 = 1.0;
  if (is_call(p, k, end, "table")) {
    SK_CALL(p->ctx, table(p, scope, k, end, e, "TABLE dT"));
    return SK_OK;
  }
  SK_CALL(p->ctx, sk__net_value(p, scope, &p->toks[k], &e->value));
  static const char *const names[] = {"n", "dt0"};
  double vals[2] = {0.0, 1.0};
  int seen[2] = {0, 0};
  SK_CALL(p->ctx, keywords(p, scope, k + 1, end, names, 2, vals, seen));
  if (vals[0] < 0 || !(vals[1] > 0)) {
    return sk__net_error(p, &p->toks[k],
                         "convection: n must be >= 0 and dt0 > 0 (n = %g, dt0 = %g)", vals[0],
                         vals[1]);
  }
  e->exponent = vals[0];
  e->dt0 = vals[1];
  return SK_OK;
}

/* Radiation: eps*A*F, or eps= area= [f=]. */
static sk_status radiation(sk__nparser *p, const sk__nscope *scope, int64_t k, int64_t end,
                           sk__net_element *e)
{
  e->kind = SK__NET_RAD;
  if (end - k == 1) {
    SK_CALL(p->ctx, sk__net_value(p, scope, &p->toks[k], &e->value));
    return SK_OK;
  }
  static const char *const names[] = {"eps", "area", "f"};
  double vals[3] = {0.0, 0.0, 1.0};
  int seen[3] = {0, 0, 0};
  SK_CALL(p->ctx, keywords(p, scope, k, end, names, 3, vals, seen));
  if (!seen[0] || !seen[1]) {
    return sk__net_error(p, &p->toks[k], "radiation needs eps= and area= (and optionally f=)");
  }
  if (vals[0] < 0 || vals[0] > 1 || vals[2] < 0 || vals[2] > 1) {
    return sk__net_error(p, &p->toks[k], "radiation: eps and f must lie in [0, 1]");
  }
  e->value = vals[0] * vals[1] * vals[2];
  return SK_OK;
}

/* Thermostat: sense T_low T_high g=|q= [cool=] [on=] from tokens [k, end). */
static sk_status thermostat(sk__nparser *p, const sk__nscope *scope, int64_t k, int64_t end,
                            sk__net_element *e)
{
  const sk__ntok *t = &p->toks[k];
  if (end - k < 6) {
    return sk__net_error(p, t,
                         "thermostat: expected sense_node T_low T_high g=G|q=Q [cool=0|1] "
                         "[on=0|1]");
  }
  e->kind = SK__NET_SWITCH;
  SK_CALL(p->ctx, sk__net_resolve_node(p, scope, t, &e->sense));
  SK_CALL(p->ctx, sk__net_value(p, scope, t + 1, &e->low));
  SK_CALL(p->ctx, sk__net_value(p, scope, t + 2, &e->high));
  if (!(e->low < e->high)) {
    return sk__net_error(p, t + 1, "thermostat: T_low (%g) must be below T_high (%g)", e->low,
                         e->high);
  }
  static const char *const names[] = {"g", "q", "cool", "on"};
  double vals[4] = {0.0, 0.0, 0.0, -1.0};
  int seen[4] = {0, 0, 0, 0};
  SK_CALL(p->ctx, keywords(p, scope, k + 3, end, names, 4, vals, seen));
  if (seen[0] == seen[1] || vals[0] < 0 || vals[1] < 0) {
    return sk__net_error(p, t + 3,
                         "thermostat: give exactly one of g= (a switched conductance, "
                         "W/K, >= 0) or q= (a switched heat flow, W, >= 0)");
  }
  if ((vals[2] != 0 && vals[2] != 1) || (seen[3] && vals[3] != 0 && vals[3] != 1)) {
    return sk__net_error(p, t + 3, "thermostat: cool= and on= take 0 or 1");
  }
  e->sw_source = seen[1];
  e->value = seen[1] ? vals[1] : vals[0];
  e->sw_cool = vals[2] != 0;
  e->sw_on0 = seen[3] ? (int)vals[3] : -1;
  return SK_OK;
}

/* Store the element, checking that its name is new. */
static sk_status add_element(sk__nparser *p, const sk__nscope *scope, const sk__ntok *name,
                             sk__net_element *e)
{
  e->name = sk__net_join(p->ctx, scope->prefix, name->text);
  SK_CHECK(p->ctx, e->name != NULL, SK_ERR_NOMEM, "netlist: out of memory");
  const int64_t dup = sk__nhash_find(&p->elem_hash, e->name);
  sk__netlist *nl = p->nl;
  sk_status st = SK_OK;
  if (dup >= 0) {
    const sk__net_element *d = &nl->elems[dup];
    st = sk__net_error(p, name, "duplicate element name '%s' (first defined at %s:%d)", e->name,
                       nl->files[d->file], (int)d->line);
  }
  if (st == SK_OK) {
    st = sk__net_grow(p, (void **)&nl->elems, nl->nelems, &nl->cap_elems, sizeof *nl->elems);
  }
  if (st == SK_OK) {
    st = sk__nhash_put(p, &p->elem_hash, e->name, nl->nelems);
  }
  if (st != SK_OK) {
    sk__free(p->ctx, e->name);
    SK_CALL(p->ctx, st);
  }
  e->file = name->file;
  e->line = name->line;
  nl->elems[nl->nelems++] = *e;
  return SK_OK;
}

/* A node-count error for the element at t. */
sk_status sk__net_count_error(sk__nparser *p, const sk__ntok *t, char letter, int64_t fields)
{
  return sk__net_error(p, t, "%s: wrong number of fields (%lld after the name): expected %s",
                       t->text, (long long)fields, usage(letter));
}

/* The body of a two-terminal element: nodes a, b from t[1], t[2], then the kind's values. */
static sk_status two_terminal(sk__nparser *p, const sk__nscope *scope, const sk__nline *ln,
                              char letter, sk__net_element *e)
{
  const sk__ntok *t = &p->toks[ln->first];
  const int64_t k = ln->first + 3, end = ln->first + ln->n;
  if (ln->n < 4 || (letter == 'R' && ln->n != 4)) {
    return sk__net_count_error(p, t, letter, ln->n - 1);
  }
  SK_CALL(p->ctx, sk__net_resolve_node(p, scope, t + 1, &e->a));
  SK_CALL(p->ctx, sk__net_resolve_node(p, scope, t + 2, &e->b));
  if (e->a == e->b && letter != 'S') {
    return sk__net_error(p, t + 2, "%s: both terminals are the node '%s'", t->text, t[2].text);
  }
  const sk__ntok *vt = &p->toks[k];
  double v = 0.0;
  switch (letter) {
  case 'R':
    SK_CALL(p->ctx, sk__net_value(p, scope, vt, &v));
    if (!(v > 0)) {
      return sk__net_error(p, vt, "%s: %s resistance %g K/W: must be > 0", t->text,
                           v < 0 ? "negative" : "zero", v);
    }
    e->kind = SK__NET_COND;
    e->value = 1.0 / v;
    return SK_OK;
  case 'G':
    if (is_call(p, k, end, "table")) {
      e->kind = SK__NET_TABLE;
      SK_CALL(p->ctx, table(p, scope, k, end, e, "TABLE T"));
      for (int64_t i = 0; i < e->tlen; i++) {
        if (p->nl->reals[e->toff + 2 * i + 1] < 0) {
          return sk__net_error(p, vt, "%s: negative conductance in the table", t->text);
        }
      }
      return SK_OK;
    }
    if (ln->n != 4) {
      return sk__net_count_error(p, t, letter, ln->n - 1);
    }
    SK_CALL(p->ctx, sk__net_value(p, scope, vt, &e->value));
    e->kind = SK__NET_COND;
    if (e->value < 0) {
      return sk__net_error(p, vt, "%s: negative conductance %g W/K", t->text, e->value);
    }
    return SK_OK;
  case 'H':
    SK_CALL(p->ctx, convection(p, scope, k, end, e));
    break;
  case 'E':
    SK_CALL(p->ctx, radiation(p, scope, k, end, e));
    break;
  case 'I':
  case 'V':
    e->kind = letter == 'I' ? SK__NET_SOURCE : SK__NET_FIXED;
    if (letter == 'V' && e->b != -1) {
      return sk__net_error(p, t + 2,
                           "%s: a fixed temperature is set against the reference: "
                           "expected '0' or 'gnd' as the second node, got '%s'",
                           t->text, t[2].text);
    }
    if (letter == 'V' && e->a == -1) {
      return sk__net_error(p, t + 1, "%s: the reference node cannot be given a temperature",
                           t->text);
    }
    SK_CALL(p->ctx, schedule(p, scope, k, end, &e->sched));
    return SK_OK;
  default:
    return thermostat(p, scope, k, end, e);
  }
  if (e->value < 0) {
    return sk__net_error(p, vt, "%s: negative coefficient %g", t->text, e->value);
  }
  return SK_OK;
}

/* C<name> node [0] value. */
static sk_status capacitor(sk__nparser *p, const sk__nscope *scope, const sk__nline *ln,
                           sk__net_element *e)
{
  const sk__ntok *t = &p->toks[ln->first];
  if (ln->n != 3 && ln->n != 4) {
    return sk__net_count_error(p, t, 'C', ln->n - 1);
  }
  SK_CALL(p->ctx, sk__net_resolve_node(p, scope, t + 1, &e->a));
  if (ln->n == 4) {
    int64_t b;
    SK_CALL(p->ctx, sk__net_resolve_node(p, scope, t + 2, &b));
    if (b != -1) {
      return sk__net_error(p, t + 2,
                           "%s: a capacitance is to the reference: expected '0' or "
                           "'gnd' as the second node, got '%s'",
                           t->text, t[2].text);
    }
  }
  if (e->a == -1) {
    return sk__net_error(p, t + 1, "%s: a capacitance on the reference node has no effect",
                         t->text);
  }
  e->b = -1;
  e->kind = SK__NET_CAP;
  const sk__ntok *vt = &t[ln->n - 1];
  SK_CALL(p->ctx, sk__net_value(p, scope, vt, &e->value));
  if (e->value < 0) {
    return sk__net_error(p, vt, "%s: negative capacitance %g J/K", t->text, e->value);
  }
  return SK_OK;
}

sk_status sk__net_element_line(sk__nparser *p, sk__nscope *scope, int64_t li)
{
  const sk__nline *ln = &p->lines[li];
  const sk__ntok *t = &p->toks[ln->first];
  const char letter = (char)toupper((unsigned char)t->text[0]);
  if (!strchr("CRGHEIVS", letter) || !isalnum((unsigned char)t->text[0])) {
    return sk__net_error(p, t,
                         "unknown element '%s': the first letter gives the kind (C capacitance, "
                         "R resistance, G conductance, H convection, E radiation, I heat source, "
                         "V fixed temperature, S switch, X subcircuit instance)",
                         t->text);
  }
  sk__net_element e;
  memset(&e, 0, sizeof e);
  e.dt0 = 1.0;
  if (letter == 'C') {
    SK_CALL(p->ctx, capacitor(p, scope, ln, &e));
  } else {
    SK_CALL(p->ctx, two_terminal(p, scope, ln, letter, &e));
  }
  SK_CALL(p->ctx, add_element(p, scope, t, &e));
  return SK_OK;
}

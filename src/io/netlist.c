/* src/io/netlist.c: the netlist parser's driver: files to logical lines, .subckt definitions, directives (.param .option .ic .end), expansion into nodes and elements with the subcircuit instances */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/stop.h"
#include "io/netlist_impl.h"

void sk__netlist_destroy(sk_context *ctx, sk__netlist **nlp)
{
  if (!nlp || !*nlp) {
    return;
  }
  sk__netlist *nl = *nlp;
  for (int64_t i = 0; i < nl->nnodes; i++) {
    sk__free(ctx, nl->nodes[i]);
  }
  for (int64_t i = 0; i < nl->nelems; i++) {
    sk__free(ctx, nl->elems[i].name);
  }
  for (int32_t i = 0; i < nl->nfiles; i++) {
    sk__free(ctx, nl->files[i]);
  }
  sk__free(ctx, nl->nodes);
  sk__free(ctx, nl->elems);
  sk__free(ctx, nl->reals);
  sk__free(ctx, nl->files);
  sk__free(ctx, nl->ic_node);
  sk__free(ctx, nl->ic_value);
  sk__free(ctx, nl);
  *nlp = NULL;
}

int64_t sk__netlist_find_node(const sk__netlist *nl, const char *name)
{
  if (strcmp(name, "0") == 0 || sk__net_ieq(name, "gnd")) {
    return -1;
  }
  for (int64_t i = 0; i < nl->nnodes; i++) {
    if (strcmp(nl->nodes[i], name) == 0) {
      return i;
    }
  }
  return -2;
}

/* Free the parser's own state (not the netlist). */
static void parser_free(sk__nparser *p)
{
  for (int64_t i = 0; i < p->ntoks; i++) {
    sk__free(p->ctx, p->toks[i].text);
  }
  for (int64_t i = 0; i < p->nsubs; i++) {
    sk__free(p->ctx, p->subs[i].name);
  }
  sk__free(p->ctx, p->toks);
  sk__free(p->ctx, p->lines);
  sk__free(p->ctx, p->subs);
  sk__nhash_free(p, &p->node_hash);
  sk__nhash_free(p, &p->elem_hash);
}

/* ---- .subckt definitions --------------------------------------------------- */

/* Record the definition opened at line li; *next = the line after its .ends. */
static sk_status define_subckt(sk__nparser *p, int64_t li, int64_t *next)
{
  const sk__nline *ln = &p->lines[li];
  const sk__ntok *t = &p->toks[ln->first];
  if (ln->n < 2) {
    return sk__net_error(p, t,
                         ".subckt expects a name and its pins (.subckt NAME pin1 pin2 ...)");
  }
  for (int64_t k = 0; k < p->nsubs; k++) {
    if (sk__net_ieq(p->subs[k].name, t[1].text)) {
      const sk__ntok *d = &p->toks[p->lines[p->subs[k].decl_line].first];
      return sk__net_error(p, t + 1, "duplicate subcircuit '%s' (first defined at %s:%d)",
                           t[1].text, p->nl->files[d->file], (int)d->line);
    }
  }
  sk__nsub sub = {NULL, li, ln->first + 2, 0, 0, 0, li + 1, -1};
  int64_t k = 2;
  while (k < ln->n && !(k + 1 < ln->n && strcmp(t[k + 1].text, "=") == 0) &&
         !sk__net_ieq(t[k].text, "params:")) {
    k++;
  }
  sub.npins = k - 2;
  if (k < ln->n && sk__net_ieq(t[k].text, "params:")) {
    k++;
  }
  sub.par_first = ln->first + k;
  sub.par_end = ln->first + ln->n;
  for (int64_t q = li + 1; q < p->nlines; q++) {
    const sk__ntok *h = &p->toks[p->lines[q].first];
    if (sk__net_ieq(h->text, ".subckt")) {
      return sk__net_error(p, h,
                           ".subckt inside the definition of '%s' (line %d): nested "
                           "definitions are not supported; close it with .ends first",
                           t[1].text, (int)t->line);
    }
    if (sk__net_ieq(h->text, ".ends")) {
      sub.body_end = q;
      break;
    }
  }
  if (sub.body_end < 0) {
    return sk__net_error(p, t, ".subckt %s has no matching .ends", t[1].text);
  }
  char name[256];
  snprintf(name, sizeof name, "%s", t[1].text);
  for (char *c = name; *c; c++) {
    *c = (char)tolower((unsigned char)*c);
  }
  sub.name = sk__net_strdup(p->ctx, name);
  SK_CHECK(p->ctx, sub.name != NULL, SK_ERR_NOMEM, "netlist: out of memory");
  sk_status st = sk__net_grow(p, (void **)&p->subs, p->nsubs, &p->cap_subs, sizeof *p->subs);
  if (st != SK_OK) {
    sk__free(p->ctx, sub.name);
    SK_CALL_STOP(p->ctx, st);
  }
  p->subs[p->nsubs++] = sub;
  *next = sub.body_end + 1;
  return SK_OK;
}

/* Find every definition; mark where .end is. A stray .ends is an error. */
static sk_status collect_subckts(sk__nparser *p)
{
  p->end_line = p->nlines;
  for (int64_t li = 0; li < p->nlines;) {
    const sk__ntok *h = &p->toks[p->lines[li].first];
    if (sk__net_ieq(h->text, ".end")) {
      p->end_line = li;
      break;
    }
    if (sk__net_ieq(h->text, ".ends")) {
      return sk__net_error(p, h, ".ends without a .subckt before it");
    }
    if (sk__net_ieq(h->text, ".subckt")) {
      SK_CALL_STOP(p->ctx, define_subckt(p, li, &li));
    } else {
      li++;
    }
  }
  return SK_OK;
}

/* ---- directives ---------------------------------------------------------------- */

/* The NAME=VALUE pairs of tokens [k, end) of line li into the scope. */
static sk_status param_pairs(sk__nparser *p, sk__nscope *scope, const sk__nscope *eval_in,
                             int64_t k, int64_t end)
{
  for (; k < end; k += 3) {
    const sk__ntok *t = &p->toks[k];
    if (k + 2 >= end || strcmp(t[1].text, "=") != 0 ||
        !(isalpha((unsigned char)t->text[0]) || t->text[0] == '_')) {
      return sk__net_error(p, t, "expected NAME=VALUE, got '%s'", t->text);
    }
    double v;
    SK_CALL_STOP(p->ctx, sk__net_value(p, eval_in ? eval_in : scope, t + 2, &v));
    SK_CALL_STOP(p->ctx, sk__net_scope_set(p, scope, t->text, v));
  }
  return SK_OK;
}

/* .option tunit=C|K tinit=VALUE (top level). */
static sk_status option_line(sk__nparser *p, sk__nscope *scope, const sk__nline *ln)
{
  for (int64_t k = ln->first + 1; k < ln->first + ln->n; k += 3) {
    const sk__ntok *t = &p->toks[k];
    if (k + 2 >= ln->first + ln->n || strcmp(t[1].text, "=") != 0) {
      return sk__net_error(p, t, "expected NAME=VALUE (tunit=C|K, tinit=VALUE), got '%s'",
                           t->text);
    }
    if (sk__net_ieq(t->text, "tunit")) {
      if (!sk__net_ieq(t[2].text, "c") && !sk__net_ieq(t[2].text, "k")) {
        return sk__net_error(p, t + 2, "tunit=%s: expected C or K", t[2].text);
      }
      p->nl->celsius = sk__net_ieq(t[2].text, "c");
    } else if (sk__net_ieq(t->text, "tinit")) {
      SK_CALL_STOP(p->ctx, sk__net_value(p, scope, t + 2, &p->nl->tinit));
    } else {
      return sk__net_error(p, t, "unknown option '%s' (expected tunit or tinit)", t->text);
    }
  }
  return SK_OK;
}

/* .ic NODE=VALUE ... (top level; the node must exist by now). */
static sk_status ic_line(sk__nparser *p, sk__nscope *scope, const sk__nline *ln)
{
  sk__netlist *nl = p->nl;
  for (int64_t k = ln->first + 1; k < ln->first + ln->n; k += 3) {
    const sk__ntok *t = &p->toks[k];
    if (k + 2 >= ln->first + ln->n || strcmp(t[1].text, "=") != 0) {
      return sk__net_error(p, t, "expected NODE=VALUE, got '%s'", t->text);
    }
    const int64_t node = sk__nhash_find(&p->node_hash, t->text);
    if (node < 0) {
      return sk__net_error(p, t, ".ic: no node named '%s' (defined on an earlier line)", t->text);
    }
    double v;
    SK_CALL_STOP(p->ctx, sk__net_value(p, scope, t + 2, &v));
    int64_t cap = nl->cap_ic;
    SK_CALL_STOP(p->ctx,
                 sk__net_grow(p, (void **)&nl->ic_node, nl->nic, &cap, sizeof *nl->ic_node));
    SK_CALL_STOP(p->ctx, sk__net_grow(p, (void **)&nl->ic_value, nl->nic, &nl->cap_ic,
                                      sizeof *nl->ic_value));
    nl->ic_node[nl->nic] = node;
    nl->ic_value[nl->nic++] = v;
  }
  return SK_OK;
}

/* A line starting with '.' inside an expansion. */
static sk_status directive(sk__nparser *p, sk__nscope *scope, const sk__nline *ln)
{
  const sk__ntok *t = &p->toks[ln->first];
  const int top = scope->sub == NULL;
  if (sk__net_ieq(t->text, ".param")) {
    SK_CALL_STOP(p->ctx, param_pairs(p, scope, NULL, ln->first + 1, ln->first + ln->n));
    return SK_OK;
  }
  if (sk__net_ieq(t->text, ".option") || sk__net_ieq(t->text, ".options")) {
    if (!top) {
      return sk__net_error(p, t, ".option is allowed at the top level only");
    }
    return option_line(p, scope, ln);
  }
  if (sk__net_ieq(t->text, ".ic")) {
    if (!top) {
      return sk__net_error(p, t, ".ic is allowed at the top level only");
    }
    return ic_line(p, scope, ln);
  }
  return sk__net_error(p, t,
                       "unknown directive '%s' (expected .param, .include, .subckt, .ends, "
                       ".option, .ic or .end)",
                       t->text);
}

#define SK__NET_MAX_PINS 256 /* pins of one subcircuit */

/* X<name> nodes... SUBCKT [name=value ...]: expand the subcircuit. */
static sk_status instance(sk__nparser *p, sk__nscope *scope, const sk__nline *ln)
{
  const sk__ntok *t = &p->toks[ln->first];
  int64_t j = 1; /* first override name */
  while (j < ln->n && !(j + 1 < ln->n && strcmp(t[j + 1].text, "=") == 0)) {
    j++;
  }
  if (j < 2) {
    return sk__net_count_error(p, t, 'X', ln->n - 1);
  }
  const sk__ntok *sn = &t[j - 1];
  const sk__nsub *sub = NULL;
  for (int64_t k = 0; k < p->nsubs && !sub; k++) {
    sub = sk__net_ieq(p->subs[k].name, sn->text) ? &p->subs[k] : NULL;
  }
  if (!sub) {
    return sk__net_error(p, sn, "%s: unknown subcircuit '%s' (no .subckt %s in the netlist)",
                         t->text, sn->text, sn->text);
  }
  const sk__ntok *decl = &p->toks[p->lines[sub->decl_line].first];
  if (j - 2 != sub->npins) {
    return sk__net_error(p, t,
                         "%s: subcircuit '%s' (%s:%d) has %lld pins, the instance gives "
                         "%lld nodes",
                         t->text, sn->text, p->nl->files[decl->file], (int)decl->line,
                         (long long)sub->npins, (long long)(j - 2));
  }
  for (int k = 0; k < p->nactive; k++) {
    if (p->active[k] == sub) {
      return sk__net_error(p, t, "%s: subcircuit '%s' instantiates itself (recursion)", t->text,
                           sn->text);
    }
  }
  if (p->nactive >= SK__NET_MAX_DEPTH) {
    return sk__net_error(p, t, "subcircuits nested deeper than %d", SK__NET_MAX_DEPTH);
  }
  int64_t pins[SK__NET_MAX_PINS];
  if (sub->npins > SK__NET_MAX_PINS) {
    return sk__net_error(p, decl, "more than %d pins", SK__NET_MAX_PINS);
  }
  for (int64_t k = 0; k < sub->npins; k++) {
    SK_CALL(p->ctx, sk__net_resolve_node(p, scope, &t[1 + k], &pins[k]));
  }
  char *name_dot = sk__net_join(p->ctx, t->text, ".");
  char *prefix = name_dot ? sk__net_join(p->ctx, scope->prefix, name_dot) : NULL;
  sk__free(p->ctx, name_dot);
  SK_CHECK(p->ctx, prefix != NULL, SK_ERR_NOMEM, "netlist: out of memory");
  sk__nscope inner;
  memset(&inner, 0, sizeof inner);
  inner.global = scope->sub ? scope->global : scope;
  inner.prefix = prefix;
  inner.sub = sub;
  inner.pin_nodes = pins;
  sk_status st = SK_OK;
  /* defaults in the subcircuit's own scope, then the overrides in the caller's */
  for (int64_t k = sub->par_first; st == SK_OK && k < sub->par_end; k += 3) {
    const sk__ntok *d = &p->toks[k];
    if (k + 2 >= sub->par_end || strcmp(d[1].text, "=") != 0) {
      st = sk__net_error(p, d, "expected NAME=VALUE in the parameters of .subckt, got '%s'",
                         d->text);
    } else {
      double v;
      st = sk__net_value(p, &inner, d + 2, &v);
      if (st == SK_OK) {
        st = sk__net_scope_set(p, &inner, d->text, v);
      }
    }
  }
  for (int64_t k = ln->first + j; st == SK_OK && k < ln->first + ln->n; k += 3) {
    const sk__ntok *o = &p->toks[k];
    const int64_t before = inner.n;
    double v = 0;
    if (k + 2 >= ln->first + ln->n || strcmp(o[1].text, "=") != 0) {
      st = sk__net_error(p, o, "expected NAME=VALUE, got '%s'", o->text);
    } else {
      st = sk__net_value(p, scope, o + 2, &v);
    }
    if (st == SK_OK) {
      st = sk__net_scope_set(p, &inner, o->text, v);
    }
    if (st == SK_OK && inner.n != before) {
      st = sk__net_error(p, o, "%s: subcircuit '%s' has no parameter '%s'", t->text, sn->text,
                         o->text);
    }
  }
  if (st == SK_OK) {
    p->active[p->nactive++] = sub;
    st = sk__net_expand(p, &inner, sub->body_first, sub->body_end);
    p->nactive--;
  }
  sk__net_scope_free(p, &inner);
  sk__free(p->ctx, prefix);
  SK_CALL(p->ctx, st);
  return SK_OK;
}

sk_status sk__net_expand(sk__nparser *p, sk__nscope *scope, int64_t first, int64_t end)
{
  int64_t sub_k = 0;
  for (int64_t li = first; li < end; li++) {
    /* at the top level, skip the bodies of definitions */
    if (!scope->sub) {
      while (sub_k < p->nsubs && p->subs[sub_k].decl_line < li) {
        sub_k++;
      }
      if (sub_k < p->nsubs && p->subs[sub_k].decl_line == li) {
        li = p->subs[sub_k].body_end;
        continue;
      }
    }
    const sk__nline *ln = &p->lines[li];
    if (p->toks[ln->first].text[0] == '.') {
      SK_CALL_STOP(p->ctx, directive(p, scope, ln));
    } else if (toupper((unsigned char)p->toks[ln->first].text[0]) == 'X') {
      SK_CALL_STOP(p->ctx, instance(p, scope, ln));
    } else {
      SK_CALL_STOP(p->ctx, sk__net_element_line(p, scope, li));
    }
  }
  return SK_OK;
}

/* Parse the lines read into p (top level, then post-checks). */
static sk_status parse_lines(sk__nparser *p)
{
  SK_CALL_STOP(p->ctx, collect_subckts(p));
  sk__nscope top;
  memset(&top, 0, sizeof top);
  top.prefix = "";
  const sk_status st = sk__net_expand(p, &top, 0, p->end_line);
  sk__net_scope_free(p, &top);
  SK_CALL_STOP(p->ctx, st);
  SK_CHECK(p->ctx, p->nl->nnodes > 0, SK_ERR_INPUT,
           "%s: the netlist has no node other than the reference (0 / gnd)", p->nl->files[0]);
  return SK_OK;
}

/* Common driver: read (text or file), parse, hand out the netlist. */
static sk_status parse(sk_context *ctx, const char *path, const char *text, sk__netlist **out)
{
  SK_CHECK(ctx, out != NULL && (path || text), SK_ERR_ARG, "netlist parser: NULL argument");
  *out = NULL;
  sk__nparser p;
  memset(&p, 0, sizeof p);
  p.ctx = ctx;
  p.nl = sk__calloc(ctx, 1, sizeof *p.nl);
  SK_CHECK(ctx, p.nl != NULL, SK_ERR_NOMEM, "netlist: out of memory");
  sk_status st = text ? sk__net_read_named_text(&p, text, path ? path : "<netlist>")
                      : sk__net_read_file(&p, path, NULL);
  if (st == SK_OK) {
    st = parse_lines(&p);
  }
  parser_free(&p);
  if (st != SK_OK) {
    sk__netlist_destroy(ctx, &p.nl);
    SK_CALL_STOP(ctx, st);
  }
  *out = p.nl;
  return SK_OK;
}

sk_status sk__netlist_parse_file(sk_context *ctx, const char *path, sk__netlist **out)
{
  SK_CHECK(ctx, path != NULL, SK_ERR_ARG, "sk__netlist_parse_file: NULL path");
  SK_CALL_STOP(ctx, parse(ctx, path, NULL, out));
  return SK_OK;
}

sk_status sk__netlist_parse_string(sk_context *ctx, const char *text, const char *name,
                                   sk__netlist **out)
{
  SK_CHECK(ctx, text != NULL, SK_ERR_ARG, "sk__netlist_parse_string: NULL text");
  SK_CALL_STOP(ctx, parse(ctx, name ? name : "<netlist>", text, out));
  return SK_OK;
}

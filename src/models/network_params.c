/* src/models/network_params.c: a thermal network's element values (R, G, H, C, constant I) as model parameters named <element>.<letter> */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "models/network_impl.h"

/* The element's letter: the first of its own name (after the last '.' of "X1.R3"). */
static char letter_of(const sk__net_element *e)
{
  const char *base = e->name ? strrchr(e->name, '.') : NULL;
  base = base ? base + 1 : e->name;
  return base && base[0] ? (char)toupper((unsigned char)base[0]) : '?';
}

/* The letter under which element e has a value parameter, or 0. */
static char param_letter(const sk__netlist *nl, const sk__net_element *e)
{
  const char l = letter_of(e);
  switch (e->kind) {
  case SK__NET_COND:
    return l == 'R' || l == 'G' ? l : 0;
  case SK__NET_CONV:
    return 'H';
  case SK__NET_CAP:
    return 'C';
  case SK__NET_SOURCE:
    return e->sched.kind == SK__SCHED_CONST && e->sched.off < nl->nreals ? 'I' : 0;
  default:
    return 0;
  }
}

/* sk_param_changed_fn: parameter k's value as written into its element. */
static int network_param_changed(int k, void *ud)
{
  sk__network *d = ud;
  sk__netlist *nl = d->nl;
  sk__net_element *e = &nl->elems[d->pelem[k]];
  const double v = d->pval[k];
  switch (d->pletter[k]) {
  case 'R':
    e->value = 1.0 / v;
    break;
  case 'I':
    nl->reals[e->sched.off] = v;
    break;
  case 'C': /* the node capacitances are sums over the C elements */
    e->value = v;
    memset(d->cap, 0, (size_t)d->nu * sizeof *d->cap);
    for (int64_t j = 0; j < nl->nelems; j++) {
      const sk__net_element *c = &nl->elems[j];
      if (c->kind == SK__NET_CAP && d->state_of[c->a] >= 0) {
        d->cap[d->state_of[c->a]] += c->value;
      }
    }
    break;
  default:
    e->value = v;
  }
  return 0;
}

sk_status sk__network_declare_params(sk_model *m, sk__network *d)
{
  sk_context *ctx = d->ctx;
  const sk__netlist *nl = d->nl;
  int64_t np = 0;
  for (int64_t k = 0; k < nl->nelems; k++) {
    np += param_letter(nl, &nl->elems[k]) != 0;
  }
  if (np == 0) {
    return SK_OK;
  }
  d->pval = sk__malloc(ctx, (size_t)np * sizeof *d->pval);
  d->pelem = sk__malloc(ctx, (size_t)np * sizeof *d->pelem);
  d->pletter = sk__malloc(ctx, (size_t)np);
  SK_CHECK(ctx, d->pval && d->pelem && d->pletter, SK_ERR_NOMEM,
           "network: cannot allocate the parameters");
  for (int64_t k = 0; k < nl->nelems; k++) {
    const sk__net_element *e = &nl->elems[k];
    const char l = param_letter(nl, e);
    if (!l) {
      continue;
    }
    const int64_t i = d->nparams++;
    d->pelem[i] = k;
    d->pletter[i] = l;
    d->pval[i] = l == 'R' ? 1.0 / e->value : l == 'I' ? nl->reals[e->sched.off] : e->value;
    char name[64];
    snprintf(name, sizeof name, "%.60s.%c", e->name, l);
    SK_CALL(ctx, sk_model_add_param(m, name, &d->pval[i]));
  }
  return sk_model_set_param_changed(m, network_param_changed);
}

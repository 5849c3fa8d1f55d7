/* src/models/network_checks.c: structural checks of a thermal network before integration: massless nodes without conductance, massless groups and sub-networks with no path to a node that anchors them */
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "models/network_impl.h"

/* Union-find root of k with path halving. */
static int64_t root(int64_t *parent, int64_t k)
{
  while (parent[k] != k) {
    parent[k] = parent[parent[k]];
    k = parent[k];
  }
  return k;
}

/* The names of the group with root r (at most 8, then a count) into buf. */
static void group_names(const sk__network *d, int64_t *parent, const int *member, int64_t r,
                        char *buf, size_t len)
{
  const sk__netlist *nl = d->nl;
  size_t used = 0;
  int64_t count = 0;
  buf[0] = '\0';
  for (int64_t k = 0; k < nl->nnodes; k++) {
    if (!member[k] || root(parent, k) != r) {
      continue;
    }
    if (count < 8 && used < len) {
      used += (size_t)snprintf(buf + used, len - used, "%s'%s'", count ? ", " : "", nl->nodes[k]);
    }
    count++;
  }
  if (count > 8 && used < len) {
    snprintf(buf + used, len - used, " and %lld more", (long long)(count - 8));
  }
}

/* Groups of member nodes joined by conductive elements: a group is
 * anchored when an element joins it to a node that is not a member (or
 * the reference). On the first unanchored group, record `what` with its
 * nodes and return SK_ERR_INPUT. */
static sk_status floating_groups(sk__network *d, const int *member, const char *what)
{
  sk_context *ctx = d->ctx;
  const sk__netlist *nl = d->nl;
  const int64_t nn = nl->nnodes;
  int64_t *parent = sk__malloc(ctx, (size_t)nn * sizeof *parent);
  char *anchored = sk__calloc(ctx, (size_t)nn, 1);
  if (!parent || !anchored) {
    sk__free(ctx, parent);
    sk__free(ctx, anchored);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "network: out of memory (checks)");
  }
  for (int64_t k = 0; k < nn; k++) {
    parent[k] = k;
  }
  for (int64_t k = 0; k < nl->nelems; k++) {
    const sk__net_element *e = &nl->elems[k];
    const int ma = e->a >= 0 && member[e->a], mb = e->b >= 0 && member[e->b];
    if (sk__network_conductive(e) && ma && mb) {
      parent[root(parent, e->a)] = root(parent, e->b);
    }
  }
  for (int64_t k = 0; k < nl->nelems; k++) {
    const sk__net_element *e = &nl->elems[k];
    const int ma = e->a >= 0 && member[e->a], mb = e->b >= 0 && member[e->b];
    if (sk__network_conductive(e) && ma != mb) {
      anchored[root(parent, ma ? e->a : e->b)] = 1;
    }
  }
  sk_status st = SK_OK;
  for (int64_t k = 0; k < nn && st == SK_OK; k++) {
    if (member[k] && !anchored[root(parent, k)]) {
      char names[1024];
      group_names(d, parent, member, root(parent, k), names, sizeof names);
      st = SK_ERROR(ctx, SK_ERR_INPUT, "%s: %s: %s", nl->files[0], what, names);
    }
  }
  sk__free(ctx, parent);
  sk__free(ctx, anchored);
  return st;
}

/* A massless unknown node with no conductive element at all. */
static sk_status isolated_massless(sk__network *d, const int *massless)
{
  sk_context *ctx = d->ctx;
  const sk__netlist *nl = d->nl;
  char *touched = sk__calloc(ctx, (size_t)nl->nnodes, 1);
  SK_CHECK(ctx, touched != NULL, SK_ERR_NOMEM, "network: out of memory (checks)");
  for (int64_t k = 0; k < nl->nelems; k++) {
    const sk__net_element *e = &nl->elems[k];
    if (sk__network_conductive(e)) {
      touched[e->a >= 0 ? e->a : 0] |= e->a >= 0;
      touched[e->b >= 0 ? e->b : 0] |= e->b >= 0;
    }
  }
  sk_status st = SK_OK;
  for (int64_t k = 0; k < nl->nnodes && st == SK_OK; k++) {
    if (massless[k] && !touched[k]) {
      st = SK_ERROR(ctx, SK_ERR_INPUT,
                    "%s: massless node '%s' (no capacitance) has no conductance at all (no R, "
                    "G, H or E element): its balance 0 = P is singular; give it a capacitance "
                    "(C) or connect it",
                    nl->files[0], nl->nodes[k]);
    }
  }
  sk__free(ctx, touched);
  return st;
}

sk_status sk__network_check(sk__network *d, int check_steady)
{
  sk_context *ctx = d->ctx;
  const sk__netlist *nl = d->nl;
  int *member = sk__calloc(ctx, (size_t)nl->nnodes, sizeof *member);
  SK_CHECK(ctx, member != NULL, SK_ERR_NOMEM, "network: out of memory (checks)");
  for (int64_t k = 0; k < nl->nnodes; k++) {
    const int64_t s = d->state_of[k];
    member[k] = s >= 0 && !(d->cap[s] > 0.0);
  }
  sk_status st = d->dae ? isolated_massless(d, member) : SK_OK;
  if (st == SK_OK && d->dae) {
    st = floating_groups(d, member,
                         "singular algebraic part: massless nodes with no conductive path to a "
                         "node with a capacitance, a fixed temperature or the reference (their "
                         "temperatures are undetermined)");
  }
  if (st == SK_OK && check_steady) {
    for (int64_t k = 0; k < nl->nnodes; k++) {
      member[k] = d->state_of[k] >= 0;
    }
    st = floating_groups(d, member,
                         "floating sub-network with no conductive path to a fixed-temperature "
                         "node or the reference (its steady state is singular: the heat it holds "
                         "is conserved)");
  }
  sk__free(ctx, member);
  if (st != SK_OK) {
    sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
  }
  return st;
}

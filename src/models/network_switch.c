/* src/models/network_switch.c: thermostats of a thermal network: their states, the event functions that locate their switching, and the action that flips them */
#include "core/error.h"
#include "models/network_impl.h"

/* Initial temperature of netlist node k (the reference is at 0). */
static double initial_temperature(const sk__network *d, int64_t k)
{
  if (k < 0) {
    return 0.0;
  }
  const int64_t s = d->state_of[k];
  return s >= 0 ? d->t0[s]
                : sk__net_schedule_eval(d->nl, &d->nl->elems[d->fixed_by[k]].sched, 0.0);
}

void sk__network_switches_reset(sk__network *d)
{
  for (int64_t k = 0; k < d->nsw; k++) {
    const sk__net_element *e = &d->nl->elems[d->sw_elem[k]];
    const double mid = 0.5 * (e->low + e->high), t0 = initial_temperature(d, e->sense);
    d->elem_on[d->sw_elem[k]] =
        (unsigned char)(e->sw_on0 >= 0 ? e->sw_on0 : (e->sw_cool ? t0 > mid : t0 < mid));
  }
}

sk_status sk__network_switches_init(sk__network *d)
{
  sk_context *ctx = d->ctx;
  const sk__netlist *nl = d->nl;
  d->elem_on = sk__calloc(ctx, (size_t)(nl->nelems + 1), sizeof *d->elem_on);
  d->sw_elem = sk__malloc(ctx, (size_t)(nl->nelems + 1) * sizeof *d->sw_elem);
  SK_CHECK(ctx, d->elem_on && d->sw_elem, SK_ERR_NOMEM, "network: out of memory (thermostats)");
  d->nsw = 0;
  for (int64_t k = 0; k < nl->nelems; k++) {
    if (nl->elems[k].kind == SK__NET_SWITCH) {
      d->sw_elem[d->nsw++] = k;
    }
  }
  sk__network_switches_reset(d);
  return SK_OK;
}

int sk__network_events(double t, const double *y, double *g, void *ud)
{
  sk__network *d = ud;
  sk__network_fill_temperatures(d, t, y);
  for (int64_t k = 0; k < d->nsw; k++) {
    const sk__net_element *e = &d->nl->elems[d->sw_elem[k]];
    const int on = d->elem_on[d->sw_elem[k]];
    /* heating ends at high and starts at low; cooling starts at high and ends at low */
    const double threshold = on != e->sw_cool ? e->high : e->low;
    g[k] = (e->sense < 0 ? 0.0 : d->temp[e->sense]) - threshold;
  }
  return 0;
}

int sk__network_switch_action(double t, const double *y, const int *fired, void *ud)
{
  (void)t;
  (void)y;
  sk__network *d = ud;
  if (!fired) { /* the start of a run */
    sk__network_switches_reset(d);
    return 0;
  }
  for (int64_t k = 0; k < d->nsw; k++) {
    if (fired[k]) {
      d->elem_on[d->sw_elem[k]] = !d->elem_on[d->sw_elem[k]];
    }
  }
  return 0;
}

const char *sk__network_switch_name(const sk__network *d, int64_t k)
{
  return k >= 0 && k < d->nsw ? d->nl->elems[d->sw_elem[k]].name : "?";
}

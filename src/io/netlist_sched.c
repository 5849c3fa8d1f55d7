/* src/io/netlist_sched.c: evaluation of netlist schedules (constant, PWL, SIN, PULSE) and piecewise-linear tables */
#include <math.h>

#include "io/netlist.h"

/* Linear interpolation in n (x, y) pairs at xy, constant beyond the ends;
 * the slope into *slope (0 beyond the ends). */
static double interpolate(const double *xy, int64_t n, double x, double *slope)
{
  *slope = 0.0;
  if (x <= xy[0]) {
    return xy[1];
  }
  if (x >= xy[2 * (n - 1)]) {
    return xy[2 * (n - 1) + 1];
  }
  int64_t lo = 0, hi = n - 1; /* xy[2 lo] < x < xy[2 hi] */
  while (hi - lo > 1) {
    const int64_t mid = (lo + hi) / 2;
    if (xy[2 * mid] <= x) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  const double x0 = xy[2 * lo], y0 = xy[2 * lo + 1], x1 = xy[2 * hi], y1 = xy[2 * hi + 1];
  *slope = (y1 - y0) / (x1 - x0);
  return y0 + *slope * (x - x0);
}

/* SPICE PULSE(v1 v2 td tr tf pw per) at t. */
static double pulse(const double *v, double t)
{
  const double v1 = v[0], v2 = v[1], td = v[2], tr = v[3], tf = v[4], pw = v[5], per = v[6];
  if (t < td) {
    return v1;
  }
  double tau = t - td;
  if (isfinite(per)) {
    tau = fmod(tau, per);
  }
  if (tau < tr) {
    return v1 + (v2 - v1) * tau / tr;
  }
  if (tau < tr + pw) {
    return v2;
  }
  if (tau < tr + pw + tf) {
    return v2 + (v1 - v2) * (tau - tr - pw) / tf;
  }
  return v1;
}

double sk__net_schedule_eval(const sk__netlist *nl, const sk__net_schedule *s, double t)
{
  const double *v = nl->reals + s->off;
  double slope;
  switch (s->kind) {
  case SK__SCHED_PWL:
    return interpolate(v, s->len / 2, t, &slope);
  case SK__SCHED_SIN: {
    /* vo + va exp(-theta (t - td)) sin(2 pi f (t - td) + phase), vo before td */
    const double deg = 3.14159265358979323846 / 180.0;
    if (t < v[3]) {
      return v[0] + v[1] * sin(v[5] * deg);
    }
    const double tau = t - v[3];
    return v[0] +
           v[1] * exp(-v[4] * tau) * sin(2.0 * 3.14159265358979323846 * v[2] * tau + v[5] * deg);
  }
  case SK__SCHED_PULSE:
    return pulse(v, t);
  default:
    return v[0];
  }
}

double sk__net_table_eval(const sk__netlist *nl, const sk__net_element *e, double x,
                          double *slope)
{
  return interpolate(nl->reals + e->toff, e->tlen, x, slope);
}

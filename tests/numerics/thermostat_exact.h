/* tests/numerics/thermostat_exact.h: the closed-form switch times of a lumped body under a hysteresis thermostat, and the check of an engine's event log against them */
#ifndef SK_TEST_THERMOSTAT_EXACT_H
#define SK_TEST_THERMOSTAT_EXACT_H

#include "test.h"

/* A body relaxing with time constant tau towards t_heat while heated and
 * towards t_amb while not, the heater switched off when it rises through
 * high and on when it falls through low, starting heated at t_start < high:
 * each leg is an exponential, so the switch times are
 *   t1 = tau ln((t_heat - t_start) / (t_heat - high)),
 * then alternately tau ln((high - t_amb) / (low - t_amb)) of cooling and
 * tau ln((t_heat - low) / (t_heat - high)) of heating. Writes those in
 * (0, t_end] into times (at most cap); returns their number. */
static int thermostat_switch_times(double tau, double t_heat, double t_amb, double low,
                                   double high, double t_start, double t_end, double *times,
                                   int cap)
{
  const double cool = tau * log((high - t_amb) / (low - t_amb));
  const double heat = tau * log((t_heat - low) / (t_heat - high));
  double t = tau * log((t_heat - t_start) / (t_heat - high));
  int n = 0;
  for (int k = 0; t <= t_end && n < cap; k++) {
    times[n++] = t;
    t += k % 2 == 0 ? cool : heat;
  }
  return n;
}

/* Check the event log of s against the ne exact times: as many events, all
 * of root 0, alternately rising (the heater goes off) and falling (on).
 * Returns the worst relative time error. */
static double check_switch_log(const sk_stepper *s, const double *ex, int ne)
{
  const sk_event_record *log = NULL;
  size_t n = 0;
  sk_stepper_get_events(s, &log, &n);
  CHECK_EQ_INT(n, ne);
  double worst = 0.0;
  for (size_t k = 0; k < n && (int)k < ne; k++) {
    worst = fmax(worst, fabs(log[k].t - ex[k]) / ex[k]);
    CHECK_EQ_INT(log[k].direction, k % 2 == 0 ? 1 : -1);
    CHECK_EQ_INT(log[k].index, 0);
  }
  return worst;
}

#endif

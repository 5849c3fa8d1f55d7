/* src/cli/network_report.c: the energy balance and the thermostat event log that `stiffkit run` prints for thermal network models, and the event log (printed and <prefix>.events.csv) of any model with events */
#include <stdlib.h>

#include "cli/network_report.h"
#include "core/error.h"

void cli_network_report(const sk_model *m, const double *y, double t, FILE *f)
{
  sk_network_energy e;
  if (!sk_network_is_network(m) || !y || sk_network_energy_balance(m, y, &e) != SK_OK) {
    return;
  }
  fprintf(f, "energy balance at t = %.6e (J):\n", t);
  fprintf(f, "  heat stored                 %.6e\n", e.stored);
  fprintf(f, "  heat injected by sources    %.6e\n", e.injected);
  fprintf(f, "  heat leaving (fixed nodes)  %.6e\n", e.leaving);
  fprintf(f, "  imbalance stored - (in - out) = %.6e, relative %.3e\n", e.imbalance, e.relative);
}

void cli_network_events(const sk_model *m, const sk_stepper *s, FILE *f)
{
  const sk_event_record *log;
  size_t n;
  if (!s || !sk_network_is_network(m) || sk_model_get_nevents(m) == 0) {
    return;
  }
  sk_stepper_get_events(s, &log, &n);
  fprintf(f, "thermostat switching (%zu event%s):\n", n, n == 1 ? "" : "s");
  for (size_t k = 0; k < n && k < 40; k++) {
    /* the root rises through its threshold: heating turns off, cooling on (and the reverse) */
    const char *name = sk_network_event_name(m, log[k].index);
    fprintf(f, "  t = %.9e  %-24s %s\n", log[k].t, name ? name : "?",
            log[k].direction > 0 ? "rose through its upper set point"
                                 : "fell through its lower set point");
  }
  if (n > 40) {
    fprintf(f, "  ... %zu more\n", n - 40);
  }
}

void cli_model_events(const sk_model *m, const sk_stepper *s, FILE *f)
{
  const sk_event_record *log;
  size_t n;
  if (!s || sk_network_is_network(m) || sk_model_get_nevents(m) == 0) {
    return;
  }
  sk_stepper_get_events(s, &log, &n);
  fprintf(f, "events located: %zu (event index, direction; all in <prefix>.events.csv)\n", n);
  for (size_t k = 0; k < n && k < 20; k++) {
    fprintf(f, "  t = %-18.10g event %d %s\n", log[k].t, log[k].index,
            log[k].direction > 0 ? "rising" : "falling");
  }
  if (n > 20) {
    fprintf(f, "  ... %zu more\n", n - 20);
  }
}

sk_status cli_network_series_open(sk_context *ctx, const sk_model *m, sk_results *res,
                                  cli_network_series *ns)
{
  ns->flows = ns->events = -1;
  ns->logged = 0;
  if (res && sk_model_get_nevents(m) > 0) { /* any model's events: <prefix>.events.csv */
    static const char *const cols[] = {"event", "direction"};
    SK_CALL(ctx, sk_results_add_series(res, "events", 2, cols, &ns->events));
  }
  if (!res || !sk_network_is_network(m)) {
    return SK_OK;
  }
  ns->nflows = sk_network_flow_count(m);
  if (ns->nflows > 0 && ns->nflows <= 100000) {
    const char **names = calloc((size_t)ns->nflows, sizeof *names);
    ns->q = calloc((size_t)ns->nflows, sizeof *ns->q);
    SK_CHECK(ctx, names && ns->q, SK_ERR_NOMEM, "cannot allocate the heat-flow series");
    for (int64_t k = 0; k < ns->nflows; k++) {
      names[k] = sk_network_flow_name(m, k);
    }
    const sk_status st =
        sk_results_add_series(res, "flows", (size_t)ns->nflows, names, &ns->flows);
    free(names);
    SK_CALL(ctx, st);
  }
  return SK_OK;
}

sk_status cli_network_series_write(sk_context *ctx, const sk_model *m, const sk_stepper *s,
                                   sk_results *res, cli_network_series *ns, double t,
                                   const double *y)
{
  if (ns->events >= 0) {
    const sk_event_record *log;
    size_t n;
    sk_stepper_get_events(s, &log, &n);
    for (; ns->logged < n; ns->logged++) {
      const double row[2] = {(double)log[ns->logged].index, (double)log[ns->logged].direction};
      SK_CALL(ctx, sk_results_write_series(res, ns->events, log[ns->logged].t, row));
    }
  }
  if (ns->flows >= 0) {
    SK_CALL(ctx, sk_network_flows(m, t, y, ns->q));
    SK_CALL(ctx, sk_results_write_series(res, ns->flows, t, ns->q));
  }
  return SK_OK;
}

void cli_network_series_free(cli_network_series *ns)
{
  free(ns->q);
  ns->q = NULL;
}

/* src/cli/network_report.c: the energy balance and the thermostat event log that `stiffkit run` prints for thermal network models */
#include "cli/network_report.h"

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
  sk_stepper_get_events(s, &log, &n);
  if (!sk_network_is_network(m) || sk_model_get_nevents(m) == 0) {
    return;
  }
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

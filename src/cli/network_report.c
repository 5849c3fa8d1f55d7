/* src/cli/network_report.c: the energy-balance lines that `stiffkit run` prints for thermal network models */
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

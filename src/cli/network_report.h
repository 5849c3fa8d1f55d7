/* src/cli/network_report.h: the energy-balance lines that `stiffkit run` prints for thermal network models */
#ifndef SK_CLI_NETWORK_REPORT_H
#define SK_CLI_NETWORK_REPORT_H

#include <stdio.h>

#include "stiffkit/stiffkit.h"

/* cli_network_report: for a network model with energy states, print the
 * energy balance at the state y (time t) to f; nothing for other models. */
void cli_network_report(const sk_model *m, const double *y, double t, FILE *f);

#endif

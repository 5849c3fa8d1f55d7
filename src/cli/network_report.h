/* src/cli/network_report.h: the energy balance and the thermostat event log that `stiffkit run` prints for thermal network models */
#ifndef SK_CLI_NETWORK_REPORT_H
#define SK_CLI_NETWORK_REPORT_H

#include <stdio.h>

#include "stiffkit/stiffkit.h"

/* cli_network_report: for a network model with energy states, print the
 * energy balance at the state y (time t) to f; nothing for other models. */
void cli_network_report(const sk_model *m, const double *y, double t, FILE *f);

/* cli_network_events: for a network model with thermostats, print the
 * switching log of the run (time, thermostat, on/off) to f, at most 40
 * lines and then a count; nothing for other models. */
void cli_network_events(const sk_model *m, const sk_stepper *s, FILE *f);

#endif

/* src/cli/network_report.h: the energy balance and the thermostat event log that `stiffkit run` prints for thermal network models, and the event log of any model with events */
#ifndef SK_CLI_NETWORK_REPORT_H
#define SK_CLI_NETWORK_REPORT_H

#include <stdio.h>

#include "stiffkit/results.h"
#include "stiffkit/stiffkit.h"

/* The extra result series of a network run: element heat flows at the
 * output times (<prefix>.flows.csv, HDF5 /flows) and the thermostat event
 * log (<prefix>.events.csv, HDF5 /events: time, event index, direction; written for any
 * model with events). */
typedef struct {
  int flows, events; /* series ids, -1 when not written */
  int64_t nflows;
  double *q;     /* nflows */
  size_t logged; /* events written so far */
} cli_network_series;

/* cli_model_events: the events a model other than a network located (the
 * first 20: time, index, direction); nothing for a model without events. */
void cli_model_events(const sk_model *m, const sk_stepper *s, FILE *f);

/* cli_network_series_open: add the series for a network model (flows when
 * it has at most 100000 flow elements, events when it has thermostats);
 * nothing for other models. Errors: those of sk_results_add_series,
 * SK_ERR_NOMEM. */
sk_status cli_network_series_open(sk_context *ctx, const sk_model *m, sk_results *res,
                                  cli_network_series *ns);

/* cli_network_series_write: the flows at (t, y) and the events located
 * since the last call. Errors: those of sk_results_write_series. */
sk_status cli_network_series_write(sk_context *ctx, const sk_model *m, const sk_stepper *s,
                                   sk_results *res, cli_network_series *ns, double t,
                                   const double *y);

/* cli_network_series_free: frees the work array (accepts a zeroed struct). */
void cli_network_series_free(cli_network_series *ns);

/* cli_network_report: for a network model with energy states, print the
 * energy balance at the state y (time t) to f; nothing for other models. */
void cli_network_report(const sk_model *m, const double *y, double t, FILE *f);

/* cli_network_events: for a network model with thermostats, print the
 * switching log of the run (time, thermostat, on/off) to f, at most 40
 * lines and then a count; nothing for other models. */
void cli_network_events(const sk_model *m, const sk_stepper *s, FILE *f);

#endif

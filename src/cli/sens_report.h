/* src/cli/sens_report.h: the forward sensitivities a run writes: the probes' dy/dp series and the provenance's parameter list */
#ifndef SK_CLI_SENS_REPORT_H
#define SK_CLI_SENS_REPORT_H

#include <stddef.h>

#include "stiffkit/results.h"
#include "stiffkit/stiffkit.h"

/* The sensitivity series of a run with solver.sensitivity.parameters:
 * <prefix>.sensitivity.csv and HDF5 /sensitivity (time, values), one column
 * per parameter and probe, named "d<probe>/d<parameter>" (parameters outer,
 * probes inner), and with `full` the HDF5 datasets /sensitivity/<parameter>
 * (time x state: dy/dp at every output time). */
typedef struct {
  int id;      /* series id, -1 when not written */
  int64_t n;   /* state length */
  int full;    /* the full dy/dp go to the HDF5 file */
  double *buf; /* n, or np x n with full: the sensitivity vectors */
  double *row; /* np x nprobes */
} cli_sens_series;

/* cli_sens_series_open: add the series when the stepper computes
 * sensitivities (of the parameters of m) and the run has probes; nothing
 * otherwise; with full the HDF5 blocks too. Errors: those of
 * sk_results_add_series and sk_results_series_blocks, SK_ERR_INPUT with
 * full (a parameter named time or values, more than 64 parameters),
 * SK_ERR_NOMEM. */
sk_status cli_sens_series_open(sk_context *ctx, const sk_model *m, sk_stepper *s,
                               const int64_t *probes, const char *const *probe_names,
                               size_t nprobes, int full, sk_results *res, cli_sens_series *ss);

/* cli_sens_series_open_named: the same for np parameters named param_names
 * (at most 64 with full) of a state of length n, where no stepper is at
 * hand (a mechanism's simulation). */
sk_status cli_sens_series_open_named(sk_context *ctx, int np, const char *const *param_names,
                                     int64_t n, const int64_t *probes,
                                     const char *const *probe_names, size_t nprobes, int full,
                                     sk_results *res, cli_sens_series *ss);

/* cli_sens_series_write_vectors: the probes' entries of the np sensitivity
 * vectors S + j stride (each of the series' state length n) at t.
 * Errors: those of sk_results_write_series. */
sk_status cli_sens_series_write_vectors(sk_results *res, cli_sens_series *ss,
                                        const int64_t *probes, size_t nprobes, int np,
                                        const double *S, size_t stride, double t);

/* cli_sens_series_write: the probes' sensitivities at the stepper's time t.
 * Errors: those of sk_stepper_get_sensitivity and sk_results_write_series. */
sk_status cli_sens_series_write(sk_context *ctx, sk_stepper *s, const int64_t *probes,
                                size_t nprobes, sk_results *res, cli_sens_series *ss, double t);

/* cli_sens_series_free: frees the work arrays (accepts a zeroed struct). */
void cli_sens_series_free(cli_sens_series *ss);

/* cli_sens_provenance: append to buf (of size len, NUL-terminated) the
 * provenance's top-level `sensitivity` mapping: each parameter's name,
 * nominal value and scale pbar (the method and the error control are in
 * the effective options); nothing when the stepper computes none. */
void cli_sens_provenance(const sk_model *m, const sk_stepper *s, char *buf, size_t len);
/* cli_sens_provenance_entry: parameter j of that list (j = 0 opens it). */
void cli_sens_provenance_entry(int j, const char *name, double value, double pbar, char *buf,
                               size_t len);

#endif

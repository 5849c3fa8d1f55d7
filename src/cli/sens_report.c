/* src/cli/sens_report.c: the probes' sensitivity series of a run and the parameter list of its provenance */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/sens_report.h"
#include "core/error.h"

sk_status cli_sens_series_open(sk_context *ctx, const sk_model *m, sk_stepper *s,
                               const int64_t *probes, const char *const *probe_names,
                               size_t nprobes, int full, sk_results *res, cli_sens_series *ss)
{
  const int np = sk_stepper_get_nsens(s);
  if (np > 64 && full) {
    return SK_ERROR(ctx, SK_ERR_INPUT,
                    "%d sensitivity parameters: the HDF5 file holds the full dy/dp of at most 64 "
                    "(set output.states = false to write the probes' only)",
                    np);
  }
  const char **pn = calloc((size_t)np + 1, sizeof *pn);
  SK_CHECK(ctx, pn != NULL, SK_ERR_NOMEM, "cannot allocate the sensitivity series");
  for (int j = 0; j < np; j++) {
    pn[j] = sk_model_get_param_name(m, sk_stepper_get_sens_param(s, j));
  }
  const sk_status st = cli_sens_series_open_named(ctx, np, pn, sk_model_get_n(m), probes,
                                                  probe_names, nprobes, full, res, ss);
  free(pn);
  return st;
}

sk_status cli_sens_series_open_named(sk_context *ctx, int np, const char *const *param_names,
                                     int64_t n, const int64_t *probes,
                                     const char *const *probe_names, size_t nprobes, int full,
                                     sk_results *res, cli_sens_series *ss)
{
  memset(ss, 0, sizeof *ss);
  ss->id = -1;
  if (np == 0 || nprobes == 0 || !res) {
    return SK_OK;
  }
  ss->n = n;
  ss->full = full;
  const size_t ncols = (size_t)np * nprobes;
  ss->buf = malloc((size_t)(full ? np : 1) * (size_t)ss->n * sizeof *ss->buf);
  ss->row = malloc(ncols * sizeof *ss->row);
  char **names = calloc(ncols, sizeof *names);
  sk_status st = ss->buf && ss->row && names
                     ? SK_OK
                     : SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the sensitivity series");
  for (size_t c = 0; st == SK_OK && c < ncols; c++) {
    const char *pn = param_names[c / nprobes];
    char yname[96];
    if (probe_names && probe_names[c % nprobes]) {
      snprintf(yname, sizeof yname, "%s", probe_names[c % nprobes]);
    } else {
      snprintf(yname, sizeof yname, "y[%lld]", (long long)probes[c % nprobes]);
    }
    const size_t len = strlen(yname) + strlen(pn ? pn : "?") + 4;
    names[c] = malloc(len);
    if (!names[c]) {
      st = SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the sensitivity series");
      break;
    }
    snprintf(names[c], len, "d%s/d%s", yname, pn ? pn : "?");
  }
  if (st == SK_OK) {
    st = sk_results_add_series(res, "sensitivity", ncols, (const char *const *)names, &ss->id);
  }
  if (st == SK_OK && full) { /* /sensitivity/<parameter>: dy/dp, time x state */
    for (int j = 0; j < np; j++) {
      if (!strcmp(param_names[j], "time") || !strcmp(param_names[j], "values")) {
        st = SK_ERROR(ctx, SK_ERR_INPUT,
                      "sensitivity parameter '%s' would overwrite the HDF5 dataset "
                      "/sensitivity/%s: rename it in the model, or set output.states = false",
                      param_names[j], param_names[j]);
        break;
      }
    }
    if (st == SK_OK) {
      st = sk_results_series_blocks(res, ss->id, (size_t)np, param_names, ss->n);
    }
  }
  for (size_t c = 0; names && c < ncols; c++) {
    free(names[c]);
  }
  free(names);
  if (st != SK_OK) {
    cli_sens_series_free(ss);
  }
  return st;
}

sk_status cli_sens_series_write(sk_context *ctx, sk_stepper *s, const int64_t *probes,
                                size_t nprobes, sk_results *res, cli_sens_series *ss, double t)
{
  if (ss->id < 0) {
    return SK_OK;
  }
  const int np = sk_stepper_get_nsens(s);
  for (int j = 0; j < np; j++) {
    double *v = ss->buf + (ss->full ? (size_t)j * (size_t)ss->n : 0);
    SK_CALL(ctx, sk_stepper_get_sensitivity(s, j, v));
    for (size_t k = 0; k < nprobes; k++) {
      ss->row[(size_t)j * nprobes + k] = v[probes[k]];
    }
  }
  return sk_results_write_series_blocks(res, ss->id, t, ss->row, ss->full ? ss->buf : NULL);
}

sk_status cli_sens_series_write_vectors(sk_results *res, cli_sens_series *ss,
                                        const int64_t *probes, size_t nprobes, int np,
                                        const double *S, size_t stride, double t)
{
  if (ss->id < 0) {
    return SK_OK;
  }
  for (int j = 0; j < np; j++) {
    const double *v = S + (size_t)j * stride;
    if (ss->full) {
      memcpy(ss->buf + (size_t)j * (size_t)ss->n, v, (size_t)ss->n * sizeof *v);
    }
    for (size_t k = 0; k < nprobes; k++) {
      ss->row[(size_t)j * nprobes + k] = v[probes[k]];
    }
  }
  return sk_results_write_series_blocks(res, ss->id, t, ss->row, ss->full ? ss->buf : NULL);
}

void cli_sens_series_free(cli_sens_series *ss)
{
  free(ss->buf);
  free(ss->row);
  ss->buf = ss->row = NULL;
  ss->id = -1;
}

void cli_sens_provenance(const sk_model *m, const sk_stepper *s, char *buf, size_t len)
{
  const int np = sk_stepper_get_nsens(s);
  for (int j = 0; j < np; j++) {
    const int k = sk_stepper_get_sens_param(s, j);
    cli_sens_provenance_entry(j, sk_model_get_param_name(m, k), sk_model_get_param(m, k),
                              sk_stepper_get_sens_pbar(s, j), buf, len);
  }
}

void cli_sens_provenance_entry(int j, const char *name, double value, double pbar, char *buf,
                               size_t len)
{
  size_t used = strlen(buf);
  if (used + 1 >= len) {
    return;
  }
  const int w =
      snprintf(buf + used, len - used, "%s    - {name: \"%s\", value: %.17g, pbar: %.17g}\n",
               j == 0 ? "sensitivity:\n  parameters:\n" : "", name, value, pbar);
  (void)w;
}

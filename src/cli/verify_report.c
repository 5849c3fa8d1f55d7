/* src/cli/verify_report.c: the findings of `stiffkit verify` and their text and JSON forms */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/atomic_file.h"
#include "cli/cli.h"
#include "cli/json_out.h"
#include "cli/verify_report.h"

static const char *verdict_word(verify_verdict v)
{
  return v == VERIFY_PASS ? "pass" : v == VERIFY_FAIL ? "FAIL" : "not verified";
}

verify_check *verify_report_add(verify_report *r, const char *name, const char *title)
{
  if (r->ncheck >= VERIFY_MAX_CHECKS) {
    return NULL;
  }
  verify_check *c = &r->check[r->ncheck++];
  memset(c, 0, sizeof *c);
  c->name = name;
  c->title = title;
  c->verdict = VERIFY_NOT_VERIFIED;
  return c;
}

void verify_check_num(verify_check *c, const char *key, double value)
{
  if (c->nnum < VERIFY_MAX_NUMBERS) {
    snprintf(c->num[c->nnum].key, sizeof c->num[0].key, "%s", key);
    c->num[c->nnum++].value = value;
  }
}

verify_row *verify_row_add(verify_check *c, const char *label)
{
  if (c->nrows >= VERIFY_MAX_ROWS) {
    return NULL;
  }
  verify_row *row = &c->rows[c->nrows++];
  memset(row, 0, sizeof *row);
  snprintf(row->label, sizeof row->label, "%s", label);
  return row;
}

void verify_row_num(verify_row *row, const char *key, double value)
{
  if (row && row->nnum < VERIFY_MAX_ROW_NUMBERS) {
    snprintf(row->num[row->nnum].key, sizeof row->num[0].key, "%s", key);
    row->num[row->nnum++].value = value;
  }
}

double verify_digits(double err, double scale)
{
  if (!(scale > 0) || !isfinite(scale)) {
    return NAN;
  }
  if (!(err > 0)) {
    return err == 0 ? 16.0 : NAN;
  }
  const double d = -log10(err / scale);
  return d < 0 ? 0.0 : d > 16 ? 16.0 : d;
}

void verify_report_release(verify_report *r)
{
  if (r) {
    free(r->times);
    r->times = NULL;
  }
}

int verify_report_conclude(verify_report *r)
{
  int nfail = 0, nind = 0;
  for (int k = 0; k < r->ncheck; k++) {
    nfail += r->check[k].verdict == VERIFY_FAIL;
    nind += r->check[k].independent && r->check[k].verdict != VERIFY_NOT_VERIFIED;
  }
  r->nothing_independent = nind == 0;
  r->failed = nfail > 0 || r->nothing_independent;
  return r->failed ? 11 : 0;
}

void verify_report_print_text(const verify_report *r, FILE *out)
{
  fprintf(out,
          "stiffkit verify: model %s, n = %lld, solver %s, linear solver %s, preconditioner %s\n",
          r->model, r->n, r->method, r->linsol, r->prec);
  fprintf(out,
          "production answer: t = %.6e -> %.6e at %zu output times, rtol %.1e, atol %.1e\n\n",
          r->t0, r->t_last, r->ntimes, r->rtol, r->atol);
  for (int k = 0; k < r->ncheck; k++) {
    const verify_check *c = &r->check[k];
    fprintf(out, "%d. %s: %s\n   %s\n", k + 1, c->title, verdict_word(c->verdict), c->finding);
    for (int i = 0; i < c->nrows; i++) {
      const verify_row *row = &c->rows[i];
      fprintf(out, "     %-28s", row->label);
      for (int j = 0; j < row->nnum; j++) {
        const double x = row->num[j].value;
        if (isfinite(x) && x == floor(x) && fabs(x) < 1e15) {
          fprintf(out, "  %s %.0f", row->num[j].key, x);
        } else {
          fprintf(out, "  %s %.6e", row->num[j].key, x);
        }
      }
      fprintf(out, "\n");
    }
    fprintf(out, "\n");
  }
  fprintf(out, "verified:");
  int any = 0;
  for (int k = 0; k < r->ncheck; k++) {
    if (r->check[k].verdict == VERIFY_PASS) {
      fprintf(out, "%s %s", any ? "," : "", r->check[k].title);
      any = 1;
    }
  }
  fprintf(out, "%s\n", any ? "" : " nothing");
  fprintf(out, "failed:");
  any = 0;
  for (int k = 0; k < r->ncheck; k++) {
    if (r->check[k].verdict == VERIFY_FAIL) {
      fprintf(out, "%s %s", any ? "," : "", r->check[k].title);
      any = 1;
    }
  }
  fprintf(out, "%s\n", any ? "" : " none");
  fprintf(out, "could not be verified:");
  any = 0;
  for (int k = 0; k < r->ncheck; k++) {
    if (r->check[k].verdict == VERIFY_NOT_VERIFIED) {
      fprintf(out, "%s %s", any ? "," : "", r->check[k].title);
      any = 1;
    }
  }
  fprintf(out, "%s\n", any ? "" : " none");
  if (r->nothing_independent) {
    fprintf(out, "nothing independent to check: no exact solution, no analytic Jacobian and no "
                 "reference solve could confirm the production answer\n");
  }
  fprintf(out, "result: %s\n", r->failed ? "FAIL (exit 11)" : "PASS");
}

static void json_numbers(FILE *f, const verify_number *num, int n)
{
  for (int j = 0; j < n; j++) {
    fprintf(f, ", ");
    cli_json_string(f, num[j].key);
    fprintf(f, ": ");
    cli_json_number(f, num[j].value);
  }
}

static void json_body(const verify_report *r, FILE *f)
{
  fprintf(f, "{\n  \"model\": ");
  cli_json_string(f, r->model);
  fprintf(f, ",\n  \"n\": %lld,\n  \"method\": ", r->n);
  cli_json_string(f, r->method);
  fprintf(f, ",\n  \"linsol\": ");
  cli_json_string(f, r->linsol);
  fprintf(f, ",\n  \"rtol\": ");
  cli_json_number(f, r->rtol);
  fprintf(f, ",\n  \"atol\": ");
  cli_json_number(f, r->atol);
  fprintf(f, ",\n  \"t0\": ");
  cli_json_number(f, r->t0);
  fprintf(f, ",\n  \"t_end\": ");
  cli_json_number(f, r->t_last);
  fprintf(f, ",\n  \"n_times\": %zu,\n  \"checks\": [", r->ntimes);
  for (int k = 0; k < r->ncheck; k++) {
    const verify_check *c = &r->check[k];
    fprintf(f, "%s\n    {\"name\": ", k ? "," : "");
    cli_json_string(f, c->name);
    fprintf(f, ", \"verdict\": ");
    cli_json_string(f, c->verdict == VERIFY_PASS   ? "pass"
                       : c->verdict == VERIFY_FAIL ? "fail"
                                                   : "not_verified");
    fprintf(f, ", \"independent\": %s, \"finding\": ", c->independent ? "true" : "false");
    cli_json_string(f, c->finding);
    fprintf(f, ",\n     \"values\": {");
    for (int j = 0; j < c->nnum; j++) {
      fprintf(f, "%s", j ? ", " : "");
      cli_json_string(f, c->num[j].key);
      fprintf(f, ": ");
      cli_json_number(f, c->num[j].value);
    }
    fprintf(f, "},\n     \"rows\": [");
    for (int i = 0; i < c->nrows; i++) {
      fprintf(f, "%s{\"label\": ", i ? ", " : "");
      cli_json_string(f, c->rows[i].label);
      json_numbers(f, c->rows[i].num, c->rows[i].nnum);
      fprintf(f, "}");
    }
    fprintf(f, "]}");
  }
  fprintf(f, "\n  ],\n  \"times\": [");
  for (size_t i = 0; r->times && i < r->ntimes; i++) {
    const verify_time *vt = &r->times[i];
    const verify_number num[] = {{"t", vt->t},
                                 {"claimed_err", vt->claimed_err},
                                 {"vouched_digits", vt->vouched_digits},
                                 {"true_err", vt->true_err},
                                 {"true_digits", vt->true_digits}};
    fprintf(f, "%s\n    {", i ? "," : "");
    for (size_t j = 0; j < sizeof num / sizeof num[0]; j++) {
      fprintf(f, "%s", j ? ", " : "");
      cli_json_string(f, num[j].key);
      fprintf(f, ": ");
      cli_json_number(f, num[j].value);
    }
    fprintf(f, "}");
  }
  fprintf(f, "\n  ],\n  \"nothing_independent\": %s,\n  \"result\": \"%s\"\n}\n",
          r->nothing_independent ? "true" : "false", r->failed ? "fail" : "pass");
}

int verify_report_write_json(const verify_report *r, const char *path)
{
  cli_atomic_file af;
  const int rc = cli_atomic_open(&af, path);
  if (rc != 0) {
    return rc;
  }
  json_body(r, af.f);
  return cli_atomic_commit(&af);
}

int verify_report_emit(const verify_report *r, const char *json_path, int code, int quiet)
{
  if (!quiet || code != SK_EXIT_OK) {
    verify_report_print_text(r, quiet ? stderr : stdout); /* --quiet: a failed one only */
  }
  if (json_path) {
    const int wrc = verify_report_write_json(r, json_path);
    code = wrc ? wrc : code;
  }
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "stiffkit: error: writing to standard output failed: %s\n", strerror(errno));
    code = SK_EXIT_IOERR;
  }
  return code;
}

/* src/verify/verify_report.c: a verification report: filled in by the checks, read through its accessors, written in words and as JSON */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/json_write.h"
#include "verify/verify_report.h"

static const char *verdict_word(sk_verify_verdict v)
{
  return v == SK_VERIFY_PASS ? "pass" : v == SK_VERIFY_FAIL ? "FAIL" : "not verified";
}

sk__verify_check *sk__verify_report_add(sk_verify_report *r, const char *name, const char *title)
{
  if (r->ncheck >= SK__VERIFY_MAX_CHECKS) {
    return NULL;
  }
  sk__verify_check *c = &r->check[r->ncheck++];
  memset(c, 0, sizeof *c);
  c->name = name;
  c->title = title;
  c->verdict = SK_VERIFY_NOT_VERIFIED;
  return c;
}

void sk__verify_check_num(sk__verify_check *c, const char *key, double value)
{
  if (c->nnum < SK__VERIFY_MAX_NUMBERS) {
    snprintf(c->num[c->nnum].key, sizeof c->num[0].key, "%s", key);
    c->num[c->nnum++].value = value;
  }
}

sk__verify_row *sk__verify_row_add(sk__verify_check *c, const char *label)
{
  if (c->nrows >= SK__VERIFY_MAX_ROWS) {
    return NULL;
  }
  sk__verify_row *row = &c->rows[c->nrows++];
  memset(row, 0, sizeof *row);
  snprintf(row->label, sizeof row->label, "%s", label);
  return row;
}

void sk__verify_row_num(sk__verify_row *row, const char *key, double value)
{
  if (row && row->nnum < SK__VERIFY_MAX_ROW_NUMBERS) {
    snprintf(row->num[row->nnum].key, sizeof row->num[0].key, "%s", key);
    row->num[row->nnum++].value = value;
  }
}

double sk__verify_digits(double err, double scale)
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

sk_status sk__verify_report_create(sk_context *ctx, const double *times, size_t ntimes,
                                   sk_verify_report **r)
{
  *r = calloc(1, sizeof **r);
  SK_CHECK(ctx, *r != NULL, SK_ERR_NOMEM, "cannot allocate the verify report");
  if (times) {
    (*r)->times = malloc(ntimes * sizeof *(*r)->times);
    if (!(*r)->times) {
      free(*r);
      *r = NULL;
      return SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the verify report's %zu times", ntimes);
    }
    for (size_t k = 0; k < ntimes; k++) {
      (*r)->times[k] = (sk__verify_time){times[k], NAN, NAN, NAN, NAN};
    }
  }
  return SK_OK;
}

void sk_verify_report_destroy(sk_verify_report **r)
{
  if (r && *r) {
    free((*r)->times);
    free(*r);
    *r = NULL;
  }
}

int sk_verify_report_failed(const sk_verify_report *r)
{
  return r->failed;
}

int sk_verify_report_ncheck(const sk_verify_report *r)
{
  return r->ncheck;
}

int sk_verify_report_check(const sk_verify_report *r, int k, const char **name,
                           sk_verify_verdict *verdict, int *independent, const char **finding)
{
  if (k < 0 || k >= r->ncheck) {
    return -1;
  }
  const sk__verify_check *c = &r->check[k];
  if (name) {
    *name = c->name;
  }
  if (verdict) {
    *verdict = c->verdict;
  }
  if (independent) {
    *independent = c->independent && c->verdict != SK_VERIFY_NOT_VERIFIED;
  }
  if (finding) {
    *finding = c->finding;
  }
  return 0;
}

int sk_verify_report_find(const sk_verify_report *r, const char *name)
{
  for (int k = 0; k < r->ncheck; k++) {
    if (!strcmp(r->check[k].name, name)) {
      return k;
    }
  }
  return -1;
}

double sk_verify_report_number(const sk_verify_report *r, int k, const char *key)
{
  if (k < 0 || k >= r->ncheck) {
    return NAN;
  }
  const sk__verify_check *c = &r->check[k];
  for (int j = 0; j < c->nnum; j++) {
    if (!strcmp(c->num[j].key, key)) {
      return c->num[j].value;
    }
  }
  return NAN;
}

int sk_verify_report_time(const sk_verify_report *r, size_t k, double *t, double *claimed_err,
                          double *vouched_digits, double *true_err, double *true_digits)
{
  if (!r->times || k >= r->ntimes) {
    return -1;
  }
  const sk__verify_time *vt = &r->times[k];
  const double from[] = {vt->t, vt->claimed_err, vt->vouched_digits, vt->true_err,
                         vt->true_digits};
  double *to[] = {t, claimed_err, vouched_digits, true_err, true_digits};
  for (size_t i = 0; i < sizeof to / sizeof to[0]; i++) {
    if (to[i]) {
      *to[i] = from[i];
    }
  }
  return 0;
}

void sk__verify_report_conclude(sk_verify_report *r)
{
  int nfail = 0, nind = 0;
  for (int k = 0; k < r->ncheck; k++) {
    nfail += r->check[k].verdict == SK_VERIFY_FAIL;
    nind += r->check[k].independent && r->check[k].verdict != SK_VERIFY_NOT_VERIFIED;
  }
  r->nothing_independent = nind == 0;
  r->failed = nfail > 0 || r->nothing_independent;
}

void sk_verify_report_print(const sk_verify_report *r, FILE *out)
{
  fprintf(out,
          "stiffkit verify: model %s, n = %lld, solver %s, linear solver %s, preconditioner %s\n",
          r->model, r->n, r->method, r->linsol, r->prec);
  fprintf(out,
          "production answer: t = %.6e -> %.6e at %zu output times, rtol %.1e, atol %.1e\n\n",
          r->t0, r->t_last, r->ntimes, r->rtol, r->atol);
  for (int k = 0; k < r->ncheck; k++) {
    const sk__verify_check *c = &r->check[k];
    fprintf(out, "%d. %s: %s\n   %s\n", k + 1, c->title, verdict_word(c->verdict), c->finding);
    for (int i = 0; i < c->nrows; i++) {
      const sk__verify_row *row = &c->rows[i];
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
    if (r->check[k].verdict == SK_VERIFY_PASS) {
      fprintf(out, "%s %s", any ? "," : "", r->check[k].title);
      any = 1;
    }
  }
  fprintf(out, "%s\n", any ? "" : " nothing");
  fprintf(out, "failed:");
  any = 0;
  for (int k = 0; k < r->ncheck; k++) {
    if (r->check[k].verdict == SK_VERIFY_FAIL) {
      fprintf(out, "%s %s", any ? "," : "", r->check[k].title);
      any = 1;
    }
  }
  fprintf(out, "%s\n", any ? "" : " none");
  fprintf(out, "could not be verified:");
  any = 0;
  for (int k = 0; k < r->ncheck; k++) {
    if (r->check[k].verdict == SK_VERIFY_NOT_VERIFIED) {
      fprintf(out, "%s %s", any ? "," : "", r->check[k].title);
      any = 1;
    }
  }
  fprintf(out, "%s\n", any ? "" : " none");
  if (r->nothing_independent) {
    fprintf(out, "nothing independent to check: no exact solution, no analytic Jacobian and no "
                 "reference solve could confirm the production answer\n");
  }
  fprintf(out, "result: %s\n", r->failed ? "FAIL" : "PASS");
}

static void json_numbers(FILE *f, const sk__verify_number *num, int n)
{
  for (int j = 0; j < n; j++) {
    fprintf(f, ", ");
    sk__json_string(f, num[j].key);
    fprintf(f, ": ");
    sk__json_number(f, num[j].value);
  }
}

void sk_verify_report_write_json(const sk_verify_report *r, FILE *f)
{
  fprintf(f, "{\n  \"model\": ");
  sk__json_string(f, r->model);
  fprintf(f, ",\n  \"n\": %lld,\n  \"method\": ", r->n);
  sk__json_string(f, r->method);
  fprintf(f, ",\n  \"linsol\": ");
  sk__json_string(f, r->linsol);
  fprintf(f, ",\n  \"rtol\": ");
  sk__json_number(f, r->rtol);
  fprintf(f, ",\n  \"atol\": ");
  sk__json_number(f, r->atol);
  fprintf(f, ",\n  \"t0\": ");
  sk__json_number(f, r->t0);
  fprintf(f, ",\n  \"t_end\": ");
  sk__json_number(f, r->t_last);
  fprintf(f, ",\n  \"n_times\": %zu,\n  \"checks\": [", r->ntimes);
  for (int k = 0; k < r->ncheck; k++) {
    const sk__verify_check *c = &r->check[k];
    fprintf(f, "%s\n    {\"name\": ", k ? "," : "");
    sk__json_string(f, c->name);
    fprintf(f, ", \"verdict\": ");
    sk__json_string(f, c->verdict == SK_VERIFY_PASS   ? "pass"
                       : c->verdict == SK_VERIFY_FAIL ? "fail"
                                                      : "not_verified");
    fprintf(f, ", \"independent\": %s, \"finding\": ", c->independent ? "true" : "false");
    sk__json_string(f, c->finding);
    fprintf(f, ",\n     \"values\": {");
    for (int j = 0; j < c->nnum; j++) {
      fprintf(f, "%s", j ? ", " : "");
      sk__json_string(f, c->num[j].key);
      fprintf(f, ": ");
      sk__json_number(f, c->num[j].value);
    }
    fprintf(f, "},\n     \"rows\": [");
    for (int i = 0; i < c->nrows; i++) {
      fprintf(f, "%s{\"label\": ", i ? ", " : "");
      sk__json_string(f, c->rows[i].label);
      json_numbers(f, c->rows[i].num, c->rows[i].nnum);
      fprintf(f, "}");
    }
    fprintf(f, "]}");
  }
  fprintf(f, "\n  ],\n  \"times\": [");
  for (size_t i = 0; r->times && i < r->ntimes; i++) {
    const sk__verify_time *vt = &r->times[i];
    const sk__verify_number num[] = {{"t", vt->t},
                                     {"claimed_err", vt->claimed_err},
                                     {"vouched_digits", vt->vouched_digits},
                                     {"true_err", vt->true_err},
                                     {"true_digits", vt->true_digits}};
    fprintf(f, "%s\n    {", i ? "," : "");
    for (size_t j = 0; j < sizeof num / sizeof num[0]; j++) {
      fprintf(f, "%s", j ? ", " : "");
      sk__json_string(f, num[j].key);
      fprintf(f, ": ");
      sk__json_number(f, num[j].value);
    }
    fprintf(f, "}");
  }
  fprintf(f, "\n  ],\n  \"nothing_independent\": %s,\n  \"result\": \"%s\"\n}\n",
          r->nothing_independent ? "true" : "false", r->failed ? "fail" : "pass");
}

/* src/cli/verify_report.h: the findings of `stiffkit verify` and their text and JSON forms */
#ifndef SK_CLI_VERIFY_REPORT_H
#define SK_CLI_VERIFY_REPORT_H

#include <stdint.h>
#include <stdio.h>

#define VERIFY_MAX_CHECKS 9
#define VERIFY_MAX_NUMBERS 16
#define VERIFY_MAX_ROWS 8
#define VERIFY_MAX_ROW_NUMBERS 5

typedef enum {
  VERIFY_PASS = 0,
  VERIFY_FAIL = 1,
  VERIFY_NOT_VERIFIED = 2 /* the check could not be made (said why in the finding) */
} verify_verdict;

typedef struct {
  char key[40];
  double value; /* non-finite values are written as null in JSON */
} verify_number;

/* One row of a table (a probe component, a Jacobian entry). */
typedef struct {
  char label[256];
  int nnum;
  verify_number num[VERIFY_MAX_ROW_NUMBERS];
} verify_row;

typedef struct {
  const char *name;  /* JSON key: "tolerance_refinement" */
  const char *title; /* text heading: "tolerance refinement" */
  verify_verdict verdict;
  int independent; /* 1: an independent check that was made */
  char finding[2048];
  int nnum;
  verify_number num[VERIFY_MAX_NUMBERS];
  int nrows;
  verify_row rows[VERIFY_MAX_ROWS];
} verify_check;

/* One output time of the answer: the error bound verify claims there and the
 * digits it vouches for; the true error and digits where the model has an
 * exact solution (NAN otherwise). Both digit counts are relative to max |y|
 * of the production answer at that time, so vouched <= true exactly when
 * the claimed bound covers the true error. */
typedef struct {
  double t;
  double claimed_err, vouched_digits;
  double true_err, true_digits;
} verify_time;

typedef struct {
  char model[64];
  long long n;
  char method[32], linsol[16], prec[16];
  double rtol, atol, t0, t_last;
  size_t ntimes;
  int ncheck;
  verify_check check[VERIFY_MAX_CHECKS];
  int nothing_independent; /* set by verify_report_conclude */
  int failed;              /* set by verify_report_conclude */
  verify_time *times;      /* ntimes entries (malloc'ed) or NULL: no per-time series */
} verify_report;

/* verify_report_release: frees the per-time series (r->times is NULL after); accepts NULL. */
void verify_report_release(verify_report *r);

/* verify_report_add: the next check slot (zeroed, verdict NOT_VERIFIED), NULL when full. */
verify_check *verify_report_add(verify_report *r, const char *name, const char *title);

/* verify_check_num / verify_row_add / verify_row_num: append a named number
 * or a table row (silently ignored past the fixed capacities). */
void verify_check_num(verify_check *c, const char *key, double value);
verify_row *verify_row_add(verify_check *c, const char *label);
void verify_row_num(verify_row *row, const char *key, double value);

/* verify_report_conclude: sets `failed` (some check failed, or no
 * independent check could be made) and `nothing_independent`. Returns the
 * exit code: 0 all checks passed, 11 otherwise. */
int verify_report_conclude(verify_report *r);

/* verify_report_print_text: the plain-language report. */
void verify_report_print_text(const verify_report *r, FILE *out);

/* verify_report_write_json: the report as one JSON object, written to a
 * temporary file beside `path` and renamed into place. Returns 0, or the
 * exit code (73, 74) after printing the reason. */
int verify_report_write_json(const verify_report *r, const char *path);

/* verify_report_emit: print the text report to stdout (quiet: nothing when
 * code is 0, else the report to stderr) and, when json_path is not NULL,
 * write the JSON report there. Returns `code`, or the exit code of a failed
 * write (73, 74; stdout failing is 74, said on stderr). */
int verify_report_emit(const verify_report *r, const char *json_path, int code, int quiet);

/* verify_digits: significant correct digits -log10(err / scale), capped to
 * [0, 16] (16 for err == 0); NAN when scale is not positive. */
double verify_digits(double err, double scale);

#endif

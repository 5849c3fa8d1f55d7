/* src/verify/verify_report.h: the layout of a verification report and how a check fills it in */
#ifndef SK_VERIFY_VERIFY_REPORT_H
#define SK_VERIFY_VERIFY_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "stiffkit/verify.h"

#define SK__VERIFY_MAX_CHECKS 9
#define SK__VERIFY_MAX_NUMBERS 16
#define SK__VERIFY_MAX_ROWS 8
#define SK__VERIFY_MAX_ROW_NUMBERS 5

typedef struct {
  char key[40];
  double value; /* non-finite values are written as null in JSON */
} sk__verify_number;

/* One row of a table (a probe component, a Jacobian entry). */
typedef struct {
  char label[256];
  int nnum;
  sk__verify_number num[SK__VERIFY_MAX_ROW_NUMBERS];
} sk__verify_row;

typedef struct {
  const char *name;  /* JSON key: "tolerance_refinement" */
  const char *title; /* text heading: "tolerance refinement" */
  sk_verify_verdict verdict;
  int independent; /* 1: an independent check that was made */
  char finding[2048];
  int nnum;
  sk__verify_number num[SK__VERIFY_MAX_NUMBERS];
  int nrows;
  sk__verify_row rows[SK__VERIFY_MAX_ROWS];
} sk__verify_check;

/* One output time of the answer: the error bound verify claims there and the
 * digits it vouches for; the true error and digits where the model has an
 * exact solution (NAN otherwise). Both digit counts are relative to max |y|
 * of the production answer at that time, so vouched <= true exactly when
 * the claimed bound covers the true error. */
typedef struct {
  double t;
  double claimed_err, vouched_digits;
  double true_err, true_digits;
} sk__verify_time;

struct sk_verify_report {
  char model[64];
  long long n;
  char method[32], linsol[16], prec[16];
  double rtol, atol, t0, t_last;
  size_t ntimes;
  int ncheck;
  sk__verify_check check[SK__VERIFY_MAX_CHECKS];
  int nothing_independent; /* set by sk__verify_report_conclude */
  int failed;              /* set by sk__verify_report_conclude */
  sk__verify_time *times;  /* ntimes entries (malloc'ed) or NULL: no per-time series */
};

/* sk__verify_report_create: an empty report, with a per-time series of
 * ntimes entries (t = times[k], the rest NAN) when times is not NULL.
 * Errors: SK_ERR_NOMEM. */
sk_status sk__verify_report_create(sk_context *ctx, const double *times, size_t ntimes,
                                   sk_verify_report **r);

/* sk__verify_report_add: the next check slot (zeroed, verdict NOT_VERIFIED), NULL when full. */
sk__verify_check *sk__verify_report_add(sk_verify_report *r, const char *name, const char *title);

/* sk__verify_check_num / sk__verify_row_add / sk__verify_row_num: append a named number
 * or a table row (silently ignored past the fixed capacities). */
void sk__verify_check_num(sk__verify_check *c, const char *key, double value);
sk__verify_row *sk__verify_row_add(sk__verify_check *c, const char *label);
void sk__verify_row_num(sk__verify_row *row, const char *key, double value);

/* sk__verify_report_conclude: sets `failed` (some check failed, or no
 * independent check could be made) and `nothing_independent`. */
void sk__verify_report_conclude(sk_verify_report *r);

/* sk__verify_digits: significant correct digits -log10(err / scale), capped to
 * [0, 16] (16 for err == 0); NAN when scale is not positive. */
double sk__verify_digits(double err, double scale);

#endif

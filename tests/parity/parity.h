/* tests/parity/parity.h: helpers of the parity tests: a SUNDIALS example's published output (quoted rows and statistics), checked against the installed .out file, and the rows a run printed */
#ifndef SK_TEST_PARITY_H
#define SK_TEST_PARITY_H

#include <stdarg.h>

#include "test.h"

/* A published output: the printed rows (results and rootsfound lines, in
 * order) and the final statistics as "label = value". */
typedef struct {
  const char *label;
  double value;
} parity_stat;

typedef struct {
  const char *name; /* the .out file's name, for messages */
  const char *const *rows;
  int nrows;
  const parity_stat *stats;
  int nstats;
  /* which lines of the file are result rows (NULL: parity_is_row) */
  int (*is_row)(const char *line);
} parity_quote;

/* parity_value: the quoted value of statistic `label` (NaN when not quoted). */
static inline double parity_value(const parity_quote *q, const char *label)
{
  for (int k = 0; k < q->nstats; k++) {
    if (!strcmp(q->stats[k].label, label)) {
      return q->stats[k].value;
    }
  }
  return NAN;
}

/* A result row of a .out file: "At t = ..." (CVODE examples), a line that
 * starts with two numbers (IDA examples), or a rootsfound line. */
static inline int parity_is_row(const char *line)
{
  if (!strncmp(line, "At t", 4) || strstr(line, "rootsfound")) {
    return 1;
  }
  char *end1, *end2;
  (void)strtod(line, &end1);
  if (end1 == line || *end1 != ' ') { /* "3-species kinetics problem" is no row */
    return 0;
  }
  (void)strtod(end1, &end2);
  return end2 != end1;
}

/* parity_check_quote: the installed .out file at `path` (NULL: not
 * installed) against the quote: every result row equal, every quoted
 * statistic present with the quoted value. Counts failures. */
static inline void parity_check_quote(const parity_quote *q, const char *path)
{
  if (!path) {
    printf("%s not installed: the quoted numbers are used alone\n", q->name);
    return;
  }
  FILE *f = fopen(path, "r");
  if (!f) {
    printf("%s not readable: the quoted numbers are used alone\n", path);
    return;
  }
  char line[256];
  int row = 0, stats = 0;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\r\n")] = '\0';
    if (q->is_row ? q->is_row(line) : parity_is_row(line)) {
      const char *want = row < q->nrows ? q->rows[row] : "";
      if (strcmp(line, want)) {
        fprintf(stderr, "%s row %d: \"%s\", quoted \"%s\"\n", path, row + 1, line, want);
        sk_test_failures++;
      }
      row++;
      continue;
    }
    /* the statistics: "label = value", one or several pairs on a line */
    const char *p = line, *eq;
    while ((eq = strchr(p, '=')) != NULL) {
      while (*p == ' ' || *p == ',') { /* "netf = 0,   ncfn = 0" */
        p++;
      }
      size_t len = (size_t)(eq - p);
      while (len > 0 && p[len - 1] == ' ') {
        len--;
      }
      char label[128];
      char *end;
      const double value = strtod(eq + 1, &end);
      if (len >= sizeof label || end == eq + 1) {
        break;
      }
      memcpy(label, p, len);
      label[len] = '\0';
      const double quoted = parity_value(q, label);
      if (!isnan(quoted)) {
        CHECK_NEAR(value, quoted, 0.0, 0.0);
        stats++;
      }
      p = end;
    }
  }
  fclose(f);
  CHECK_EQ_INT(row, q->nrows);
  CHECK_EQ_INT(stats, q->nstats);
  printf("the quoted output agrees with %s (%d rows, %d statistics)\n", path, row, stats);
}

/* The rows a run printed, in the order of the example's returns. */
#define PARITY_MAX_ROWS 64
typedef struct {
  char rows[PARITY_MAX_ROWS][128];
  int nrows;
} parity_printout;

/* parity_add_row: append one printf-formatted row (dropped when full). */
static inline void parity_add_row(parity_printout *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static inline void parity_add_row(parity_printout *p, const char *fmt, ...)
{
  if (p->nrows < PARITY_MAX_ROWS) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->rows[p->nrows++], sizeof p->rows[0], fmt, ap);
    va_end(ap);
  }
}

/* parity_compare_rows: print the run's rows; count every one that differs
 * from the quote, and a different number of rows. */
static inline void parity_compare_rows(const parity_quote *q, const parity_printout *p)
{
  CHECK_EQ_INT(p->nrows, q->nrows);
  for (int i = 0; i < p->nrows && i < q->nrows; i++) {
    printf("%s\n", p->rows[i]);
    if (strcmp(p->rows[i], q->rows[i])) {
      fprintf(stderr, "row %d differs from %s:\n  got       \"%s\"\n  published \"%s\"\n", i + 1,
              q->name, p->rows[i], q->rows[i]);
      sk_test_failures++;
    }
  }
}

/* parity_check_roberts_roots: the two events of the Roberts examples, as
 * printed to 5 digits: g2 (index 1) rising at t_g2, then g1 (index 0)
 * falling at t_g1. Counts failures. */
static inline void parity_check_roberts_roots(const sk_stepper *s, double t_g2, double t_g1)
{
  const sk_event_record *ev;
  size_t nev;
  sk_stepper_get_events(s, &ev, &nev);
  CHECK_EQ_INT(nev, 2);
  if (nev == 2) {
    CHECK_EQ_INT(ev[0].index, 1);
    CHECK_EQ_INT(ev[0].direction, 1);
    CHECK_NEAR(ev[0].t, t_g2, 0.0, 0.5e-4 * pow(10.0, floor(log10(t_g2))));
    CHECK_EQ_INT(ev[1].index, 0);
    CHECK_EQ_INT(ev[1].direction, -1);
    CHECK_NEAR(ev[1].t, t_g1, 0.0, 0.5e-4 * pow(10.0, floor(log10(t_g1))));
  }
}

/* parity_check_stats: the final statistics against the quote; `fe` and
 * `ls_fe` are the example's labels of the function and the linear solver's
 * difference-quotient evaluations ("RHS fn evals" / "LS RHS fn evals" in
 * CVODE examples, "Residual fn evals" / "LS residual fn evals" in IDA ones);
 * root_evals is counted by the test's own root function. Counts failures. */
static inline void parity_check_stats(const parity_quote *q, const sk_stats *st, long root_evals,
                                      const char *fe, const char *ls_fe)
{
  printf("steps %lld, error test failures %lld, function evaluations %lld (%lld in difference "
         "quotients), Jacobian evaluations %lld, nonlinear iterations %lld (%lld convergence "
         "failures), linear setups %lld, root function evaluations %ld, last step %.16g, order "
         "%d\n",
         (long long)st->steps, (long long)st->failed_steps, (long long)st->rhs_evals,
         (long long)st->rhs_evals_dq, (long long)st->jac_evals, (long long)st->newton_iters,
         (long long)st->newton_fails, (long long)st->lin_setups, root_evals, st->last_h,
         st->last_order);
  CHECK_EQ_INT(st->steps, parity_value(q, "Steps"));
  CHECK_EQ_INT(st->failed_steps, parity_value(q, "Error test fails"));
  CHECK_EQ_INT(st->rhs_evals, parity_value(q, fe) + parity_value(q, ls_fe));
  CHECK_EQ_INT(st->rhs_evals_dq, parity_value(q, ls_fe));
  CHECK_EQ_INT(st->jac_evals, parity_value(q, "Jac fn evals"));
  CHECK_EQ_INT(st->newton_iters, parity_value(q, "NLS iters"));
  CHECK_EQ_INT(st->newton_fails, parity_value(q, "NLS fails"));
  CHECK_EQ_INT(st->lin_setups, parity_value(q, "LS setups"));
  CHECK_EQ_INT(st->last_order, parity_value(q, "Last method order"));
  CHECK_NEAR(st->last_h, parity_value(q, "Last step size"), 1e-15, 0.0);
  CHECK_EQ_INT(root_evals, parity_value(q, "Root fn evals"));
}

#endif

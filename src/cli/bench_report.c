/* src/cli/bench_report.c: the side-by-side report of `stiffkit bench`: per method the cheapest point reaching a target error, its cost and the ratio to the fastest */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/bench.h"

double bench_target(const bench_study *b)
{
  if (b->target > 0) {
    return b->target;
  }
  double target = NAN; /* the largest of the methods' smallest errors */
  for (int k = 0; k < b->nm; k++) {
    double best = NAN;
    for (size_t r = 0; r < b->nrows; r++) {
      if (b->rows[r].method == k && b->rows[r].ok) {
        best = isnan(best) ? b->rows[r].err : fmin(best, b->rows[r].err);
      }
    }
    if (!isnan(best)) {
      target = isnan(target) ? best : fmax(target, best);
    }
  }
  return target;
}

const bench_row *bench_best_at(const bench_study *b, int k, double target)
{
  const bench_row *best = NULL;
  for (size_t r = 0; r < b->nrows; r++) {
    const bench_row *row = &b->rows[r];
    if (row->method == k && row->ok && row->err <= target &&
        (!best || row->wall_med < best->wall_med)) {
      best = row;
    }
  }
  return best;
}

/* "rtol 1e-06", "h 0.001" or "tolerance 1e-06" of a row. */
static void param_text(const bench_study *b, const bench_row *r, char *buf, size_t len)
{
  const bench_method *m = &b->m[r->method];
  snprintf(buf, len, "%s %.3g", m->external ? "tol" : m->fixed ? "h" : "rtol", r->param);
}

void bench_print_report(const bench_study *b)
{
  const double target = bench_target(b);
  const bench_reference *R = &b->reference;
  printf("reference: %s", R->kind);
  if (!strcmp(R->kind, "computed")) {
    printf(" (%s at rtol %.1e, atol %.1e)", R->method, R->rtol, R->atol);
  }
  printf("; estimated accuracy %s", isnan(R->accuracy) ? "unknown" : "");
  if (!isnan(R->accuracy)) {
    printf("%.3e", R->accuracy);
  }
  printf("\n  %s\n", R->note);
  printf("error: %s |y - y_ref| over %zu component%s at %s\n", b->rms ? "RMS of" : "max",
         b->ncomp, b->ncomp == 1 ? "" : "s",
         b->final_only ? "the last output time" : "every output time");
  if (isnan(target)) {
    printf("no method has a successful point: no side-by-side report\n");
    return;
  }
  double fastest = INFINITY;
  for (int k = 0; k < b->nm; k++) {
    const bench_row *r = bench_best_at(b, k, target);
    if (r) {
      fastest = fmin(fastest, r->wall_med);
    }
  }
  printf("side by side at error <= %.3e%s:\n", target,
         b->target > 0 ? "" : " (the smallest error every method reaches)");
  printf("  %-20s %-16s %12s %12s %8s %12s %10s\n", "method", "setting", "error", "wall [s]",
         "scd", "RHS evals", "x fastest");
  for (int k = 0; k < b->nm; k++) {
    const bench_row *r = bench_best_at(b, k, target);
    char p[64];
    if (!r) {
      printf("  %-20s does not reach it\n", b->m[k].name);
      continue;
    }
    param_text(b, r, p, sizeof p);
    char rhs[32] = "-";
    if (r->have_stats) {
      snprintf(rhs, sizeof rhs, "%lld", (long long)r->stats.rhs_evals);
    }
    printf("  %-20s %-16s %12.3e %12.4g %8.2f %12s %10.2f\n", b->m[k].name, p, r->err,
           r->wall_med, r->scd, rhs, fastest > 0 ? r->wall_med / fastest : NAN);
  }
  size_t failed = 0;
  for (size_t r = 0; r < b->nrows; r++) {
    failed += !b->rows[r].ok;
  }
  if (failed) {
    printf("%zu point%s failed (status and message in the table):\n", failed,
           failed == 1 ? "" : "s");
    for (size_t r = 0; r < b->nrows; r++) {
      if (!b->rows[r].ok) {
        char p[64];
        param_text(b, &b->rows[r], p, sizeof p);
        printf("  %s %s: %s\n", b->m[b->rows[r].method].name, p, b->rows[r].message);
      }
    }
  }
}

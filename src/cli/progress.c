/* src/cli/progress.c: progress display of long runs (one updating line on a terminal, periodic log lines otherwise) */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "cli/progress.h"

/* seconds between updates: terminal line, log line */
#define SK_PROGRESS_TTY_PERIOD 0.2
#define SK_PROGRESS_LOG_PERIOD 5.0

double cli_wall_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void cli_progress_init(cli_progress *p, int quiet, double t0, double t_end)
{
  p->enabled = !quiet;
  p->tty = isatty(STDERR_FILENO);
  p->t0 = t0;
  p->t_end = t_end;
  p->wall_start = cli_wall_now();
  p->last_print = p->wall_start;
  p->steps = 0;
  p->printed = 0;
}

int cli_progress_monitor(const sk_stepper *s, double t, double h, void *user_data)
{
  (void)s;
  cli_progress *p = user_data;
  p->steps++;
  if (!p->enabled) {
    return 0;
  }
  const double now = cli_wall_now();
  const double period = p->tty ? SK_PROGRESS_TTY_PERIOD : SK_PROGRESS_LOG_PERIOD;
  if (now - p->last_print < period) {
    return 0;
  }
  p->last_print = now;
  const double span = p->t_end - p->t0;
  const double frac = span > 0 ? (t - p->t0) / span : 1.0;
  const double elapsed = now - p->wall_start;
  const double eta = frac > 1e-9 ? elapsed * (1.0 - frac) / frac : 0.0;
  if (p->tty) {
    fprintf(stderr,
            "\r  t = %.4e / %.4e (%5.1f%%)  steps %lld  h = %.3e  elapsed %.1fs  ETA %.1fs   ", t,
            p->t_end, 100.0 * frac, (long long)p->steps, h, elapsed, eta);
  } else {
    fprintf(stderr,
            "stiffkit: progress: t = %.6e / %.6e (%.1f%%), steps %lld, h = %.3e, elapsed %.1fs, "
            "ETA %.1fs\n",
            t, p->t_end, 100.0 * frac, (long long)p->steps, h, elapsed, eta);
  }
  fflush(stderr);
  p->printed = 1;
  return 0;
}

void cli_progress_done(cli_progress *p)
{
  if (p->enabled && p->tty && p->printed) {
    fprintf(stderr, "\n");
  }
}

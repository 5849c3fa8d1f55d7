/* src/cli/progress.h: progress display of long runs (one updating line on a terminal, periodic log lines otherwise) */
#ifndef SK_CLI_PROGRESS_H
#define SK_CLI_PROGRESS_H

#include <stdint.h>

#include "stiffkit/stepper.h"

typedef struct {
  int enabled;
  int tty;
  double t0, t_end;
  double wall_start, last_print;
  int64_t steps;
  int printed;
} cli_progress;

/* cli_wall_now: seconds on the monotonic clock. */
double cli_wall_now(void);

/* cli_progress_init: enabled unless quiet; tty decided from stderr. */
void cli_progress_init(cli_progress *p, int quiet, double t0, double t_end);

/* cli_progress_monitor: an sk_monitor_fn (user_data = cli_progress*). */
int cli_progress_monitor(const sk_stepper *s, double t, double h, void *user_data);

/* cli_progress_done: end the progress line (terminal). */
void cli_progress_done(cli_progress *p);

#endif

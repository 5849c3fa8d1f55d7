/* src/cli/stop_signals.c: the stop signals (SIGINT, SIGTERM, SIGUSR1) caught by one handler, for the commands that stop cleanly on them */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <string.h>

#include "cli/stop_signals.h"

void cli_catch_stop_signals(void (*handler)(int))
{
  static const int stops[] = {SIGINT, SIGTERM, SIGUSR1};
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = handler;
  sigemptyset(&sa.sa_mask);
  for (size_t k = 0; k < sizeof stops / sizeof stops[0]; k++) {
    sigaction(stops[k], &sa, NULL);
  }
}

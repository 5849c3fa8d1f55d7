/* src/cli/stop_signals.h: the stop signals (SIGINT, SIGTERM, SIGUSR1) caught by one handler, for the commands that stop cleanly on them */
#ifndef SK_CLI_STOP_SIGNALS_H
#define SK_CLI_STOP_SIGNALS_H

/* cli_catch_stop_signals: install `handler` for SIGINT, SIGTERM and SIGUSR1
 * (no SA_RESTART: a blocking call they interrupt fails with EINTR, so that
 * a waiting loop sees the flag the handler sets). The handler may only
 * touch volatile sig_atomic_t state and call async-signal-safe functions.
 * For single-threaded commands (the sweep's pool and case runner, which
 * forward the signal at once); `stiffkit run`, whose libraries start
 * threads, takes them in a thread of its own (cli/signal_thread.h). */
void cli_catch_stop_signals(void (*handler)(int));

#endif

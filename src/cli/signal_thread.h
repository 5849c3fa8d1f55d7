/* src/cli/signal_thread.h: SIGTERM, SIGINT and SIGUSR1 taken by one thread of their own (sigwait), so that no library code ever runs a signal handler */
#ifndef SK_CLI_SIGNAL_THREAD_H
#define SK_CLI_SIGNAL_THREAD_H

#include <signal.h>

/* cli_signal_thread_start: block SIGTERM, SIGINT and SIGUSR1 in the calling
 * thread (every thread created later inherits the mask: OpenMP workers,
 * library threads) and start a detached thread that waits for them and
 * stores the number of each one that arrives in *flag. Libraries that
 * install handlers of their own for these signals (METIS's error traps
 * longjmp out of SIGTERM) then never see them. Call it before any other
 * thread exists, once per process. The thread runs on a small stack of its
 * own (SK_SIGNAL_THREAD_STACK bytes), so that it starts under a tight address
 * space limit (ulimit -v). Returns 0, or the error of pthread_create or
 * pthread_sigmask (EAGAIN: no memory for the thread; nothing changed). */
int cli_signal_thread_start(volatile sig_atomic_t *flag);

/* cli_signal_thread_stop: end and join the thread started above (a no-op
 * when none runs); the three signals stay blocked, so one that arrives
 * later stays pending until the process exits with its own code. */
void cli_signal_thread_stop(void);

#endif

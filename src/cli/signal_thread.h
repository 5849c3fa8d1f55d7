/* src/cli/signal_thread.h: SIGTERM, SIGINT and SIGUSR1 taken by one thread of their own (sigwait), so that no library code ever runs a signal handler */
#ifndef SK_CLI_SIGNAL_THREAD_H
#define SK_CLI_SIGNAL_THREAD_H

#include <signal.h>

/* cli_signal_thread_start: block SIGTERM, SIGINT and SIGUSR1 in the calling
 * thread (every thread created later inherits the mask: OpenMP workers,
 * library threads) and start a joinable thread that waits for them and
 * stores the number of each one that arrives in *flag. Libraries that
 * install handlers of their own for these signals (METIS's error traps
 * longjmp out of SIGTERM) then never see them. Call it before any other
 * thread exists, once per process. The thread runs on a small stack of its
 * own (SK_SIGNAL_THREAD_STACK bytes), so that it starts under a tight address
 * space limit (ulimit -v). Returns 0, or the error of pthread_create or
 * pthread_sigmask (EAGAIN: no memory for the thread; nothing changed). */
int cli_signal_thread_start(volatile sig_atomic_t *flag);
/* A stop that meets the main thread inside a library call polling no stop
 * request (a CVODE, IDA or KINSOL call, a KLU factorization: core/stop.h)
 * waits for the call to return at most SK_STOP_GRACE_DEFAULT seconds while
 * the run has nothing to save, SK_STOP_GRACE_SAVING seconds once it has
 * (cli_signal_grace_saving: the integration is under way, and the stop at
 * the end of the call writes a checkpoint; below the 30 s a batch scheduler
 * such as Slurm leaves between SIGTERM and SIGKILL by default). Then the
 * thread ends the process with exit 75 and a message naming the call. The
 * environment variable STIFFKIT_STOP_GRACE sets one number of seconds for
 * both, or inf to wait for the call however long it takes. */
#define SK_STOP_GRACE_DEFAULT 2.0
#define SK_STOP_GRACE_SAVING 25.0

/* cli_signal_grace_saving: from now on the run has progress that a stop
 * saves (a checkpoint): the longer grace applies. */
void cli_signal_grace_saving(void);

/* cli_signal_thread_stop: end and join the thread started above (a no-op
 * when none runs); the three signals stay blocked, so one that arrives
 * later stays pending until the process exits with its own code. */
void cli_signal_thread_stop(void);

#endif

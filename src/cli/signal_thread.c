/* src/cli/signal_thread.c: SIGTERM, SIGINT and SIGUSR1 taken by one thread of their own (sigwait), joined at the end of the command */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <signal.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/signal_thread.h"
#include "core/stop.h"

/* the waiting thread, joinable, so that its stack and thread-local storage
 * are freed before the process exits (memcheck finds no block lost) */
static pthread_t waiter;
static int waiter_running = 0;
/* set by cli_signal_thread_stop before it wakes the waiter with SIGUSR1: the waiter then
 * returns. (Not pthread_cancel: glibc loads libgcc_s for the unwinding at the first
 * cancellation, and that late dlopen unloaded the libraries of modules opened before, HDF5's
 * among them, while the process still held their state.) */
static atomic_int waiter_quit;

/* The waiter only calls sigwait: 64 KiB of stack are plenty (the default
 * would be the 8 MiB of `ulimit -s`, a tenth of a tight `ulimit -v`). */
#define SK_SIGNAL_THREAD_STACK (64 * 1024)

static void stop_set(sigset_t *set)
{
  sigemptyset(set);
  sigaddset(set, SIGTERM);
  sigaddset(set, SIGINT);
  sigaddset(set, SIGUSR1);
}

/* Seconds a stop waits for a library call that polls no stop request (core/stop.h's
 * regions) before the process ends itself; < 0: wait for the call to return. grace_set:
 * STIFFKIT_STOP_GRACE gave it (cli_signal_grace_saving then changes nothing). */
static _Atomic double grace_s = SK_STOP_GRACE_DEFAULT;
static int grace_set = 0;

void cli_signal_grace_saving(void)
{
  if (!grace_set) {
    grace_s = SK_STOP_GRACE_SAVING;
  }
}

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static const char *signal_text(int sig)
{
  return sig == SIGTERM   ? "SIGTERM"
         : sig == SIGINT  ? "SIGINT"
         : sig == SIGUSR1 ? "SIGUSR1"
                          : "a signal";
}

/* After stop signal `sig`, until the process ends: whenever the main thread stays inside one
 * call that polls no stop request (core/stop.h's regions) for grace_s seconds (counted from the
 * signal, or from the call's start when it began later: a stop that arrived just before such a
 * call is not seen until the call returns), end the process with exit 75. Such a call writes no
 * file (the regions are solver and factorization calls), so no file under a final name changes;
 * the temporaries are removed by the next run in the folder. Outside the regions the main thread
 * stops at its next check, saving what it can. Returns when cli_signal_thread_stop asks. */
__attribute__((noinline)) static void watch_the_stop(const sigset_t *set,
                                                     volatile sig_atomic_t *flag, int sig)
{
  uint64_t seen = 0, generation = 0;
  double since = now_s();
  while (!atomic_load(&waiter_quit)) {
    const char *what = sk__stop_region(&generation);
    const double grace = grace_s;
    if (what && grace >= 0) {
      if (generation != seen) { /* a call entered after the last look */
        seen = generation;
        since = now_s();
      }
      if (now_s() - since >= grace) {
        char msg[768];
        const int len = snprintf(
            msg, sizeof msg,
            "stiffkit: error: interrupted by %s inside %s, which did not return within %.3g s: "
            "the process ends without saving (exit 75); no file under a final name was changed "
            "(the next run in this folder removes the temporary files); continue from the last "
            "checkpoint, if one was written (checkpoint.every, checkpoint.wall), with --restart, "
            "or set STIFFKIT_STOP_GRACE=inf to let such a call finish\n",
            signal_text(sig), what, grace);
        if (len > 0) {
          const ssize_t w =
              write(STDERR_FILENO, msg, (size_t)len < sizeof msg ? (size_t)len : sizeof msg - 1);
          (void)w;
        }
        _exit(SK_EXIT_INTERRUPTED);
      }
    }
    const struct timespec tick = {0, 50 * 1000 * 1000};
    siginfo_t info;
    const int again = sigtimedwait(set, &info, &tick);
    if (again > 0 && !atomic_load(&waiter_quit)) {
      *flag = again;
      sig = again;
    }
  }
}

static void *wait_for_signals(void *arg)
{
  volatile sig_atomic_t *flag = arg;
  sigset_t set;
  stop_set(&set);
  while (!atomic_load(&waiter_quit)) {
    int sig = 0;
    if (sigwait(&set, &sig) == 0 && !atomic_load(&waiter_quit)) {
      *flag = sig;
      watch_the_stop(&set, flag, sig);
    }
  }
  return NULL;
}

/* STIFFKIT_STOP_GRACE: seconds (>= 0), or inf; anything else keeps the default. */
static void read_grace(void)
{
  const char *e = getenv("STIFFKIT_STOP_GRACE");
  if (!e || !e[0]) {
    return;
  }
  if (!strcmp(e, "inf")) {
    grace_s = -1.0;
    grace_set = 1;
    return;
  }
  char *end = NULL;
  const double v = strtod(e, &end);
  if (end && *end == '\0' && isfinite(v) && v >= 0) {
    grace_s = v;
    grace_set = 1;
  }
}

int cli_signal_thread_start(volatile sig_atomic_t *flag)
{
  sigset_t set, old;
  stop_set(&set);
  if (waiter_running) {
    return EBUSY;
  }
  int rc = pthread_sigmask(SIG_BLOCK, &set, &old);
  if (rc != 0) {
    return rc;
  }
  read_grace();
  atomic_store(&waiter_quit, 0);
  pthread_attr_t attr;
  rc = pthread_attr_init(&attr);
  if (rc == 0) {
    const size_t stack =
        SK_SIGNAL_THREAD_STACK > PTHREAD_STACK_MIN ? SK_SIGNAL_THREAD_STACK : PTHREAD_STACK_MIN;
    rc = pthread_attr_setstacksize(&attr, stack);
    /* through uintptr_t: pthread's argument has no volatile; the thread restores it */
    if (rc == 0) {
      rc = pthread_create(&waiter, &attr, wait_for_signals, (void *)(uintptr_t)flag);
    }
    pthread_attr_destroy(&attr);
  }
  if (rc != 0) {
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
  }
  waiter_running = 1;
  return 0;
}

void cli_signal_thread_stop(void)
{
  if (waiter_running) {
    atomic_store(&waiter_quit, 1);
    pthread_kill(waiter, SIGUSR1); /* blocked everywhere: only the waiter's sigwait takes it */
    pthread_join(waiter, NULL);
    waiter_running = 0;
  }
}

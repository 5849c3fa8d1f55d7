/* src/cli/signal_thread.c: SIGTERM, SIGINT and SIGUSR1 taken by one thread of their own (sigwait), joined at the end of the command */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <signal.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>

#include "cli/signal_thread.h"

/* the waiting thread, joinable, so that its stack and thread-local storage
 * are freed before the process exits (memcheck finds no block lost) */
static pthread_t waiter;
static int waiter_running = 0;

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

static void *wait_for_signals(void *arg)
{
  volatile sig_atomic_t *flag = arg;
  sigset_t set;
  stop_set(&set);
  for (;;) {
    int sig = 0;
    if (sigwait(&set, &sig) == 0) {
      *flag = sig;
    }
  }
  return NULL;
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
    /* sigwait is a cancellation point: the thread ends there */
    pthread_cancel(waiter);
    pthread_join(waiter, NULL);
    waiter_running = 0;
  }
}

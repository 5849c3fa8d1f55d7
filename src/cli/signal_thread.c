/* src/cli/signal_thread.c: SIGTERM, SIGINT and SIGUSR1 taken by one thread of their own (sigwait) */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <signal.h>
#include <stdint.h>

#include "cli/signal_thread.h"

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
  if (pthread_sigmask(SIG_BLOCK, &set, &old) != 0) {
    return -1;
  }
  pthread_attr_t attr;
  pthread_t thread;
  int rc = pthread_attr_init(&attr);
  if (rc == 0) {
    rc = pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (rc == 0) {
      /* through uintptr_t: pthread's argument has no volatile; the thread restores it */
      rc = pthread_create(&thread, &attr, wait_for_signals, (void *)(uintptr_t)flag);
    }
    pthread_attr_destroy(&attr);
  }
  if (rc != 0) {
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return -1;
  }
  return 0;
}

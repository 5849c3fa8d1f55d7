/* src/cli/sweep_pool.c: the local process pool of a sweep: case runners in parallel, a live summary line, stop signals forwarded */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/progress.h"
#include "cli/stop_signals.h"
#include "cli/sweep_proc.h"
#include "cli/sweep_run.h"

/* The stop signal the sweep received (0 = none). A signal handler can only
 * reach file-scope state. */
static volatile sig_atomic_t stop_signal = 0;

static void on_stop(int sig)
{
  stop_signal = sig;
}

typedef struct {
  pid_t pid;      /* 0: free */
  size_t index;   /* the case */
  double started; /* cli_wall_now() */
} pool_slot;

typedef struct {
  const char *dir;
  const sweep_manifest *m;
  size_t total, next, running, ok, failed, interrupted;
  double wall_sum; /* of the finished cases */
  size_t finished;
  int jobs, tty;
  double last_draw;
  size_t *failures; /* indices of failed cases */
} pool_state;

static void format_eta(const pool_state *p, char *buf, size_t cap)
{
  const size_t left = p->total - p->next + p->running;
  if (p->finished == 0 || left == 0) {
    snprintf(buf, cap, left ? "--" : "0:00:00");
    return;
  }
  const double per = p->wall_sum / (double)p->finished;
  const long s = lround(per * ceil((double)left / (double)p->jobs));
  snprintf(buf, cap, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
}

static void summary(const pool_state *p, char *buf, size_t cap)
{
  char eta[32];
  format_eta(p, eta, sizeof eta);
  snprintf(buf, cap, "%zu/%zu done (%zu failed%s), %zu running, %zu waiting, ETA %s",
           p->ok + p->failed + p->interrupted, p->total, p->failed,
           p->interrupted ? ", some interrupted" : "", p->running, p->total - p->next, eta);
}

/* Redraw the terminal line (at most 4 times a second unless forced). */
static void draw(pool_state *p, int force)
{
  const double now = cli_wall_now();
  if (!p->tty || (!force && now - p->last_draw < 0.25)) {
    return;
  }
  char line[256];
  summary(p, line, sizeof line);
  fprintf(stderr, "\rsweep: %s\033[K", line);
  fflush(stderr);
  p->last_draw = now;
}

static int start_case(pool_state *p, pool_slot *slot, const char *exe)
{
  const size_t index = slot->index;
  char idx[32], sweep[] = "sweep", opt_case[] = "--case", quiet[] = "--quiet", dir[SWEEP_PATH];
  snprintf(idx, sizeof idx, "%zu", index);
  snprintf(dir, sizeof dir, "%s", p->dir);
  char exe_copy[PATH_MAX];
  snprintf(exe_copy, sizeof exe_copy, "%s", exe);
  char *argv[] = {exe_copy, sweep, opt_case, idx, dir, quiet, NULL};
  slot->pid = sweep_spawn(argv, -1, -1, 1);
  slot->started = cli_wall_now();
  if (slot->pid < 0) { /* the case counts as failed, its status saying why */
    const int err = errno;
    slot->pid = 0;
    sweep_status s;
    sweep_status_read(p->dir, p->m->id_width, index, &s);
    snprintf(s.status, sizeof s.status, "failed");
    s.exit_code = SK_EXIT_INTERNAL;
    snprintf(s.error, sizeof s.error, "its case runner could not be started: %s", strerror(err));
    sweep_status_write(p->dir, p->m->id_width, index, &s);
    p->failures[p->failed++] = index;
    return -1;
  }
  p->running++;
  return 0;
}

/* A case runner ended: read the status it wrote and count it (a runner
 * that ended without one counts as failed). */
static void finish_case(pool_state *p, pool_slot *slot)
{
  sweep_status s;
  sweep_status_read(p->dir, p->m->id_width, slot->index, &s);
  const double wall = cli_wall_now() - slot->started;
  p->running--;
  p->finished++;
  p->wall_sum += wall;
  const char *what = s.status;
  if (!strcmp(s.status, "ok")) {
    p->ok++;
  } else if (!strcmp(s.status, "interrupted")) {
    p->interrupted++;
  } else {
    if (strcmp(s.status, "failed") != 0) { /* the runner itself failed */
      what = "failed";
    }
    p->failures[p->failed++] = slot->index;
  }
  if (!p->tty) {
    char line[256];
    summary(p, line, sizeof line);
    fprintf(stderr, "sweep: case %0*zu %s in %.1f s; %s\n", p->m->id_width, slot->index, what,
            wall, line);
  } else {
    draw(p, 1);
  }
  slot->pid = 0;
}

static void list_failures(const pool_state *p)
{
  fprintf(stderr, "stiffkit: %zu of %zu cases failed:\n", p->failed, p->total);
  for (size_t k = 0; k < p->failed; k++) {
    sweep_status s;
    sweep_status_read(p->dir, p->m->id_width, p->failures[k], &s);
    fprintf(stderr, "  %0*zu  exit %d: %s\n", p->m->id_width, p->failures[k], s.exit_code,
            s.error[0]                   ? s.error
            : strcmp(s.status, "failed") ? "the case runner ended without a status"
                                         : "(no message)");
  }
  fprintf(stderr, "(details in %s/cases/<id>/stderr.txt; rerun them with --only-failed)\n",
          p->dir);
}

int sweep_pool_run(const char *dir, const sweep_manifest *m, const size_t *todo, size_t ntodo,
                   int jobs)
{
  char exe[PATH_MAX];
  if (sweep_self_exe(exe, sizeof exe) != 0) {
    return SK_EXIT_INTERNAL;
  }
  pool_slot *slots = calloc((size_t)jobs, sizeof *slots);
  pool_state p = {dir,   m,
                  ntodo, 0,
                  0,     0,
                  0,     0,
                  0.0,   0,
                  jobs,  isatty(STDERR_FILENO),
                  0.0,   calloc(ntodo ? ntodo : 1, sizeof(size_t))};
  if (!slots || !p.failures) {
    free(slots);
    free(p.failures);
    fprintf(stderr, "stiffkit: error: out of memory\n");
    return SK_EXIT_INTERNAL;
  }
  /* concurrent cases each get one OpenMP thread unless the user said otherwise */
  sweep_limit_threads((size_t)jobs < ntodo ? (size_t)jobs : ntodo);
  cli_catch_stop_signals(on_stop);
  int forwarded = 0, spawn_failed = 0;
  while (p.next < ntodo || p.running > 0) {
    for (int k = 0; k < jobs && !stop_signal && !spawn_failed && p.next < ntodo; k++) {
      if (slots[k].pid == 0) {
        slots[k].index = todo[p.next++];
        spawn_failed = start_case(&p, &slots[k], exe) != 0;
      }
    }
    if (spawn_failed || stop_signal) {
      p.next = ntodo; /* start nothing more */
    }
    if (stop_signal && !forwarded) {
      for (int k = 0; k < jobs; k++) {
        if (slots[k].pid > 0) {
          kill(slots[k].pid, stop_signal);
        }
      }
      forwarded = 1;
    }
    int wstatus;
    const pid_t pid = waitpid(-1, &wstatus, WNOHANG);
    if (pid > 0) {
      for (int k = 0; k < jobs; k++) {
        if (slots[k].pid == pid) {
          finish_case(&p, &slots[k]);
        }
      }
      continue;
    }
    if (pid < 0 && errno == ECHILD) {
      break;
    }
    if (pid < 0 && errno == EINTR) {
      continue;
    }
    draw(&p, 0);
    nanosleep(&(struct timespec){0, 50000000}, NULL);
  }
  if (p.tty) {
    draw(&p, 1);
    fputc('\n', stderr);
  }
  int code = SK_EXIT_OK;
  if (p.failed > 0) {
    list_failures(&p);
    code = SK_EXIT_NUMERICAL;
  }
  if (stop_signal || p.interrupted) {
    fprintf(stderr,
            "stiffkit: sweep interrupted: %zu of %zu cases done; rerun the same command "
            "to continue (interrupted cases resume from their checkpoints)\n",
            p.ok + p.failed, p.total);
    code = SK_EXIT_INTERRUPTED;
  } else if (spawn_failed) {
    fprintf(stderr,
            "stiffkit: error: a case runner could not be started: %zu of %zu cases were "
            "not run; rerun the same command to run them\n",
            ntodo - p.ok - p.failed, ntodo);
    code = SK_EXIT_INTERNAL;
  }
  free(slots);
  free(p.failures);
  return code;
}

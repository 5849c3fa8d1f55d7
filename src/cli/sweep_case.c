/* src/cli/sweep_case.c: the case runner (`stiffkit sweep --case INDEX DIR`): one case run as a child, signals forwarded, status written, Slurm requeue */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/progress.h"
#include "cli/stop_signals.h"
#include "cli/sweep_proc.h"
#include "cli/sweep_requeue.h"
#include "cli/sweep_run.h"

/* The child a stop signal is forwarded to, and the signal received (0 =
 * none). A signal handler can only reach file-scope state. */
static volatile sig_atomic_t forward_pid = 0;
static volatile sig_atomic_t received_signal = 0;

static void on_signal(int sig)
{
  received_signal = sig;
  if (forward_pid > 0) {
    kill((pid_t)forward_pid, sig);
  }
}

/* The last "stiffkit: error: " line written to `path` after byte `from`:
 * its text (without the prefix, cut to cap bytes) into msg, "" when there
 * is none; *held gets the time its checkpoint holds (sweep_held_time,
 * read from the whole line). */
static void last_error_line(const char *path, long from, char *msg, size_t cap, double *held)
{
  static const char prefix[] = "stiffkit: error: ";
  msg[0] = '\0';
  *held = NAN;
  FILE *f = fopen(path, "r");
  if (!f) {
    return;
  }
  if (fseek(f, 0, SEEK_END) == 0) {
    const long end = ftell(f);
    const long tail = (long)1 << 20; /* the last MiB holds the final message */
    fseek(f, end - from > tail ? end - tail : from, SEEK_SET);
  }
  char *line = NULL;
  size_t len = 0;
  while (getline(&line, &len, f) > 0) {
    if (!strncmp(line, prefix, sizeof prefix - 1)) {
      const char *text = line + sizeof prefix - 1;
      const size_t n = strcspn(text, "\n") < cap ? strcspn(text, "\n") : cap - 1;
      memcpy(msg, text, n); /* a longer message is cut */
      msg[n] = '\0';
      *held = sweep_held_time(text);
    }
  }
  free(line);
  fclose(f);
}

/* Open a log of the case for appending; *size receives its length. */
static int open_log(const char *path, long *size)
{
  const int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
  if (fd < 0) {
    fprintf(stderr, "stiffkit: error: cannot open '%s': %s\n", path, strerror(errno));
    return -1;
  }
  struct stat sb;
  *size = fstat(fd, &sb) == 0 ? (long)sb.st_size : 0;
  return fd;
}

/* Ask Slurm to requeue array task (or job) `target`, which then continues
 * from the case's checkpoint in its next allocation. */
static void requeue_task(const char *id, const char *target, const char *why)
{
  char scontrol[PATH_MAX], job[64];
  if (!sweep_find_program("scontrol", scontrol, sizeof scontrol)) {
    fprintf(stderr,
            "stiffkit: warning: case %s was interrupted but scontrol is not in PATH: "
            "resubmit the sweep to continue it\n",
            id);
    return;
  }
  snprintf(job, sizeof job, "%s", target);
  char requeue[] = "requeue";
  char *argv[] = {scontrol, requeue, job, NULL};
  char out[256];
  const int code = sweep_capture(argv, 0, out, sizeof out);
  if (code == 0) {
    fprintf(stderr,
            "stiffkit: case %s interrupted: requeued Slurm job %s to continue from its "
            "checkpoint (%s)\n",
            id, target, why);
  } else {
    fprintf(stderr,
            "stiffkit: warning: scontrol requeue %s failed (exit %d): resubmit the "
            "sweep to continue case %s\n",
            target, code, id);
  }
}

/* Run the child and fill the status of this attempt. */
static int run_child(char *const argv[], int out_fd, int err_fd, sweep_status *s)
{
  const double start = cli_wall_now();
  const pid_t pid = sweep_spawn(argv, out_fd, err_fd, 0);
  if (pid < 0) {
    return SK_EXIT_INTERNAL;
  }
  forward_pid = (sig_atomic_t)pid;
  if (received_signal) { /* arrived before the child was known */
    kill(pid, received_signal);
  }
  /* wait for its end without reaping it: its pid stays taken (a zombie) until
     forward_pid is cleared, so a signal forwarded meanwhile cannot reach a
     process that reused the pid */
  siginfo_t info;
  int rc;
  while ((rc = waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT)) != 0 && errno == EINTR) {
  }
  forward_pid = 0;
  int status = 0;
  if (rc != 0 || sweep_wait(pid, &status) != 0) {
    fprintf(stderr, "stiffkit: error: lost the case's process: %s\n", strerror(errno));
    return SK_EXIT_INTERNAL;
  }
  s->wall_time += cli_wall_now() - start;
  if (WIFEXITED(status)) {
    s->exit_code = WEXITSTATUS(status);
  } else {
    const int sig = WTERMSIG(status);
    /* a forwarded stop that came before the run could catch it: nothing to lose */
    s->exit_code = received_signal && sig == received_signal ? SK_EXIT_INTERRUPTED : 128 + sig;
    snprintf(s->error, sizeof s->error, "the run was ended by signal %d (%s)", sig,
             strsignal(sig));
  }
  snprintf(s->status, sizeof s->status, "%s",
           s->exit_code == 0                     ? "ok"
           : s->exit_code == SK_EXIT_INTERRUPTED ? "interrupted"
                                                 : "failed");
  return 0;
}

/* The fixed words of a case's command line. */
typedef struct {
  char run[4], resume[9], no_stats[11], stats_json[13];
} case_words;

/* The command line of the case's run (srun in front for MPI cases under
 * Slurm) into argv (at most 9 entries), pointing into w and the paths. */
static void case_argv(char **argv, case_words *w, char *exe, char *srun, char *config,
                      char *stats, const sweep_manifest *m)
{
  *w = (case_words){"run", "--resume", "--no-stats", "--stats-json"};
  int k = 0;
  if (getenv("SLURM_JOB_ID") && m->slurm.ntasks > 1) {
    if (sweep_find_program("srun", srun, PATH_MAX)) {
      argv[k++] = srun;
    } else {
      fprintf(stderr, "stiffkit: warning: srun not found in PATH: the case runs as one task\n");
    }
  }
  argv[k++] = exe;
  argv[k++] = w->run;
  argv[k++] = config;
  argv[k++] = w->resume;
  argv[k++] = w->no_stats;
  argv[k++] = w->stats_json;
  argv[k++] = stats;
  argv[k] = NULL;
}

/* The attempt ended interrupted under Slurm: 1 when it is to be requeued
 * (its checkpoint advanced: sweep_requeue_decide), else 0 after saying why
 * not; the reason goes to why and to the status. */
static int after_interruption(const sweep_manifest *m, const char *id, sweep_status *s,
                              double prev, double held, char *why, size_t cap)
{
  const int requeue =
      sweep_requeue_decide(prev, held, s->attempts, m->slurm.max_attempts, why, cap);
  snprintf(s->requeue, sizeof s->requeue, "%s: %s", requeue ? "requeued" : "not requeued", why);
  if (!requeue) {
    fprintf(stderr,
            "stiffkit: case %s interrupted and not requeued: %s; resubmit the sweep to "
            "continue it\n",
            id, why);
  }
  return requeue;
}

/* One attempt of the case: status `running`, the run, the status it ended with. */
static int attempt(const sweep_manifest *m, const char *absdir, size_t index, const char *id,
                   char *config, sweep_status *s, int quiet)
{
  char stats[SWEEP_PATH], out_path[SWEEP_PATH], err_path[SWEEP_PATH];
  if (sweep_case_path(stats, sizeof stats, absdir, m->id_width, index, "stats.json") != 0 ||
      sweep_case_path(out_path, sizeof out_path, absdir, m->id_width, index, "stdout.txt") != 0 ||
      sweep_case_path(err_path, sizeof err_path, absdir, m->id_width, index, "stderr.txt") != 0) {
    fprintf(stderr, "stiffkit: error: the sweep directory name is too long\n");
    return SK_EXIT_USAGE;
  }
  long out_size, err_size;
  const int out_fd = open_log(out_path, &out_size);
  const int err_fd = out_fd >= 0 ? open_log(err_path, &err_size) : -1;
  if (err_fd < 0) {
    if (out_fd >= 0) {
      close(out_fd);
    }
    return SK_EXIT_CANTCREATE;
  }
  const double prev = s->checkpoint_t;
  s->attempts++;
  s->exit_code = -1;
  s->error[0] = s->requeue[0] = '\0';
  snprintf(s->status, sizeof s->status, "running");
  sweep_status_set_runner(s);
  int code = sweep_status_write(absdir, m->id_width, index, s);
  char exe[PATH_MAX], srun[PATH_MAX];
  char *argv[10];
  case_words words;
  if (code == 0 && sweep_self_exe(exe, sizeof exe) != 0) {
    code = SK_EXIT_INTERNAL;
  }
  if (code == 0 && received_signal) { /* stopped before the run started: nothing to lose */
    snprintf(s->status, sizeof s->status, "interrupted");
    snprintf(s->error, sizeof s->error, "stopped by signal %d before its run started",
             (int)received_signal);
    s->exit_code = SK_EXIT_INTERRUPTED;
  } else if (code == 0) {
    case_argv(argv, &words, exe, srun, config, stats, m);
    code = run_child(argv, out_fd, err_fd, s);
  }
  close(out_fd);
  close(err_fd);
  if (code != 0) { /* the run did not start (or was lost): say so in place of "running" */
    snprintf(s->status, sizeof s->status, "failed");
    snprintf(s->error, sizeof s->error, "the case runner could not run the case (exit %d)", code);
    s->exit_code = code;
    sweep_status_write(absdir, m->id_width, index, s);
    return code;
  }
  char msg[sizeof s->error];
  double held;
  last_error_line(err_path, err_size, msg, sizeof msg, &held);
  if (msg[0]) {
    snprintf(s->error, sizeof s->error, "%s", msg);
  }
  s->checkpoint_t = isnan(held) ? prev : held;
  int requeue = 0;
  char why[200];
  if (!strcmp(s->status, "interrupted") && getenv("SLURM_JOB_ID") && m->slurm.requeue) {
    requeue = after_interruption(m, id, s, prev, held, why, sizeof why);
  }
  code = sweep_status_write(absdir, m->id_width, index, s);
  if (code != 0) {
    return code;
  }
  if (!quiet) {
    fprintf(s->exit_code ? stderr : stdout, "case %s: %s (exit %d, %.2f s)%s%s\n", id, s->status,
            s->exit_code, s->wall_time, s->error[0] ? ": " : "", s->error);
  }
  if (requeue) {
    requeue_task(id, s->slurm_job, why);
  }
  return s->exit_code;
}

/* Run case `index` of manifest m; absdir is the absolute sweep directory. */
static int run_case(const sweep_manifest *m, const char *absdir, size_t index, int quiet)
{
  char id[32], config[SWEEP_PATH];
  snprintf(id, sizeof id, "%0*zu", m->id_width, index);
  if (sweep_case_path(config, sizeof config, m->dir, m->id_width, index, "config.yaml") != 0) {
    fprintf(stderr, "stiffkit: error: the sweep directory name is too long\n");
    return SK_EXIT_USAGE;
  }
  if (access(config, R_OK) != 0) {
    fprintf(stderr, "stiffkit: error: case %s has no config '%s' (in %s): %s\n", id, config,
            m->workdir, strerror(errno));
    return SK_EXIT_NOINPUT;
  }
  sweep_status s;
  sweep_status_read(absdir, m->id_width, index, &s);
  if (!strcmp(s.status, "ok")) {
    if (!quiet) {
      printf("case %s is complete: not run again\n", id);
    }
    return SK_EXIT_OK;
  }
  if (!strcmp(s.status, "running") && sweep_runner_alive(&s) == 1) {
    fprintf(stderr,
            "stiffkit: error: case %s is already running (its runner: pid %lld on %s%s%s)"
            ": not started twice\n",
            id, s.pid, s.host, s.slurm_job[0] ? ", Slurm job " : "", s.slurm_job);
    return SK_EXIT_INTERRUPTED;
  }
  if (!strcmp(s.status, "missing") || !strcmp(s.status, "unreadable")) {
    s.wall_time = 0;
    s.attempts = 0;
    s.checkpoint_t = NAN;
  }
  /* the handlers come first: a stop signal from now on is forwarded, never
     leaves `running` behind */
  cli_catch_stop_signals(on_signal);
  return attempt(m, absdir, index, id, config, &s, quiet);
}

int sweep_case_run(const char *dir, size_t index, int quiet)
{
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK) {
    fprintf(stderr, "stiffkit: error: cannot create a context\n");
    return SK_EXIT_INTERNAL;
  }
  sweep_manifest m;
  const sk_status st = sweep_manifest_read(ctx, dir, &m);
  char absdir[PATH_MAX];
  int code;
  if (st != SK_OK) {
    code = cli_report(ctx, st);
  } else if (index >= m.cases.ncases) {
    fprintf(stderr,
            "stiffkit: error: case index %zu is out of range: the sweep in '%s' has %zu "
            "cases (0 to %zu)\n",
            index, dir, m.cases.ncases, m.cases.ncases - 1);
    code = SK_EXIT_USAGE;
  } else if (sweep_absolute(dir, absdir, sizeof absdir) != 0) {
    code = SK_EXIT_INTERNAL;
  } else if (chdir(m.workdir) != 0) {
    fprintf(stderr,
            "stiffkit: error: cannot enter the sweep's working directory '%s' (its "
            "cases run there): %s\n",
            m.workdir, strerror(errno));
    code = SK_EXIT_NOINPUT;
  } else {
    code = run_case(&m, absdir, index, quiet);
  }
  sweep_manifest_free(&m);
  sk_context_destroy(&ctx);
  return code;
}

/* src/cli/sweep_runner.c: the case runner recorded in a case's status (pid, start time, host, Slurm job), and whether a `running` status is stale */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/sweep_dir.h"
#include "cli/sweep_proc.h"

/* The start time of process pid (field 22 of /proc/PID/stat: clock ticks
 * after boot); 0 when it does not exist (or this is not Linux). */
static unsigned long long start_time(long long pid)
{
  char path[64], buf[1024];
  snprintf(path, sizeof path, "/proc/%lld/stat", pid);
  FILE *f = fopen(path, "r");
  if (!f) {
    return 0;
  }
  const size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  const char *p = strrchr(buf, ')'); /* after the command name, which may hold blanks */
  unsigned long long t = 0;
  if (!p || sscanf(p + 1,
                   " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d "
                   "%*d %*d %llu",
                   &t) != 1) {
    return 0;
  }
  return t;
}

/* This process's Slurm job as "<array job>_<task>" or the job id; "" outside Slurm. */
static void own_slurm_job(char *out, size_t cap)
{
  const char *job = getenv("SLURM_JOB_ID");
  const char *array = getenv("SLURM_ARRAY_JOB_ID");
  const char *task = getenv("SLURM_ARRAY_TASK_ID");
  if (array && task) {
    snprintf(out, cap, "%s_%s", array, task);
  } else {
    snprintf(out, cap, "%s", job ? job : "");
  }
}

void sweep_status_set_runner(sweep_status *s)
{
  s->pid = (long long)getpid();
  s->started = start_time(s->pid);
  if (gethostname(s->host, sizeof s->host) != 0) {
    s->host[0] = '\0';
  }
  s->host[sizeof s->host - 1] = '\0';
  own_slurm_job(s->slurm_job, sizeof s->slurm_job);
}

/* What squeue says of a job: 1 it may still run (pending, running,
 * suspended, requeued, completing), 0 it is over ("Invalid job id": gone
 * from the controller), -1 no answer (no squeue, no controller). */
static int slurm_job_alive(const char *job)
{
  char squeue[PATH_MAX], out[512], h[] = "-h", j[] = "-j", o[] = "-o", fmt[] = "%T", id[64];
  if (!sweep_find_program("squeue", squeue, sizeof squeue)) {
    return -1;
  }
  snprintf(id, sizeof id, "%s", job);
  char *argv[] = {squeue, h, j, id, o, fmt, NULL};
  if (sweep_capture(argv, 1, out, sizeof out) != 0) {
    return strstr(out, "Invalid job id") ? 0 : -1;
  }
  static const char *const live[] = {"PENDING",   "RUNNING",   "CONFIGURING",  "COMPLETING",
                                     "SUSPENDED", "REQUEUED",  "REQUEUE_HOLD", "REQUEUE_FED",
                                     "RESIZING",  "SIGNALING", "STAGE_OUT",    "STOPPED"};
  out[strcspn(out, " \t\n")] = '\0';
  for (size_t k = 0; k < sizeof live / sizeof live[0]; k++) {
    if (!strcmp(out, live[k])) {
      return 1;
    }
  }
  return 0;
}

int sweep_runner_alive(const sweep_status *s)
{
  char host[256] = "";
  if (gethostname(host, sizeof host) != 0) {
    host[0] = '\0';
  }
  host[sizeof host - 1] = '\0';
  if (s->host[0] && !strcmp(s->host, host) && s->pid > 0) {
    const unsigned long long t = start_time(s->pid);
    return t != 0 && (s->started == 0 || t == s->started);
  }
  if (s->slurm_job[0]) {
    char own[64];
    own_slurm_job(own, sizeof own);
    if (!strcmp(own, s->slurm_job)) {
      return 0; /* this job is its continuation: Slurm runs one instance of a job */
    }
    return slurm_job_alive(s->slurm_job);
  }
  return -1;
}

int sweep_status_settle(sweep_status *s)
{
  if (strcmp(s->status, "running") != 0) {
    return 0;
  }
  const int alive = sweep_runner_alive(s);
  if (alive != 0) {
    return alive;
  }
  snprintf(s->status, sizeof s->status, "interrupted");
  if (s->slurm_job[0]) {
    snprintf(s->error, sizeof s->error,
             "its case runner (Slurm job %s) ended without a status: killed (time limit, out "
             "of memory, scancel)?",
             s->slurm_job);
  } else {
    snprintf(s->error, sizeof s->error,
             "its case runner (pid %lld on %s) ended without a status: killed (SIGKILL, out of "
             "memory)?",
             s->pid, s->host[0] ? s->host : "this host");
  }
  return 0;
}

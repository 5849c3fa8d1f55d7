/* src/cli/dead_temps.c: temporary files that killed runs left next to their outputs and checkpoints, removed by the next run */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "cli/dead_temps.h"

/* The pid of "<base>.tmp.<digits>" in name, or 0 when name is not one. */
static long temp_pid(const char *name, const char *base, size_t blen)
{
  static const char tag[] = ".tmp.";
  if (strncmp(name, base, blen) != 0 || strncmp(name + blen, tag, sizeof tag - 1) != 0) {
    return 0;
  }
  const char *digits = name + blen + sizeof tag - 1;
  if (!digits[0] || strspn(digits, "0123456789") != strlen(digits) || strlen(digits) > 9) {
    return 0;
  }
  return strtol(digits, NULL, 10);
}

/* 1 when no process pid exists (kill(2) with signal 0 says ESRCH). */
static int process_gone(long pid)
{
  return pid > 0 && pid != (long)getpid() && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* The dead temporaries of one final path. */
static int remove_for(const char *path)
{
  const char *slash = strrchr(path, '/');
  char dir[4096];
  const char *base = slash ? slash + 1 : path;
  if (!slash) {
    snprintf(dir, sizeof dir, ".");
  } else if (slash == path) {
    snprintf(dir, sizeof dir, "/");
  } else if ((size_t)(slash - path) < sizeof dir) {
    snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
  } else {
    return 0;
  }
  const size_t blen = strlen(base);
  DIR *d = blen ? opendir(dir) : NULL;
  if (!d) {
    return 0;
  }
  int removed = 0;
  for (struct dirent *e = readdir(d); e; e = readdir(d)) {
    if (process_gone(temp_pid(e->d_name, base, blen))) {
      char full[8192];
      snprintf(full, sizeof full, "%s/%s", dir, e->d_name);
      removed += unlink(full) == 0;
    }
  }
  closedir(d);
  return removed;
}

int cli_remove_dead_temps(const char *const *paths, size_t n)
{
  int removed = 0;
  for (size_t k = 0; k < n; k++) {
    removed += paths[k] ? remove_for(paths[k]) : 0;
  }
  return removed;
}

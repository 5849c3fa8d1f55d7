/* src/cli/sweep_proc.c: child processes of sweeps: the running binary, programs in PATH, spawning, waiting, capturing output, their thread count */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/sweep_proc.h"

int sweep_self_exe(char *buf, size_t cap)
{
  const ssize_t n = readlink("/proc/self/exe", buf, cap - 1);
  if (n <= 0 || (size_t)n >= cap - 1) {
    fprintf(stderr, "stiffkit: error: cannot find the stiffkit binary (/proc/self/exe): %s\n",
            n < 0 ? strerror(errno) : "path too long");
    return -1;
  }
  buf[n] = '\0';
  return 0;
}

int sweep_absolute(const char *path, char *out, size_t cap)
{
  char cwd[4096];
  int n;
  if (path[0] == '/') {
    n = snprintf(out, cap, "%s", path);
  } else if (getcwd(cwd, sizeof cwd)) {
    n = snprintf(out, cap, "%s/%s", cwd, path);
  } else {
    fprintf(stderr, "stiffkit: error: cannot tell the working directory: %s\n", strerror(errno));
    return -1;
  }
  if (n < 0 || (size_t)n >= cap) {
    fprintf(stderr, "stiffkit: error: the path '%s' is too long\n", path);
    return -1;
  }
  return 0;
}

int sweep_find_program(const char *name, char *out, size_t cap)
{
  const char *path = getenv("PATH");
  if (!path || !path[0]) {
    return 0;
  }
  for (const char *p = path; *p;) {
    const char *colon = strchr(p, ':');
    const size_t len = colon ? (size_t)(colon - p) : strlen(p);
    const int n = snprintf(out, cap, "%.*s%s%s", (int)len, len ? p : ".", "/", name);
    if (n > 0 && (size_t)n < cap && access(out, X_OK) == 0) {
      return 1;
    }
    p += len + (colon ? 1 : 0);
  }
  out[0] = '\0';
  return 0;
}

pid_t sweep_spawn(char *const argv[], int out_fd, int err_fd, int new_group)
{
  fflush(stdout);
  fflush(stderr);
  const pid_t pid = fork();
  if (pid < 0) {
    const int err = errno;
    fprintf(stderr, "stiffkit: error: cannot start '%s': %s\n", argv[0], strerror(err));
    errno = err;
    return -1;
  }
  if (pid == 0) {
    if (new_group) {
      setpgid(0, 0);
    }
    if ((out_fd >= 0 && dup2(out_fd, STDOUT_FILENO) < 0) ||
        (err_fd >= 0 && dup2(err_fd, STDERR_FILENO) < 0)) {
      _exit(127);
    }
    execv(argv[0], argv);
    dprintf(STDERR_FILENO, "stiffkit: error: cannot run '%s': %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  return pid;
}

int sweep_wait(pid_t pid, int *status)
{
  for (;;) {
    if (waitpid(pid, status, 0) == pid) {
      return 0;
    }
    if (errno != EINTR) {
      return -1;
    }
  }
}

int sweep_capture(char *const argv[], int with_stderr, char *out, size_t cap)
{
  int fds[2];
  out[0] = '\0';
  if (pipe(fds) != 0) {
    fprintf(stderr, "stiffkit: error: cannot start '%s': %s\n", argv[0], strerror(errno));
    return -1;
  }
  const pid_t pid = sweep_spawn(argv, fds[1], with_stderr ? fds[1] : -1, 0);
  close(fds[1]);
  size_t n = 0;
  for (;;) {
    char buf[512];
    const ssize_t got = read(fds[0], buf, sizeof buf);
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got <= 0) {
      break;
    }
    for (ssize_t i = 0; i < got && n + 1 < cap; i++) {
      out[n++] = buf[i];
    }
  }
  close(fds[0]);
  while (n > 0 && strchr(" \t\r\n", out[n - 1])) {
    n--;
  }
  out[n] = '\0';
  int status;
  if (pid < 0 || sweep_wait(pid, &status) != 0) {
    return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void sweep_limit_threads(size_t concurrent)
{
  if (concurrent > 1 && !getenv("OMP_NUM_THREADS")) {
    setenv("OMP_NUM_THREADS", "1", 1);
  }
}

/* src/cli/plot_script.c: the plotting scripts of the CLI: lookup (environment, install tree, source tree) and a python3 run */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/plot_script.h"
#include "cli/sweep_proc.h"

void cli_plot_script_path(const char *name, char *buf, size_t len)
{
  const char *dir = getenv("STIFFKIT_SCRIPTS_DIR");
  if (dir && *dir) {
    snprintf(buf, len, "%s/%s", dir, name);
    return;
  }
#ifdef SK_BIN_TO_SCRIPTS
  char exe[4096];
  if (sweep_self_exe(exe, sizeof exe) == 0) {
    char *slash = strrchr(exe, '/');
    if (slash) {
      *slash = '\0';
      const int w = snprintf(buf, len, "%s/%s/%s", exe, SK_BIN_TO_SCRIPTS, name);
      if (w > 0 && (size_t)w < len && access(buf, R_OK) == 0) {
        return;
      }
    }
  }
#endif
#ifdef SK_SCRIPTS_DIR
  snprintf(buf, len, "%s/%s", SK_SCRIPTS_DIR, name);
#else
  snprintf(buf, len, "scripts/%s", name);
#endif
}

int cli_plot_run(char *const args[])
{
  fflush(NULL);
  const pid_t pid = fork();
  if (pid < 0) {
    return -2;
  }
  if (pid == 0) {
    execv(SK__PLOT_PYTHON, args);
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      return -1;
    }
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

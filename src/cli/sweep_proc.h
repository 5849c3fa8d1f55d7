/* src/cli/sweep_proc.h: child processes of sweeps: the running binary, programs in PATH, spawning, waiting, capturing output, their thread count */
#ifndef SK_CLI_SWEEP_PROC_H
#define SK_CLI_SWEEP_PROC_H

#include <stddef.h>
#include <sys/types.h>

/* sweep_self_exe: the absolute path of the running stiffkit binary
 * (/proc/self/exe). Returns 0, or -1 after printing the reason. */
int sweep_self_exe(char *buf, size_t cap);

/* sweep_absolute: `path` made absolute against the working directory
 * (unchanged when it is absolute). Returns 0, or -1 after printing the
 * reason. */
int sweep_absolute(const char *path, char *out, size_t cap);

/* sweep_find_program: the first executable `name` in the directories of
 * PATH into out. Returns 1 when found, 0 otherwise. */
int sweep_find_program(const char *name, char *out, size_t cap);

/* sweep_spawn: fork and execv argv[0] with argv; stdout and stderr go to
 * out_fd and err_fd (-1: inherited); new_group puts the child in a
 * process group of its own (signals from the terminal reach only the
 * parent, which forwards them). Returns the child's pid, or -1 after
 * printing the reason (errno kept). A failed exec ends the child with exit
 * code 127. */
pid_t sweep_spawn(char *const argv[], int out_fd, int err_fd, int new_group);

/* sweep_wait: wait for pid (retrying after signals); *status as waitpid
 * gives it. Returns 0, or -1 when pid is not a child. */
int sweep_wait(pid_t pid, int *status);

/* sweep_capture: run argv and read up to cap-1 bytes of its stdout (and of
 * its stderr too when with_stderr; else stderr is inherited) into out
 * (NUL-terminated, trailing blanks removed). Returns the program's exit
 * code, 128 + signal when a signal ended it, or -1 when it could not be
 * started (after printing the reason). */
int sweep_capture(char *const argv[], int with_stderr, char *out, size_t cap);

/* sweep_limit_threads: with more than one case process running at once
 * and OMP_NUM_THREADS not set by the user, set OMP_NUM_THREADS=1 in this
 * process's environment, which the case processes started afterwards
 * inherit: concurrent cases then do not oversubscribe the cores with
 * OpenMP threads (a user's own OMP_NUM_THREADS is kept). */
void sweep_limit_threads(size_t concurrent);

#endif

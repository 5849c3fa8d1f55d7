/* src/cli/sweep_slurm.c: the Slurm job array of a sweep: the sbatch script (array, requeue, USR1 before the limit) and its submission */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/atomic_file.h"
#include "cli/cli.h"
#include "cli/sweep_proc.h"
#include "cli/sweep_run.h"

/* A path #SBATCH lines and the exec line can carry: no blanks, quotes,
 * backslashes, '%' (a Slurm file-name pattern) or control characters. */
static int plain_path(const char *what, const char *path)
{
  for (const char *p = path; *p; p++) {
    if ((unsigned char)*p <= ' ' || strchr("\"'\\%$`", *p)) {
      fprintf(stderr,
              "stiffkit: error: the %s '%s' holds a blank or a character ('%c') that "
              "#SBATCH lines cannot carry: run the sweep from, and into, plain paths\n",
              what, path, *p);
      return 0;
    }
  }
  return 1;
}

/* "0-7" or "0-3,5,7-9": the sorted indices todo[0..n) as ranges. */
static void array_spec(FILE *f, const size_t *todo, size_t n)
{
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j + 1 < n && todo[j + 1] == todo[j] + 1) {
      j++;
    }
    fprintf(f, i ? ",%zu" : "%zu", todo[i]);
    if (j > i) {
      fprintf(f, "-%zu", todo[j]);
    }
    i = j + 1;
  }
}

int sweep_slurm_write(const char *absdir, const sweep_manifest *m, const size_t *todo,
                      size_t ntodo, const char *exe)
{
  if (!plain_path("working directory", m->workdir) || !plain_path("sweep directory", absdir) ||
      !plain_path("stiffkit binary", exe)) {
    return SK_EXIT_DATA;
  }
  char path[SWEEP_PATH];
  snprintf(path, sizeof path, "%s/sweep.sbatch", absdir);
  cli_atomic_file af;
  int code = cli_atomic_open(&af, path);
  if (code != 0) {
    return code;
  }
  FILE *f = af.f;
  const sweep_slurm *o = &m->slurm;
  const char *base = strrchr(absdir, '/');
  fprintf(
      f,
      "#!/bin/bash\n"
      "# %s: Slurm job array of the sweep %s, %zu of %zu cases\n"
      "# (written by `stiffkit sweep --slurm`). Array task I runs case I. A task near its time\n"
      "# limit gets SIGUSR1, checkpoints, requeues itself and continues in its next "
      "allocation.\n",
      path, m->source, ntodo, m->cases.ncases);
  fprintf(f, "#SBATCH --job-name=sweep-%s\n#SBATCH --array=", base ? base + 1 : absdir);
  array_spec(f, todo, ntodo);
  if (o->max_parallel > 0) {
    fprintf(f, "%%%lld", (long long)o->max_parallel);
  }
  fprintf(f, "\n#SBATCH --chdir=%s\n#SBATCH --output=%s/cases/%%%da/slurm.out\n", m->workdir,
          absdir, m->id_width);
  fprintf(f, "#SBATCH --open-mode=append\n");
  if (o->requeue) {
    fprintf(f, "#SBATCH --requeue\n");
  }
  fprintf(f, "#SBATCH --signal=%sUSR1@%lld\n",
          o->ntasks > 1 ? "" : "B:", (long long)o->signal_seconds);
  fprintf(f, "#SBATCH --ntasks=%lld\n", (long long)o->ntasks);
  if (o->cpus_per_task > 0) {
    fprintf(f, "#SBATCH --cpus-per-task=%lld\n", (long long)o->cpus_per_task);
  }
  const char *names[] = {"partition", "account", "time", "mem"};
  const char *values[] = {o->partition, o->account, o->time, o->mem};
  for (int k = 0; k < 4; k++) {
    if (values[k][0]) {
      if (!plain_path(names[k], values[k])) {
        cli_atomic_abort(&af);
        return SK_EXIT_DATA;
      }
      fprintf(f, "#SBATCH --%s=%s\n", names[k], values[k]);
    }
  }
  fprintf(f,
          "\n# the case runner replaces this shell, so that it receives SIGUSR1%s\n"
          "exec %s sweep --case \"$SLURM_ARRAY_TASK_ID\" %s\n",
          o->ntasks > 1 ? " (with ntasks > 1 the signal goes to the srun-launched ranks)" : "",
          exe, absdir);
  code = cli_atomic_commit(&af);
  if (code == 0) {
    printf("wrote %s (%zu array tasks)\n", path, ntodo);
  }
  return code;
}

int sweep_slurm_sbatch(char *out, size_t cap)
{
  if (sweep_find_program("sbatch", out, cap)) {
    return 0;
  }
  fprintf(stderr, "stiffkit: error: sbatch not found in PATH: install slurm-client or run the "
                  "sweep locally (without --slurm)\n");
  return SK_EXIT_UNAVAILABLE;
}

int sweep_slurm_submit(const char *sbatch, const char *absdir)
{
  char script[SWEEP_PATH], prog[PATH_MAX], parsable[] = "--parsable", out[256];
  snprintf(script, sizeof script, "%s/sweep.sbatch", absdir);
  snprintf(prog, sizeof prog, "%s", sbatch);
  char *argv[] = {prog, parsable, script, NULL};
  const int code = sweep_capture(argv, 0, out, sizeof out);
  if (code != 0) {
    fprintf(stderr, "stiffkit: error: sbatch %s failed (exit %d)\n", script, code);
    return SK_EXIT_UNAVAILABLE;
  }
  printf("submitted Slurm job array %s (%s)\n", out, script);
  return SK_EXIT_OK;
}

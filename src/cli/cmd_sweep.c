/* src/cli/cmd_sweep.c: `stiffkit sweep`: a sweep file expanded into case directories, run by a local pool or a Slurm job array */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/sweep_proc.h"
#include "cli/sweep_run.h"

static const char help_text[] =
    "usage: stiffkit sweep SWEEP.yaml [--dir DIR] [-j N] [--only-failed] [--overwrite] [--list]\n"
    "                      [--slurm [--submit] [--partition P] [--account A] [--time T]\n"
    "                               [--mem M] [--max-parallel K]]\n"
    "       stiffkit sweep --case INDEX DIR [--quiet]\n"
    "Expands SWEEP.yaml (format: data/sweeps/README.md) into DIR/cases/<id>/config.yaml, one\n"
    "resolved config per case, and runs the cases that are not complete: locally with N case\n"
    "runners at once (default: the online CPUs), or as a Slurm job array (--slurm writes\n"
    "DIR/sweep.sbatch, --submit also runs sbatch on it). DIR is `output:` of the sweep file\n"
    "unless --dir is given; the cases always run in the directory the sweep was first run\n"
    "from. --only-failed reruns only the failed and interrupted cases (a case left `running`\n"
    "by a runner that was killed counts as interrupted); --list prints the cases and writes\n"
    "nothing; --overwrite replaces a different sweep in DIR.\n"
    "--case runs one case (what the pool and the job array run). Gather the results with\n"
    "`stiffkit collect DIR`.\n"
    "exit codes: 0 every case ok (or the script written/submitted), 10 some case failed,\n"
    "            64 usage, 65 bad sweep file or DIR holds another sweep, 66 missing input,\n"
    "            69 sbatch not found, 70 a case runner could not be started,\n"
    "            73 cannot create, 75 interrupted\n";

typedef struct {
  const char *file, *dir;
  const char *case_index, *case_dir;
  long jobs;
  int only_failed, overwrite, list, slurm, submit, quiet;
  const char *slurm_text[4]; /* --partition --account --time --mem */
  const char *max_parallel;
} sweep_args;

static const char *const text_flags[] = {"--partition", "--account", "--time", "--mem"};

/* The value of a flag given as "--flag value" or "--flag=value" (NULL: not this flag). */
static const char *flag_value(int argc, char **argv, int *i, const char *flag, int *missing)
{
  const size_t n = strlen(flag);
  if (strncmp(argv[*i], flag, n) != 0) {
    return NULL;
  }
  if (argv[*i][n] == '=') {
    return argv[*i] + n + 1;
  }
  if (argv[*i][n] != '\0') {
    return NULL;
  }
  if (*i + 1 >= argc) {
    *missing = 1;
    return NULL;
  }
  return argv[++*i];
}

static int parse_long(const char *text, long min, long *v)
{
  char *end = NULL;
  errno = 0;
  const long k = text ? strtol(text, &end, 10) : 0;
  if (!text || end == text || *end != '\0' || errno == ERANGE || k < min) {
    return -1;
  }
  *v = k;
  return 0;
}

static int usage_error(const char *fmt, const char *arg)
{
  fprintf(stderr, "stiffkit: error: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, " (see stiffkit sweep --help)\n");
  return SK_EXIT_USAGE;
}

/* Returns 0, -1 after --help, or 64. */
static int parse_args(int argc, char **argv, sweep_args *a)
{
  memset(a, 0, sizeof *a);
  a->jobs = sysconf(_SC_NPROCESSORS_ONLN);
  a->jobs = a->jobs > 0 ? a->jobs : 1;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i], *v;
    int missing = 0, matched = 0;
    if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
      fputs(help_text, stdout);
      return -1;
    }
    if ((v = flag_value(argc, argv, &i, "--dir", &missing))) {
      a->dir = v;
    } else if ((v = flag_value(argc, argv, &i, "--case", &missing))) {
      a->case_index = v;
    } else if ((v = flag_value(argc, argv, &i, "--jobs", &missing)) ||
               (!missing && (v = flag_value(argc, argv, &i, "-j", &missing))) ||
               (!strncmp(arg, "-j", 2) && arg[2] && (v = arg + 2))) {
      if (parse_long(v, 1, &a->jobs) != 0) {
        return usage_error("-j expects a positive number of case runners, got '%s'", v);
      }
    } else if ((v = flag_value(argc, argv, &i, "--max-parallel", &missing))) {
      a->max_parallel = v;
    } else {
      for (int k = 0; k < 4 && !matched && !missing; k++) {
        if ((v = flag_value(argc, argv, &i, text_flags[k], &missing))) {
          a->slurm_text[k] = v;
          matched = 1;
        }
      }
      int *bools[] = {&a->only_failed, &a->overwrite, &a->list, &a->slurm,
                      &a->submit,      &a->quiet,     &a->quiet};
      const char *names[] = {"--only-failed", "--overwrite", "--list", "--slurm",
                             "--submit",      "--quiet",     "-q"};
      for (int k = 0; k < 7 && !matched && !missing; k++) {
        if (!strcmp(arg, names[k])) {
          *bools[k] = matched = 1;
        }
      }
      if (!matched && !missing) {
        if (arg[0] == '-' && arg[1]) {
          return usage_error("unknown option '%s'", arg);
        }
        if (a->file) {
          return usage_error("more than one sweep file or directory given ('%s')", arg);
        }
        a->file = arg;
      }
    }
    if (missing) {
      return usage_error("%s needs a value", arg);
    }
  }
  if (a->case_index) {
    a->case_dir = a->file;
    a->file = NULL;
    if (!a->case_dir) {
      return usage_error("%s", "--case INDEX needs the sweep directory: --case INDEX DIR");
    }
    return 0;
  }
  if (!a->file) {
    return usage_error("%s", "no sweep file given");
  }
  a->slurm |= a->submit;
  return 0;
}

/* Slurm settings given on the command line replace the sweep file's. */
static int apply_slurm_flags(const sweep_args *a, sweep_slurm *o)
{
  char *dst[] = {o->partition, o->account, o->time, o->mem};
  for (int k = 0; k < 4; k++) {
    if (a->slurm_text[k]) {
      if (strlen(a->slurm_text[k]) >= SWEEP_TEXT) {
        return usage_error("%s is too long", text_flags[k]);
      }
      snprintf(dst[k], SWEEP_TEXT, "%s", a->slurm_text[k]);
    }
  }
  long k;
  if (a->max_parallel) {
    if (parse_long(a->max_parallel, 0, &k) != 0) {
      return usage_error("--max-parallel expects a number >= 0, got '%s'", a->max_parallel);
    }
    o->max_parallel = k;
  }
  return 0;
}

static int list_cases(const sweep_cases *c, int width)
{
  printf("%-*s", width + 2, "id");
  for (size_t j = 0; j < c->nkeys; j++) {
    printf("  %s", c->keys[j]);
  }
  printf("\n");
  for (size_t i = 0; i < c->ncases; i++) {
    printf("%0*zu  ", width, i);
    for (size_t j = 0; j < c->nkeys; j++) {
      printf("  %s", c->values[i * c->nkeys + j]);
    }
    printf("\n");
  }
  return fflush(stdout) == 0 && !ferror(stdout) ? SK_EXIT_OK : SK_EXIT_IOERR;
}

/* The cases to run: not complete, or (only_failed) failed or interrupted.
 * A `running` case whose runner is gone counts as interrupted
 * (sweep_status_settle); one whose runner is alive, or cannot be checked
 * from here, is left alone (*running counts them) with a note saying so. */
static size_t select_cases(const char *dir, int width, size_t n, int only_failed, size_t *todo,
                           size_t *complete, size_t *running)
{
  size_t k = 0;
  *complete = *running = 0;
  for (size_t i = 0; i < n; i++) {
    sweep_status s;
    sweep_status_read(dir, width, i, &s);
    const int alive = sweep_status_settle(&s);
    const int ok = !strcmp(s.status, "ok");
    *complete += ok;
    if (alive != 0) {
      (*running)++;
      fprintf(stderr, "stiffkit: case %0*zu is running%s (its runner: pid %lld on %s%s%s)%s\n",
              width, i, alive > 0 ? "" : " as far as can be told from here", s.pid, s.host,
              s.slurm_job[0] ? ", Slurm job " : "", s.slurm_job,
              alive > 0
                  ? ": left alone"
                  : ": left alone; if that runner is gone, remove its status.json to rerun it");
    } else if (only_failed ? !strcmp(s.status, "failed") || !strcmp(s.status, "interrupted") ||
                                 !strcmp(s.status, "unreadable")
                           : !ok) {
      todo[k++] = i;
    }
  }
  return k;
}

/* Run (or write the job array for) the selected cases. */
static int dispatch(const sweep_args *a, const sweep_manifest *m, const char *dir,
                    const char *sbatch)
{
  size_t *todo = calloc(m->cases.ncases ? m->cases.ncases : 1, sizeof *todo);
  if (!todo) {
    fprintf(stderr, "stiffkit: error: out of memory\n");
    return SK_EXIT_INTERNAL;
  }
  size_t complete, running;
  const size_t ntodo =
      select_cases(dir, m->id_width, m->cases.ncases, a->only_failed, todo, &complete, &running);
  char busy[64] = "";
  if (running) {
    snprintf(busy, sizeof busy, ", %zu running (left alone)", running);
  }
  printf("sweep %s: %zu cases in %s, %zu complete%s%s; %zu to run%s\n", a->file, m->cases.ncases,
         dir, complete, complete ? " (skipped)" : "", busy, ntodo,
         a->only_failed ? " (failed or interrupted)" : "");
  int code = SK_EXIT_OK;
  if (ntodo == 0) {
    printf("nothing to run%s\n",
           a->only_failed ? ": no case failed" : ": every case is complete");
  } else if (a->slurm) {
    char absdir[PATH_MAX], exe[PATH_MAX];
    if (sweep_absolute(dir, absdir, sizeof absdir) != 0) {
      code = SK_EXIT_INTERNAL;
    } else if (sweep_self_exe(exe, sizeof exe) != 0) {
      code = SK_EXIT_INTERNAL;
    } else {
      code = sweep_slurm_write(absdir, m, todo, ntodo, exe);
    }
    if (code == 0 && a->submit) {
      code = sweep_slurm_submit(sbatch, absdir);
    }
  } else {
    fflush(stdout);
    code =
        sweep_pool_run(dir, m, todo, ntodo, (int)(a->jobs < (long)ntodo ? a->jobs : (long)ntodo));
  }
  free(todo);
  return code;
}

/* Make the directory ready, write the manifest and the missing configs, run. The manifest
 * records the absolute sweep directory and the working directory the cases run in: the
 * current one, or for a sweep resumed from elsewhere the one it was first run in. */
static int prepare_and_run(sk_context *ctx, const sweep_args *a, const sweep_spec *s,
                           const sweep_cases *c, const char *dir, const char *absdir, int width,
                           char **prefixes, const sweep_spool *spool, const char *sbatch)
{
  char hash[32], cwd[PATH_MAX], workdir[PATH_MAX];
  int resumed = 0;
  const sk_status st = sweep_definition_hash(ctx, s, c, hash);
  int code = st != SK_OK ? cli_report(ctx, st) : 0;
  if (code == 0 && !getcwd(cwd, sizeof cwd)) {
    fprintf(stderr, "stiffkit: error: cannot tell the working directory: %s\n", strerror(errno));
    code = SK_EXIT_INTERNAL;
  }
  if (code == 0) {
    code = sweep_dir_prepare(ctx, dir, hash, a->overwrite, &resumed, workdir, sizeof workdir);
  }
  if (code == 0 && a->only_failed && !resumed) {
    fprintf(stderr, "stiffkit: error: --only-failed: '%s' holds no earlier run of this sweep\n",
            dir);
    code = SK_EXIT_NOINPUT;
  }
  if (code == 0 && resumed && strcmp(workdir, cwd) != 0) {
    printf("the cases run in %s, where the sweep was first run (relative output and checkpoint "
           "paths in its configs are relative to it)\n",
           workdir);
  }
  /* the manifest borrows the spec's and the cases' data */
  sweep_manifest m = {hash,           (char *)s->path, resumed ? workdir : cwd,
                      (char *)absdir, width,           *c,
                      prefixes,       s->collect,      s->slurm};
  if (code == 0) {
    code = sweep_manifest_write(dir, &m);
  }
  if (code == 0) {
    code = sweep_write_configs(spool, dir, width);
  }
  if (code == 0) {
    code = dispatch(a, &m, dir, sbatch);
  }
  return code;
}

/* Expand, check, write the directory, run. */
static int run_sweep(sk_context *ctx, const sweep_args *a, const char *sbatch)
{
  sweep_spec s;
  sk_status st = sweep_spec_load(ctx, a->file, &s);
  const char *dir = a->dir ? a->dir : s.output;
  int code = st != SK_OK ? cli_report(ctx, st) : apply_slurm_flags(a, &s.slurm);
  if (code == 0 && !dir) {
    code = usage_error("%s: no sweep directory: give output: in the sweep file or --dir DIR",
                       a->file);
  }
  char absdir[PATH_MAX];
  if (code == 0 && sweep_absolute(dir, absdir, sizeof absdir) != 0) {
    code = SK_EXIT_USAGE;
  }
  cli_job job;
  cli_job_init(&job);
  sweep_cases c;
  memset(&c, 0, sizeof c);
  if (code == 0) {
    st = sweep_config_job(ctx, &s, &job);
    if (st == SK_OK) {
      st = sweep_expand(ctx, &s, job.opts, &c);
    }
    code = st != SK_OK ? cli_report(ctx, st) : 0;
  }
  cli_job_free(&job);
  const int width = sweep_id_width(c.ncases);
  char **prefixes = NULL;
  sweep_spool spool = {NULL, NULL, 0};
  if (code == 0) {
    code = sweep_resolve_configs(ctx, &s, &c, absdir, width, !a->list, &spool, &prefixes);
  }
  if (code == 0 && a->list) {
    code = list_cases(&c, width);
  } else if (code == 0) {
    code = prepare_and_run(ctx, a, &s, &c, dir, absdir, width, prefixes, &spool, sbatch);
  }
  sweep_spool_free(&spool);
  sweep_strings_free(prefixes, c.ncases);
  sweep_cases_free(&c);
  sweep_spec_free(&s);
  return code;
}

int cli_sweep(int argc, char **argv)
{
  sweep_args a;
  int code = parse_args(argc, argv, &a);
  if (code != 0) {
    return code < 0 ? SK_EXIT_OK : code;
  }
  if (a.case_index) {
    long index;
    if (parse_long(a.case_index, 0, &index) != 0) {
      return usage_error("--case expects a case index (0, 1, ...), got '%s'", a.case_index);
    }
    return sweep_case_run(a.case_dir, (size_t)index, a.quiet);
  }
  char sbatch[PATH_MAX] = "";
  if (a.submit && (code = sweep_slurm_sbatch(sbatch, sizeof sbatch)) != 0) {
    return code; /* before anything is written */
  }
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK) {
    fprintf(stderr, "stiffkit: error: cannot create a context\n");
    return SK_EXIT_INTERNAL;
  }
  sk_context_set_log(ctx, a.quiet ? SK_LOG_ERROR : SK_LOG_WARN, sk_log_to_stream, stderr);
  code = run_sweep(ctx, &a, sbatch);
  sk_context_destroy(&ctx);
  if (code == 0 && (fflush(stdout) != 0 || ferror(stdout))) {
    fprintf(stderr, "stiffkit: error: writing to standard output failed: %s\n", strerror(errno));
    code = SK_EXIT_IOERR;
  }
  return code;
}

/* src/cli/sweep_dir.h: the sweep directory: manifest (sweep.yaml), case paths and ids, case status files, the definition hash */
#ifndef SK_CLI_SWEEP_DIR_H
#define SK_CLI_SWEEP_DIR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/job.h"
#include "cli/sweep.h"

#define SWEEP_MANIFEST "sweep.yaml"
#define SWEEP_FORMAT "stiffkit-sweep/1"
#define SWEEP_PATH 4096

/* The manifest DIR/sweep.yaml: what the case runner and `stiffkit collect`
 * need to know of a sweep. */
typedef struct {
  char *hash;        /* "fnv1a64:<16 hex digits>" of the definition (sweep_definition_hash) */
  char *source;      /* the sweep file, as given */
  char *workdir;     /* absolute: where `stiffkit sweep` first ran; every case runs there */
  char *dir;         /* the sweep directory: absolute (older manifests: relative to workdir) */
  int id_width;      /* digits of the case ids */
  sweep_cases cases; /* keys and value texts (no origins) */
  char **prefixes;   /* per case: the output.prefix of its results */
  sweep_collect collect;
  sweep_slurm slurm;
} sweep_manifest;

/* sweep_manifest_read: read DIR/sweep.yaml. Errors, recorded in ctx:
 * SK_ERR_MISSING (no manifest: "'DIR' holds no sweep (no DIR/sweep.yaml)"),
 * SK_ERR_INPUT (not a manifest of this format, located), SK_ERR_NOMEM.
 * Free with sweep_manifest_free (also after an error). */
sk_status sweep_manifest_read(sk_context *ctx, const char *dir, sweep_manifest *m);

/* sweep_manifest_write: write m to DIR/sweep.yaml (temporary name, then
 * rename). Returns 0, or 70/73/74 after printing the reason. */
int sweep_manifest_write(const char *dir, const sweep_manifest *m);

/* sweep_manifest_free: release what the manifest holds. */
void sweep_manifest_free(sweep_manifest *m);

/* sweep_id_width: digits of the case ids of a sweep of n cases: at least 4. */
int sweep_id_width(size_t n);

/* sweep_case_path: "DIR/cases/<id>" (file NULL) or "DIR/cases/<id>/<file>",
 * the id being the index zero-padded to `width` digits. Returns 0, or -1
 * when it does not fit in cap. */
int sweep_case_path(char *buf, size_t cap, const char *dir, int width, size_t index,
                    const char *file);

/* sweep_definition_hash: "fnv1a64:<hex>" into out[32]: the hash of what
 * defines the cases: the base config's bytes (or "embedded"), every `set`
 * entry, the keys and every case's values. Slurm, collect and output
 * settings are not part of it. Errors: SK_ERR_MISSING (the base config
 * cannot be read), recorded in ctx. */
sk_status sweep_definition_hash(sk_context *ctx, const sweep_spec *s, const sweep_cases *c,
                                char out[32]);

/* The status of one case (DIR/cases/<id>/status.json). */
typedef struct {
  char status[16];     /* ok, failed, interrupted, running; "missing" when there is no file */
  int exit_code;       /* of `stiffkit run` (-1 while running or missing) */
  double wall_time;    /* seconds, summed over attempts */
  int64_t attempts;    /* times the case was started */
  char error[1024];    /* the last "stiffkit: error:" line of the attempt (without the prefix) */
  double checkpoint_t; /* the time its checkpoint held after the last attempt that reported
                        * one (`stiffkit run` on exit 75: "... holds t=<time>"); NaN: none */
  char requeue[256];   /* under Slurm, why an interrupted attempt was or was not requeued */
  /* the case runner of the last attempt, which tells a stale `running` (sweep_status_settle) */
  long long pid; /* 0: unknown */
  unsigned long long
      started;        /* its start time (clock ticks after boot, /proc/PID/stat), 0: unknown */
  char host[256];     /* gethostname */
  char slurm_job[64]; /* "<array job>_<task>" or the job id under Slurm, "" otherwise */
} sweep_status;

/* sweep_status_read: the status of case `index` (status "missing", exit
 * code -1, attempts 0 when it has no status file, or "unreadable" with the
 * reason in error when the file is damaged). */
void sweep_status_read(const char *dir, int width, size_t index, sweep_status *s);

/* sweep_status_write: write s as DIR/cases/<id>/status.json (temporary
 * name, fsync, rename). Returns 0, or 73/74 after printing the reason. */
int sweep_status_write(const char *dir, int width, size_t index, const sweep_status *s);

/* sweep_status_set_runner: record the calling process as the case's
 * runner: its pid, start time, host name and Slurm job (SLURM_ARRAY_JOB_ID
 * and SLURM_ARRAY_TASK_ID as "<job>_<task>", else SLURM_JOB_ID). */
void sweep_status_set_runner(sweep_status *s);

/* sweep_runner_alive: whether the runner recorded in s still runs:
 * 1 yes, 0 no, -1 cannot tell from here. On the runner's host: its pid
 * exists with the recorded start time (a reused pid has another). Else,
 * for a Slurm job: the job of this process (a requeued task continuing)
 * is gone; otherwise `squeue -h -j JOB -o %T` tells (pending, running,
 * suspended, requeued, completing: alive; any other state, no line, or
 * "Invalid job id": gone; no squeue or another failure: -1). Otherwise, on
 * another host: -1. */
int sweep_runner_alive(const sweep_status *s);

/* sweep_status_settle: a `running` status whose runner is gone (killed:
 * SIGKILL, out of memory, a time limit) becomes "interrupted", with an
 * error saying so (the case continues from its checkpoint when rerun).
 * Returns 1 when s stays `running` with its runner alive, -1 when it stays
 * `running` because that cannot be told here, 0 otherwise. */
int sweep_status_settle(sweep_status *s);

/* sweep_config_job: the options of the sweep's base: the options database
 * (cli_job_options), the base config (or the embedded default job), then
 * the sweep's `set` entries with their origins in the sweep file.
 * Errors: those of cli_job_load and sk_options_set. */
sk_status sweep_config_job(sk_context *ctx, const sweep_spec *s, cli_job *job);

/* sweep_config_text: the resolved config of case `index` (base, `set`, the
 * case's values, output.dir = out_dir, absolute so that the config does
 * not depend on the working directory) as YAML that `stiffkit run` loads:
 * every key set by those sources as "key: value", every other key as the
 * comment "# key: <default>" (so that a model's own defaults, e.g. a
 * library problem's end time, still apply). A model plugin with parameters
 * is loaded (and its model built, then dropped) to declare them. *text and
 * *prefix (the case's output.prefix) are malloc'ed. Errors: a bad value
 * (located at the sweep file or CSV position), those of
 * sk_plugin_model_from_options, SK_ERR_UNSUPPORTED for keys of a
 * boundary-value problem, SK_ERR_NOMEM. */
sk_status sweep_config_text(sk_context *ctx, const sweep_spec *s, const sweep_cases *c,
                            size_t index, const char *out_dir, char **text, char **prefix);

/* sweep_dir_prepare: make DIR ready for the sweep of definition `hash`:
 * create it (and its parents) when missing; a directory holding the same
 * sweep is reused (*resumed = 1: complete cases are kept, and workdir gets
 * the manifest's working directory, where its cases keep running); one
 * holding a different sweep, or other files and no manifest, is refused
 * unless `overwrite`, which removes the former sweep's manifest, cases,
 * script and collected tables. Returns 0, 65 (refused) or 73, after
 * printing the reason. */
int sweep_dir_prepare(sk_context *ctx, const char *dir, const char *hash, int overwrite,
                      int *resumed, char *workdir, size_t cap);

/* The resolved configs of a sweep's cases, computed once (sweep_config_text)
 * and kept in an unnamed temporary file (a few kilobytes a case, not held
 * in memory) until sweep_write_configs writes the missing ones. */
typedef struct {
  FILE *file; /* NULL: texts checked, not kept (--list) */
  long *end;  /* ncases + 1 offsets: case i is bytes [end[i], end[i + 1]) */
  size_t ncases;
} sweep_spool;

/* sweep_resolve_configs: the resolved config of every case, its output
 * directory ABSDIR/cases/<id> (absdir: the absolute sweep directory), so
 * that a bad value stops the sweep before anything is written; kept in
 * *spool unless keep is 0; *prefixes gets each case's output.prefix.
 * Returns 0, 64 (the directory name is too long), 65 (a value refused),
 * 70 or 74, after printing the reason. Free with sweep_spool_free and
 * sweep_strings_free (also after an error). */
int sweep_resolve_configs(sk_context *ctx, const sweep_spec *s, const sweep_cases *c,
                          const char *absdir, int width, int keep, sweep_spool *spool,
                          char ***prefixes);

/* sweep_spool_free: close the temporary file and release the offsets. */
void sweep_spool_free(sweep_spool *spool);

/* sweep_strings_free: free the n strings of v (NULL entries allowed) and v. */
void sweep_strings_free(char **v, size_t n);

/* sweep_write_configs: create DIR/cases/<id>/ and write the config.yaml of
 * every case that has none from the spool (a case's config, once written,
 * is kept: it may have been fixed by hand before --only-failed).
 * Returns 0, 73 or 74, after printing the reason. */
int sweep_write_configs(const sweep_spool *spool, const char *dir, int width);

#endif

/* src/cli/run_report.c: the report of a finished `stiffkit run`: summary, statistics files, stdout status */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/atomic_file.h"
#include "cli/json_out.h"
#include "cli/network_report.h"
#include "cli/run_report.h"

/* Write the statistics file (JSON object or CSV header + row) via a
 * temporary name and rename, so a failure never leaves a partial file. */
static sk_status write_stats_file(const char *path, int csv, const cli_job *job,
                                  const sk_stats *st)
{
  cli_atomic_file af;
  if (cli_atomic_open(&af, path) != 0) {
    return SK_ERR_CREATE;
  }
  FILE *f = af.f;
  const long long n = (long long)sk_model_get_n(job->model);
  char *buf = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&buf, &len);
  if (m) {
    if (csv) {
      sk_stats_print_csv(st, 1, m);
    } else {
      sk_stats_print_json(st, m);
    }
    fclose(m);
  }
  char *row = buf ? strchr(buf, '\n') : NULL;
  if (!row) {
    free(buf);
    cli_atomic_abort(&af);
    fprintf(stderr, "stiffkit: error: cannot format the statistics for '%s'\n", path);
    return SK_ERR_IO;
  }
  if (csv) {
    *row++ = '\0'; /* buf: the header, row: the values (ends in a newline) */
    fprintf(f, "n,method,linsol,max_err,rms_err,%s\n%lld,%s,%s,%.10e,%.10e,%s", buf, n,
            job->method, job->linsol, job->have_error ? job->max_err : NAN,
            job->have_error ? job->rms_err : NAN, row);
  } else {
    if (row[1] == '\0') {
      *row = '\0'; /* drop the printer's final newline inside the object */
    }
    fprintf(f, "{\"n\": %lld, \"method\": \"%s\", \"linsol\": \"%s\", \"stats\": %s", n,
            job->method, job->linsol, buf ? buf : "{}");
    if (job->have_error) {
      fprintf(f, ", \"max_err\": ");
      sk__json_number(f, job->max_err);
      fprintf(f, ", \"rms_err\": ");
      sk__json_number(f, job->rms_err);
    }
    fprintf(f, "}\n");
  }
  free(buf);
  return cli_atomic_commit(&af) == 0 ? SK_OK : SK_ERR_IO;
}

static void print_summary(const cli_job *job, const sk_stats *st, const double *y,
                          const char *extra, int with_stats)
{
  printf("stiffkit %s: model %s, n = %lld, solver %s, linear solver %s, preconditioner %s\n",
         SK_VERSION, sk_model_get_name(job->model), (long long)sk_model_get_n(job->model),
         job->method, job->linsol, job->prec);
  const char *why = job->stepper ? sk_stepper_get_linear_solver_reason(job->stepper) : "";
  if (why[0]) {
    printf("linear solver (linsol.type=auto): %s\n", why);
  }
  const char *prec = job->stepper ? sk_stepper_get_preconditioner_report(job->stepper) : "";
  if (prec[0]) {
    printf("preconditioner %s: %s\n", job->prec, prec);
  }
  if (extra) {
    fputs(extra, stdout);
  }
  const double t_last = job->times[job->ntimes - 1];
  printf("integrated t = %.6e -> %.6e, rtol %.1e, atol %.1e\n", job->t0, t_last, job->rtol,
         job->atol);
  const char *init = job->stepper ? sk_stepper_get_initial_correction(job->stepper) : "";
  if (init[0]) {
    printf("consistent initial values at t = %.6e: %s\n", job->t0, init);
  }
  double t_stop;
  if (job->stepper && sk_stepper_get_event_stop(job->stepper, &t_stop)) {
    printf("stopped by an event at t = %.9g (the model's action)\n", t_stop);
  }
  if (job->restart_done) {
    printf("continued from checkpoint %s at t = %.6e\n", job->restart_from, job->restart_t);
  }
  if (job->ckpt.written > 0) {
    printf("checkpoints written: %d (%s)\n", job->ckpt.written, job->ckpt.path);
  }
  if (with_stats) {
    printf("statistics:\n");
    sk_stats_print_table(st, stdout);
  }
  if (job->have_error) {
    printf("error against the exact solution at t = %.6e:\n", t_last);
    printf("  max |y - y_exact| = %.6e\n", job->max_err);
    printf("  rms (y - y_exact) = %.6e\n", job->rms_err);
    printf("  relative L2 error = %.6e\n", job->rel_l2_err);
  }
  cli_network_report(job->model, y, t_last, stdout);
  cli_network_events(job->model, job->stepper, stdout);
  cli_model_events(job->model, job->stepper, stdout);
  for (int i = 0; i < job->nfiles; i++) {
    printf("wrote %s\n", job->files[i]);
  }
}

/* Exit status of the writes to stdout (a full disk must not pass as success). */
int cli_stdout_status(void)
{
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "stiffkit: error: writing to standard output failed: %s\n", strerror(errno));
    return SK_EXIT_IOERR;
  }
  return SK_EXIT_OK;
}

int cli_run_report(const cli_job *job, const sk_stats *stats, const cli_args *args,
                   const double *y, const char *extra)
{
  if (!args->quiet) {
    print_summary(job, stats, y, extra, !args->no_stats);
  }
  sk_status st = SK_OK;
  if (args->stats_json) {
    st = write_stats_file(args->stats_json, 0, job, stats);
  }
  if (st == SK_OK && args->stats_csv) {
    st = write_stats_file(args->stats_csv, 1, job, stats);
  }
  const int code = cli_exit_code(st);
  return code == SK_EXIT_OK ? cli_stdout_status() : code;
}

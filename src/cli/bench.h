/* src/cli/bench.h: `stiffkit bench`: the study (methods, ladders, error measure, reference), its runs and its outputs */
#ifndef SK_CLI_BENCH_H
#define SK_CLI_BENCH_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/job.h"
#include "stiffkit/stiffkit.h"

#define BENCH_MAX_METHODS 32
#define BENCH_NAME_LEN 64

/* One method of the study: a stepper type run by stiffkit, or the results
 * an outside code wrote (external). */
typedef struct {
  char name[BENCH_NAME_LEN]; /* stepper type, or the external file's name without .csv */
  int external;
  int fixed;      /* a fixed-step ladder (h values) instead of an rtol ladder */
  double *ladder; /* rtol or h values, in the order run (malloc'ed) */
  size_t nladder;
  double atol_ratio; /* atol = atol_ratio rtol; 0: solver.atol */
  cli_job job;       /* this method's job: the config with its option overrides */
  int have_job;
} bench_method;

/* One point of the study (a method at one tolerance or step). */
typedef struct {
  int method;         /* index into the study's methods */
  double param, atol; /* rtol (or h for a fixed step, the tolerance of an external run) */
  int ok;
  char message[512]; /* why the point failed ("" when ok) */
  double wall_med, wall_min, wall_max;
  int repeats;
  int have_stats; /* counters known (stiffkit runs; an external run's rhs_evals only) */
  sk_stats stats;
  double err, scd; /* NAN for a failed point */
} bench_row;

/* The reference the errors are measured against. */
typedef struct {
  char kind[16]; /* computed, exact, file */
  char method[BENCH_NAME_LEN], check_method[BENCH_NAME_LEN];
  double rtol, atol;
  double d_tol;    /* measure of y(10 rtol) - y(rtol), same engine (NAN: not made) */
  double d_check;  /* measure of the check method at 10 rtol - y(rtol) (NAN: not made) */
  double accuracy; /* estimated error of the reference (0 exact, NAN unknown) */
  char note[600];  /* what was checked, or why a check could not be made */
  double wall;     /* seconds the reference solves took */
} bench_reference;

typedef struct {
  sk_context *ctx;
  cli_job base; /* the config as given: reference, output times, exact solution */
  const char *config;
  const char **sets;
  size_t nsets;
  /* settings (bench.*) */
  int64_t repeats;
  int rms;        /* error measure: 0 max, 1 RMS */
  int final_only; /* error at the last output time only */
  int64_t *comps; /* components measured (all when ncomp == n) */
  size_t ncomp;
  double target; /* bench.target_error (0: automatic) */
  int hdf5, plot;
  /* the times measured: indices into base.times */
  size_t *tidx;
  size_t nt;
  double *ref; /* nt x ncomp reference states */
  bench_reference reference;
  bench_method m[BENCH_MAX_METHODS];
  int nm;
  bench_row *rows;
  size_t nrows, cap;
  size_t planned, done; /* points in the study, points run (progress) */
  int quiet;
  int interrupted;
  volatile sig_atomic_t *stop_signal;
} bench_study;

/* bench_job_load: job gets the CLI's options (the bench keys among them,
 * cli/bench_keys.h), the config and --set assignments of b; with method !=
 * NULL, that stepper's bench.stepper.METHOD.options.* set as options (with
 * their origins) and solver.method = METHOD. Then the model is built and
 * the output times made (cli_job_build_model, cli_job_prepare_outputs).
 * Errors: those of the config, SK_ERR_INPUT naming file:line:col and the
 * key. */
sk_status bench_job_load(bench_study *b, cli_job *job, const char *method);

/* bench_study_configure: b->base loaded: read bench.* into b: the methods
 * (each a registered stepper type, plugins loaded; an unknown name is
 * SK_ERR_INPUT naming file:line:col and the registered types), their
 * ladders, the error measure, the measured times and components, the
 * external files (as methods, read later); then each method's job. */
sk_status bench_study_configure(bench_study *b);

/* bench_reference_make: b->ref and b->reference from bench.reference:
 * exact (the model's exact solution), file (bench.reference_file: a CSV
 * of t and the n states at the output times) or computed (CVODE for an
 * ODE, IDA for a DAE at bench.reference_rtol, checked by a second
 * tolerance and an independent method, its accuracy estimated). */
sk_status bench_reference_make(bench_study *b);

/* bench_run_all: every point of every stiffkit method (repeats, errors,
 * counters); a failed point is recorded and the study goes on; a stop
 * request ends it after the last complete point (b->interrupted). */
sk_status bench_run_all(bench_study *b);

/* bench_solve: one solve of `method` on job's model from its initial
 * state through job's output times (fixed: step param, else rtol param and
 * atol), the step budget solver.max_steps times `budget` (at least the
 * steps of a fixed step), stopping when a stop is requested
 * (SK_INTERRUPTED); the states at the measured times go to y (nt x
 * ncomp), the counters to st, the wall time of setup and integration to
 * *wall. Errors: those of the stepper, recorded in b->ctx. */
sk_status bench_solve(bench_study *b, cli_job *job, const char *method, int fixed, double param,
                      double atol, int64_t budget, double *y, sk_stats *st, double *wall);

/* bench_measure: the error measure (max or RMS over the measured times
 * and components) of states y (nt x ncomp) against the reference; *scd
 * gets -log10 of the max relative error (absolute where the reference is
 * 0; 16 when there is no error). */
double bench_measure(const bench_study *b, const double *y, double *scd);

/* bench_state_table: a CSV of states read for bench: the leading columns
 * (given names) of each row, its time, and n state values. */
typedef struct {
  size_t nrows, nlead;
  int64_t n;
  double *lead; /* nrows x nlead */
  double *t;    /* nrows */
  double *y;    /* nrows x n */
  int *line;    /* each row's line in the file */
} bench_state_table;

/* bench_state_table_read: read `path`, whose header is the nlead names
 * `lead` (in order; optional[k] != 0: that column may be left out, then its
 * value is NAN), then t, then n state columns. A row with another number of
 * fields, or a field that is not a number, is SK_ERR_INPUT naming
 * path:line (and column). Free with bench_state_table_free. */
sk_status bench_state_table_read(sk_context *ctx, const char *path, const char *const *lead,
                                 const int *optional, size_t nlead, int64_t n,
                                 bench_state_table *st);
void bench_state_table_free(bench_state_table *st);

/* bench_states_at_times: the states of rows [r0, r1) of st at the
 * measured times (components b->comps) into y (nt x ncomp). A time missing
 * is SK_ERR_INPUT naming path:line of row r0 and `what`. */
sk_status bench_states_at_times(const bench_study *b, const bench_state_table *st, size_t r0,
                                size_t r1, const char *path, const char *what, double *y);

/* bench_external_add: the external results of bench.external: one method
 * per file, one point per tolerance, measured against the reference. */
sk_status bench_external_add(bench_study *b);

/* bench_row_new: a new zeroed row (NULL: out of memory). */
bench_row *bench_row_new(bench_study *b);

/* bench_target: the target error (bench.target_error, else the smallest
 * error every method with a successful point reaches; NAN when none). */
double bench_target(const bench_study *b);

/* bench_best_at: the cheapest (median wall time) successful point of
 * method k with error <= target, NULL when none. */
const bench_row *bench_best_at(const bench_study *b, int k, double target);

/* bench_print_report: the side-by-side report on stdout. */
void bench_print_report(const bench_study *b);

/* bench_write_outputs: PREFIX.bench.csv and .json (and .h5 with
 * bench.hdf5), written under temporary names and renamed, then the PNG
 * (scripts/plot_results.py --bench; a note and no PNG without python3 or
 * matplotlib), then the provenance sidecar PREFIX.bench.provenance.yaml
 * last. Returns 0 or an exit code after printing the reason. */
int bench_write_outputs(bench_study *b, const char *prefix, int argc, char **argv);

/* bench_study_free: release everything b holds. */
void bench_study_free(bench_study *b);

#endif

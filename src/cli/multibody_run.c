/* src/cli/multibody_run.c: `stiffkit run` on a multibody model: load and assemble the mechanism, simulate with the chosen formulation, write positions, monitor (drift, energy balance, cond(G)) and reaction forces, print the report */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/json_out.h"
#include "cli/multibody_cli.h"
#include "core/error.h"
#include "core/stop.h"
#include "cli/output_keys.h"
#include "stiffkit/provenance.h"
#include "stiffkit/results.h"
#include "steppers/stepper_keys.h"

/* The monitor series' columns. */
static const char *const monitor_cols[] = {"phi_max", "dphi_max", "energy",
                                           "work",    "balance",  "cond_G"};
#define NMON (sizeof monitor_cols / sizeof monitor_cols[0])

sk_status cli_multibody_setup(sk_context *ctx, cli_job *job, cli_multibody *cm)
{
  const sk_options *o = job->opts;
  const char *file;
  double tol;
  int fix;
  SK_CALL(ctx, sk_multibody_start_from_options(ctx, o, &file, &tol, &fix));
  SK_CALL_STOP(ctx, sk_multibody_load(ctx, file, &cm->mech));
  cm->file = file;
  SK_CALL(ctx, cli_job_output_times(ctx, job));
  sk__stepper_settings solver;
  uint64_t given;
  SK_CALL(ctx, sk__stepper_settings_read(o, &solver, &given));
  cm->rtol = solver.rtol;
  cm->atol = solver.atol;
  const int n = sk_multibody_ncoords(cm->mech), m = sk_multibody_nconstraints(cm->mech);
  cm->q0 = calloc((size_t)(2 * n + m + 1), sizeof *cm->q0);
  SK_CHECK(ctx, cm->q0 != NULL, SK_ERR_NOMEM, "cannot allocate the initial state");
  cm->v0 = cm->q0 + n;
  cm->lam = cm->v0 + n;
  sk_multibody_initial(cm->mech, cm->q0, cm->v0);
  SK_CALL(ctx, sk_multibody_assemble(cm->mech, job->t0, cm->q0, cm->v0, tol, fix, &cm->init));
  return SK_OK;
}

void cli_multibody_free(cli_multibody *cm)
{
  sk_multibody_destroy(&cm->mech);
  free(cm->q0);
  memset(cm, 0, sizeof *cm);
}

const char *cli_multibody_method(const sk_options *o, const sk_multibody_settings *s)
{
  sk__stepper_settings solver;
  uint64_t given;
  if (sk__stepper_settings_read(o, &solver, &given) == SK_OK &&
      SK__STEPPER_GIVEN(given, method)) {
    return solver.method;
  }
  return s->formulation == SK_MULTIBODY_GGL ? "ida-bdf" : "cvode-bdf";
}

void cli_multibody_print_init(const cli_multibody *cm, FILE *out)
{
  const sk_multibody_init_report *r = &cm->init;
  fprintf(out,
          "initial state: max |Phi| %.3e -> %.3e (largest in %s), max |G v + Phi_t| %.3e -> "
          "%.3e; positions moved by %.3e, velocities by %.3e (%d Newton iterations)\n",
          r->phi_before, r->phi_after, r->worst_row[0] ? r->worst_row : "-", r->dphi_before,
          r->dphi_after, r->dq, r->dv, r->newton_iters);
}

/* ---- the run ---------------------------------------------------------------------- */

typedef struct {
  sk_context *ctx;
  cli_job *job; /* holds the results and the sensitivity series */
  cli_multibody *cm;
  int mon, reac;
  int64_t *probes;      /* 0 .. n-1: every coordinate (the sensitivity series' columns) */
  char sens_prov[4096]; /* the provenance's sensitivity list */
  sk_status st;
} run_out;

static sk_status open_results(sk_context *ctx, cli_job *job, cli_multibody *cm, run_out *o,
                              const sk_multibody_sample *sm);

/* One output; the first (at t0) opens the result files, once the engine is set up: a refused
 * engine or sensitivity parameter leaves no file. */
static int write_output(double t, const double *q, const double *v, const double *lambda,
                        const sk_multibody_sample *sm, void *data)
{
  (void)v;
  run_out *o = data;
  cli_job *job = o->job;
  const int n = sk_multibody_ncoords(o->cm->mech), m = sk_multibody_nconstraints(o->cm->mech);
  const double row[NMON] = {sm->phi_max, sm->dphi_max, sm->energy,
                            sm->work,    sm->balance,  sm->cond};
  sk_status st = job->results ? SK_OK : open_results(o->ctx, job, o->cm, o, sm);
  if (st == SK_OK) {
    st = sk_results_write(job->results, t, q, NULL);
  }
  if (st == SK_OK) {
    st = sk_results_write_series(job->results, o->mon, t, row);
  }
  if (st == SK_OK && m > 0) {
    st = sk_results_write_series(job->results, o->reac, t, lambda);
  }
  if (st == SK_OK) { /* dq/dp_j: the first n of every 2n */
    st = cli_sens_series_write_vectors(job->results, &job->sens, o->probes, (size_t)n, sm->nsens,
                                       sm->sens, 2 * (size_t)n, t);
  }
  o->st = st;
  return st != SK_OK;
}

/* The sensitivity series (dq/dp of every coordinate, /sensitivity/<parameter> in the HDF5 file)
 * and the provenance's parameter list, when the simulation computes sensitivities. */
static sk_status open_sensitivities(sk_context *ctx, cli_job *job, cli_multibody *cm, run_out *o,
                                    const char *const *coord_names, int hdf5,
                                    const sk_multibody_sample *sm)
{
  const int n = sk_multibody_ncoords(cm->mech);
  job->sens.id = -1;
  if (sm->nsens == 0) {
    return SK_OK;
  }
  char(*pn)[80] = calloc((size_t)sm->nsens, sizeof *pn);
  const char **pp = calloc((size_t)sm->nsens, sizeof *pp);
  sk_status st = pn && pp ? SK_OK : SK_ERROR(ctx, SK_ERR_NOMEM, "out of memory");
  for (int j = 0; st == SK_OK && j < sm->nsens; j++) {
    st = sk_multibody_param_name(cm->mech, sm->sens_param[j], pn[j], sizeof pn[j]);
    pp[j] = pn[j];
    cli_sens_provenance_entry(j, pn[j], sk_multibody_get_param(cm->mech, sm->sens_param[j]),
                              sm->sens_pbar[j], o->sens_prov, sizeof o->sens_prov);
  }
  if (st == SK_OK) {
    st = cli_sens_series_open_named(ctx, sm->nsens, pp, n, o->probes, coord_names, (size_t)n,
                                    hdf5 && sm->nsens <= 64, job->results, &job->sens);
  }
  free(pn);
  free(pp);
  return st;
}

/* The results: positions as the main series, the monitor and the multipliers beside them. */
static sk_status open_results(sk_context *ctx, cli_job *job, cli_multibody *cm, run_out *o,
                              const sk_multibody_sample *sm)
{
  sk_multibody *mech = cm->mech;
  const sk_options *opts = job->opts;
  const int n = sk_multibody_ncoords(mech), m = sk_multibody_nconstraints(mech);
  cli_output_settings out;
  SK_CALL(ctx, cli_output_settings_read(opts, &out, NULL));
  const char *dir = out.dir, *prefix = out.prefix;
  const int csv = out.csv, hdf5 = out.hdf5;
  SK_CHECK(ctx, csv || hdf5, SK_ERR_INPUT, "output.csv and output.hdf5 are both off");
  char(*names)[64] = calloc((size_t)(n + m + 1), sizeof *names);
  const char **np = calloc((size_t)(n + m + 1), sizeof *np);
  int64_t *probes = o->probes = calloc((size_t)n + 1, sizeof *probes);
  sk_status st = names && np && probes ? SK_OK : SK_ERROR(ctx, SK_ERR_NOMEM, "out of memory");
  for (int i = 0; st == SK_OK && i < n; i++) {
    sk_multibody_coord_name(mech, i, names[i], sizeof names[i]);
    np[i] = names[i];
    probes[i] = i;
  }
  for (int r = 0; st == SK_OK && r < m; r++) {
    sk_multibody_row_name(mech, r, names[n + r], sizeof names[n + r]);
    np[n + r] = names[n + r];
  }
  if (st == SK_OK) {
    const sk_results_config rc = {.dir = dir,
                                  .prefix = prefix,
                                  .csv = csv,
                                  .hdf5 = hdf5,
                                  .n = n,
                                  .nprobes = (size_t)n,
                                  .probes = probes,
                                  .probe_names = np};
    st = sk_results_open(ctx, &rc, &job->results);
  }
  if (st == SK_OK) {
    st = sk_results_add_series(job->results, "monitor", NMON, monitor_cols, &o->mon);
  }
  if (st == SK_OK && m > 0) {
    st = sk_results_add_series(job->results, "reactions", (size_t)m, np + n, &o->reac);
  }
  if (st == SK_OK) {
    st = open_sensitivities(ctx, job, cm, o, np, hdf5, sm);
  }
  free(names);
  free(np);
  return st;
}

static void write_report_json(FILE *f, const void *arg)
{
  const sk_multibody_report *r = arg;
  fprintf(f,
          "{\"steps\": %lld, \"newton_iters\": %lld, \"restarts\": %d, \"repartitions\": %d, "
          "\"events\": %d",
          (long long)r->stats.steps, (long long)r->stats.newton_iters, r->restarts,
          r->repartitions, r->nevents);
  cli_json_key_number(f, "phi_max", r->phi_max);
  cli_json_key_number(f, "phi_rms", r->phi_rms);
  cli_json_key_number(f, "dphi_max", r->dphi_max);
  cli_json_key_number(f, "energy_balance_max", r->balance_max);
  cli_json_key_number(f, "cond_max", r->cond_max);
  cli_json_key_number(f, "projection_max", r->projection_max);
  fprintf(f, "}");
}

void cli_multibody_print_report(const sk_multibody *mech, const sk_multibody_report *r,
                                const sk_multibody_settings *s, FILE *out)
{
  fprintf(out,
          "constraint drift: max |Phi| %.3e (RMS over outputs %.3e), max |G v + Phi_t| %.3e\n",
          r->phi_max, r->phi_rms, r->dphi_max);
  fprintf(out,
          "energy balance: max |E - E0 - W| = %.3e of the energies in play (%.3e: max T + "
          "|V - V0| + |W|; W: work of forces and drivers)\n",
          r->balance_max, r->energy_scale);
  fprintf(out, "cond(G): max %.3e%s", r->cond_max, isnan(r->cond_warn_t) ? "\n" : "");
  if (!isnan(r->cond_warn_t)) {
    fprintf(out, ", above %.3e from t = %.6g: near a toggle position\n", s->cond_limit,
            r->cond_warn_t);
  }
  if (r->projection_max > 0) {
    fprintf(out, "projection after every step: largest position correction %.3e\n",
            r->projection_max);
  }
  if (r->restarts) {
    fprintf(out, "engine restarts: %d (coordinate repartitions: %d)\n", r->restarts,
            r->repartitions);
  }
  if (r->nevents) {
    fprintf(out, "events located: %d\n", r->nevents);
    for (int k = 0; k < r->nevents && k < SK_MULTIBODY_MAX_EVENT_LOG; k++) {
      fprintf(out, "  t = %-16.9g %-24s %s\n", r->events[k].t,
              sk_multibody_event_name(mech, r->events[k].index),
              r->events[k].direction > 0 ? "rising" : "falling");
    }
    if (r->nevents > SK_MULTIBODY_MAX_EVENT_LOG) {
      fprintf(out, "  ... and %d more\n", r->nevents - SK_MULTIBODY_MAX_EVENT_LOG);
    }
  }
}

int cli_multibody_run(sk_context *ctx, cli_job *job, const cli_args *a, int argc, char **argv)
{
  cli_multibody cm = {0};
  run_out o = {.ctx = ctx, .job = job, .cm = &cm, .mon = -1, .reac = -1};
  sk_multibody_settings s;
  sk_multibody_report rep;
  memset(&rep, 0, sizeof rep);
  int project = 0;
  sk_status st = cli_multibody_setup(ctx, job, &cm);
  if (st == SK_OK) {
    st = sk_multibody_settings_from_options(ctx, job->opts, 0, &s, &project);
  }
  if (st == SK_OK) {
    st = cli_job_default_prefix(ctx, job, "mechanism");
  }
  const char *method = st == SK_OK ? cli_multibody_method(job->opts, &s) : "";
  s.project = project;
  if (st == SK_OK) { /* a bad engine choice is refused before any file exists */
    st = sk_multibody_check_method(cm.mech, &s, method);
  }
  if (st == SK_OK) {
    st = sk_multibody_simulate(cm.mech, &s, project, method, cm.rtol, cm.atol, job->opts, job->t0,
                               cm.q0, cm.v0, job->times, job->ntimes, write_output, &o, &rep);
    if (st == SK_INTERRUPTED && o.st != SK_OK) {
      st = o.st;
    }
  }
  char *stats = cli_json_text(write_report_json, &rep);
  int code;
  const sk_status fst =
      cli_job_close_results(ctx, job, st, stats, o.sens_prov[0] ? o.sens_prov : NULL, argc, argv);
  if (st == SK_OK) {
    st = fst;
  }
  if (st == SK_OK) {
    code = SK_EXIT_OK;
    if (!a->quiet) {
      printf("stiffkit %s run: mechanism %s (%d bodies, %d coordinates, %d constraints), "
             "formulation %s, engine %s, rtol %.1e, atol %.1e, t = %g -> %g\n",
             SK_VERSION, cm.file, sk_multibody_nbodies(cm.mech), sk_multibody_ncoords(cm.mech),
             sk_multibody_nconstraints(cm.mech), sk_multibody_formulation_name(s.formulation),
             method, cm.rtol, cm.atol, job->t0, job->t_end);
      cli_multibody_print_init(&cm, stdout);
      if (!a->no_stats) {
        sk_stats_print_table(&rep.stats, stdout);
      }
      cli_multibody_print_report(cm.mech, &rep, &s, stdout);
      printf("wrote %s (and .monitor.csv%s%s, .h5, .provenance.yaml)\n", job->files[0],
             sk_multibody_nconstraints(cm.mech) > 0 ? ", .reactions.csv" : "",
             job->sens.id >= 0 ? ", .sensitivity.csv" : "");
    }
  } else {
    code = cli_report(ctx, st);
    if (job->results && fst == SK_OK) {
      fprintf(stderr,
              "stiffkit: kept the outputs up to the failure: %s (and the other *.partial.* "
              "files beside it)\n",
              job->files[0]);
    }
  }
  free(stats);
  free(o.probes);
  cli_multibody_free(&cm);
  return code;
}

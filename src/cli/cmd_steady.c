/* src/cli/cmd_steady.c: `stiffkit steady`: options -> model -> KINSOL steady state -> CSV, HDF5 and provenance files, with the residual verified */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/atomic_file.h"
#include "cli/cli.h"
#include "cli/job.h"
#include "cli/json_out.h"
#include "core/error.h"
#include "cli/output_keys.h"
#include "stiffkit/provenance.h"
#include "stiffkit/results.h"
#include "steppers/stepper_keys.h"

static const char help_text[] =
    "usage: stiffkit steady [CONFIG.yaml] [--set key=value ...] [--json] [--quiet]\n"
    "       stiffkit steady --help-options\n"
    "Solves f(t_s, u) = 0 for the configured ODE model with KINSOL's Newton iteration\n"
    "(steady.* keys; t_s = steady.t, default solver.t0) and accepts the answer only after\n"
    "checking max |f_scale f(t_s, u)| <= steady.fnormtol itself. Writes\n"
    "<output.dir>/<output.prefix>.csv (index, component, grid coordinates, u, f(u): one row\n"
    "per component), .h5 (the state, grid, statistics and provenance) and .provenance.yaml;\n"
    "output.prefix defaults to 'steady'. A failed solve writes nothing. --json prints the\n"
    "report as one JSON object on stdout. A model's analytic Jacobian is first compared with\n"
    "finite differences at the guess (solver.check_jacobian). Without CONFIG the embedded\n"
    "2D heat job is used.\n";

/* The counters of the report, in print order: X(field, label). */
#define STEADY_COUNTERS(X)                               \
  X(newton_iters, "Newton iterations")                   \
  X(f_evals, "f evaluations (total)")                    \
  X(f_evals_dq, "f evaluations in difference quotients") \
  X(kinsol_f_evals, "f evaluations by KINSOL (its nfe)") \
  X(jac_evals, "Jacobian evaluations")                   \
  X(lin_iters, "linear iterations")                      \
  X(lin_conv_fails, "linear convergence failures")       \
  X(prec_setups, "preconditioner setups")                \
  X(prec_solves, "preconditioner solves")                \
  X(backtracks, "line-search backtracks")                \
  X(beta_fails, "line-search beta-condition failures")

/* One `steady` run: the shared job (options, model), the solve and its files. */
typedef struct {
  cli_job job;
  sk_steady_settings set;
  sk_steady_report rep;
  double *u, *f;
  int csv, hdf5;
  const char *dir, *prefix;
  char csv_path[4096], side_path[4096];
  cli_atomic_file csvf, sidef;
  sk_results *h5;
  int nfiles;
  char files[3][4096];
} steady_run;

/* ---- model and guess ------------------------------------------------------ */

/* 1 when output.prefix comes from CONFIG or --set (not from the embedded job). */
static int prefix_chosen(const sk_options *o, const cli_args *a)
{
  for (size_t k = 0; k < a->nsets; k++) {
    const char *p = a->sets[k];
    while (*p == ' ') {
      p++;
    }
    const char *key = cli_output_key(CLI_OUTPUT_KEY_prefix);
    const size_t len = strlen(key);
    if (!strncmp(p, key, len) && strchr(" =", p[len])) {
      return 1;
    }
  }
  uint64_t given = 0;
  cli_output_settings out;
  return a->config && cli_output_settings_read(o, &out, &given) == SK_OK &&
         CLI_OUTPUT_GIVEN(given, prefix);
}

/* Settings, the default prefix and the initial guess (steady.guess). */
static sk_status prepare(sk_context *ctx, steady_run *r, const cli_args *a)
{
  sk_options *o = r->job.opts;
  /* a network's integrated heat flows grow at a steady state, and a group of nodes with no
     conductive path to a fixed temperature has none: unless told otherwise, steady asks for
     neither the energy states nor such groups */
  SK_CALL(ctx, sk_network_options_for_steady(o));
  SK_CALL(ctx, cli_job_build_model(ctx, &r->job));
  if (!prefix_chosen(o, a)) { /* set, so that the echoed options reproduce it */
    SK_CALL(ctx, sk_options_set(o, cli_output_key(CLI_OUTPUT_KEY_prefix), "steady", NULL));
  }
  SK_CALL(ctx, sk_model_constraints_from_options(r->job.model, o));
  SK_CALL(ctx, sk_steady_settings_from_options(ctx, o, &r->set));
  const int64_t n = sk_model_get_n(r->job.model);
  r->u = calloc((size_t)n, sizeof *r->u);
  r->f = calloc((size_t)n, sizeof *r->f);
  SK_CHECK(ctx, r->u && r->f, SK_ERR_NOMEM, "cannot allocate the state (%lld components)",
           (long long)n);
  const char *guess = r->set.guess;
  sk__stepper_settings solver;
  uint64_t given;
  SK_CALL(ctx, sk__stepper_settings_read(o, &solver, &given));
  const double t0 = solver.t0;
  if (!strcmp(guess, "initial") && sk_model_get_kind(r->job.model) == SK_MODEL_DAE) {
    SK_CALL(ctx, sk_model_eval_dae_initial(r->job.model, t0, r->u, r->f)); /* r->f: scratch y'0 */
  } else if (!strcmp(guess, "initial")) {
    SK_CALL(ctx, sk_model_eval_initial(r->job.model, t0, r->u));
  }
  return SK_OK;
}

/* ---- the report as JSON ---------------------------------------------------- */

/* One line of JSON: the settings, counters and the verified residual. */
static void write_report_json(FILE *f, const steady_run *r)
{
  const sk_steady_report *p = &r->rep;
  fprintf(f, "{\"model\": ");
  sk__json_string(f, sk_model_get_name(r->job.model));
  fprintf(f, ", \"n\": %lld", (long long)sk_model_get_n(r->job.model));
  cli_json_key_number(f, "t", r->set.t);
  fprintf(f, ", \"converged\": %s, \"kinsol_flag\": ", p->converged ? "true" : "false");
  sk__json_string(f, p->kinsol_flag_name);
  fprintf(f,
          ", \"strategy\": \"%s\", \"linsol\": \"%s\", \"preconditioner\": \"%s\", "
          "\"ordering\": \"%s\"",
          r->set.strategy, p->linsol, p->prec, p->ordering);
#define SK__JSON_COUNTER(field, label) fprintf(f, ", \"%s\": %lld", #field, (long long)p->field);
  STEADY_COUNTERS(SK__JSON_COUNTER)
#undef SK__JSON_COUNTER
  fprintf(f, ", \"residual\": {\"fnormtol\": ");
  sk__json_number(f, r->set.fnormtol);
  cli_json_key_number(f, "initial_scaled_max", p->fnorm_initial);
  cli_json_key_number(f, "max", p->fnorm_max);
  cli_json_key_number(f, "scaled_max", p->fnorm_max_scaled);
  cli_json_key_number(f, "scaled_l2", p->fnorm_l2_scaled);
  fprintf(f, ", \"worst_index\": %lld, \"worst_component\": ", (long long)p->worst);
  sk__json_string(f, p->worst_name);
  cli_json_key_number(f, "worst_value", p->worst_value);
  fprintf(f, "}");
  cli_json_key_number(f, "wall_time", p->wall_time);
  fprintf(f, "}");
}

static void report_json_writer(FILE *f, const void *r)
{
  write_report_json(f, r);
}

/* ---- files ------------------------------------------------------------------ */

/* Create the temporary files (HDF5 first: its errors go through the
 * context). Returns SK_OK, an error status (recorded), or SK_ERR_CREATE
 * after cli_atomic_open printed the reason (*printed set). */
static sk_status open_outputs(sk_context *ctx, steady_run *r, int *printed)
{
  sk_options *o = r->job.opts;
  *printed = 0;
  cli_output_settings out;
  SK_CALL(ctx, cli_output_settings_read(o, &out, NULL));
  r->csv = out.csv;
  r->hdf5 = out.hdf5;
  r->dir = out.dir;
  r->prefix = out.prefix;
  SK_CHECK(ctx, r->prefix[0] && !strchr(r->prefix, '/'), SK_ERR_INPUT,
           "output.prefix '%s' must be a non-empty file stem without '/'", r->prefix);
  snprintf(r->csv_path, sizeof r->csv_path, "%s/%s.csv", r->dir, r->prefix);
  snprintf(r->side_path, sizeof r->side_path, "%s/%s.provenance.yaml", r->dir, r->prefix);
  char h5_path[4096];
  snprintf(h5_path, sizeof h5_path, "%s/%s.h5", r->dir, r->prefix);
  /* an older result under these names must not pass for this run's */
  const char *old[] = {r->csv_path, h5_path, r->side_path};
  for (size_t k = 0; k < sizeof old / sizeof old[0]; k++) {
    SK_CHECK(ctx, remove(old[k]) == 0 || errno == ENOENT, SK_ERR_CREATE,
             "cannot remove the previous result '%s': %s", old[k], strerror(errno));
  }
  if (!r->csv && !r->hdf5) {
    return SK_OK;
  }
  if (r->hdf5) {
    const sk_results_config rc = {.dir = r->dir,
                                  .prefix = r->prefix,
                                  .hdf5 = 1,
                                  .write_states = 1,
                                  .n = sk_model_get_n(r->job.model)};
    SK_CALL(ctx, sk_results_open(ctx, &rc, &r->h5));
  }
  *printed = 1;
  if (r->csv && cli_atomic_open(&r->csvf, r->csv_path) != 0) {
    return SK_ERR_CREATE;
  }
  if (cli_atomic_open(&r->sidef, r->side_path) != 0) {
    return SK_ERR_CREATE;
  }
  *printed = 0;
  return SK_OK;
}

/* Remove every temporary file (a failed run leaves nothing). */
static void abort_outputs(steady_run *r)
{
  if (r->csvf.f) {
    cli_atomic_abort(&r->csvf);
  }
  if (r->sidef.f) {
    cli_atomic_abort(&r->sidef);
  }
  sk_results_destroy(&r->h5);
}

/* The grid coordinates of component i when the model is a diffusion grid. */
static int coords_of(const steady_run *r, int64_t i, double x[3])
{
  return sk_diffusion_node_coords(r->job.model, i, x) == SK_OK;
}

static void write_csv(steady_run *r)
{
  FILE *f = r->csvf.f;
  const int64_t n = sk_model_get_n(r->job.model);
  double x[3];
  int dim = 0, ncomp;
  int64_t dims[3];
  if (!coords_of(r, 0, x) || sk_model_get_grid(r->job.model, &dim, dims, &ncomp) != SK_OK) {
    dim = 0;
  }
  static const char *const axis[3] = {"x", "y", "z"};
  fprintf(f, "index,component");
  for (int64_t d = 0; d < dim; d++) {
    fprintf(f, ",%s", axis[d]);
  }
  fprintf(f, ",u,f\n");
  for (int64_t i = 0; i < n; i++) {
    char name[96];
    sk_model_component_name(r->job.model, i, name, sizeof name);
    fprintf(f, "%lld,\"", (long long)i);
    for (const char *c = name; *c; c++) { /* RFC 4180: quotes doubled inside quotes */
      if (*c == '"') {
        fputc('"', f);
      }
      fputc(*c, f);
    }
    fputc('"', f);
    if (dim > 0 && coords_of(r, i, x)) {
      for (int64_t d = 0; d < dim; d++) {
        fprintf(f, ",%.17g", x[d]);
      }
    }
    fprintf(f, ",%.17g,%.17g\n", r->u[i], r->f[i]);
  }
}

/* The sidecar: status, the report (a JSON flow mapping), the provenance. */
static void write_sidecar(FILE *f, const char *report, const char *prov)
{
  fprintf(f, "status: complete\nstatistics: %s\nprovenance:\n", report ? report : "{}");
  for (const char *p = prov ? prov : ""; *p;) {
    const char *e = strchr(p, '\n');
    const size_t k = e ? (size_t)(e - p) : strlen(p);
    fprintf(f, "%s%.*s\n", k ? "  " : "", (int)k, p);
    p += k + (e ? 1 : 0);
  }
}

/* The HDF5 file: the steady state as one output row at t_s, with grid. */
static sk_status finish_h5(sk_context *ctx, steady_run *r, const char *report, const char *prov)
{
  SK_CALL(ctx, sk_results_write(r->h5, r->set.t, r->u, NULL));
  SK_CALL(ctx, cli_job_set_results_grid(ctx, &r->job, r->h5));
  SK_CALL(ctx, sk_results_finish(r->h5, report, prov));
  snprintf(r->files[r->nfiles++], sizeof r->files[0], "%s/%s.h5", r->dir, r->prefix);
  return SK_OK;
}

/* Write and rename every file into place: HDF5, CSV, then the sidecar that
 * says the set is complete. Returns an exit code (printed on failure). */
static int write_outputs(sk_context *ctx, steady_run *r, int argc, char **argv)
{
  if (!r->csv && !r->hdf5) {
    return SK_EXIT_OK;
  }
  sk_status st = sk_steady_eval(r->job.model, r->set.t, r->u, r->f);
  char *report = cli_json_text(report_json_writer, r);
  char *effective = sk_options_effective_string(r->job.opts);
  char *prov = sk_provenance_yaml(ctx, argc + 1, argv - 1, effective ? effective : "");
  if (st == SK_OK && (!report || !prov)) {
    st = SK_ERROR(ctx, SK_ERR_NOMEM, "out of memory writing the results");
  }
  if (st == SK_OK && r->h5) {
    st = finish_h5(ctx, r, report, prov);
  }
  int code = st == SK_OK ? SK_EXIT_OK : cli_report(ctx, st);
  if (code == SK_EXIT_OK && r->csv) {
    write_csv(r);
    code = cli_atomic_commit(&r->csvf);
    if (code == SK_EXIT_OK) {
      snprintf(r->files[r->nfiles++], sizeof r->files[0], "%s", r->csv_path);
    }
  }
  if (code == SK_EXIT_OK) {
    write_sidecar(r->sidef.f, report, prov);
    code = cli_atomic_commit(&r->sidef);
  }
  cli_atomic_keep_all_or_none(code, r->files, &r->nfiles);
  free(report);
  free(effective);
  free(prov);
  return code;
}

/* ---- printing --------------------------------------------------------------- */

static void print_counters(FILE *out, const sk_steady_report *p)
{
#define SK__PRINT_COUNTER(field, label) \
  fprintf(out, "  %-42s %12lld\n", label, (long long)p->field);
  STEADY_COUNTERS(SK__PRINT_COUNTER)
#undef SK__PRINT_COUNTER
  fprintf(out, "  %-42s %12.3f\n", "wall time [s]", p->wall_time);
}

static void print_summary(const steady_run *r, int with_stats)
{
  const sk_steady_report *p = &r->rep;
  printf("stiffkit %s steady: model %s, n = %lld, f(t, u) = 0 at t = %.6e\n", SK_VERSION,
         sk_model_get_name(r->job.model), (long long)sk_model_get_n(r->job.model), r->set.t);
  printf("Newton (KINSOL, %s), linear solver %s (ordering %s), preconditioner %s\n",
         strcmp(r->set.strategy, "none") ? "line search" : "full steps", p->linsol, p->ordering,
         p->prec);
  if (with_stats) {
    printf("statistics:\n");
    print_counters(stdout, p);
  }
  printf("residual at the guess:  max |f_scale f| = %.6e\n", p->fnorm_initial);
  printf("residual at the answer: max |f| = %.6e (largest in %s = %.6e)\n", p->fnorm_max,
         p->worst_name, p->worst_value);
  printf("                        max |f_scale f| = %.6e, ||f_scale f||_2 = %.6e\n",
         p->fnorm_max_scaled, p->fnorm_l2_scaled);
  printf("converged: max |f_scale f| = %.3e <= steady.fnormtol = %.3e, checked at the answer "
         "(KINSOL returned %s)\n",
         p->fnorm_max_scaled, r->set.fnormtol, p->kinsol_flag_name);
  for (int i = 0; i < r->nfiles; i++) {
    printf("wrote %s\n", r->files[i]);
  }
}

/* --json: {"status", "error", "files", "report"} on one line. */
static void print_json(const steady_run *r, const sk_context *ctx, int failed)
{
  cli_json_result_head(stdout, ctx, failed, (const char(*)[4096])r->files, r->nfiles);
  write_report_json(stdout, r);
  printf("}\n");
}

/* ---- the command ------------------------------------------------------------ */

static void steady_free(steady_run *r)
{
  abort_outputs(r);
  cli_job_free(&r->job);
  free(r->u);
  free(r->f);
}

static int stdout_code(int code)
{
  if (code == SK_EXIT_OK && (fflush(stdout) != 0 || ferror(stdout))) {
    fprintf(stderr, "stiffkit: error: writing to standard output failed: %s\n", strerror(errno));
    return SK_EXIT_IOERR;
  }
  return code;
}

/* Load, prepare, open the files and solve; returns an exit code and leaves
 * the error printed when it is not 0. */
static int solve(sk_context *ctx, steady_run *r, const cli_args *a)
{
  sk_status st = cli_job_load(ctx, &r->job, a->config, a->sets, a->nsets);
  if (st == SK_OK) {
    st = prepare(ctx, r, a);
  }
  int printed = 0;
  if (st == SK_OK) {
    st = open_outputs(ctx, r, &printed);
  }
  if (st == SK_OK) {
    st = sk_steady_solve(ctx, r->job.model, &r->set, r->u, &r->rep);
  }
  if (st == SK_OK) {
    return SK_EXIT_OK;
  }
  const int code = printed ? SK_EXIT_CANTCREATE : cli_report(ctx, st);
  if (r->rep.linsol[0] && !a->json) {
    fprintf(stderr, "stiffkit: statistics at the failure:\n");
    print_counters(stderr, &r->rep);
  }
  return code;
}

int cli_steady(int argc, char **argv)
{
  cli_args args;
  sk_context *ctx = NULL;
  int code =
      cli_args_start(argc, argv, "steady", "--json --help-options", help_text, NULL, &args, &ctx);
  if (code >= 0) {
    return code;
  }
  steady_run r;
  memset(&r, 0, sizeof r);
  cli_job_init(&r.job);
  sk_status st = cli_job_options(ctx, &r.job);
  if (st != SK_OK) {
    code = cli_report(ctx, st);
  } else if (args.help_options) {
    sk_options_print_help(r.job.opts, stdout);
    code = stdout_code(SK_EXIT_OK);
  } else {
    code = solve(ctx, &r, &args);
    if (code == SK_EXIT_OK) {
      code = write_outputs(ctx, &r, argc, argv);
    }
    if (args.json && r.rep.linsol[0]) {
      print_json(&r, ctx, code != SK_EXIT_OK);
    } else if (code == SK_EXIT_OK && !args.quiet) {
      print_summary(&r, !args.no_stats);
    }
    code = stdout_code(code);
  }
  steady_free(&r);
  sk_context_destroy(&ctx);
  cli_args_free(&args);
  return code;
}

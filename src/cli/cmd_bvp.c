/* src/cli/cmd_bvp.c: `stiffkit bvp`: a boundary-value problem from options -> finite differences, shooting or continuation -> CSV, HDF5 and provenance files, and its `verify` (finite differences against multiple shooting) */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/atomic_file.h"
#include "cli/bvp_cli.h"
#include "cli/cli.h"
#include "cli/json_out.h"
#include "core/error.h"
#include "cli/output_keys.h"
#include "stiffkit/provenance.h"
#include "stiffkit/results.h"

static const char help_text[] =
    "usage: stiffkit bvp [CONFIG.yaml] [--set key=value ...] [--json] [--quiet]\n"
    "       stiffkit bvp --help-options\n"
    "Solves the two-point boundary-value problem of the bvp.* keys by finite differences\n"
    "(bvp.method = fd: trapezoidal box scheme, KINSOL + KLU, Richardson error estimate and\n"
    "mesh refinement to bvp.tol), single or multiple shooting (CVODE + KINSOL), optionally\n"
    "stepping a parameter (bvp.continuation.*). Writes <output.dir>/<output.prefix>.csv\n"
    "(x, the components, norms and, with bvp.exact.*, the error), .estimate.csv (the error\n"
    "estimate per component), .h5, .provenance.yaml and, with continuation,\n"
    ".continuation.csv; output.prefix defaults to 'bvp'. A failed solve writes nothing.\n"
    "Without CONFIG the embedded example is solved: steady conduction in a rod with\n"
    "k(T) = k0 (1 + beta T), the temperature fixed at x = 0 and the heat flux at x = 1.\n";

/* The embedded example; its exact solution comes from the Kirchhoff transform
 * U = k0 (T + beta T^2 / 2), U'' = -s, U'(1) = -qL. */
static const char *const embedded_bvp[] = {
    "model.type=bvp",
    "bvp.variables=T, q",
    "bvp.equations.T=-q / (k0 * (1 + beta * T))",
    "bvp.equations.q=s",
    "bvp.parameters.k0=2",
    "bvp.parameters.beta=0.01",
    "bvp.parameters.s=50",
    "bvp.parameters.T0=300",
    "bvp.parameters.qL=400",
    "bvp.bc.base.at=left",
    "bvp.bc.base.condition=T - T0",
    "bvp.bc.tip.at=right",
    "bvp.bc.tip.condition=q - qL",
    "bvp.guess.T=T0",
    "bvp.guess.q=qL",
    ("bvp.exact.T=(-1 + sqrt(1 + 2 * beta * (k0 * (T0 + beta * T0^2 / 2) - (qL - s) * x - s * "
     "x^2 / 2) / k0)) / beta"), /* one string (clang -Wstring-concatenation) */
    "bvp.exact.q=qL - s * (1 - x)",
    "bvp.tol=1e-8",
};

sk_status cli_bvp_load(sk_context *ctx, cli_job *job, const cli_args *a)
{
  if (a->config) {
    SK_CALL(ctx, cli_job_load(ctx, job, a->config, a->sets, a->nsets));
  } else {
    for (size_t k = 0; k < sizeof embedded_bvp / sizeof embedded_bvp[0]; k++) {
      SK_CALL(ctx, sk_options_set_assignment(job->opts, embedded_bvp[k]));
    }
    for (size_t k = 0; k < a->nsets; k++) {
      SK_CALL(ctx, sk_options_set_assignment(job->opts, a->sets[k]));
    }
  }
  const char *type;
  SK_CALL(ctx, sk_options_get_string(job->opts, SK_MODEL_TYPE_KEY, &type));
  if (!sk_options_is_set(job->opts, SK_MODEL_TYPE_KEY) || !a->config) {
    SK_CALL(ctx, sk_options_set_assignment(job->opts, "model.type=bvp"));
  } else {
    SK_CHECK(ctx, !strcmp(type, "bvp"), SK_ERR_INPUT,
             "%s: model.type is '%s', not bvp: `stiffkit bvp` solves boundary-value problems "
             "(use `stiffkit run` for this model)",
             a->config, type);
  }
  return cli_bvp_build(ctx, job);
}

sk_status cli_bvp_build(sk_context *ctx, cli_job *job)
{
  SK_CALL(ctx, sk_bvp_from_options(ctx, job->opts, &job->bvp, &job->bvp_keys));
  SK_CALL(ctx, cli_job_default_prefix(ctx, job, "bvp"));
  return SK_OK;
}

/* One `bvp` run. */
typedef struct {
  cli_job job;
  sk_bvp_settings set;
  sk_bvp_report rep;
  sk_bvp_solution sol;
  int cont;
  sk_bvp_continuation c;
  sk_bvp_continuation_point path[4096];
  size_t npath;
  int nfiles;
  char files[6][4096];
} bvp_run;

/* ---- report ---------------------------------------------------------------- */

static void write_report_json(FILE *f, const bvp_run *r)
{
  const sk_bvp_report *p = &r->rep;
  fprintf(f, "{\"method\": \"%s\", \"converged\": %s", sk_bvp_method_name(r->set.method),
          p->converged ? "true" : "false");
  fprintf(f, ", \"components\": %d, \"points\": %lld, \"unknowns\": %lld, \"refinements\": %d",
          sk_bvp_get_dim(r->job.bvp), (long long)p->points, (long long)p->unknowns,
          p->refinements);
  fprintf(f,
          ", \"newton_iters\": %lld, \"newton_solves\": %lld, \"f_evals\": %lld, "
          "\"jac_evals\": %lld, \"ivp_steps\": %lld",
          (long long)p->newton_iters, (long long)p->newton_solves, (long long)p->f_evals,
          (long long)p->jac_evals, (long long)p->ivp_steps);
  cli_json_key_number(f, "tol", r->set.tol);
  cli_json_key_number(f, "residual", p->residual);
  fprintf(f, ", \"residual_where\": ");
  sk__json_string(f, p->worst);
  cli_json_key_number(f, "error_estimate", p->error_estimate >= 0 ? p->error_estimate : NAN);
  cli_json_key_number(f, "error_exact", p->error_exact >= 0 ? p->error_exact : NAN);
  cli_json_key_number(f, "sensitivity", p->sensitivity);
  cli_json_key_number(f, "wall_time", p->wall_time);
  if (r->cont) {
    fprintf(f, ", \"continuation\": {\"parameter\": ");
    sk__json_string(f, sk_bvp_get_parameter_name(r->job.bvp, r->c.param));
    cli_json_key_number(f, "reached", sk_bvp_get_parameters(r->job.bvp)[r->c.param]);
    cli_json_key_number(f, "to", r->c.to);
    fprintf(f, ", \"steps\": %zu}", r->npath);
  }
  fprintf(f, "}");
}

static void report_json_writer(FILE *f, const void *r)
{
  write_report_json(f, r);
}

/* ---- files ------------------------------------------------------------------ */

/* The solution as a result set with abscissa x: the components as probes,
 * the exact solution's error when known, the estimate as a second series. */
static sk_status write_solution(sk_context *ctx, bvp_run *r, const char *dir, const char *prefix,
                                int csv, int hdf5, const char *report, const char *prov)
{
  sk_bvp *bvp = r->job.bvp;
  const int d = sk_bvp_get_dim(bvp);
  int64_t probes[SK_BVP_MAX_DIM];
  const char *names[SK_BVP_MAX_DIM];
  for (int c = 0; c < d; c++) {
    probes[c] = c;
    names[c] = sk_bvp_get_component_name(bvp, c);
  }
  const int exact = sk_bvp_has_exact(bvp);
  const sk_results_config rc = {.dir = dir,
                                .prefix = prefix,
                                .csv = csv,
                                .hdf5 = hdf5,
                                .write_states = 0,
                                .n = d,
                                .nprobes = (size_t)d,
                                .probes = probes,
                                .probe_names = names,
                                .has_exact = exact,
                                .axis = "x"};
  sk_results *res = NULL;
  SK_CALL(ctx, sk_results_open(ctx, &rc, &res));
  int est = -1;
  sk_status st = SK_OK;
  if (r->set.method == SK_BVP_FD && r->set.estimate) {
    st = sk_results_add_series(res, "estimate", (size_t)d, names, &est);
  }
  double ye[SK_BVP_MAX_DIM];
  for (int64_t i = 0; st == SK_OK && i < r->sol.n; i++) {
    if (exact) {
      st = sk_bvp_eval_exact(bvp, r->sol.x[i], ye);
    }
    if (st == SK_OK) {
      st = sk_results_write(res, r->sol.x[i], r->sol.y + d * i, exact ? ye : NULL);
    }
    if (st == SK_OK && est >= 0) {
      st = sk_results_write_series(res, est, r->sol.x[i], r->sol.err + d * i);
    }
  }
  if (st == SK_OK) {
    st = sk_results_finish(res, report, prov);
  }
  sk_results_destroy(&res);
  SK_CALL(ctx, st);
  if (hdf5) {
    snprintf(r->files[r->nfiles++], sizeof r->files[0], "%s/%s.h5", dir, prefix);
  }
  if (csv) {
    snprintf(r->files[r->nfiles++], sizeof r->files[0], "%s/%s.csv", dir, prefix);
    if (est >= 0) {
      snprintf(r->files[r->nfiles++], sizeof r->files[0], "%s/%s.estimate.csv", dir, prefix);
    }
    snprintf(r->files[r->nfiles++], sizeof r->files[0], "%s/%s.provenance.yaml", dir, prefix);
  }
  return SK_OK;
}

/* The continuation path as a CSV table. Returns an exit code. */
static int write_path(bvp_run *r, const char *dir, const char *prefix)
{
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.continuation.csv", dir, prefix);
  cli_atomic_file af;
  int code = cli_atomic_open(&af, path);
  if (code != 0) {
    return code;
  }
  const sk_bvp *bvp = r->job.bvp;
  fprintf(af.f, "%s,max_abs_%s", sk_bvp_get_parameter_name(bvp, r->c.param),
          sk_bvp_get_component_name(bvp, 0));
  if (sk_bvp_get_dim(bvp) > 1) {
    fprintf(af.f, ",max_abs_%s", sk_bvp_get_component_name(bvp, 1));
  }
  fprintf(af.f, ",newton_iters,points,error_estimate\n");
  for (size_t k = 0; k < r->npath; k++) {
    const sk_bvp_continuation_point *p = &r->path[k];
    fprintf(af.f, "%.17g,%.17g", p->value, p->max_abs[0]);
    if (sk_bvp_get_dim(bvp) > 1) {
      fprintf(af.f, ",%.17g", p->max_abs[1]);
    }
    fprintf(af.f, ",%lld,%lld,%.6e\n", (long long)p->newton_iters, (long long)p->points,
            p->error_estimate);
  }
  code = cli_atomic_commit(&af);
  if (code == 0) {
    snprintf(r->files[r->nfiles++], sizeof r->files[0], "%s", path);
  }
  return code;
}

static int write_outputs(sk_context *ctx, bvp_run *r, int argc, char **argv)
{
  const sk_options *o = r->job.opts;
  cli_output_settings out;
  sk_status st = cli_output_settings_read(o, &out, NULL);
  if (st != SK_OK) {
    return cli_report(ctx, st);
  }
  const char *dir = out.dir, *prefix = out.prefix;
  const int csv = out.csv, hdf5 = out.hdf5;
  if (!csv && !hdf5) {
    return SK_EXIT_OK;
  }
  char *report = cli_json_text(report_json_writer, r);
  char *effective = sk_options_effective_string(r->job.opts);
  char *prov = sk_provenance_yaml(ctx, argc + 1, argv - 1, effective ? effective : "");
  int code = SK_EXIT_OK;
  if (!report || !prov) {
    code = cli_report(ctx, SK_ERROR(ctx, SK_ERR_NOMEM, "out of memory writing the results"));
  }
  if (code == SK_EXIT_OK && r->cont && csv) {
    code = write_path(r, dir, prefix);
  }
  if (code == SK_EXIT_OK) {
    st = write_solution(ctx, r, dir, prefix, csv, hdf5, report, prov);
    code = st == SK_OK ? SK_EXIT_OK : cli_report(ctx, st);
  }
  cli_atomic_keep_all_or_none(code, r->files, &r->nfiles);
  free(report);
  free(effective);
  free(prov);
  return code;
}

/* ---- printing ---------------------------------------------------------------- */

static void print_summary(const bvp_run *r, FILE *out)
{
  const sk_bvp_report *p = &r->rep;
  sk_bvp *bvp = r->job.bvp;
  const int d = sk_bvp_get_dim(bvp);
  double a, b;
  sk_bvp_get_interval(bvp, &a, &b);
  fprintf(out, "stiffkit %s bvp: %d first-order equations on [%g, %g], method %s, tol %.3g\n",
          SK_VERSION, d, a, b, sk_bvp_method_name(r->set.method), r->set.tol);
  fprintf(out, "statistics:\n");
  fprintf(out, "  %-40s %14lld\n", r->set.method == SK_BVP_FD ? "mesh points" : "shooting nodes",
          (long long)p->points);
  fprintf(out, "  %-40s %14lld\n", "unknowns", (long long)p->unknowns);
  if (r->set.method == SK_BVP_FD) {
    fprintf(out, "  %-40s %14d\n", "mesh refinements", p->refinements);
  }
  fprintf(out, "  %-40s %14lld\n", "Newton solves (KINSOL)", (long long)p->newton_solves);
  fprintf(out, "  %-40s %14lld\n", "Newton iterations", (long long)p->newton_iters);
  fprintf(out, "  %-40s %14lld\n", "Jacobian evaluations", (long long)p->jac_evals);
  fprintf(out, "  %-40s %14lld\n", "f evaluations", (long long)p->f_evals);
  if (r->set.method != SK_BVP_FD) {
    fprintf(out, "  %-40s %14lld\n", "IVP steps (all integrations)", (long long)p->ivp_steps);
    fprintf(out, "  %-40s %14.3e  on [%g, %g]\n", "sensitivity max ||dy(x_k+1)/dy(x_k)||",
            p->sensitivity, p->sensitivity_x[0], p->sensitivity_x[1]);
  }
  fprintf(out, "  %-40s %14.3f\n", "wall time [s]", p->wall_time);
  fprintf(out, "residual at the answer (recomputed): %.3e, largest in %s\n", p->residual,
          p->worst[0] ? p->worst : "-");
  if (p->error_estimate >= 0) {
    fprintf(out, "error estimate (Richardson, max |err| / (1 + |y|)): %.3e %s bvp.tol = %.3e\n",
            p->error_estimate, p->error_estimate <= r->set.tol ? "<=" : "> (NOT MET)",
            r->set.tol);
  }
  if (p->error_exact >= 0) {
    fprintf(out, "error against the exact solution (bvp.exact): %.3e\n", p->error_exact);
  }
  if (r->cont) {
    fprintf(out, "continuation in %s: %zu converged steps, %s = %.10g reached (target %.10g)\n",
            sk_bvp_get_parameter_name(bvp, r->c.param), r->npath,
            sk_bvp_get_parameter_name(bvp, r->c.param), sk_bvp_get_parameters(bvp)[r->c.param],
            r->c.to);
  }
  /* the solution at about 11 points */
  fprintf(out, "solution:\n  %12s", "x");
  for (int c = 0; c < d && c < 6; c++) {
    fprintf(out, " %16s", sk_bvp_get_component_name(bvp, c));
  }
  fprintf(out, "\n");
  const int64_t n = r->sol.n, stride = n > 11 ? (n - 1) / 10 : 1;
  for (int64_t i = 0; i < n; i += stride) {
    const int64_t k = i + stride >= n ? n - 1 : i;
    fprintf(out, "  %12.6g", r->sol.x[k]);
    for (int c = 0; c < d && c < 6; c++) {
      fprintf(out, " %16.9g", r->sol.y[d * k + c]);
    }
    fprintf(out, "\n");
    if (k == n - 1) {
      break;
    }
  }
  for (int i = 0; i < r->nfiles; i++) {
    fprintf(out, "wrote %s\n", r->files[i]);
  }
}

/* --json: {"status", "error", "files", "report"} on one line (report null when the problem
 * could not be built). */
static void print_json(const bvp_run *r, const sk_context *ctx, int code)
{
  cli_json_result_head(stdout, ctx, code != SK_EXIT_OK, (const char(*)[4096])r->files, r->nfiles);
  if (r->job.bvp) {
    write_report_json(stdout, r);
  } else {
    printf("null");
  }
  printf("}\n");
}

/* ---- the command ------------------------------------------------------------- */

static int solve(sk_context *ctx, bvp_run *r, const cli_args *a)
{
  sk_status st = cli_bvp_load(ctx, &r->job, a);
  if (st == SK_OK) {
    st = sk_bvp_settings_from_options(ctx, r->job.opts, &r->set);
  }
  if (st == SK_OK) {
    st = sk_bvp_continuation_from_options(ctx, r->job.opts, r->job.bvp, &r->c, &r->cont);
  }
  if (st == SK_OK && !a->quiet) {
    sk_context_set_log(ctx, SK_LOG_INFO, sk_log_to_stream, stderr);
  }
  if (st == SK_OK) {
    st = r->cont ? sk_bvp_continue(ctx, r->job.bvp, &r->set, &r->c, &r->sol, r->path,
                                   sizeof r->path / sizeof r->path[0], &r->npath, &r->rep)
                 : sk_bvp_solve(ctx, r->job.bvp, &r->set, &r->sol, &r->rep);
  }
  return st == SK_OK ? SK_EXIT_OK : cli_report(ctx, st);
}

int cli_bvp(int argc, char **argv)
{
  cli_args args;
  sk_context *ctx = NULL;
  int code =
      cli_args_start(argc, argv, "bvp", "--json --help-options", help_text, NULL, &args, &ctx);
  if (code >= 0) {
    return code;
  }
  bvp_run *r = calloc(1, sizeof *r);
  if (!r) {
    fprintf(stderr, "stiffkit: error: out of memory\n");
    sk_context_destroy(&ctx);
    cli_args_free(&args);
    return SK_EXIT_INTERNAL;
  }
  cli_job_init(&r->job);
  sk_status st = cli_job_options(ctx, &r->job);
  if (st != SK_OK) {
    code = cli_report(ctx, st);
  } else if (args.help_options) {
    sk_options_print_help(r->job.opts, stdout);
    code = SK_EXIT_OK;
  } else {
    code = solve(ctx, r, &args);
    const int solved = code == SK_EXIT_OK;
    if (code == SK_EXIT_OK) {
      code = write_outputs(ctx, r, argc, argv);
    }
    if (args.json) {
      print_json(r, ctx, code);
    } else if (code == SK_EXIT_OK && !args.quiet) {
      print_summary(r, stdout);
    } else if (!solved && r->cont && r->npath > 0) {
      fprintf(stderr, "stiffkit: the converged part of the continuation:\n  %16s %16s %8s\n",
              sk_bvp_get_parameter_name(r->job.bvp, r->c.param), "max |y0|", "Newton");
      for (size_t k = 0; k < r->npath; k++) {
        fprintf(stderr, "  %16.10g %16.9g %8lld\n", r->path[k].value, r->path[k].max_abs[0],
                (long long)r->path[k].newton_iters);
      }
    }
  }
  if (code == SK_EXIT_OK && (fflush(stdout) != 0 || ferror(stdout))) {
    fprintf(stderr, "stiffkit: error: writing to standard output failed: %s\n", strerror(errno));
    code = SK_EXIT_IOERR;
  }
  sk_bvp_solution_free(&r->sol);
  cli_job_free(&r->job);
  free(r);
  sk_context_destroy(&ctx);
  cli_args_free(&args);
  return code;
}

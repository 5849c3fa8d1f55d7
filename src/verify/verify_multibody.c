/* src/verify/verify_multibody.c: verifying a mechanism's run: two formulations against each other (positions and reaction forces at every output), constraint drift and the energy balance */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "verify/verify_report.h"
#include "verify/verify_sens.h"

/* Agreement and drift bounds, in multiples of solver.rtol (global errors of BDF runs are
 * a modest multiple of the local tolerance). */
#define BOUND_FACTOR 100.0
/* Reactions: every formulation's multipliers come from the block system at its (q, v). */
#define REACTION_FACTOR BOUND_FACTOR

/* The outputs of one formulation: q and lambda at every output, and with sensitivities
 * dq/dp_j (parameter j, output k at sens + (j cap + k) n) with the parameters and scales. */
typedef struct {
  int n, m;
  size_t rows, cap;
  double *q, *lam;
  int np;
  int param[64];
  double pbar[64];
  double *sens;
} trace;

static int record(double t, const double *q, const double *v, const double *lambda,
                  const sk_multibody_sample *sample, void *data)
{
  (void)t;
  (void)v;
  trace *tr = data;
  if (tr->rows == tr->cap) {
    return 1;
  }
  memcpy(tr->q + tr->rows * (size_t)tr->n, q, (size_t)tr->n * sizeof *q);
  memcpy(tr->lam + tr->rows * (size_t)tr->m, lambda, (size_t)tr->m * sizeof *lambda);
  if (tr->rows == 0 && sample->nsens > 0 && sample->nsens <= 64) {
    tr->np = sample->nsens;
    memcpy(tr->param, sample->sens_param, (size_t)tr->np * sizeof *tr->param);
    memcpy(tr->pbar, sample->sens_pbar, (size_t)tr->np * sizeof *tr->pbar);
    tr->sens = calloc((size_t)tr->np * tr->cap * (size_t)tr->n + 1, sizeof *tr->sens);
    if (!tr->sens) {
      return 1;
    }
  }
  for (int j = 0; tr->sens && j < tr->np; j++) { /* dq/dp_j: the first n of every 2n */
    memcpy(tr->sens + ((size_t)j * tr->cap + tr->rows) * (size_t)tr->n,
           sample->sens + (size_t)j * 2 * (size_t)tr->n, (size_t)tr->n * sizeof *tr->sens);
  }
  tr->rows++;
  return 0;
}

static sk_status run_one(sk_context *ctx, const sk_verify_multibody_job *job, int compare,
                         sk_multibody_settings *s, trace *tr, sk_multibody_report *rep,
                         const char **method)
{
  int project;
  SK_CALL(ctx, sk_multibody_settings_from_options(ctx, job->options, compare, s, &project));
  *method = compare && s->formulation == SK_MULTIBODY_GGL ? "ida-bdf"
            : compare                                     ? "cvode-bdf"
                                                          : job->method;
  return sk_multibody_simulate(job->mechanism, s, project, *method, job->rtol, job->atol,
                               compare ? NULL : job->options, job->t0, job->q0, job->v0,
                               job->times, job->ntimes, record, tr, rep);
}

/* max |a - b| / (1 + max |b|) per column group, over all rows. */
static double max_rel(const double *a, const double *b, size_t len, double *where_idx)
{
  double scale = 0.0, d = 0.0;
  for (size_t i = 0; i < len; i++) {
    scale = fmax(scale, fabs(b[i]));
  }
  for (size_t i = 0; i < len; i++) {
    const double e = fabs(a[i] - b[i]);
    if (e > d) {
      d = e;
      *where_idx = (double)i;
    }
  }
  return d / (1.0 + scale);
}

/* The two simulations at p_j +- d (parameter k of the mechanism) at rtol, atol = ratio rtol,
 * without sensitivities, into fd[0] and fd[1]. The start follows the parameter as the
 * sensitivities' start does: a joint point moves it (the assembly's minimum-norm correction
 * of the nominal start), nothing else does. qv: 2n values of work. */
static sk_status fd_pair(const sk_verify_multibody_job *job, const sk_multibody_settings *s,
                         const char *method, int k, const char *name, double p, double d,
                         double rtol, double ratio, double *qv, trace fd[2])
{
  const int n = fd[0].n;
  sk_status st = SK_OK;
  for (int side = 0; side < 2 && st == SK_OK; side++) {
    sk_multibody_report rep;
    sk_multibody_init_report init;
    fd[side].rows = 0;
    memcpy(qv, job->q0, 2 * (size_t)n * sizeof *qv);
    st = sk_multibody_set_param(job->mechanism, k, side ? p - d : p + d);
    if (st == SK_OK && strstr(name, ".point")) {
      st = sk_multibody_assemble(job->mechanism, job->t0, qv, qv + n, 0.0, 1, &init);
    }
    if (st == SK_OK) {
      st = sk_multibody_simulate(job->mechanism, s, s->project, method, rtol, rtol * ratio, NULL,
                                 job->t0, qv, qv + n, job->times, job->ntimes, record, &fd[side],
                                 &rep);
    }
  }
  sk_multibody_set_param(job->mechanism, k, p);
  return st;
}

/* The production run's sensitivities against central differences of two more simulations
 * per parameter (p +- 1e-4 pbar, the production's formulation and engine, no sensitivities)
 * at the production's tolerances / 1000, loosened tenfold (up to the production's) while they
 * fail:
 * the check of the other models (sk__verify_sens.h), with the differences' resolution
 * 100 rtol max |q| / 2d as the floor: dq/dp below it is not compared (a driven mechanism's
 * positions do not depend on its masses), and differences count beyond it. */
static void check_sensitivities(sk_context *ctx, const sk_verify_multibody_job *job,
                                const sk_multibody_settings *s, const char *method,
                                const trace *tr, sk_verify_report *r)
{
  if (tr->np == 0) {
    return;
  }
  sk__verify_check *c = sk__verify_report_add(r, "sensitivities", "forward sensitivities");
  if (!c) {
    return;
  }
  const int n = tr->n;
  trace fd[2] = {{.n = n, .m = tr->m, .cap = tr->cap}, {.n = n, .m = tr->m, .cap = tr->cap}};
  double *times = calloc(tr->cap + 1, sizeof *times);
  double *qv = calloc(2 * (size_t)n + 1, sizeof *qv);
  for (int k = 0; k < 2; k++) {
    fd[k].q = calloc(tr->cap * (size_t)(n + tr->m) + 1, sizeof *fd[k].q);
    fd[k].lam = fd[k].q ? fd[k].q + tr->cap * (size_t)n : NULL;
  }
  double qmax = 0;
  for (size_t i = 0; i < tr->rows * (size_t)n; i++) {
    qmax = fmax(qmax, fabs(tr->q[i]));
  }
  const double ratio = job->atol / job->rtol;
  double worst_rel = 0, worst_digits = 16, rtol_used = job->rtol * 1e-3;
  size_t used = 0;
  int ok = times && qv && fd[0].q && fd[1].q;
  if (!ok) {
    snprintf(c->finding, sizeof c->finding,
             "the sensitivities could not be checked: out of memory");
  } else {
    times[0] = job->t0;
    memcpy(times + 1, job->times, job->ntimes * sizeof *times);
  }
  for (int j = 0; ok && j < tr->np; j++) {
    char name[80];
    sk_multibody_param_name(job->mechanism, tr->param[j], name, sizeof name);
    const double p = sk_multibody_get_param(job->mechanism, tr->param[j]), d = 1e-4 * tr->pbar[j];
    double rtol = job->rtol * 1e-3;
    sk_status st = fd_pair(job, s, method, tr->param[j], name, p, d, rtol, ratio, qv, fd);
    while (st != SK_OK && rtol < 0.5 * job->rtol) {
      rtol *= 10.0;
      st = fd_pair(job, s, method, tr->param[j], name, p, d, rtol, ratio, qv, fd);
    }
    if (st != SK_OK) {
      sk__verify_sens_fd_failed(ctx, c, name, p, d);
      ok = 0;
      break;
    }
    rtol_used = fmax(rtol_used, rtol);
    double digits;
    const double floor = 100.0 * rtol * fmax(qmax, 1.0) / (2.0 * d);
    const double rel = sk__verify_sens_compare(
        c, j, name, p, tr->pbar[j], d, tr->sens + (size_t)j * tr->cap * (size_t)n, fd[0].q,
        fd[1].q, times, tr->rows, n, (size_t)n, floor, &used, &digits);
    worst_rel = fmax(worst_rel, rel);
    worst_digits = fmin(worst_digits, digits);
  }
  if (ok) {
    sk__verify_sens_conclude(c, used, job->rtol, job->atol, rtol_used, tr->rows, worst_rel,
                             worst_digits);
  }
  free(times);
  free(qv);
  free(fd[0].q);
  free(fd[1].q);
}

sk_status sk_verify_multibody(sk_context *ctx, const sk_verify_multibody_job *job,
                              sk_verify_report **report)
{
  SK_CHECK(ctx,
           report && job && job->mechanism && job->options && job->method && job->q0 && job->v0 &&
               job->times && job->ntimes > 0 && job->rtol > 0 && job->atol > 0,
           SK_ERR_ARG,
           "sk_verify_multibody: a job with a mechanism, its options and engine, a consistent "
           "start, at least one output time and tolerances > 0 is required");
  *report = NULL;
  trace tr[2] = {{0}, {0}};
  sk_multibody_settings s[2];
  sk_multibody_report rep[2];
  const char *method[2] = {"", ""};
  memset(rep, 0, sizeof rep);
  sk_status st = SK_OK;
  for (int k = 0; st == SK_OK && k < 2; k++) {
    tr[k].n = sk_multibody_ncoords(job->mechanism);
    tr[k].m = sk_multibody_nconstraints(job->mechanism);
    tr[k].cap = job->ntimes + 1;
    tr[k].q = calloc(tr[k].cap * (size_t)(tr[k].n + tr[k].m) + 1, sizeof *tr[k].q);
    tr[k].lam = tr[k].q ? tr[k].q + tr[k].cap * (size_t)tr[k].n : NULL;
    st = tr[k].q ? run_one(ctx, job, k, &s[k], &tr[k], &rep[k], &method[k])
                 : SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the traces");
  }
  sk_verify_report *r = NULL;
  if (st == SK_OK) {
    st = sk__verify_report_create(ctx, NULL, 0, &r);
  }
  if (st == SK_OK) {
    const double bound = BOUND_FACTOR * job->rtol;
    const char *fa = sk_multibody_formulation_name(s[0].formulation);
    const char *fb = sk_multibody_formulation_name(s[1].formulation);
    snprintf(r->model, sizeof r->model, "mechanism (%d bodies)",
             sk_multibody_nbodies(job->mechanism));
    r->n = sk_multibody_ncoords(job->mechanism);
    snprintf(r->method, sizeof r->method, "%s vs %s", fa, fb);
    r->rtol = job->rtol;
    r->atol = job->atol;
    r->t0 = job->t0;
    r->t_last = job->times[job->ntimes - 1];
    r->ntimes = job->ntimes;
    /* positions relative to the mechanism's length, angles as they are */
    const double L = sk_multibody_length_scale(job->mechanism);
    double dq = 0.0, where = 0;
    for (size_t i = 0; i < tr[0].rows * (size_t)tr[0].n; i++) {
      const double e = fabs(tr[0].q[i] - tr[1].q[i]) / (i % 3 == 2 ? 1.0 : L);
      if (e > dq) {
        dq = e;
        where = (double)i;
      }
    }
    sk__verify_check *c =
        sk__verify_report_add(r, "formulations_positions", "positions of two formulations");
    if (c) {
      c->independent = s[0].formulation != s[1].formulation;
      c->verdict = dq <= bound ? SK_VERIFY_PASS : SK_VERIFY_FAIL;
      char cname[64];
      sk_multibody_coord_name(job->mechanism, (int)((size_t)where % (size_t)tr[0].n), cname,
                              sizeof cname);
      snprintf(c->finding, sizeof c->finding,
               "%s (%s) and %s (%s) agree on every coordinate at all %zu outputs to %.3e "
               "(max |q_a - q_b|, positions over the length scale %.3g, largest in %s); the "
               "bound is %g rtol = %.3e",
               fa, method[0], fb, method[1], tr[0].rows, dq, L, cname, BOUND_FACTOR, bound);
      sk__verify_check_num(c, "max_rel_difference", dq);
      sk__verify_check_num(c, "bound", bound);
    }
    const double dl = max_rel(tr[0].lam, tr[1].lam, tr[0].rows * (size_t)tr[0].m, &where);
    c = sk__verify_report_add(r, "formulations_reactions", "reaction forces (multipliers)");
    if (c) {
      c->independent = s[0].formulation != s[1].formulation;
      const double rbound = REACTION_FACTOR * job->rtol;
      c->verdict = dl <= rbound ? SK_VERIFY_PASS : SK_VERIFY_FAIL;
      char rname[64] = "-";
      if (tr[0].m > 0) {
        sk_multibody_row_name(job->mechanism, (int)((size_t)where % (size_t)tr[0].m), rname,
                              sizeof rname);
      }
      snprintf(c->finding, sizeof c->finding,
               "joint reactions and driver efforts from the multipliers agree to %.3e "
               "(max |lambda_a - lambda_b| / (1 + max |lambda|), largest in %s); the bound is "
               "%g rtol = %.3e",
               dl, rname, REACTION_FACTOR, rbound);
      sk__verify_check_num(c, "max_rel_difference", dl);
    }
    for (int k = 0; k < 2; k++) {
      c = sk__verify_report_add(r, k ? "drift_compare" : "drift",
                                k ? "constraint drift (compared formulation)"
                                  : "constraint drift");
      if (c) {
        /* positions over the length scale, velocities over length / duration */
        const double drift = fmax(rep[k].phi_max / L,
                                  rep[k].dphi_max * (job->times[job->ntimes - 1] - job->t0) / L);
        c->verdict = drift <= bound ? SK_VERIFY_PASS : SK_VERIFY_FAIL;
        snprintf(c->finding, sizeof c->finding,
                 "%s: max |Phi| %.3e (RMS %.3e), max |G v + Phi_t| %.3e over the outputs, "
                 "%.3e relative to the length scale%s; the bound is %.3e",
                 k ? fb : fa, rep[k].phi_max, rep[k].phi_rms, rep[k].dphi_max, drift,
                 s[k].formulation == SK_MULTIBODY_INDEX1 && s[k].alpha == 0 && s[k].beta == 0
                     ? " (index 1 without stabilization or projection drifts by design)"
                     : "",
                 bound);
        sk__verify_check_num(c, "phi_max", rep[k].phi_max);
        sk__verify_check_num(c, "dphi_max", rep[k].dphi_max);
      }
    }
    c = sk__verify_report_add(r, "energy_balance", "energy balance E - E0 = W");
    if (c) {
      c->independent = 1;
      c->verdict = rep[0].balance_max <= bound ? SK_VERIFY_PASS : SK_VERIFY_FAIL;
      snprintf(c->finding, sizeof c->finding,
               "%s: the kinetic and potential energy change matches the integrated power of the "
               "applied forces and drivers to %.3e (max |E - E0 - W| over the energies in play, "
               "%.3e); the bound is %.3e",
               fa, rep[0].balance_max, rep[0].energy_scale, bound);
      sk__verify_check_num(c, "balance_max", rep[0].balance_max);
    }
    check_sensitivities(ctx, job, &s[0], method[0], &tr[0], r);
    sk__verify_report_conclude(r);
  }
  free(tr[0].q);
  free(tr[1].q);
  free(tr[0].sens);
  free(tr[1].sens);
  *report = r;
  return st;
}

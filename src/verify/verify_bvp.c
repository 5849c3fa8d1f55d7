/* src/verify/verify_bvp.c: verifying a boundary-value problem: finite differences against multiple shooting at the same points, the Richardson estimate, and the exact solution when given */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "verify/verify_report.h"

/* Agreement within this multiple of bvp.tol passes (each method aims at tol). */
#define AGREE_FACTOR 10.0

typedef struct {
  sk_bvp_settings fd, ms;
  sk_bvp_report rfd, rms;
  sk_bvp_solution sfd, sms;
} bvp_pair;

/* Largest |u - v| / (1 + |v|) over the common points, and where. */
static double max_rel_diff(const sk_bvp_solution *u, const sk_bvp_solution *v, double *where,
                           int *comp)
{
  double worst = 0.0;
  *where = u->x[0];
  *comp = 0;
  for (int64_t i = 0; i < u->n; i++) {
    for (int c = 0; c < u->d; c++) {
      const double e =
          fabs(u->y[u->d * i + c] - v->y[v->d * i + c]) / (1.0 + fabs(v->y[v->d * i + c]));
      if (e > worst) {
        worst = e;
        *where = u->x[i];
        *comp = c;
      }
    }
  }
  return worst;
}

static sk_status solve_pair(sk_context *ctx, sk_bvp *bvp, bvp_pair *p)
{
  p->fd.method = SK_BVP_FD;
  SK_CALL(ctx, sk_bvp_solve(ctx, bvp, &p->fd, &p->sfd, &p->rfd));
  p->ms.method = SK_BVP_MULTIPLE_SHOOTING;
  p->ms.output_x = p->sfd.x; /* the finite-difference mesh */
  p->ms.n_output_x = p->sfd.n;
  SK_CALL(ctx, sk_bvp_solve(ctx, bvp, &p->ms, &p->sms, &p->rms));
  return SK_OK;
}

static void fill_report(sk_bvp *bvp, const bvp_pair *p, sk_verify_report *r)
{
  const double tol = p->fd.tol;
  snprintf(r->model, sizeof r->model, "bvp (%d equations)", sk_bvp_get_dim(bvp));
  r->n = p->sfd.n * sk_bvp_get_dim(bvp);
  snprintf(r->method, sizeof r->method, "fd vs multiple-shooting");
  r->rtol = tol;
  r->atol = tol;
  sk_bvp_get_interval(bvp, &r->t0, &r->t_last);
  r->ntimes = (size_t)p->sfd.n;

  sk__verify_check *c = sk__verify_report_add(r, "fd_vs_multiple_shooting",
                                              "finite differences against multiple shooting");
  if (c) {
    double where;
    int comp;
    const double diff = max_rel_diff(&p->sfd, &p->sms, &where, &comp);
    c->independent = 1;
    c->verdict = diff <= AGREE_FACTOR * tol ? SK_VERIFY_PASS : SK_VERIFY_FAIL;
    snprintf(c->finding, sizeof c->finding,
             "the box scheme on %lld points (Newton on the whole mesh) and multiple shooting "
             "with %lld nodes (CVODE on each subinterval) agree to %.3e (max |y_fd - y_ms| / "
             "(1 + |y|), largest in %s at x = %g); the bound is %g tol = %.3e",
             (long long)p->sfd.n, (long long)p->rms.points, diff,
             sk_bvp_get_component_name(bvp, comp), where, AGREE_FACTOR, AGREE_FACTOR * tol);
    sk__verify_check_num(c, "max_rel_difference", diff);
    sk__verify_check_num(c, "x_of_max", where);
    sk__verify_check_num(c, "bound", AGREE_FACTOR * tol);
  }
  c = sk__verify_report_add(r, "richardson_estimate", "finite-difference error estimate");
  if (c) {
    c->verdict = p->rfd.error_estimate < 0      ? SK_VERIFY_NOT_VERIFIED
                 : p->rfd.error_estimate <= tol ? SK_VERIFY_PASS
                                                : SK_VERIFY_FAIL;
    snprintf(c->finding, sizeof c->finding,
             p->rfd.error_estimate < 0
                 ? "no estimate: bvp.mesh.estimate is off (%.0e, tol %.3e, %d refinements)"
                 : "Richardson estimate from the mesh and its bisection: %.3e against bvp.tol = "
                   "%.3e after %d refinements (an estimate, not an independent check)",
             p->rfd.error_estimate, tol, p->rfd.refinements);
    sk__verify_check_num(c, "estimate", p->rfd.error_estimate);
    sk__verify_check_num(c, "refinements", p->rfd.refinements);
  }
  c = sk__verify_report_add(r, "residuals", "Newton residuals, recomputed at the answers");
  if (c) {
    c->verdict = p->rfd.converged && p->rms.converged ? SK_VERIFY_PASS : SK_VERIFY_FAIL;
    snprintf(c->finding, sizeof c->finding,
             "finite differences %.3e (largest in %s), multiple shooting %.3e (largest in %s); "
             "shooting sensitivity max ||dy(x_k+1)/dy(x_k)|| = %.3e",
             p->rfd.residual, p->rfd.worst, p->rms.residual, p->rms.worst, p->rms.sensitivity);
    sk__verify_check_num(c, "fd_residual", p->rfd.residual);
    sk__verify_check_num(c, "ms_residual", p->rms.residual);
    sk__verify_check_num(c, "ms_sensitivity", p->rms.sensitivity);
  }
  if (sk_bvp_has_exact(bvp)) {
    c = sk__verify_report_add(r, "exact_solution", "against the exact solution (bvp.exact)");
    if (c) {
      c->independent = 1;
      const double e = fmax(p->rfd.error_exact, p->rms.error_exact);
      c->verdict = e <= AGREE_FACTOR * tol ? SK_VERIFY_PASS : SK_VERIFY_FAIL;
      snprintf(c->finding, sizeof c->finding,
               "max |y - y_exact| / (1 + |y_exact|): finite differences %.3e, multiple shooting "
               "%.3e; the bound is %g tol = %.3e",
               p->rfd.error_exact, p->rms.error_exact, AGREE_FACTOR, AGREE_FACTOR * tol);
      sk__verify_check_num(c, "fd_error", p->rfd.error_exact);
      sk__verify_check_num(c, "ms_error", p->rms.error_exact);
    }
  }
}

sk_status sk_verify_bvp(sk_context *ctx, sk_bvp *bvp, const sk_bvp_settings *settings,
                        sk_verify_report **report)
{
  SK_CHECK(ctx, report != NULL && bvp != NULL && settings != NULL, SK_ERR_ARG,
           "sk_verify_bvp: a problem, its settings and a report pointer are required");
  *report = NULL;
  bvp_pair p;
  memset(&p, 0, sizeof p);
  p.fd = *settings;
  p.ms = *settings;
  sk_verify_report *r = NULL;
  sk_status st = solve_pair(ctx, bvp, &p);
  if (st == SK_OK) {
    st = sk__verify_report_create(ctx, NULL, 0, &r);
  }
  if (st == SK_OK) {
    fill_report(bvp, &p, r);
    sk__verify_report_conclude(r);
  }
  sk_bvp_solution_free(&p.sfd);
  sk_bvp_solution_free(&p.sms);
  *report = r;
  return st;
}

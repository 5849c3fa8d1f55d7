/* src/core/jacobian_selftest.c: refuse a run whose analytic Jacobian disagrees with finite differences */
#include <stdio.h>

#include "core/error.h"
#include "core/jacobian_check.h"
#include "core/jacobian_selftest.h"
#include "core/model_impl.h"

sk_status sk__jacobian_selftest(sk_model *m, double t, const double *y)
{
  if (!sk__model_has_analytic_jac(m)) {
    return SK_OK;
  }
  sk_context *ctx = m->ctx;
  sk__jac_check_result res;
  SK_CALL(ctx, sk__jacobian_check(m, t, y, SK__JAC_SELFTEST_FULL_MAX, SK__JAC_SELFTEST_SAMPLE,
                                  SK__JAC_SELFTEST_SEED, &res));
  if (res.rel_err <= SK__JAC_SELFTEST_TOL && res.outside_pattern == 0) {
    return SK_OK;
  }
  char worst[700];
  size_t used = 0;
  worst[0] = '\0';
  for (int k = 0; k < res.nworst && k < 3 && used < sizeof worst; k++) {
    const sk__jac_entry *e = &res.worst[k];
    char ri[64], cj[64];
    sk_model_component_name(m, e->row, ri, sizeof ri);
    sk_model_component_name(m, e->col, cj, sizeof cj);
    const int w = snprintf(worst + used, sizeof worst - used,
                           "%s(row %lld %s, column %lld %s): analytic %.6g, FD %.6g%s",
                           k ? "; " : "", (long long)e->row, ri, (long long)e->col, cj,
                           e->analytic, e->fd,
                           e->analytic == 0.0 ? " (outside the declared pattern)" : "");
    used += w > 0 ? (size_t)w : 0;
  }
  return SK_ERROR(ctx, SK_ERR_INPUT,
                  "model '%s': the Jacobian self-test failed at t=%.6e: ||J - J_fd||/||J|| = "
                  "%.3e (limit %.0e), %lld RHS dependence(s) outside the pattern, over %s%lld "
                  "columns; worst entries: %s. Fix the Jacobian (or its pattern), or set "
                  "solver.check_jacobian=false to run anyway",
                  m->name, t, res.rel_err, SK__JAC_SELFTEST_TOL, (long long)res.outside_pattern,
                  res.sampled ? "a sample of " : "", (long long)res.ncols, worst);
}

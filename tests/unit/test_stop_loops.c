/* tests/unit/test_stop_loops.c: a pending stop request ends the long loops of model building (the grid's pattern, built on first use), coloring, pattern detection and the Jacobian check with SK_INTERRUPTED, naming the phase, with nothing leaked */
#include <signal.h>
#include <stdlib.h>

#include "core/jacobian_check.h"
#include "core/coloring.h"
#include "core/model_impl.h"
#include "stiffkit/diffusion.h"
#include "test.h"

static volatile sig_atomic_t stop_flag = 0;

/* The status of `st` is SK_INTERRUPTED and the error record names `phase`. */
static void expect_stopped(sk_context *ctx, sk_status st, const char *phase)
{
  CHECK_EQ_INT(st, SK_INTERRUPTED);
  const char *msg = sk_context_get_error(ctx)->message;
  CHECK_STR_CONTAINS(msg, "stopped by signal 15 while");
  CHECK_STR_CONTAINS(msg, phase);
  sk_context_clear_error(ctx);
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  sk_context_set_stop_flag(ctx, &stop_flag);
  /* a 2D grid of 300 x 300 nodes: every loop runs past its first stop check */
  sk_diffusion_params p;
  sk_diffusion_params_default(&p);
  p.n[0] = p.n[1] = 300;

  /* model building: the grid's pattern loop, run on the pattern's first use (a stop there
     leaves no pattern, and the next use builds it) */
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_diffusion_create(ctx, &p, &m));
  stop_flag = SIGTERM;
  expect_stopped(ctx, sk__model_pattern(m), "building the model");
  stop_flag = 0;
  CHECK_OK(ctx, sk__model_pattern(m));

  const int64_t n = sk_model_get_n(m);
  const int64_t *cp, *ri;
  int64_t nnz, nc = 0;
  sk_model_get_jac_pattern(m, &cp, &ri, &nnz);
  int64_t *color = calloc((size_t)n, sizeof *color);
  double *y = calloc((size_t)n, sizeof *y);
  CHECK(color != NULL && y != NULL);
  CHECK_OK(ctx, sk_model_eval_initial(m, 0.0, y));

  /* coloring: stopped, then complete once the request is gone */
  stop_flag = SIGTERM;
  expect_stopped(ctx, sk__csc_color_columns(ctx, n, cp, ri, color, &nc), "coloring");
  stop_flag = 0;
  CHECK_OK(ctx, sk__csc_color_columns(ctx, n, cp, ri, color, &nc));
  CHECK(sk__csc_coloring_valid(ctx, n, cp, ri, color));

  /* the Jacobian check of the solver setup */
  sk__jac_check_result res;
  stop_flag = SIGTERM;
  expect_stopped(ctx, sk__jacobian_check(m, 0.0, y, 100, 50, 1, &res), "checking the Jacobian");

  /* pattern detection: the model keeps its pattern */
  expect_stopped(ctx, sk_model_detect_pattern(m, 0.0, y, 1), "detecting the Jacobian pattern");
  int64_t nnz_after;
  sk_model_get_jac_pattern(m, &cp, &ri, &nnz_after);
  CHECK_EQ_INT(nnz_after, nnz);
  stop_flag = 0;

  free(color);
  free(y);
  sk_model_destroy(&m);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

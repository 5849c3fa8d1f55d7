/* tests/mpi/test_dist_options.c: the checks of a distributed run's options without MPI ranks: decomposition messages, automatic choice, refusals */
#include "parallel/dist_impl.h"
#include "mpi_util.h"

static sk_status check(sk_context *ctx, int nranks, const char *const *set)
{
  sk_options *o = mpi_opts(ctx, set);
  const sk_status st = sk__dist_check_options(ctx, o, nranks);
  sk_options_destroy(&o);
  return st;
}

static const char *msg(sk_context *ctx)
{
  return sk_context_get_error(ctx)->message;
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));

  /* [3, 1] does not divide 100 in x; for 3 ranks [1, 3] and [3, 1] both fail, so none fits */
  const char *bad[] = {"model.n=100", "parallel.decomposition=3,1", NULL};
  CHECK_EQ_INT(check(ctx, 3, bad), SK_ERR_INPUT);
  CHECK_STR_CONTAINS(msg(ctx),
                     "parallel.decomposition = [3, 1] does not divide model.n = [100, 100]");
  CHECK_STR_CONTAINS(msg(ctx), "100 nodes in x over 3 ranks");
  /* with 4 ranks: the fitting grids are [1, 4], [2, 2], [4, 1] (4 divides 100) */
  const char *bad4[] = {"model.n=100", "parallel.decomposition=3,1", NULL};
  CHECK_EQ_INT(check(ctx, 4, bad4), SK_ERR_INPUT);
  CHECK_STR_CONTAINS(msg(ctx), "would fit: [1, 4], [2, 2], [4, 1]");
  /* product != ranks */
  const char *prod[] = {"model.n=100", "parallel.decomposition=2,2", NULL};
  CHECK_EQ_INT(check(ctx, 2, prod), SK_ERR_INPUT);
  CHECK_STR_CONTAINS(msg(ctx), "has 4 blocks but the run has 2 ranks");
  CHECK_STR_CONTAINS(msg(ctx), "[1, 2], [2, 1]");
  /* wrong number of values */
  const char *nv[] = {"model.n=100", "parallel.decomposition=2", NULL};
  CHECK_EQ_INT(check(ctx, 2, nv), SK_ERR_INPUT);
  CHECK_STR_CONTAINS(msg(ctx), "parallel.decomposition has 1 values but model.dim = 2");
  /* more ranks than blocks: 2 x 2 nodes, 5 ranks; rank counts 4, 2, 1 fit */
  const char *tiny[] = {"model.n=2", NULL};
  CHECK_EQ_INT(check(ctx, 5, tiny), SK_ERR_INPUT);
  CHECK_STR_CONTAINS(msg(ctx), "more ranks than grid blocks");
  CHECK_STR_CONTAINS(msg(ctx), "would fit: 4, 2, 1");
  /* 7 ranks on 100 x 100: 7 divides neither direction */
  const char *seven[] = {"model.n=100", NULL};
  CHECK_EQ_INT(check(ctx, 7, seven), SK_ERR_INPUT);
  CHECK_STR_CONTAINS(msg(ctx), "no process grid of 7 ranks divides model.n = [100, 100]");

  /* the automatic choice divides the grid and is the most compact one */
  int p[3];
  const int64_t n2[3] = {100, 60, 1};
  CHECK(sk__dist_choose_grid(4, 2, n2, p));
  CHECK_EQ_INT(p[0], 2);
  CHECK_EQ_INT(p[1], 2);
  CHECK_EQ_INT(p[2], 1);
  const int64_t n3[3] = {9, 8, 8};
  CHECK(sk__dist_choose_grid(8, 3, n3, p)); /* 9 is odd: [1, 2, 4] or [1, 4, 2] */
  CHECK_EQ_INT(p[0], 1);
  CHECK_EQ_INT(p[0] * p[1] * p[2], 8);
  CHECK_EQ_INT(n3[1] % p[1] + n3[2] % p[2], 0);
  const int64_t n1[3] = {7, 1, 1};
  CHECK(!sk__dist_choose_grid(2, 1, n1, p));
  const char *ok[] = {"model.n=16,12", "model.dim=2", NULL};
  CHECK_OK(ctx, check(ctx, 4, ok));
  CHECK_OK(ctx, check(ctx, 1, ok));
  const char *okb[] = {"model.type=brusselator", "model.n=16", NULL};
  CHECK_OK(ctx, check(ctx, 4, okb));

  /* every side type and the manufactured solution run distributed (the block kernel is the
     serial stencil: tests/mpi/test_dist_halo.c) */
  const char *neu[] = {"model.bc.y1.type=neumann", "model.exact=none", "model.ic=constant", NULL};
  CHECK_OK(ctx, check(ctx, 2, neu));
  const char *rob[] = {"model.bc.x0.type=robin", "model.exact=none", "model.ic=constant", NULL};
  CHECK_OK(ctx, check(ctx, 2, rob));
  const char *mms[] = {"model.exact=manufactured", NULL};
  CHECK_OK(ctx, check(ctx, 2, mms));

  /* refusals name the key */
  const char *meth[] = {"solver.method=rk45", NULL};
  CHECK_EQ_INT(check(ctx, 2, meth), SK_ERR_UNSUPPORTED);
  CHECK_STR_CONTAINS(msg(ctx), "solver.method = rk45");
  const char *klu[] = {"linsol.type=klu", NULL};
  CHECK_EQ_INT(check(ctx, 2, klu), SK_ERR_UNSUPPORTED);
  CHECK_STR_CONTAINS(msg(ctx), "linsol.type = klu");
  const char *typ[] = {"model.type=problem", NULL};
  CHECK_EQ_INT(check(ctx, 2, typ), SK_ERR_UNSUPPORTED);
  CHECK_STR_CONTAINS(msg(ctx), "model.type = problem");
  CHECK_STR_CONTAINS(msg(ctx),
                     "distributed runs support the grid models diffusion and brusselator");
  /* the serial model's own checks still apply (mode with beta != 0) */
  const char *beta[] = {"model.beta=0.5", NULL};
  CHECK_EQ_INT(check(ctx, 2, beta), SK_ERR_INPUT);
  CHECK_STR_CONTAINS(msg(ctx), "model.beta");

  /* the preconditioner each choice resolves to: auto takes the structured multigrid on a
   * grid of 5e4 states or more where the build has it (else the model's own: the registry's
   * rule, linsol/linsol_types.h), model takes amg for diffusion and bbd for the Brusselator */
  const int mg = sk__mg_available() == NULL;
  const struct {
    const char *type, *n, *pc, *want;
  } res[] = {{"diffusion", "model.n=256", "auto", mg ? "mg" : "amg"},
             {"brusselator", "model.n=160", "auto", mg ? "mg" : "bbd"},
             {"diffusion", "model.n=16", "auto", "amg"},
             {"brusselator", "model.n=16", "auto", "bbd"},
             {"diffusion", "model.n=256", "model", "amg"},
             {"brusselator", "model.n=160", "model", "bbd"},
             {"brusselator", "model.n=16", "mg", "mg"},
             {"diffusion", "model.n=16", "none", "none"}};
  for (size_t k = 0; k < sizeof res / sizeof res[0]; k++) {
    char type[64], pc[64];
    snprintf(type, sizeof type, "model.type=%s", res[k].type);
    snprintf(pc, sizeof pc, "linsol.preconditioner=%s", res[k].pc);
    const char *set[] = {type, res[k].n, pc, NULL};
    sk_options *o = mpi_opts(ctx, set);
    sk__dist_settings s;
    CHECK_OK(ctx, sk__dist_read_settings(ctx, o, 2, &s));
    CHECK_STR_CONTAINS(s.prec, res[k].want);
    CHECK_EQ_INT((int)strlen(s.prec), (int)strlen(res[k].want));
    sk_options_destroy(&o);
  }
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

/* tests/mpi/mpi_util.h: helpers of the MPI tests: an options database with every table a distributed run reads, the all-rank verdict */
#ifndef SK_TEST_MPI_UTIL_H
#define SK_TEST_MPI_UTIL_H

#include <mpi.h>

#include "parallel/dist.h"
#include "test.h"

/* The options of a distributed run, then the "key=value" assignments (NULL-terminated). */
static inline sk_options *mpi_opts(sk_context *ctx, const char *const *set)
{
  sk_options *o = NULL;
  size_t n = 0;
  const sk_option_spec *t;
  CHECK_OK(ctx, sk_options_create(ctx, &o));
  t = sk_stepper_options(&n);
  CHECK_OK(ctx, sk_options_register(o, t, n));
  CHECK_OK(ctx, sk_model_register_options(o));
  t = sk__parallel_options(&n);
  CHECK_OK(ctx, sk_options_register(o, t, n));
  for (size_t i = 0; set && set[i]; i++) {
    CHECK_OK(ctx, sk_options_set_assignment(o, set[i]));
  }
  return o;
}

/* A distributed run of the options of mpi_opts(set) into *o; NULL (after a
 * failed check, with *o destroyed) when it cannot be created. */
static inline sk__dist *mpi_dist(sk_context *ctx, const char *const *set, sk_options **o)
{
  *o = mpi_opts(ctx, set);
  sk__dist *d = NULL;
  CHECK_OK(ctx, sk__dist_create(ctx, MPI_COMM_WORLD, *o, &d));
  if (!d) {
    sk_options_destroy(o);
  }
  return d;
}

/* Deterministic values in [0, 1). */
static inline double mpi_rnd(unsigned long long *s)
{
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(*s >> 11) / 9007199254740992.0;
}

/* The exit code of this rank: 1 when any rank had a failed check. */
static inline int mpi_verdict(void)
{
  int f = sk_test_failures;
  MPI_Allreduce(MPI_IN_PLACE, &f, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (f) {
    if (rank == 0) {
      fprintf(stderr, "%d check(s) failed over all ranks\n", f);
    }
    return 1;
  }
  if (rank == 0) {
    printf("all checks passed\n");
  }
  return 0;
}

#endif

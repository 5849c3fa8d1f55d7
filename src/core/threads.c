/* src/core/threads.c: OpenMP thread count, the work threshold of threaded kernels, thread facts for provenance */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#ifdef SK_HAVE_OPENMP
#include <omp.h>
#endif

#include "core/error.h"
#include "core/threads.h"

int sk__threads_openmp(void)
{
#ifdef SK_HAVE_OPENMP
  return 1;
#else
  return 0;
#endif
}

int sk__threads_max(void)
{
#ifdef SK_HAVE_OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

int sk__threads_num_procs(void)
{
#ifdef SK_HAVE_OPENMP
  return omp_get_num_procs();
#else
  const long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)n : 1;
#endif
}

int sk__thread_id(void)
{
#ifdef SK_HAVE_OPENMP
  return omp_get_thread_num();
#else
  return 0;
#endif
}

/* Processors busy with other work: the larger of the one-minute load
 * average (rounded) and the runnable tasks other than this one, both from
 * /proc/loadavg ("0.52 0.40 0.30 3/250 12345"); 0 when unreadable. */
static int busy_processors(void)
{
  FILE *f = fopen("/proc/loadavg", "r");
  if (!f) {
    return 0;
  }
  double load1 = 0;
  int running = 0, total = 0;
  const int got = fscanf(f, "%lf %*f %*f %d/%d", &load1, &running, &total);
  fclose(f);
  if (got != 3 || !(load1 >= 0) || load1 > 1e6) {
    return 0;
  }
  const int from_load = (int)(load1 + 0.5);
  const int from_running = running > 1 ? running - 1 : 0;
  return from_load > from_running ? from_load : from_running;
}

int sk__threads_auto(void)
{
  const int procs = sk__threads_num_procs();
  const int free_procs = procs - busy_processors();
  return free_procs < 1 ? 1 : free_procs;
}

sk_status sk__threads_set(sk_context *ctx, int64_t n)
{
  SK_CHECK(ctx, n >= 0 && n <= 4096, SK_ERR_INPUT,
           "solver.threads = %lld: must be 0 (auto) or a thread count up to 4096", (long long)n);
#ifdef SK_HAVE_OPENMP
  if (n > 0) {
    omp_set_num_threads((int)n);
  } else if (!getenv("OMP_NUM_THREADS")) {
    omp_set_num_threads(sk__threads_auto());
  }
#else
  SK_CHECK(ctx, n <= 1, SK_ERR_INPUT,
           "solver.threads = %lld: this stiffkit was built with SK_OPENMP=OFF (serial "
           "kernels only); use 0 or 1, or rebuild with -DSK_OPENMP=ON",
           (long long)n);
#endif
  return SK_OK;
}

int sk__threaded(int64_t work)
{
#ifdef SK_HAVE_OPENMP
  return work >= SK__THREAD_MIN_WORK && omp_get_max_threads() > 1 && !omp_in_parallel();
#else
  (void)work;
  return 0;
#endif
}

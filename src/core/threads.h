/* src/core/threads.h: OpenMP thread count, the work threshold of threaded kernels, thread facts for provenance */
#ifndef SK_CORE_THREADS_H
#define SK_CORE_THREADS_H

#include <stdint.h>

#include "stiffkit/context.h"

/* Threaded kernels split a loop only when it has at least this many items
 * (below it the cost of waking the team exceeds the gain). */
#define SK__THREAD_MIN_WORK 32768

/* SK__OMP(directive): `#pragma omp directive` in an OpenMP build, nothing
 * otherwise (a serial build with -Wall must not see unknown pragmas), e.g.
 * SK__OMP(parallel for if(parallel: sk__threaded(n)) reduction(| : bad)). */
#define SK__OMP_STR(...) #__VA_ARGS__
#ifdef SK_HAVE_OPENMP
#define SK__OMP(...) _Pragma(SK__OMP_STR(omp __VA_ARGS__))
#else
#define SK__OMP(...)
#endif

/* sk__threads_openmp: 1 when the library was built with SK_OPENMP=ON. */
int sk__threads_openmp(void);

/* sk__threads_max: the number of threads the next parallel region of the
 * calling thread would use (omp_get_max_threads); 1 in a serial build. */
int sk__threads_max(void);

/* sk__threads_num_procs: processors available to the process
 * (omp_get_num_procs, or sysconf in a serial build); at least 1. */
int sk__threads_num_procs(void);

/* sk__thread_id: the calling thread's number in its team (0 outside a
 * parallel region and in a serial build). */
int sk__thread_id(void);

/* sk__threads_set: n > 0 sets the thread count of later parallel regions
 * of the calling thread (omp_set_num_threads); n == 0 (auto) leaves
 * OMP_NUM_THREADS in charge when it is set, else sets sk__threads_auto().
 * Errors: SK_ERR_INPUT for n < 0, and for n > 1 in a build without OpenMP
 * (the message names solver.threads and SK_OPENMP=OFF). */
sk_status sk__threads_set(sk_context *ctx, int64_t n);

/* sk__threads_auto: the processors not already busy (the processors
 * available minus the larger of the rounded one-minute load average and
 * the other runnable tasks of /proc/loadavg), at least 1: on a shared node
 * threads would wait for each other behind the other work. */
int sk__threads_auto(void);

/* sk__threaded: nonzero when a loop of `work` items should be split among
 * threads: work >= SK__THREAD_MIN_WORK, more than one thread is available
 * and the caller is not already in a parallel region (no nesting). For `#pragma omp parallel for if(parallel: sk__threaded(n))`. */
int sk__threaded(int64_t work);

#endif

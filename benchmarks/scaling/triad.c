/* benchmarks/scaling/triad.c: STREAM-like triad a = b + s c (arrays far larger than cache) with 1 and 2 OpenMP threads, best of several repetitions, in GB/s */
#define _POSIX_C_SOURCE 200809L
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* usage: triad [n (default 2e7 doubles per array = 160 MB each)] [reps (default 10)]
 * Bytes counted per element: 3 x 8 (read b, read c, write a; write-allocate
 * traffic not counted, as in STREAM). Pages are first touched by the
 * threads that use them (static schedule). */

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double triad_gbs(double *a, const double *b, const double *c, long n, int reps)
{
  double best = 1e300;
  const double s = 3.0;
  for (int r = 0; r < reps; r++) {
    const double t0 = now();
#pragma omp parallel for simd schedule(static)
    for (long i = 0; i < n; i++) {
      a[i] = b[i] + s * c[i];
    }
    const double dt = now() - t0;
    best = dt < best ? dt : best;
  }
  return 24.0 * (double)n / best / 1e9;
}

int main(int argc, char **argv)
{
  const long n = argc > 1 ? atol(argv[1]) : 20000000L;
  const int reps = argc > 2 ? atoi(argv[2]) : 10;
  double *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
  double *c = malloc((size_t)n * sizeof *c);
  if (!a || !b || !c || n < 1 || reps < 1) {
    fprintf(stderr, "triad: cannot allocate 3 x %ld doubles\n", n);
    return 1;
  }
  omp_set_num_threads(2);
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; i++) {
    a[i] = 0.0;
    b[i] = 1.0 + (double)(i % 7);
    c[i] = 0.5;
  }
  double gbs[3] = {0, 0, 0};
  for (int round = 0; round < 2; round++) { /* interleaved: 1, 2, 1, 2 (noise hits both) */
    for (int t = 1; t <= 2; t++) {
      omp_set_num_threads(t);
      const double g = triad_gbs(a, b, c, n, reps);
      gbs[t] = g > gbs[t] ? g : gbs[t];
    }
  }
  printf("triad n=%ld doubles x 3 arrays (%.0f MB), best of %d x 2 rounds\n", n,
         24.0 * (double)n / 1e6, reps);
  printf("threads 1: %.2f GB/s\n", gbs[1]);
  printf("threads 2: %.2f GB/s\n", gbs[2]);
  printf("bandwidth speedup 2/1: %.2f\n", gbs[2] / gbs[1]);
  const int never = a[n / 2] == -1.0; /* keeps the stores alive */
  free(a);
  free(b);
  free(c);
  return never;
}

/* benchmarks/mpi/triad_mpi.c: STREAM-like triad a = b + s c on every MPI rank at once; the aggregate GB/s bounds bandwidth-bound speedups */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* usage: mpiexec -n K triad_mpi [TOTAL_MB]: the arrays of TOTAL_MB (default 768) in all are
 * split over the ranks (strong scaling, as the grid runs); the best of 10 synchronized
 * repetitions is reported as the aggregate bandwidth (3 arrays x 8 bytes per entry moved;
 * STREAM counts the write-allocate traffic of a the same way, i.e. not at all). */
int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const double total_mb = argc > 1 ? atof(argv[1]) : 768.0;
  const long n = (long)(total_mb * 1e6 / 24.0 / size);
  double *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
  double *c = malloc((size_t)n * sizeof *c);
  if (!a || !b || !c) {
    fprintf(stderr, "triad_mpi: cannot allocate %ld entries\n", n);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  for (long i = 0; i < n; i++) {
    a[i] = 0.0;
    b[i] = 1.0 + (double)(i % 7);
    c[i] = 2.0;
  }
  double best = 1e30;
  for (int rep = 0; rep < 10; rep++) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    for (long i = 0; i < n; i++) {
      a[i] = b[i] + 3.0 * c[i];
    }
    MPI_Barrier(MPI_COMM_WORLD);
    const double dt = MPI_Wtime() - t0;
    best = dt < best ? dt : best;
  }
  double check = a[n / 2], sum;
  MPI_Reduce(&check, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("ranks %d  total %.0f MB  best %.4f s  aggregate %.1f GB/s  (check %g)\n", size,
           total_mb, best, 24.0 * (double)n * size / best / 1e9, sum);
  }
  free(a);
  free(b);
  free(c);
  MPI_Finalize();
  return 0;
}

/* benchmarks/bench_klu_ordering.c: KLU with AMD vs METIS nested dissection (and UMFPACK) on one implicit heat-equation step matrix */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, CLOCK_MONOTONIC under -std=c11 */
/*
 * Matrix: A = I - g L, L the 5-point Dirichlet Laplacian on an N x N grid of
 * interior nodes, h = 1/(N+1), g = 1e-3 (one backward Euler / BDF step of
 * u_t = lap u on the unit square). Unknown k = i + N j; b = A x_true with
 * x_true_k = sin(k).
 *
 * For each N and each ordering it times, with CLOCK_MONOTONIC:
 *   analyze   klu_l_analyze (BTF + ordering + symbolic)     | umfpack_dl_symbolic
 *   factor    klu_l_factor                                  | umfpack_dl_numeric
 *   refactor  klu_l_refactor on values with g' = 1.01 g     | umfpack_dl_numeric again
 *   solve     klu_l_solve, one right-hand side              | umfpack_dl_solve (UMFPACK_A,
 *                                                             default iterative refinement)
 * and reports nnz(L+U) per row (diagonal counted once: lnz + unz - n, plus
 * KLU's off-diagonal block entries nzoff), the peak memory (KLU:
 * Common.mempeak, which for the METIS case includes the ordering's own
 * workspace but not METIS' internal memory; UMFPACK: Info[PEAK_MEMORY]) and
 * the relative residual ||A x - b||_2 / ||b||_2 of the refactored matrix.
 *
 * Usage: bench_klu_ordering [--no-umfpack] [N ...]   (default N: 316 1000)
 * Output: CSV on stdout,
 *   n,ordering,analyze_s,factor_s,refactor_s,solve_s,lu_nnz_per_row,mempeak_mib,relres
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <klu.h>
#include <umfpack.h>

#include "linsol/linsol.h"

#define G_STEP 1e-3

typedef struct {
  SuiteSparse_long n;
  SuiteSparse_long *ap;
  SuiteSparse_long *ai;
  double *ax;  /* values with g */
  double *ax2; /* values with 1.01 g (the refactor) */
  double *b;   /* A(ax2) x_true */
} grid;

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void fill_values(SuiteSparse_long N, double g, const SuiteSparse_long *ap,
                        const SuiteSparse_long *ai, double *ax)
{
  double h = 1.0 / (double)(N + 1);
  double a = g / (h * h);
  SuiteSparse_long j, p;
  for (j = 0; j < N * N; j++) {
    for (p = ap[j]; p < ap[j + 1]; p++) {
      ax[p] = (ai[p] == j) ? 1.0 + 4.0 * a : -a;
    }
  }
}

static void matvec(const grid *G, const double *ax, const double *x, double *y)
{
  SuiteSparse_long j, p;
  for (j = 0; j < G->n; j++) {
    y[j] = 0.0;
  }
  for (j = 0; j < G->n; j++) {
    for (p = G->ap[j]; p < G->ap[j + 1]; p++) {
      y[G->ai[p]] += ax[p] * x[j];
    }
  }
}

static void grid_free(grid *G)
{
  free(G->ap);
  free(G->ai);
  free(G->ax);
  free(G->ax2);
  free(G->b);
}

static int grid_build(SuiteSparse_long N, grid *G)
{
  SuiteSparse_long n = N * N, c, p = 0;
  double *xt;
  memset(G, 0, sizeof *G);
  G->n = n;
  G->ap = malloc(((size_t)n + 1) * sizeof *G->ap);
  G->ai = malloc(5 * (size_t)n * sizeof *G->ai);
  G->ax = malloc(5 * (size_t)n * sizeof *G->ax);
  G->ax2 = malloc(5 * (size_t)n * sizeof *G->ax2);
  G->b = malloc((size_t)n * sizeof *G->b);
  xt = malloc((size_t)n * sizeof *xt);
  if (!G->ap || !G->ai || !G->ax || !G->ax2 || !G->b || !xt) {
    free(xt);
    grid_free(G);
    return -1;
  }
  for (c = 0; c < n; c++) {
    SuiteSparse_long i = c % N, j = c / N;
    G->ap[c] = p;
    if (j > 0) {
      G->ai[p++] = c - N;
    }
    if (i > 0) {
      G->ai[p++] = c - 1;
    }
    G->ai[p++] = c;
    if (i < N - 1) {
      G->ai[p++] = c + 1;
    }
    if (j < N - 1) {
      G->ai[p++] = c + N;
    }
  }
  G->ap[n] = p;
  fill_values(N, G_STEP, G->ap, G->ai, G->ax);
  fill_values(N, 1.01 * G_STEP, G->ap, G->ai, G->ax2);
  for (c = 0; c < n; c++) {
    xt[c] = sin((double)c);
  }
  matvec(G, G->ax2, xt, G->b);
  free(xt);
  return 0;
}

/* ||A x - b||_2 / ||b||_2 with the refactored values */
static double relres(const grid *G, const double *x)
{
  double *r = malloc((size_t)G->n * sizeof *r);
  double rn = 0.0, bn = 0.0;
  SuiteSparse_long k;
  if (!r) {
    return NAN;
  }
  matvec(G, G->ax2, x, r);
  for (k = 0; k < G->n; k++) {
    rn += (r[k] - G->b[k]) * (r[k] - G->b[k]);
    bn += G->b[k] * G->b[k];
  }
  free(r);
  return sqrt(rn / bn);
}

static void print_row(SuiteSparse_long n, const char *ordering, const double t[4],
                      double nnz_per_row, double mempeak_bytes, double res)
{
  printf("%ld,%s,%.4f,%.4f,%.4f,%.6f,%.2f,%.1f,%.2e\n", (long)n, ordering, t[0], t[1], t[2],
         t[3], nnz_per_row, mempeak_bytes / (1024.0 * 1024.0), res);
  fflush(stdout);
}

/* One KLU case; metis selects the ordering. Returns 0 or -1. */
static int run_klu(const grid *G, int metis)
{
  klu_l_common common;
  klu_l_symbolic *sym = NULL;
  klu_l_numeric *num = NULL;
  double t[4], t0, res;
  double *x = malloc((size_t)G->n * sizeof *x);
  int rc = -1;

  if (!x) {
    return -1;
  }
  klu_l_defaults(&common);
  common.ordering = 0; /* AMD */
  if (metis && sk__klu_use_metis_nd(NULL, &common) != SK_OK) {
    fprintf(stderr, "bench_klu_ordering: the METIS module cannot be loaded\n");
    free(x);
    return -1;
  }
  t0 = now_s();
  sym = klu_l_analyze(G->n, G->ap, G->ai, &common);
  t[0] = now_s() - t0;
  if (!sym) {
    fprintf(stderr, "klu_l_analyze failed: %s\n", sk__klu_status_name((int)common.status));
    goto done;
  }
  t0 = now_s();
  num = klu_l_factor(G->ap, G->ai, G->ax, sym, &common);
  t[1] = now_s() - t0;
  if (!num) {
    fprintf(stderr, "klu_l_factor failed: %s\n", sk__klu_status_name((int)common.status));
    goto done;
  }
  t0 = now_s();
  if (!klu_l_refactor(G->ap, G->ai, G->ax2, sym, num, &common)) {
    fprintf(stderr, "klu_l_refactor failed: %s\n", sk__klu_status_name((int)common.status));
    goto done;
  }
  t[2] = now_s() - t0;
  memcpy(x, G->b, (size_t)G->n * sizeof *x);
  t0 = now_s();
  if (!klu_l_solve(sym, num, G->n, 1, x, &common)) {
    fprintf(stderr, "klu_l_solve failed: %s\n", sk__klu_status_name((int)common.status));
    goto done;
  }
  t[3] = now_s() - t0;
  res = relres(G, x);
  print_row(G->n, metis ? "metis-nd" : "amd", t,
            (double)(num->lnz + num->unz - G->n + num->nzoff) / (double)G->n,
            (double)common.mempeak, res);
  rc = 0;
done:
  if (num) {
    klu_l_free_numeric(&num, &common);
  }
  if (sym) {
    klu_l_free_symbolic(&sym, &common);
  }
  free(x);
  return rc;
}

static int run_umfpack(const grid *G)
{
  double control[UMFPACK_CONTROL], info[UMFPACK_INFO];
  void *sym = NULL, *num = NULL;
  double t[4], t0, res, peak;
  double *x = malloc((size_t)G->n * sizeof *x);
  SuiteSparse_long lnz = 0, unz = 0, nr, nc, nzud, st;
  int rc = -1;

  if (!x) {
    return -1;
  }
  umfpack_dl_defaults(control);
  t0 = now_s();
  st = umfpack_dl_symbolic(G->n, G->n, G->ap, G->ai, NULL, &sym, control, info);
  t[0] = now_s() - t0;
  if (st != UMFPACK_OK) {
    fprintf(stderr, "umfpack_dl_symbolic: %s\n", sk__umfpack_status_name((int)st));
    goto done;
  }
  t0 = now_s();
  st = umfpack_dl_numeric(G->ap, G->ai, G->ax, sym, &num, control, info);
  t[1] = now_s() - t0;
  if (st != UMFPACK_OK) {
    fprintf(stderr, "umfpack_dl_numeric: %s\n", sk__umfpack_status_name((int)st));
    goto done;
  }
  umfpack_dl_free_numeric(&num);
  t0 = now_s();
  st = umfpack_dl_numeric(G->ap, G->ai, G->ax2, sym, &num, control, info);
  t[2] = now_s() - t0;
  if (st != UMFPACK_OK) {
    fprintf(stderr, "umfpack_dl_numeric: %s\n", sk__umfpack_status_name((int)st));
    goto done;
  }
  peak = info[UMFPACK_PEAK_MEMORY] * info[UMFPACK_SIZE_OF_UNIT];
  t0 = now_s();
  st = umfpack_dl_solve(UMFPACK_A, G->ap, G->ai, G->ax2, x, G->b, num, control, info);
  t[3] = now_s() - t0;
  if (st != UMFPACK_OK) {
    fprintf(stderr, "umfpack_dl_solve: %s\n", sk__umfpack_status_name((int)st));
    goto done;
  }
  umfpack_dl_get_lunz(&lnz, &unz, &nr, &nc, &nzud, num);
  res = relres(G, x);
  print_row(G->n, "umfpack-default", t, (double)(lnz + unz - G->n) / (double)G->n, peak, res);
  rc = 0;
done:
  if (num) {
    umfpack_dl_free_numeric(&num);
  }
  if (sym) {
    umfpack_dl_free_symbolic(&sym);
  }
  free(x);
  return rc;
}

int main(int argc, char **argv)
{
  static const long defaults[] = {316, 1000};
  long sizes[64];
  int nsizes = 0, with_umfpack = 1, status = 0, a, s;

  for (a = 1; a < argc; a++) {
    if (strcmp(argv[a], "--no-umfpack") == 0) {
      with_umfpack = 0;
    } else {
      char *end = NULL;
      long v = strtol(argv[a], &end, 10);
      if (!end || *end != '\0' || v < 2 || v > 30000 || nsizes == 64) {
        fprintf(stderr, "usage: %s [--no-umfpack] [N ...]   (2 <= N <= 30000)\n", argv[0]);
        return 64;
      }
      sizes[nsizes++] = v;
    }
  }
  if (nsizes == 0) {
    sizes[0] = defaults[0];
    sizes[1] = defaults[1];
    nsizes = 2;
  }

  printf("n,ordering,analyze_s,factor_s,refactor_s,solve_s,lu_nnz_per_row,mempeak_mib,relres\n");
  for (s = 0; s < nsizes; s++) {
    grid G;
    if (grid_build((SuiteSparse_long)sizes[s], &G) != 0) {
      fprintf(stderr, "out of memory building N = %ld\n", sizes[s]);
      return 70;
    }
    if (run_klu(&G, 0) != 0) {
      status = 10;
    }
    if (run_klu(&G, 1) != 0) {
      status = 10;
    }
    if (with_umfpack && run_umfpack(&G) != 0) {
      status = 10;
    }
    grid_free(&G);
  }
  return status;
}

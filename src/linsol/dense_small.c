/* src/linsol/dense_small.c: small dense kernels: LU solve with partial pivoting, ordered row rank, Jacobi eigenvalues of a symmetric matrix */
#include <math.h>
#include <string.h>

#include "linsol/dense_small.h"

int sk__dense_solve(double *A, int n, double *b, double pivtol)
{
  double amax = 0.0;
  for (int i = 0; i < n * n; i++) {
    amax = fmax(amax, fabs(A[i]));
  }
  for (int k = 0; k < n; k++) {
    int p = k;
    for (int i = k + 1; i < n; i++) {
      if (fabs(A[i * n + k]) > fabs(A[p * n + k])) {
        p = i;
      }
    }
    if (!(fabs(A[p * n + k]) > pivtol * amax)) {
      return k + 1;
    }
    if (p != k) {
      for (int j = 0; j < n; j++) {
        const double t = A[k * n + j];
        A[k * n + j] = A[p * n + j];
        A[p * n + j] = t;
      }
      const double t = b[k];
      b[k] = b[p];
      b[p] = t;
    }
    for (int i = k + 1; i < n; i++) {
      const double f = A[i * n + k] / A[k * n + k];
      if (f == 0.0) {
        continue;
      }
      for (int j = k; j < n; j++) {
        A[i * n + j] -= f * A[k * n + j];
      }
      b[i] -= f * b[k];
    }
  }
  for (int k = n - 1; k >= 0; k--) {
    double s = b[k];
    for (int j = k + 1; j < n; j++) {
      s -= A[k * n + j] * b[j];
    }
    b[k] = s / A[k * n + k];
  }
  return 0;
}

int sk__dense_row_rank(double *A, int r, int cols, int *dependent)
{
  double amax = 0.0;
  for (int i = 0; i < r * cols; i++) {
    amax = fmax(amax, fabs(A[i]));
  }
  const double tol = 1e-10 * amax;
  int rank = 0;
  /* reduce each row against the independent rows before it: each of those, reduced in
     turn, is zero in the pivot columns (largest entries) of the rows before it */
  for (int i = 0; i < r; i++) {
    double *row = A + i * cols;
    for (int k = 0; k < i; k++) {
      const double *prow = A + k * cols;
      int pc = -1;
      double best = 0.0;
      for (int j = 0; j < cols; j++) {
        if (fabs(prow[j]) > best) {
          best = fabs(prow[j]);
          pc = j;
        }
      }
      if (pc < 0 || best <= tol) {
        continue;
      }
      const double f = row[pc] / prow[pc];
      for (int j = 0; j < cols; j++) {
        row[j] -= f * prow[j];
      }
    }
    double rmax = 0.0;
    for (int j = 0; j < cols; j++) {
      rmax = fmax(rmax, fabs(row[j]));
    }
    const int dep = rmax <= tol;
    if (dependent) {
      dependent[i] = dep;
    }
    if (dep) {
      memset(row, 0, (size_t)cols * sizeof *row); /* a zero row reduces nothing */
    }
    rank += !dep;
  }
  return rank;
}

void sk__dense_sym_eig_range(double *S, int m, double *lmin, double *lmax)
{
  for (int sweep = 0; sweep < 60; sweep++) {
    double off = 0.0;
    for (int p = 0; p < m; p++) {
      for (int q = p + 1; q < m; q++) {
        off += S[p * m + q] * S[p * m + q];
      }
    }
    if (off < 1e-30) {
      break;
    }
    for (int p = 0; p < m; p++) {
      for (int q = p + 1; q < m; q++) {
        const double apq = S[p * m + q];
        if (fabs(apq) < 1e-300) {
          continue;
        }
        const double theta = (S[q * m + q] - S[p * m + p]) / (2.0 * apq);
        const double t = (theta >= 0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
        const double c = 1.0 / sqrt(t * t + 1.0), s = t * c;
        for (int k = 0; k < m; k++) { /* columns p, q */
          const double skp = S[k * m + p], skq = S[k * m + q];
          S[k * m + p] = c * skp - s * skq;
          S[k * m + q] = s * skp + c * skq;
        }
        for (int k = 0; k < m; k++) { /* rows p, q */
          const double spk = S[p * m + k], sqk = S[q * m + k];
          S[p * m + k] = c * spk - s * sqk;
          S[q * m + k] = s * spk + c * sqk;
        }
      }
    }
  }
  *lmin = INFINITY;
  *lmax = -INFINITY;
  for (int k = 0; k < m; k++) {
    *lmin = fmin(*lmin, S[k * m + k]);
    *lmax = fmax(*lmax, S[k * m + k]);
  }
}

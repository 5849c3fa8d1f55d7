/* src/linsol/dense_small.h: small dense kernels (LU solve, row rank, symmetric eigenvalues) for systems of a few dozen unknowns: BVP conditions, mechanism block systems */
#ifndef SK_LINSOL_DENSE_SMALL_H
#define SK_LINSOL_DENSE_SMALL_H

/* sk__dense_solve: solve A x = b in place (A n x n row-major, overwritten
 * by its LU factors; b becomes x) by Gaussian elimination with partial
 * pivoting. A pivot below `pivtol` times the largest entry of A counts as
 * zero. Returns 0, or k + 1 when column k has no usable pivot (singular). */
int sk__dense_solve(double *A, int n, double *b, double pivtol);

/* sk__dense_row_rank: the row rank of the r x cols matrix A (row-major,
 * overwritten), rows taken in order: dependent[i] (may be NULL; length r)
 * is set to 1 for each row that is a combination of the rows before it
 * (relative tolerance 1e-10 of the largest entry), 0 otherwise. */
int sk__dense_row_rank(double *A, int r, int cols, int *dependent);

/* sk__dense_sym_eig_range: the smallest and largest eigenvalue of the
 * symmetric m x m matrix S (row-major, overwritten) by cyclic Jacobi
 * rotations. */
void sk__dense_sym_eig_range(double *S, int m, double *lmin, double *lmax);

#endif

/* src/linsol/linsol.h: sparse direct linear-solver pieces for the SUNDIALS backends (UMFPACK SUNLinearSolver, KLU + METIS ordering) */
#ifndef SK_LINSOL_LINSOL_H
#define SK_LINSOL_LINSOL_H

/* Internal header: it includes SUNDIALS and SuiteSparse headers and is never
 * included by a public header. Everything here uses 64-bit indices
 * (sunindextype = int64_t = SuiteSparse_long, the klu_l_ / umfpack_dl_
 * families). */

#include <stdint.h>

#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>
#include <sundials/sundials_nvector.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include "linsol/klu_factor.h"
#include "stiffkit/context.h"
#include "stiffkit/linear_solver.h"

/* ---- a registered linear solver type as a SUNLinearSolver --------------- */

/* sk__sunlinsol_user: *LS = a SUNLinearSolver (id SUNLINEARSOLVER_CUSTOM)
 * around `type` for model m (its create is called here, its destroy when
 * the solver is freed). A direct type: setup(A) hands the type the n x n
 * CSC SUNSparseMatrix A as an sk_jacobian_view, solve(A, x, b) its
 * x = A^-1 b (b copied first when x == b); a status SK_OK is
 * SUNLS_SUCCESS, a positive one SUNLS_PACKAGE_FAIL_REC, a negative one
 * SUNLS_PACKAGE_FAIL_UNREC; a matrix that is not CSC of size n is
 * SUNLS_ILL_INPUT. An iterative type (SUNLINEARSOLVER_ITERATIVE, matrix-
 * free): setup runs the engine's preconditioner setup, solve lends the
 * type the engine's products, preconditioner (the identity when the engine
 * set none; on the left when pretype is SUN_PREC_LEFT, else on the right),
 * residual weights (s1; ones when unset) and maxl through
 * an sk_krylov_system, copying through two clones of y (serial, with an
 * array); SK_OK is SUNLS_SUCCESS, a positive status SUNLS_RES_REDUCED when
 * the residual norm ended below its norm at x = 0 (else SUNLS_CONV_FAIL), a
 * negative one SUNLS_PACKAGE_FAIL_UNREC, and a failed product or
 * preconditioner solve its SUNLS_ATIMES_* / SUNLS_PSOLVE_* flag whatever
 * the type returned. y, maxl and pretype serve an iterative type only. Errors:
 * SK_ERR_NOMEM, the create's failure (named). */
sk_status sk__sunlinsol_user(sk_context *ctx, const sk_linear_solver_type *type, sk_model *m,
                             N_Vector y, int maxl, int pretype, SUNContext sunctx,
                             SUNLinearSolver *LS);

/* sk__sunlinsol_user_last_status: the status the type returned from its
 * last setup, solve or iterate through S (SK_OK for a solver not made by
 * sk__sunlinsol_user). */
sk_status sk__sunlinsol_user_last_status(SUNLinearSolver S);

/* ---- UMFPACK as a SUNLinearSolver ------------------------------------- */

/* sk__sunlinsol_umfpack: *LS = a direct SUNLinearSolver (type
 * SUNLINEARSOLVER_DIRECT, id SUNLINEARSOLVER_CUSTOM) around umfpack_dl_*.
 *   y      template vector: serial, OpenMP or Pthreads N_Vector of length n
 *   A      n x n SUNSparseMatrix in CSC_MAT format (the pattern the solver
 *          will see for its whole life)
 *   sunctx the SUNDIALS context
 * Behaviour of the operations:
 *   initialize  resets the UMFPACK control defaults and the last flag; a
 *               symbolic analysis already done is kept
 *   setup(A)    symbolic analysis on the first call (and again only if n or
 *               nnz changed, or UMFPACK reports a changed pattern), then a
 *               numeric factorization every call. Returns SUNLS_SUCCESS,
 *               SUNLS_PACKAGE_FAIL_REC when the matrix is singular
 *               (UMFPACK_WARNING_singular_matrix: the integrator may retry
 *               with a smaller step), SUNLS_PACKAGE_FAIL_UNREC on out of
 *               memory / invalid input, SUNLS_ILL_INPUT for a matrix that is
 *               not a square CSC sparse matrix of the solver's size.
 *   solve(A,x,b) x = A^{-1} b with umfpack_dl_wsolve(UMFPACK_A) (UMFPACK's
 *               default iterative refinement against A). x and b may be the
 *               same vector. Returns SUNLS_SUCCESS, SUNLS_PACKAGE_FAIL_REC
 *               (singular factors), SUNLS_PACKAGE_FAIL_UNREC, SUNLS_MEM_NULL,
 *               SUNLS_MEM_FAIL (no data array), SUNLS_ILL_INPUT (no factors).
 *   lastflag    the SUNLS_* flag of the last operation
 *   space       real and integer workspace words held by the wrapper
 *               (UMFPACK's own factor storage is not counted)
 *   free        frees the UMFPACK objects and the solver
 * UMFPACK lives in the module libstiffkit-umfpack.so (linsol/umfpack_module.h),
 * loaded by the first call. Errors (*LS NULL): SK_ERR_UNSUPPORTED (foreign
 * name SK__MODULE_FLAG) when the module cannot be loaded; SK_ERR_NOMEM for a
 * NULL/incompatible argument or when allocation fails. */
sk_status sk__sunlinsol_umfpack(sk_context *ctx, N_Vector y, SUNMatrix A, SUNContext sunctx,
                                SUNLinearSolver *LS);

/* sk__sunlinsol_umfpack_last_status: the UMFPACK status (UMFPACK_OK,
 * UMFPACK_WARNING_*, UMFPACK_ERROR_*) of the last UMFPACK call made by S;
 * UMFPACK_ERROR_argument_missing when S is NULL or not made by
 * sk__sunlinsol_umfpack (or the module is not loaded). */
int sk__sunlinsol_umfpack_last_status(SUNLinearSolver S);

/* sk__sunlinsol_umfpack_factor_nnz: nnz(L) + nnz(U) of the current numeric
 * factorization (umfpack_dl_get_lunz; each count includes the diagonal), or
 * 0 when S has no numeric factorization (or is not a UMFPACK solver). */
int64_t sk__sunlinsol_umfpack_factor_nnz(SUNLinearSolver S);

/* sk__umfpack_status_name: the static name of an UMFPACK status code
 * ("UMFPACK_OK", "UMFPACK_WARNING_singular_matrix", ...), or
 * "UMFPACK_UNKNOWN_STATUS". */
const char *sk__umfpack_status_name(int status);

/* ---- KLU with a METIS nested-dissection ordering ---------------------- */

/* sk__klu_use_metis_nd: configure a KLU common struct (klu_l_common in the
 * 64-bit SUNDIALS build, e.g. from SUNLinSol_KLUGetCommon) so that the next
 * klu_l_analyze orders with METIS_NodeND: ordering = 3 and user_order = a
 * function computing a nested-dissection ordering of each BTF diagonal
 * block from the symmetrized pattern C + C^T (KLU calls it once per block
 * larger than 3 x 3; with btf = 0, once for the whole matrix). The
 * function returns KLU's estimate of nnz(L) (the exact nnz of the Cholesky
 * factor of the symmetrized block under the ordering, diagonal included),
 * which KLU uses to size L and U, and 0 (failure: klu_l_analyze then
 * returns NULL with status KLU_INVALID) when the block does not fit METIS'
 * 32-bit idx_t, when METIS fails, or when workspace cannot be allocated.
 * Common->user_data is left untouched; the function's own workspace is
 * added to Common->mempeak (METIS' internal memory is not). Must be called
 * before the first setup (SUNLinSol_KLU analyzes on the first setup after
 * initialize, and its ordering setter only accepts 0..2). METIS is the
 * module libstiffkit-metis.so, loaded here on the first call.
 * Errors: SK_ERR_ARG (common NULL), those of loading the module
 * (SK_ERR_UNSUPPORTED naming it; the CLI's exit 69). */
sk_status sk__klu_use_metis_nd(sk_context *ctx, sun_klu_common *common);

/* sk__klu_factor_nnz: Numeric->lnz + Numeric->unz of the current KLU numeric
 * object of a SUNLinSol_KLU solver (each includes the diagonal; entries of
 * the off-diagonal BTF blocks, Numeric->nzoff, are not counted), or 0 when S
 * is NULL or has no numeric factorization. */
int64_t sk__klu_factor_nnz(SUNLinearSolver S);

#endif

/* src/backends/sundials_backend.h: shared internals of the SUNDIALS adapters (context, flag maps, fast vector ops) */
#ifndef SK_BACKENDS_SUNDIALS_BACKEND_H
#define SK_BACKENDS_SUNDIALS_BACKEND_H

#include <nvector/nvector_serial.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>

#include "backends/sundials_compat.h"
#include "stiffkit/context.h"
#include "stiffkit/model.h"
#include "stiffkit/stepper.h"

#define SK_SUNDIALS_MSG_LEN 512

/* Where SUNDIALS' own messages go instead of stderr: the last message, its
 * code, and a count of warnings. */
typedef struct sk__sundials_messages {
  char msg[SK_SUNDIALS_MSG_LEN];
  int last_code;
  long warnings;
} sk__sundials_messages;

/* sk__status_from_cvode: our status for a CVODE return flag, and its static
 * name ("CV_CONV_FAILURE"); the only place CV_* flags are interpreted. */
sk_status sk__status_from_cvode(int flag, const char **name);

/* sk__sunls_flag_name: static name of a SUNLS_* flag. */
const char *sk__sunls_flag_name(int flag);

/* sk__status_from_ida: our status for an IDA return flag, and its static
 * name ("IDA_CONV_FAIL"); the only place IDA_* flags are interpreted. */
sk_status sk__status_from_ida(int flag, const char **name);

/* sk__status_from_kinsol: our status for a KINSOL return flag, and its
 * static name ("KIN_LINESEARCH_NONCONV"); the only place KIN_* flags are
 * interpreted. KIN_SUCCESS, KIN_INITIAL_GUESS_OK and KIN_STEP_LT_STPTOL map
 * to SK_OK: whether the answer is a solution is decided by the caller's own
 * residual check. */
sk_status sk__status_from_kinsol(int flag, const char **name);

/* ---- the model Jacobian as a SUNMatrix (sundials_linsol.c) ------------- */

/* The model's Jacobian as the SUNDIALS packages see it: the model's CSC
 * pattern (not owned), the same pattern with every diagonal entry present
 * (owned; map[p] is the position there of model entry p, diag[j] that of
 * (j, j)), and a buffer for nnz values in model order. */
typedef struct {
  int64_t n, nnz, mnnz;
  const int64_t *colptr, *rowind;
  int64_t *mcolptr, *mrowind, *map, *diag;
  double *vals;
} sk__sun_jac;

/* sk__sun_jac_init: fetch the model's pattern into J (zeroed first) and,
 * when there is one, allocate J->vals. A model without a pattern leaves
 * J->colptr NULL. Errors: SK_ERR_NOMEM. */
sk_status sk__sun_jac_init(sk_context *ctx, sk_model *m, sk__sun_jac *J);

/* sk__sun_jac_sparse_matrix: build the pattern with diagonal and an n x n
 * CSC SUNSparseMatrix holding it. Errors: SK_ERR_NOMEM. */
sk_status sk__sun_jac_sparse_matrix(sk_context *ctx, sk__sun_jac *J, SUNContext sunctx,
                                    SUNMatrix *A);

/* sk__sun_jac_fill: J->vals into A: a CSC matrix made by
 * sk__sun_jac_sparse_matrix (pattern rewritten, since the packages zero the
 * index arrays too before each evaluation), or a dense or band matrix. */
void sk__sun_jac_fill(const sk__sun_jac *J, SUNMatrix A);

/* sk__sun_jac_diagonal: d[j] = J->vals at (j, j), 0 where the pattern has
 * no diagonal entry (d has length n). */
void sk__sun_jac_diagonal(const sk__sun_jac *J, double *d);

/* sk__sun_jac_free: free what init and sparse_matrix allocated (J->vals
 * included); J can be initialized again. */
void sk__sun_jac_free(sk_context *ctx, sk__sun_jac *J);

/* sk__sun_sparse_direct: a KLU (with `ordering`: amd, colamd or metis-nd)
 * or UMFPACK (`name` "umfpack") solver for the CSC matrix A. Errors:
 * SK_ERR_NOMEM, SK_ERR_SOLVER (the ordering cannot be configured). */
sk_status sk__sun_sparse_direct(sk_context *ctx, const char *name, const char *ordering,
                                N_Vector y, SUNMatrix A, SUNContext sunctx, SUNLinearSolver *LS);

/* sk__sun_linear_failure: "; linear solver NAME: SUNLS_FLAG" plus the KLU
 * status, rcond and singular column (named through the model) or the
 * UMFPACK status, into buf (always NUL-terminated; "" when LS is NULL).
 * Returns 1 when the package reported a singular matrix, else 0. */
int sk__sun_linear_failure(SUNLinearSolver LS, const char *name, const sk_model *m, char *buf,
                           size_t len);

/* sk__sun_physical_memory_bytes: this machine's memory (8e9 when unknown). */
double sk__sun_physical_memory_bytes(void);

/* sk__sun_check_band_size: SK_ERR_TOO_LARGE (the message names `what`,
 * the sizes and `remedy`) when two n x n band matrices of half-bandwidths
 * ml, mu with the LU's fill (SUNDIALS' band storage) need more than half
 * of this machine's memory divided by `sharers` (the processes sharing
 * it; 1 or less for one), else SK_OK. */
sk_status sk__sun_check_band_size(sk_context *ctx, int64_t n, int64_t ml, int64_t mu,
                                  int sharers, const char *what, const char *remedy);

/* sk__sun_check_dense_size: SK_ERR_TOO_LARGE (naming `key`=dense, n and
 * the memory) when two dense n x n matrices need more than half of this
 * machine's memory, else SK_OK. */
sk_status sk__sun_check_dense_size(sk_context *ctx, int64_t n, const char *key);

/* sk__nvector_use_fast_ops: replace the vector's operation table with the
 * project's vectorized, OpenMP-threaded kernels (clones inherit them): a
 * serial vector gets the element-wise, fused and reduction kernels; in an
 * MPI build (SK_HAVE_MPI) an NVECTOR_PARALLEL vector gets the same kernels
 * on its local part, the local reductions, and global reductions made of
 * the local kernel plus MPI_Allreduce on its communicator. Any other
 * vector kind is left unchanged. */
void sk__nvector_use_fast_ops(N_Vector v);

/* ---- the shared stepping loop (sundials_stepping.c) ------------------- */

/* What an integrator adapter gives the shared loop; eng is its state. */
typedef struct {
  void *eng;
  int *fired; /* a buffer of one flag per model event */
  /* one package step toward tout, never past stop when use_stop: the new
   * time into *tret (the last successful one after a failure, whose error
   * it returns), *root = 1 when it stopped at an event */
  sk_status (*step)(void *eng, double tout, int use_stop, double stop, double *tret, int *root);
  sk_status (*roots)(void *eng, int *fired);        /* the event flags of that return */
  sk_status (*restart)(void *eng, double t);        /* after the model switched at t */
  sk_status (*interpolate)(void *eng, double tout); /* the state at tout <= current time */
  int64_t (*total_steps)(void *eng);                /* steps so far, restarts included */
  double (*current_time)(void *eng);
  double (*last_step)(void *eng);
} sk__sun_engine;

/* sk__sun_one_step: one internal step toward tout under the stepper's step
 * budget and stop time (with clamp, also never past tout), then the step
 * size check, the events and the stepper's after-step hook. Returns SK_OK,
 * SK_INTERRUPTED or an error (the budget's, step underflow, the package's);
 * *t and the stepper's time are those of the last successful step. */
sk_status sk__sun_one_step(sk_stepper *s, const sk__sun_engine *e, double tout, double *t,
                           int clamp);

/* sk__sun_advance: steps until tout is reached (clamped at output times on
 * a model with events), then the state interpolated to tout. Returns as
 * sk__sun_one_step, plus SK_ERR_ARG for tout beyond the stop time. */
sk_status sk__sun_advance(sk_stepper *s, const sk__sun_engine *e, double tout, double *tret);

#endif

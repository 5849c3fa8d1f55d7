/* src/backends/sundials_backend.h: shared internals of the SUNDIALS adapters (context, flag maps, fast vector ops) */
#ifndef SK_BACKENDS_SUNDIALS_BACKEND_H
#define SK_BACKENDS_SUNDIALS_BACKEND_H

#include <nvector/nvector_serial.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>

#include "backends/sundials_compat.h"
#include "linsol/linsol_types.h"
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

/* sk__sundials_constraints: *out a clone of `like` holding the model's
 * constraint codes (sk_model_set_constraints) as reals, or NULL when the
 * model has none; the caller destroys it after the package has copied it
 * (CVodeSetConstraints, IDASetConstraints, KINSetConstraints copy).
 * Errors: SK_ERR_NOMEM. */
sk_status sk__sundials_constraints(sk_context *ctx, const sk_model *m, N_Vector like,
                                   N_Vector *out);

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

/* sk__sun_note_unused_prec: a warning (sk__log) when the preconditioner the
 * stepper was given (not auto or none) goes unused because the linear
 * solver `ls` takes none (a direct solver, or none). */
void sk__sun_note_unused_prec(sk_context *ctx, const char *ls, const char *prec);

/* sk__sun_ordering_used: the fill-reducing ordering a run of linear solver
 * `linsol` reports: `ordering` (KLU's, as configured), "none" for a type
 * registered at run time (its own business), "package-default" otherwise. */
const char *sk__sun_ordering_used(const sk_context *ctx, const char *linsol,
                                  const char *ordering);

/* sk__sun_sparse_direct: the sparse direct solver `name` for the CSC matrix
 * A of model m: a linear solver type registered in ctx
 * (stiffkit/linear_solver.h), KLU (with `ordering`: amd, colamd or
 * metis-nd) or UMFPACK ("umfpack"). Errors: SK_ERR_NOMEM, SK_ERR_SOLVER
 * (the ordering cannot be configured), a registered type's create failure. */
sk_status sk__sun_sparse_direct(sk_context *ctx, const char *name, const char *ordering,
                                sk_model *m, N_Vector y, SUNMatrix A, SUNContext sunctx,
                                SUNLinearSolver *LS);

/* sk__sun_linsol_fresh: make the linear solver `name` (as the adapters
 * resolved it) compute its next factorization afresh, as a newly created
 * one would: KLU's symbolic and numeric factors are dropped
 * (SUNLinSol_KLUReInit, partial), so that it analyzes and pivots again
 * instead of refactoring with the old pivots; the other solvers keep no
 * numeric state between setups (dense and band factor anew, UMFPACK keeps
 * only the analysis of the fixed pattern, the Krylov solvers nothing).
 * For a restart at sk_stepper_reinit. Errors: SK_ERR_SOLVER. */
sk_status sk__sun_linsol_fresh(sk_context *ctx, const char *name, SUNLinearSolver LS,
                               SUNMatrix A);

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
sk_status sk__sun_check_band_size(sk_context *ctx, int64_t n, int64_t ml, int64_t mu, int sharers,
                                  const char *what, const char *remedy);

/* sk__sun_check_dense_size: SK_ERR_TOO_LARGE (naming `key`=dense, n and
 * the memory) when two dense n x n matrices need more than half of this
 * machine's memory, else SK_OK. */
sk_status sk__sun_check_dense_size(sk_context *ctx, int64_t n, const char *key);

/* sk__sun_state_vector: an engine's template vector over buf (not
 * copied; n = the model's n): NVECTOR_SERIAL, or for a distributed model
 * (core/model_dist.h) the vector its distribution makes; clones guarded
 * (sk__nvector_guard_clone), with the project's fast kernels when fast != 0.
 * NULL when out of memory. */
N_Vector sk__sun_state_vector(const sk_model *m, double *buf, SUNContext sunctx, int fast);

/* sk__nvector_use_fast_ops: replace a serial vector's operation table with
 * the project's vectorized, OpenMP-threaded kernels (clones inherit them):
 * the element-wise, fused and reduction kernels. Any other vector kind is
 * left unchanged (an NVECTOR_PARALLEL vector: sk__dist_nvector_use_fast_ops
 * of the distributed runs). */
void sk__nvector_use_fast_ops(N_Vector v);

/* sk__nvector_use_fast_local_ops: the same element-wise, fused and local
 * reduction kernels on the local part of a vector of another kind, which
 * must give its local length and data (nvgetlocallength,
 * nvgetarraypointer); its global reductions are left to the caller. */
void sk__nvector_use_fast_local_ops(N_Vector v);

/* sk__nvector_wsqrsums_local: sum[i] = the local weighted sum of squares of
 * X[i] with W[i], i < nvec, in one pass over the vectors (the local part of
 * N_VWrmsNormVectorArray). */
void sk__nvector_wsqrsums_local(int nvec, N_Vector *X, N_Vector *W, sk_sunreal *sum);

/* sk__nvector_guard_clone: make clones of the serial vector v (and of its
 * clones) end the process with exit status 71 and an out-of-memory message
 * when their allocation fails, instead of the NULL dereference inside
 * SUNDIALS 6.4.1's N_VClone (backends/nvector_clone.c); the distributed
 * runs guard their NVECTOR_PARALLEL vectors alike
 * (sk__dist_nvector_guard_clone). Call it on every engine's template
 * vector, before any clone. */
void sk__nvector_guard_clone(N_Vector v);

/* sk__nvector_clone_or_exit: clone(w), or that end (the message on stderr,
 * _exit(71)) when it returns NULL: the guarded clone of a vector kind. */
N_Vector sk__nvector_clone_or_exit(N_Vector w, N_Vector (*clone)(N_Vector));

/* ---- the shared stepping loop (sundials_stepping.c) ------------------- */

/* What one call of an integrator package returned (sk__sun_engine.step). */
typedef enum {
  SK__SUN_STEPPED, /* one internal step taken: the state at its end */
  SK__SUN_ROOT,    /* the state at an event (CV_ROOT_RETURN, IDA_ROOT_RETURN) */
  SK__SUN_REACHED  /* normal mode: the state at tout, interpolated (CV_SUCCESS) */
} sk__sun_return;

/* What an integrator adapter gives the shared loop; eng is its state. */
typedef struct {
  void *eng;
  int *fired; /* a buffer of one flag per model event */
  /* one call of the package (CVode, IDASolve) toward tout, never past stop
   * when use_stop: in one-step mode (normal = 0, CV_ONE_STEP) one internal
   * step; in normal mode (CV_NORMAL with at most one internal step per
   * call: the package's mxstep set to 1, its CV_TOO_MUCH_WORK read as
   * SK__SUN_STEPPED) what CV_NORMAL does: steps past tout and
   * interpolates, searching roots only up to tout. The returned time into
   * *tret (the last successful one after a failure, whose error it
   * returns), what it was into *what; the state buffer holds the state
   * there. */
  sk_status (*step)(void *eng, double tout, int normal, int use_stop, double stop, double *tret,
                    sk__sun_return *what);
  sk_status (*roots)(void *eng, int *fired); /* the event flags of that return */
  sk_status (*restart)(void *eng, double t); /* after the model switched at t */
  int64_t (*total_steps)(void *eng);         /* steps so far, restarts included */
  double (*current_time)(void *eng);         /* the package's (the last step's end) */
  double (*last_step)(void *eng);
} sk__sun_engine;

/* sk__sun_check_adaptive: SK_ERR_UNSUPPORTED when the stepper was given a
 * fixed step (solver.fixed_step, sk_stepper_set_fixed_step): CVODE and IDA
 * choose their own steps, and running adaptively instead would be a silent
 * change of method. The message names the fixed-step methods and
 * solver.hmax. */
sk_status sk__sun_check_adaptive(sk_stepper *s);

/* sk__sun_one_step: one package call in one-step mode toward tout (single-
 * step mode: the state at the end of one internal step, or at an event
 * inside it) under the stepper's step budget and stop time, then the step
 * size check, the events and, when a step was taken, the stepper's
 * after-step hook. Returns SK_OK, SK_INTERRUPTED or an error (the budget's,
 * step underflow, the package's, SK_ERR_ARG at the stop time); *t and the
 * stepper's time are those of the state buffer (the last successful step
 * after a failure). */
sk_status sk__sun_one_step(sk_stepper *s, const sk__sun_engine *e, double tout, double *t);

/* sk__sun_advance: the state at tout as the package's normal mode gives it
 * (CV_NORMAL, IDA_NORMAL): internal steps pass tout and the output is
 * interpolated; they stop only at an event (logged, the model's action run
 * and the engine restarted when the model has actions, then the
 * integration goes on) and at the stop time; an event beyond tout is found
 * by a later call. Returns as sk__sun_one_step, plus SK_ERR_ARG for tout
 * beyond the stop time; on SK_OK *tret = tout. */
sk_status sk__sun_advance(sk_stepper *s, const sk__sun_engine *e, double tout, double *tret);

/* ---- linear solvers shared by the integrators (sundials_linsol.c) ------ */

/* sk__sun_jac_fill_shifted: A = scale * J->vals + shift * I, into a matrix
 * as sk__sun_jac_fill takes (IDA's cj I - df/dy of an ODE model is
 * scale -1, shift cj). */
void sk__sun_jac_fill_shifted(const sk__sun_jac *J, double scale, double shift, SUNMatrix A);

/* sk__sun_matrix_direct: for `name` "dense" or "band", the n x n matrix
 * (n = J->n) and its LU solver: dense after sk__sun_check_dense_size; band
 * with the half-bandwidths of J's pattern, after sk__sun_check_band_size.
 * `engine` names the caller in messages. *A and *LS are the caller's to
 * free, also on failure. Errors: SK_ERR_UNSUPPORTED (band on a model
 * without a pattern: the message names what is supported),
 * SK_ERR_TOO_LARGE, SK_ERR_NOMEM. */
sk_status sk__sun_matrix_direct(sk_context *ctx, const char *engine, const char *name,
                                const sk__sun_jac *J, N_Vector y, SUNContext sunctx, SUNMatrix *A,
                                SUNLinearSolver *LS);

/* sk__sun_krylov: the matrix-free solver `name` for model m: a built-in
 * Krylov solver (spgmr, spfgmr, spbcgs, sptfqmr, pcg) with preconditioning
 * `pretype` (SUN_PREC_NONE, SUN_PREC_LEFT or SUN_PREC_RIGHT), or an iterative type
 * registered in ctx (sk__sunlinsol_user), with subspace size / iteration
 * limit maxl (0 = SUNDIALS' 5). Errors: SK_ERR_ARG (not a Krylov solver),
 * SK_ERR_NOMEM, a registered type's create failure. */
sk_status sk__sun_krylov(sk_context *ctx, const char *name, sk_model *m, N_Vector y, int pretype,
                         int maxl, SUNContext sunctx, SUNLinearSolver *LS);

#endif

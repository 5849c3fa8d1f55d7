/* src/linsol/user_sunlinsol.c: a linear solver type registered at run time (stiffkit/linear_solver.h) as a SUNLinearSolver: a direct one on the engine's CSC SUNSparseMatrix, an iterative one on the engine's products and preconditioner */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "linsol/linsol.h"

_Static_assert(sizeof(sunindextype) == sizeof(int64_t),
               "a registered linear solver reads the CSC indices as int64_t (64-bit SUNDIALS)");

typedef struct {
  const sk_linear_solver_type *type;
  void *state;   /* the type's own (create), or NULL */
  int created;   /* create succeeded (or the type has none): destroy is owed */
  int64_t n;     /* the solver's size */
  double *bcopy; /* b when the engine solves in place (x == b) */
  int last_flag; /* SUNLS_* of the last operation */
  sk_status last_status;
  /* an iterative type: what the engine attached, and what a solve lends the type */
  int maxl;
  sk_krylov_side side; /* left for the engines that ask SUN_PREC_LEFT */
  void *A_data, *P_data;
  SUNATimesFn atimes;
  SUNPSetupFn psetup;
  SUNPSolveFn psolve;
  N_Vector weights;       /* s1 (setscalingvectors), or NULL: ones */
  double *ones, *scratch; /* scratch: P^-1 b when a solve's reduction is asked */
  N_Vector vin, vout;     /* the engine's vectors around one product or preconditioner solve */
  double tol;             /* this solve's tolerance (handed to psolve) */
  int callback_flag;      /* SUNLS_* of a failed product or preconditioner solve, else 0 */
  int iters;
  double resnorm;
  N_Vector last_x; /* the last solve's answer (the engine's vector) */
} user_content;

static user_content *content(SUNLinearSolver S)
{
  return S ? (user_content *)S->content : NULL;
}

static SUNLinearSolver_Type user_gettype(SUNLinearSolver S)
{
  const user_content *c = content(S);
  return c && c->type->kind == SK_LINSOL_ITERATIVE ? SUNLINEARSOLVER_ITERATIVE
                                                   : SUNLINEARSOLVER_DIRECT;
}

static SUNLinearSolver_ID user_getid(SUNLinearSolver S)
{
  (void)S;
  return SUNLINEARSOLVER_CUSTOM;
}

static int user_initialize(SUNLinearSolver S)
{
  user_content *c = content(S);
  if (!c) {
    return SUNLS_MEM_NULL;
  }
  c->last_flag = SUNLS_SUCCESS;
  c->last_status = SK_OK;
  return SUNLS_SUCCESS;
}

/* The SUNLS_* flag of a type's status: positive recoverable, negative not. */
static int flag_of(user_content *c, sk_status st)
{
  c->last_status = st;
  c->last_flag = st == SK_OK ? SUNLS_SUCCESS
                 : st > 0    ? SUNLS_PACKAGE_FAIL_REC
                             : SUNLS_PACKAGE_FAIL_UNREC;
  return c->last_flag;
}

static int user_setup(SUNLinearSolver S, SUNMatrix A)
{
  user_content *c = content(S);
  if (!c) {
    return SUNLS_MEM_NULL;
  }
  if (!A || SUNMatGetID(A) != SUNMATRIX_SPARSE || SUNSparseMatrix_SparseType(A) != CSC_MAT ||
      SUNSparseMatrix_Columns(A) != c->n) {
    c->last_status = SK_OK;
    c->last_flag = SUNLS_ILL_INPUT;
    return c->last_flag;
  }
  const sk_jacobian_view view = {.n = c->n,
                                 .colptr = (const int64_t *)SUNSparseMatrix_IndexPointers(A),
                                 .rowind = (const int64_t *)SUNSparseMatrix_IndexValues(A),
                                 .values = SUNSparseMatrix_Data(A)};
  return flag_of(c, c->type->setup(c->state, &view));
}

static int user_solve(SUNLinearSolver S, SUNMatrix A, N_Vector x, N_Vector b, sunrealtype tol)
{
  (void)A;
  (void)tol;
  user_content *c = content(S);
  if (!c) {
    return SUNLS_MEM_NULL;
  }
  double *xd = N_VGetArrayPointer(x);
  const double *bd = N_VGetArrayPointer(b);
  if (!xd || !bd) {
    c->last_status = SK_OK;
    c->last_flag = SUNLS_MEM_FAIL;
    return c->last_flag;
  }
  if (xd == bd) {
    memcpy(c->bcopy, bd, (size_t)c->n * sizeof *bd);
    bd = c->bcopy;
  }
  return flag_of(c, c->type->solve(c->state, bd, xd));
}

/* ---- an iterative type: the engine's products and preconditioner, lent through
 * sk_krylov_system */

static int iter_setatimes(SUNLinearSolver S, void *A_data, SUNATimesFn atimes)
{
  user_content *c = content(S);
  if (!c) {
    return SUNLS_MEM_NULL;
  }
  c->A_data = A_data;
  c->atimes = atimes;
  return SUNLS_SUCCESS;
}

static int iter_setpreconditioner(SUNLinearSolver S, void *P_data, SUNPSetupFn psetup,
                                  SUNPSolveFn psolve)
{
  user_content *c = content(S);
  if (!c) {
    return SUNLS_MEM_NULL;
  }
  c->P_data = P_data;
  c->psetup = psetup;
  c->psolve = psolve;
  return SUNLS_SUCCESS;
}

static int iter_setscalingvectors(SUNLinearSolver S, N_Vector s1, N_Vector s2)
{
  (void)s2; /* the test is on the residual, which s1 weighs */
  user_content *c = content(S);
  if (!c) {
    return SUNLS_MEM_NULL;
  }
  c->weights = s1;
  return SUNLS_SUCCESS;
}

/* The preconditioner's setup, which the engine asks for through the solver's. */
static int iter_setup(SUNLinearSolver S, SUNMatrix A)
{
  (void)A; /* matrix-free: NULL */
  user_content *c = content(S);
  if (!c) {
    return SUNLS_MEM_NULL;
  }
  const int r = c->psetup ? c->psetup(c->P_data) : 0;
  c->last_status = SK_OK;
  c->last_flag = r == 0 ? SUNLS_SUCCESS : r > 0 ? SUNLS_PSET_FAIL_REC : SUNLS_PSET_FAIL_UNREC;
  return c->last_flag;
}

/* A product or preconditioner solve's return (0, > 0 recoverable, < 0 not) as a status,
 * its SUNLS_* flag (`rec` or `unrec`) remembered for the solve's own. */
static sk_status callback_status(user_content *c, int r, int rec, int unrec)
{
  if (r == 0) {
    return SK_OK;
  }
  if (c->callback_flag == 0) {
    c->callback_flag = r > 0 ? rec : unrec;
  }
  return r > 0 ? SK_RECOVERABLE : SK_ERR_CALLBACK;
}

static sk_status lend_apply(void *engine, const double *v, double *Av)
{
  user_content *c = engine;
  const size_t bytes = (size_t)c->n * sizeof *v;
  memcpy(N_VGetArrayPointer(c->vin), v, bytes);
  const int r = c->atimes(c->A_data, c->vin, c->vout);
  memcpy(Av, N_VGetArrayPointer(c->vout), bytes);
  return callback_status(c, r, SUNLS_ATIMES_FAIL_REC, SUNLS_ATIMES_FAIL_UNREC);
}

static sk_status lend_precondition(void *engine, const double *r, double *z)
{
  user_content *c = engine;
  const size_t bytes = (size_t)c->n * sizeof *r;
  if (!c->psolve) {
    memmove(z, r, bytes);
    return SK_OK;
  }
  memcpy(N_VGetArrayPointer(c->vin), r, bytes);
  const int f = c->psolve(c->P_data, c->vin, c->vout, c->tol,
                          c->side == SK_KRYLOV_LEFT ? SUN_PREC_LEFT : SUN_PREC_RIGHT);
  memcpy(z, N_VGetArrayPointer(c->vout), bytes);
  return callback_status(c, f, SUNLS_PSOLVE_FAIL_REC, SUNLS_PSOLVE_FAIL_UNREC);
}

/* Whether a solve that stopped above its tolerance still reduced the residual below its
 * norm at x = 0 (||w .* b||, or ||w .* P^-1 b|| on the left), as SPGMR's SUNLS_RES_REDUCED
 * says: KINSOL and CVODE's first Newton iteration take such a solve. */
static int reduced(user_content *c, const double *b, const double *w)
{
  const double *r0 = b;
  if (c->side == SK_KRYLOV_LEFT && c->psolve) {
    if (lend_precondition(c, b, c->scratch) != SK_OK) {
      c->callback_flag = 0; /* the solve's own verdict stands: not converged */
      return 0;
    }
    r0 = c->scratch;
  }
  double sum = 0.0;
  for (int64_t i = 0; i < c->n; i++) {
    sum += (w[i] * r0[i]) * (w[i] * r0[i]);
  }
  return c->resnorm < sqrt(sum);
}

static int iter_solve(SUNLinearSolver S, SUNMatrix A, N_Vector x, N_Vector b, sunrealtype tol)
{
  (void)A;
  user_content *c = content(S);
  if (!c) {
    return SUNLS_MEM_NULL;
  }
  double *xd = N_VGetArrayPointer(x);
  const double *bd = N_VGetArrayPointer(b);
  const double *w = c->weights ? N_VGetArrayPointer(c->weights) : c->ones;
  c->iters = 0;
  c->resnorm = HUGE_VAL; /* a type that says nothing has not reduced the residual */
  c->callback_flag = 0;
  c->last_status = SK_OK;
  c->last_x = x;
  if (!xd || !bd || !w || !c->atimes) {
    c->last_flag = c->atimes ? SUNLS_MEM_FAIL : SUNLS_ATIMES_NULL;
    return c->last_flag;
  }
  if (xd == bd) {
    memcpy(c->bcopy, bd, (size_t)c->n * sizeof *bd);
    bd = c->bcopy;
  }
  N_VConst(0.0, x); /* every solve starts from x = 0 (the engines' own guess) */
  c->tol = tol;
  const sk_krylov_system sys = {.n = c->n,
                                .weights = w,
                                .maxl = c->maxl,
                                .side = c->side,
                                .engine = c,
                                .apply = lend_apply,
                                .precondition = lend_precondition};
  const sk_status st = c->type->iterate(c->state, &sys, bd, xd, tol, &c->iters, &c->resnorm);
  c->last_status = st;
  c->last_flag = c->callback_flag != 0 ? c->callback_flag /* the engine's own failure */
                 : st == SK_OK         ? SUNLS_SUCCESS
                 : st < 0              ? SUNLS_PACKAGE_FAIL_UNREC
                 : reduced(c, bd, w)   ? SUNLS_RES_REDUCED
                                       : SUNLS_CONV_FAIL;
  return c->last_flag;
}

/* IDA takes the "residual" as the answer of a solve that took no product (SPGMR leaves
 * P^-1 b there); the type's answer is x, whatever it took, so that is what it gets. */
static N_Vector iter_resid(SUNLinearSolver S)
{
  const user_content *c = content(S);
  return c ? c->last_x : NULL;
}

static int iter_numiters(SUNLinearSolver S)
{
  const user_content *c = content(S);
  return c ? c->iters : 0;
}

static sunrealtype iter_resnorm(SUNLinearSolver S)
{
  const user_content *c = content(S);
  return c ? c->resnorm : 0.0;
}

static sunindextype user_lastflag(SUNLinearSolver S)
{
  const user_content *c = content(S);
  return c ? c->last_flag : SUNLS_MEM_NULL;
}

static void content_free(user_content *c)
{
  if (c) {
    if (c->type->destroy && c->created) {
      c->type->destroy(c->state);
    }
    free(c->bcopy);
    free(c->ones);
    free(c->scratch);
    if (c->vin) {
      N_VDestroy(c->vin);
    }
    if (c->vout) {
      N_VDestroy(c->vout);
    }
    free(c);
  }
}

static int user_free(SUNLinearSolver S)
{
  if (S) {
    content_free(content(S));
    S->content = NULL;
    SUNLinSolFreeEmpty(S);
  }
  return SUNLS_SUCCESS;
}

/* The vectors and weights an iterative type's solves lend (clones of the engine's y). */
static sk_status iterative_buffers(sk_context *ctx, user_content *c, N_Vector y, int maxl,
                                   int pretype)
{
  c->maxl = maxl;
  c->side = pretype == SUN_PREC_LEFT ? SK_KRYLOV_LEFT : SK_KRYLOV_RIGHT;
  c->vin = N_VClone(y);
  c->vout = N_VClone(y);
  c->ones = malloc((size_t)(c->n > 0 ? c->n : 1) * sizeof *c->ones);
  c->scratch = malloc((size_t)(c->n > 0 ? c->n : 1) * sizeof *c->scratch);
  SK_CHECK(ctx, c->vin && c->vout && c->ones && c->scratch && N_VGetArrayPointer(c->vin),
           SK_ERR_NOMEM, "cannot allocate linear solver '%s' (n = %lld)", c->type->name,
           (long long)c->n);
  for (int64_t i = 0; i < c->n; i++) {
    c->ones[i] = 1.0;
  }
  return SK_OK;
}

sk_status sk__sunlinsol_user(sk_context *ctx, const sk_linear_solver_type *type, sk_model *m,
                             N_Vector y, int maxl, int pretype, SUNContext sunctx,
                             SUNLinearSolver *LS)
{
  *LS = NULL;
  const int64_t n = sk_model_get_n(m);
  user_content *c = calloc(1, sizeof *c);
  SK_CHECK(ctx, c != NULL, SK_ERR_NOMEM, "cannot allocate linear solver '%s'", type->name);
  c->type = type;
  c->n = n;
  c->bcopy = malloc((size_t)(n > 0 ? n : 1) * sizeof *c->bcopy);
  const int iterative = type->kind == SK_LINSOL_ITERATIVE;
  if (!c->bcopy || (iterative && iterative_buffers(ctx, c, y, maxl, pretype) != SK_OK)) {
    content_free(c);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate linear solver '%s' (n = %lld)",
                    type->name, (long long)n);
  }
  if (type->create) {
    const sk_status st = type->create(m, &c->state);
    if (st != SK_OK) {
      content_free(c);
      return SK_ERROR(ctx, st < 0 ? st : SK_ERR_SOLVER,
                      "linear solver '%s': create failed for model '%s' (%s: %s)", type->name,
                      sk_model_get_name(m), sk_status_name(st), sk_status_str(st));
    }
  }
  c->created = 1;
  SUNLinearSolver S = SUNLinSolNewEmpty(sunctx);
  if (!S) {
    content_free(c);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "cannot create linear solver '%s'", type->name);
  }
  S->ops->gettype = user_gettype;
  S->ops->getid = user_getid;
  S->ops->initialize = user_initialize;
  S->ops->setup = iterative ? iter_setup : user_setup;
  S->ops->solve = iterative ? iter_solve : user_solve;
  if (iterative) {
    S->ops->setatimes = iter_setatimes;
    S->ops->setpreconditioner = iter_setpreconditioner;
    S->ops->setscalingvectors = iter_setscalingvectors;
    S->ops->numiters = iter_numiters;
    S->ops->resnorm = iter_resnorm;
    S->ops->resid = iter_resid;
  }
  S->ops->lastflag = user_lastflag;
  S->ops->free = user_free;
  S->content = c;
  *LS = S;
  return SK_OK;
}

sk_status sk__sunlinsol_user_last_status(SUNLinearSolver S)
{
  const user_content *c = S && S->ops && S->ops->free == user_free ? content(S) : NULL;
  return c ? c->last_status : SK_OK;
}

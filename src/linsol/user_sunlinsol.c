/* src/linsol/user_sunlinsol.c: a linear solver type registered at run time (stiffkit/linear_solver.h) as a direct SUNLinearSolver on the engine's CSC SUNSparseMatrix */
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
} user_content;

static user_content *content(SUNLinearSolver S)
{
  return S ? (user_content *)S->content : NULL;
}

static SUNLinearSolver_Type user_gettype(SUNLinearSolver S)
{
  (void)S;
  return SUNLINEARSOLVER_DIRECT;
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

sk_status sk__sunlinsol_user(sk_context *ctx, const sk_linear_solver_type *type, sk_model *m,
                             SUNContext sunctx, SUNLinearSolver *LS)
{
  *LS = NULL;
  const int64_t n = sk_model_get_n(m);
  user_content *c = calloc(1, sizeof *c);
  SK_CHECK(ctx, c != NULL, SK_ERR_NOMEM, "cannot allocate linear solver '%s'", type->name);
  c->type = type;
  c->n = n;
  c->bcopy = malloc((size_t)(n > 0 ? n : 1) * sizeof *c->bcopy);
  if (!c->bcopy) {
    free(c);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate linear solver '%s' (n = %lld)",
                    type->name, (long long)n);
  }
  if (type->create) {
    const sk_status st = type->create(m, &c->state);
    if (st != SK_OK) {
      free(c->bcopy);
      free(c);
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
  S->ops->setup = user_setup;
  S->ops->solve = user_solve;
  S->ops->lastflag = user_lastflag;
  S->ops->free = user_free;
  S->content = c;
  *LS = S;
  return SK_OK;
}

sk_status sk__sunlinsol_user_last_status(SUNLinearSolver S)
{
  const user_content *c = S && S->ops && S->ops->setup == user_setup ? content(S) : NULL;
  return c ? c->last_status : SK_OK;
}

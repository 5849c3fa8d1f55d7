/* src/linsol/umfpack_loader.c: linsol.h's UMFPACK functions, loading the UMFPACK module on the first create */
#include <umfpack.h>

#include "core/error.h"
#include "linsol/linsol.h"
#include "linsol/umfpack_module.h"

#define SK__UMFPACK_PURPOSE "linsol.type=umfpack (SuiteSparse UMFPACK)"

/* The table when the module is loaded already: only a loaded module can have made a solver. */
static const sk__umfpack_module *umfpack_loaded(void)
{
  return sk__module_peek("umfpack", SK__UMFPACK_MODULE_SYMBOL, SK__UMFPACK_MODULE_ABI,
                         sizeof(sk__umfpack_module));
}

sk_status sk__sunlinsol_umfpack(sk_context *ctx, N_Vector y, SUNMatrix A, SUNContext sunctx,
                                SUNLinearSolver *LS)
{
  SK_CHECK(ctx, LS, SK_ERR_ARG, "sk__sunlinsol_umfpack: NULL argument");
  *LS = NULL;
  const void *t = NULL;
  SK_CALL(ctx, sk__module_open(ctx, "umfpack", SK__UMFPACK_MODULE_SYMBOL, SK__UMFPACK_MODULE_ABI,
                               sizeof(sk__umfpack_module), SK__UMFPACK_PURPOSE, &t));
  const sk__umfpack_module *m = t;
  *LS = m->create(y, A, sunctx);
  SK_CHECK(ctx, *LS != NULL, SK_ERR_NOMEM,
           "cannot create the UMFPACK solver (out of memory, or not a square CSC matrix on a "
           "serial vector of its size)");
  return SK_OK;
}

int sk__sunlinsol_umfpack_last_status(SUNLinearSolver S)
{
  const sk__umfpack_module *m = umfpack_loaded();
  return m ? m->last_status(S) : UMFPACK_ERROR_argument_missing;
}

int64_t sk__sunlinsol_umfpack_factor_nnz(SUNLinearSolver S)
{
  const sk__umfpack_module *m = umfpack_loaded();
  return m ? m->factor_nnz(S) : 0;
}

const char *sk__umfpack_status_name(int status)
{
  switch (status) {
  case UMFPACK_OK:
    return "UMFPACK_OK";
  case UMFPACK_WARNING_singular_matrix:
    return "UMFPACK_WARNING_singular_matrix";
  case UMFPACK_WARNING_determinant_underflow:
    return "UMFPACK_WARNING_determinant_underflow";
  case UMFPACK_WARNING_determinant_overflow:
    return "UMFPACK_WARNING_determinant_overflow";
  case UMFPACK_ERROR_out_of_memory:
    return "UMFPACK_ERROR_out_of_memory";
  case UMFPACK_ERROR_invalid_Numeric_object:
    return "UMFPACK_ERROR_invalid_Numeric_object";
  case UMFPACK_ERROR_invalid_Symbolic_object:
    return "UMFPACK_ERROR_invalid_Symbolic_object";
  case UMFPACK_ERROR_argument_missing:
    return "UMFPACK_ERROR_argument_missing";
  case UMFPACK_ERROR_n_nonpositive:
    return "UMFPACK_ERROR_n_nonpositive";
  case UMFPACK_ERROR_invalid_matrix:
    return "UMFPACK_ERROR_invalid_matrix";
  case UMFPACK_ERROR_different_pattern:
    return "UMFPACK_ERROR_different_pattern";
  case UMFPACK_ERROR_invalid_system:
    return "UMFPACK_ERROR_invalid_system";
  case UMFPACK_ERROR_invalid_permutation:
    return "UMFPACK_ERROR_invalid_permutation";
  case UMFPACK_ERROR_internal_error:
    return "UMFPACK_ERROR_internal_error";
  case UMFPACK_ERROR_file_IO:
    return "UMFPACK_ERROR_file_IO";
  case UMFPACK_ERROR_ordering_failed:
    return "UMFPACK_ERROR_ordering_failed";
  default:
    return "UMFPACK_UNKNOWN_STATUS";
  }
}

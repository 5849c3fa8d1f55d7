/* src/backends/sundials_flags.c: the one map from CVODE and SUNLinearSolver flags to stiffkit statuses and names */
#include <cvode/cvode.h>

#include "backends/sundials_backend.h"

#define SK__CVODE_FLAGS(X)                             \
  X(CV_SUCCESS, SK_OK)                                 \
  X(CV_TSTOP_RETURN, SK_OK)                            \
  X(CV_ROOT_RETURN, SK_OK)                             \
  X(CV_WARNING, SK_OK)                                 \
  X(CV_TOO_MUCH_WORK, SK_ERR_TOO_MUCH_WORK)            \
  X(CV_TOO_MUCH_ACC, SK_ERR_SOLVER)                     \
  X(CV_ERR_FAILURE, SK_ERR_ERR_TEST)                   \
  X(CV_CONV_FAILURE, SK_ERR_CONV)                      \
  X(CV_LINIT_FAIL, SK_ERR_LINSOL)                      \
  X(CV_LSETUP_FAIL, SK_ERR_LINSOL)                     \
  X(CV_LSOLVE_FAIL, SK_ERR_LINSOL)                     \
  X(CV_RHSFUNC_FAIL, SK_ERR_CALLBACK)                  \
  X(CV_FIRST_RHSFUNC_ERR, SK_ERR_CALLBACK)             \
  X(CV_REPTD_RHSFUNC_ERR, SK_ERR_CALLBACK)             \
  X(CV_UNREC_RHSFUNC_ERR, SK_ERR_CALLBACK)             \
  X(CV_RTFUNC_FAIL, SK_ERR_CALLBACK)                   \
  X(CV_NLS_INIT_FAIL, SK_ERR_SOLVER)                   \
  X(CV_NLS_SETUP_FAIL, SK_ERR_SOLVER)                  \
  X(CV_CONSTR_FAIL, SK_ERR_SOLVER)                     \
  X(CV_NLS_FAIL, SK_ERR_CONV)                          \
  X(CV_MEM_FAIL, SK_ERR_NOMEM)                         \
  X(CV_MEM_NULL, SK_ERR_INTERNAL)                      \
  X(CV_ILL_INPUT, SK_ERR_INPUT)                        \
  X(CV_NO_MALLOC, SK_ERR_INTERNAL)                     \
  X(CV_BAD_K, SK_ERR_INTERNAL)                         \
  X(CV_BAD_T, SK_ERR_INTERNAL)                              \
  X(CV_BAD_DKY, SK_ERR_INTERNAL)                       \
  X(CV_TOO_CLOSE, SK_ERR_INPUT)                        \
  X(CV_VECTOROP_ERR, SK_ERR_INTERNAL)                  \
  X(CV_PROJ_MEM_NULL, SK_ERR_INTERNAL)                 \
  X(CV_PROJFUNC_FAIL, SK_ERR_CALLBACK)                 \
  X(CV_REPTD_PROJFUNC_ERR, SK_ERR_CALLBACK)            \
  X(CV_CONTEXT_ERR, SK_ERR_INTERNAL)                   \
  X(CV_UNRECOGNIZED_ERR, SK_ERR_SOLVER)

sk_status sk__status_from_cvode(int flag, const char **name)
{
  switch (flag) {
#define SK__CASE(f, st) \
  case f:               \
    *name = #f;         \
    return st;
    SK__CVODE_FLAGS(SK__CASE)
#undef SK__CASE
  default:
    break;
  }
  *name = "CV_UNKNOWN_FLAG";
  return flag < 0 ? SK_ERR_SOLVER : SK_OK;
}

#define SK__SUNLS_FLAGS(X)                                                      \
  X(SUNLS_SUCCESS) X(SUNLS_MEM_NULL) X(SUNLS_ILL_INPUT) X(SUNLS_MEM_FAIL)       \
  X(SUNLS_ATIMES_NULL) X(SUNLS_ATIMES_FAIL_UNREC) X(SUNLS_PSET_FAIL_UNREC)      \
  X(SUNLS_PSOLVE_NULL) X(SUNLS_PSOLVE_FAIL_UNREC) X(SUNLS_PACKAGE_FAIL_UNREC)   \
  X(SUNLS_GS_FAIL) X(SUNLS_QRSOL_FAIL) X(SUNLS_VECTOROP_ERR)                    \
  X(SUNLS_RES_REDUCED) X(SUNLS_CONV_FAIL) X(SUNLS_ATIMES_FAIL_REC)              \
  X(SUNLS_PSET_FAIL_REC) X(SUNLS_PSOLVE_FAIL_REC) X(SUNLS_PACKAGE_FAIL_REC)     \
  X(SUNLS_QRFACT_FAIL) X(SUNLS_LUFACT_FAIL)

const char *sk__sunls_flag_name(int flag)
{
  switch (flag) {
#define SK__NAME(f) \
  case f:           \
    return #f;
    SK__SUNLS_FLAGS(SK__NAME)
#undef SK__NAME
  default:
    return "SUNLS_UNKNOWN_FLAG";
  }
}

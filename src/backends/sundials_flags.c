/* src/backends/sundials_flags.c: the one map from CVODE, IDA, KINSOL and SUNLinearSolver flags to stiffkit statuses and names */
#include <cvodes/cvodes.h>
#include <idas/idas.h>
#include <kinsol/kinsol.h>

#include "backends/sundials_backend.h"

#define SK__CVODE_FLAGS(X)                  \
  X(CV_SUCCESS, SK_OK)                      \
  X(CV_TSTOP_RETURN, SK_OK)                 \
  X(CV_ROOT_RETURN, SK_OK)                  \
  X(CV_WARNING, SK_OK)                      \
  X(CV_TOO_MUCH_WORK, SK_ERR_TOO_MUCH_WORK) \
  X(CV_TOO_MUCH_ACC, SK_ERR_SOLVER)         \
  X(CV_ERR_FAILURE, SK_ERR_ERR_TEST)        \
  X(CV_CONV_FAILURE, SK_ERR_CONV)           \
  X(CV_LINIT_FAIL, SK_ERR_LINSOL)           \
  X(CV_LSETUP_FAIL, SK_ERR_LINSOL)          \
  X(CV_LSOLVE_FAIL, SK_ERR_LINSOL)          \
  X(CV_RHSFUNC_FAIL, SK_ERR_CALLBACK)       \
  X(CV_FIRST_RHSFUNC_ERR, SK_ERR_CALLBACK)  \
  X(CV_REPTD_RHSFUNC_ERR, SK_ERR_CALLBACK)  \
  X(CV_UNREC_RHSFUNC_ERR, SK_ERR_CALLBACK)  \
  X(CV_RTFUNC_FAIL, SK_ERR_CALLBACK)        \
  X(CV_NLS_INIT_FAIL, SK_ERR_SOLVER)        \
  X(CV_NLS_SETUP_FAIL, SK_ERR_SOLVER)       \
  X(CV_CONSTR_FAIL, SK_ERR_SOLVER)          \
  X(CV_NLS_FAIL, SK_ERR_CONV)               \
  X(CV_MEM_FAIL, SK_ERR_NOMEM)              \
  X(CV_MEM_NULL, SK_ERR_INTERNAL)           \
  X(CV_ILL_INPUT, SK_ERR_INPUT)             \
  X(CV_NO_MALLOC, SK_ERR_INTERNAL)          \
  X(CV_BAD_K, SK_ERR_INTERNAL)              \
  X(CV_BAD_T, SK_ERR_INTERNAL)              \
  X(CV_BAD_DKY, SK_ERR_INTERNAL)            \
  X(CV_TOO_CLOSE, SK_ERR_INPUT)             \
  X(CV_VECTOROP_ERR, SK_ERR_INTERNAL)       \
  X(CV_PROJ_MEM_NULL, SK_ERR_INTERNAL)      \
  X(CV_PROJFUNC_FAIL, SK_ERR_CALLBACK)      \
  X(CV_REPTD_PROJFUNC_ERR, SK_ERR_CALLBACK) \
  X(CV_CONTEXT_ERR, SK_ERR_INTERNAL)        \
  X(CV_UNRECOGNIZED_ERR, SK_ERR_SOLVER)

/* One map per package from its X-list: the status and static name of a
 * flag; an unlisted negative flag is a solver failure. */
#define SK__FLAG_CASE(f, st) \
  case f:                    \
    *name = #f;              \
    return st;
#define SK__DEFINE_FLAG_MAP(fn, list, unknown) \
  sk_status fn(int flag, const char **name)    \
  {                                            \
    switch (flag) {                            \
      list(SK__FLAG_CASE) default : break;     \
    }                                          \
    *name = unknown;                           \
    return flag < 0 ? SK_ERR_SOLVER : SK_OK;   \
  }

SK__DEFINE_FLAG_MAP(sk__status_from_cvode, SK__CVODE_FLAGS, "CV_UNKNOWN_FLAG")

/* success flags are SK_OK: the caller checks the residual itself */
#define SK__KINSOL_FLAGS(X)                 \
  X(KIN_SUCCESS, SK_OK)                     \
  X(KIN_INITIAL_GUESS_OK, SK_OK)            \
  X(KIN_STEP_LT_STPTOL, SK_OK)              \
  X(KIN_WARNING, SK_OK)                     \
  X(KIN_MEM_NULL, SK_ERR_INTERNAL)          \
  X(KIN_ILL_INPUT, SK_ERR_INPUT)            \
  X(KIN_NO_MALLOC, SK_ERR_INTERNAL)         \
  X(KIN_MEM_FAIL, SK_ERR_NOMEM)             \
  X(KIN_LINESEARCH_NONCONV, SK_ERR_CONV)    \
  X(KIN_MAXITER_REACHED, SK_ERR_CONV)       \
  X(KIN_MXNEWT_5X_EXCEEDED, SK_ERR_CONV)    \
  X(KIN_LINESEARCH_BCFAIL, SK_ERR_CONV)     \
  X(KIN_LINSOLV_NO_RECOVERY, SK_ERR_LINSOL) \
  X(KIN_LINIT_FAIL, SK_ERR_LINSOL)          \
  X(KIN_LSETUP_FAIL, SK_ERR_LINSOL)         \
  X(KIN_LSOLVE_FAIL, SK_ERR_LINSOL)         \
  X(KIN_SYSFUNC_FAIL, SK_ERR_CALLBACK)      \
  X(KIN_FIRST_SYSFUNC_ERR, SK_ERR_CALLBACK) \
  X(KIN_REPTD_SYSFUNC_ERR, SK_ERR_CALLBACK) \
  X(KIN_VECTOROP_ERR, SK_ERR_INTERNAL)      \
  X(KIN_CONTEXT_ERR, SK_ERR_INTERNAL)

SK__DEFINE_FLAG_MAP(sk__status_from_kinsol, SK__KINSOL_FLAGS, "KIN_UNKNOWN_FLAG")

#define SK__IDA_FLAGS(X)                     \
  X(IDA_SUCCESS, SK_OK)                      \
  X(IDA_TSTOP_RETURN, SK_OK)                 \
  X(IDA_ROOT_RETURN, SK_OK)                  \
  X(IDA_WARNING, SK_OK)                      \
  X(IDA_TOO_MUCH_WORK, SK_ERR_TOO_MUCH_WORK) \
  X(IDA_TOO_MUCH_ACC, SK_ERR_SOLVER)         \
  X(IDA_ERR_FAIL, SK_ERR_ERR_TEST)           \
  X(IDA_CONV_FAIL, SK_ERR_CONV)              \
  X(IDA_LINIT_FAIL, SK_ERR_LINSOL)           \
  X(IDA_LSETUP_FAIL, SK_ERR_LINSOL)          \
  X(IDA_LSOLVE_FAIL, SK_ERR_LINSOL)          \
  X(IDA_RES_FAIL, SK_ERR_CALLBACK)           \
  X(IDA_REP_RES_ERR, SK_ERR_CALLBACK)        \
  X(IDA_RTFUNC_FAIL, SK_ERR_CALLBACK)        \
  X(IDA_CONSTR_FAIL, SK_ERR_SOLVER)          \
  X(IDA_FIRST_RES_FAIL, SK_ERR_CALLBACK)     \
  X(IDA_LINESEARCH_FAIL, SK_ERR_CONV)        \
  X(IDA_NO_RECOVERY, SK_ERR_CONV)            \
  X(IDA_NLS_INIT_FAIL, SK_ERR_SOLVER)        \
  X(IDA_NLS_SETUP_FAIL, SK_ERR_SOLVER)       \
  X(IDA_NLS_FAIL, SK_ERR_CONV)               \
  X(IDA_MEM_NULL, SK_ERR_INTERNAL)           \
  X(IDA_MEM_FAIL, SK_ERR_NOMEM)              \
  X(IDA_ILL_INPUT, SK_ERR_INPUT)             \
  X(IDA_NO_MALLOC, SK_ERR_INTERNAL)          \
  X(IDA_BAD_EWT, SK_ERR_INPUT)               \
  X(IDA_BAD_K, SK_ERR_INTERNAL)              \
  X(IDA_BAD_T, SK_ERR_INTERNAL)              \
  X(IDA_BAD_DKY, SK_ERR_INTERNAL)            \
  X(IDA_VECTOROP_ERR, SK_ERR_INTERNAL)       \
  X(IDA_CONTEXT_ERR, SK_ERR_INTERNAL)        \
  X(IDA_UNRECOGNIZED_ERROR, SK_ERR_SOLVER)

SK__DEFINE_FLAG_MAP(sk__status_from_ida, SK__IDA_FLAGS, "IDA_UNKNOWN_FLAG")

/* one flag per line: clang-format 14 re-indents an X-macro list of bare calls */
/* clang-format off */
#define SK__SUNLS_FLAGS(X)     \
  X(SUNLS_SUCCESS)             \
  X(SUNLS_MEM_NULL)            \
  X(SUNLS_ILL_INPUT)           \
  X(SUNLS_MEM_FAIL)            \
  X(SUNLS_ATIMES_NULL)         \
  X(SUNLS_ATIMES_FAIL_UNREC)   \
  X(SUNLS_PSET_FAIL_UNREC)     \
  X(SUNLS_PSOLVE_NULL)         \
  X(SUNLS_PSOLVE_FAIL_UNREC)   \
  X(SUNLS_PACKAGE_FAIL_UNREC)  \
  X(SUNLS_GS_FAIL)             \
  X(SUNLS_QRSOL_FAIL)          \
  X(SUNLS_VECTOROP_ERR)        \
  X(SUNLS_RES_REDUCED)         \
  X(SUNLS_CONV_FAIL)           \
  X(SUNLS_ATIMES_FAIL_REC)     \
  X(SUNLS_PSET_FAIL_REC)       \
  X(SUNLS_PSOLVE_FAIL_REC)     \
  X(SUNLS_PACKAGE_FAIL_REC)    \
  X(SUNLS_QRFACT_FAIL)         \
  X(SUNLS_LUFACT_FAIL)
/* clang-format on */

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

/* src/linsol/umfpack_module.h: the interface of the UMFPACK module libstiffkit-umfpack.so, loaded by the first linsol.type=umfpack solver */
#ifndef SK_LINSOL_UMFPACK_MODULE_H
#define SK_LINSOL_UMFPACK_MODULE_H

#include <stdint.h>

#include <sundials/sundials_linearsolver.h>

#include "core/module.h"

/* UMFPACK brings CHOLMOD, CAMD, CCOLAMD, BLAS, LAPACK and gfortran (8
 * shared libraries); the module links them (linsol/umfpack_sunlinsol.c) and
 * libstiffkit's sk__sunlinsol_umfpack* (linsol/umfpack_loader.c) load it on
 * the first create and dispatch through this table. The functions have the
 * contracts of the same-named ones in linsol/linsol.h. Bump the ABI with
 * any change of the table. */
#define SK__UMFPACK_MODULE_ABI 1
#define SK__UMFPACK_MODULE_SYMBOL "sk__umfpack_module_table"

typedef struct {
  sk__module_head head;
  SUNLinearSolver (*create)(N_Vector y, SUNMatrix A, SUNContext sunctx);
  int (*last_status)(SUNLinearSolver S);
  int64_t (*factor_nnz)(SUNLinearSolver S);
} sk__umfpack_module;

#endif

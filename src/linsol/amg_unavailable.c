/* src/linsol/amg_unavailable.c: the AMG preconditioner of a serial build (SK_MPI=OFF, no hypre): every entry of amg_hypre.h refuses with SK_ERR_UNSUPPORTED (the serial build variant) */
#include <stddef.h>

#include "core/error.h"
#include "linsol/amg_hypre.h"

/* hypre BoomerAMG is an MPI library, so a build without MPI has no AMG.
 * This file replaces amg_hypre.c there (src/CMakeLists.txt): the options
 * and the CVODE adapter stay the same, and linsol.preconditioner=amg fails
 * at the create with the message below instead of at link time. */

#define SK__AMG_UNAVAILABLE                                                                   \
  "linsol.preconditioner=amg needs stiffkit built with SK_MPI=ON (hypre BoomerAMG is an MPI " \
  "library)"

/* No object is ever made (struct sk__amg stays incomplete here); the
 * settings, sk__amg_params_default, are in amg_params.c for both builds. */

sk_status sk__amg_create(sk_context *ctx, int64_t n, const int64_t *colptr, const int64_t *rowind,
                         const sk__amg_params *params, sk__amg **amg)
{
  if (amg) {
    *amg = NULL;
  }
  return SK_ERROR(ctx, SK_ERR_UNSUPPORTED, SK__AMG_UNAVAILABLE);
}

sk_status sk__amg_create_rows(sk_context *ctx, const void *comm, int64_t ilower, int64_t nlocal,
                              const int64_t *rowptr, const int64_t *cols,
                              const sk__amg_params *params, sk__amg **amg)
{
  if (amg) {
    *amg = NULL;
  }
  return SK_ERROR(ctx, SK_ERR_UNSUPPORTED, SK__AMG_UNAVAILABLE);
}

sk_status sk__amg_setup(sk__amg *amg, double gamma, const double *values)
{
  return SK_ERR_UNSUPPORTED;
}

sk_status sk__amg_setup_rows(sk__amg *amg, double gamma, const double *values)
{
  return SK_ERR_UNSUPPORTED;
}

sk_status sk__amg_solve(sk__amg *amg, const double *r, double *z)
{
  return SK_ERR_UNSUPPORTED;
}

void sk__amg_destroy(sk__amg **amg)
{
  if (amg) {
    *amg = NULL;
  }
}

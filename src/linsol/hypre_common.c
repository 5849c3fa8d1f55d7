/* src/linsol/hypre_common.c: the hypre module's shared pieces: hypre failures as located errors, MPI and hypre started on demand */
#include <string.h>

#include <mpi.h>

#include <HYPRE.h>

#include "core/context_impl.h"
#include "core/error.h"
#include "linsol/hypre_common.h"

/* hypre's error flag is a bit set; name the most specific bit. */
static const char *hypre_error_name(HYPRE_Int code)
{
  if (code & HYPRE_ERROR_MEMORY) {
    return "HYPRE_ERROR_MEMORY";
  }
  if (code & HYPRE_ERROR_ARG) {
    return "HYPRE_ERROR_ARG";
  }
  if (code & HYPRE_ERROR_CONV) {
    return "HYPRE_ERROR_CONV";
  }
  return "HYPRE_ERROR_GENERIC";
}

sk_status sk__hypre_failure(sk_context *ctx, HYPRE_Int code, const char *func, const char *file,
                            int line, const char *what)
{
  char descr[256];
  memset(descr, 0, sizeof descr);
  HYPRE_DescribeError(code, descr);
  descr[sizeof descr - 1] = '\0';
  sk_status st = sk__error_set(ctx, SK_ERR_SOLVER, func, file, line,
                               "hypre %s failed: error %d %s", what, (int)code, descr);
  sk__error_set_foreign(ctx, (int)code, hypre_error_name(code));
  HYPRE_ClearAllErrors();
  return st;
}

/* Context hook: finalize hypre, then MPI (called by sk_context_destroy of
 * the context that initialized MPI). */
static void hypre_mpi_finalize(void)
{
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) {
    HYPRE_Finalize();
    MPI_Finalize();
  }
}

sk_status sk__hypre_ensure_mpi(sk_context *ctx, const char *purpose)
{
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  SK_CHECK(ctx, !finalized, SK_ERR_STATE,
           "%s: MPI was already finalized in this process (MPI starts once per process: the "
           "context that started it for stiffkit has been destroyed)",
           purpose);
  if (!initialized) {
    int rc = MPI_Init(NULL, NULL);
    if (rc != MPI_SUCCESS) {
      char msg[MPI_MAX_ERROR_STRING];
      int len = 0;
      msg[0] = '\0';
      MPI_Error_string(rc, msg, &len);
      sk_status st = SK_ERROR(ctx, SK_ERR_SOLVER, "MPI_Init failed (needed by hypre): %s", msg);
      sk__error_set_foreign(ctx, rc, "MPI_Init");
      return st;
    }
    ctx->mpi_owned = 1;
    ctx->mpi_finalize = hypre_mpi_finalize;
  }
  SK_HYPRE(ctx, HYPRE_Init(), "HYPRE_Init");
  return SK_OK;
}

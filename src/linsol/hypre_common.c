/* src/linsol/hypre_common.c: the hypre module's shared pieces: hypre failures as located errors, MPI and hypre started on demand */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS (core/address_space.h) */
#include <string.h>

#include <sys/resource.h>

#include <mpi.h>

#include <HYPRE.h>

#include "core/address_space.h"
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

/* Open MPI's MPI_Init maps about 200 MiB of address space (measured: VmSize
 * grows by 199 MiB across a bare MPI_Init), and where a mapping fails inside
 * it, it aborts, prints PMIx errors or crashes (SIGSEGV, seen under ulimit -v)
 * instead of returning an error: 256 MiB must be free before it starts. */
#define SK_MPI_INIT_ADDRESS_SPACE ((size_t)256 << 20)

sk_status sk__hypre_check_room(sk_context *ctx, size_t bytes, const char *purpose,
                               const char *what)
{
  struct rlimit lim;
  if (getrlimit(RLIMIT_AS, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY) {
    return SK_OK;
  }
  SK_CHECK(ctx, sk__address_space_free(bytes), SK_ERR_NOMEM,
           "%s: out of memory for %s (about %.0f MiB of address space; the limit of %.0f MiB "
           "leaves less, and hypre would end the process where an allocation fails): raise "
           "the limit (ulimit -v) or choose another preconditioner",
           purpose, what, (double)bytes / 1048576.0, (double)lim.rlim_cur / 1048576.0);
  return SK_OK;
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
    SK_CALL(ctx, sk__hypre_check_room(ctx, SK_MPI_INIT_ADDRESS_SPACE, purpose,
                                      "starting MPI (hypre needs it)"));
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

/* src/linsol/hypre_common.h: what the hypre module's solvers share: hypre failures as located errors, MPI started on demand, room for them checked under a memory limit */
#ifndef SK_LINSOL_HYPRE_COMMON_H
#define SK_LINSOL_HYPRE_COMMON_H

#include <stddef.h>

#include <HYPRE_utilities.h>

#include "stiffkit/context.h"

/* sk__hypre_failure: record a hypre failure of `what` (the message and the
 * foreign flag name hypre's error), clear hypre's sticky error flag, and
 * return SK_ERR_SOLVER. */
sk_status sk__hypre_failure(sk_context *ctx, HYPRE_Int code, const char *func, const char *file,
                            int line, const char *what);

/* Call hypre; on a nonzero error flag record it and return SK_ERR_SOLVER. */
#define SK_HYPRE(ctx, call, what)                                                     \
  do {                                                                                \
    HYPRE_Int sk__hrc = (call);                                                       \
    if (sk__hrc != 0) {                                                               \
      return sk__hypre_failure((ctx), sk__hrc, __func__, __FILE__, __LINE__, (what)); \
    }                                                                                 \
  } while (0)

/* sk__hypre_ensure_mpi: initialize MPI if nobody has, recording in ctx
 * that stiffkit owns it (sk_context_destroy then finalizes hypre and MPI),
 * and initialize hypre. `purpose` ("linsol.preconditioner=amg") starts the
 * messages. Errors: SK_ERR_STATE (MPI already finalized), SK_ERR_SOLVER. */
sk_status sk__hypre_ensure_mpi(sk_context *ctx, const char *purpose);

/* sk__hypre_check_room: under an address-space limit (ulimit -v), check that
 * `bytes` of address space are free before a call that needs about that
 * much, and return SK_ERR_NOMEM naming `purpose`, `what` and the limit when
 * they are not. hypre ends the process (MPI_Abort) when an allocation fails
 * and Open MPI's MPI_Init crashes, so the check comes first. Without a limit
 * it returns SK_OK at once: memory that runs out then is the kernel's to
 * report. */
sk_status sk__hypre_check_room(sk_context *ctx, size_t bytes, const char *purpose,
                               const char *what);

#endif

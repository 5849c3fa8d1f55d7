/* src/linsol/mg_unavailable.c: the structured multigrid of a build without it (SK_MPI=OFF, or a hypre without the Struct interface): every entry of mg_struct.h refuses with SK_ERR_UNSUPPORTED */
#include <stddef.h>

#include "core/error.h"
#include "linsol/mg_struct.h"

/* Replaces mg_loader.c there (src/CMakeLists.txt, SK_MG_UNAVAILABLE_REASON
 * set by the configure step): the options and the CVODE adapter stay the
 * same; linsol.preconditioner=mg fails at the create with the sentence
 * below, and auto never chooses it. */
#ifndef SK_MG_UNAVAILABLE_REASON
#define SK_MG_UNAVAILABLE_REASON "stiffkit was built without hypre's structured-grid interface"
#endif

const char *sk__mg_available(void)
{
  return "linsol.preconditioner=mg is not available: " SK_MG_UNAVAILABLE_REASON;
}

sk_status sk__mg_create(sk_context *ctx, const sk__model_grid *g, int64_t n,
                        const int64_t *colptr, const int64_t *rowind, const sk__mg_params *params,
                        sk__mg **mg)
{
  if (mg) {
    *mg = NULL;
  }
  return SK_ERROR(ctx, SK_ERR_UNSUPPORTED, "%s (use linsol.preconditioner=model or jacobi)",
                  sk__mg_available());
}

sk_status sk__mg_create_box(sk_context *ctx, const void *comm, const sk__mg_box *box,
                            int64_t nraw, const int64_t *row, const int *key,
                            const sk__mg_params *params, sk__mg **mg)
{
  if (mg) {
    *mg = NULL;
  }
  return SK_ERROR(ctx, SK_ERR_UNSUPPORTED, "%s (use linsol.preconditioner=amg or bbd)",
                  sk__mg_available());
}

sk_status sk__mg_setup(sk__mg *mg, double gamma, const double *values)
{
  return SK_ERR_UNSUPPORTED;
}

sk_status sk__mg_solve(sk__mg *mg, const double *r, double *z)
{
  return SK_ERR_UNSUPPORTED;
}

void sk__mg_get_info(const sk__mg *mg, sk__mg_info *info)
{
  *info = (sk__mg_info){0, 0.0, 0, ""};
}

void sk__mg_report(const sk__mg *mg, int cycles, char *buf, size_t cap)
{
  if (cap > 0) {
    buf[0] = '\0';
  }
}

void sk__mg_destroy(sk__mg **mg)
{
  if (mg) {
    *mg = NULL;
  }
}

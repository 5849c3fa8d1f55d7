/* src/backends/sundials_constraints.c: the model's inequality constraints as the N_Vector CVODE, IDA and KINSOL take */
#include "backends/sundials_backend.h"
#include "core/error.h"

sk_status sk__sundials_constraints(sk_context *ctx, const sk_model *m, N_Vector like,
                                   N_Vector *out)
{
  *out = NULL;
  const int *c = sk_model_get_constraints(m);
  if (!c) {
    return SK_OK;
  }
  N_Vector v = N_VClone(like);
  SK_CHECK(ctx, v != NULL, SK_ERR_NOMEM, "cannot allocate the constraints vector");
  double *d = N_VGetArrayPointer(v);
  for (int64_t i = 0; i < sk_model_get_n(m); i++) {
    d[i] = (double)c[i];
  }
  *out = v;
  return SK_OK;
}

/* src/backends/nvector_factory.c: the engines' state vectors: serial over the caller's buffer, or the distributed model's own kind (core/model_dist.h) */
#include <nvector/nvector_serial.h>

#include "backends/sundials_backend.h"
#include "core/model_dist.h"

N_Vector sk__sun_state_vector(const sk_model *m, double *buf, SUNContext sunctx, int fast)
{
  const sk__model_distribution *dist = sk__model_get_distribution(m);
  if (dist) {
    return dist->make_vector(dist->data, buf, sk_model_get_n(m), (void *)sunctx, fast);
  }
  N_Vector v = N_VMake_Serial(sk_model_get_n(m), buf, sunctx);
  if (v) {
    sk__nvector_guard_clone(v);
    if (fast) {
      sk__nvector_use_fast_ops(v);
    }
  }
  return v;
}

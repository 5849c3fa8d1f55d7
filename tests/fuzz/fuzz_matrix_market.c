/* tests/fuzz/fuzz_matrix_market.c: fuzz target: a Matrix Market file read both as a matrix and as a vector (sk__mm_read_matrix_stream, sk__mm_read_vector_stream) from memory */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>

#include "fuzz/fuzz_target.h"
#include "core/error.h"
#include "sparse/matrix_market.h"
#include "stiffkit/context.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  sk_context *ctx = NULL;
  if (size == 0 || sk_context_create(&ctx) != SK_OK) { /* fmemopen refuses an empty buffer */
    return 0;
  }
  FILE *f = fmemopen((void *)data, size, "rb");
  if (f) {
    sk__mm_matrix a;
    (void)sk__mm_read_matrix_stream(ctx, f, "fuzz.mtx", "fuzz", SK__MM_SQUARE, &a);
    sk__mm_matrix_free(ctx, &a);
    fclose(f);
  }
  f = fmemopen((void *)data, size, "rb");
  if (f) {
    int64_t n = 0;
    double *v = NULL;
    (void)sk__mm_read_vector_stream(ctx, f, "fuzz.mtx", "fuzz", &n, &v);
    sk__free(ctx, v);
    fclose(f);
  }
  sk_context_destroy(&ctx);
  return 0;
}

/* tests/fuzz/fuzz_mechanism.c: fuzz target: a mechanism file (sk_multibody_load) read from an in-memory file */
#include <unistd.h>

#include "fuzz/fuzz_target.h"
#include "stiffkit/stiffkit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char path[64];
  const int fd = fz_memfile(data, size, path, sizeof path);
  sk_context *ctx = NULL;
  if (fd >= 0 && sk_context_create(&ctx) == SK_OK) {
    sk_multibody *m = NULL;
    (void)sk_multibody_load(ctx, path, &m);
    sk_multibody_destroy(&m);
  }
  sk_context_destroy(&ctx);
  if (fd >= 0) {
    close(fd);
  }
  return 0;
}

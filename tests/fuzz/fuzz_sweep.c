/* tests/fuzz/fuzz_sweep.c: fuzz target: a sweep file (sweep_spec_load) read from an in-memory file (parsed and checked, not expanded) */
#include <unistd.h>

#include "cli/sweep.h"
#include "fuzz/fuzz_target.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char path[64];
  const int fd = fz_memfile(data, size, path, sizeof path);
  sk_context *ctx = NULL;
  if (fd >= 0 && sk_context_create(&ctx) == SK_OK) {
    sweep_spec s;
    (void)sweep_spec_load(ctx, path, &s);
    sweep_spec_free(&s);
  }
  sk_context_destroy(&ctx);
  if (fd >= 0) {
    close(fd);
  }
  return 0;
}

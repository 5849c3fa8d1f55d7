/* tests/fuzz/fuzz_checkpoint.c: fuzz target: a checkpoint file (sk__checkpoint_read) whose trailing checksum the target recomputes, so that mutations reach the parser behind the checksum test */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz/fuzz_target.h"
#include "io/checkpoint.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  uint8_t *img = malloc(size ? size : 1);
  if (!img) {
    return 0;
  }
  memcpy(img, data, size);
  const size_t sum = sizeof(uint64_t);
  if (size >= sum) { /* the layout of sk__checkpoint_write: FNV-1a 64 of every byte before it */
    const uint64_t h = sk__fnv1a64(SK__FNV1A64_INIT, img, size - sum);
    memcpy(img + size - sum, &h, sum);
  }
  char path[64];
  const int fd = fz_memfile(img, size, path, sizeof path);
  sk_context *ctx = NULL;
  if (fd >= 0 && sk_context_create(&ctx) == SK_OK) {
    sk__checkpoint c;
    if (sk__checkpoint_read(ctx, path, &c) == SK_OK) {
      sk__checkpoint_free(ctx, &c);
    }
  }
  sk_context_destroy(&ctx);
  if (fd >= 0) {
    close(fd);
  }
  free(img);
  return 0;
}

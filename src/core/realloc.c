/* src/core/realloc.c: growing a block through the context allocator (so allocation-failure injection sees it) */
#include <string.h>

#include "core/error.h"

void *sk__realloc(sk_context *ctx, void *p, size_t old_size, size_t new_size)
{
  void *q = sk__malloc(ctx, new_size);
  if (!q) {
    return NULL;
  }
  if (p) {
    memcpy(q, p, old_size < new_size ? old_size : new_size);
  }
  sk__free(ctx, p);
  return q;
}

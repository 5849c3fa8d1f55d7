/* src/core/address_space.h: whether a block of address space is still free, probed without touching memory (for libraries that abort or crash instead of failing cleanly when an allocation fails) */
#ifndef SK_CORE_ADDRESS_SPACE_H
#define SK_CORE_ADDRESS_SPACE_H

#include <stddef.h>

#include <sys/mman.h>

/* 1 when `bytes` of address space could be mapped now (a PROT_NONE mapping,
 * released at once, commits no memory), 0 when the mapping failed: under an
 * address-space limit (ulimit -v) the library call that follows would then run
 * out of memory. The file including this header defines _DEFAULT_SOURCE
 * (MAP_ANONYMOUS) before its first system header. */
static inline int sk__address_space_free(size_t bytes)
{
  void *probe = mmap(NULL, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (probe == MAP_FAILED) {
    return 0;
  }
  munmap(probe, bytes);
  return 1;
}

#endif

/* tests/fuzz/fuzz_target.h: what every fuzz target shares: the libFuzzer entry point, the input as a NUL-terminated string or as an in-memory file */
#ifndef SK_TEST_FUZZ_TARGET_H
#define SK_TEST_FUZZ_TARGET_H

#include <stddef.h>
#include <stdint.h>

/* LLVMFuzzerTestOneInput: run one input of `size` bytes through the reader
 * of the target. Returns 0 (libFuzzer's contract); any memory error, leak or
 * undefined behaviour is reported by the sanitizers, an abort by the caller.
 * Each target defines it; libFuzzer (SK_FUZZ=ON) or fuzz_replay.c calls it. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* fz_text: a malloc'ed copy of the input with a NUL appended (inputs are not
 * NUL-terminated), NULL when out of memory. The caller frees it. */
char *fz_text(const uint8_t *data, size_t size);

/* fz_memfile: the input as an anonymous in-memory file (memfd), for readers
 * that take a path: writes "/proc/self/fd/<fd>" into path (cap bytes) and
 * returns the descriptor to close after the read, or -1 on failure. Nothing
 * is written to any file system. */
int fz_memfile(const uint8_t *data, size_t size, char *path, size_t cap);

#endif

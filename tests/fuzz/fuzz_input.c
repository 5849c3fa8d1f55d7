/* tests/fuzz/fuzz_input.c: the fuzz input as a NUL-terminated string or as an in-memory file (fuzz_target.h) */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz/fuzz_target.h"

char *fz_text(const uint8_t *data, size_t size)
{
  char *s = malloc(size + 1);
  if (s) {
    if (size) {
      memcpy(s, data, size);
    }
    s[size] = '\0';
  }
  return s;
}

int fz_memfile(const uint8_t *data, size_t size, char *path, size_t cap)
{
  const int fd = memfd_create("fuzz-input", MFD_CLOEXEC);
  if (fd < 0) {
    return -1;
  }
  size_t done = 0;
  while (done < size) {
    const ssize_t w = write(fd, data + done, size - done);
    if (w <= 0) {
      close(fd);
      return -1;
    }
    done += (size_t)w;
  }
  snprintf(path, cap, "/proc/self/fd/%d", fd);
  return fd;
}

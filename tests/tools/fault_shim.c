/* tests/tools/fault_shim.c: an LD_PRELOAD library for the fault tests: the k-th rename, fsync, unlink or file write of a process kills it (SIGKILL) or fails (ENOSPC, EIO), and a folder can be made read-only (EROFS) */
/* Environment (read at the first intercepted call):
 *   SK_FAULT_OP     rename | fsync | unlink | write: the calls counted
 *   SK_FAULT_AT     k >= 1: the call the fault hits
 *   SK_FAULT_DO     kill (SIGKILL at the k-th call) | enospc | eio (the k-th
 *                   and every later call fails: a full disk stays full)
 *   SK_FAULT_MATCH  count only calls whose path holds this text (rename:
 *                   either path; not for fsync and write)
 *   SK_FAULT_RO     a path prefix: creating, writing to, renaming or removing
 *                   files under it fails with EROFS (a read-only folder; the
 *                   tests run as root, whom permissions do not stop)
 * write counts writes to regular files only (write, pwrite and their 64-bit
 * names: what HDF5 calls; stdio inside the C library is not seen, its data
 * reaches the disk through the fsync that is). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

static const char *fault_op, *fault_do, *fault_match, *fault_ro;
static long fault_at, fault_count;
static int fault_ready;

static void fault_init(void)
{
  if (fault_ready) {
    return;
  }
  fault_ready = 1;
  fault_op = getenv("SK_FAULT_OP");
  fault_do = getenv("SK_FAULT_DO");
  fault_match = getenv("SK_FAULT_MATCH");
  fault_ro = getenv("SK_FAULT_RO");
  const char *at = getenv("SK_FAULT_AT");
  fault_at = at ? strtol(at, NULL, 10) : 0;
  if (fault_ro && !fault_ro[0]) {
    fault_ro = NULL;
  }
}

/* 0: the call goes on; else the errno it fails with (a kill does not return). */
static int fault_hit(const char *op, const char *path, const char *path2)
{
  fault_init();
  if (!fault_op || strcmp(fault_op, op) != 0 || fault_at <= 0) {
    return 0;
  }
  if (fault_match && fault_match[0] && !(path && strstr(path, fault_match)) &&
      !(path2 && strstr(path2, fault_match))) {
    return 0;
  }
  fault_count++;
  if (fault_count < fault_at) {
    return 0;
  }
  if (fault_do && !strcmp(fault_do, "kill")) {
    if (fault_count == fault_at) {
      raise(SIGKILL);
    }
    return 0;
  }
  return fault_do && !strcmp(fault_do, "eio") ? EIO : ENOSPC;
}

/* 1 when path (relative ones taken from the working directory) lies under
 * SK_FAULT_RO. */
static int read_only(const char *path)
{
  fault_init();
  if (!fault_ro || !path) {
    return 0;
  }
  char full[8192];
  char cwd[4096];
  if (path[0] != '/' && getcwd(cwd, sizeof cwd)) {
    snprintf(full, sizeof full, "%s/%s", cwd, path);
    path = full;
  }
  return strncmp(path, fault_ro, strlen(fault_ro)) == 0;
}

#define REAL(name, type) ((type)dlsym(RTLD_NEXT, name))
#define FAIL(e)  \
  do {           \
    errno = (e); \
    return -1;   \
  } while (0)

int rename(const char *from, const char *to)
{
  const int e = read_only(from) || read_only(to) ? EROFS : fault_hit("rename", from, to);
  if (e) {
    FAIL(e);
  }
  return REAL("rename", int (*)(const char *, const char *))(from, to);
}

int unlink(const char *path)
{
  const int e = read_only(path) ? EROFS : fault_hit("unlink", path, NULL);
  if (e) {
    FAIL(e);
  }
  return REAL("unlink", int (*)(const char *))(path);
}

int remove(const char *path)
{
  const int e = read_only(path) ? EROFS : fault_hit("unlink", path, NULL);
  if (e) {
    FAIL(e);
  }
  return REAL("remove", int (*)(const char *))(path);
}

int fsync(int fd)
{
  const int e = fault_hit("fsync", NULL, NULL);
  if (e) {
    FAIL(e);
  }
  return REAL("fsync", int (*)(int))(fd);
}

static int regular(int fd)
{
  struct stat st;
  return fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
}

ssize_t write(int fd, const void *buf, size_t n)
{
  const int e = regular(fd) ? fault_hit("write", NULL, NULL) : 0;
  if (e) {
    FAIL(e);
  }
  return REAL("write", ssize_t(*)(int, const void *, size_t))(fd, buf, n);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
  const int e = regular(fd) ? fault_hit("write", NULL, NULL) : 0;
  if (e) {
    FAIL(e);
  }
  return REAL("pwrite", ssize_t(*)(int, const void *, size_t, off_t))(fd, buf, n, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off)
{
  const int e = regular(fd) ? fault_hit("write", NULL, NULL) : 0;
  if (e) {
    FAIL(e);
  }
  return REAL("pwrite64", ssize_t(*)(int, const void *, size_t, off_t))(fd, buf, n, off);
}

/* open and open64: creating or opening for writing under SK_FAULT_RO fails */
static int open_with(const char *name, const char *path, int flags, mode_t mode)
{
  if ((flags & (O_CREAT | O_WRONLY | O_RDWR | O_TRUNC)) && read_only(path)) {
    FAIL(EROFS);
  }
  return REAL(name, int (*)(const char *, int, ...))(path, flags, mode);
}

int open(const char *path, int flags, ...)
{
  mode_t mode = 0;
  if (flags & (O_CREAT | O_TMPFILE)) {
    va_list ap;
    va_start(ap, flags);
    mode = va_arg(ap, mode_t);
    va_end(ap);
  }
  return open_with("open", path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
  mode_t mode = 0;
  if (flags & (O_CREAT | O_TMPFILE)) {
    va_list ap;
    va_start(ap, flags);
    mode = va_arg(ap, mode_t);
    va_end(ap);
  }
  return open_with("open64", path, flags, mode);
}

int mkstemp(char *tmpl)
{
  if (read_only(tmpl)) {
    FAIL(EROFS);
  }
  return REAL("mkstemp", int (*)(char *))(tmpl);
}

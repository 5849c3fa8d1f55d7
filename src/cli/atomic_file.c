/* src/cli/atomic_file.c: output files written under a temporary name and renamed into place when complete */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/atomic_file.h"
#include "cli/cli.h"

int cli_atomic_open(cli_atomic_file *af, const char *path)
{
  af->path = path;
  af->f = NULL;
  snprintf(af->tmp, sizeof af->tmp, "%s.tmp.XXXXXX", path);
  const int fd = mkstemp(af->tmp);
  if (fd >= 0) {
    const mode_t um = umask(0);
    umask(um);
    fchmod(fd, 0666 & ~um); /* mkstemp's 0600 would outlive the rename */
    af->f = fdopen(fd, "w");
  }
  if (!af->f) {
    fprintf(stderr, "stiffkit: error: cannot create '%s': %s\n", path, strerror(errno));
    if (fd >= 0) {
      close(fd);
      remove(af->tmp);
    }
    return SK_EXIT_CANTCREATE;
  }
  return 0;
}

int cli_atomic_finish(cli_atomic_file *af)
{
  errno = 0;
  int bad = fflush(af->f) != 0 || ferror(af->f) || fsync(fileno(af->f)) != 0;
  int err = errno;
  if (fclose(af->f) != 0 && !bad) {
    bad = 1;
    err = errno;
  }
  af->f = NULL;
  if (bad) {
    fprintf(stderr, "stiffkit: error: cannot write '%s': %s\n", af->path,
            err ? strerror(err) : "write error");
    remove(af->tmp);
    return SK_EXIT_IOERR;
  }
  return 0;
}

int cli_atomic_rename(cli_atomic_file *af)
{
  if (rename(af->tmp, af->path) != 0) {
    fprintf(stderr, "stiffkit: error: cannot write '%s': %s\n", af->path, strerror(errno));
    remove(af->tmp);
    return SK_EXIT_IOERR;
  }
  return 0;
}

int cli_atomic_commit(cli_atomic_file *af)
{
  const int code = cli_atomic_finish(af);
  return code != 0 ? code : cli_atomic_rename(af);
}

void cli_atomic_abort(cli_atomic_file *af)
{
  if (af->f) {
    fclose(af->f);
    af->f = NULL;
  }
  remove(af->tmp);
}

int cli_atomic_keep_all_or_none(int code, char (*files)[4096], int *nfiles)
{
  for (int i = 0; code != 0 && i < *nfiles; i++) {
    remove(files[i]);
  }
  if (code != 0) {
    *nfiles = 0;
  }
  return code;
}

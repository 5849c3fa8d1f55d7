/* tests/test_files.h: scratch files for test executables: a fresh temporary directory and files written into it */
#ifndef SK_TEST_FILES_H
#define SK_TEST_FILES_H

#include <stdio.h>
#include <stdlib.h>

/* test_tmpdir: create a fresh directory $TMPDIR/sk_<tag>_XXXXXX (or under
 * /tmp) and write its path to dir; the test exits with 2 when it cannot. */
static inline void test_tmpdir(char *dir, size_t len, const char *tag)
{
  const char *base = getenv("TMPDIR");
  snprintf(dir, len, "%s/sk_%s_XXXXXX", base && base[0] ? base : "/tmp", tag);
  if (!mkdtemp(dir)) {
    fprintf(stderr, "cannot create a temporary directory %s\n", dir);
    exit(2);
  }
}

/* test_write_file: write `text` to path (replacing it); exits with 2 on failure. */
static inline void test_write_file(const char *path, const char *text)
{
  FILE *f = fopen(path, "w");
  if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
    fprintf(stderr, "cannot write %s\n", path);
    exit(2);
  }
}

#endif

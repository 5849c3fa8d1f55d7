/* tests/fuzz/fuzz_replay.c: the main of a fuzz target built without libFuzzer: runs every file (and every file in every directory) given on the command line through the target once */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz/fuzz_target.h"

/* Run the file at path through the target; 0 on success, 1 when it cannot be read. */
static int replay_file(const char *path)
{
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "fuzz_replay: cannot open '%s'\n", path);
    return 1;
  }
  size_t cap = 4096, len = 0;
  uint8_t *buf = malloc(cap);
  size_t got;
  while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
    len += got;
    if (len == cap) {
      uint8_t *nb = realloc(buf, cap * 2);
      if (!nb) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = nb;
      cap *= 2;
    }
  }
  const int bad = ferror(f) || !buf;
  fclose(f);
  if (bad) {
    free(buf);
    fprintf(stderr, "fuzz_replay: cannot read '%s'\n", path);
    return 1;
  }
  LLVMFuzzerTestOneInput(buf, len);
  free(buf);
  return 0;
}

/* Usage: fuzz_<target> FILE|DIR...; prints how many inputs ran. Exit 0 when
 * every input ran (a crash ends the program), 1 when one could not be read
 * or none was given. */
int main(int argc, char **argv)
{
  int bad = 0;
  long runs = 0;
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
      struct dirent **names = NULL;
      const int n = scandir(argv[i], &names, NULL, alphasort);
      if (n < 0) {
        fprintf(stderr, "fuzz_replay: cannot list '%s'\n", argv[i]);
        bad = 1;
        continue;
      }
      for (int k = 0; k < n; k++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[i], names[k]->d_name);
        struct stat fs;
        if (names[k]->d_name[0] != '.' && stat(path, &fs) == 0 && S_ISREG(fs.st_mode)) {
          bad |= replay_file(path);
          runs++;
        }
        free(names[k]);
      }
      free(names);
    } else {
      bad |= replay_file(argv[i]);
      runs++;
    }
  }
  printf("fuzz_replay: %ld inputs\n", runs);
  return bad || runs == 0;
}

/* src/cli/main.c: the stiffkit command: dispatch to subcommands */
#include <stdio.h>
#include <string.h>

#include "stiffkit/stiffkit.h"

int main(int argc, char **argv)
{
  if (argc > 1 && strcmp(argv[1], "--version") == 0) {
    printf("stiffkit %s\n", SK_VERSION);
    return 0;
  }
  fprintf(stderr, "usage: stiffkit run|info ...\n");
  return 64;
}

/* src/cli/cmd_info.c: `stiffkit info`: versions of stiffkit and its libraries, build options */
#include <stdio.h>

#include "cli/cli.h"
#include "io/provenance.h"

int cli_info(int argc, char **argv)
{
  (void)argv;
  if (argc > 1) {
    fprintf(stderr, "stiffkit: error: 'info' takes no arguments\n");
    return SK_EXIT_USAGE;
  }
  return sk__versions_print(stdout) == SK_OK ? SK_EXIT_OK : SK_EXIT_IOERR;
}

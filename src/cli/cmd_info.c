/* src/cli/cmd_info.c: `stiffkit info`: versions of stiffkit and its libraries, build options, the registered model and stepper types */
#include <stdio.h>

#include "cli/cli.h"
#include "cli/run_report.h"
#include "stiffkit/provenance.h"

int cli_info(int argc, char **argv)
{
  (void)argv;
  if (argc > 1) {
    fprintf(stderr, "stiffkit: error: 'info' takes no arguments\n");
    return SK_EXIT_USAGE;
  }
  if (sk_versions_print(stdout) != SK_OK) {
    return SK_EXIT_IOERR;
  }
  printf("model types (model.type):\n");
  const sk_model_type *m;
  for (size_t i = 0; (m = sk_model_type_list(NULL, i)) != NULL; i++) {
    printf("  %-12s %s\n", m->name, m->description);
  }
  printf("stepper types (solver.method):\n");
  const sk_stepper_type *s;
  for (size_t i = 0; (s = sk_stepper_type_list(NULL, i)) != NULL; i++) {
    printf("  %-12s %s\n", s->name, s->description ? s->description : "");
  }
  return cli_stdout_status();
}

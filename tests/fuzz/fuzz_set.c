/* tests/fuzz/fuzz_set.c: fuzz target: every line of the input as one command-line --set assignment (sk_options_set_assignment) on the CLI's full option set */
#include <stdlib.h>

#include <string.h>

#include "cli/job.h"
#include "fuzz/fuzz_target.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *text = fz_text(data, size);
  sk_context *ctx = NULL;
  if (!text || sk_context_create(&ctx) != SK_OK) {
    free(text);
    return 0;
  }
  cli_job job;
  cli_job_init(&job);
  if (cli_job_options(ctx, &job) == SK_OK) {
    /* a NUL in the input ends the last assignment, as it would on a command line */
    for (char *line = text; line;) {
      char *next = strchr(line, '\n');
      if (next) {
        *next++ = '\0';
      }
      (void)sk_options_set_assignment(job.opts, line);
      line = next;
    }
    (void)sk_options_check_pending(job.opts);
  }
  cli_job_free(&job);
  sk_context_destroy(&ctx);
  free(text);
  return 0;
}

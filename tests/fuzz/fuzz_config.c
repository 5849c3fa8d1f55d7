/* tests/fuzz/fuzz_config.c: fuzz target: a YAML config loaded into the CLI's full option set (sk_config_load_buffer), then the deferred keys checked */
#include "cli/job.h"
#include "fuzz/fuzz_target.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK) {
    return 0;
  }
  cli_job job;
  cli_job_init(&job);
  if (cli_job_options(ctx, &job) == SK_OK &&
      sk_config_load_buffer(job.opts, "fuzz.yaml", (const char *)data, size) == SK_OK) {
    (void)sk_options_check_pending(job.opts);
  }
  cli_job_free(&job);
  sk_context_destroy(&ctx);
  return 0;
}

/* tests/fuzz/fuzz_bvp.c: fuzz target: a BVP description (YAML config with a bvp: section) loaded and built as the CLI does (sk_bvp_from_options, settings, continuation), not solved */
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
      sk_config_load_buffer(job.opts, "fuzz.yaml", (const char *)data, size) == SK_OK &&
      sk_bvp_from_options(ctx, job.opts, &job.bvp, &job.bvp_keys) == SK_OK) {
    sk_bvp_settings set;
    sk_bvp_continuation c;
    int cont = 0;
    if (sk_bvp_settings_from_options(ctx, job.opts, &set) == SK_OK) {
      (void)sk_bvp_continuation_from_options(ctx, job.opts, job.bvp, &c, &cont);
    }
  }
  cli_job_free(&job); /* frees the options before the keys they point into */
  sk_context_destroy(&ctx);
  return 0;
}

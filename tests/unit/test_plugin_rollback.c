/* tests/unit/test_plugin_rollback.c: a plugin whose sk_plugin_register fails after registering a model type, a preconditioner and a linear solver (tests/plugins/register_then_fail.c, path in SK_TEST_PLUGIN_FAIL) leaves none of them behind, so no name points into the unloaded library */
#include "../test.h"

int main(void)
{
  const char *path = getenv("SK_TEST_PLUGIN_FAIL");
  if (!path) {
    fprintf(stderr, "SK_TEST_PLUGIN_FAIL is not set\n");
    return 1;
  }
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  const sk_model_type *before = sk_model_type_list(ctx, 0);
  CHECK_EQ_INT(sk_plugin_load(ctx, path), SK_ERR_INPUT);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "sk_plugin_register failed");
  CHECK(sk_model_type_find(ctx, "doomed-model") == NULL);
  CHECK(sk_preconditioner_type_find(ctx, "doomed-prec") == NULL);
  CHECK(sk_linear_solver_type_find(ctx, "doomed-ls") == NULL);
  size_t n = 0;
  while (sk_model_type_list(ctx, n)) {
    CHECK(strcmp(sk_model_type_list(ctx, n)->name, "doomed-model") != 0);
    n++;
  }
  CHECK(sk_model_type_list(ctx, 0) == before);
  /* the names are free again: a second load fails the same way, not on a taken name */
  CHECK_EQ_INT(sk_plugin_load(ctx, path), SK_ERR_INPUT);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "sk_plugin_register failed");
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

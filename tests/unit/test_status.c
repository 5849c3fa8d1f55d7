/* tests/unit/test_status.c: status names and messages, error record formatting with traceback */
#include "core/error.h"
#include "test.h"

static sk_status inner(sk_context *ctx)
{
  SK_CHECK(ctx, 0, SK_ERR_INPUT, "bad value %d", 42);
  return SK_OK;
}

static sk_status outer(sk_context *ctx)
{
  SK_CALL(ctx, inner(ctx));
  return SK_OK;
}

int main(void)
{
  CHECK(strcmp(sk_status_name(SK_OK), "SK_OK") == 0);
  CHECK(strcmp(sk_status_name(SK_ERR_NONFINITE), "SK_ERR_NONFINITE") == 0);
  CHECK(strcmp(sk_status_str(SK_ERR_NOMEM), "allocation failed") == 0);
  CHECK(strcmp(sk_status_name((sk_status)12345), "SK_UNKNOWN") == 0);
  CHECK(strcmp(sk_status_str((sk_status)12345), "unknown status") == 0);
  /* every listed status has a distinct name and a non-empty message */
#define NAME_OK(name, value, msg) \
  CHECK(strcmp(sk_status_name(name), #name) == 0 && strlen(sk_status_str(name)) > 0);
  SK_STATUS_LIST(NAME_OK)
#undef NAME_OK
  CHECK(SK_RECOVERABLE > 0 && SK_ERR_NOMEM < 0);

  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  CHECK(outer(ctx) == SK_ERR_INPUT);
  const sk_error *e = sk_context_get_error(ctx);
  CHECK(e->code == SK_ERR_INPUT);
  CHECK_STR_CONTAINS(e->message, "bad value 42");
  CHECK_EQ_INT(e->nframes, 2);
  CHECK_STR_CONTAINS(e->frames[0], "inner() at tests/unit/test_status.c:");
  CHECK_STR_CONTAINS(e->frames[1], "outer() at tests/unit/test_status.c:");
  sk__error_set_foreign(ctx, -4, "CV_CONV_FAILURE");
  char buf[1024];
  sk_error_format(e, 1, buf, sizeof buf);
  CHECK_STR_CONTAINS(buf, "bad value 42 [CV_CONV_FAILURE -4]\n  at inner()");
  sk_error_format(e, 0, buf, 10); /* truncation stays NUL-terminated */
  CHECK(strlen(buf) == 9);
  sk_context_clear_error(ctx);
  CHECK(sk_context_get_error(ctx)->code == SK_OK);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

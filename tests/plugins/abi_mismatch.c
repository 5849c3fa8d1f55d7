/* tests/plugins/abi_mismatch.c: a test plugin that claims plugin ABI 999 (sk_plugin_load must refuse it) */
#include <stiffkit/stiffkit.h>

SK_PLUGIN_EXPORT int sk_plugin_abi_version(void)
{
  return 999;
}

/* never called: the ABI check comes first */
SK_PLUGIN_EXPORT sk_status sk_plugin_register(sk_context *ctx)
{
  (void)ctx;
  return SK_ERR_INTERNAL;
}

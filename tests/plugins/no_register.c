/* tests/plugins/no_register.c: a test plugin with the ABI version but without sk_plugin_register */
#include <stiffkit/stiffkit.h>

SK_PLUGIN_DEFINE_ABI_VERSION()

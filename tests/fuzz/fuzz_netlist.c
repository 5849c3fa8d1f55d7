/* tests/fuzz/fuzz_netlist.c: fuzz target: a thermal netlist parsed from memory (sk__netlist_parse_string; .include paths resolve against the working directory) */
#include <stdlib.h>

#include "fuzz/fuzz_target.h"
#include "io/netlist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *text = fz_text(data, size);
  sk_context *ctx = NULL;
  if (text && sk_context_create(&ctx) == SK_OK) {
    sk__netlist *nl = NULL;
    if (sk__netlist_parse_string(ctx, text, "fuzz.net", &nl) == SK_OK) {
      sk__netlist_destroy(ctx, &nl);
    }
  }
  sk_context_destroy(&ctx);
  free(text);
  return 0;
}

/* tests/fuzz/fuzz_netlist_value.c: fuzz target: the netlist value expressions (src/io/netlist_value.c): the input, on one line, as the braced value of a .param used by an element */
#include <stdlib.h>

#include <string.h>

#include "fuzz/fuzz_target.h"
#include "io/netlist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  static const char head[] = ".param p = {", tail[] = "}\nR1 a 0 {p}\nC1 a 0 {2*p}\n";
  char *text = malloc(sizeof head + size + sizeof tail);
  sk_context *ctx = NULL;
  if (text && sk_context_create(&ctx) == SK_OK) {
    memcpy(text, head, sizeof head - 1);
    size_t n = sizeof head - 1;
    for (size_t i = 0; i < size;
         i++) { /* one line: the expression itself is fuzzed, not the lexer */
      text[n++] = data[i] == '\n' || data[i] == '\r' || data[i] == '\0' ? ' ' : (char)data[i];
    }
    memcpy(text + n, tail, sizeof tail);
    sk__netlist *nl = NULL;
    if (sk__netlist_parse_string(ctx, text, "fuzz.net", &nl) == SK_OK) {
      sk__netlist_destroy(ctx, &nl);
    }
  }
  sk_context_destroy(&ctx);
  free(text);
  return 0;
}

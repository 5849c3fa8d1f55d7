/* tests/fuzz/fuzz_formula.c: fuzz target: a muparser formula g(t) (sk__time_function_formula, the reader behind model.load_amplitude and the BVP and mechanism formulas), parsed and evaluated */
#include <stdlib.h>

#include "fuzz/fuzz_target.h"
#include "io/time_function.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *text = fz_text(data, size);
  sk_context *ctx = NULL;
  if (text && sk_context_create(&ctx) == SK_OK) {
    sk__time_function *tf = NULL;
    if (sk__time_function_formula(ctx, text, "fuzz", &tf) == SK_OK) {
      (void)sk__time_function_eval(tf, 0.5);
      (void)sk__time_function_eval(tf, -1e300);
    }
    sk__time_function_destroy(&tf);
  }
  sk_context_destroy(&ctx);
  free(text);
  return 0;
}

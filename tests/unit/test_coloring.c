/* tests/unit/test_coloring.c: distance-2 column coloring: validity, color counts of the 5- and 7-point stencils */
#include "fd_models.h"
#include "core/coloring.h"

static int64_t colors_of(sk_context *ctx, sk_model *m)
{
  const int64_t *cp, *ri;
  int64_t nnz, nc = 0;
  const int64_t n = sk_model_get_n(m);
  sk_model_get_jac_pattern(m, &cp, &ri, &nnz);
  int64_t *color = calloc((size_t)n, sizeof *color);
  CHECK_OK(ctx, sk__csc_color_columns(ctx, n, cp, ri, color, &nc));
  CHECK(sk__csc_coloring_valid(ctx, n, cp, ri, color));
  CHECK_EQ_INT(nc, sk_model_get_jac_colors(m));
  free(color);
  return nc;
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  for (int k = 0; k < FD_NMODELS; k++) {
    sk_model *m = fd_builtin(ctx, k, 0);
    const int64_t nc = colors_of(ctx, m);
    printf("%s (n=%lld): %lld colors\n", sk_model_get_name(m), (long long)sk_model_get_n(m),
           (long long)nc);
    if (k == 4) {
      CHECK(nc >= 5 && nc <= 9); /* 5-point stencil */
    }
    if (k == 2) {
      CHECK(nc >= 7 && nc <= 13); /* 7-point stencil */
    }
    sk_model_destroy(&m);
  }
  sk_model *big = fd_builtin(ctx, 4, 200);
  const int64_t nc = colors_of(ctx, big);
  printf("2D 5-point 200x200: %lld colors\n", (long long)nc);
  CHECK(nc <= 9);
  sk_model_destroy(&big);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

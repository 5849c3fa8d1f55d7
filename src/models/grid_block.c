/* src/models/grid_block.c: the table of the models that run block by block (distributed): diffusion and the Brusselator */
#include <stdio.h>
#include <string.h>

#include "models/grid_block.h"

static const sk__block_kernels *const kernels[] = {&sk__diffusion_block, &sk__brusselator_block};
enum { NKERNELS = sizeof kernels / sizeof kernels[0] };

const sk__block_kernels *sk__block_kernels_find(const char *type)
{
  for (size_t i = 0; type && i < NKERNELS; i++) {
    if (!strcmp(kernels[i]->model_type, type)) {
      return kernels[i];
    }
  }
  return NULL;
}

void sk__block_kernels_list(char *buf, size_t cap)
{
  size_t used = 0;
  if (cap > 0) {
    buf[0] = '\0';
  }
  for (size_t i = 0; i < NKERNELS && used < cap; i++) {
    const char *sep = i == 0 ? "" : (i + 1 == NKERNELS ? " and " : ", ");
    const int w = snprintf(buf + used, cap - used, "%s%s", sep, kernels[i]->model_type);
    used += w > 0 ? (size_t)w : 0;
  }
}

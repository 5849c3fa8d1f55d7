/* src/models/grid_keys.c: the bound tables of the grid models' model.* keys (grid_keys.h) and the public tables of the grid, diffusion and Brusselator models */
#include <stddef.h>

#include "models/grid_keys.h"
#include "stiffkit/diffusion.h"

#define SK__BIND_STRUCT sk__grid_keys
SK__BIND_DEFINE(sk__grid, SK__GRID_KEYS, sk__grid_keys, SK__GRID_KEY_COUNT)
#undef SK__BIND_STRUCT
#define SK__BIND_STRUCT sk__diffusion_keys
SK__BIND_DEFINE(sk__diffusion, SK__DIFFUSION_KEYS, sk__diffusion_keys, SK__DIFFUSION_KEY_COUNT)
#undef SK__BIND_STRUCT
#define SK__BIND_STRUCT sk__brusselator_keys
SK__BIND_DEFINE(sk__brusselator, SK__BRUSSELATOR_KEYS, sk__brusselator_keys,
                SK__BRUSSELATOR_KEY_COUNT)
#undef SK__BIND_STRUCT

const sk_option_spec *sk_grid_options(size_t *n)
{
  return sk__grid_options(n);
}

const sk_option_spec *sk_diffusion_options(size_t *n)
{
  return sk__diffusion_options(n);
}

const sk_option_spec *sk_brusselator_options(size_t *n)
{
  return sk__brusselator_options(n);
}

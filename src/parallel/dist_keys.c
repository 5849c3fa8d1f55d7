/* src/parallel/dist_keys.c: the option keys of distributed runs: the table and the reader of its fields (declared in every build; serial runs accept and ignore them) */
#include "parallel/dist_keys.h"

#define SK__BIND_STRUCT sk__parallel_settings
SK__BIND_DEFINE(sk__parallel, SK__DIST_KEYS, sk__parallel_settings, SK__DIST_KEY_COUNT)
#undef SK__BIND_STRUCT

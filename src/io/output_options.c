/* src/io/output_options.c: the output.* option table (which files, where, output times, probes) and the reader of its fields */
#include "io/output_options.h"

#define SK__BIND_STRUCT sk__output_settings
SK__BIND_DEFINE(sk__output, SK__OUTPUT_KEYS, sk__output_settings, SK__OUTPUT_KEY_COUNT)
#undef SK__BIND_STRUCT

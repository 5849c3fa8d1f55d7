/* src/io/output_options.c: the output.* option table (which files, where, output times, probes) and the reader of its fields */
#include "io/output_options.h"

static const sk_option_spec output_options[] = {SK__OUTPUT_KEYS(SK__BIND_SPEC)};

#define SK__BIND_STRUCT sk__output_settings
static const size_t output_offsets[] = {SK__OUTPUT_KEYS(SK__BIND_OFFSET)};
#undef SK__BIND_STRUCT

const sk_option_spec *sk__output_options(size_t *n)
{
  *n = SK__OUTPUT_KEY_COUNT;
  return output_options;
}

sk_status sk__output_settings_read(const sk_options *opts, sk__output_settings *st,
                                   uint64_t *given)
{
  *st = (sk__output_settings){0};
  return sk__options_read_bound(opts, output_options, output_offsets, SK__OUTPUT_KEY_COUNT, st,
                                given);
}

const char *sk__output_key(int k)
{
  return sk__bound_key(output_options, SK__OUTPUT_KEY_COUNT, k);
}

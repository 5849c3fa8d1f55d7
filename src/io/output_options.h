/* src/io/output_options.h: the output.* option table */
#ifndef SK_IO_OUTPUT_OPTIONS_H
#define SK_IO_OUTPUT_OPTIONS_H

#include <stddef.h>

#include "stiffkit/options.h"

/* sk__output_options: the output.* keys (n receives the count). */
const sk_option_spec *sk__output_options(size_t *n);

#endif

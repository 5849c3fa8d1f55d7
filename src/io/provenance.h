/* src/io/provenance.h: the provenance writer's test of an options text (a YAML block mapping); the provenance and the version table themselves are stiffkit/provenance.h */
#ifndef SK_IO_PROVENANCE_H
#define SK_IO_PROVENANCE_H

#include <stddef.h>
#include <stdio.h>

#include "stiffkit/provenance.h"

/* sk__yaml_is_block_mapping: 1 when `text` is exactly one YAML document
 * without explicit start/end markers whose root is a block mapping (so it
 * can be nested under a key by indenting every line), else 0. */
int sk__yaml_is_block_mapping(const char *text);

#endif

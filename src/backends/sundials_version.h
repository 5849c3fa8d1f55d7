/* src/backends/sundials_version.h: SUNDIALS version facts (run time and build time) without SUNDIALS headers */
#ifndef SK_BACKENDS_SUNDIALS_VERSION_H
#define SK_BACKENDS_SUNDIALS_VERSION_H

#include <stddef.h>

/* sk__sundials_version: the version of the SUNDIALS library loaded at run
 * time (SUNDIALSGetVersion, e.g. "6.4.1") into buf, always NUL-terminated;
 * "unknown" when SUNDIALS cannot tell. Does nothing when len == 0. */
void sk__sundials_version(char *buf, size_t len);

/* sk__sundials_build_version: SUNDIALS_VERSION of the headers stiffkit was
 * compiled against (static string). */
const char *sk__sundials_build_version(void);

/* sk__sundials_index_bits: bits of sunindextype (32 or 64). */
int sk__sundials_index_bits(void);

#endif

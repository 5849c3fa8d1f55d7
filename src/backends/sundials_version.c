/* src/backends/sundials_version.c: SUNDIALS version at run time and build time, and the index size */
#include <stdio.h>

#include <sundials/sundials_config.h>
#include <sundials/sundials_types.h>
#include <sundials/sundials_version.h>

#include "backends/sundials_version.h"

void sk__sundials_version(char *buf, size_t len)
{
  if (!buf || len == 0) {
    return;
  }
  char v[64] = "";
  if (SUNDIALSGetVersion(v, (int)sizeof v) != 0 || v[0] == '\0') {
    snprintf(buf, len, "unknown");
    return;
  }
  snprintf(buf, len, "%s", v);
}

const char *sk__sundials_build_version(void)
{
  return SUNDIALS_VERSION;
}

int sk__sundials_index_bits(void)
{
  return (int)(sizeof(sunindextype) * 8);
}

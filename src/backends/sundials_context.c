/* src/backends/sundials_context.c: capture of SUNDIALS messages into a per-engine sink */
#include <stdio.h>
#include <string.h>

#include <cvodes/cvodes.h>
#include <idas/idas.h>
#include <kinsol/kinsol.h>

#include "backends/sundials_backend.h"

void sk__sundials_record(sk__sundials_messages *sink, int code, const char *func, const char *msg)
{
  if (code == CV_WARNING || code == IDA_WARNING || code == KIN_WARNING) {
    sink->warnings++;
  }
  sink->last_code = code;
  snprintf(sink->msg, sizeof sink->msg, "%s: %s", func ? func : "?", msg ? msg : "");
}

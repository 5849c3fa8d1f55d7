/* src/backends/sundials_backend.h: shared internals of the SUNDIALS adapters (context, flag maps, fast vector ops) */
#ifndef SK_BACKENDS_SUNDIALS_BACKEND_H
#define SK_BACKENDS_SUNDIALS_BACKEND_H

#include <nvector/nvector_serial.h>
#include <sundials/sundials_linearsolver.h>

#include "backends/sundials_compat.h"
#include "stiffkit/context.h"

#define SK_SUNDIALS_MSG_LEN 512

/* Where SUNDIALS' own messages go instead of stderr: the last message, its
 * code, and a count of warnings. */
typedef struct sk__sundials_messages {
  char msg[SK_SUNDIALS_MSG_LEN];
  int last_code;
  long warnings;
} sk__sundials_messages;

/* sk__status_from_cvode: our status for a CVODE return flag, and its static
 * name ("CV_CONV_FAILURE"); the only place CV_* flags are interpreted. */
sk_status sk__status_from_cvode(int flag, const char **name);

/* sk__sunls_flag_name: static name of a SUNLS_* flag. */
const char *sk__sunls_flag_name(int flag);

/* sk__nvector_use_fast_ops: replace the serial vector's operation table
 * with the project's kernels (clones inherit them). */
void sk__nvector_use_fast_ops(N_Vector v);

#endif

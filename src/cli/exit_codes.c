/* src/cli/exit_codes.c: mapping of library statuses to documented exit codes, and error printing */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/module.h"

int cli_exit_code(sk_status st)
{
  switch (st) {
  case SK_OK:
    return SK_EXIT_OK;
  case SK_ERR_ARG:
  case SK_ERR_INPUT:
  case SK_ERR_UNKNOWN_KEY:
  case SK_ERR_UNSUPPORTED:
  case SK_ERR_TOO_LARGE:
    return SK_EXIT_DATA;
  case SK_ERR_MISSING:
    return SK_EXIT_NOINPUT;
  case SK_ERR_CREATE:
    return SK_EXIT_CANTCREATE;
  case SK_ERR_IO:
    return SK_EXIT_IOERR;
  case SK_RECOVERABLE:
  case SK_ERR_CALLBACK:
  case SK_ERR_NONFINITE:
  case SK_ERR_TOO_MUCH_WORK:
  case SK_ERR_ERR_TEST:
  case SK_ERR_CONV:
  case SK_ERR_LINSOL:
  case SK_ERR_SINGULAR:
  case SK_ERR_STEP_SIZE:
  case SK_ERR_SOLVER:
  case SK_ERR_UNSTABLE:
  case SK_ERR_BLOWUP:
    return SK_EXIT_NUMERICAL;
  case SK_INTERRUPTED:
    return SK_EXIT_INTERRUPTED;
  case SK_ERR_NOMEM:
    return SK_EXIT_OSERR;
  case SK_ERR_STATE:
  case SK_ERR_INTERNAL:
    return SK_EXIT_INTERNAL;
  }
  return SK_EXIT_INTERNAL;
}

int cli_report(sk_context *ctx, sk_status st)
{
  char buf[8192];
  const int traceback = getenv("STIFFKIT_TRACEBACK") != NULL;
  const sk_error *rec = sk_context_get_error(ctx);
  sk_error err;
  int code = cli_exit_code(st);
  buf[0] = '\0';
  if (rec && rec->code != SK_OK) { /* an op may fail without recording (user stepper types) */
    err = *rec;
    if (!strcmp(err.foreign_name, SK__MODULE_FLAG)) {
      /* a module (HDF5, hypre) that cannot be loaded is a missing component, and the
         message names the module and the loader's reason already */
      code = SK_EXIT_UNAVAILABLE;
      err.foreign_name[0] = '\0';
    }
    sk_error_format(&err, traceback, buf, sizeof buf);
  }
  /* every allocation failure reads as one: "out of memory: cannot allocate ..." */
  const char *oom = st == SK_ERR_NOMEM && !strstr(buf, "out of memory") ? "out of memory: " : "";
  fprintf(stderr, "stiffkit: error: %s%s\n", oom, buf[0] ? buf : sk_status_str(st));
  return code;
}

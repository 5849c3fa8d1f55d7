/* src/backends/nvector_clone.c: vector clones that end the process cleanly (exit 71) when memory runs out, where SUNDIALS 6.4.1 would crash */
#define _POSIX_C_SOURCE 200809L
#include <string.h>
#include <unistd.h>

#include "backends/sundials_backend.h"

/* SUNDIALS 6.4.1's N_VClone (src/sundials/sundials_nvector.c, line 285)
 * stores the context into the new vector before anyone can test it:
 *     result = w->ops->nvclone(w);
 *     result->sunctx = w->sunctx;
 * so a clone whose allocation fails dereferences NULL (SIGSEGV, measured
 * under `ulimit -v` in CVodeInit and in SPGMR's initialization). The
 * callers' NULL checks come too late, and nothing can be unwound from
 * inside SUNDIALS: the process ends here, with the out-of-memory exit
 * status of the CLI (71, EX_OSERR) and the cause on stderr. Result files
 * stay under their temporary names, as after a kill, and the next run in
 * the folder removes them. */
#define SK_CLONE_OOM_EXIT 71

static _Noreturn void clone_failed(void)
{
  static const char msg[] =
      "stiffkit: error: out of memory: cannot allocate a SUNDIALS work vector (N_VClone); "
      "the run ends here (SUNDIALS cannot report this failure)\n";
  ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
  (void)w;
  _exit(SK_CLONE_OOM_EXIT);
}

N_Vector sk__nvector_clone_or_exit(N_Vector w, N_Vector (*clone)(N_Vector))
{
  N_Vector v = clone(w);
  if (!v) {
    clone_failed();
  }
  return v;
}

static N_Vector clone_serial(N_Vector w)
{
  return sk__nvector_clone_or_exit(w, N_VClone_Serial);
}

void sk__nvector_guard_clone(N_Vector v)
{
  if (!v || !v->ops) {
    return;
  }
  if (v->ops->nvclone == N_VClone_Serial) {
    v->ops->nvclone = clone_serial;
  }
}

/* stiffkit/status.h: the one status type of stiffkit, generated from one list */
#ifndef STIFFKIT_STATUS_H
#define STIFFKIT_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

/* the public API: exported from libstiffkit, which hides everything else */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* X(name, value, message). 0 is success, > 0 a warning or recoverable
 * condition, < 0 an error. Messages are static strings. */
#define SK_STATUS_LIST(X)                                                    \
  X(SK_OK, 0, "success")                                                     \
  X(SK_RECOVERABLE, 1, "recoverable failure (the step may be retried)")      \
  X(SK_INTERRUPTED, 2, "interrupted on request")                             \
  X(SK_ERR_NOMEM, -1, "allocation failed")                                   \
  X(SK_ERR_ARG, -2, "invalid argument")                                      \
  X(SK_ERR_INPUT, -3, "invalid input data")                                  \
  X(SK_ERR_MISSING, -4, "input file missing or unreadable")                  \
  X(SK_ERR_CREATE, -5, "cannot create output file")                          \
  X(SK_ERR_IO, -6, "I/O error while writing")                                \
  X(SK_ERR_UNKNOWN_KEY, -7, "unknown option key")                            \
  X(SK_ERR_UNSUPPORTED, -8, "unsupported combination")                       \
  X(SK_ERR_CALLBACK, -9, "a model callback failed")                          \
  X(SK_ERR_NONFINITE, -10, "a model callback produced NaN or Inf")           \
  X(SK_ERR_TOO_MUCH_WORK, -11, "step budget exhausted before the end time")  \
  X(SK_ERR_ERR_TEST, -12, "error test failed repeatedly")                    \
  X(SK_ERR_CONV, -13, "nonlinear iteration failed to converge repeatedly")   \
  X(SK_ERR_LINSOL, -14, "linear solver failed")                              \
  X(SK_ERR_SINGULAR, -15, "singular matrix")                                 \
  X(SK_ERR_STEP_SIZE, -16, "step size underflow (t + h == t)")               \
  X(SK_ERR_SOLVER, -17, "solver failure")                                    \
  X(SK_ERR_STATE, -18, "object used in the wrong state")                     \
  X(SK_ERR_TOO_LARGE, -19, "problem too large")                              \
  X(SK_ERR_INTERNAL, -20, "internal error")                                  \
  X(SK_ERR_UNSTABLE, -21, "step size outside the method's stability region") \
  X(SK_ERR_BLOWUP, -22, "the solution blew up (non-finite or grew beyond solver.max_growth)")

typedef enum {
#define SK__STATUS_ENUM(name, value, msg) name = value,
  SK_STATUS_LIST(SK__STATUS_ENUM)
#undef SK__STATUS_ENUM
} sk_status;

/* sk_status_str: static message of a status ("unknown status" if none). */
const char *sk_status_str(sk_status s);

/* sk_status_name: static name of a status ("SK_ERR_NOMEM"), or "SK_UNKNOWN". */
const char *sk_status_name(sk_status s);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif

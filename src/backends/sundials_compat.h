/* src/backends/sundials_compat.h: every SUNDIALS 6.x / 7.x API difference, in one place */
#ifndef SK_BACKENDS_SUNDIALS_COMPAT_H
#define SK_BACKENDS_SUNDIALS_COMPAT_H

#include <sundials/sundials_config.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_types.h>

#if SUNDIALS_VERSION_MAJOR >= 7
typedef sunrealtype sk_sunreal;
typedef sunbooleantype sk_sunbool;
#define SK_SUN_TRUE SUNTRUE
#define SK_SUN_FALSE SUNFALSE
/* 7.x: the communicator argument is a SUNComm (SUN_COMM_NULL when serial) */
#define SK_SUNCONTEXT_CREATE(ctxp) SUNContext_Create(SUN_COMM_NULL, (ctxp))
#else
typedef realtype sk_sunreal;
typedef booleantype sk_sunbool;
#define SK_SUN_TRUE SUNTRUE
#define SK_SUN_FALSE SUNFALSE
/* 6.x: the communicator argument is a void* (NULL when serial) */
#define SK_SUNCONTEXT_CREATE(ctxp) SUNContext_Create(NULL, (ctxp))
#endif

struct sk__sundials_messages;

/* Message capture: 6.x has per-package error handler functions
 * (CVodeSetErrHandlerFn); 7.x replaced them by SUNContext_PushErrHandler.
 * sk__cvode_capture_messages installs a handler that records CVODE's
 * messages in `sink` instead of printing them. Returns 0 on success. */
int sk__cvode_capture_messages(void *cvode_mem, SUNContext sunctx,
                               struct sk__sundials_messages *sink);

#endif

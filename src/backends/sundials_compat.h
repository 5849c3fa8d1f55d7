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

#include <cvodes/cvodes.h>
#include <idas/idas.h>
#include <kinsol/kinsol.h>

struct sk__sundials_messages;

/* sk__sundials_record: store one SUNDIALS message in the sink
 * (sundials_context.c). */
void sk__sundials_record(struct sk__sundials_messages *sink, int code, const char *func,
                         const char *msg);

/* Message capture: 6.x has per-package error handler functions
 * (CVodeSetErrHandlerFn, KINSetErrHandlerFn); 7.x replaced them by
 * SUNContext_PushErrHandler.
 * sk__cvode_capture_messages installs a handler that records CVODE's
 * messages in `sink` instead of printing them. Returns 0 on success. */
#if SUNDIALS_VERSION_MAJOR < 7
static inline void sk__capture_handler(int error_code, const char *module, const char *function,
                                       char *msg, void *user_data)
{
  (void)module;
  sk__sundials_record((struct sk__sundials_messages *)user_data, error_code, function, msg);
}

static inline int sk__cvode_capture_messages(void *cvode_mem, SUNContext sunctx,
                                             struct sk__sundials_messages *sink)
{
  (void)sunctx;
  return CVodeSetErrHandlerFn(cvode_mem, sk__capture_handler, sink);
}

/* sk__ida_capture_messages: the same for IDA (IDASetErrHandlerFn in 6.x). */
static inline int sk__ida_capture_messages(void *ida_mem, SUNContext sunctx,
                                           struct sk__sundials_messages *sink)
{
  (void)sunctx;
  return IDASetErrHandlerFn(ida_mem, sk__capture_handler, sink);
}

/* sk__kinsol_capture_messages: the same for KINSOL (KINSetErrHandlerFn in
 * 6.x; its informational output stays off at print level 0). */
static inline int sk__kinsol_capture_messages(void *kin_mem, SUNContext sunctx,
                                              struct sk__sundials_messages *sink)
{
  (void)sunctx;
  return KINSetErrHandlerFn(kin_mem, sk__capture_handler, sink);
}
#else
static inline void sk__capture_handler(int line, const char *func, const char *file,
                                       const char *msg, SUNErrCode code, void *err_user_data,
                                       SUNContext sunctx)
{
  (void)line;
  (void)file;
  (void)sunctx;
  sk__sundials_record((struct sk__sundials_messages *)err_user_data, (int)code, func, msg);
}

/* 7.x: the handler belongs to the context, which each engine owns alone */
static inline int sk__context_capture_messages(SUNContext sunctx,
                                               struct sk__sundials_messages *sink)
{
  SUNContext_ClearErrHandlers(sunctx);
  return SUNContext_PushErrHandler(sunctx, sk__capture_handler, sink);
}

static inline int sk__cvode_capture_messages(void *cvode_mem, SUNContext sunctx,
                                             struct sk__sundials_messages *sink)
{
  (void)cvode_mem;
  return sk__context_capture_messages(sunctx, sink);
}

static inline int sk__kinsol_capture_messages(void *kin_mem, SUNContext sunctx,
                                              struct sk__sundials_messages *sink)
{
  (void)kin_mem;
  return sk__context_capture_messages(sunctx, sink);
}

static inline int sk__ida_capture_messages(void *ida_mem, SUNContext sunctx,
                                           struct sk__sundials_messages *sink)
{
  (void)ida_mem;
  return sk__context_capture_messages(sunctx, sink);
}
#endif

#endif

/* src/core/status.c: messages and names of the status list */
#include "stiffkit/status.h"

const char *sk_status_str(sk_status s)
{
  switch (s) {
#define SK__STATUS_MSG(name, value, msg) \
  case name:                             \
    return msg;
    SK_STATUS_LIST(SK__STATUS_MSG)
#undef SK__STATUS_MSG
  }
  return "unknown status";
}

const char *sk_status_name(sk_status s)
{
  switch (s) {
#define SK__STATUS_NAME(name, value, msg) \
  case name:                              \
    return #name;
    SK_STATUS_LIST(SK__STATUS_NAME)
#undef SK__STATUS_NAME
  }
  return "SK_UNKNOWN";
}

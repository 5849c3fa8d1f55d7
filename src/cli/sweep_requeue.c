/* src/cli/sweep_requeue.c: whether an interrupted sweep case asks Slurm to requeue it: only when its checkpoint advanced, at most slurm.max_attempts times */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/sweep_requeue.h"

double sweep_held_time(const char *message)
{
  static const char phrase[] = "' holds t=";
  const char *at = NULL;
  for (const char *p = message ? strstr(message, phrase) : NULL; p; p = strstr(p + 1, phrase)) {
    at = p;
  }
  if (!at) {
    return NAN;
  }
  char *end = NULL;
  const double t = strtod(at + sizeof phrase - 1, &end);
  return end != at + sizeof phrase - 1 && isfinite(t) ? t : NAN;
}

int sweep_requeue_decide(double prev, double held, int64_t attempts, int64_t max_attempts,
                         char *why, size_t cap)
{
  if (isnan(held)) {
    snprintf(why, cap,
             "the run kept no checkpoint (stopped before its first one, or its model "
             "has none): a requeue would start over");
    return 0;
  }
  if (!isnan(prev) && !(held > prev)) {
    snprintf(why, cap,
             "no progress: the checkpoint still holds t=%.6g, as after the previous "
             "attempt",
             held);
    return 0;
  }
  if (attempts >= max_attempts) {
    snprintf(why, cap, "%lld attempts made, the most slurm.max_attempts allows",
             (long long)attempts);
    return 0;
  }
  if (isnan(prev)) {
    snprintf(why, cap, "its checkpoint holds t=%.6g", held);
  } else {
    snprintf(why, cap, "its checkpoint advanced from t=%.6g to t=%.6g", prev, held);
  }
  return 1;
}

/* src/cli/sweep_requeue.h: whether an interrupted sweep case asks Slurm to requeue it: only when its checkpoint advanced, at most slurm.max_attempts times */
#ifndef SK_CLI_SWEEP_REQUEUE_H
#define SK_CLI_SWEEP_REQUEUE_H

#include <stddef.h>
#include <stdint.h>

/* sweep_held_time: the time a `stiffkit run` message on exit 75 says its
 * checkpoint holds ("... the checkpoint '<path>' holds t=<time>: continue
 * with ..."; the last such phrase counts); NaN when the message has none
 * (the run had no checkpoint to keep). */
double sweep_held_time(const char *message);

/* sweep_requeue_decide: whether an interrupted attempt is requeued. It is
 * when the attempt made progress: its checkpoint holds a time (held, not
 * NaN) later than the one held after the previous attempt (prev; NaN when
 * no earlier attempt reported one), and fewer than max_attempts attempts
 * were made (attempts counts this one). Returns 1 (requeue) or 0; why
 * (cap bytes) gets the reason, e.g. "no progress: the checkpoint still
 * holds t=0.5, as after the previous attempt". */
int sweep_requeue_decide(double prev, double held, int64_t attempts, int64_t max_attempts,
                         char *why, size_t cap);

#endif

/* src/cli/checkpoint_keys.h: the checkpoint.* option keys of a run, each written once and bound to its field */
#ifndef SK_CLI_CHECKPOINT_KEYS_H
#define SK_CLI_CHECKPOINT_KEYS_H

#include <stdint.h>

#include "core/options_bind.h"

/* X(field, key, type, default, min, max, choices, help): one row per key; the
 * rows after file are the intervals (cli_checkpoint_interval_key). */
#define SK__CHECKPOINT_KEYS(X)                                                                 \
  X(file, "checkpoint.file", SK_OPT_STRING, "", 0, 0, NULL,                                    \
    "checkpoint file (empty: <output.dir>/<output.prefix>.ckpt); written on SIGTERM, SIGINT "  \
    "and SIGUSR1 and at the intervals below, read by run --restart / --resume, removed when "  \
    "the run completes")                                                                       \
  X(every, "checkpoint.every", SK_OPT_REAL, "0", 0, 1e300, NULL,                               \
    "simulated-time interval between checkpoints (0 = none)")                                  \
  X(wall, "checkpoint.wall", SK_OPT_REAL, "0", 0, 1e300, NULL,                                 \
    "wall-clock seconds between checkpoints (0 = none; not with checkpoint.segment)")          \
  X(segment, "checkpoint.segment", SK_OPT_BOOL, "false", 0, 0, NULL,                           \
    "segment mode: the engine restarts from its state at every checkpoint.every boundary, in " \
    "an uninterrupted run too, so that a restart from a checkpoint repeats it bitwise (a "     \
    "signal then keeps the last boundary's checkpoint)")

/* The values of the keys: field `f` of row X(f, ...) has its key's C type. */
typedef struct {
  SK__CHECKPOINT_KEYS(SK__BIND_FIELD)
} cli_checkpoint_keys;

/* SK__CHECKPOINT_KEY_<field>: the row's index, its bit in the `given` mask */
enum {
#define SK__CHECKPOINT_KEY_INDEX(f, ...) SK__CHECKPOINT_KEY_##f,
  SK__CHECKPOINT_KEYS(SK__CHECKPOINT_KEY_INDEX)
#undef SK__CHECKPOINT_KEY_INDEX
      SK__CHECKPOINT_KEY_COUNT
};

/* cli_checkpoint_options (the table), cli_checkpoint_settings_read, ... */
SK__BIND_DECLARE(cli_checkpoint, cli_checkpoint_keys)

#endif

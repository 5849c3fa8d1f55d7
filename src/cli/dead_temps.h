/* src/cli/dead_temps.h: temporary files that killed runs left next to their outputs and checkpoints, removed by the next run */
#ifndef SK_CLI_DEAD_TEMPS_H
#define SK_CLI_DEAD_TEMPS_H

#include <stddef.h>

/* cli_remove_dead_temps: for each of paths[0..n) (a final file name: a
 * result file or a checkpoint), remove the files "<path>.tmp.<pid>" in its
 * directory whose process <pid> no longer exists on this host (a run that
 * was killed before it could clean up: the writers name their temporaries
 * so). Temporaries of live processes (this one included) are kept. Returns
 * the number of files removed; failures to list or remove are ignored (the
 * files stay as they were). */
int cli_remove_dead_temps(const char *const *paths, size_t n);

#endif

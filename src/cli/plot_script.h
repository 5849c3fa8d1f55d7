/* src/cli/plot_script.h: the plotting scripts of the CLI: where they are found and how python3 runs them */
#ifndef SK_CLI_PLOT_SCRIPT_H
#define SK_CLI_PLOT_SCRIPT_H

#include <stddef.h>

/* The python3 every plot runs with (Debian's, which has matplotlib). */
#define SK__PLOT_PYTHON "/usr/bin/python3"

/* cli_plot_script_path: the path of the script `name` (e.g.
 * "plot_stability.py") into buf: $STIFFKIT_SCRIPTS_DIR, else the install
 * tree beside the binary (SK_BIN_TO_SCRIPTS, relative to bin/) when the
 * script is there, else the source tree's scripts/. */
void cli_plot_script_path(const char *name, char *buf, size_t len);

/* cli_plot_run: run SK__PLOT_PYTHON with args (args[0] is the program
 * name, NULL-terminated) and wait for it. Returns its exit status, 127
 * when it could not be started, -1 when it died by a signal, -2 when
 * fork failed (errno set). */
int cli_plot_run(char *const args[]);

#endif

/* src/cli/stability_plot.h: the PNG of `stiffkit stability`: the stable region shaded, its boundary, the real-axis interval marked */
#ifndef SK_CLI_STABILITY_PLOT_H
#define SK_CLI_STABILITY_PLOT_H

#include "stiffkit/stability.h"

/* cli_stability_png: plot method m to `png` with scripts/plot_stability.py
 * (python3 + matplotlib). Inputs, not modified: the boundary CSV `csv`
 * already written, its points pts[0..np) (they fix the plot window), the
 * report's real-axis interval rep. The stable region (max |zeta| <= 1,
 * sk_stability_radius) is sampled on a grid over the window and handed to the
 * script in a temporary file beside `png`, removed afterwards; the PNG is
 * written under a temporary name and renamed. The script is looked for in
 * $STIFFKIT_SCRIPTS_DIR, then in the install tree beside the binary
 * (share/stiffkit), then in the source tree. Without python3, matplotlib
 * or the script: a note on stderr and 0 (CSV only). Prints "plot: PNG"
 * unless quiet. Returns 0, 73 (grid file not created), 74 (the script
 * failed) or 70. */
int cli_stability_png(const sk_stability_method *m, const sk_stability_report *rep,
                      const char *png, const char *csv, const sk_stability_point *pts, int np,
                      int quiet);

#endif

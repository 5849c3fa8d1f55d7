/* src/cli/stability_plot.c: the PNG of `stiffkit stability`: region grid, plot script lookup, python3 run */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/atomic_file.h"
#include "cli/cli.h"
#include "cli/plot_script.h"
#include "cli/stability_plot.h"

#define SK__STAB_GRID 241 /* grid points per side of the shaded window */
#define SK__STAB_SPAN_MAX 10.0

/* Half-width of the square plot window: the boundary's extent, clipped to
 * SK__STAB_SPAN_MAX, at least 1, plus 15 %. */
static double window(const sk_stability_point *pts, int np)
{
  double span = 1.0;
  for (int i = 0; i < np; i++) {
    span = fmax(span, fmin(fabs(pts[i].x), SK__STAB_SPAN_MAX));
    span = fmax(span, fmin(fabs(pts[i].y), SK__STAB_SPAN_MAX));
  }
  return 1.15 * span;
}

/* The grid x,y,r (r = max |zeta| at z = x + i y) over [-lim, lim]^2. */
static int write_grid(const char *path, const sk_stability_method *m, double lim)
{
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "stiffkit: error: cannot create '%s': %s\n", path, strerror(errno));
    return SK_EXIT_CANTCREATE;
  }
  fprintf(f, "x,y,r\n");
  const double h = 2.0 * lim / (SK__STAB_GRID - 1);
  for (int j = 0; j < SK__STAB_GRID; j++) {
    for (int i = 0; i < SK__STAB_GRID; i++) {
      const double x = -lim + i * h, y = -lim + j * h;
      fprintf(f, "%.9g,%.9g,%.9g\n", x, y, sk_stability_radius(m, x, y));
    }
  }
  if (fclose(f) != 0) {
    fprintf(stderr, "stiffkit: error: cannot write '%s': %s\n", path, strerror(errno));
    remove(path);
    return SK_EXIT_IOERR;
  }
  return SK_EXIT_OK;
}

int cli_stability_png(const sk_stability_method *m, const sk_stability_report *rep,
                      const char *png, const char *csv, const sk_stability_point *pts, int np,
                      int quiet)
{
  char script[4096], tmp[4096], grid[4096], lo[32], hi[32];
  cli_plot_script_path("plot_stability.py", script, sizeof script);
  if (access(SK__PLOT_PYTHON, X_OK) != 0) {
    fprintf(stderr, "stiffkit: note: %s is not available: no PNG written (CSV only: %s)\n",
            SK__PLOT_PYTHON, csv);
    return SK_EXIT_OK;
  }
  if (access(script, R_OK) != 0) {
    fprintf(stderr,
            "stiffkit: note: the plot script %s is missing (set STIFFKIT_SCRIPTS_DIR): no PNG "
            "written (CSV only: %s)\n",
            script, csv);
    return SK_EXIT_OK;
  }
  snprintf(tmp, sizeof tmp, "%s.tmp", png);
  snprintf(grid, sizeof grid, "%s.region.tmp", png);
  int code = write_grid(grid, m, window(pts, np));
  if (code != SK_EXIT_OK) {
    return code;
  }
  snprintf(lo, sizeof lo, "%.17g", rep->real_lo); /* -inf: stable on the whole negative axis */
  snprintf(hi, sizeof hi, "%.17g", rep->real_hi);
  char *const args[] = {
      (char *)"python3", script, (char *)csv, tmp, (char *)m->name, grid, lo, hi, NULL};
  code = cli_plot_run(args);
  remove(grid);
  if (code == -2) {
    fprintf(stderr, "stiffkit: error: cannot start %s: %s\n", SK__PLOT_PYTHON, strerror(errno));
    return SK_EXIT_INTERNAL;
  }
  if (code == 3 || code == 127) {
    remove(tmp);
    fprintf(stderr, "stiffkit: note: %s: no PNG written (CSV only: %s)\n",
            code == 3 ? "python3-matplotlib is not installed" : "python3 could not be started",
            csv);
    return SK_EXIT_OK;
  }
  if (code != 0 || rename(tmp, png) != 0) {
    remove(tmp);
    fprintf(stderr, "stiffkit: error: the plot script failed (exit %d): '%s' not written\n", code,
            png);
    return SK_EXIT_IOERR;
  }
  if (!quiet) {
    printf("  plot: %s (stable region shaded, real-axis interval marked)\n", png);
  }
  return SK_EXIT_OK;
}

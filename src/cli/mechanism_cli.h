/* src/cli/mechanism_cli.h: the multibody pieces shared by `stiffkit run` and `stiffkit verify` */
#ifndef SK_CLI_MECHANISM_CLI_H
#define SK_CLI_MECHANISM_CLI_H

#include <stdio.h>

#include "cli/args.h"
#include "cli/job.h"

/* A loaded and assembled mechanism with the run's tolerances. */
typedef struct {
  sk_mechanism *mech;
  const char *file;      /* mbs.file as resolved (points into the job's options) */
  double *q0, *v0, *lam; /* consistent initial state (n, n) and work space (m) */
  double rtol, atol;
  sk_mechanism_init_report init;
} cli_mechanism;

/* cli_mechanism_setup: load mbs.file, the output times (job->t0, t_end,
 * times), the tolerances, and the consistent initial state (mbs.inconsistent,
 * mbs.init_tol). Errors: those of sk_mechanism_load and
 * sk_mechanism_assemble, SK_ERR_INPUT (no mbs.file). */
sk_status cli_mechanism_setup(sk_context *ctx, cli_job *job, cli_mechanism *cm);
void cli_mechanism_free(cli_mechanism *cm);

/* cli_mechanism_method: solver.method when set, else ida-bdf for GGL and
 * cvode-bdf for the ODE formulations. */
const char *cli_mechanism_method(const sk_options *o, const sk_mbs_settings *s);

/* Printing: the initialization line; the drift, energy and cond(G) lines. */
void cli_mechanism_print_init(const cli_mechanism *cm, FILE *out);
void cli_mechanism_print_report(const sk_mechanism *mech, const sk_mbs_report *r,
                                const sk_mbs_settings *s, FILE *out);

/* cli_mechanism_run: `stiffkit run` on model.type = multibody (options
 * loaded). Returns the exit code (printed on failure). */
int cli_mechanism_run(sk_context *ctx, cli_job *job, const cli_args *a, int argc, char **argv);

#endif

/* src/cli/multibody_cli.h: the multibody pieces shared by `stiffkit run` and `stiffkit verify` */
#ifndef SK_CLI_MULTIBODY_CLI_H
#define SK_CLI_MULTIBODY_CLI_H

#include <stdio.h>

#include "cli/args.h"
#include "cli/job.h"

/* A loaded and assembled mechanism with the run's tolerances. */
typedef struct {
  sk_multibody *mech;
  const char *file;      /* multibody.file as resolved (points into the job's options) */
  double *q0, *v0, *lam; /* consistent initial state (n, n) and work space (m) */
  double rtol, atol;
  sk_multibody_init_report init;
} cli_multibody;

/* cli_multibody_setup: load multibody.file, the output times (job->t0, t_end,
 * times), the tolerances, and the consistent initial state (multibody.inconsistent,
 * multibody.init_tol). Errors: those of sk_multibody_load and
 * sk_multibody_assemble, SK_ERR_INPUT (no multibody.file). */
sk_status cli_multibody_setup(sk_context *ctx, cli_job *job, cli_multibody *cm);
void cli_multibody_free(cli_multibody *cm);

/* cli_multibody_method: solver.method when set, else ida-bdf for GGL and
 * cvode-bdf for the ODE formulations. */
const char *cli_multibody_method(const sk_options *o, const sk_multibody_settings *s);

/* Printing: the initialization line; the drift, energy and cond(G) lines. */
void cli_multibody_print_init(const cli_multibody *cm, FILE *out);
void cli_multibody_print_report(const sk_multibody *mech, const sk_multibody_report *r,
                                const sk_multibody_settings *s, FILE *out);

/* cli_multibody_run: `stiffkit run` on model.type = multibody (options
 * loaded). Returns the exit code (printed on failure). */
int cli_multibody_run(sk_context *ctx, cli_job *job, const cli_args *a, int argc, char **argv);

#endif

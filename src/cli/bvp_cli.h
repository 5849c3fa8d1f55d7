/* src/cli/bvp_cli.h: the boundary-value problem pieces shared by `stiffkit bvp` and `stiffkit verify` */
#ifndef SK_CLI_BVP_CLI_H
#define SK_CLI_BVP_CLI_H

#include "cli/args.h"
#include "cli/job.h"

/* cli_bvp_load: the options of CONFIG (or the embedded rod example when
 * a->config is NULL), then the --set assignments, then the problem
 * (job->bvp, job->bvp_keys); model.type must be bvp (set when absent);
 * output.prefix defaults to "bvp". Errors: those of the config, of
 * sk_bvp_from_options, SK_ERR_INPUT (another model.type). */
sk_status cli_bvp_load(sk_context *ctx, cli_job *job, const cli_args *a);

/* cli_bvp_build: the problem of the loaded options (job->bvp,
 * job->bvp_keys) and the default output.prefix "bvp". Errors: those of
 * sk_bvp_from_options. */
sk_status cli_bvp_build(sk_context *ctx, cli_job *job);

#endif

/* stiffkit/provenance.h: what a result records to be reproduced: the provenance of a run as YAML (versions, host, date, command line, options) and the version table */
#ifndef STIFFKIT_PROVENANCE_H
#define STIFFKIT_PROVENANCE_H

#include <stdio.h>

#include "stiffkit/context.h"
#include "stiffkit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the public API: exported from libstiffkit, which hides everything else */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* sk_provenance_yaml: a malloc'ed YAML block mapping (free with free):
 *   stiffkit:  version, git_revision, build_options
 *   libraries: sundials (version at run time, build_version, index_bits),
 *              suitesparse (version at run time, build_version), klu, umfpack,
 *              metis (version from the headers), hdf5 (version at run time,
 *              build_version), libyaml (version at run time)
 *   threads:   openmp (true when built with SK_OPENMP), max_threads (the
 *              threads of the kernels' parallel regions, after
 *              solver.threads), num_procs (processors available)
 *   vector_kernels: the N_Vector kernels of the last CVODE engine set up in
 *              ctx ("stiffkit" or "sundials"; "none" when none)
 *   linear_solver_choice: why linsol.type = auto chose what it chose, when
 *              a stepper or steady solve of ctx decided it
 *   host, date (UTC, ISO 8601), working_directory
 *   argv:      the arguments, one double-quoted item each
 *   command:   the command line as one string, each argument shell-quoted
 *   options:   effective_options_yaml (a block mapping, e.g. "key: value"
 *              lines) nested two spaces deeper; {} when NULL or empty; when
 *              the text is not a block mapping it is kept as the string
 *              options_unparsed and options is {}.
 * Every string is double-quoted with YAML escapes (quotes, backslashes,
 * control characters, invalid UTF-8 bytes as \xNN), so the text always
 * parses. argv may be NULL when argc == 0. Returns NULL for a NULL ctx,
 * and on allocation failure (the error record then says SK_ERR_NOMEM). */
char *sk_provenance_yaml(sk_context *ctx, int argc, char *const *argv,
                         const char *effective_options_yaml);

/* sk_versions_print: the table printed by `stiffkit info`: stiffkit, git
 * revision, build options, SUNDIALS (run time and headers), index size,
 * KLU, UMFPACK, SuiteSparse, METIS, HDF5, libyaml, OpenMP (built in or
 * not, the default thread count of a run, the processors); one "name  value" line
 * each. Returns SK_OK, SK_ERR_ARG (out NULL) or SK_ERR_IO (the stream
 * reported an error). */
sk_status sk_versions_print(FILE *out);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif

/* src/cli/run_complete.c: whether a job's complete result set is already in place (run --resume of a finished job) */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/job.h"
#include "cli/run_complete.h"
#include "io/hdf5_module.h"
#include "cli/output_keys.h"

void cli_run_problem_line(uint64_t hash, char *buf, size_t cap)
{
  snprintf(buf, cap, "problem_hash: \"%016" PRIx64 "\"\n", hash);
}

/* 1 when the sidecar at path starts with "status: complete" and holds line. */
static int sidecar_complete(const char *path, const char *line)
{
  FILE *f = fopen(path, "r");
  if (!f) {
    return 0;
  }
  enum { CAP = 1 << 20 };
  char *text = malloc(CAP + 1);
  const size_t len = text ? fread(text, 1, CAP, f) : 0;
  fclose(f);
  int ok = 0;
  if (text) {
    text[len] = '\0';
    ok = strncmp(text, "status: complete\n", 17) == 0 && strstr(text, line) != NULL;
  }
  free(text);
  return ok;
}

/* 1 when the HDF5 file at path has status complete and its provenance
 * holds line (0 also when the HDF5 module cannot be loaded: the run then
 * proceeds and stops on that with its message). */
static int h5_complete(const char *path, const char *line)
{
  const sk__hdf5_module *h5 = NULL;
  if (sk__hdf5_module_open(NULL, "reading an HDF5 result", &h5) != SK_OK) {
    return 0;
  }
  enum { CAP = 1 << 20 };
  char status[32];
  char *prov = malloc(CAP);
  const int ok = prov && h5->root_string(path, "status", status, sizeof status) &&
                 !strcmp(status, "complete") && h5->root_string(path, "provenance", prov, CAP) &&
                 strstr(prov, line) != NULL;
  free(prov);
  return ok;
}

int cli_run_complete(const cli_job *job, uint64_t hash, char *marker, size_t cap)
{
  cli_output_settings out;
  if (cli_output_settings_read(job->opts, &out, NULL) != SK_OK || (!out.csv && !out.hdf5)) {
    return 0; /* no result files */
  }
  const int csv = out.csv;
  const char *dir = out.dir, *prefix = out.prefix;
  char line[64];
  cli_run_problem_line(hash, line, sizeof line);
  snprintf(marker, cap, "%s/%s%s", dir[0] ? dir : ".", prefix, csv ? ".provenance.yaml" : ".h5");
  return csv ? sidecar_complete(marker, line) : h5_complete(marker, line);
}

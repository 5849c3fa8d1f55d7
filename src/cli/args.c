/* src/cli/args.c: the command-line arguments shared by run, verify, diagnose and steady */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"

/* Is `flag` among the space-separated `flags`? */
static int accepts(const char *flags, const char *flag)
{
  const size_t len = strlen(flag);
  for (const char *p = flags ? strstr(flags, flag) : NULL; p; p = strstr(p + 1, flag)) {
    if ((p == flags || p[-1] == ' ') && (p[len] == '\0' || p[len] == ' ')) {
      return 1;
    }
  }
  return 0;
}

/* The slot of a value flag, NULL when it is not one. */
static const char **value_slot(cli_args *a, const char *flag)
{
  if (!strcmp(flag, "--report")) {
    return &a->report;
  }
  if (!strcmp(flag, "--stats-json")) {
    return &a->stats_json;
  }
  if (!strcmp(flag, "--stats-csv")) {
    return &a->stats_csv;
  }
  if (!strcmp(flag, "--inject")) {
    return &a->inject;
  }
  if (!strcmp(flag, "--out")) {
    return &a->out;
  }
  if (!strcmp(flag, "--restart")) {
    return &a->restart;
  }
  return NULL;
}

int cli_args_parse(int argc, char **argv, const char *cmd, const char *flags, const char *help,
                   cli_args *a)
{
  memset(a, 0, sizeof *a);
  a->sets = calloc((size_t)(argc > 0 ? argc : 1), sizeof *a->sets);
  if (!a->sets) {
    return SK_EXIT_INTERNAL;
  }
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    char name[32] = "";
    const char *eq = strchr(arg, '=');
    const size_t nlen = eq && arg[0] == '-' ? (size_t)(eq - arg) : strlen(arg);
    if (arg[0] == '-' && nlen < sizeof name) {
      memcpy(name, arg, nlen);
      name[nlen] = '\0';
    }
    const char **slot = value_slot(a, name);
    if (!strcmp(name, "--set") || (slot && accepts(flags, name))) {
      const char *value = eq && arg[0] == '-' ? eq + 1 : NULL;
      if (!value) {
        if (i + 1 >= argc) {
          fprintf(stderr, "stiffkit: error: %s needs a value\n", name);
          return SK_EXIT_USAGE;
        }
        value = argv[++i];
      }
      if (slot) {
        *slot = value;
      } else {
        a->sets[a->nsets++] = value;
      }
    } else if (!strcmp(arg, "--quiet") || !strcmp(arg, "-q")) {
      a->quiet = 1;
    } else if (!strcmp(arg, "--no-stats")) {
      a->no_stats = 1;
    } else if (!strcmp(arg, "--help-options") && accepts(flags, "--help-options")) {
      a->help_options = 1;
    } else if (!strcmp(arg, "--json") && accepts(flags, "--json")) {
      a->json = 1;
    } else if (!strcmp(arg, "--resume") && accepts(flags, "--resume")) {
      a->resume = 1;
    } else if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
      fputs(help, stdout);
      return -1;
    } else if (arg[0] == '-' && arg[1] != '\0') {
      fprintf(stderr, "stiffkit: error: unknown option '%s' (see stiffkit %s --help)\n", arg,
              cmd);
      return SK_EXIT_USAGE;
    } else if (!a->config) {
      a->config = arg;
    } else {
      fprintf(stderr, "stiffkit: error: more than one config file given ('%s', '%s')\n",
              a->config, arg);
      return SK_EXIT_USAGE;
    }
  }
  for (size_t k = 0; k < a->nsets; k++) {
    if (!strchr(a->sets[k], '=')) {
      fprintf(stderr, "stiffkit: error: --set expects key=value, got '%s'\n", a->sets[k]);
      return SK_EXIT_USAGE;
    }
  }
  return 0;
}

int cli_args_context(const cli_args *a, sk_context **ctx)
{
  *ctx = NULL;
  if (sk_context_create(ctx) != SK_OK) {
    fprintf(stderr, "stiffkit: error: cannot create a context\n");
    return SK_EXIT_INTERNAL;
  }
  sk_context_set_log(*ctx, a->quiet ? SK_LOG_ERROR : SK_LOG_WARN, sk_log_to_stream, stderr);
  return 0;
}

int cli_args_start(int argc, char **argv, const char *cmd, const char *flags, const char *help,
                   int (*check)(const cli_args *a), cli_args *a, sk_context **ctx)
{
  *ctx = NULL;
  int code = cli_args_parse(argc, argv, cmd, flags, help, a);
  if (code == 0 && check) {
    code = check(a);
  }
  if (code == 0) {
    code = cli_args_context(a, ctx);
  }
  if (code != 0) {
    cli_args_free(a);
    return code < 0 ? SK_EXIT_OK : code;
  }
  if (a->report) {
    remove(a->report); /* an older report must not outlive a failed run */
  }
  return -1;
}

void cli_args_free(cli_args *a)
{
  free(a->sets);
  a->sets = NULL;
  a->nsets = 0;
}

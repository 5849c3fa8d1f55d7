/* src/cli/output_keys.c: the command's output.* option table (which files, where, output times, probes) and the reader of its fields */
#include "cli/output_keys.h"

#define SK__BIND_STRUCT cli_output_settings
SK__BIND_DEFINE(cli_output, CLI_OUTPUT_KEYS, cli_output_settings, CLI_OUTPUT_KEY_COUNT)
#undef SK__BIND_STRUCT

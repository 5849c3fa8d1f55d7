/* src/cli/sweep.h: parameter sweeps: the sweep file (data/sweeps/README.md), its expansion into cases, the seeded generator */
#ifndef SK_CLI_SWEEP_H
#define SK_CLI_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "cli/yaml_doc.h"
#include "stiffkit/stiffkit.h"

/* Longest Slurm setting (partition, account, time, memory). */
#define SWEEP_TEXT 128
/* Most cases one sweep may expand to. */
#define SWEEP_MAX_CASES ((size_t)1000000)

/* One value as written in the sweep file (or computed from a range), and
 * where it was written (1-based; 0 when unknown). */
typedef struct {
  char *text;
  int line, column;
} sweep_value;

typedef enum { SWEEP_LIST, SWEEP_RANGE } sweep_param_kind;

/* One entry of `parameters:`. */
typedef struct {
  char *key;
  int line, column; /* of the key */
  sweep_param_kind kind;
  sweep_value *items; /* SWEEP_LIST: the values */
  size_t nitems;
  sweep_value lo, hi; /* SWEEP_RANGE: endpoints as written, at the range's position */
  int64_t num;        /* SWEEP_RANGE: points, endpoints included (0: not given) */
  int log;            /* SWEEP_RANGE: scale: log */
} sweep_param;

/* One entry of `set:`: a single value, or the items of a list. */
typedef struct {
  char *key;
  int line, column; /* of the key */
  sweep_value *items;
  size_t nitems;
  int is_list; /* 0: items[0] is the value */
} sweep_setting;

typedef enum { SWEEP_PRODUCT, SWEEP_ZIP, SWEEP_RANDOM, SWEEP_LHS, SWEEP_CSV } sweep_mode;

/* `collect:`: what `stiffkit collect` extracts from each case. */
typedef struct {
  char **probes; /* result columns by name (none: every probe column, by position) */
  size_t nprobes;
  double *times; /* times at which probes are read (none: the final row) */
  size_t ntimes;
} sweep_collect;

/* `slurm:`: the job array's settings ("" = not given to sbatch). */
typedef struct {
  char partition[SWEEP_TEXT], account[SWEEP_TEXT], time[SWEEP_TEXT], mem[SWEEP_TEXT];
  int64_t max_parallel;   /* the %K of --array (0: no limit) */
  int64_t signal_seconds; /* USR1 this long before the time limit */
  int64_t ntasks;         /* > 1: MPI cases, launched through srun */
  int64_t cpus_per_task;  /* 0: not given */
  int requeue;            /* an interrupted case requeues itself (when its checkpoint advanced) */
  int64_t max_attempts;   /* no requeue once a case was started this many times */
} sweep_slurm;

typedef struct {
  char *path; /* the sweep file as given */
  char *base; /* the base config (resolved against the sweep file's directory, absolute); NULL: the
                 * embedded default job */
  char *output; /* output: (the sweep directory), NULL when not given */
  sweep_setting *sets;
  size_t nsets;
  sweep_param *params;
  size_t nparams;
  sweep_mode mode;
  int64_t nsamples; /* SWEEP_RANDOM, SWEEP_LHS */
  uint64_t seed;
  char *cases_csv; /* SWEEP_CSV: resolved against the sweep file's directory */
  sweep_collect collect;
  sweep_slurm slurm;
} sweep_spec;

/* The expanded cases: the value text of every key in every case. */
typedef struct {
  char **keys;
  size_t nkeys;
  sk_option_origin *key_origins; /* where each key was written */
  size_t ncases;
  char **values;             /* [case * nkeys + key] */
  sk_option_origin *origins; /* where each value was written (same layout) */
} sweep_cases;

/* sweep_spec_load: parse the sweep file `path`. Errors, recorded in ctx
 * with "<path>:line:column: ": SK_ERR_MISSING (cannot open), SK_ERR_INPUT
 * (syntax, an unknown or misplaced key, an empty list or range, parameters
 * together with cases, combine together with samples, zip of unequal
 * lengths, a log range through zero, ...), SK_ERR_NOMEM. Free with
 * sweep_spec_free (also after an error). */
sk_status sweep_spec_load(sk_context *ctx, const char *path, sweep_spec *s);

/* sweep_spec_free: release everything the spec holds. */
void sweep_spec_free(sweep_spec *s);

/* sweep_slurm_defaults: no partition, account, time or memory; no
 * concurrency limit; USR1 60 s before the limit; 1 task; requeue on, at
 * most 20 attempts. */
void sweep_slurm_defaults(sweep_slurm *o);

/* sweep_collect_parse / sweep_slurm_parse: the `collect:` and `slurm:`
 * mappings (n may be NULL: nothing given), shared by the sweep file and the
 * manifest. Errors: SK_ERR_INPUT located at the offending node, SK_ERR_NOMEM. */
sk_status sweep_collect_parse(cli_yaml *y, const yaml_node_t *n, sweep_collect *c);
sk_status sweep_slurm_parse(cli_yaml *y, const yaml_node_t *n, sweep_slurm *o);

/* sweep_collect_free: release the lists. */
void sweep_collect_free(sweep_collect *c);

/* sweep_set_value: set `key` to `text` in opts, as sk_options_set does, with
 * the value's origin; a key no table declares is reported at the key's
 * origin (SK_ERR_UNKNOWN_KEY: "<file>:L:C: unknown key 'k'; did you mean
 * ...?"). */
sk_status sweep_set_value(sk_options *opts, const char *key, const char *text,
                          const sk_option_origin *key_origin,
                          const sk_option_origin *value_origin);

/* sweep_expand: the cases of spec s in expansion order (data/sweeps/README.md):
 * the product of the parameters' values (the last one varying fastest),
 * their zip, random or Latin-hypercube samples of seed s->seed, or the rows
 * of s->cases_csv. `opts` (the job's options database) names the valid keys
 * and tells integer keys, whose range values are rounded to the nearest
 * integer. Errors: SK_ERR_UNKNOWN_KEY (a key no table declares, at its
 * file:line:column, with the nearest key), SK_ERR_INPUT (a CSV row of the
 * wrong width or with an empty value, an integer range whose rounded points
 * repeat, more than SWEEP_MAX_CASES cases), SK_ERR_MISSING (no CSV file),
 * SK_ERR_NOMEM. Free with sweep_cases_free (also after an error). */
sk_status sweep_expand(sk_context *ctx, const sweep_spec *s, sk_options *opts, sweep_cases *c);

/* sweep_cases_free: release the cases. */
void sweep_cases_free(sweep_cases *c);

/* The seeded generator of samples: xoshiro256** (Blackman and Vigna), its
 * state filled from the seed by splitmix64, so a seed gives the same
 * numbers on every machine. */
typedef struct {
  uint64_t s[4];
} sweep_rng;

/* sweep_splitmix64: the next output of splitmix64 with state *x. */
uint64_t sweep_splitmix64(uint64_t *x);

/* sweep_rng_seed: the four state words are the first four outputs of
 * splitmix64 started at `seed`. */
void sweep_rng_seed(sweep_rng *r, uint64_t seed);

/* sweep_rng_next: the next 64 random bits. */
uint64_t sweep_rng_next(sweep_rng *r);

/* sweep_rng_uniform: (next >> 11) * 2^-53, uniform in [0, 1). */
double sweep_rng_uniform(sweep_rng *r);

#endif

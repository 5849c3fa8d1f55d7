/* tests/unit/test_fuzz_bvp.c: deterministic mutation fuzzing of boundary-value-problem configs (YAML through the options database into sk_bvp_from_options, muparser formulas): the examples of data/bvp and tests/bad_input/bvp, mutated, must build (and solve cheaply) or fail with a clean error */
/*
 * The loading follows `stiffkit bvp CONFIG` (src/cli/job.c cli_job_options,
 * src/cli/cmd_bvp.c cli_bvp_build) with the library calls only: an options
 * database with the keys of every model type (sk_model_register_options) and output.*
 * (the examples set output.prefix), the deferred bvp sections, sk_config_load
 * and sk_bvp_from_options. When a problem comes out, its settings and
 * continuation are read from the options as the CLI does and sk_bvp_solve
 * runs with the settings clamped small (mesh <= 32 intervals, <= 2
 * refinements, <= 2000 points, <= 12 Newton iterations, <= 20 shooting
 * intervals, <= 50 output points, CVODE for the IVPs): the point is the
 * path, not the answer.
 * Each seed file gets SK_FUZZ_ITERS (default 120) seeded mutations
 * (tests/unit/fuzz_mutate.h plus lines that a BVP description may hold).
 * Required:
 *   - no crash, and a clean sanitizer run (the sanitizer build checks);
 *   - a failure is one of the statuses of bad input (SK_ERR_INPUT,
 *     SK_ERR_UNKNOWN_KEY, SK_ERR_NOMEM; a solve may also fail to converge,
 *     overflow, hit a limit...), never SK_ERR_ARG, SK_ERR_STATE or
 *     SK_ERR_INTERNAL (the library refusing its own arguments), with a
 *     non-empty message; messages about the file's text that carry
 *     "file:L:C:" must point inside the file;
 *   - a solution that is returned lies on [a, b] with increasing,
 *     finite abscissae and finite values;
 *   - no case takes more than 5 s;
 *   - the fixed hostile cases (hostile_case below, each once found by this
 *     fuzzer) behave the same way: a formula longer than muparser's
 *     2048-byte message buffer, condition labels an option key cannot
 *     hold, flow collections nested 100000 deep (libyaml's time grows with
 *     the square of the depth: the loader must stop early).
 * A failing case stays in the scratch directory (its path is printed);
 * SK_FUZZ_ONLY, SK_FUZZ_FILE, SK_FUZZ_DUMP, SK_FUZZ_SEED, SK_FUZZ_ITERS and
 * SK_FUZZ_VERBOSE work as in test_fuzz_mechanism.c.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_mutate.h"
#include "cli/output_keys.h"
#include "stiffkit/bvp.h"
#include "stiffkit/config.h"
#include "stiffkit/diffusion.h"
#include "stiffkit/options.h"
#include "test.h"
#include "test_files.h"

#ifndef SK_SOURCE_DIR
#define SK_SOURCE_DIR "."
#endif

/* Lines a BVP config may hold (inserted at line starts by FZ_DICT_LINE). */
static const char *const bvp_lines[] = {
    "  method: shooting\n",
    "  method: multiple-shooting\n",
    "  method: fd\n",
    "  shooting: {nodes: [0, 0.5, 1]}\n",
    "  shooting: {nodes: [1, 0]}\n",
    "  shooting: {nodes: [0, 0, 1]}\n",
    "  shooting: {nodes: [0.5]}\n",
    "  shooting: {nodes: [-1e308, 1e308]}\n",
    "  shooting: {intervals: 1, rtol: 1, atol: 1e10}\n",
    "  shooting: {ivp_method: cvode-adams}\n",
    "  shooting: {ivp_method: nope}\n",
    "  shooting: {sensitivity_limit: 1}\n",
    "  order: 2\n",
    "  order: 1\n",
    "  order: 3\n",
    "  variables: \"y, dy\"\n",
    "  variables: \"x\"\n",
    "  variables: \"pi\"\n",
    "  variables: \"_pi\"\n",
    "  variables: \"sin\"\n",
    "  variables: \"y,,y\"\n",
    "  variables: \"\"\n",
    "  variables: \"a234567890123456789012345678901\"\n",
    "  parameters: {x: 1}\n",
    "  parameters: {y_a: 1}\n",
    "  parameters: {dy: 1}\n",
    "  parameters: {_e: 1}\n",
    "  parameters: {unused: 1}\n",
    "  parameters: {lambda: 1e400}\n",
    "  parameters: {\"a.b\": 1}\n",
    "  bc: {extra: {at: both, condition: \"y_a - y_b\"}}\n",
    "    extra: {at: 0.5, condition: \"y\"}\n",
    "    extra: {at: 1e-13, condition: \"y\"}\n",
    "    extra: {at: both}\n",
    "    \"\": {at: left, condition: \"y\"}\n",
    "    left.x: {at: left, condition: \"y\"}\n",
    "  interval: [1, 0]\n",
    "  interval: [0, 1e308]\n",
    "  interval: [-1e308, 1e308]\n",
    "  interval: [0, 5e-324]\n",
    "  interval: [1e300, 1.0000000000000002e300]\n",
    "  interval: [0]\n",
    "  interval: []\n",
    "  interval: [0, 1, 2]\n",
    "  mesh: {n: 1, ratio: 1000}\n",
    "  mesh: {ratio: 0.001, n: 100000000}\n",
    "  mesh: {refine: false, estimate: false}\n",
    "  mesh: {max_points: 3}\n",
    "  continuation: {parameter: lambda, to: 4}\n",
    "  continuation: {parameter: nope, to: 4}\n",
    "  continuation: {parameter: mu, step: 1e-300, min_step: 1e-12}\n",
    "  exact: {y: \"x\"}\n",
    "  exact: {dy: \"x\"}\n",
    "  guess: {dy: \"1/0\"}\n",
    "  guess: {y: \"y\"}\n",
    "  newton: {fnormtol: 1, max_iters: 1, linesearch: false}\n",
    "  newton: {fnormtol: 0}\n",
    "  tol: 0.1\n",
    "  tol: 1e-14\n",
    "  equations: {y: \"y\", z: \"1\"}\n",
    "  equations: {T: \"sum(0?1,0,0:3)\"}\n",
    "  output: {points: 2}\n",
    "model: {type: diffusion}\n",
    "model: {type: bvp, n: [4]}\n",
    "output: {prefix: x}\n",
    "output: {times: [1, 2]}\n",
    "bvp: {}\n",
    "bvp:\n",
    "bvp: ~\n",
    "equations: {y: \"1\"}\n",
    "---\n",
    "x: &a 1\n",
};

/* Generated lines: more names than the limits allow. */
static char many_vars[1024], many_params[1024], many_bcs[4096];

static void make_generated_lines(void)
{
  size_t u = (size_t)snprintf(many_vars, sizeof many_vars, "  variables: \"");
  for (int i = 0; i < 65 && u < sizeof many_vars; i++) {
    u += (size_t)snprintf(many_vars + u, sizeof many_vars - u, "%sv%d", i ? ", " : "", i);
  }
  snprintf(many_vars + u, sizeof many_vars - u, "\"\n");
  u = (size_t)snprintf(many_params, sizeof many_params, "  parameters: {");
  for (int i = 0; i < 33 && u < sizeof many_params; i++) {
    u += (size_t)snprintf(many_params + u, sizeof many_params - u, "%sp%d: %d", i ? ", " : "", i,
                          i);
  }
  snprintf(many_params + u, sizeof many_params - u, "}\n");
  u = (size_t)snprintf(many_bcs, sizeof many_bcs, "  bc: {");
  for (int i = 0; i < 70 && u < sizeof many_bcs; i++) {
    u += (size_t)snprintf(many_bcs + u, sizeof many_bcs - u,
                          "%sb%d: {at: left, condition: \"y\"}", i ? ", " : "", i);
  }
  snprintf(many_bcs + u, sizeof many_bcs - u, "}\n");
}

/* The context of the cases and their counts (run_case's first argument). */
typedef struct {
  sk_context *ctx;
  long cases, built, solved, load_errors, solve_errors, located, unlocated;
  fz_slowest slowest;
} stats;

/* "file:L:C: ..." anywhere in msg (a message may start with a key): 1 inside the
 * file, -1 outside, 0 no position. */
static int message_position(const char *msg, const char *path, size_t lines)
{
  const char *at = strstr(msg, path);
  if (!at || at[strlen(path)] != ':') {
    return 0;
  }
  return fz_position(at + strlen(path) + 1, lines);
}

/* A failure status: bad input is fine, the library refusing itself is not. */
static int verbose = 0;

static int check_failure(const sk_context *ctx, sk_status st, const char *stage,
                         const char *label, const char *path, const fz_buf *text, stats *S)
{
  const char *msg = sk_context_get_error(ctx)->message;
  int bad = 0;
  if (verbose) {
    printf("%s: %s: %s: %s\n", label, stage, sk_status_name(st), msg);
  }
  if (st == SK_ERR_ARG || st == SK_ERR_STATE || st == SK_ERR_INTERNAL || st >= 0) {
    fprintf(stderr, "%s: %s returned %s: %s\n", label, stage, sk_status_name(st), msg);
    bad++;
  }
  if (!msg[0]) {
    fprintf(stderr, "%s: %s returned %s with an empty message\n", label, stage,
            sk_status_name(st));
    bad++;
  }
  bad += fz_count_position(message_position(msg, path, fz_count_yaml_lines(text)), msg, text,
                           label, stage, &S->located, &S->unlocated);
  sk_test_failures += bad;
  return bad;
}

/* A returned solution: n >= 2 points from a to b, increasing, finite. */
static int check_solution(const sk_bvp *bvp, const sk_bvp_solution *sol, const char *label)
{
  const int before = sk_test_failures;
  double a, b;
  sk_bvp_get_interval(bvp, &a, &b);
  CHECK(sol->n >= 2 && sol->d == sk_bvp_get_dim(bvp) && sol->x && sol->y);
  if (sol->n >= 2 && sol->x && sol->y) {
    CHECK(sol->x[0] == a && sol->x[sol->n - 1] == b);
    for (int64_t i = 0; i < sol->n; i++) {
      CHECK(isfinite(sol->x[i]) && (i == 0 || sol->x[i] > sol->x[i - 1]));
      for (int c = 0; c < sol->d; c++) {
        CHECK(isfinite(sol->y[(size_t)i * (size_t)sol->d + (size_t)c]));
      }
    }
  }
  if (sk_test_failures != before) {
    fprintf(stderr, "  (the solution of %s)\n", label);
  }
  return sk_test_failures - before;
}

/* Settings kept cheap: the point is the path through the solver. */
static void clamp_settings(sk_bvp_settings *s)
{
  s->mesh_n = s->mesh_n > 32 ? 32 : s->mesh_n;
  s->max_points = s->max_points > 2000 ? 2000 : s->max_points;
  s->max_refinements = s->max_refinements > 2 ? 2 : s->max_refinements;
  s->max_iters = s->max_iters > 12 ? 12 : s->max_iters;
  s->shoot_intervals = s->shoot_intervals > 20 ? 20 : s->shoot_intervals;
  if (s->shoot_nnodes > 21) {
    s->shoot_nodes = NULL;
    s->shoot_nnodes = 0;
  }
  s->output_points = s->output_points > 50 ? 50 : s->output_points;
  if (strncmp(s->ivp_method, "cvode", 5) != 0) {
    snprintf(s->ivp_method, sizeof s->ivp_method, "cvode-bdf");
  }
  s->verbose = 0;
}

/* Load, build and solve one case (an fz_case_fn: ud the stats, *accepted when it builds);
 * returns the number of failed checks. */
static int run_case(void *ud, const char *path, const fz_buf *text, const char *label,
                    int *accepted)
{
  stats *S = ud;
  sk_context *ctx = S->ctx;
  const int before = sk_test_failures;
  const double t0 = fz_now();
  S->cases++;
  sk_options *opts = NULL;
  sk_bvp *bvp = NULL;
  sk_bvp_keys *keys = NULL;
  sk_status st = sk_options_create(ctx, &opts);
  CHECK(st == SK_OK);
  size_t n;
  const sk_option_spec *t = cli_output_options(&n);
  if (st == SK_OK) {
    st = sk_options_register(opts, t, n);
    CHECK(st == SK_OK);
  }
  if (st == SK_OK) { /* model.type, the bvp.* keys and their deferred sections */
    st = sk_model_register_options(opts);
    CHECK(st == SK_OK);
  }
  const char *stage = "sk_config_load";
  if (st == SK_OK) {
    st = sk_config_load(opts, path);
  }
  if (st == SK_OK) {
    stage = "sk_bvp_from_options";
    st = sk_bvp_from_options(ctx, opts, &bvp, &keys);
    if (st == SK_OK) {
      CHECK(bvp != NULL && keys != NULL);
    } else {
      CHECK(bvp == NULL); /* the keys may be registered already: freed after the options */
    }
  }
  *accepted = st == SK_OK;
  if (st == SK_OK) {
    S->built++;
    sk_bvp_settings set;
    sk_bvp_continuation c;
    int cont = 0;
    stage = "sk_bvp_settings_from_options";
    st = sk_bvp_settings_from_options(ctx, opts, &set);
    if (st == SK_OK) {
      stage = "sk_bvp_continuation_from_options";
      st = sk_bvp_continuation_from_options(ctx, opts, bvp, &c, &cont);
    }
    if (st == SK_OK) {
      clamp_settings(&set);
      sk_bvp_solution sol;
      sk_bvp_report rep;
      memset(&sol, 0, sizeof sol);
      memset(&rep, 0, sizeof rep);
      stage = "sk_bvp_solve";
      st = sk_bvp_solve(ctx, bvp, &set, &sol, &rep);
      if (verbose) {
        printf("%s: sk_bvp_solve: %s\n", label, sk_status_name(st));
      }
      if (st == SK_OK) {
        S->solved++;
        check_solution(bvp, &sol, label);
        if (sk_bvp_has_exact(bvp) && sol.n >= 1 && sol.x) {
          double y[SK_BVP_MAX_DIM];
          const sk_status se = sk_bvp_eval_exact(bvp, sol.x[0], y);
          CHECK(se == SK_OK || se == SK_ERR_NONFINITE);
        }
      } else {
        S->solve_errors++;
        check_failure(ctx, st, stage, label, path, text, S);
      }
      sk_bvp_solution_free(&sol);
      st = SK_OK;
    } else {
      S->load_errors++;
      check_failure(ctx, st, stage, label, path, text, S);
    }
  } else {
    S->load_errors++;
    check_failure(ctx, st, stage, label, path, text, S);
  }
  /* the order of cli_job_free: the options keep pointers into the keys */
  sk_options_destroy(&opts);
  sk_bvp_destroy(&bvp);
  sk_bvp_keys_destroy(&keys);
  CHECK(opts == NULL && bvp == NULL && keys == NULL);
  sk_test_failures += fz_timed(&S->slowest, fz_now() - t0, label, FZ_CASE_SECONDS, "");
  return sk_test_failures - before;
}

/* Inputs this fuzzer found once, kept as fixed cases (the random mutations
 * reach them only now and then): case k into b, its name into label (an fz_hostile_fn). */
static int hostile_case(size_t k, fz_buf *b, char *label, size_t len)
{
  static const char *const head =
      "model: {type: bvp}\nbvp:\n  order: 2\n  variables: \"y\"\n  bc:\n"
      "    left: {at: left, condition: \"y\"}\n";
  static const char *const labels[] = {"rig&t", "r ght", "ri\\tht", "x\\\"y", "a:b", "#"};
  char text[1024];
  const size_t nlabels = sizeof labels / sizeof labels[0];
  if (k == 0) { /* muparser copies its message, which quotes the token, into 2048 bytes */
    snprintf(label, len, "hostile: an equation of one 2100-character name");
    snprintf(text, sizeof text,
             "%s    right: {at: right, condition: \"y - 1\"}\n"
             "  equations: {y: \"",
             head);
    fz_repeat_text(b, text, "a", 2100, "\"}\n");
  } else if (k == 1) {
    snprintf(label, len, "hostile: a condition of 5000 digits");
    snprintf(text, sizeof text, "%s    right: {at: right, condition: \"", head);
    fz_repeat_text(b, text, "1", 5000, "\"}\n  equations: {y: \"-y\"}\n");
  } else if (k == 2) { /* libyaml: quadratic in the depth of flow collections */
    snprintf(label, len, "hostile: an interval nested 100000 flow lists deep");
    fz_repeat_text(b, "model: {type: bvp}\nbvp: {interval: ", "[", 100000, "");
    for (size_t i = 0; i < 100000; i++) {
      fz_insert(b, b->n, "]", 1);
    }
    fz_insert(b, b->n, "}\n", 2);
  } else if (k == 3) {
    snprintf(label, len, "hostile: an unclosed flow mapping 20000 deep");
    fz_repeat_text(b, "model: {type: bvp}\nbvp: ", "{a: ", 20000, "1\n");
  } else if (k < 4 + nlabels) { /* a condition label that no option key can hold */
    snprintf(label, len, "hostile: the condition label \"%s\"", labels[k - 4]);
    snprintf(text, sizeof text,
             "%s    \"%s\": {at: right, condition: \"y - 1\"}\n"
             "  equations: {y: \"-y\"}\n",
             head, labels[k - 4]);
    fz_set(b, text, strlen(text));
  } else {
    return 0;
  }
  return 1;
}

int main(void)
{
  const fz_env env = fuzz_env(120);
  verbose = env.verbose;
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK) {
    return 2;
  }
  make_generated_lines();
  char dir[512];
  test_tmpdir(dir, sizeof dir, "fuzz_bvp");

  char *seeds[FZ_MAX_SEEDS];
  fz_buf texts[FZ_MAX_SEEDS];
  size_t ngood;
  const size_t nseeds =
      fz_load_seeds(SK_SOURCE_DIR "/data/bvp", SK_SOURCE_DIR "/tests/bad_input/bvp", seeds, texts,
                    FZ_MAX_SEEDS, &ngood);
  CHECK(ngood >= 6);
  CHECK(nseeds >= ngood + 5);
  const char *lines[sizeof bvp_lines / sizeof bvp_lines[0] + 3];
  size_t nlines = 0;
  for (size_t i = 0; i < sizeof bvp_lines / sizeof bvp_lines[0]; i++) {
    lines[nlines++] = bvp_lines[i];
  }
  lines[nlines++] = many_vars;
  lines[nlines++] = many_params;
  lines[nlines++] = many_bcs;
  const fz_target T = {lines, nlines, texts, nseeds, 64 * 1024};

  stats S = {.ctx = ctx};
  const fz_driver D = {run_case, &S, dir, "build", &sk_test_failures};
  const double start = fz_now();
  const int kept = fz_run(&D, &env, seeds, texts, nseeds, ngood, &T, hostile_case);
  printf("bvp fuzz: %ld cases from %zu seeds in %.1f s: %ld built, %ld solved, %ld load errors, "
         "%ld solve errors (%ld messages with file:line:column, %ld without); slowest %.3f s "
         "(%s)\n",
         S.cases, nseeds, fz_now() - start, S.built, S.solved, S.load_errors, S.solve_errors,
         S.located, S.unlocated, S.slowest.t, S.slowest.label);
  fflush(stdout);
  fz_finish(dir, kept, seeds, texts, nseeds);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

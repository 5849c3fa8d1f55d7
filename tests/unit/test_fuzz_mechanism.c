/* tests/unit/test_fuzz_mechanism.c: deterministic mutation fuzzing of the mechanism parser (sk_multibody_load): the examples of data/mechanisms and tests/bad_input/mechanisms, mutated, must load cleanly or fail with a located SK_ERR_INPUT message */
/*
 * Each seed file gets SK_FUZZ_ITERS (default 400) seeded mutations
 * (tests/unit/fuzz_mutate.h: byte flips and deletions, duplicated, deleted
 * and swapped lines, YAML special characters, hostile numbers such as 1e400,
 * nan and -0, huge lists, deep nesting, long scalars, anchors, muparser's
 * own crash inputs in the formulas, lines of the other seeds). Each case is
 * written to a scratch file named after the seed and iteration and loaded.
 * Required:
 *   - no crash, and a clean sanitizer run (the sanitizer build checks);
 *   - SK_OK: a mechanism whose counts, indices and numbers are consistent
 *     (finite, masses and inertias > 0, unit axes, body indices in range),
 *     whose formulas evaluate, and which sk_multibody_destroy frees;
 *   - otherwise SK_ERR_INPUT (or SK_ERR_NOMEM), *mech NULL, and a message
 *     that starts with the file name; when it gives "file:L:C:", L lies
 *     within the file (or one past it) and C >= 1;
 *   - no case takes more than 5 s (a parser that loops);
 *   - the fixed hostile cases (hostile_case below, each once found by this
 *     fuzzer) behave the same way: formulas longer than muparser's 2048-byte
 *     message buffer, flow collections nested 100000 deep (libyaml's time
 *     grows with the square of the depth: the loader must stop early).
 * A failing case stays in the scratch directory (its path is printed);
 * SK_FUZZ_ONLY=<iteration> SK_FUZZ_FILE=<seed name> rerun one case,
 * SK_FUZZ_DUMP=<dir> writes every case there, SK_FUZZ_SEED changes the seed,
 * SK_FUZZ_ITERS the count, SK_FUZZ_VERBOSE=1 prints every case's status.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_mutate.h"
#include "models/multibody_impl.h"
#include "test.h"
#include "test_files.h"

#ifndef SK_SOURCE_DIR
#define SK_SOURCE_DIR "."
#endif

/* Lines a mechanism file may hold (inserted at line starts by FZ_DICT_LINE). */
static const char *const mech_lines[] = {
    "gravity: [0, -9.81]\n",
    "gravity: [1e400, nan]\n",
    "bodies: []\n",
    "bodies:\n",
    "joints: []\n",
    "joints:\n",
    "drivers:\n",
    "forces:\n",
    "events:\n",
    "events: ~\n",
    "drivers: {}\n",
    "  - {name: extra, mass: 1, inertia: 1, position: [0, 0], angle: 0}\n",
    "  - {name: ground, mass: 1, inertia: 1, position: [0, 0], angle: 0}\n",
    "  - name: blk\n    mass: 1\n    inertia: 1\n    position: [0, 0]\n    angle: 0\n",
    "    velocity: [1, 2]\n",
    "    omega: -0\n",
    "  - {name: W, type: fixed, body1: crank}\n",
    "  - {name: P, type: prismatic, body1: rod, point1: [0, 0], body2: ground, point2: [0, 0],"
    " axis: [0, 0]}\n",
    "  - {name: P2, type: prismatic, body1: bob, point1: [0, 0], body2: ground, point2: [0, 0],"
    " axis: [1e-320, 0]}\n",
    "  - {name: R, type: revolute, body1: rod1, point1: [0, 0], body2: rod1, point2: [0, 0]}\n",
    "  - {joint: O, position: \"t\", velocity: \"1\", acceleration: \"0\"}\n",
    "  - {joint: pivot, position: \"sum(0?1,0,0:3)\"}\n",
    "  - {joint: S, position: \"t\"}\n",
    "  - {type: torque, body: crank, value: \"t\"}\n",
    "  - {type: force, body: bob, point: [0, 0], fx: \"0\", fy: \"-1*sin(t)\"}\n",
    "  - {type: spring, body1: rod2, point1: [0, 0], body2: ground, point2: [1, 0],"
    " stiffness: 1, length: 0, damping: -0}\n",
    "  - {name: top, body: crank, coordinate: angle, value: 1e308}\n",
    "  - {name: top, body: rod, coordinate: z, value: 1}\n",
    "---\n",
    "%YAML 1.1\n---\n",
    "...\n",
    "x: &a [1, 2]\n",
    "gravity: *a\n",
    "<<: {gravity: [0, 1]}\n",
    "? [a, b]\n: 1\n",
    "!!binary |\n  AAAA\n",
    "\"bodies\": []\n",
    "bodies: !!str x\n",
    "  -\n",
    "  - \n",
    "  - ~\n",
    "  - []\n",
    "  - [1, 2]\n",
};

/* The context of the cases and their counts (run_case's first argument). */
typedef struct {
  sk_context *ctx;
  long cases, ok, errors, nomem, located, unlocated, slow_max_iter;
  fz_slowest slowest;
} stats;

static int finite2(const double *v)
{
  return isfinite(v[0]) && isfinite(v[1]);
}

static int valid_name(const char *s)
{
  const size_t n = strnlen(s, SK__MULTIBODY_NAME);
  if (n == 0 || n >= SK__MULTIBODY_NAME) {
    return 0;
  }
  for (size_t i = 0; i < n; i++) {
    if (!(isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '-')) {
      return 0;
    }
  }
  return 1;
}

/* The invariants of a loaded mechanism; returns the number of violations. */
static int check_mechanism(const sk_multibody *m, const sk_context *ctx, const char *label)
{
  const int before = sk_test_failures;
  CHECK(m->ctx == ctx);
  CHECK(m->nb >= 1 && m->bodies != NULL);
  CHECK(m->nj >= 0 && m->nd >= 0 && m->nf >= 0 && m->ne >= 0);
  CHECK(finite2(m->gravity));
  int rows = 0;
  for (int b = 0; b < m->nb; b++) {
    const sk__multibody_body *B = &m->bodies[b];
    CHECK(valid_name(B->name) && strcmp(B->name, "ground") != 0);
    CHECK(isfinite(B->mass) && B->mass > 0);
    CHECK(isfinite(B->inertia) && B->inertia > 0);
    CHECK(finite2(B->q0) && isfinite(B->q0[2]) && finite2(B->v0) && isfinite(B->v0[2]));
    CHECK(B->line >= 1);
    for (int k = 0; k < b; k++) {
      CHECK(strcmp(m->bodies[k].name, B->name) != 0);
    }
  }
  for (int j = 0; j < m->nj; j++) {
    const sk__multibody_joint *J = &m->joints[j];
    CHECK(valid_name(J->name));
    CHECK(J->type == SK__MULTIBODY_REVOLUTE || J->type == SK__MULTIBODY_PRISMATIC ||
          J->type == SK__MULTIBODY_FIXED);
    CHECK(J->b1 >= 0 && J->b1 < m->nb);
    CHECK(J->b2 >= SK__MULTIBODY_GROUND && J->b2 < m->nb && J->b2 != J->b1);
    CHECK(finite2(J->s1) && finite2(J->s2));
    if (J->type == SK__MULTIBODY_PRISMATIC) {
      CHECK(finite2(J->axis) && fabs(hypot(J->axis[0], J->axis[1]) - 1.0) <= 1e-12);
    }
    if (J->type == SK__MULTIBODY_FIXED) {
      CHECK(J->b2 == SK__MULTIBODY_GROUND);
    }
    CHECK(J->row == rows);
    rows += J->type == SK__MULTIBODY_FIXED ? 3 : 2;
  }
  for (int d = 0; d < m->nd; d++) {
    const sk__multibody_driver *D = &m->drivers[d];
    CHECK(D->joint >= 0 && D->joint < m->nj);
    CHECK(D->f != NULL);
    if (D->joint >= 0 && D->joint < m->nj) {
      CHECK(m->joints[D->joint].type != SK__MULTIBODY_FIXED);
    }
    for (int k = 0; k < d; k++) {
      CHECK(m->drivers[k].joint != D->joint);
    }
    CHECK(D->row == rows);
    rows++;
    /* the formulas evaluate (any value: a formula may be nan at some t) */
    const double ts[] = {0.0, 0.5, -1.0, 1e300};
    for (size_t k = 0; k < sizeof ts / sizeof ts[0]; k++) {
      (void)sk__time_function_eval(D->f, ts[k]);
      if (D->df) {
        (void)sk__time_function_eval(D->df, ts[k]);
      }
      if (D->ddf) {
        (void)sk__time_function_eval(D->ddf, ts[k]);
      }
    }
  }
  CHECK(m->m == rows);
  for (int f = 0; f < m->nf; f++) {
    const sk__multibody_force *F = &m->forces[f];
    CHECK(F->b1 >= 0 && F->b1 < m->nb);
    CHECK(F->b2 >= SK__MULTIBODY_GROUND && F->b2 < m->nb);
    switch (F->type) {
    case SK__MULTIBODY_SPRING:
      CHECK(finite2(F->s1) && finite2(F->s2));
      CHECK(isfinite(F->k) && F->k >= 0 && isfinite(F->length) && F->length >= 0 &&
            isfinite(F->damping) && F->damping >= 0);
      break;
    case SK__MULTIBODY_FORCE:
      CHECK(finite2(F->s1) && F->fx && F->fy);
      break;
    case SK__MULTIBODY_TORQUE:
      CHECK(F->fx != NULL && F->fy == NULL);
      break;
    default:
      CHECK(!"unknown force type");
    }
    if (F->fx) {
      (void)sk__time_function_eval(F->fx, 1.0);
    }
    if (F->fy) {
      (void)sk__time_function_eval(F->fy, 1.0);
    }
  }
  for (int e = 0; e < m->ne; e++) {
    const sk__multibody_event *E = &m->events[e];
    CHECK(valid_name(E->name));
    CHECK(E->body >= 0 && E->body < m->nb);
    CHECK(E->coord >= 0 && E->coord <= 2);
    CHECK(isfinite(E->value));
  }
  /* the constraint rows at q0 (the first consumer of the parsed numbers) */
  const int n = 3 * m->nb;
  if (m->m > 0 && (double)m->m * n <= 1e6) {
    double *q = calloc((size_t)n, sizeof *q), *v = calloc((size_t)n, sizeof *v);
    double *phi = calloc((size_t)m->m, sizeof *phi),
           *G = calloc((size_t)m->m * (size_t)n, sizeof *G);
    double *phit = calloc((size_t)m->m, sizeof *phit),
           *gamma = calloc((size_t)m->m, sizeof *gamma);
    if (q && v && phi && G && phit && gamma) {
      for (int b = 0; b < m->nb; b++) {
        memcpy(q + 3 * b, m->bodies[b].q0, sizeof m->bodies[b].q0);
        memcpy(v + 3 * b, m->bodies[b].v0, sizeof m->bodies[b].v0);
      }
      const sk_status st = sk__multibody_rows((sk_multibody *)m, 0.0, q, v, phi, G, phit, gamma);
      CHECK(st == SK_OK || st == SK_ERR_NONFINITE);
    }
    free(q);
    free(v);
    free(phi);
    free(G);
    free(phit);
    free(gamma);
  }
  if (sk_test_failures != before) {
    fprintf(stderr, "  (the mechanism of %s)\n", label);
  }
  return sk_test_failures - before;
}

/* Is the message "path:L:C: ..." with 1 <= L <= lines + 1, C >= 1?
 * 1: located, 0: names the file only, -1: a position outside the file. */
static int message_position(const char *msg, const char *path, size_t lines)
{
  return fz_position(msg + strlen(path) + 1, lines);
}

static int verbose = 0;

/* Load one case (an fz_case_fn: ud the stats, *accepted when it loads); returns the number of
 * failed checks. */
static int run_case(void *ud, const char *path, const fz_buf *text, const char *label,
                    int *accepted)
{
  stats *S = ud;
  sk_context *ctx = S->ctx;
  const int before = sk_test_failures;
  sk_multibody *m = (sk_multibody *)(void *)&m; /* must come back NULL on failure */
  const double t0 = fz_now();
  const sk_status st = sk_multibody_load(ctx, path, &m);
  const double dt = fz_now() - t0;
  S->cases++;
  sk_test_failures += fz_timed(&S->slowest, dt, label, FZ_CASE_SECONDS, " (a loop?)");
  *accepted = st == SK_OK;
  if (st == SK_OK) {
    S->ok++;
    if (verbose) {
      printf("%s: SK_OK\n", label);
    }
    CHECK(m != NULL && m != (sk_multibody *)(void *)&m);
    if (m && m != (sk_multibody *)(void *)&m) {
      check_mechanism(m, ctx, label);
      sk_multibody_destroy(&m);
      CHECK(m == NULL);
    }
  } else {
    S->errors++;
    S->nomem += st == SK_ERR_NOMEM;
    const char *msg = sk_context_get_error(ctx)->message;
    if (verbose) {
      printf("%s: %s: %s\n", label, sk_status_name(st), msg);
    }
    CHECK(m == NULL);
    if (m != NULL) {
      m = NULL; /* never free what the loader left */
    }
    if (st != SK_ERR_INPUT && st != SK_ERR_NOMEM) {
      fprintf(stderr, "%s: status %s (expected SK_ERR_INPUT): %s\n", label, sk_status_name(st),
              msg);
      sk_test_failures++;
    }
    if (!msg[0]) {
      fprintf(stderr, "%s: %s with an empty message\n", label, sk_status_name(st));
      sk_test_failures++;
    } else if (strncmp(msg, path, strlen(path)) != 0 || msg[strlen(path)] != ':') {
      fprintf(stderr, "%s: the message does not start with the file name:\n  %s\n", label, msg);
      sk_test_failures++;
    } else {
      sk_test_failures +=
          fz_count_position(message_position(msg, path, fz_count_yaml_lines(text)), msg, text,
                            label, NULL, &S->located, &S->unlocated);
    }
  }
  return sk_test_failures - before;
}

/* Inputs this fuzzer found once, kept as fixed cases (the random mutations
 * reach them only now and then): case k into b, its name into label (an fz_hostile_fn). */
static int hostile_case(size_t k, fz_buf *b, char *label, size_t len)
{
  static const char *const body =
      "bodies:\n  - {name: a, mass: 1, inertia: 1, position: [0, 0], angle: 0}\n";
  char head[512];
  const char *name = "";
  switch (k) {
  case 0: /* muparser copies its message, which quotes the token, into a 2048-byte buffer */
    name = "hostile: a torque formula of one 2100-character name";
    snprintf(head, sizeof head, "%sjoints: []\nforces:\n  - {type: torque, body: a, value: \"",
             body);
    fz_repeat_text(b, head, "a", 2100, "\"}\n");
    break;
  case 1:
    name = "hostile: a driver formula of 5000 digits";
    snprintf(head, sizeof head,
             "%sjoints:\n  - {name: P, type: revolute, body1: a, point1: [0, 0], body2: ground, "
             "point2: [0, 0]}\ndrivers:\n  - {joint: P, position: \"",
             body);
    fz_repeat_text(b, head, "1", 5000, "\"}\n");
    break;
  case 2:
    name = "hostile: a formula of 3000 opening parentheses";
    snprintf(head, sizeof head, "%sjoints: []\nforces:\n  - {type: torque, body: a, value: \"",
             body);
    fz_repeat_text(b, head, "(", 3000, "t\"}\n");
    break;
  case 3: /* libyaml: quadratic in the depth of flow collections */
    name = "hostile: bodies nested 100000 flow lists deep";
    fz_repeat_text(b, "bodies: ", "[", 100000, "");
    for (size_t i = 0; i < 100000; i++) {
      fz_insert(b, b->n, "]", 1);
    }
    fz_insert(b, b->n, "\njoints: []\n", strlen("\njoints: []\n"));
    break;
  case 4:
    name = "hostile: an unclosed flow mapping 20000 deep";
    fz_repeat_text(b, "gravity: ", "{a: ", 20000, "1\n");
    break;
  default:
    return 0;
  }
  snprintf(label, len, "%s", name);
  return 1;
}

int main(void)
{
  const fz_env env = fuzz_env(400);
  verbose = env.verbose;
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK) {
    return 2;
  }
  char dir[512];
  test_tmpdir(dir, sizeof dir, "fuzz_mbs");

  char *seeds[FZ_MAX_SEEDS];
  fz_buf texts[FZ_MAX_SEEDS];
  size_t ngood;
  const size_t nseeds =
      fz_load_seeds(SK_SOURCE_DIR "/data/mechanisms", SK_SOURCE_DIR "/tests/bad_input/mechanisms",
                    seeds, texts, FZ_MAX_SEEDS, &ngood);
  CHECK(ngood >= 4);          /* the four examples */
  CHECK(nseeds >= ngood + 5); /* and the bad inputs */
  const fz_target T = {mech_lines, sizeof mech_lines / sizeof mech_lines[0], texts, nseeds,
                       256 * 1024};

  stats S = {.ctx = ctx};
  const fz_driver D = {run_case, &S, dir, "load", &sk_test_failures};
  const double start = fz_now();
  const int kept = fz_run(&D, &env, seeds, texts, nseeds, ngood, &T, hostile_case);
  const double total = fz_now() - start;
  printf("mechanism fuzz: %ld cases from %zu seeds in %.1f s: %ld loaded, %ld errors (%ld with "
         "file:line:column, %ld with the file name only, %ld out of memory); slowest %.3f s "
         "(%s)\n",
         S.cases, nseeds, total, S.ok, S.errors, S.located, S.unlocated, S.nomem, S.slowest.t,
         S.slowest.label);
  fflush(stdout);
  fz_finish(dir, kept, seeds, texts, nseeds);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

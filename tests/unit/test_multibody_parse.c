/* tests/unit/test_multibody_parse.c: mechanism files: the examples of data/mechanisms (counts, names, values, joints closed at t0), the bad inputs of tests/bad_input/mechanisms and inline bad files (status and located message), allocation failures */
/*
 * The joints of the examples are checked here independently of the
 * kinematics: for a revolute joint r1 + A(phi1) s1 = r2 + A(phi2) s2 with
 * the file's numbers (to 1e-12), for the prismatic joint of the slider-crank
 * that the slider's pin lies on the x axis.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/context_impl.h"
#include "models/multibody_impl.h"
#include "test.h"
#include "test_files.h"

#define PI 3.14159265358979323846

#ifndef SK_SOURCE_DIR
#define SK_SOURCE_DIR "."
#endif

static const char *msg(const sk_context *ctx)
{
  return sk_context_get_error(ctx)->message;
}

static sk_status load_rel(sk_context *ctx, const char *rel, sk_multibody **m)
{
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", SK_SOURCE_DIR, rel);
  return sk_multibody_load(ctx, path, m);
}

/* The global position of point s of body b (or of the ground) at q0. */
static void point_at(const sk_multibody *m, int b, const double *s, double *p)
{
  if (b == SK__MULTIBODY_GROUND) {
    p[0] = s[0];
    p[1] = s[1];
    return;
  }
  const double *q = m->bodies[b].q0;
  p[0] = q[0] + cos(q[2]) * s[0] - sin(q[2]) * s[1];
  p[1] = q[1] + sin(q[2]) * s[0] + cos(q[2]) * s[1];
}

/* max |r1 + A1 s1 - r2 - A2 s2| over the revolute joints at q0. */
static double revolute_residual(const sk_multibody *m)
{
  double worst = 0.0;
  for (int j = 0; j < m->nj; j++) {
    const sk__multibody_joint *J = &m->joints[j];
    if (J->type != SK__MULTIBODY_REVOLUTE) {
      continue;
    }
    double p1[2], p2[2];
    point_at(m, J->b1, J->s1, p1);
    point_at(m, J->b2, J->s2, p2);
    worst = fmax(worst, fmax(fabs(p1[0] - p2[0]), fabs(p1[1] - p2[1])));
  }
  return worst;
}

static int body_index(const sk_multibody *m, const char *name)
{
  for (int b = 0; b < m->nb; b++) {
    if (strcmp(m->bodies[b].name, name) == 0) {
      return b;
    }
  }
  return -2;
}

static void test_pendulum(sk_context *ctx)
{
  sk_multibody *m = NULL;
  CHECK_OK(ctx, load_rel(ctx, "data/mechanisms/pendulum.yaml", &m));
  if (!m) {
    return;
  }
  CHECK_EQ_INT(m->nb, 1);
  CHECK_EQ_INT(m->nj, 1);
  CHECK_EQ_INT(m->nd + m->nf + m->ne, 0);
  CHECK(m->ctx == ctx);
  CHECK_STR_CONTAINS(m->file, "data/mechanisms/pendulum.yaml");
  CHECK(strcmp(m->bodies[0].name, "bob") == 0);
  CHECK_NEAR(m->gravity[0], 0.0, 0, 0);
  CHECK_NEAR(m->gravity[1], -9.81, 0, 0);
  CHECK_NEAR(m->bodies[0].mass, 1.0, 0, 0);
  CHECK_NEAR(m->bodies[0].inertia, 1e-3, 0, 0);
  CHECK_NEAR(m->bodies[0].q0[0], sin(0.3), 1e-14, 0);
  CHECK_NEAR(m->bodies[0].q0[1], -cos(0.3), 1e-14, 0);
  CHECK_NEAR(m->bodies[0].q0[2], 0.3, 0, 0);
  CHECK(m->bodies[0].v0[0] == 0.0 && m->bodies[0].v0[1] == 0.0 && m->bodies[0].v0[2] == 0.0);
  CHECK_EQ_INT(m->bodies[0].line, 6);
  const sk__multibody_joint *J = &m->joints[0];
  CHECK(strcmp(J->name, "pivot") == 0);
  CHECK_EQ_INT(J->type, SK__MULTIBODY_REVOLUTE);
  CHECK_EQ_INT(J->b1, 0);
  CHECK_EQ_INT(J->b2, SK__MULTIBODY_GROUND);
  CHECK(J->s1[0] == 0.0 && J->s1[1] == 1.0 && J->s2[0] == 0.0 && J->s2[1] == 0.0);
  CHECK_EQ_INT(J->line, 8);
  CHECK(revolute_residual(m) <= 1e-12);
  CHECK_EQ_INT(m->m, 2); /* numbered by sk__multibody_finish */
  sk_multibody_destroy(&m);
  CHECK(m == NULL);
  sk_multibody_destroy(&m); /* accepts NULL */
  sk_multibody_destroy(NULL);
}

static void test_double_pendulum(sk_context *ctx)
{
  sk_multibody *m = NULL;
  CHECK_OK(ctx, load_rel(ctx, "data/mechanisms/double_pendulum.yaml", &m));
  if (!m) {
    return;
  }
  CHECK_EQ_INT(m->nb, 2);
  CHECK_EQ_INT(m->nj, 2);
  CHECK_EQ_INT(m->nd, 0);
  CHECK(strcmp(m->bodies[0].name, "rod1") == 0 && strcmp(m->bodies[1].name, "rod2") == 0);
  CHECK(strcmp(m->joints[0].name, "O") == 0 && strcmp(m->joints[1].name, "A") == 0);
  CHECK_NEAR(m->bodies[1].inertia, 1.0 / 12.0, 1e-14, 0);
  CHECK_NEAR(m->bodies[0].q0[0], 0.5 * sin(1.0), 1e-14, 0);
  CHECK_NEAR(m->bodies[1].q0[1], -cos(1.0) - 0.5 * cos(0.5), 1e-14, 0);
  CHECK_EQ_INT(m->joints[1].b1, 1);
  CHECK_EQ_INT(m->joints[1].b2, 0);
  CHECK(revolute_residual(m) <= 1e-12);
  CHECK_EQ_INT(m->m, 4);
  sk_multibody_destroy(&m);
}

static void test_slider_crank(sk_context *ctx)
{
  sk_multibody *m = NULL;
  CHECK_OK(ctx, load_rel(ctx, "data/mechanisms/slider_crank.yaml", &m));
  if (!m) {
    return;
  }
  CHECK_EQ_INT(m->nb, 3);
  CHECK_EQ_INT(m->nj, 4);
  CHECK_EQ_INT(m->nd, 1);
  const int crank = body_index(m, "crank"), rod = body_index(m, "rod"),
            slider = body_index(m, "slider");
  CHECK(crank == 0 && rod == 1 && slider == 2);
  CHECK_NEAR(m->bodies[crank].v0[2], 2 * PI, 1e-14, 0);
  CHECK_NEAR(m->bodies[rod].v0[2], -2 * PI / 3, 1e-14, 0);
  CHECK_NEAR(m->bodies[rod].inertia, 0.3 * 0.09 / 12, 1e-14, 0);
  const sk__multibody_joint *S = &m->joints[3];
  CHECK(strcmp(S->name, "S") == 0);
  CHECK_EQ_INT(S->type, SK__MULTIBODY_PRISMATIC);
  CHECK_EQ_INT(S->b1, slider);
  CHECK_EQ_INT(S->b2, SK__MULTIBODY_GROUND);
  CHECK(S->axis[0] == 1.0 && S->axis[1] == 0.0);
  CHECK(revolute_residual(m) <= 1e-12);
  double p[2];
  point_at(m, slider, S->s1, p);
  CHECK(fabs(p[1]) <= 1e-12); /* on the x axis */
  const sk__multibody_driver *D = &m->drivers[0];
  CHECK_EQ_INT(D->joint, 0);
  CHECK(D->f && D->df && D->ddf);
  if (D->f && D->df && D->ddf) {
    CHECK_NEAR(sk__time_function_eval(D->f, 0.25), PI / 2, 1e-15, 0);
    CHECK_NEAR(sk__time_function_eval(D->df, 0.7), 2 * PI, 1e-15, 0);
    CHECK_NEAR(sk__time_function_eval(D->ddf, 0.7), 0.0, 0, 0);
  }
  CHECK_EQ_INT(m->m, 9);
  sk_multibody_destroy(&m);
}

static void test_fourbar(sk_context *ctx)
{
  sk_multibody *m = NULL;
  CHECK_OK(ctx, load_rel(ctx, "data/mechanisms/fourbar.yaml", &m));
  if (!m) {
    return;
  }
  CHECK_EQ_INT(m->nb, 3);
  CHECK_EQ_INT(m->nj, 4);
  CHECK_EQ_INT(m->nd, 1);
  CHECK_EQ_INT(m->ne, 1);
  static const char *const joints[] = {"O2", "A", "B", "O4"};
  for (int j = 0; j < 4; j++) {
    CHECK(strcmp(m->joints[j].name, joints[j]) == 0);
    CHECK_EQ_INT(m->joints[j].type, SK__MULTIBODY_REVOLUTE);
  }
  CHECK_EQ_INT(m->joints[3].b1, body_index(m, "rocker"));
  CHECK_NEAR(m->joints[3].s2[0], 0.4, 0, 0);
  CHECK(revolute_residual(m) <= 1e-12);
  /* the coupler-rocker pin B: |B - A| = 0.35 and |B - O4| = 0.3 */
  double B[2];
  point_at(m, body_index(m, "rocker"), m->joints[2].s2, B);
  CHECK_NEAR(hypot(B[0] - 0.1, B[1]), 0.35, 1e-13, 0);
  CHECK_NEAR(hypot(B[0] - 0.4, B[1]), 0.3, 1e-13, 0);
  CHECK(B[1] > 0);
  const sk__multibody_event *E = &m->events[0];
  CHECK(strcmp(E->name, "crank_top") == 0);
  CHECK_EQ_INT(E->body, 0);
  CHECK_EQ_INT(E->coord, 1);
  CHECK_NEAR(E->value, 0.04, 0, 0);
  CHECK_EQ_INT(m->drivers[0].joint, 0);
  CHECK_EQ_INT(m->m, 9);
  sk_multibody_destroy(&m);
}

/* Files the parser accepts although the kinematics must reject them. */
static void test_for_kinematics(sk_context *ctx)
{
  sk_multibody *m = NULL;
  CHECK_OK(ctx, load_rel(ctx, "tests/bad_input/mechanisms/redundant.yaml", &m));
  if (m) {
    CHECK_EQ_INT(m->nj, 5);
    CHECK(strcmp(m->joints[4].name, "O4_again") == 0);
    CHECK(revolute_residual(m) <= 1e-12);
    CHECK_EQ_INT(m->m, 11);
  }
  sk_multibody_destroy(&m);
  CHECK_OK(ctx, load_rel(ctx, "tests/bad_input/mechanisms/unassemblable.yaml", &m));
  if (m) {
    CHECK_EQ_INT(m->nb, 3);
    CHECK(revolute_residual(m) > 0.01);
  }
  sk_multibody_destroy(&m);
}

static void test_bad_files(sk_context *ctx)
{
  static const struct {
    const char *file, *where, *message;
  } bad[] = {
      {"unknown_body.yaml", "unknown_body.yaml:10:74: ",
       "joint 'B': body2 'rockr' is not a body (bodies: crank, coupler, rocker, or ground)"},
      {"zero_mass.yaml", "zero_mass.yaml:4:11: ", "body 'crank': mass must be > 0 (got 0)"},
      {"driver_unknown_joint.yaml", "driver_unknown_joint.yaml:12:13: ",
       "drivers[0]: joint 'P' is not a joint (joints: O, A, B, or S)"},
      {"bad_formula.yaml", "bad_formula.yaml:7:26: ",
       "driver of joint 'O': position: cannot parse the formula '2*pi*'"},
      {"unknown_key.yaml", "unknown_key.yaml:6:1: ",
       "unknown key 'driver' (valid keys: gravity, bodies, joints, drivers, forces, events)"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char rel[256], expect[1024];
    snprintf(rel, sizeof rel, "tests/bad_input/mechanisms/%s", bad[i].file);
    sk_multibody *m = (sk_multibody *)(void *)&m; /* must come back NULL */
    CHECK_EQ_INT(load_rel(ctx, rel, &m), SK_ERR_INPUT);
    CHECK(m == NULL);
    snprintf(expect, sizeof expect, "%s%s", bad[i].where, bad[i].message);
    CHECK_STR_CONTAINS(msg(ctx), expect);
  }
  /* a missing file */
  sk_multibody *m = NULL;
  CHECK_EQ_INT(sk_multibody_load(ctx, "no/such/mechanism.yaml", &m), SK_ERR_MISSING);
  CHECK(m == NULL);
  CHECK_STR_CONTAINS(msg(ctx),
                     "cannot open mechanism file 'no/such/mechanism.yaml': No such file");
  CHECK_EQ_INT(sk_multibody_load(ctx, NULL, &m), SK_ERR_ARG);
  CHECK_EQ_INT(sk_multibody_load(ctx, "x.yaml", NULL), SK_ERR_ARG);
}

/* ---- inline files ------------------------------------------------------- */

static const char *const base_bodies =
    "bodies:\n"
    "  - {name: a, mass: 1, inertia: 0.1, position: [0, 0], angle: 0}\n"
    "  - {name: b, mass: 2, inertia: 0.2, position: [1, 0], angle: 0}\n";

/* Write text to case.yaml in the scratch directory and load it. */
static sk_status load_text(sk_context *ctx, const char *dir, const char *text, sk_multibody **m)
{
  char path[1024];
  snprintf(path, sizeof path, "%s/case.yaml", dir);
  test_write_file(path, text);
  sk_status st = sk_multibody_load(ctx, path, m);
  unlink(path);
  return st;
}

/* Expect `code` with "case.yaml:<line>:" and `needle` in the message. */
static void expect_bad(sk_context *ctx, const char *dir, int src_line, const char *text,
                       sk_status code, int line, const char *needle)
{
  const int before = sk_test_failures;
  sk_multibody *m = NULL;
  CHECK_EQ_INT(load_text(ctx, dir, text, &m), code);
  CHECK(m == NULL);
  char where[64];
  snprintf(where, sizeof where, "case.yaml:%d:", line);
  CHECK_STR_CONTAINS(msg(ctx), where);
  CHECK_STR_CONTAINS(msg(ctx), needle);
  if (sk_test_failures != before) {
    fprintf(stderr, "  (the case at %s:%d)\n", __FILE__, src_line);
  }
  sk_multibody_destroy(&m);
}

#define BAD(text, line, needle) \
  expect_bad(ctx, dir, __LINE__, (text), SK_ERR_INPUT, (line), (needle))

/* base_bodies (lines 1-3), then `rest` from line 4, into buf. */
static const char *bodies_then(char *buf, size_t len, const char *rest)
{
  snprintf(buf, len, "%s%s", base_bodies, rest);
  return buf;
}

#define with_bodies(rest) bodies_then(text, sizeof text, (rest))

static void test_inline_errors(sk_context *ctx, const char *dir)
{
  char text[2048];
  /* syntax and structure */
  BAD("bodies: [\n  {name: a\n", 3, "YAML syntax error");
  BAD("bodies:\n  - {name: a, mass: 1}\n   joints: []\n", 3, "YAML syntax error");
  BAD("", 1, "empty mechanism file");
  BAD("# only a comment\n", 1, "empty mechanism file");
  BAD("- a\n- b\n", 1, "the top level of a mechanism file must be a mapping");
  BAD(with_bodies("joints: []\n---\nbodies: []\n"), 5, "found a second one");
  BAD(with_bodies("joints: []\ngravity: [0, -9.81]\ngravity: [0, 0]\n"), 6,
      "key 'gravity' given twice (first at line 5, column 1)");
  BAD(base_bodies, 1, "missing key 'joints'");
  BAD("joints: []\n", 1, "missing key 'bodies'");
  BAD("bodies: []\njoints: []\n", 1, "bodies: a mechanism needs at least one body");
  BAD("bodies:\njoints: []\n", 1, "bodies: a mechanism needs at least one body");
  BAD("bodies: {a: 1}\njoints: []\n", 1, "bodies: expected a list");
  BAD(with_bodies("joints: []\ngravity: 9.81\n"), 5,
      "gravity: expected [gx, gy] (a list of 2 numbers), got a single value");
  BAD(with_bodies("joints: []\ngravity: [0, -9.81, 0]\n"), 5, "gravity: expected [gx, gy]");
  BAD(with_bodies("joints: []\ngravity: [0, g]\n"), 5,
      "gravity[1]: expected a finite number, got 'g'");

  /* bodies */
  BAD("bodies:\n  - [a, 1]\njoints: []\n", 2, "bodies[0]: expected a mapping of fields");
  BAD("bodies:\n  - {mass: 1, inertia: 1, position: [0, 0], angle: 0}\njoints: []\n", 2,
      "bodies[0]: missing field 'name'");
  BAD("bodies:\n  - {name: a, inertia: 1, position: [0, 0], angle: 0}\njoints: []\n", 2,
      "body 'a': missing field 'mass'");
  BAD("bodies:\n  - {name: a, mass: -2.5, inertia: 1, position: [0, 0], angle: 0}\njoints: []\n",
      2, "body 'a': mass must be > 0 (got -2.5)");
  BAD("bodies:\n  - {name: a, mass: 1, inertia: 0.0, position: [0, 0], angle: 0}\njoints: []\n",
      2, "body 'a': inertia must be > 0 (got 0.0)");
  BAD("bodies:\n  - {name: a, mass: 1/12, inertia: 1, position: [0, 0], angle: 0}\njoints: []\n",
      2, "body 'a': mass: expected a finite number, got '1/12'");
  BAD("bodies:\n  - {name: a, mass: 1e999, inertia: 1, position: [0, 0], angle: 0}\njoints: []\n",
      2, "body 'a': mass: expected a finite number, got '1e999'");
  BAD("bodies:\n  - {name: a, mass: nan, inertia: 1, position: [0, 0], angle: 0}\njoints: []\n",
      2, "got 'nan'");
  BAD("bodies:\n  - {name: a, mass: \" 1\", inertia: 1, position: [0, 0], angle: 0}\njoints: "
      "[]\n",
      2, "got ' 1'");
  BAD("bodies:\n  - {name: a, mass: 1, inertia: 1, position: [0, 0], angle: [0]}\njoints: []\n",
      2, "body 'a': angle: expected a number, got a list");
  BAD("bodies:\n  - {name: a, mass: 1, inertia: 1, position: 0, angle: 0}\njoints: []\n", 2,
      "body 'a': position: expected [x, y] (a list of 2 numbers), got a single value");
  BAD("bodies:\n  - {name: a, mass: 1, inertia: 1, position: [0, 0], angle: 0,"
      " velocity: [1]}\njoints: []\n",
      2, "body 'a': velocity: expected [vx, vy] (a list of 2 numbers), got 1 item");
  BAD("bodies:\n  - {name: a, mass: 1, inertia: 1, position: [0, 0], angle: 0, mas: 2}\n"
      "joints: []\n",
      2,
      "body 'a': unknown field 'mas' (valid fields: name, mass, inertia, position, angle, "
      "velocity, omega)");
  BAD("bodies:\n  - {name: a, mass: 1, inertia: 1, position: [0, 0], angle: 0, mass: 2}\n"
      "joints: []\n",
      2, "body 'a': field 'mass' given twice");
  BAD(with_bodies("  - {name: a, mass: 1, inertia: 1, position: [0, 0], angle: 0}\njoints: []\n"),
      4, "body 'a' is defined twice (first at line 2)");
  BAD("bodies:\n  - {name: ground, mass: 1, inertia: 1, position: [0, 0], angle: 0}\n"
      "joints: []\n",
      2, "the name 'ground' is reserved");
  BAD("bodies:\n  - {name: my body, mass: 1, inertia: 1, position: [0, 0], angle: 0}\n"
      "joints: []\n",
      2, "the name 'my body' may hold only letters, digits, '_' and '-'");
  BAD("bodies:\n  - {name: a2345678901234567890123456789012, mass: 1, inertia: 1,"
      " position: [0, 0], angle: 0}\njoints: []\n",
      2, "is longer than 31 characters");
  BAD("bodies:\n  - {name: \"\", mass: 1, inertia: 1, position: [0, 0], angle: 0}\njoints: []\n",
      2, "bodies[0]: name: empty name");

  /* joints */
  BAD(with_bodies("joints:\n  - {name: J, type: hinge, body1: a, point1: [0, 0], body2: b,"
                  " point2: [0, 0]}\n"),
      5, "joint 'J': type 'hinge' is not a joint type (revolute, prismatic, fixed)");
  BAD(with_bodies("joints:\n  - {name: J, type: revolute, body1: a, point1: [0, 0], body2: c,"
                  " point2: [0, 0]}\n"),
      5, "joint 'J': body2 'c' is not a body (bodies: a, b, or ground)");
  BAD(with_bodies("joints:\n  - {name: J, type: revolute, body1: c, point1: [0, 0], body2: b,"
                  " point2: [0, 0]}\n"),
      5, "joint 'J': body1 'c' is not a body (bodies: a or b)");
  BAD(with_bodies("joints:\n  - {name: J, type: revolute, body1: ground, point1: [0, 0],"
                  " body2: b, point2: [0, 0]}\n"),
      5, "joint 'J': body1 cannot be the ground");
  BAD(with_bodies("joints:\n  - {name: J, type: revolute, body1: a, point1: [0, 0], body2: a,"
                  " point2: [0, 0]}\n"),
      5, "joint 'J': body1 and body2 are the same body 'a'");
  BAD(with_bodies("joints:\n  - {name: J, type: revolute, body1: a, point1: [0, 0],"
                  " point2: [0, 0]}\n"),
      5, "joint 'J': missing field 'body2'");
  BAD(with_bodies("joints:\n  - {name: J, type: revolute, body1: a, point1: [0, 0], body2: b,"
                  " point2: [0, 0], axis: [1, 0]}\n"),
      5,
      "joint 'J': unknown field 'axis' (valid fields: name, type, body1, point1, body2, "
      "point2)");
  BAD(with_bodies("joints:\n  - {name: J, type: prismatic, body1: a, point1: [0, 0], body2: b,"
                  " point2: [0, 0], axis: [0, 0]}\n"),
      5, "joint 'J': axis must be a nonzero vector");
  BAD(with_bodies("joints:\n  - {name: J, type: prismatic, body1: a, point1: [0, 0], body2: b,"
                  " point2: [0, 0]}\n"),
      5, "joint 'J': missing field 'axis'");
  BAD(with_bodies("joints:\n  - {name: W, type: fixed, body1: a, body2: b}\n"), 5,
      "joint 'W': unknown field 'body2' (valid fields: name, type, body1)");
  BAD(with_bodies("joints:\n  - {name: W, type: fixed, body1: a}\n  - {name: W, type: fixed,"
                  " body1: b}\n"),
      6, "joint 'W' is defined twice (first at line 5)");

  /* drivers */
  const char *joints = "joints:\n"
                       "  - {name: W, type: fixed, body1: a}\n" /* 5 */
                       "  - {name: P, type: prismatic, body1: b, point1: [0, 0],"
                       " body2: ground, point2: [0, 0], axis: [3, 4]}\n"; /* 6 */
  snprintf(text, sizeof text, "%s%sdrivers:\n  - {joint: W, position: \"t\"}\n", base_bodies,
           joints);
  BAD(text, 8,
      "drivers[0]: joint 'W' is a fixed joint; only revolute and prismatic joints can "
      "be driven");
  snprintf(text, sizeof text,
           "%s%sdrivers:\n  - {joint: P, position: \"t\"}\n"
           "  - {joint: P, position: \"2*t\"}\n",
           base_bodies, joints);
  BAD(text, 9, "drivers[1]: joint 'P' already has a driver (line 8)");
  snprintf(text, sizeof text, "%s%sdrivers:\n  - {joint: P}\n", base_bodies, joints);
  BAD(text, 8, "driver of joint 'P': missing field 'position'");
  snprintf(text, sizeof text, "%s%sdrivers:\n  - {joint: P, position: [t]}\n", base_bodies,
           joints);
  BAD(text, 8, "driver of joint 'P': position: expected a formula in t, got a list");
  snprintf(text, sizeof text, "%s%sdrivers:\n  - {joint: P, position: \"t\", velocity: \"\"}\n",
           base_bodies, joints);
  BAD(text, 8, "driver of joint 'P': velocity: empty formula");
  snprintf(text, sizeof text, "%s%sdrivers:\n  - {joint: P, position: \"t\", speed: 1}\n",
           base_bodies, joints);
  BAD(text, 8,
      "drivers[0]: unknown field 'speed' (valid fields: joint, position, velocity, "
      "acceleration)");
  BAD(with_bodies("joints: []\ndrivers:\n  - {joint: P, position: \"t\"}\n"), 6,
      "drivers[0]: joint 'P' is not a joint (the mechanism has no joints)");

  /* forces */
  BAD(with_bodies("joints: []\nforces:\n  - {type: damper, body: a}\n"), 6,
      "forces[0]: type 'damper' is not a force type (spring, force, torque)");
  BAD(with_bodies("joints: []\nforces:\n  - {type: spring, body1: a, point1: [0, 0],"
                  " body2: ground, point2: [0, 0], stiffness: -1, length: 1}\n"),
      6, "forces[0] (spring): stiffness must be >= 0 (got -1)");
  BAD(with_bodies("joints: []\nforces:\n  - {type: spring, body1: a, point1: [0, 0],"
                  " body2: ground, point2: [0, 0], stiffness: 1}\n"),
      6, "forces[0] (spring): missing field 'length'");
  BAD(with_bodies("joints: []\nforces:\n  - {type: force, body: ground, point: [0, 0],"
                  " fx: \"0\", fy: \"1\"}\n"),
      6, "forces[0] (force): body cannot be the ground");
  BAD(with_bodies("joints: []\nforces:\n  - {type: torque, body: a, value: \"sin(\"}\n"), 6,
      "forces[0] (torque): value: cannot parse the formula 'sin('");
  BAD(with_bodies("joints: []\nforces:\n  - {type: torque, body: a, value: 1, fx: 2}\n"), 6,
      "forces[0] (torque): unknown field 'fx' (valid fields: type, body, value)");

  /* events */
  BAD(with_bodies("joints: []\nevents:\n  - {name: e, body: a, coordinate: z, value: 1}\n"), 6,
      "event 'e': coordinate 'z' is not a coordinate (x, y, angle)");
  BAD(with_bodies("joints: []\nevents:\n  - {name: e, body: a, coordinate: x, value: 1}\n"
                  "  - {name: e, body: b, coordinate: y, value: 1}\n"),
      7, "event 'e' is defined twice");
  BAD(with_bodies("joints: []\nevents:\n  - {name: e, body: ground, coordinate: x, value: 1}\n"),
      6, "event 'e': body cannot be the ground");
}

/* Every field of forces and events, block mappings, defaults, empty optional lists. */
static void test_inline_values(sk_context *ctx, const char *dir)
{
  const char *text =
      "# all kinds of entries\n"
      "bodies:\n"
      "  - name: a\n"
      "    mass: \"2.5\"\n"
      "    inertia: 0x1p-2\n"
      "    position: [1, 2]\n"
      "    angle: -0.5\n"
      "    velocity: [3, 4]\n"
      "    omega: 5\n"
      "  - {name: b-2, mass: 1, inertia: 1, position: [0, 0], angle: 0}\n"
      "joints:\n"
      "  - {name: P, type: prismatic, body1: b-2, point1: [0, 0], body2: a, point2: [0, 0],"
      " axis: [3, -4]}\n"
      "  - {name: W, type: fixed, body1: a}\n"
      "drivers:\n"
      "  - {joint: P, position: 0.5}\n"
      "forces:\n"
      "  - {type: spring, body1: a, point1: [0.1, 0.2], body2: ground, point2: [1, 0],"
      " stiffness: 10, length: 0.5}\n"
      "  - {type: spring, body1: a, point1: [0, 0], body2: b-2, point2: [0, 0],"
      " stiffness: 0, length: 0, damping: 0.1}\n"
      "  - {type: force, body: b-2, point: [0, 1], fx: \"0\", fy: \"-1*sin(t)\"}\n"
      "  - {type: torque, body: a, value: \"0.5\"}\n"
      "events:\n"
      "  - {name: top, body: a, coordinate: angle, value: 0.4}\n"
      "  - {name: right, body: b-2, coordinate: x, value: -1}\n";
  sk_multibody *m = NULL;
  CHECK_OK(ctx, load_text(ctx, dir, text, &m));
  if (!m) {
    return;
  }
  CHECK_EQ_INT(m->nb, 2);
  CHECK_EQ_INT(m->nj, 2);
  CHECK_EQ_INT(m->nd, 1);
  CHECK_EQ_INT(m->nf, 4);
  CHECK_EQ_INT(m->ne, 2);
  CHECK(m->gravity[0] == 0.0 && m->gravity[1] == 0.0);
  const sk__multibody_body *A = &m->bodies[0];
  CHECK(A->mass == 2.5 && A->inertia == 0.25);
  CHECK(A->q0[0] == 1 && A->q0[1] == 2 && A->q0[2] == -0.5);
  CHECK(A->v0[0] == 3 && A->v0[1] == 4 && A->v0[2] == 5);
  CHECK_EQ_INT(A->line, 3);
  CHECK(strcmp(m->bodies[1].name, "b-2") == 0);
  const sk__multibody_joint *P = &m->joints[0];
  CHECK_EQ_INT(P->b1, 1);
  CHECK_EQ_INT(P->b2, 0);
  CHECK_NEAR(P->axis[0], 0.6, 1e-15, 0);
  CHECK_NEAR(P->axis[1], -0.8, 1e-15, 0);
  const sk__multibody_joint *W = &m->joints[1];
  CHECK_EQ_INT(W->type, SK__MULTIBODY_FIXED);
  CHECK_EQ_INT(W->b1, 0);
  CHECK_EQ_INT(W->b2, SK__MULTIBODY_GROUND);
  CHECK(m->drivers[0].f && !m->drivers[0].df && !m->drivers[0].ddf);
  if (m->drivers[0].f) {
    CHECK_NEAR(sk__time_function_eval(m->drivers[0].f, 3.0), 0.5, 0, 0);
  }
  const sk__multibody_force *F = m->forces;
  CHECK_EQ_INT(F[0].type, SK__MULTIBODY_SPRING);
  CHECK_EQ_INT(F[0].b1, 0);
  CHECK_EQ_INT(F[0].b2, SK__MULTIBODY_GROUND);
  CHECK(F[0].s1[0] == 0.1 && F[0].s1[1] == 0.2 && F[0].s2[0] == 1 && F[0].s2[1] == 0);
  CHECK(F[0].k == 10 && F[0].length == 0.5 && F[0].damping == 0.0);
  CHECK(!F[0].fx && !F[0].fy);
  CHECK_EQ_INT(F[1].b2, 1);
  CHECK(F[1].k == 0 && F[1].damping == 0.1);
  CHECK_EQ_INT(F[2].type, SK__MULTIBODY_FORCE);
  CHECK_EQ_INT(F[2].b1, 1);
  CHECK(F[2].s1[0] == 0 && F[2].s1[1] == 1);
  CHECK(F[2].fx && F[2].fy);
  if (F[2].fy) {
    CHECK_NEAR(sk__time_function_eval(F[2].fy, PI / 2), -1.0, 1e-15, 0);
  }
  CHECK_EQ_INT(F[3].type, SK__MULTIBODY_TORQUE);
  CHECK_EQ_INT(F[3].b1, 0);
  CHECK(F[3].fx && !F[3].fy);
  if (F[3].fx) {
    CHECK_NEAR(sk__time_function_eval(F[3].fx, 1.0), 0.5, 0, 0);
  }
  CHECK_EQ_INT(F[3].line, 20);
  CHECK(strcmp(m->events[0].name, "top") == 0);
  CHECK_EQ_INT(m->events[0].coord, 2);
  CHECK_EQ_INT(m->events[1].body, 1);
  CHECK_EQ_INT(m->events[1].coord, 0);
  CHECK(m->events[1].value == -1);
  sk_multibody_destroy(&m);

  /* joints: [] and empty optional lists; a free body */
  CHECK_OK(ctx, load_text(ctx, dir,
                          "bodies:\n  - {name: a, mass: 1, inertia: 1, position: [0, 0],"
                          " angle: 0}\njoints: []\ndrivers:\nforces: []\nevents: ~\n",
                          &m));
  if (m) {
    CHECK_EQ_INT(m->nb, 1);
    CHECK_EQ_INT(m->nj + m->nd + m->nf + m->ne, 0);
    CHECK_EQ_INT(m->m, 0);
  }
  sk_multibody_destroy(&m);
}

/* Fail the k-th allocation for every k: SK_ERR_NOMEM or success, never a
 * leak (the sanitizer build checks) or a half-built mechanism. */
static void test_alloc_failures(sk_context *ctx, const char *dir)
{
  char path[1024];
  snprintf(path, sizeof path, "%s/alloc.yaml", dir);
  test_write_file(path, "gravity: [0, -1]\n"
                        "bodies:\n"
                        "  - {name: a, mass: 1, inertia: 1, position: [0, 0], angle: 0}\n"
                        "  - {name: b, mass: 1, inertia: 1, position: [1, 0], angle: 0}\n"
                        "joints:\n"
                        "  - {name: O, type: revolute, body1: a, point1: [0, 0], body2: ground,"
                        " point2: [0, 0]}\n"
                        "  - {name: A, type: revolute, body1: b, point1: [-0.5, 0], body2: a,"
                        " point2: [0.5, 0]}\n"
                        "drivers:\n"
                        "  - {joint: O, position: \"t\", velocity: \"1\", acceleration: \"0\"}\n"
                        "forces:\n"
                        "  - {type: force, body: b, point: [0, 0], fx: \"1\", fy: \"t\"}\n"
                        "  - {type: torque, body: a, value: \"2\"}\n"
                        "events:\n"
                        "  - {name: e, body: b, coordinate: y, value: 0}\n");
  int completed = 0;
  for (long k = 1; k < 200 && !completed; k++) {
    sk_multibody *m = NULL;
    ctx->alloc_fail_at = k;
    ctx->alloc_count = 0;
    const sk_status st = sk_multibody_load(ctx, path, &m);
    ctx->alloc_fail_at = 0;
    if (st == SK_OK) {
      completed = 1;
      CHECK(m != NULL && m->nf == 2);
    } else {
      CHECK_EQ_INT(st, SK_ERR_NOMEM);
      CHECK(m == NULL);
    }
    sk_multibody_destroy(&m);
  }
  CHECK(completed);
  unlink(path);
}

int main(void)
{
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK) {
    return 2;
  }
  char dir[512];
  test_tmpdir(dir, sizeof dir, "mbs_parse");
  test_pendulum(ctx);
  test_double_pendulum(ctx);
  test_slider_crank(ctx);
  test_fourbar(ctx);
  test_for_kinematics(ctx);
  test_bad_files(ctx);
  test_inline_errors(ctx, dir);
  test_inline_values(ctx, dir);
  test_alloc_failures(ctx, dir);
  rmdir(dir);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

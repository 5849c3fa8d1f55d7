/* tests/numerics/test_multibody_sens.c: forward sensitivities of mechanisms in the bodies' masses and inertias, gravity and the springs' coefficients: the parameter list, GGL's consistent start sensitivities, a spring slider against its closed form, the double pendulum by two formulations, refusals */
/*
 * Expected values, each independent of the sensitivity engines:
 *  - spring slider (data/mechanisms/spring_slider.yaml): x = L + (x0 - L) cos(w t), w =
 *    sqrt(k / m), so dx/dk = -(x0 - L) t sin(w t) w / (2 k), dx/dm = (x0 - L) t sin(w t)
 *    w / (2 m), dx/dL = 1 - cos(w t);
 *  - slider-crank (data/mechanisms/slider_crank.yaml, driven: no degree of freedom): the
 *    slider's x = r cos th + sqrt(l^2 - r^2 sin^2 th), th = 2 pi t, so dx/dl = l / sqrt(l^2 -
 *    r^2 sin^2 th) and dx/dr = cos th - r sin^2 th / sqrt(l^2 - r^2 sin^2 th), where moving
 *    joint B's point on the rod along its axis lengthens the rod (l) and joint A's point on the
 *    crank the crank (r);
 *  - GGL's start sensitivities: the directional derivative of the model's residual along
 *    (s, s', e_k), by central differences taken here, vanishes (consistency at t0), for joint
 *    points too (whose start moves with the assembly);
 *  - double pendulum: the sensitivities of the GGL form (IDAS, index 2) and of the index-1
 *    form (CVODES, an ODE) agree: two formulations, two engines;
 *  - the index-1 form's steps with sensitivities stay within 3x of those without (the
 *    sensitivity right-hand sides' differences carry no noise that cuts the steps).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "stiffkit/multibody.h"
#include "stiffkit/stiffkit.h"
#include "test.h"

#ifndef SK_SOURCE_DIR
#define SK_SOURCE_DIR "."
#endif

#define NT 12
#define MAXN 12
#define MAXP 4

static sk_multibody *load(sk_context *ctx, const char *rel)
{
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", SK_SOURCE_DIR, rel);
  sk_multibody *mech = NULL;
  CHECK_OK(ctx, sk_multibody_load(ctx, path, &mech));
  return mech;
}

/* What one simulation wrote: q and dq/dp at the outputs. */
typedef struct {
  int n, rows, np;
  double t[NT + 1], q[NT + 1][MAXN], s[NT + 1][MAXP][MAXN];
} trace;

static int record(double t, const double *q, const double *v, const double *lambda,
                  const sk_multibody_sample *sm, void *data)
{
  (void)v;
  (void)lambda;
  trace *tr = data;
  if (tr->rows > NT) {
    return 1;
  }
  tr->t[tr->rows] = t;
  memcpy(tr->q[tr->rows], q, (size_t)tr->n * sizeof *q);
  tr->np = sm->nsens;
  for (int j = 0; j < sm->nsens && j < MAXP; j++) {
    memcpy(tr->s[tr->rows][j], sm->sens + (size_t)j * 2 * (size_t)tr->n,
           (size_t)tr->n * sizeof *q);
  }
  tr->rows++;
  return 0;
}

/* Simulate `mech` with formulation f and engine `method` to t_end at NT outputs, the
 * sensitivities of `params` (comma-separated, "" for none); returns the status, fills tr and
 * the engine's step count. */
static sk_status simulate(sk_context *ctx, sk_multibody *mech, sk_multibody_formulation f,
                          int project, const char *method, const char *params, double t_end,
                          double rtol, trace *tr, long long *steps)
{
  const int n = sk_multibody_ncoords(mech);
  double q0[MAXN], v0[MAXN], times[NT];
  sk_multibody_initial(mech, q0, v0);
  sk_multibody_init_report init;
  CHECK_OK(ctx, sk_multibody_assemble(mech, 0.0, q0, v0, 1e-8, 1, &init));
  for (int k = 0; k < NT; k++) {
    times[k] = t_end * (k + 1) / NT;
  }
  sk_options *opts = NULL;
  size_t ns = 0, nk = 0;
  const sk_option_spec *sens = sk_stepper_sensitivity_options(&ns);
  const sk_option_spec *keys = sk_stepper_options(&nk);
  CHECK_OK(ctx, sk_options_create(ctx, &opts));
  CHECK_OK(ctx, sk_options_register(opts, keys, nk));
  CHECK_OK(ctx, sk_options_register(opts, sens, ns));
  char assign[256];
  snprintf(assign, sizeof assign, "solver.sensitivity.parameters=%s", params);
  if (params[0]) {
    CHECK_OK(ctx, sk_options_set_assignment(opts, assign));
  }
  sk_multibody_settings s = {.formulation = f, .cond_limit = 1e8, .project = project};
  sk_multibody_report rep;
  memset(tr, 0, sizeof *tr);
  tr->n = n;
  const sk_status st = sk_multibody_simulate(mech, &s, project, method, rtol, rtol * 1e-2, opts,
                                             0.0, q0, v0, times, NT, record, tr, &rep);
  *steps = rep.stats.steps;
  sk_options_destroy(&opts);
  return st;
}

/* The parameters by name, their values and the checks of new values. */
static void parameters(sk_context *ctx)
{
  sk_multibody *mech = load(ctx, "data/mechanisms/spring_slider.yaml");
  static const char *const names[] = {"slider.mass",   "slider.inertia", "gravity.x",
                                      "gravity.y",     "coil.stiffness", "coil.length",
                                      "coil.damping",  "rail.point1.x",  "rail.point1.y",
                                      "rail.point2.x", "rail.point2.y"};
  static const double values[] = {1.0, 0.1, 0.0, 0.0, 4.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  CHECK_EQ_INT(sk_multibody_nparams(mech), 11);
  for (int k = 0; k < 11; k++) {
    char buf[80];
    CHECK_OK(ctx, sk_multibody_param_name(mech, k, buf, sizeof buf));
    CHECK(!strcmp(buf, names[k]));
    CHECK_EQ_INT(sk_multibody_find_param(mech, names[k]), k);
    CHECK_NEAR(sk_multibody_get_param(mech, k), values[k], 0, 0);
  }
  char buf[80];
  CHECK(sk_multibody_param_name(mech, 11, buf, sizeof buf) == SK_ERR_ARG);
  CHECK_EQ_INT(sk_multibody_find_param(mech, "coil.k"), -1);
  CHECK(sk_multibody_set_param(mech, 0, 0.0) == SK_ERR_INPUT); /* a mass must be > 0 */
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "slider.mass");
  CHECK(sk_multibody_set_param(mech, 4, -1.0) == SK_ERR_INPUT); /* a stiffness >= 0 */
  CHECK(sk_multibody_set_param(mech, 3, NAN) == SK_ERR_INPUT);
  CHECK_OK(ctx, sk_multibody_set_param(mech, 3, -9.81)); /* gravity: either sign */
  CHECK_NEAR(sk_multibody_get_param(mech, 3), -9.81, 0, 0);
  CHECK_OK(ctx, sk_multibody_set_param(mech, 10, -0.5)); /* a joint point: either sign */
  sk_multibody_destroy(&mech);
  /* unnamed springs are spring1, spring2, ... in file order; a name given twice is refused */
  char path[] = "/tmp/sk_multibody_sens_XXXXXX";
  const int fd = mkstemp(path);
  CHECK(fd >= 0);
  FILE *f = fdopen(fd, "w");
  fputs("bodies:\n"
        "  - {name: b, mass: 1, inertia: 1, position: [1, 0], angle: 0}\n"
        "joints: []\n"
        "forces:\n"
        "  - {type: spring, body1: b, point1: [0, 0], body2: ground, point2: [0, 0], "
        "stiffness: 1, length: 1}\n"
        "  - {type: torque, body: b, value: \"0\"}\n"
        "  - {type: spring, body1: b, point1: [0, 0], body2: ground, point2: [2, 0], "
        "stiffness: 2, length: 1}\n",
        f);
  fclose(f);
  CHECK_OK(ctx, sk_multibody_load(ctx, path, &mech));
  CHECK_EQ_INT(sk_multibody_find_param(mech, "spring2.stiffness"), 2 + 2 + 3);
  CHECK_NEAR(sk_multibody_get_param(mech, 2 + 2 + 3), 2.0, 0, 0);
  sk_multibody_destroy(&mech);
  f = fopen(path, "w");
  fputs("bodies:\n"
        "  - {name: b, mass: 1, inertia: 1, position: [1, 0], angle: 0}\n"
        "joints: []\n"
        "forces:\n"
        "  - {type: spring, name: s, body1: b, point1: [0, 0], body2: ground, point2: [0, 0], "
        "stiffness: 1, length: 1}\n"
        "  - {type: spring, name: s, body1: b, point1: [0, 0], body2: ground, point2: [2, 0], "
        "stiffness: 2, length: 1}\n",
        f);
  fclose(f);
  CHECK(sk_multibody_load(ctx, path, &mech) == SK_ERR_INPUT);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message,
                     "a spring named 's' is already declared");
  unlink(path);
}

/* GGL's start sensitivities are consistent: F_y s + F_y' s' + F_p = 0 at t0 for every
 * parameter, the directional derivative taken here by central differences (step 1e-5 |p|). */
static void ggl_start(sk_context *ctx)
{
  sk_multibody *mech = load(ctx, "data/mechanisms/double_pendulum.yaml");
  const int n = sk_multibody_ncoords(mech);
  double q[MAXN], v[MAXN];
  sk_multibody_initial(mech, q, v);
  sk_multibody_init_report init;
  CHECK_OK(ctx, sk_multibody_assemble(mech, 0.0, q, v, 1e-8, 1, &init));
  sk_multibody_settings s = {.formulation = SK_MULTIBODY_GGL, .cond_limit = 1e8};
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_multibody_model(mech, &s, 0.0, q, v, &m));
  CHECK(sk_model_has_sens_initial(m));
  const int64_t ny = sk_model_get_n(m);
  double y[64], yp[64], S[64], Sp[64], w1[64], w2[64], r1[64], r2[64];
  CHECK(ny <= 64);
  CHECK_OK(ctx, sk_model_eval_dae_initial(m, 0.0, y, yp));
  CHECK_EQ_INT(sk_model_get_nparams(m), sk_multibody_nparams(mech));
  for (int k = 0; k < sk_model_get_nparams(m); k++) {
    CHECK_OK(ctx, sk_model_eval_sens_initial(m, 0.0, k, S, Sp));
    char name[80];
    CHECK_OK(ctx, sk_multibody_param_name(mech, k, name, sizeof name));
    for (int i = 0; i < 2 * n && !strstr(name, ".point"); i++) {
      CHECK_NEAR(S[i], 0.0, 0, 0); /* only a joint point moves q0 and v0 */
    }
    const double p = sk_model_get_param(m, k), d = 1e-5 * (p != 0 ? fabs(p) : 1.0);
    for (int side = 0; side < 2; side++) {
      const double e = side ? -d : d;
      for (int64_t i = 0; i < ny; i++) {
        w1[i] = y[i] + e * S[i];
        w2[i] = yp[i] + e * Sp[i];
      }
      CHECK_OK(ctx, sk_model_set_param(m, k, p + e));
      CHECK_OK(ctx, sk_model_eval_residual(m, 0.0, w1, w2, side ? r2 : r1));
    }
    CHECK_OK(ctx, sk_model_set_param(m, k, p));
    double worst = 0, scale = 0;
    for (int64_t i = 0; i < ny; i++) {
      worst = fmax(worst, fabs(r1[i] - r2[i]) / (2 * d));
      scale = fmax(scale, fabs(S[i]) + fabs(Sp[i]));
    }
    CHECK(worst < 1e-7 * (1.0 + scale));
  }
  sk_model_destroy(&m);
  sk_multibody_destroy(&mech);
}

static double slider_exact(int j, double t)
{
  const double k = 4.0, m = 1.0, L = 1.0, x0 = 1.5, w = sqrt(k / m), sn = sin(w * t);
  return j == 0   ? -(x0 - L) * t * sn * w / (2 * k)
         : j == 1 ? (x0 - L) * t * sn * w / (2 * m)
                  : 1.0 - cos(w * t);
}

/* The spring slider in both formulations (index1 with CVODES, GGL with IDAS) against the
 * closed forms; y and phi do not move. */
static void slider(sk_context *ctx)
{
  sk_multibody *mech = load(ctx, "data/mechanisms/spring_slider.yaml");
  static const sk_multibody_formulation forms[2] = {SK_MULTIBODY_INDEX1, SK_MULTIBODY_GGL};
  static const char *const engines[2] = {"cvode-bdf", "ida-bdf"};
  for (int f = 0; f < 2; f++) {
    trace tr;
    long long steps = 0;
    CHECK_OK(ctx, simulate(ctx, mech, forms[f], 0, engines[f],
                           "coil.stiffness, slider.mass, coil.length", 3.0, 1e-9, &tr, &steps));
    CHECK_EQ_INT(tr.rows, NT + 1);
    CHECK_EQ_INT(tr.np, 3);
    for (int r = 0; r < tr.rows; r++) {
      for (int j = 0; j < 3; j++) {
        CHECK_NEAR(tr.s[r][j][0], slider_exact(j, tr.t[r]), 0, 1e-6);
        CHECK_NEAR(tr.s[r][j][1], 0.0, 0, 1e-12);
        CHECK_NEAR(tr.s[r][j][2], 0.0, 0, 1e-12);
      }
    }
  }
  sk_multibody_destroy(&mech);
}

/* The slider-crank's rod and crank lengths through joint points, in both formulations,
 * against the closed forms. */
static void slider_crank(sk_context *ctx)
{
  sk_multibody *mech = load(ctx, "data/mechanisms/slider_crank.yaml");
  static const sk_multibody_formulation forms[2] = {SK_MULTIBODY_INDEX1, SK_MULTIBODY_GGL};
  static const char *const engines[2] = {"cvode-bdf", "ida-bdf"};
  const double r = 0.1, l = 0.3, pi = 3.14159265358979323846;
  const int xs = 6; /* x of the slider, the third body */
  for (int f = 0; f < 2; f++) {
    static trace tr;
    long long steps = 0;
    CHECK_OK(ctx, simulate(ctx, mech, forms[f], 0, engines[f], "B.point1.x, A.point2.x", 0.5,
                           1e-9, &tr, &steps));
    CHECK_EQ_INT(tr.rows, NT + 1);
    double worst = 0;
    for (int k = 0; k < tr.rows; k++) {
      const double th = 2 * pi * tr.t[k], sn = sin(th), root = sqrt(l * l - r * r * sn * sn);
      worst = fmax(worst, fabs(tr.s[k][0][xs] - l / root));
      worst = fmax(worst, fabs(tr.s[k][1][xs] - (cos(th) - r * sn * sn / root)));
    }
    printf("slider-crank (%s): dx/dl and dx/dr within %.3e of the closed forms\n", engines[f],
           worst);
    CHECK(worst < 1e-6);
  }
  sk_multibody_destroy(&mech);
}

/* The double pendulum: GGL (IDAS) and index 1 (CVODES) give the same sensitivities, and
 * index 1 takes about its plain steps with them. */
static void double_pendulum(sk_context *ctx)
{
  sk_multibody *mech = load(ctx, "data/mechanisms/double_pendulum.yaml");
  const char *params = "rod2.mass, gravity.y, rod1.inertia";
  static trace a, b, c;
  long long sa = 0, sb = 0, sc = 0;
  CHECK_OK(ctx, simulate(ctx, mech, SK_MULTIBODY_GGL, 0, "ida-bdf", params, 2.0, 1e-9, &a, &sa));
  CHECK_OK(ctx,
           simulate(ctx, mech, SK_MULTIBODY_INDEX1, 0, "cvode-bdf", params, 2.0, 1e-9, &b, &sb));
  CHECK_OK(ctx, simulate(ctx, mech, SK_MULTIBODY_INDEX1, 0, "cvode-bdf", "", 2.0, 1e-9, &c, &sc));
  CHECK_EQ_INT(a.rows, NT + 1);
  CHECK_EQ_INT(b.rows, NT + 1);
  double worst = 0, scale = 0;
  for (int r = 0; r < a.rows && r < b.rows; r++) {
    for (int j = 0; j < 3; j++) {
      for (int i = 0; i < a.n; i++) {
        worst = fmax(worst, fabs(a.s[r][j][i] - b.s[r][j][i]));
        scale = fmax(scale, fabs(b.s[r][j][i]));
      }
    }
  }
  printf("double pendulum: GGL (IDAS, %lld steps) and index 1 (CVODES, %lld steps; %lld "
         "without sensitivities) agree to %.3e (max |dq/dp| %.3e)\n",
         sa, sb, sc, worst, scale);
  CHECK(scale > 0.1);
  CHECK(worst < 1e-5 * scale);
  CHECK(sb < 3 * sc);
  sk_multibody_destroy(&mech);
}

/* The reduced formulation and projection move the state but not its sensitivities. */
static void refusals(sk_context *ctx)
{
  sk_multibody *mech = load(ctx, "data/mechanisms/spring_slider.yaml");
  trace tr;
  long long steps;
  CHECK(simulate(ctx, mech, SK_MULTIBODY_REDUCED, 0, "cvode-bdf", "coil.length", 1.0, 1e-6, &tr,
                 &steps) == SK_ERR_UNSUPPORTED);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "repartition of the reduced");
  CHECK(simulate(ctx, mech, SK_MULTIBODY_INDEX1, 1, "cvode-bdf", "coil.length", 1.0, 1e-6, &tr,
                 &steps) == SK_ERR_UNSUPPORTED);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "projection after every step");
  CHECK(simulate(ctx, mech, SK_MULTIBODY_INDEX1, 0, "cvode-bdf", "coil.k", 1.0, 1e-6, &tr,
                 &steps) == SK_ERR_INPUT);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message,
                     "its parameters: slider.mass, slider.inertia, gravity.x, gravity.y, "
                     "coil.stiffness, coil.length, coil.damping, rail.point1.x, rail.point1.y, "
                     "rail.point2.x, rail.point2.y");
  sk_multibody_destroy(&mech);
}

int main(void)
{
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK) {
    return 1;
  }
  parameters(ctx);
  ggl_start(ctx);
  slider(ctx);
  slider_crank(ctx);
  double_pendulum(ctx);
  refusals(ctx);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

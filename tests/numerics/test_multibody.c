/* tests/numerics/test_multibody.c: planar multibody formulations (GGL index 2 in IDA, index 1 with and without Baumgarte and projection, reduced coordinates in CVODE) against closed forms and references computed here: pendulum, double pendulum, slider-crank, four-bar, a near-toggle four-bar, consistent initialization, bad mechanisms, a bead on a rotating arm, a prismatic driver's sign, a spring-damper, a heavy boom, the four-bar's event times and a driver without derivatives at large t */
/*
 * Every expected value is independent of the library's formulations:
 *  - pendulum: the reduced equation (m L^2 + J) theta'' = -m g L sin theta
 *    integrated here by classical RK4 (fixed step 1e-4); its multipliers are
 *    the pivot force m a - m g from that theta(t); the small-amplitude period
 *    2 pi sqrt((m L^2 + J) / (m g L)) and the exact period
 *    2 pi sqrt(I / (m g L)) / AGM(1, cos(theta0 / 2)) (the complete elliptic
 *    integral K through the arithmetic-geometric mean);
 *  - double pendulum: conservation of E = T + V (no damping, no drivers) and
 *    the agreement of the three formulations;
 *  - slider-crank: the closed-form kinematics under the prescribed crank
 *    angle, x = r cos th + sqrt(l^2 - r^2 sin^2 th) and its time derivative;
 *  - four-bar: loop closure Phi = 0 evaluated at the outputs, the multipliers
 *    of GGL against those of the reduced formulation (computed by the block
 *    system at its reconstructed state), drift of index 1 with and without
 *    stabilization;
 *  - near-toggle four-bar (written here): positions from the triangle
 *    geometry, the smallest singular value of G by a one-sided Jacobi SVD
 *    written here (G itself checked against central differences of Phi);
 *  - consistent initialization: a radial perturbation of the pendulum lies in
 *    the row space of G, so the minimum-norm correction returns exactly the
 *    unperturbed state (dq = eps cos theta0 in closed form);
 *  - bad mechanisms: the status and the names in the message;
 *  - a bead on a driven rotating arm: r = r0 cosh(omega t) (and the reduced partition's
 *    dependent block singular at the arm vertical, by the Jacobi SVD);
 *  - a prismatic driver's sign: x = x0 -/+ 0.5 t^2 along axis +/-x, its multiplier m (-1) and
 *    its work m t^2 / 2 (kinetic energy);
 *  - a spring-damper oscillator: the closed-form damped oscillation, its energy E(t) - E(0)
 *    against the work W of the damper;
 *  - a heavy boom released horizontally: the bottom at t_b = K(1/sqrt 2) / w0 (AGM) with
 *    T = m g L / 2, the other horizontal at 2 t_b;
 *  - the four-bar's event: the closed-form crossing times of 0.05 sin(2 pi t) = 0.04 and the
 *    sign changes at the outputs;
 *  - a driver without derivative formulas at t = 100: sin(2 pi t), 2 pi cos(2 pi t) and the
 *    torque -J (2 pi)^2 sin(2 pi t).
 * The measured numbers are printed for the report.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "test_files.h"

#define PI 3.14159265358979323846
#define RTOL 1e-8
#define ATOL 1e-10
#define GRAV 9.81

#ifndef SK_SOURCE_DIR
#define SK_SOURCE_DIR "."
#endif

static const char *const fname[3] = {"ggl", "index1", "reduced"};

static const char *msg(const sk_context *ctx)
{
  return sk_context_get_error(ctx)->message;
}

/* The source tree: $SK_SOURCE_DIR, else the compile definition. */
static void source_path(const char *rel, char *path, size_t len)
{
  const char *dir = getenv("SK_SOURCE_DIR");
  snprintf(path, len, "%s/%s", dir && dir[0] ? dir : SK_SOURCE_DIR, rel);
}

static sk_multibody *load(sk_context *ctx, const char *path)
{
  sk_multibody *m = NULL;
  CHECK_OK(ctx, sk_multibody_load(ctx, path, &m));
  return m;
}

static sk_multibody *load_rel(sk_context *ctx, const char *rel)
{
  char path[1024];
  source_path(rel, path, sizeof path);
  return load(ctx, path);
}

/* Write `text` to dir/name and load it (path receives the file's path). */
static sk_multibody *load_text(sk_context *ctx, const char *dir, const char *name,
                               const char *text, char *path, size_t len)
{
  snprintf(path, len, "%s/%s", dir, name);
  test_write_file(path, text);
  return load(ctx, path);
}

static int body_index(const sk_multibody *m, const char *name)
{
  for (int b = 0; b < sk_multibody_nbodies(m); b++) {
    if (!strcmp(sk_multibody_body_name(m, b), name)) {
      return b;
    }
  }
  return -1;
}

/* ---- the outputs of a simulation ------------------------------------------------- */

typedef struct {
  int n, m, cap, count;
  double *t, *q, *v, *lam, *w; /* w: the work of forces and drivers since t0 */
} rec;

static int rec_out(double t, const double *q, const double *v, const double *lam,
                   const sk_multibody_sample *sample, void *ud)
{
  rec *r = ud;
  if (r->count >= r->cap) {
    return 1;
  }
  const int k = r->count++;
  r->t[k] = t;
  r->w[k] = sample->work;
  memcpy(r->q + (size_t)k * r->n, q, (size_t)r->n * sizeof *q);
  memcpy(r->v + (size_t)k * r->n, v, (size_t)r->n * sizeof *v);
  if (r->m > 0) {
    memcpy(r->lam + (size_t)k * r->m, lam, (size_t)r->m * sizeof *lam);
  }
  return 0;
}

static void rec_free(rec *r)
{
  free(r->t);
  free(r->q);
  free(r->v);
  free(r->lam);
  free(r->w);
  memset(r, 0, sizeof *r);
}

typedef struct {
  sk_multibody_formulation f;
  double alpha, beta, cond_limit;
  int project;
  double rtol, atol; /* 0: RTOL, ATOL */
} run_set;

/* Simulate from (q0, v0) at t0 through the nout output times (increasing, after t0) with the
 * engine of the formulation (ida-bdf for GGL, cvode-bdf otherwise); the outputs (t0 and nout
 * more) into r, freed again unless the run succeeds. */
static sk_status simulate_at(sk_context *ctx, sk_multibody *mech, const run_set *rs, double t0,
                             const double *q0, const double *v0, const double *times, int nout,
                             rec *r, sk_multibody_report *rep)
{
  (void)ctx;
  const int n = sk_multibody_ncoords(mech), m = sk_multibody_nconstraints(mech);
  memset(r, 0, sizeof *r);
  r->n = n;
  r->m = m;
  r->cap = nout + 1;
  r->t = malloc((size_t)r->cap * sizeof *r->t);
  r->w = malloc((size_t)r->cap * sizeof *r->w);
  r->q = malloc((size_t)r->cap * (size_t)n * sizeof *r->q);
  r->v = malloc((size_t)r->cap * (size_t)n * sizeof *r->v);
  r->lam = malloc((size_t)r->cap * (size_t)(m + 1) * sizeof *r->lam);
  if (!r->t || !r->w || !r->q || !r->v || !r->lam) {
    rec_free(r);
    return SK_ERR_NOMEM;
  }
  const sk_multibody_settings s = {.formulation = rs->f,
                                   .alpha = rs->alpha,
                                   .beta = rs->beta,
                                   .cond_limit = rs->cond_limit > 0 ? rs->cond_limit : 1e6};
  const char *method = rs->f == SK_MULTIBODY_GGL ? "ida-bdf" : "cvode-bdf";
  sk_status st = sk_multibody_simulate(
      mech, &s, rs->project, method, rs->rtol > 0 ? rs->rtol : RTOL,
      rs->atol > 0 ? rs->atol : ATOL, NULL, t0, q0, v0, times, (size_t)nout, rec_out, r, rep);
  if (st == SK_OK && r->count != nout + 1) {
    fprintf(stderr, "%d outputs instead of %d\n", r->count, nout + 1);
    st = SK_ERR_INTERNAL;
  }
  if (st != SK_OK) { /* the caller frees the outputs of a successful run only */
    rec_free(r);
  }
  return st;
}

/* Simulate from (q0, v0) at t = 0 to t_end with nout equal output intervals. */
static sk_status simulate(sk_context *ctx, sk_multibody *mech, const run_set *rs,
                          const double *q0, const double *v0, double t_end, int nout, rec *r,
                          sk_multibody_report *rep)
{
  double *times = malloc((size_t)nout * sizeof *times);
  if (!times) {
    memset(r, 0, sizeof *r);
    return SK_ERR_NOMEM;
  }
  for (int k = 0; k < nout; k++) {
    times[k] = t_end * (double)(k + 1) / nout;
  }
  const sk_status st = simulate_at(ctx, mech, rs, 0.0, q0, v0, times, nout, r, rep);
  free(times);
  return st;
}

/* CHECK_OK of a status (a run's, an assembly's): 1 when it is SK_OK (a run's outputs are then
 * for the caller to free). */
static int ran(sk_context *ctx, sk_status st)
{
  CHECK_OK(ctx, st);
  return st == SK_OK;
}

/* A run of the formulation f with its defaults (run_set {.f = f}) from (q0, v0) at t = 0 to
 * t_end with nout equal output intervals: 1 when it succeeded (r then for the caller to free). */
static int run_f(sk_context *ctx, sk_multibody *mech, int f, const double *q0, const double *v0,
                 double t_end, int nout, rec *r, sk_multibody_report *rep)
{
  const run_set rs = {.f = (sk_multibody_formulation)f};
  return ran(ctx, simulate(ctx, mech, &rs, q0, v0, t_end, nout, r, rep));
}

/* Free the outputs of the n runs that succeeded (ok[f]). */
static void rec_free_ok(rec *r, const int *ok, int n)
{
  for (int f = 0; f < n; f++) {
    if (ok[f]) {
      rec_free(&r[f]);
    }
  }
}

/* The file's state made consistent at t (it must be already, to the assembly tolerance). */
static int initial_state(sk_context *ctx, sk_multibody *mech, double t, double *q, double *v)
{
  sk_multibody_initial(mech, q, v);
  sk_multibody_init_report ir;
  const sk_status st = sk_multibody_assemble(mech, t, q, v, 1e-10, 1, &ir);
  return ran(ctx, st);
}

/* A mechanism of the source tree (load_rel) and its initial state at t = 0 in (q0, v0); NULL,
 * nothing left to free, when either fails. */
static sk_multibody *load_rel_state(sk_context *ctx, const char *rel, double *q0, double *v0)
{
  sk_multibody *mech = load_rel(ctx, rel);
  if (mech && !initial_state(ctx, mech, 0.0, q0, v0)) {
    sk_multibody_destroy(&mech);
  }
  return mech;
}

/* A mechanism written from `text` (load_text) and its initial state at t in (q0, v0); NULL, the
 * file removed again, when the state fails (a file that does not load stays, as it was). */
static sk_multibody *load_text_state(sk_context *ctx, const char *dir, const char *name,
                                     const char *text, char *path, size_t len, double t,
                                     double *q0, double *v0)
{
  sk_multibody *mech = load_text(ctx, dir, name, text, path, len);
  if (mech && !initial_state(ctx, mech, t, q0, v0)) {
    sk_multibody_destroy(&mech);
    remove(path);
  }
  return mech;
}

/* max over outputs of max |Phi(q_k, t_k)| (evaluated here at the recorded states). */
static double drift_of(sk_multibody *mech, const rec *r)
{
  double *phi = malloc((size_t)(r->m + 1) * sizeof *phi), worst = 0.0;
  for (int k = 0; phi && k < r->count; k++) {
    if (sk_multibody_phi(mech, r->t[k], r->q + (size_t)k * r->n, phi) != SK_OK) {
      worst = INFINITY;
      break;
    }
    for (int i = 0; i < r->m; i++) {
      worst = fmax(worst, fabs(phi[i]));
    }
  }
  free(phi);
  return phi ? worst : INFINITY;
}

/* ---- a: simple pendulum ---------------------------------------------------------- */

/* data/mechanisms/pendulum.yaml (header): L = 1 from the pivot to the centroid, m = 1, J = 1e-3,
 * g = 9.81, at rest from theta0 = 0.3; the body angle is theta, the centroid (L sin, -L cos). */
#define PEND_L 1.0
#define PEND_M 1.0
#define PEND_J 1e-3

static void pend_f(const double y[2], double f[2])
{
  f[0] = y[1];
  f[1] = -PEND_M * GRAV * PEND_L * sin(y[0]) / (PEND_M * PEND_L * PEND_L + PEND_J);
}

static void rk4_step(double y[2], double h)
{
  double k1[2], k2[2], k3[2], k4[2], w[2];
  pend_f(y, k1);
  for (int i = 0; i < 2; i++) {
    w[i] = y[i] + 0.5 * h * k1[i];
  }
  pend_f(w, k2);
  for (int i = 0; i < 2; i++) {
    w[i] = y[i] + 0.5 * h * k2[i];
  }
  pend_f(w, k3);
  for (int i = 0; i < 2; i++) {
    w[i] = y[i] + h * k3[i];
  }
  pend_f(w, k4);
  for (int i = 0; i < 2; i++) {
    y[i] += h / 6.0 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  }
}

static void test_pendulum_rk4(sk_context *ctx)
{
  enum { NOUT = 200, SUB = 100 }; /* outputs every 0.01 = 100 RK4 steps of 1e-4 over [0, 2] */
  double q0[3], v0[3];
  sk_multibody *mech = load_rel_state(ctx, "data/mechanisms/pendulum.yaml", q0, v0);
  if (!mech) {
    return;
  }
  /* the reference theta, theta' at the outputs */
  double th[NOUT + 1], om[NOUT + 1];
  double y[2] = {0.3, 0.0};
  th[0] = y[0];
  om[0] = y[1];
  for (int k = 1; k <= NOUT; k++) {
    for (int i = 0; i < SUB; i++) {
      rk4_step(y, 2.0 / (NOUT * SUB));
    }
    th[k] = y[0];
    om[k] = y[1];
  }
  /* RK4 self-check: the energy of the reduced equation is conserved to roundoff level */
  const double I = PEND_M * PEND_L * PEND_L + PEND_J;
  const double e0 = -PEND_M * GRAV * PEND_L * cos(th[0]);
  const double e1 = 0.5 * I * om[NOUT] * om[NOUT] - PEND_M * GRAV * PEND_L * cos(th[NOUT]);
  CHECK_NEAR(e1, e0, 1e-12, 0);
  for (int f = 0; f < 3; f++) {
    rec r;
    sk_multibody_report rep;
    if (!run_f(ctx, mech, f, q0, v0, 2.0, NOUT, &r, &rep)) {
      continue;
    }
    double ex = 0, ey = 0, eth = 0, ev = 0, elam = 0, lmax = 0;
    for (int k = 0; k <= NOUT; k++) {
      const double *q = r.q + 3 * k, *v = r.v + 3 * k, *lam = r.lam + 2 * k;
      ex = fmax(ex, fabs(q[0] - PEND_L * sin(th[k])));
      ey = fmax(ey, fabs(q[1] + PEND_L * cos(th[k])));
      eth = fmax(eth, fabs(q[2] - th[k]));
      ev = fmax(ev, fmax(fabs(v[0] - PEND_L * cos(th[k]) * om[k]),
                         fabs(v[1] - PEND_L * sin(th[k]) * om[k])));
      /* the pivot force on the bob: lambda = m a - m g (G = [I, B s] for the pivot rows) */
      double yy[2] = {th[k], om[k]}, dy[2];
      pend_f(yy, dy);
      const double ax = PEND_L * (dy[1] * cos(th[k]) - om[k] * om[k] * sin(th[k]));
      const double ay = PEND_L * (dy[1] * sin(th[k]) + om[k] * om[k] * cos(th[k]));
      const double Fx = PEND_M * ax, Fy = PEND_M * ay + PEND_M * GRAV;
      elam = fmax(elam, fmax(fabs(lam[0] - Fx), fabs(lam[1] - Fy)));
      lmax = fmax(lmax, fmax(fabs(Fx), fabs(Fy)));
    }
    printf("pendulum %-7s: max error x %.3e y %.3e theta %.3e v %.3e; multipliers %.3e "
           "(relative to max |lambda| = %.4g: %.3e); steps %lld, drift %.3e\n",
           fname[f], ex, ey, eth, ev, elam, lmax, elam / lmax, (long long)rep.stats.steps,
           rep.phi_max);
    CHECK(ex < 1e-6);
    CHECK(ey < 1e-6);
    CHECK(eth < 1e-6);
    CHECK(ev < 1e-6);
    /* the reaction force to 1e-6 of its largest value */
    CHECK(elam < 1e-6 * lmax);
    rec_free(&r);
  }
  sk_multibody_destroy(&mech);
}

/* Hermite cubic on [t0, t1] through (x0, v0), (x1, v1): the root of a sign change by bisection. */
static double hermite_root(double t0, double t1, double x0, double v0, double x1, double v1)
{
  const double h = t1 - t0;
  double lo = 0.0, hi = 1.0;
  const double s0 = x0 < 0 ? -1.0 : 1.0;
  for (int it = 0; it < 100; it++) {
    const double s = 0.5 * (lo + hi), s2 = s * s, s3 = s2 * s;
    const double val = (2 * s3 - 3 * s2 + 1) * x0 + (s3 - 2 * s2 + s) * h * v0 +
                       (-2 * s3 + 3 * s2) * x1 + (s3 - s2) * h * v1;
    if ((val < 0 ? -1.0 : 1.0) == s0) {
      lo = s;
    } else {
      hi = s;
    }
  }
  return t0 + 0.5 * (lo + hi) * h;
}

static double agm(double a, double b)
{
  for (int i = 0; i < 60 && fabs(a - b) > 1e-16 * a; i++) {
    const double an = 0.5 * (a + b);
    b = sqrt(a * b);
    a = an;
  }
  return a;
}

static void test_pendulum_period(sk_context *ctx, const char *dir)
{
  const double th0 = 0.01;
  char path[1100], text[1024];
  snprintf(text, sizeof text,
           "# the pendulum of data/mechanisms/pendulum.yaml released from 0.01 rad\n"
           "gravity: [0, -9.81]\n"
           "bodies:\n"
           "  - {name: bob, mass: 1, inertia: 1.0e-3, position: [%.17g, %.17g], angle: %.17g}\n"
           "joints:\n"
           "  - {name: pivot, type: revolute, body1: bob, point1: [0, 1], body2: ground, "
           "point2: [0, 0]}\n",
           PEND_L * sin(th0), -PEND_L * cos(th0), th0);
  double q0[3], v0[3];
  sk_multibody *mech =
      load_text_state(ctx, dir, "small_pendulum.yaml", text, path, sizeof path, 0.0, q0, v0);
  if (!mech) {
    return;
  }
  const double I = PEND_M * PEND_L * PEND_L + PEND_J;
  const double T0 = 2 * PI * sqrt(I / (PEND_M * GRAV * PEND_L));
  const double Tex = T0 / agm(1.0, cos(th0 / 2));
  for (int f = 0; f < 3; f++) {
    rec r;
    sk_multibody_report rep;
    if (!run_f(ctx, mech, f, q0, v0, 5.0, 1000, &r, &rep)) {
      continue;
    }
    double cross[8];
    int nc = 0;
    for (int k = 0; k + 1 < r.count && nc < 8; k++) {
      const double x0 = r.q[3 * k], x1 = r.q[3 * (k + 1)];
      if ((x0 > 0) != (x1 > 0)) {
        cross[nc++] = hermite_root(r.t[k], r.t[k + 1], x0, r.v[3 * k], x1, r.v[3 * (k + 1)]);
      }
    }
    CHECK(nc >= 5);
    if (nc >= 5) {
      const double T = 0.5 * (cross[4] - cross[0]);
      printf("pendulum period (theta0 0.01) %-7s: %.10f; small-amplitude %.10f (rel %.3e), "
             "exact (AGM) %.10f (rel %.3e); %d zero crossings\n",
             fname[f], T, T0, fabs(T - T0) / T0, Tex, fabs(T - Tex) / Tex, nc);
      CHECK_NEAR(T, T0, 1e-4, 0);
      CHECK_NEAR(T, Tex, 1e-6, 0);
    }
    rec_free(&r);
  }
  sk_multibody_destroy(&mech);
  remove(path);
}

/* ---- b: double pendulum --------------------------------------------------------------- */

static void test_double_pendulum(sk_context *ctx)
{
  enum { NOUT = 500, NRUN = 4 };
  double q0[6], v0[6];
  sk_multibody *mech = load_rel_state(ctx, "data/mechanisms/double_pendulum.yaml", q0, v0);
  if (!mech) {
    return;
  }
  /* index 1 is checked with Baumgarte stabilization (alpha = beta = 10): without it the
   * position drift of the acceleration-level ODE (about 3e-6 over [0, 5] at rtol 1e-8) shows
   * in E at the same level; that run is printed (and its drift) and takes part in the
   * comparison of positions only */
  const run_set rs[NRUN] = {{.f = SK_MULTIBODY_GGL},
                            {.f = SK_MULTIBODY_INDEX1, .alpha = 10, .beta = 10},
                            {.f = SK_MULTIBODY_REDUCED},
                            {.f = SK_MULTIBODY_INDEX1}};
  static const char *const name[NRUN] = {"ggl", "index1 (Baumgarte 10/10)", "reduced",
                                         "index1 (no stabilization)"};
  rec r[NRUN];
  int ok[NRUN] = {0};
  for (int f = 0; f < NRUN; f++) {
    sk_multibody_report rep;
    if (!ran(ctx, simulate(ctx, mech, &rs[f], q0, v0, 5.0, NOUT, &r[f], &rep))) {
      continue;
    }
    ok[f] = 1;
    double T, V;
    sk_multibody_energy(mech, r[f].q, r[f].v, &T, &V);
    const double E0 = T + V;
    double de = 0.0;
    for (int k = 0; k <= NOUT; k++) {
      sk_multibody_energy(mech, r[f].q + 6 * k, r[f].v + 6 * k, &T, &V);
      de = fmax(de, fabs(T + V - E0));
    }
    printf("double pendulum %-25s: E0 %.6f, max |E - E0| / |E0| %.3e, drift %.3e, steps %lld\n",
           name[f], E0, de / fabs(E0), rep.phi_max, (long long)rep.stats.steps);
    if (f < 3) {
      CHECK(de < 1e-6 * fabs(E0));
    }
  }
  for (int a = 0; a < NRUN; a++) {
    for (int b = a + 1; b < NRUN; b++) {
      if (!ok[a] || !ok[b]) {
        continue;
      }
      double d = 0.0;
      for (int i = 0; i < 6 * (NOUT + 1); i++) {
        d = fmax(d, fabs(r[a].q[i] - r[b].q[i]));
      }
      printf("double pendulum: %s vs %s: max position difference %.3e\n", name[a], name[b], d);
      CHECK(d < 1e-5);
    }
  }
  rec_free_ok(r, ok, NRUN);
  sk_multibody_destroy(&mech);
}

/* ---- c: slider-crank ------------------------------------------------------------------ */

/* A number after `key` in the text (the header comment of a data file). */
static double number_after(const char *text, const char *key)
{
  const char *p = strstr(text, key);
  return p ? strtod(p + strlen(key), NULL) : NAN;
}

static void test_slider_crank(sk_context *ctx)
{
  char path[1024], head[2048] = "";
  source_path("data/mechanisms/slider_crank.yaml", path, sizeof path);
  FILE *fp = fopen(path, "r");
  if (fp) {
    const size_t got = fread(head, 1, sizeof head - 1, fp);
    head[got] = '\0';
    fclose(fp);
  }
  /* "crank r = 0.1 ... connecting rod l = 0.3" */
  const double r = number_after(head, "crank r = "), l = number_after(head, "rod l = ");
  CHECK(r > 0 && l > r);
  sk_multibody *mech = load(ctx, path);
  if (!mech || !(r > 0 && l > r)) {
    sk_multibody_destroy(&mech);
    return;
  }
  const int slider = body_index(mech, "slider");
  CHECK(slider >= 0);
  double q0[9], v0[9];
  if (slider < 0 || !initial_state(ctx, mech, 0.0, q0, v0)) {
    sk_multibody_destroy(&mech);
    return;
  }
  enum { NOUT = 200 };
  const double w = 2 * PI;
  for (int f = 0; f < 3; f++) {
    rec rc;
    sk_multibody_report rep;
    if (!run_f(ctx, mech, f, q0, v0, 1.0, NOUT, &rc, &rep)) {
      continue;
    }
    double ex = 0.0, ev = 0.0, ey = 0.0;
    for (int k = 0; k <= NOUT; k++) {
      const double th = w * rc.t[k], s = sin(th), c = cos(th);
      const double root = sqrt(l * l - r * r * s * s);
      const double x = r * c + root;
      const double xd = w * (-r * s - r * r * s * c / root);
      ex = fmax(ex, fabs(rc.q[9 * k + 3 * slider] - x));
      ey = fmax(ey, fabs(rc.q[9 * k + 3 * slider + 1]));
      ev = fmax(ev, fabs(rc.v[9 * k + 3 * slider] - xd));
    }
    printf("slider-crank %-7s: max error slider x %.3e, velocity %.3e, |y| %.3e; drift %.3e, "
           "steps %lld\n",
           fname[f], ex, ev, ey, rep.phi_max, (long long)rep.stats.steps);
    CHECK(ex < 1e-7);
    CHECK(ev < 1e-7);
    CHECK(ey < 1e-7);
    rec_free(&rc);
  }
  sk_multibody_destroy(&mech);
}

/* ---- d: four-bar ------------------------------------------------------------------------- */

static void test_fourbar(sk_context *ctx)
{
  enum { NOUT = 200 };
  double q0[9], v0[9];
  sk_multibody *mech = load_rel_state(ctx, "data/mechanisms/fourbar.yaml", q0, v0);
  if (!mech) {
    return;
  }
  const int m = sk_multibody_nconstraints(mech);
  rec ggl = {0}, red = {0};
  sk_multibody_report rep;
  const int ok_ggl = run_f(ctx, mech, SK_MULTIBODY_GGL, q0, v0, 1.0, NOUT, &ggl, &rep);
  if (ok_ggl) {
    const double d = drift_of(mech, &ggl);
    printf("four-bar ggl    : max |Phi| %.3e (report %.3e), max |G v + Phi_t| %.3e, steps %lld, "
           "events %d\n",
           d, rep.phi_max, rep.dphi_max, (long long)rep.stats.steps, rep.nevents);
    CHECK(d < 1e-8);
    CHECK(rep.phi_max < 1e-8);
  }
  const int ok_red = run_f(ctx, mech, SK_MULTIBODY_REDUCED, q0, v0, 1.0, NOUT, &red, &rep);
  if (ok_red) {
    const double d = drift_of(mech, &red);
    printf("four-bar reduced: max |Phi| %.3e (report %.3e), steps %lld, repartitions %d\n", d,
           rep.phi_max, (long long)rep.stats.steps, rep.repartitions);
    CHECK(d < 1e-8);
    CHECK(rep.phi_max < 1e-8);
  }
  /* index 1: none, Baumgarte alpha = beta = 10, projection */
  const run_set i1[3] = {{.f = SK_MULTIBODY_INDEX1},
                         {.f = SK_MULTIBODY_INDEX1, .alpha = 10, .beta = 10},
                         {.f = SK_MULTIBODY_INDEX1, .project = 1}};
  static const char *const i1name[3] = {"none", "Baumgarte 10/10", "projection"};
  double drift[3] = {NAN, NAN, NAN}, drift_rms[3] = {NAN, NAN, NAN};
  for (int k = 0; k < 3; k++) {
    rec r;
    if (!ran(ctx, simulate(ctx, mech, &i1[k], q0, v0, 1.0, NOUT, &r, &rep))) {
      continue;
    }
    drift[k] = drift_of(mech, &r);
    drift_rms[k] = rep.phi_rms;
    printf("four-bar index1 %-15s: max |Phi| %.3e (report %.3e, RMS %.3e), max |G v + Phi_t| "
           "%.3e, steps %lld, restarts %d, largest projection %.3e\n",
           i1name[k], drift[k], rep.phi_max, rep.phi_rms, rep.dphi_max,
           (long long)rep.stats.steps, rep.restarts, rep.projection_max);
    rec_free(&r);
  }
  /* Baumgarte damps the drift: smaller on average over the outputs (its max
     at t <= 1 lies at the integration-error level, ~1e-8, like the
     unstabilized one's, and either may be the larger); projection removes it */
  CHECK(drift_rms[1] < drift_rms[0]);
  CHECK(drift[1] < 2.0 * drift[0]);
  CHECK(drift[2] < drift[0]);
  /* reaction forces: GGL's multipliers against the reduced formulation's */
  if (ok_ggl && ok_red) {
    double dl = 0.0, lmax = 0.0, dq = 0.0, dself = 0.0;
    double *lb = malloc((size_t)m * sizeof *lb);
    for (int k = 0; lb && k <= NOUT; k++) {
      for (int i = 0; i < m; i++) {
        dl = fmax(dl, fabs(ggl.lam[m * k + i] - red.lam[m * k + i]));
        lmax = fmax(lmax, fabs(red.lam[m * k + i]));
      }
      for (int i = 0; i < 9; i++) {
        dq = fmax(dq, fabs(ggl.q[9 * k + i] - red.q[9 * k + i]));
      }
      /* diagnosis: the block system at GGL's own (q, v) against GGL's multipliers */
      if (sk_multibody_accelerations(mech, ggl.t[k], ggl.q + 9 * k, ggl.v + 9 * k, 0, 0, NULL,
                                     lb) == SK_OK) {
        for (int i = 0; i < m; i++) {
          dself = fmax(dself, fabs(ggl.lam[m * k + i] - lb[i]));
        }
      }
    }
    free(lb);
    printf("four-bar reactions: max |lambda_ggl - lambda_reduced| %.3e = %.3e max |lambda| "
           "(%.4g); GGL's lambda against the block system at its own state %.3e; positions "
           "differ by %.3e\n",
           dl, dl / lmax, lmax, dself, dq);
    CHECK(dl <= 1e-6 * lmax);
  }
  if (ok_ggl) {
    rec_free(&ggl);
  }
  if (ok_red) {
    rec_free(&red);
  }
  sk_multibody_destroy(&mech);
}

/* ---- near-toggle four-bar ---------------------------------------------------------------- */

/* The singular values of the m x n matrix A (row-major, m <= n) by one-sided Jacobi on its
 * rows: rotate pairs of rows until they are orthogonal; the row norms are the singular values. */
static void singular_values(const double *A, int m, int n, double *sv)
{
  double *W = malloc((size_t)m * (size_t)n * sizeof *W);
  if (!W) {
    for (int i = 0; i < m; i++) {
      sv[i] = NAN;
    }
    return;
  }
  memcpy(W, A, (size_t)m * (size_t)n * sizeof *W);
  for (int sweep = 0; sweep < 60; sweep++) {
    double off = 0.0;
    for (int i = 0; i < m; i++) {
      for (int j = i + 1; j < m; j++) {
        double a = 0, b = 0, c = 0;
        for (int k = 0; k < n; k++) {
          a += W[i * n + k] * W[i * n + k];
          b += W[j * n + k] * W[j * n + k];
          c += W[i * n + k] * W[j * n + k];
        }
        if (fabs(c) <= 1e-17 * sqrt(a * b)) {
          continue;
        }
        off = fmax(off, fabs(c) / sqrt(a * b));
        const double zeta = (b - a) / (2 * c);
        const double tt = (zeta >= 0 ? 1.0 : -1.0) / (fabs(zeta) + sqrt(1 + zeta * zeta));
        const double cs = 1 / sqrt(1 + tt * tt), sn = cs * tt;
        for (int k = 0; k < n; k++) {
          const double x = W[i * n + k], y = W[j * n + k];
          W[i * n + k] = cs * x - sn * y;
          W[j * n + k] = sn * x + cs * y;
        }
      }
    }
    if (off < 1e-15) {
      break;
    }
  }
  for (int i = 0; i < m; i++) {
    double s = 0;
    for (int k = 0; k < n; k++) {
      s += W[i * n + k] * W[i * n + k];
    }
    sv[i] = sqrt(s);
  }
  free(W);
}

/* max |G - central differences of Phi| / max |G| at (t, q). */
static double jacobian_fd_error(sk_multibody *mech, double t, const double *q)
{
  const int n = sk_multibody_ncoords(mech), m = sk_multibody_nconstraints(mech);
  double *G = malloc((size_t)(m * n + 2 * m + n) * sizeof *G);
  if (!G) {
    return INFINITY;
  }
  double *pp = G + m * n, *pm = pp + m, *qq = pm + m;
  sk_multibody_jacobian(mech, t, q, G);
  double err = 0.0, gmax = 0.0;
  for (int k = 0; k < n; k++) {
    memcpy(qq, q, (size_t)n * sizeof *qq);
    const double h = 1e-6;
    qq[k] = q[k] + h;
    sk_multibody_phi(mech, t, qq, pp);
    qq[k] = q[k] - h;
    sk_multibody_phi(mech, t, qq, pm);
    for (int i = 0; i < m; i++) {
      err = fmax(err, fabs(G[i * n + k] - (pp[i] - pm[i]) / (2 * h)));
      gmax = fmax(gmax, fabs(G[i * n + k]));
    }
  }
  free(G);
  return err / gmax;
}

/* Link lengths: crank a, coupler b, rocker c, ground d with b + c = a + d + EPS: at crank angle
 * pi (t = 0.5) the crank tip A = (-a, 0) is a + d from the rocker pivot O4 = (d, 0), so the
 * coupler and the rocker are within EPS of collinear (the toggle); a crank-rocker (Grashof:
 * a + d <= b + c, a shortest). */
#define TG_A 0.1
#define TG_B 0.3
#define TG_D 0.4
#define TG_EPS 1e-6
#define TG_C (0.2 + TG_EPS)

static void test_toggle(sk_context *ctx, const char *dir)
{
  const double a = TG_A, b = TG_B, c = TG_C, d = TG_D;
  /* at t0 the crank lies along +x: A = (a, 0); B on circles (A, b) and (O4, c), upper branch */
  const double Ax = a, Ay = 0.0, f = d - a;
  const double xb = (b * b - c * c + f * f) / (2 * f); /* along A -> O4 */
  const double hb = sqrt(b * b - xb * xb);
  const double Bx = Ax + xb, By = hb;
  const double phc = atan2(By - Ay, Bx - Ax), phr = atan2(By, Bx - d);
  char path[1100], text[4096];
  snprintf(
      text, sizeof text,
      "# a crank-rocker four-bar near a toggle (test_multibody.c): a %.17g, b %.17g, c %.17g, "
      "d %.17g\n"
      "gravity: [0, -9.81]\n"
      "bodies:\n"
      "  - {name: crank, mass: %.17g, inertia: %.17g, position: [%.17g, 0], angle: 0}\n"
      "  - {name: coupler, mass: %.17g, inertia: %.17g, position: [%.17g, %.17g], "
      "angle: %.17g}\n"
      "  - {name: rocker, mass: %.17g, inertia: %.17g, position: [%.17g, %.17g], "
      "angle: %.17g}\n"
      "joints:\n"
      "  - {name: O2, type: revolute, body1: crank, point1: [%.17g, 0], body2: ground, "
      "point2: [0, 0]}\n"
      "  - {name: A, type: revolute, body1: coupler, point1: [%.17g, 0], body2: crank, "
      "point2: [%.17g, 0]}\n"
      "  - {name: B, type: revolute, body1: coupler, point1: [%.17g, 0], body2: rocker, "
      "point2: [%.17g, 0]}\n"
      "  - {name: O4, type: revolute, body1: rocker, point1: [%.17g, 0], body2: ground, "
      "point2: [%.17g, 0]}\n"
      "drivers:\n"
      "  - {joint: O2, position: \"2*pi*t\", velocity: \"2*pi\", acceleration: \"0\"}\n",
      a, b, c, d, a, a * a * a / 12, a / 2, b, b * b * b / 12, (Ax + Bx) / 2, (Ay + By) / 2, phc,
      c, c * c * c / 12, (d + Bx) / 2, By / 2, phr, -a / 2, -b / 2, a / 2, b / 2, c / 2, -c / 2,
      d);
  sk_multibody *mech = load_text(ctx, dir, "toggle_fourbar.yaml", text, path, sizeof path);
  if (!mech) {
    return;
  }
  const int n = 9, m = sk_multibody_nconstraints(mech);
  CHECK_EQ_INT(m, 9);
  double q0[9], v0[9];
  sk_multibody_initial(mech, q0, v0);
  sk_multibody_init_report ir;
  CHECK_OK(ctx, sk_multibody_assemble(mech, 0.0, q0, v0, 1e-10, 1, &ir)); /* the velocities */
  CHECK(ir.phi_before < 1e-12);
  enum { NOUT = 200 };
  /* cond(G) is about 30 away from the toggle (|t - 0.5| >= 0.15) and about 5e3 at it */
  const double limit = 1000.0;
  /* the library's cond(G) is taken after equilibrating G (units and ground point positions
     must not matter), so its values differ from this SVD of the raw G; what both must show is
     the same peak at the toggle: the warning limit is set between the equilibrated values away
     from the toggle and at it */
  const double warn = 300.0;
  const run_set rs = {.f = SK_MULTIBODY_GGL, .cond_limit = warn};
  rec r;
  sk_multibody_report rep;
  if (ran(ctx, simulate(ctx, mech, &rs, q0, v0, 1.0, NOUT, &r, &rep))) {
    double *G = malloc((size_t)(m * n) * sizeof *G), sv[9];
    double smin_all = INFINITY, cond_far = 0.0, cond_max = 0.0, t_first = NAN, t_smin = NAN;
    double fd_err = 0.0;
    for (int k = 0; G && k <= NOUT; k++) {
      const double *q = r.q + 9 * k;
      sk_multibody_jacobian(mech, r.t[k], q, G);
      singular_values(G, m, n, sv);
      double smin = INFINITY, smax = 0.0;
      for (int i = 0; i < m; i++) {
        smin = fmin(smin, sv[i]);
        smax = fmax(smax, sv[i]);
      }
      const double cond = smax / smin;
      if (smin < smin_all) {
        smin_all = smin;
        t_smin = r.t[k];
      }
      cond_max = fmax(cond_max, cond);
      if (fabs(r.t[k] - 0.5) >= 0.15) {
        cond_far = fmax(cond_far, cond);
      }
      if (cond > limit && isnan(t_first)) {
        t_first = r.t[k];
      }
      if (k % 50 == 0) {
        fd_err = fmax(fd_err, jacobian_fd_error(mech, r.t[k], q));
      }
    }
    fd_err = fmax(fd_err, jacobian_fd_error(mech, 0.5, r.q + 9 * (NOUT / 2)));
    free(G);
    printf("toggle four-bar (b + c = a + d + %.0e): smallest singular value of G %.3e at t = "
           "%.4g; cond(G) max %.3e (report %.3e), away from the toggle %.3e; first output "
           "above %.0e: t = %.4g (report %.4g); G vs differences of Phi %.1e; drift %.3e, "
           "steps %lld\n",
           TG_EPS, smin_all, t_smin, cond_max, rep.cond_max, cond_far, limit, t_first,
           rep.cond_warn_t, fd_err, rep.phi_max, (long long)rep.stats.steps);
    CHECK(fd_err < 1e-7);
    CHECK_NEAR(t_smin, 0.5, 0, 0.011); /* the toggle is at crank angle pi */
    CHECK(cond_far < limit / 10);      /* the limit triggers near the toggle only */
    CHECK(cond_max > 2 * limit);
    CHECK(!isnan(rep.cond_warn_t));
    CHECK(fabs(rep.cond_warn_t - 0.5) <
          0.15); /* first above the limit near the raw SVD's toggle */
    CHECK(fabs(t_first - 0.5) < 0.15);
    const double cond0 = sk_multibody_condition(mech, 0.0, r.q);
    printf("equilibrated cond(G): %.3e at t = 0, max %.3e (first above %.0f at t = %.4g)\n",
           cond0, rep.cond_max, warn, rep.cond_warn_t);
    CHECK(rep.cond_max > 10 * cond0); /* the equilibrated estimate peaks there too */
    rec_free(&r);
  }
  /* the reduced formulation through the toggle: it repartitions where cond(G_D) passes the
   * limit and stays on the constraints */
  const run_set red = {.f = SK_MULTIBODY_REDUCED, .cond_limit = warn};
  if (ran(ctx, simulate(ctx, mech, &red, q0, v0, 1.0, NOUT, &r, &rep))) {
    printf("toggle four-bar reduced: repartitions %d, restarts %d, drift %.3e, cond(G) max %.3e "
           "from t = %.4g, steps %lld\n",
           rep.repartitions, rep.restarts, rep.phi_max, rep.cond_max, rep.cond_warn_t,
           (long long)rep.stats.steps);
    CHECK(rep.phi_max < 1e-8);
    CHECK(!isnan(rep.cond_warn_t));
    rec_free(&r);
  }
  /* the same mechanism with the default limit 1e6: no warning */
  const run_set quiet = {.f = SK_MULTIBODY_GGL, .cond_limit = 1e6};
  if (ran(ctx, simulate(ctx, mech, &quiet, q0, v0, 1.0, NOUT, &r, &rep))) {
    CHECK(isnan(rep.cond_warn_t));
    rec_free(&r);
  }
  sk_multibody_destroy(&mech);
  remove(path);
}

/* ---- e: consistent initialization -------------------------------------------------------- */

static void test_consistent_init(sk_context *ctx)
{
  sk_multibody *mech = load_rel(ctx, "data/mechanisms/pendulum.yaml");
  if (!mech) {
    return;
  }
  double q[3], v[3], qf[3], vf[3];
  sk_multibody_initial(mech, qf, vf);
  /* stretch the arm by eps (radially) and give the bob a radial velocity eps: both lie in the
   * row space of G = [1 0 -cos th; 0 1 -sin th], so the minimum-norm correction undoes them
   * exactly: dq = dv = eps cos th0 (the larger component) */
  const double th = 0.3, eps = 1e-3;
  const double dr[3] = {eps * sin(th), -eps * cos(th), 0.0};
  for (int i = 0; i < 3; i++) {
    q[i] = qf[i] + dr[i];
    v[i] = vf[i] + dr[i];
  }
  sk_multibody_init_report ir;
  sk_context_clear_error(ctx);
  sk_status st = sk_multibody_assemble(mech, 0.0, q, v, 1e-10, 0, &ir);
  CHECK_EQ_INT(st, SK_ERR_INPUT);
  CHECK_STR_CONTAINS(msg(ctx), "inconsistent");
  CHECK_STR_CONTAINS(msg(ctx), "pivot");
  printf("inconsistent start refused: %s\n", msg(ctx));
  for (int i = 0; i < 3; i++) {
    q[i] = qf[i] + dr[i];
    v[i] = vf[i] + dr[i];
  }
  st = sk_multibody_assemble(mech, 0.0, q, v, 1e-10, 1, &ir);
  CHECK_OK(ctx, st);
  printf("inconsistent start fixed: |Phi| %.3e -> %.3e, |G v + Phi_t| %.3e -> %.3e, dq %.6e, "
         "dv %.6e (closed form %.6e), %d Newton iterations, worst %s\n",
         ir.phi_before, ir.phi_after, ir.dphi_before, ir.dphi_after, ir.dq, ir.dv, eps * cos(th),
         ir.newton_iters, ir.worst_row);
  CHECK(ir.phi_after < 1e-12);
  CHECK(ir.dphi_after < 1e-12);
  CHECK(ir.dq > 0.5 * eps && ir.dq < 2 * eps);
  CHECK_NEAR(ir.dq, eps * cos(th), 1e-9, 0);
  CHECK_NEAR(ir.dv, eps * cos(th), 1e-9, 0);
  CHECK_NEAR(ir.phi_before, eps * cos(th), 1e-9, 0);
  for (int i = 0; i < 3; i++) {
    CHECK_NEAR(q[i], qf[i], 0, 1e-12);
    CHECK_NEAR(v[i], vf[i], 0, 1e-12);
  }
  sk_multibody_destroy(&mech);
}

/* ---- f: bad mechanisms ------------------------------------------------------------------- */

static void test_bad_mechanisms(sk_context *ctx)
{
  sk_multibody *mech = load_rel(ctx, "tests/bad_input/mechanisms/redundant.yaml");
  if (mech) {
    double q[9], v[9];
    sk_multibody_initial(mech, q, v);
    sk_context_clear_error(ctx);
    sk_status st = sk_multibody_check_rank(mech, 0.0, q);
    CHECK_EQ_INT(st, SK_ERR_SINGULAR);
    printf("redundant (check_rank): %s\n", msg(ctx));
    /* the dependent rows are those of O4_again (they repeat O4's) */
    CHECK_STR_CONTAINS(msg(ctx), "O4_again");
    sk_multibody_init_report ir;
    sk_context_clear_error(ctx);
    st = sk_multibody_assemble(mech, 0.0, q, v, 1e-10, 1, &ir);
    CHECK_EQ_INT(st, SK_ERR_SINGULAR);
    printf("redundant (assemble): %s\n", msg(ctx));
    CHECK_STR_CONTAINS(msg(ctx), "O4_again");
    sk_multibody_destroy(&mech);
  }
  mech = load_rel(ctx, "tests/bad_input/mechanisms/unassemblable.yaml");
  if (mech) {
    double q[9], v[9];
    sk_multibody_initial(mech, q, v);
    sk_multibody_init_report ir;
    sk_context_clear_error(ctx);
    const sk_status st = sk_multibody_assemble(mech, 0.0, q, v, 1e-10, 1, &ir);
    CHECK_EQ_INT(st, SK_ERR_CONV);
    printf("unassemblable: %s\n", msg(ctx));
    CHECK_STR_CONTAINS(msg(ctx), "cannot be assembled");
    CHECK_STR_CONTAINS(msg(ctx), "max |Phi|");
    /* the named row is one of the joints' rows */
    const char *p = strstr(msg(ctx), "largest in ");
    CHECK(p != NULL);
    int named = 0;
    for (int j = 0; p && j < sk_multibody_njoints(mech); j++) {
      int first, count;
      sk_multibody_joint_rows(mech, j, &first, &count);
      for (int k = first; k < first + count; k++) {
        char row[64], want[80];
        sk_multibody_row_name(mech, k, row, sizeof row);
        snprintf(want, sizeof want, "largest in %s ", row);
        named |= strncmp(p, want, strlen(want)) == 0;
      }
    }
    CHECK(named);
    sk_multibody_destroy(&mech);
  }
}

/* ---- g: closed forms of the multibody review --------------------------------------------- */

/* 1. A bead on a driven rotating arm: the arm turns at omega = 2 about the origin (its
 * centroid, the pivot), the bead slides frictionless along it (prismatic joint) from r0 = 0.5
 * with zero radial speed, no gravity. In the arm's frame r'' = omega^2 r, so
 * r(t) = r0 cosh(omega t) (the closed form, independent of the library). The reduced
 * formulation has 1 degree of freedom; its first partition (x_bead independent) has a
 * dependent block G_D that is singular at t = pi/4 (the arm vertical: checked here by an SVD
 * at the closed-form state), so it must repartition at least once over [0, 1] (cond(G_D)
 * passes the default growth factor 4 on the way; settings.repartition = 0). The same with the
 * joint's bodies swapped (body1 = bead, the axis in the bead's frame, which turns with the arm
 * because the prismatic joint keeps the relative angle). */
static void test_bead(sk_context *ctx, const char *dir)
{
  static const char *const joint[2] = {
      "  - {name: S, type: prismatic, body1: arm, point1: [0, 0], body2: bead, point2: [0, 0], "
      "axis: [1, 0]}\n",
      "  - {name: S, type: prismatic, body1: bead, point1: [0, 0], body2: arm, point2: [0, 0], "
      "axis: [1, 0]}\n"};
  static const char *const label[2] = {"bead", "bead (bodies swapped)"};
  const double r0 = 0.5, w = 2.0;
  enum { NOUT = 20 };
  for (int variant = 0; variant < 2; variant++) {
    char path[1100], text[2048];
    snprintf(text, sizeof text,
             "# a bead on an arm driven at omega = 2 about the origin: r = 0.5 cosh(2 t)\n"
             "gravity: [0, 0]\n"
             "bodies:\n"
             "  - {name: arm, mass: 1, inertia: 0.3, position: [0, 0], angle: 0, omega: 2}\n"
             "  - {name: bead, mass: 0.2, inertia: 0.01, position: [0.5, 0], angle: 0, "
             "velocity: [0, 1.0], omega: 2}\n"
             "joints:\n"
             "  - {name: O, type: revolute, body1: arm, point1: [0, 0], body2: ground, "
             "point2: [0, 0]}\n"
             "%s"
             "drivers:\n"
             "  - {joint: O, position: \"2*t\", velocity: \"2\", acceleration: \"0\"}\n",
             joint[variant]);
    sk_multibody *mech = load_text(ctx, dir, "bead.yaml", text, path, sizeof path);
    if (!mech) {
      continue;
    }
    const int bead = body_index(mech, "bead"), arm = body_index(mech, "arm");
    CHECK(bead >= 0 && arm >= 0);
    double q0[6], v0[6];
    if (bead < 0 || arm < 0 || !initial_state(ctx, mech, 0.0, q0, v0)) {
      sk_multibody_destroy(&mech);
      remove(path);
      continue;
    }
    /* the premise: the reduced model's first partition (1 independent coordinate) has a
       regular dependent block G_D at t0 and a singular one at t = pi/4, at the closed-form
       state there (arm and bead at angle pi/2, the bead at (0, r0 cosh(pi/2))); singular
       values by the Jacobi SVD above */
    const sk_multibody_settings red = {.formulation = SK_MULTIBODY_REDUCED, .cond_limit = 1e6};
    sk_model *model = NULL;
    CHECK_OK(ctx, sk_multibody_model(mech, &red, 0.0, q0, v0, &model));
    int ni = 0;
    const int *indep = model ? sk_multibody_reduced_partition(model, &ni) : NULL;
    CHECK_EQ_INT(ni, 1);
    if (indep && ni == 1) {
      const double th = PI / 2, rq = r0 * cosh(w * PI / 4);
      double qs[2][6] = {{0}}, G[30], GD[25], sv[5], smin[2], smax[2];
      memcpy(qs[0], q0, sizeof qs[0]);
      qs[1][3 * arm + 2] = th;
      qs[1][3 * bead] = rq * cos(th);
      qs[1][3 * bead + 1] = rq * sin(th);
      qs[1][3 * bead + 2] = th;
      for (int s = 0; s < 2; s++) {
        sk_multibody_jacobian(mech, s ? PI / 4 : 0.0, qs[s], G);
        for (int row = 0; row < 5; row++) {
          for (int c = 0, k = 0; c < 6; c++) {
            if (c != indep[0]) {
              GD[row * 5 + k++] = G[row * 6 + c];
            }
          }
        }
        singular_values(GD, 5, 5, sv);
        smin[s] = INFINITY;
        smax[s] = 0.0;
        for (int i = 0; i < 5; i++) {
          smin[s] = fmin(smin[s], sv[i]);
          smax[s] = fmax(smax[s], sv[i]);
        }
      }
      char name[64];
      sk_multibody_coord_name(mech, indep[0], name, sizeof name);
      printf("%s: reduced partition at t0: independent %s; G_D singular values %.3e .. %.3e at "
             "t0, %.3e .. %.3e at t = pi/4\n",
             label[variant], name, smin[0], smax[0], smin[1], smax[1]);
      CHECK(smin[0] > 1e-2 * smax[0]);
      CHECK(smin[1] < 1e-12 * smax[1]);
    }
    sk_model_destroy(&model);
    for (int f = 0; f < 3; f++) {
      rec r;
      sk_multibody_report rep;
      if (!run_f(ctx, mech, f, q0, v0, 1.0, NOUT, &r, &rep)) {
        continue;
      }
      double er = 0.0, erd = 0.0, eang = 0.0;
      for (int k = 0; k <= NOUT; k++) {
        const double *q = r.q + 6 * k, *v = r.v + 6 * k, t = r.t[k];
        const double x = q[3 * bead], y = q[3 * bead + 1], rr = hypot(x, y);
        /* the radial speed (x x' + y y') / r against r0 omega sinh(omega t) */
        const double rd = (x * v[3 * bead] + y * v[3 * bead + 1]) / rr;
        er = fmax(er, fabs(rr - r0 * cosh(w * t)));
        erd = fmax(erd, fabs(rd - r0 * w * sinh(w * t)));
        eang = fmax(eang, fmax(fabs(q[3 * arm + 2] - w * t), fabs(q[3 * bead + 2] - w * t)));
      }
      printf("%s %-7s: max |r - r0 cosh 2t| %.3e (r(1) = %.10f, closed form %.10f), radial "
             "speed %.3e, angles %.3e; repartitions %d, restarts %d, drift %.3e, steps %lld\n",
             label[variant], fname[f], er,
             hypot(r.q[6 * NOUT + 3 * bead], r.q[6 * NOUT + 3 * bead + 1]), r0 * cosh(w), erd,
             eang, rep.repartitions, rep.restarts, rep.phi_max, (long long)rep.stats.steps);
      CHECK(er < 1e-6);
      CHECK(erd < 1e-5);
      CHECK(eang < 1e-8);
      if (f == SK_MULTIBODY_REDUCED) {
        CHECK(rep.repartitions >= 1);
      }
      rec_free(&r);
    }
    sk_multibody_destroy(&mech);
    remove(path);
  }
}

/* 2. The sign of a prismatic driver: a slider (m = 2, no gravity) on a horizontal prismatic
 * joint with the ground (body1 = slider, point2 = (1, 0) on the ground) driven with position
 * -0.5 t^2, velocity -t, acceleration -1. A positive driver value moves body1 along +axis
 * (data/mechanisms/README.md: u . (P1 - P2)), so along axis [1, 0] the slider moves to
 * x = 1 - 0.5 t^2, and along axis [-1, 0] to x = 1 + 0.5 t^2. The driver's multiplier (the
 * last row) is the axial force on body1 along +axis: m times the acceleration along +axis,
 * m (-1) = -2 for both axes (no other force acts along the axis). The driver's work is the
 * kinetic energy it gives: the speed is t, so W = m t^2 / 2. */
static void test_prismatic_driver_sign(sk_context *ctx, const char *dir)
{
  static const double ax[2] = {1.0, -1.0};
  const double mass = 2.0;
  enum { NOUT = 20 };
  for (int a = 0; a < 2; a++) {
    char path[1100], text[2048];
    snprintf(text, sizeof text,
             "# a slider driven along its prismatic joint with position -0.5 t^2\n"
             "gravity: [0, 0]\n"
             "bodies:\n"
             "  - {name: slider, mass: %g, inertia: 0.1, position: [1, 0], angle: 0}\n"
             "joints:\n"
             "  - {name: S, type: prismatic, body1: slider, point1: [0, 0], body2: ground, "
             "point2: [1, 0], axis: [%g, 0]}\n"
             "drivers:\n"
             "  - {joint: S, position: \"-0.5*t*t\", velocity: \"-t\", acceleration: \"-1\"}\n",
             mass, ax[a]);
    sk_multibody *mech = load_text(ctx, dir, "pdrv.yaml", text, path, sizeof path);
    if (!mech) {
      continue;
    }
    const int m = sk_multibody_nconstraints(mech);
    CHECK_EQ_INT(m, 3);
    char row[64];
    sk_multibody_row_name(mech, m - 1, row, sizeof row);
    CHECK_STR_CONTAINS(row, "drive(S)");
    double q0[3], v0[3];
    if (m != 3 || !initial_state(ctx, mech, 0.0, q0, v0)) {
      sk_multibody_destroy(&mech);
      remove(path);
      continue;
    }
    for (int f = 0; f < 3; f++) {
      rec r;
      sk_multibody_report rep;
      if (!run_f(ctx, mech, f, q0, v0, 1.0, NOUT, &r, &rep)) {
        continue;
      }
      double ex = 0.0, ev = 0.0, ey = 0.0, el = 0.0, ew = 0.0;
      for (int k = 0; k <= NOUT; k++) {
        const double t = r.t[k], *q = r.q + 3 * k, *v = r.v + 3 * k;
        ex = fmax(ex, fabs(q[0] - (1.0 - ax[a] * 0.5 * t * t)));
        ev = fmax(ev, fabs(v[0] - (-ax[a] * t)));
        ey = fmax(ey, fmax(fabs(q[1]), fabs(q[2])));
        el = fmax(el, fabs(r.lam[m * k + m - 1] - mass * (-1.0)));
        ew = fmax(ew, fabs(r.w[k] - 0.5 * mass * t * t));
      }
      printf("prismatic driver (axis [%g, 0]) %-7s: x(1) %.12f (closed form %.1f), max error x "
             "%.3e, v %.3e, |y|, |phi| %.3e; driver multiplier %.12f (m (-1) = %.1f; max error "
             "%.3e); work error %.3e\n",
             ax[a], fname[f], r.q[3 * NOUT], 1.0 - ax[a] * 0.5, ex, ev, ey,
             r.lam[m * NOUT + m - 1], -mass, el, ew);
      CHECK(ex < 1e-8);
      CHECK(ev < 1e-8);
      CHECK(ey < 1e-10);
      CHECK(el < 1e-8);
      CHECK(ew < 1e-8);
      rec_free(&r);
    }
    sk_multibody_destroy(&mech);
    remove(path);
  }
}

/* 3. A spring-damper oscillator: a block (m = 2) on a horizontal prismatic joint with the
 * ground, a spring-damper (k = 50, c = 1.5, rest length 1) from its centroid to the ground
 * point (0, 0), from x = 1.3 at rest, no gravity. With w = sqrt(k / m), zeta = c / (2 m w),
 * wd = w sqrt(1 - zeta^2): x - 1 = 0.3 e^{-zeta w t} (cos wd t + zeta w / wd sin wd t)
 * (x stays > 0, so the spring's line is +x). The energy E = m x'^2 / 2 + k (x - 1)^2 / 2 falls
 * (the damper dissipates): the work W of the damper (the output callback's) equals
 * E(t) - E(0), both negative. At the test's tolerances (rtol 1e-8) the states are good to
 * ~1e-7 relative only, so E - E0 - W is ~1e-6 of E - E0 (and balance_max, relative to the
 * energies in play, below 1e-6); at rtol 1e-10 W must match E - E0 to 1e-7 relative, both E of
 * the run's own state and E of the closed form. */
static void test_spring_damper(sk_context *ctx, const char *dir)
{
  const double mass = 2.0, k = 50.0, c = 1.5, x0 = 1.3, L = 1.0;
  char path[1100];
  const char *text =
      "# a block on a prismatic joint, a spring-damper to the ground point (0, 0)\n"
      "gravity: [0, 0]\n"
      "bodies:\n"
      "  - {name: block, mass: 2, inertia: 0.05, position: [1.3, 0], angle: 0}\n"
      "joints:\n"
      "  - {name: S, type: prismatic, body1: block, point1: [0, 0], body2: ground, "
      "point2: [0, 0], axis: [1, 0]}\n"
      "forces:\n"
      "  - {type: spring, body1: block, point1: [0, 0], body2: ground, point2: [0, 0], "
      "stiffness: 50, length: 1, damping: 1.5}\n";
  double q0[3], v0[3];
  sk_multibody *mech = load_text_state(ctx, dir, "sd.yaml", text, path, sizeof path, 0.0, q0, v0);
  if (!mech) {
    return;
  }
  const double w = sqrt(k / mass), zeta = c / (2 * mass * w), wd = w * sqrt(1 - zeta * zeta);
  const double A = x0 - L, E0 = 0.5 * k * A * A;
  enum { NOUT = 60 };
  static const double tol[2] = {RTOL, 1e-10};
  for (int tl = 0; tl < 2; tl++) {
    for (int f = 0; f < 3; f++) {
      const run_set rs = {
          .f = (sk_multibody_formulation)f, .rtol = tol[tl], .atol = 1e-2 * tol[tl]};
      rec r;
      sk_multibody_report rep;
      if (!ran(ctx, simulate(ctx, mech, &rs, q0, v0, 3.0, NOUT, &r, &rep))) {
        continue;
      }
      double ex = 0.0, ev = 0.0, ew_own = 0.0, ew_cf = 0.0, dE_end = 0.0;
      int negative = 1;
      for (int j = 0; j <= NOUT; j++) {
        const double t = r.t[j], e = exp(-zeta * w * t), cs = cos(wd * t), sn = sin(wd * t);
        const double x = L + A * e * (cs + zeta * w / wd * sn);
        const double xd = -A * e * (w * w / wd) * sn; /* d/dt of the above */
        const double dE = 0.5 * mass * xd * xd + 0.5 * k * (x - L) * (x - L) - E0;
        /* E of the run's own state, written out here (the block moves along x only) */
        const double xs = r.q[3 * j], vs = r.v[3 * j];
        const double dEs = 0.5 * mass * vs * vs + 0.5 * k * (xs - L) * (xs - L) - E0;
        ex = fmax(ex, fabs(xs - x));
        ev = fmax(ev, fabs(vs - xd));
        if (j > 0) {
          negative = negative && r.w[j] < 0 && dE < 0 && dEs < 0;
          ew_own = fmax(ew_own, fabs(r.w[j] - dEs) / fabs(dEs));
          ew_cf = fmax(ew_cf, fabs(r.w[j] - dE) / fabs(dE));
        }
        dE_end = dE;
      }
      printf("spring-damper %-7s rtol %.0e: max error x %.3e, v %.3e; W(3) %.12f, E(3) - E(0) "
             "%.12f (closed form); max |W - (E - E0)| / |E - E0|: own state %.3e, closed form "
             "%.3e; balance %.3e (scale %.4g), steps %lld\n",
             fname[f], tol[tl], ex, ev, r.w[NOUT], dE_end, ew_own, ew_cf, rep.balance_max,
             rep.energy_scale, (long long)rep.stats.steps);
      CHECK(negative);
      CHECK(rep.balance_max < 1e-6);
      if (tl == 0) { /* the states good to ~1e-7 relative, E - E0 - W to ~1e-6 of E - E0 */
        CHECK(ex < 1e-6);
        CHECK(ew_own < 1e-5);
      } else {
        CHECK(ex < 1e-8);
        CHECK(ew_own < 1e-7);
        CHECK(ew_cf < 1e-7);
        CHECK(rep.balance_max < 1e-7);
      }
      rec_free(&r);
    }
  }
  sk_multibody_destroy(&mech);
  remove(path);
}

/* 4. A heavy boom: 10 t, 20 m (J = 3.33333333333333e5), pinned at its end, released
 * horizontally. E = T + V stays near 0 while T reaches m g L / 2 ~ 1e6 J, so the balance
 * must be measured against the energies in play (rep.balance_max < 1e-6). The swing is a
 * physical pendulum of amplitude pi / 2: with I = J + m (L/2)^2 and w0^2 = m g (L/2) / I, it
 * reaches the bottom at t_b = K(sin(pi / 4)) / w0 = pi / (2 w0 AGM(1, cos(pi / 4))) (the
 * complete elliptic integral by the arithmetic-geometric mean), with T = m g L / 2 and the
 * centroid at (0, -L/2), and the other horizontal at 2 t_b, at rest with the centroid at
 * (-L/2, 0). The outputs are t_b k / 50, k = 1 .. 100. Positions are compared relative to
 * L = 20 m: against the closed form and between the formulations to 1e-7 L. At the test's
 * rtol 1e-8 the reduced formulation's own error reaches ~1.3e-7 L over the swing (it scales
 * with rtol: ~2e-8 L at 1e-9), so those comparisons run at rtol 1e-9; the balance is checked
 * at both. */
static void test_heavy_boom(sk_context *ctx, const char *dir)
{
  const double mass = 1.0e4, J = 3.33333333333333e5, Lb = 20.0, d = Lb / 2;
  char path[1100];
  const char *text = "# a 10 t crane boom of 20 m pinned at its end, released horizontally\n"
                     "gravity: [0, -9.81]\n"
                     "bodies:\n"
                     "  - {name: boom, mass: 1.0e4, inertia: 3.33333333333333e5, "
                     "position: [10, 0], angle: 0}\n"
                     "joints:\n"
                     "  - {name: O, type: revolute, body1: boom, point1: [-10, 0], "
                     "body2: ground, point2: [0, 0]}\n";
  double q0[3], v0[3];
  sk_multibody *mech =
      load_text_state(ctx, dir, "heavy.yaml", text, path, sizeof path, 0.0, q0, v0);
  if (!mech) {
    return;
  }
  const double I = J + mass * d * d, w0 = sqrt(mass * GRAV * d / I);
  const double tb = PI / (2 * w0 * agm(1.0, cos(PI / 4))), Tb_exact = mass * GRAV * d;
  enum { NOUT = 100 };
  double times[NOUT];
  for (int k = 0; k < NOUT; k++) {
    times[k] = tb * (k + 1) / (NOUT / 2);
  }
  static const double tol[2] = {RTOL, 1e-9};
  for (int tl = 0; tl < 2; tl++) {
    rec r[3];
    int ok[3] = {0};
    for (int f = 0; f < 3; f++) {
      const run_set rs = {
          .f = (sk_multibody_formulation)f, .rtol = tol[tl], .atol = 1e-2 * tol[tl]};
      sk_multibody_report rep;
      if (!ran(ctx, simulate_at(ctx, mech, &rs, 0.0, q0, v0, times, NOUT, &r[f], &rep))) {
        continue;
      }
      ok[f] = 1;
      double T, V, Tmax = 0.0, Emax = 0.0;
      for (int k = 0; k <= NOUT; k++) {
        sk_multibody_energy(mech, r[f].q + 3 * k, r[f].v + 3 * k, &T, &V);
        Tmax = fmax(Tmax, T);
        Emax = fmax(Emax, fabs(T + V));
      }
      const double *qb = r[f].q + 3 * (NOUT / 2), *qe = r[f].q + 3 * NOUT;
      double Tb, Vb;
      sk_multibody_energy(mech, qb, r[f].v + 3 * (NOUT / 2), &Tb, &Vb);
      const double vend = hypot(r[f].v[3 * NOUT], r[f].v[3 * NOUT + 1]);
      const double eb = fmax(fabs(qb[0]), fabs(qb[1] + d)),
                   ee = fmax(fabs(qe[0] + d), fabs(qe[1]));
      printf("heavy boom %-7s rtol %.0e: balance %.3e (scale %.4g J), max |E| %.3e J, max T "
             "%.6e J; at t_b = %.9f: centroid off (0, -10) by %.3e L, T %.9e (m g L / 2 = "
             "%.9e, rel %.3e); at 2 t_b: centroid off (-10, 0) by %.3e L, speed %.3e; "
             "repartitions %d, steps %lld\n",
             fname[f], tol[tl], rep.balance_max, rep.energy_scale, Emax, Tmax, tb, eb / Lb, Tb,
             Tb_exact, fabs(Tb - Tb_exact) / Tb_exact, ee / Lb, vend, rep.repartitions,
             (long long)rep.stats.steps);
      CHECK(rep.balance_max < 1e-6);
      CHECK(Tmax > 0.9e6);
      CHECK(Emax < 1e-6 * Tmax);
      if (tl == 1) {
        CHECK(eb < 1e-7 * Lb);
        CHECK(ee < 1e-7 * Lb);
        CHECK_NEAR(Tb, Tb_exact, 1e-7, 0);
      }
    }
    for (int a = 0; a < 3; a++) {
      for (int b = a + 1; b < 3; b++) {
        if (!ok[a] || !ok[b]) {
          continue;
        }
        double dq = 0.0;
        for (int k = 0; k <= NOUT; k++) {
          dq = fmax(dq, fmax(fabs(r[a].q[3 * k] - r[b].q[3 * k]),
                             fabs(r[a].q[3 * k + 1] - r[b].q[3 * k + 1])));
        }
        printf("heavy boom rtol %.0e: %s vs %s: max position difference %.3e m = %.3e L\n",
               tol[tl], fname[a], fname[b], dq, dq / Lb);
        if (tl == 1) {
          CHECK(dq < 1e-7 * Lb);
        }
      }
    }
    rec_free_ok(r, ok, 3);
  }
  sk_multibody_destroy(&mech);
  remove(path);
}

/* 5. Events without an action do not restart the engine: the four-bar's event crank_top (the
 * crank's centroid y crosses 0.04). The crank angle is 2 pi t (its driver), so its centroid
 * y = 0.05 sin(2 pi t) crosses 0.04 at t = asin(0.8) / (2 pi) + k (rising) and
 * (pi - asin(0.8)) / (2 pi) + k (falling): four crossings over [0, 2]. The count is also taken
 * from the sign changes of y_crank - 0.04 at 2000 outputs. */
static void test_fourbar_events(sk_context *ctx)
{
  double q0[9], v0[9];
  sk_multibody *mech = load_rel_state(ctx, "data/mechanisms/fourbar.yaml", q0, v0);
  if (!mech) {
    return;
  }
  CHECK_EQ_INT(sk_multibody_nevents(mech), 1);
  const int crank = body_index(mech, "crank");
  CHECK(crank >= 0);
  if (crank < 0) {
    sk_multibody_destroy(&mech);
    return;
  }
  const double a8 = asin(0.8);
  const double te[4] = {a8 / (2 * PI), (PI - a8) / (2 * PI), 1 + a8 / (2 * PI),
                        1 + (PI - a8) / (2 * PI)};
  enum { NOUT = 2000 };
  for (int f = 0; f < 3; f++) {
    rec r;
    sk_multibody_report rep;
    if (!run_f(ctx, mech, f, q0, v0, 2.0, NOUT, &r, &rep)) {
      continue;
    }
    int changes = 0;
    for (int k = 0; k < NOUT; k++) {
      const double g0 = r.q[9 * k + 3 * crank + 1] - 0.04;
      const double g1 = r.q[9 * (k + 1) + 3 * crank + 1] - 0.04;
      changes += (g0 < 0) != (g1 < 0);
    }
    double et = 0.0;
    int idx_ok = 1, dir_ok = 1;
    for (int k = 0; k < rep.nevents && k < 4; k++) {
      et = fmax(et, fabs(rep.events[k].t - te[k]));
      idx_ok = idx_ok && rep.events[k].index == 0;
      dir_ok = dir_ok && rep.events[k].direction == (k % 2 == 0 ? 1 : -1);
    }
    printf("four-bar events %-7s: %d located (%d sign changes at the outputs), restarts %d; "
           "times",
           fname[f], rep.nevents, changes, rep.restarts);
    for (int k = 0; k < rep.nevents && k < SK_MULTIBODY_MAX_EVENT_LOG; k++) {
      printf(" %.12f", rep.events[k].t);
    }
    printf("; max error against the closed form %.3e\n", et);
    CHECK_EQ_INT(changes, 4);
    CHECK_EQ_INT(rep.nevents, changes);
    CHECK_EQ_INT(rep.restarts, 0);
    /* index 1 without stabilization drifts off the constraints (~1e-8, the four-bar test
       above), and its crank's y with them: its event times are good to ~1e-8 only */
    CHECK(rep.nevents >= 4 && et < (f == SK_MULTIBODY_INDEX1 ? 1e-7 : 1e-8));
    CHECK(idx_ok);
    CHECK(dir_ok);
    rec_free(&r);
  }
  sk_multibody_destroy(&mech);
}

/* Engine choices (sk_multibody_check_method, as documented in multibody.h): GGL needs a DAE
 * engine, projection the index-1 formulation and cvode-bdf, the engine must exist; a refused
 * choice makes sk_multibody_simulate return before any output. */
static void test_check_method(sk_context *ctx)
{
  sk_multibody *mech = load_rel(ctx, "data/mechanisms/fourbar.yaml");
  if (!mech) {
    return;
  }
  static const struct {
    sk_multibody_formulation f;
    int project;
    const char *method;
    sk_status want;
    const char *text;
  } c[] = {
      {SK_MULTIBODY_GGL, 0, "ida-bdf", SK_OK, NULL},
      {SK_MULTIBODY_INDEX1, 1, "cvode-bdf", SK_OK, NULL},
      {SK_MULTIBODY_REDUCED, 0, "cvode-bdf", SK_OK, NULL},
      {SK_MULTIBODY_GGL, 0, "rk4", SK_ERR_UNSUPPORTED, "is a DAE"},
      {SK_MULTIBODY_GGL, 1, "ida-bdf", SK_ERR_INPUT, "applies to the index1 formulation only"},
      {SK_MULTIBODY_REDUCED, 1, "cvode-bdf", SK_ERR_INPUT,
       "applies to the index1 formulation only"},
      {SK_MULTIBODY_INDEX1, 1, "cvode-adams", SK_ERR_UNSUPPORTED, "needs cvode-bdf"},
      {SK_MULTIBODY_INDEX1, 0, "no-such-engine", SK_ERR_INPUT,
       "no engine named 'no-such-engine'"},
  };
  for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
    const sk_multibody_settings s = {
        .formulation = c[k].f, .cond_limit = 1e6, .project = c[k].project};
    sk_context_clear_error(ctx);
    const sk_status st = sk_multibody_check_method(mech, &s, c[k].method);
    printf("check_method %s%s with %s: %s%s%s\n", fname[c[k].f],
           c[k].project ? " (projection)" : "", c[k].method, sk_status_name(st),
           st != SK_OK ? ": " : "", st != SK_OK ? msg(ctx) : "");
    CHECK_EQ_INT(st, c[k].want);
    if (c[k].text) {
      CHECK_STR_CONTAINS(msg(ctx), c[k].text);
    }
  }
  /* sk_multibody_simulate refuses the same choice before its first output */
  double q0[9], v0[9];
  if (initial_state(ctx, mech, 0.0, q0, v0)) {
    const sk_multibody_settings s = {.formulation = SK_MULTIBODY_GGL, .cond_limit = 1e6};
    const double times[1] = {0.1};
    rec r = {0};
    sk_multibody_report rep;
    sk_context_clear_error(ctx);
    const sk_status st = sk_multibody_simulate(mech, &s, 0, "rk4", RTOL, ATOL, NULL, 0.0, q0, v0,
                                               times, 1, rec_out, &r, &rep);
    CHECK_EQ_INT(st, SK_ERR_UNSUPPORTED);
    CHECK_EQ_INT(r.count, 0); /* cap 0: an output would have stopped the run instead */
  }
  sk_multibody_destroy(&mech);
}

/* 6. A driver without derivative formulas far from t = 0: a wheel pinned at its centroid, its
 * angle driven with "sin(2*pi*t)" only (velocity and acceleration from the library's
 * differences), simulated over [100, 100.5] from t0 = 100. The angle must be sin(2 pi t), the
 * angular velocity 2 pi cos(2 pi t), and the driver's multiplier (the torque on the wheel) J
 * times the angular acceleration, -J (2 pi)^2 sin(2 pi t). */
static void test_driver_differences(sk_context *ctx, const char *dir)
{
  const double J = 0.02, t0 = 100.0;
  char path[1100];
  const char *text = "# a wheel pinned at its centroid, its angle driven with sin(2 pi t) only\n"
                     "gravity: [0, -9.81]\n"
                     "bodies:\n"
                     "  - {name: wheel, mass: 1, inertia: 0.02, position: [0, 0], angle: 0, "
                     "omega: 6.283185307179586}\n"
                     "joints:\n"
                     "  - {name: O, type: revolute, body1: wheel, point1: [0, 0], body2: ground, "
                     "point2: [0, 0]}\n"
                     "drivers:\n"
                     "  - {joint: O, position: \"sin(2*pi*t)\"}\n";
  double q0[3], v0[3];
  sk_multibody *mech = load_text_state(ctx, dir, "drv.yaml", text, path, sizeof path, t0, q0, v0);
  if (!mech) {
    return;
  }
  const int m = sk_multibody_nconstraints(mech);
  CHECK_EQ_INT(m, 3);
  if (m != 3) {
    sk_multibody_destroy(&mech);
    remove(path);
    return;
  }
  enum { NOUT = 50 };
  double times[NOUT];
  for (int k = 0; k < NOUT; k++) {
    times[k] = t0 + 0.5 * (k + 1) / NOUT;
  }
  for (int f = 0; f < 3; f++) {
    const run_set rs = {.f = (sk_multibody_formulation)f};
    rec r;
    sk_multibody_report rep;
    if (!ran(ctx, simulate_at(ctx, mech, &rs, t0, q0, v0, times, NOUT, &r, &rep))) {
      continue;
    }
    double eph = 0.0, eom = 0.0, etq = 0.0;
    const double tq_scale = J * 4 * PI * PI;
    for (int k = 0; k <= NOUT; k++) {
      const double t = r.t[k];
      eph = fmax(eph, fabs(r.q[3 * k + 2] - sin(2 * PI * t)));
      eom = fmax(eom, fabs(r.v[3 * k + 2] - 2 * PI * cos(2 * PI * t)));
      etq = fmax(etq, fabs(r.lam[m * k + m - 1] + tq_scale * sin(2 * PI * t)));
    }
    printf("driver differences at t = 100 %-7s: t from %.1f to %.3f, max error angle %.3e, "
           "angular velocity %.3e, driver torque %.3e (of %.4g); steps %lld\n",
           fname[f], r.t[0], r.t[NOUT], eph, eom, etq, tq_scale, (long long)rep.stats.steps);
    CHECK_NEAR(r.t[0], t0, 0, 0);
    CHECK_NEAR(r.t[NOUT], t0 + 0.5, 0, 1e-12);
    CHECK(eph < 1e-6);
    CHECK(eom < 1e-5);
    CHECK(etq < 1e-5 * tq_scale);
    rec_free(&r);
  }
  sk_multibody_destroy(&mech);
  remove(path);
}

int main(void)
{
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK) {
    return 2;
  }
  char dir[512];
  test_tmpdir(dir, sizeof dir, "multibody");
  test_pendulum_rk4(ctx);
  test_pendulum_period(ctx, dir);
  test_double_pendulum(ctx);
  test_slider_crank(ctx);
  test_fourbar(ctx);
  test_toggle(ctx, dir);
  test_consistent_init(ctx);
  test_bad_mechanisms(ctx);
  test_bead(ctx, dir);
  test_prismatic_driver_sign(ctx, dir);
  test_spring_damper(ctx, dir);
  test_heavy_boom(ctx, dir);
  test_fourbar_events(ctx);
  test_check_method(ctx);
  test_driver_differences(ctx, dir);
  rmdir(dir);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

/* tests/parity/test_parity_events.c: event handling of cvode-bdf and ida-bdf against the same problems solved by plain CVODE / IDA calls in normal (and one-step) mode: root directions, simultaneous roots, a root at t0, roots at output times, many outputs per step, event actions, stop time, interrupted advances */
#include <cvodes/cvodes.h>
#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include "backends/sundials_backend.h" /* the 6.x/7.x compatibility and message capture */
#include "test.h"

/* Expected: stiffkit's sk_stepper_advance is CVode(CV_NORMAL) (IDASolve
 * (IDA_NORMAL) for ida-bdf) and its sk_stepper_step CVode(CV_ONE_STEP)
 * (IDA_ONE_STEP), so each problem below gives bitwise the same event log
 * (times, indices, directions), the same states at the output times and
 * after the single steps, and the same step and evaluation counts through
 * stiffkit as through a plain SUNDIALS program written as the SUNDIALS
 * examples are (dense linear solver with the package's difference-quotient
 * Jacobian, the packaged vector kernels; IDA integrates the ODE as
 * F = y' - f(t, y), y'(t0) = f(t0, y0), as ida-bdf does). The plain
 * program's loop: CVode / IDASolve(tout, normal mode); at a root return
 * the flags are logged and, for a model with an action, the switch is
 * changed and the package restarted there (CVodeReInit; IDAReInit with
 * y' = f of the new switch state); a root exactly at tout is also that
 * output. */

#define MAXN 4
#define MAXEV 4
#define MAXOUT 400
#define MAXLOG 256

typedef struct {
  double t;
  int index, direction;
} logged;

typedef struct {
  const char *name;
  int n, nev;
  int action; /* event 0 flips the switch (the RHS depends on it) */
  double y0[MAXN];
  double rtol, atol;
  double tstop; /* 0: none */
  int nout;
  double tout[MAXOUT];
  int nsteps; /* single steps (sk_stepper_step; CV_ONE_STEP, IDA_ONE_STEP) after the outputs */
  int (*rhs)(double t, const double *y, double *f, void *ud);
  int (*g)(double t, const double *y, double *g, void *ud);
} problem;

typedef struct {
  int on;      /* the switch */
  long gevals; /* root function calls */
} switch_state;

typedef struct {
  double y[MAXOUT][MAXN];
  double tstep[MAXOUT]; /* the single steps' times */
  logged log[MAXLOG];
  int nlog;
  long steps, rhs_evals, gevals;
  int ok;
} result;

/* ---- the problems ----------------------------------------------------------- */

/* y1' = y2, y2' = -y1: y1 = cos t falls through 0 at pi/2, rises at 3 pi/2, ... */
static int osc_rhs(double t, const double *y, double *f, void *ud)
{
  (void)t;
  (void)ud;
  f[0] = y[1];
  f[1] = -y[0];
  return 0;
}

/* g0 = y1 (alternating directions), g1 = y1 again (simultaneous with g0),
 * g2 = y1 - 1 (zero at t0, where CVODE does not report it, and touched
 * again, without a sign change, at 2 pi), g3 = y2 + 0.5 */
static int osc_g(double t, const double *y, double *g, void *ud)
{
  (void)t;
  ((switch_state *)ud)->gevals++;
  g[0] = y[0];
  g[1] = y[0];
  g[2] = y[0] - 1.0;
  g[3] = y[1] + 0.5;
  return 0;
}

/* y' = -y, with time events at t = 1 and t = 2.5, both output times */
static int decay_rhs(double t, const double *y, double *f, void *ud)
{
  (void)t;
  (void)ud;
  f[0] = -y[0];
  return 0;
}

static int decay_g(double t, const double *y, double *g, void *ud)
{
  (void)y;
  ((switch_state *)ud)->gevals++;
  g[0] = t - 1.0;
  g[1] = t - 2.5;
  return 0;
}

/* a thermostat: T' = (20 - T) / 10 + 10 s, s switched off rising through 60, on falling
   through 40 */
static int thermo_rhs(double t, const double *y, double *f, void *ud)
{
  (void)t;
  f[0] = (20.0 - y[0]) / 10.0 + (((switch_state *)ud)->on ? 10.0 : 0.0);
  return 0;
}

static int thermo_g(double t, const double *y, double *g, void *ud)
{
  (void)t;
  switch_state *sw = ud;
  sw->gevals++;
  g[0] = y[0] - (sw->on ? 60.0 : 40.0);
  return 0;
}

/* ---- stiffkit --------------------------------------------------------------- */

typedef struct {
  const problem *p;
  switch_state *sw;
} sk_user;

static int sk_rhs_cb(double t, const double *y, double *f, void *ud)
{
  const sk_user *u = ud;
  return u->p->rhs(t, y, f, u->sw);
}

static int sk_g_cb(double t, const double *y, double *g, void *ud)
{
  const sk_user *u = ud;
  return u->p->g(t, y, g, u->sw);
}

static int sk_action_cb(double t, const double *y, const int *fired, void *ud)
{
  (void)t;
  (void)y;
  const sk_user *u = ud;
  if (!fired) { /* the start of the run */
    u->sw->on = 1;
  } else if (fired[0]) {
    u->sw->on = !u->sw->on;
  }
  return 0;
}

static int sk_initial_cb(double t0, double *y, void *ud)
{
  (void)t0;
  const sk_user *u = ud;
  memcpy(y, u->p->y0, (size_t)u->p->n * sizeof *y);
  return 0;
}

/* every `every`-th step interrupts the advance (0: never) */
typedef struct {
  int every;
  long seen;
} interrupter;

static int interrupt_monitor(const sk_stepper *s, double t, double h, void *ud)
{
  (void)s;
  (void)t;
  (void)h;
  interrupter *it = ud;
  return it->every > 0 && ++it->seen % it->every == 0;
}

static void run_stiffkit(sk_context *ctx, const problem *p, const char *method,
                         int interrupt_every, result *r)
{
  memset(r, 0, sizeof *r);
  switch_state sw = {0, 0};
  sk_user u = {p, &sw};
  sk_model *m = NULL;
  sk_stepper *s = NULL;
  interrupter it = {interrupt_every, 0};
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, p->n, &m));
  CHECK_OK(ctx, sk_model_set_user_data(m, &u, NULL));
  CHECK_OK(ctx, sk_model_set_rhs(m, sk_rhs_cb));
  CHECK_OK(ctx, sk_model_set_initial(m, sk_initial_cb));
  CHECK_OK(ctx, sk_model_set_events(m, p->nev, sk_g_cb, p->action ? sk_action_cb : NULL));
  CHECK_OK(ctx, sk_stepper_create(ctx, method, m, &s));
  if (!s) {
    sk_model_destroy(&m);
    return;
  }
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, p->rtol, p->atol));
  CHECK_OK(ctx, sk_stepper_set_linear_solver(s, "dense"));
  CHECK_OK(ctx, sk_stepper_set_vector_kernels(s, SK_VECTOR_KERNELS_OFF));
  CHECK_OK(ctx, sk_stepper_set_detect_pattern(s, SK_DETECT_PATTERN_OFF));
  CHECK_OK(ctx, sk_stepper_set_max_steps(s, 0));
  if (p->tstop > 0) {
    CHECK_OK(ctx, sk_stepper_set_stop_time(s, p->tstop));
  }
  CHECK_OK(ctx, sk_stepper_set_monitor(s, interrupt_monitor, &it));
  r->ok = 1;
  int interruptions = 0;
  for (int k = 0; r->ok && k < p->nout; k++) {
    double t;
    sk_status st;
    while ((st = sk_stepper_advance(s, p->tout[k], &t)) == SK_INTERRUPTED) {
      interruptions++; /* resumed where it stopped */
    }
    CHECK_OK(ctx, st);
    r->ok = st == SK_OK;
    CHECK(t == p->tout[k]);
    memcpy(r->y[k], sk_stepper_get_state(s), (size_t)p->n * sizeof(double));
  }
  for (int k = 0; r->ok && k < p->nsteps; k++) {
    double t;
    sk_status st = sk_stepper_step(s, p->tout[p->nout - 1] + 100.0, &t);
    if (st == SK_INTERRUPTED) {
      st = SK_OK; /* the step was taken */
      interruptions++;
    }
    CHECK_OK(ctx, st);
    r->ok = st == SK_OK;
    r->tstep[k] = t;
  }
  if (interrupt_every > 0) {
    CHECK(interruptions > 0);
  }
  const sk_event_record *ev;
  size_t nev;
  sk_stepper_get_events(s, &ev, &nev);
  for (size_t k = 0; k < nev && r->nlog < MAXLOG; k++) {
    r->log[r->nlog++] = (logged){ev[k].t, ev[k].index, ev[k].direction};
  }
  sk_stats st;
  CHECK_OK(ctx, sk_stepper_get_stats(s, &st));
  r->steps = st.steps;
  r->rhs_evals = st.rhs_evals;
  r->gevals = sw.gevals;
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
}

/* ---- plain CVODE ------------------------------------------------------------ */

typedef struct {
  const problem *p;
  switch_state sw;
} plain_user;

static int cv_rhs(sunrealtype t, N_Vector y, N_Vector f, void *ud)
{
  plain_user *u = ud;
  return u->p->rhs(t, N_VGetArrayPointer(y), N_VGetArrayPointer(f), &u->sw);
}

static int cv_g(sunrealtype t, N_Vector y, sunrealtype *g, void *ud)
{
  plain_user *u = ud;
  return u->p->g(t, N_VGetArrayPointer(y), g, &u->sw);
}

/* The counters of the runs before the last CVodeReInit (which zeroes them). */
typedef struct {
  long steps, rhs_evals;
} counters;

static void add_counters(void *mem, counters *c)
{
  long nst = 0, nfe = 0, nfels = 0;
  CVodeGetNumSteps(mem, &nst);
  CVodeGetNumRhsEvals(mem, &nfe);
  CVodeGetNumLinRhsEvals(mem, &nfels);
  c->steps += nst;
  c->rhs_evals += nfe + nfels;
}

static void log_roots(void *mem, const problem *p, double t, result *r, plain_user *u, N_Vector y,
                      counters *before)
{
  int found[MAXEV] = {0};
  CHECK(CVodeGetRootInfo(mem, found) == CV_SUCCESS);
  for (int i = 0; i < p->nev; i++) {
    if (found[i] && r->nlog < MAXLOG) {
      r->log[r->nlog++] = (logged){t, i, found[i] > 0 ? 1 : -1};
    }
  }
  if (p->action && found[0]) {
    u->sw.on = !u->sw.on;
  }
  if (p->action) { /* what stiffkit does for a model with an action */
    add_counters(mem, before);
    CHECK(CVodeReInit(mem, t, y) == CV_SUCCESS);
  }
}

static void run_cvode(const problem *p, result *r)
{
  memset(r, 0, sizeof *r);
  SUNContext sunctx = NULL;
  CHECK(SK_SUNCONTEXT_CREATE(&sunctx) == 0);
  counters before = {0, 0};
  sk__sundials_messages quiet; /* CVODE's warnings (a root function zero at t0) */
  plain_user u = {p, {p->action ? 1 : 0, 0}};
  N_Vector y = N_VNew_Serial(p->n, sunctx);
  memcpy(N_VGetArrayPointer(y), p->y0, (size_t)p->n * sizeof(double));
  void *mem = CVodeCreate(CV_BDF, sunctx);
  CHECK(sk__cvode_capture_messages(mem, sunctx, &quiet) == 0);
  CHECK(CVodeInit(mem, cv_rhs, 0.0, y) == CV_SUCCESS);
  CHECK(CVodeSStolerances(mem, p->rtol, p->atol) == CV_SUCCESS);
  CHECK(CVodeSetUserData(mem, &u) == CV_SUCCESS);
  CHECK(CVodeSetMaxNumSteps(mem, 1000000) == CV_SUCCESS);
  CHECK(CVodeRootInit(mem, p->nev, cv_g) == CV_SUCCESS);
  SUNMatrix A = SUNDenseMatrix(p->n, p->n, sunctx);
  SUNLinearSolver LS = SUNLinSol_Dense(y, A, sunctx);
  CHECK(CVodeSetLinearSolver(mem, LS, A) == CV_SUCCESS);
  if (p->tstop > 0) {
    CHECK(CVodeSetStopTime(mem, p->tstop) == CV_SUCCESS);
  }
  r->ok = 1;
  for (int k = 0; r->ok && k < p->nout;) {
    sunrealtype t = 0;
    const int flag = CVode(mem, p->tout[k], y, &t, CV_NORMAL);
    r->ok = flag >= 0;
    CHECK(flag >= 0);
    if (flag == CV_ROOT_RETURN) {
      log_roots(mem, p, t, r, &u, y, &before);
    }
    if (r->ok && (flag != CV_ROOT_RETURN || t >= p->tout[k])) {
      memcpy(r->y[k], N_VGetArrayPointer(y), (size_t)p->n * sizeof(double));
      k++;
    }
  }
  for (int k = 0; r->ok && k < p->nsteps; k++) {
    sunrealtype t = 0;
    const int flag = CVode(mem, p->tout[p->nout - 1] + 100.0, y, &t, CV_ONE_STEP);
    r->ok = flag >= 0;
    CHECK(flag >= 0);
    if (flag == CV_ROOT_RETURN) {
      log_roots(mem, p, t, r, &u, y, &before);
    }
    r->tstep[k] = t;
  }
  add_counters(mem, &before);
  r->steps = before.steps;
  r->rhs_evals = before.rhs_evals;
  r->gevals = u.sw.gevals;
  CVodeFree(&mem);
  SUNLinSolFree(LS);
  SUNMatDestroy(A);
  N_VDestroy(y);
  SUNContext_Free(&sunctx);
}

/* ---- plain IDA ---------------------------------------------------------------- */

/* F = y' - f(t, y), in ida-bdf's order of operations */
static int ida_res(sunrealtype t, N_Vector y, N_Vector yp, N_Vector r, void *ud)
{
  plain_user *u = ud;
  double *rr = N_VGetArrayPointer(r);
  const double *ypp = N_VGetArrayPointer(yp);
  const int rc = u->p->rhs(t, N_VGetArrayPointer(y), rr, &u->sw);
  for (int i = 0; rc == 0 && i < u->p->n; i++) {
    rr[i] = ypp[i] - rr[i];
  }
  return rc;
}

static int ida_g(sunrealtype t, N_Vector y, N_Vector yp, sunrealtype *g, void *ud)
{
  (void)yp;
  plain_user *u = ud;
  return u->p->g(t, N_VGetArrayPointer(y), g, &u->sw);
}

static void ida_add_counters(void *mem, counters *c)
{
  long nst = 0, nre = 0, nrels = 0;
  IDAGetNumSteps(mem, &nst);
  IDAGetNumResEvals(mem, &nre);
  IDAGetNumLinResEvals(mem, &nrels);
  c->steps += nst;
  c->rhs_evals += nre + nrels;
}

static void ida_log_roots(void *mem, const problem *p, double t, result *r, plain_user *u,
                          N_Vector y, N_Vector yp, counters *before)
{
  int found[MAXEV] = {0};
  CHECK(IDAGetRootInfo(mem, found) == IDA_SUCCESS);
  for (int i = 0; i < p->nev; i++) {
    if (found[i] && r->nlog < MAXLOG) {
      r->log[r->nlog++] = (logged){t, i, found[i] > 0 ? 1 : -1};
    }
  }
  if (p->action && found[0]) {
    u->sw.on = !u->sw.on;
  }
  if (p->action) {
    ida_add_counters(mem, before);
    p->rhs(t, N_VGetArrayPointer(y), N_VGetArrayPointer(yp), &u->sw);
    CHECK(IDAReInit(mem, t, y, yp) == IDA_SUCCESS);
  }
}

static void run_ida(const problem *p, result *r)
{
  memset(r, 0, sizeof *r);
  SUNContext sunctx = NULL;
  CHECK(SK_SUNCONTEXT_CREATE(&sunctx) == 0);
  counters before = {0, 0};
  sk__sundials_messages quiet;
  plain_user u = {p, {p->action ? 1 : 0, 0}};
  N_Vector y = N_VNew_Serial(p->n, sunctx), yp = N_VClone(y);
  memcpy(N_VGetArrayPointer(y), p->y0, (size_t)p->n * sizeof(double));
  p->rhs(0.0, N_VGetArrayPointer(y), N_VGetArrayPointer(yp), &u.sw);
  void *mem = IDACreate(sunctx);
  CHECK(sk__ida_capture_messages(mem, sunctx, &quiet) == 0);
  CHECK(IDAInit(mem, ida_res, 0.0, y, yp) == IDA_SUCCESS);
  CHECK(IDASStolerances(mem, p->rtol, p->atol) == IDA_SUCCESS);
  CHECK(IDASetUserData(mem, &u) == IDA_SUCCESS);
  CHECK(IDASetMaxNumSteps(mem, 1000000) == IDA_SUCCESS);
  CHECK(IDARootInit(mem, p->nev, ida_g) == IDA_SUCCESS);
  SUNMatrix A = SUNDenseMatrix(p->n, p->n, sunctx);
  SUNLinearSolver LS = SUNLinSol_Dense(y, A, sunctx);
  CHECK(IDASetLinearSolver(mem, LS, A) == IDA_SUCCESS);
  if (p->tstop > 0) {
    CHECK(IDASetStopTime(mem, p->tstop) == IDA_SUCCESS);
  }
  r->ok = 1;
  for (int k = 0; r->ok && k < p->nout;) {
    sunrealtype t = 0;
    const int flag = IDASolve(mem, p->tout[k], &t, y, yp, IDA_NORMAL);
    r->ok = flag >= 0;
    CHECK(flag >= 0);
    if (flag == IDA_ROOT_RETURN) {
      ida_log_roots(mem, p, t, r, &u, y, yp, &before);
    }
    if (r->ok && (flag != IDA_ROOT_RETURN || t >= p->tout[k])) {
      memcpy(r->y[k], N_VGetArrayPointer(y), (size_t)p->n * sizeof(double));
      k++;
    }
  }
  for (int k = 0; r->ok && k < p->nsteps; k++) {
    sunrealtype t = 0;
    const int flag = IDASolve(mem, p->tout[p->nout - 1] + 100.0, &t, y, yp, IDA_ONE_STEP);
    r->ok = flag >= 0;
    CHECK(flag >= 0);
    if (flag == IDA_ROOT_RETURN) {
      ida_log_roots(mem, p, t, r, &u, y, yp, &before);
    }
    r->tstep[k] = t;
  }
  ida_add_counters(mem, &before);
  r->steps = before.steps;
  r->rhs_evals = before.rhs_evals;
  r->gevals = u.sw.gevals;
  IDAFree(&mem);
  SUNLinSolFree(LS);
  SUNMatDestroy(A);
  N_VDestroy(y);
  N_VDestroy(yp);
  SUNContext_Free(&sunctx);
}

/* ---- comparison --------------------------------------------------------------- */

static void compare(const problem *p, const result *a, const result *b, const char *what)
{
  printf("%-28s %-22s: %d events, %ld steps, %ld RHS, %ld root evaluations (plain: %d, %ld, "
         "%ld, %ld)\n",
         p->name, what, a->nlog, a->steps, a->rhs_evals, a->gevals, b->nlog, b->steps,
         b->rhs_evals, b->gevals);
  CHECK(a->ok && b->ok);
  CHECK_EQ_INT(a->nlog, b->nlog);
  for (int k = 0; k < a->nlog && k < b->nlog; k++) {
    if (a->log[k].t != b->log[k].t || a->log[k].index != b->log[k].index ||
        a->log[k].direction != b->log[k].direction) {
      fprintf(stderr, "%s %s: event %d: stiffkit (%.17g, g%d, %+d), plain (%.17g, g%d, %+d)\n",
              p->name, what, k, a->log[k].t, a->log[k].index, a->log[k].direction, b->log[k].t,
              b->log[k].index, b->log[k].direction);
      sk_test_failures++;
    }
  }
  int bad = 0;
  for (int k = 0; k < p->nout; k++) {
    for (int i = 0; i < p->n; i++) {
      bad += a->y[k][i] != b->y[k][i];
    }
  }
  for (int k = 0; k < p->nsteps; k++) {
    bad += a->tstep[k] != b->tstep[k];
  }
  if (bad) {
    fprintf(stderr, "%s %s: %d output values or step times differ\n", p->name, what, bad);
    sk_test_failures++;
  }
  CHECK_EQ_INT(a->steps, b->steps);
  CHECK_EQ_INT(a->rhs_evals, b->rhs_evals);
  CHECK_EQ_INT(a->gevals, b->gevals);
}

/* stiffkit's runs of p (cvode-bdf into *a, ida-bdf into *ai), each compared with the plain
 * package's and with an interrupted one of its own. */
static void check_problem(sk_context *ctx, const problem *p, int min_events, result *a,
                          result *ai)
{
  static result b, c;
  run_cvode(p, &b);
  run_stiffkit(ctx, p, "cvode-bdf", 0, a);
  compare(p, a, &b, "cvode-bdf");
  run_stiffkit(ctx, p, "cvode-bdf", 7, &c); /* interrupted every 7th step, resumed: the same */
  compare(p, &c, &b, "cvode-bdf interrupted");
  CHECK(a->nlog >= min_events);
  run_ida(p, &b);
  run_stiffkit(ctx, p, "ida-bdf", 0, ai);
  compare(p, ai, &b, "ida-bdf");
  run_stiffkit(ctx, p, "ida-bdf", 7, &c);
  compare(p, &c, &b, "ida-bdf interrupted");
  CHECK(ai->nlog >= min_events);
}

/* The oscillator's log (y1 = cos t, y2 = -sin t): g0 and g1 always together, falling at
 * pi/2 + 2 k pi and rising at 3 pi/2 + 2 k pi; g3 = y2 + 0.5 falling first at pi/6; g2
 * (zero at t0 and touched again at 2 pi) never. */
static void check_oscillator_log(const result *a, int min_pairs)
{
  const double pi = acos(-1.0);
  int pairs = 0;
  for (int k = 0; k < a->nlog; k++) {
    const logged *e = &a->log[k];
    CHECK(e->index != 2);
    if (e->index == 0) {
      CHECK(k + 1 < a->nlog && a->log[k + 1].index == 1 && a->log[k + 1].t == e->t &&
            a->log[k + 1].direction == e->direction);
      const int half = (int)floor(e->t / pi); /* pi/2 in [0, pi): falling; 3 pi/2: rising */
      CHECK_EQ_INT(e->direction, half % 2 == 0 ? -1 : 1);
      CHECK_NEAR(e->t, (half + 0.5) * pi, 0.0, 1e-4);
      pairs++;
    }
  }
  CHECK(pairs >= min_pairs);
  CHECK(a->nlog > 0 && a->log[0].index == 3 && a->log[0].direction == -1);
  CHECK_NEAR(a->nlog > 0 ? a->log[0].t : 0.0, pi / 6.0, 0.0, 1e-4);
}

int main(void)
{
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK) {
    return 1;
  }
  static problem osc = {.name = "oscillator, 200 outputs",
                        .n = 2,
                        .nev = 4,
                        .y0 = {1.0, 0.0},
                        .rtol = 1e-6,
                        .atol = 1e-9,
                        .nout = 200,
                        .nsteps = 40,
                        .rhs = osc_rhs,
                        .g = osc_g};
  for (int k = 0; k < osc.nout; k++) {
    osc.tout[k] = 0.05 * (k + 1); /* several outputs inside one step */
  }
  static result r, ri;
  check_problem(ctx, &osc, 10, &r, &ri);
  check_oscillator_log(&r, 4);
  check_oscillator_log(&ri, 4);

  static problem sparse = {.name = "oscillator, 3 outputs",
                           .n = 2,
                           .nev = 4,
                           .y0 = {1.0, 0.0},
                           .rtol = 1e-6,
                           .atol = 1e-9,
                           .nout = 3,
                           .tout = {0.1, 7.0, 20.0},
                           .nsteps = 10,
                           .rhs = osc_rhs,
                           .g = osc_g};
  check_problem(ctx, &sparse, 10, &r, &ri);
  check_oscillator_log(&r, 6);
  check_oscillator_log(&ri, 6);

  static problem stop = {.name = "oscillator, stop time 4",
                         .n = 2,
                         .nev = 4,
                         .y0 = {1.0, 0.0},
                         .rtol = 1e-6,
                         .atol = 1e-9,
                         .tstop = 4.0,
                         .nout = 3,
                         .tout = {0.5, 3.0, 4.0},
                         .rhs = osc_rhs,
                         .g = osc_g};
  check_problem(ctx, &stop, 3, &r, &ri);
  check_oscillator_log(&r, 1);
  check_oscillator_log(&ri, 1);
  CHECK(r.nlog > 0 && r.log[r.nlog - 1].t < 4.0);
  CHECK(ri.nlog > 0 && ri.log[ri.nlog - 1].t < 4.0);

  static problem decay = {.name = "time events at outputs",
                          .n = 1,
                          .nev = 2,
                          .y0 = {1.0},
                          .rtol = 1e-6,
                          .atol = 1e-9,
                          .nout = 6,
                          .tout = {0.5, 1.0, 1.5, 2.0, 2.5, 3.0},
                          .nsteps = 5,
                          .rhs = decay_rhs,
                          .g = decay_g};
  check_problem(ctx, &decay, 2, &r, &ri);
  /* the time events exactly at their output times, logged once each; the outputs there */
  for (int e = 0; e < 2; e++) {
    const result *x = e ? &ri : &r;
    CHECK_EQ_INT(x->nlog, 2);
    CHECK(x->log[0].t == 1.0 && x->log[0].index == 0 && x->log[0].direction == 1);
    CHECK(x->log[1].t == 2.5 && x->log[1].index == 1 && x->log[1].direction == 1);
    CHECK_NEAR(x->y[1][0], exp(-1.0), 1e-5, 0.0);
    CHECK_NEAR(x->y[4][0], exp(-2.5), 1e-5, 0.0);
  }

  static problem thermo = {.name = "thermostat (action)",
                           .n = 1,
                           .nev = 1,
                           .action = 1,
                           .y0 = {20.0},
                           .rtol = 1e-6,
                           .atol = 1e-8,
                           .nout = 41,
                           .nsteps = 30,
                           .rhs = thermo_rhs,
                           .g = thermo_g};
  for (int k = 0; k < thermo.nout; k++) {
    thermo.tout[k] = 0.5 * (k + 1);
  }
  check_problem(ctx, &thermo, 4, &r, &ri);
  /* heating to 60 from 20 toward 120: t = 10 ln(100 / 60); then alternating */
  for (int e = 0; e < 2; e++) {
    const result *x = e ? &ri : &r;
    CHECK_NEAR(x->log[0].t, 10.0 * log(100.0 / 60.0), 0.0, 1e-4);
    for (int k = 0; k < x->nlog; k++) {
      CHECK_EQ_INT(x->log[k].direction, k % 2 == 0 ? 1 : -1);
    }
  }

  sk_context_destroy(&ctx);
  TEST_RETURN();
}

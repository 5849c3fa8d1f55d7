/* tests/numerics/test_network.c: thermal networks from netlists against independent answers: RC exponential, chain and mesh against the matrix exponential, massless nodes against the reduced network, radiation against a hand-solved quartic, Jacobians against finite differences, the energy balance, the sheath-on-fixture example and a subcircuit-generated network */
#include <time.h>

#include "core/jacobian_check.h"
#include "test.h"

/* Integrate m through times[0..nt) with `method`; the state at each time into out[k * n]. */
static sk_status integrate(sk_context *ctx, sk_model *m, const char *method, double rtol,
                           double atol, const double *times, int nt, double *out, sk_stats *st)
{
  sk_stepper *s = NULL;
  sk_status rc = sk_stepper_create(ctx, method, m, &s);
  if (rc == SK_OK) {
    rc = sk_stepper_set_tolerances(s, rtol, atol);
  }
  const int64_t n = sk_model_get_n(m);
  for (int k = 0; k < nt && rc == SK_OK; k++) {
    double tret;
    rc = sk_stepper_advance(s, times[k], &tret);
    if (rc == SK_OK) {
      memcpy(out + (size_t)k * (size_t)n, sk_stepper_get_state(s), (size_t)n * sizeof *out);
    }
  }
  if (rc == SK_OK && st) {
    sk_stepper_get_stats(s, st);
  }
  sk_stepper_destroy(&s);
  return rc;
}

/* The model of a netlist text (energy states on). */
static sk_model *net(sk_context *ctx, const char *text)
{
  sk_network_params p;
  sk_network_params_default(&p);
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_network_create_from_string(ctx, text, "test.net", &p, &m));
  return m;
}

/* State index of node `name`. */
static int64_t node(const sk_model *m, const char *name)
{
  int64_t i = -1;
  CHECK(sk_network_find_node(m, name, &i) == SK_OK);
  return i;
}

/* ---- single RC node: T = 300 + 50 exp(-t / RC), RC = 1 s; the heat leaving
 * through the fixed node Q_out = int (T - 300)/R dt = 100 (1 - exp(-t)) and
 * the heat stored C (T - 350) = -100 (1 - exp(-t)) (both exact). */
static void test_rc(sk_context *ctx)
{
  sk_model *m = net(ctx, "* one RC node\nVamb amb 0 300\nC1 n 0 2\nR1 n amb 0.5\n.ic n=350\n");
  CHECK_EQ_INT(sk_model_get_kind(m), SK_MODEL_ODE);
  CHECK_EQ_INT(sk_model_get_n(m), 3); /* T(n), Q_in, Q_out */
  char name[64];
  sk_model_component_name(m, 0, name, sizeof name);
  CHECK_STR_CONTAINS(name, "T(n)");
  const double times[] = {0.5, 1.0, 3.0};
  double y[9];
  CHECK_OK(ctx, integrate(ctx, m, "cvode-bdf", 1e-10, 1e-10, times, 3, y, NULL));
  for (int k = 0; k < 3; k++) {
    const double decay = exp(-times[k]);
    CHECK_NEAR(y[3 * k], 300.0 + 50.0 * decay, 0, 1e-6);
    CHECK_NEAR(y[3 * k + 2], 100.0 * (1.0 - decay), 0, 1e-6);
    sk_network_energy e;
    CHECK_OK(ctx, sk_network_energy_balance(m, y + 3 * k, &e));
    CHECK_NEAR(e.stored, -100.0 * (1.0 - decay), 0, 1e-6);
    CHECK(e.relative < 1e-9);
  }
  sk_model_destroy(&m);
}

/* ---- linear chain (tests/numerics/make_network_refs.py): closed-form
 * steady state T_k = 300 + 10 (1 + 2 (k - 1)), transient by expm. */
static const char chain_net[] = "* chain of five nodes, fixed end, heat source at the far end\n"
                                ".param R=2\n"
                                "Vfix f 0 300\n"
                                "R0 n1 f 1\n"
                                "R1 n1 n2 R\nR2 n2 n3 R\nR3 n3 n4 {R}\nR4 n4 n5 {R*1}\n"
                                "C1 n1 1.5\nC2 n2 2\nC3 n3 2.5\nC4 n4 3\nC5 n5 3.5\n"
                                "I1 0 n5 10\n"
                                ".option tinit=300\n";
static const double chain_ref[3][5] = {
    {3.000010019930469e+02, 3.000094602183675e+02, 3.000843767244380e+02, 3.007116646935300e+02,
     3.050380769067270e+02},
    {3.003114058839247e+02, 3.011801641527729e+02, 3.031435771219535e+02, 3.079161871527092e+02,
     3.185069496748312e+02},
    {3.037214912183908e+02, 3.114690012277411e+02, 3.204160195020476e+02, 3.317617744230575e+02,
     3.468383289928886e+02}};

static void test_chain(sk_context *ctx)
{
  sk_model *m = net(ctx, chain_net);
  const double times[] = {2.0, 10.0, 40.0, 3000.0};
  double y[4 * 7];
  CHECK_OK(ctx, integrate(ctx, m, "cvode-bdf", 1e-10, 1e-10, times, 4, y, NULL));
  const char *names[] = {"n1", "n2", "n3", "n4", "n5"};
  for (int i = 0; i < 5; i++) {
    const int64_t s = node(m, names[i]);
    for (int k = 0; k < 3; k++) {
      CHECK_NEAR(y[7 * k + s], chain_ref[k][i], 0, 1e-6);
    }
    CHECK_NEAR(y[7 * 3 + s], 300.0 + 10.0 * (1.0 + 2.0 * i), 0, 1e-6); /* closed form */
  }
  sk_network_energy e;
  CHECK_OK(ctx, sk_network_energy_balance(m, y + 7 * 3, &e));
  CHECK_NEAR(e.injected, 10.0 * 3000.0, 1e-9, 0);
  CHECK(e.relative < 1e-8);
  sk_model_destroy(&m);
}

/* ---- all-linear mesh (make_network_refs.py: expm) with G, R, constant H,
 * two fixed nodes and a source. */
static const char mesh_net[] =
    "Vh hot 0 350\nVc cold 0 280\n"
    "G1 a b 0.8\nR2 b c 0.5\nH3 c d 1.5\nG4 a d 300m\nR5 a hot 2\n"
    "G6 d cold 1.2\n+ \n"
    "R7 b\n+ d 4\n"
    "I8 0 c 3\n"
    "Ca a 2\nCb b 500m\nCc c 1\nCd d 3\n.option tinit=300\n.end\nthis line is ignored\n";
static const double mesh_ref[3][4] = {
    {3.051235095185914e+02, 3.009677386983066e+02, 3.002740967566289e+02, 2.970931761164017e+02},
    {3.144987667439466e+02, 3.033670741938326e+02, 3.002115322584975e+02, 2.942439862570174e+02},
    {3.178203300829792e+02, 3.059658509810844e+02, 3.024896072721052e+02, 2.958610460418670e+02}};

static void test_mesh(sk_context *ctx)
{
  sk_model *m = net(ctx, mesh_net);
  const double times[] = {0.5, 3.0, 20.0};
  double y[3 * 6];
  CHECK_OK(ctx, integrate(ctx, m, "cvode-bdf", 1e-10, 1e-10, times, 3, y, NULL));
  const char *names[] = {"a", "b", "c", "d"};
  for (int i = 0; i < 4; i++) {
    const int64_t s = node(m, names[i]);
    for (int k = 0; k < 3; k++) {
      CHECK_NEAR(y[6 * k + s], mesh_ref[k][i], 0, 1e-6);
    }
  }
  sk_model_destroy(&m);
}

/* ---- massless nodes: a (C = 4) -- 1 -- m1 -- 1 -- m2 -- 2 -- amb (300 K),
 * m1, m2 without capacitance. Eliminated by hand: a -- 4 K/W -- amb, so
 * T_a = 300 + 100 exp(-t / 16), T_m1 = 300 + 0.75 (T_a - 300),
 * T_m2 = 300 + 0.5 (T_a - 300). */
static void test_massless(sk_context *ctx)
{
  sk_model *m = net(ctx, "Vamb amb 0 300\nC1 a 0 4\nR1 a m1 1\nR2 m1 m2 1\nR3 m2 amb 2\n"
                         ".option tinit=300\n.ic a=400\n");
  CHECK_EQ_INT(sk_model_get_kind(m), SK_MODEL_DAE);
  const int *id = sk_model_get_differential(m);
  CHECK(id != NULL && id[node(m, "a")] == 1 && id[node(m, "m1")] == 0 && id[node(m, "m2")] == 0);
  const double times[] = {1.0, 8.0, 40.0};
  double y[3 * 5];
  CHECK_OK(ctx, integrate(ctx, m, "ida-bdf", 1e-10, 1e-10, times, 3, y, NULL));
  for (int k = 0; k < 3; k++) {
    const double rise = 100.0 * exp(-times[k] / 16.0);
    CHECK_NEAR(y[5 * k + node(m, "a")], 300.0 + rise, 0, 1e-6);
    CHECK_NEAR(y[5 * k + node(m, "m1")], 300.0 + 0.75 * rise, 0, 1e-6);
    CHECK_NEAR(y[5 * k + node(m, "m2")], 300.0 + 0.5 * rise, 0, 1e-6);
    sk_network_energy e;
    CHECK_OK(ctx, sk_network_energy_balance(m, y + 5 * k, &e));
    CHECK_NEAR(e.leaving, 400.0 * (1.0 - exp(-times[k] / 16.0)), 0, 1e-5); /* C (400 - T_a) */
    CHECK(e.relative < 1e-8);
  }
  sk_model_destroy(&m);
}

/* ---- radiation: 50 W into n (C = 1), radiating to amb at 300 K with
 * eps A F = 0.01 m^2 and conducting 0.5 W/K: the steady T solves
 * 50 = sigma 0.01 (T^4 - 300^4) + 0.5 (T - 300), by Newton here. The same
 * network in Celsius (tunit=C, amb = 26.85 C) must give T - 273.15. */
static double radiation_root(void)
{
  const double s = 5.670374419e-8 * 0.01;
  double t = 400.0;
  for (int k = 0; k < 50; k++) {
    const double f = s * (pow(t, 4) - pow(300.0, 4)) + 0.5 * (t - 300.0) - 50.0;
    t -= f / (4.0 * s * pow(t, 3) + 0.5);
  }
  return t;
}

static void test_radiation(sk_context *ctx)
{
  const double troot = radiation_root();
  printf("radiation: hand-solved steady state T = %.12f K\n", troot);
  const char *nets[] = {
      "Vamb amb 0 300\nC1 n 0 1\nE1 n amb eps=0.5 area=0.04 f=0.5\nG1 n amb 0.5\nI1 0 n 50\n"
      ".option tinit=300\n",
      ".option tunit=C tinit=26.85\nVamb amb 0 26.85\nC1 n 0 1\nE1 n amb 10m\nG1 n amb 0.5\n"
      "I1 gnd n 50\n"};
  for (int c = 0; c < 2; c++) {
    sk_model *m = net(ctx, nets[c]);
    const double times[] = {200.0};
    double y[3];
    CHECK_OK(ctx, integrate(ctx, m, "cvode-bdf", 1e-10, 1e-10, times, 1, y, NULL));
    CHECK_NEAR(y[0] + (c ? 273.15 : 0.0), troot, 0, 1e-6);
    sk_model_destroy(&m);
  }
  /* the steady state by KINSOL (model without energy states: they have no steady state) */
  sk_network_params p;
  sk_network_params_default(&p);
  p.energy_states = 0;
  p.check_steady = 1;
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_network_create_from_string(ctx, nets[0], "rad.net", &p, &m));
  sk_steady_settings s;
  sk_steady_settings_default(&s);
  double u = 300.0;
  CHECK_OK(ctx, sk_steady_solve(ctx, m, &s, &u, NULL));
  CHECK_NEAR(u, troot, 0, 1e-8);
  sk_model_destroy(&m);
}

/* ---- Jacobians against finite differences: a nonlinear all-capacitive
 * network (ODE, sk__jacobian_check) and its massless variant (DAE: dF/dy +
 * cj dF/dy' against central differences of the residual, by hand). */
static const char nonlinear_net[] =
    "Vamb amb 0 300\n"
    "Ca a 2\nCb b 1\nCc c 3\n"
    "Hab a b 4 n=0.25 dt0=10\n"
    "Gbc b c TABLE(250 0.5 320 1.5 400 2.5)\n"
    "Eca c amb eps=0.9 area=0.02\n"
    "Hcamb c amb TABLE(0 0.1 5 0.3 50 0.8)\n"
    "Ra a amb 3\n"
    "I1 0 a SIN(5 3 0.05)\nI2 0 b PULSE(0 8 1 0.5 0.5 4 10)\n"
    "Ib b c PWL(0 0 5 2 10 1)\n"
    ".option tinit=300\n.ic a=360 b=331 c=310\n"; /* (b + c)/2 off the table breakpoint 320 */

static void test_jacobians(sk_context *ctx)
{
  sk_model *m = net(ctx, nonlinear_net);
  const double y[] = {361.0, 329.0, 312.5, 5.0, 7.0};
  sk__jac_check_result r;
  CHECK_OK(ctx, sk__jacobian_check(m, 1.3, y, 100, 0, 1, &r));
  printf("ODE Jacobian vs central differences: rel err %.3e over %lld entries\n", r.rel_err,
         (long long)r.nentries);
  CHECK(r.rel_err < 1e-7);
  CHECK_EQ_INT(r.outside_pattern, 0);
  sk_model_destroy(&m);

  /* b massless: DAE */
  char text[1024];
  snprintf(text, sizeof text, "%s", nonlinear_net);
  char *cb = strstr(text, "Cb b 1");
  memcpy(cb, "Cb b 0", 6);
  m = net(ctx, text);
  CHECK_EQ_INT(sk_model_get_kind(m), SK_MODEL_DAE);
  const int64_t n = sk_model_get_n(m);
  const int64_t *cp, *ri;
  int64_t nnz;
  sk_model_get_jac_pattern(m, &cp, &ri, &nnz);
  double yp[5] = {0.3, -0.1, 0.2, 1.0, 2.0}, vals[64], r0[5], r1[5], r2[5], yy[5];
  const double cj = 7.5, t = 2.2;
  CHECK(nnz <= 64);
  CHECK_OK(ctx, sk_model_eval_dae_jac(m, t, cj, y, yp, NULL, vals));
  CHECK_OK(ctx, sk_model_eval_residual(m, t, y, yp, r0));
  double maxerr = 0;
  for (int64_t j = 0; j < n; j++) {
    memcpy(yy, y, sizeof yy);
    double ypp[5];
    memcpy(ypp, yp, sizeof ypp);
    const double h = 1e-5 * fmax(1.0, fabs(y[j]));
    yy[j] += h;
    ypp[j] += cj * h;
    CHECK_OK(ctx, sk_model_eval_residual(m, t, yy, ypp, r1));
    yy[j] -= 2 * h;
    ypp[j] -= 2 * cj * h;
    CHECK_OK(ctx, sk_model_eval_residual(m, t, yy, ypp, r2));
    for (int64_t i = 0; i < n; i++) {
      double a = 0;
      for (int64_t p = cp[j]; p < cp[j + 1]; p++) {
        a = ri[p] == i ? vals[p] : a;
      }
      const double fd = (r1[i] - r2[i]) / (2 * h);
      maxerr = fmax(maxerr, fabs(a - fd) / fmax(1.0, fabs(fd)));
    }
  }
  printf("DAE Jacobian vs central differences: max rel err %.3e\n", maxerr);
  CHECK(maxerr < 1e-6);
  sk_model_destroy(&m);
}

/* ---- energy balance of the nonlinear network (sources switching, tables,
 * radiation) at rtol = atol = 1e-6, ODE and DAE. */
static void test_energy(sk_context *ctx)
{
  const char *methods[] = {"cvode-bdf", "ida-bdf"};
  for (int c = 0; c < 2; c++) {
    char text[1024];
    snprintf(text, sizeof text, "%s", nonlinear_net);
    if (c) {
      memcpy(strstr(text, "Cb b 1"), "Cb b 0", 6);
    }
    sk_model *m = net(ctx, text);
    const double times[] = {30.0};
    double y[5];
    CHECK_OK(ctx, integrate(ctx, m, methods[c], 1e-6, 1e-6, times, 1, y, NULL));
    sk_network_energy e;
    CHECK_OK(ctx, sk_network_energy_balance(m, y, &e));
    printf("energy balance (%s, rtol 1e-6): stored %.6e, in %.6e, out %.6e, relative "
           "imbalance %.3e\n",
           methods[c], e.stored, e.injected, e.leaving, e.relative);
    CHECK(e.relative < 1e-6);
    CHECK(fabs(e.injected) > 1.0 && fabs(e.leaving) > 1.0);
    sk_model_destroy(&m);
  }
}

/* ---- the sheath-on-fixture example (data/networks/sheath_fixture.net)
 * against its matrix exponential (make_network_refs.py), and the step
 * counts of cvode-bdf against the explicit rk45. */
static void test_sheath(sk_context *ctx)
{
  sk_network_params p;
  sk_network_params_default(&p);
  p.netlist = SK_DATA_DIR "/networks/sheath_fixture.net";
  const double times[] = {0.01, 60.0, 3600.0};
  const double ref[3][2] = {{2.931501134649222e+02, 2.931501999977729e+02},
                            {2.942792767325855e+02, 2.942807769078935e+02},
                            {3.031275809986010e+02, 3.031400530492824e+02}};
  const char *methods[] = {"cvode-bdf", "rk45"};
  int64_t steps[2] = {0, 0};
  for (int c = 0; c < 2; c++) {
    sk_model *m = NULL;
    CHECK_OK(ctx, sk_network_create_from_file(ctx, &p, &m));
    double y[3 * 4];
    sk_stats st;
    memset(&st, 0, sizeof st);
    CHECK_OK(ctx, integrate(ctx, m, methods[c], 1e-8, 1e-8, times, 3, y, &st));
    for (int k = 0; k < 3; k++) {
      CHECK_NEAR(y[4 * k + node(m, "sheath")], ref[k][0], 0, 1e-4);
      CHECK_NEAR(y[4 * k + node(m, "fixture")], ref[k][1], 0, 1e-4);
    }
    steps[c] = st.steps;
    sk_model_destroy(&m);
  }
  printf("sheath on fixture, 1 h, rtol 1e-8: cvode-bdf %lld steps, rk45 %lld steps\n",
         (long long)steps[0], (long long)steps[1]);
  CHECK(steps[0] > 0 && 100 * steps[0] < steps[1]);
}

/* ---- a subcircuit-generated network: 20 x 25 x 20 = 10^4 cells of one
 * node each (plus pins), built through three levels of .subckt. */
static void test_generated(sk_context *ctx)
{
  const char text[] =
      "* a board of rows of strips of cells\n"
      ".param Cc=1m Rc=50 Rlink=20\n"
      "Vamb amb 0 300\n"
      ".subckt cell in out amb params: p=0.01\n"
      "C1 n Cc\nR1 in n Rlink\nR2 n out Rlink\nRa n amb {Rc*100}\nI1 0 n p\n"
      ".ends\n"
      ".subckt strip in out amb\n"
      "X1 in m1 amb cell\nX2 m1 m2 amb cell\nX3 m2 m3 amb cell\nX4 m3 m4 amb cell\n"
      "X5 m4 m5 amb cell\nX6 m5 m6 amb cell\nX7 m6 m7 amb cell\nX8 m7 m8 amb cell\n"
      "X9 m8 m9 amb cell\nX10 m9 m10 amb cell\nX11 m10 m11 amb cell\nX12 m11 m12 amb cell\n"
      "X13 m12 m13 amb cell\nX14 m13 m14 amb cell\nX15 m14 m15 amb cell\nX16 m15 m16 amb cell\n"
      "X17 m16 m17 amb cell\nX18 m17 m18 amb cell\nX19 m18 m19 amb cell\nX20 m19 out amb cell "
      "p=0.02\n"
      "Cin in 1m\n"
      ".ends\n"
      ".subckt row a amb\n"
      "X1 a b1 amb strip\nX2 b1 b2 amb strip\nX3 b2 b3 amb strip\nX4 b3 b4 amb strip\n"
      "X5 b4 b5 amb strip\nX6 b5 b6 amb strip\nX7 b6 b7 amb strip\nX8 b7 b8 amb strip\n"
      "X9 b8 b9 amb strip\nX10 b9 b10 amb strip\nX11 b10 b11 amb strip\nX12 b11 b12 amb strip\n"
      "X13 b12 b13 amb strip\nX14 b13 b14 amb strip\nX15 b14 b15 amb strip\nX16 b15 b16 amb "
      "strip\n"
      "X17 b16 b17 amb strip\nX18 b17 b18 amb strip\nX19 b18 b19 amb strip\nX20 b19 b20 amb "
      "strip\n"
      "X21 b20 b21 amb strip\nX22 b21 b22 amb strip\nX23 b22 b23 amb strip\nX24 b23 b24 amb "
      "strip\n"
      "X25 b24 b25 amb strip\nCend b25 1m\n"
      ".ends\n"
      "X1 r1 amb row\nX2 r2 amb row\nX3 r3 amb row\nX4 r4 amb row\nX5 r5 amb row\n"
      "X6 r6 amb row\nX7 r7 amb row\nX8 r8 amb row\nX9 r9 amb row\nX10 r10 amb row\n"
      "X11 r11 amb row\nX12 r12 amb row\nX13 r13 amb row\nX14 r14 amb row\nX15 r15 amb row\n"
      "X16 r16 amb row\nX17 r17 amb row\nX18 r18 amb row\nX19 r19 amb row\nX20 r20 amb row\n"
      "Cr1 r1 1m\nCr2 r2 1m\nCr3 r3 1m\nCr4 r4 1m\nCr5 r5 1m\nCr6 r6 1m\nCr7 r7 1m\nCr8 r8 1m\n"
      "Cr9 r9 1m\nCr10 r10 1m\nCr11 r11 1m\nCr12 r12 1m\nCr13 r13 1m\nCr14 r14 1m\nCr15 r15 1m\n"
      "Cr16 r16 1m\nCr17 r17 1m\nCr18 r18 1m\nCr19 r19 1m\nCr20 r20 1m\n"
      ".option tinit=300\n";
  const clock_t c0 = clock();
  sk_model *m = net(ctx, text);
  const int64_t nu = sk_network_get_num_nodes(m);
  printf("generated network: %lld unknown nodes, built in %.3f s\n", (long long)nu,
         (double)(clock() - c0) / CLOCKS_PER_SEC);
  /* per strip 20 cell nodes + 19 links m1..m19 (massless); per row 25 strips and the
     nodes b1..b25 between them; 20 rows and their nodes r1..r20 */
  CHECK_EQ_INT(nu, 20 * (25 * (20 + 19) + 25) + 20);
  int64_t s = -1;
  CHECK(sk_network_find_node(m, "X3.X7.X11.n", &s) == SK_OK && s >= 0);
  const double times[] = {1.0};
  double *y = malloc((size_t)sk_model_get_n(m) * sizeof *y);
  const clock_t c1 = clock();
  CHECK_EQ_INT(sk_model_get_kind(m), SK_MODEL_DAE); /* the m-links are massless */
  CHECK_OK(ctx, integrate(ctx, m, "ida-bdf", 1e-6, 1e-6, times, 1, y, NULL));
  sk_network_energy e;
  CHECK_OK(ctx, sk_network_energy_balance(m, y, &e));
  printf("generated network: integrated to t = 1 s in %.3f s, relative imbalance %.3e\n",
         (double)(clock() - c1) / CLOCKS_PER_SEC, e.relative);
  CHECK(e.relative < 1e-6);
  /* the cells inject 0.01 W each (the last of every strip 0.02 W): 20*25*(19*0.01+0.02) W */
  CHECK_NEAR(e.injected, 20 * 25 * (19 * 0.01 + 0.02), 1e-9, 0);
  free(y);
  sk_model_destroy(&m);
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  test_rc(ctx);
  test_chain(ctx);
  test_mesh(ctx);
  test_massless(ctx);
  test_radiation(ctx);
  test_jacobians(ctx);
  test_energy(ctx);
  test_sheath(ctx);
  test_generated(ctx);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

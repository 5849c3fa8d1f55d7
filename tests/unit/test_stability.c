/* tests/unit/test_stability.c: amplification factors, boundary loci and A-/L-stability checks against independent values (seeds, textbooks) */
#include "stiffkit/stability.h"
#include "test.h"

static sk_stability_method get(const char *name)
{
  sk_stability_method m;
  CHECK(sk_stability_method_get(name, &m) == 0);
  return m;
}

static sk_stability_report analyze(const char *name)
{
  sk_stability_method m = get(name);
  sk_stability_report r;
  sk_stability_analyze(&m, &r);
  printf("  %-6s real [%.6f, %.6f]  max|R(iy)| %.15f  max LHP %.3e  locus min Re %.6f  "
         "|R(-1e6)| %.3e  A %d  L %d\n",
         name, r.real_lo, r.real_hi, r.max_imag, r.max_lhp, r.locus_min_re, r.r_inf, r.a_stable,
         r.l_stable);
  return r;
}

int main(void)
{
  double re, im;
  /* the seeds: trapezoidal R(-1000) = (1 - 500)/(1 + 500) = -0.99600798; backward Euler 1/1001 */
  sk_stability_method trap = get("trap"), be = get("beuler"), rk4 = get("rk4"), dp = get("rk45");
  CHECK(sk_stability_amplification(&trap, -1000.0, 0.0, &re, &im) == 0);
  CHECK_NEAR(re, -0.996, 0, 5e-4);
  CHECK_NEAR(re, -499.0 / 501.0, 1e-14, 0);
  CHECK(im == 0.0);
  CHECK(sk_stability_amplification(&be, -1000.0, 0.0, &re, &im) == 0);
  CHECK_NEAR(re, 1.0 / 1001.0, 1e-14, 0);
  /* R(z) of the explicit methods from their tableaux: RK4's Taylor polynomial,
   * Dormand-Prince's 1 + z + ... + z^5/120 + z^6/600 (Hairer, Norsett & Wanner) */
  const double taylor[] = {1, 1, 0.5, 1.0 / 6.0, 1.0 / 24.0, 1.0 / 120.0};
  CHECK_EQ_INT(rk4.mdeg, 4);
  for (int p = 0; p <= 4; p++) {
    CHECK_NEAR(-rk4.c[0][p], taylor[p], 1e-15, 0);
  }
  CHECK_EQ_INT(dp.mdeg, 6);
  for (int p = 0; p <= 5; p++) {
    CHECK_NEAR(-dp.c[0][p], taylor[p], 1e-13, 0);
  }
  CHECK_NEAR(-dp.c[0][6], 1.0 / 600.0, 1e-12, 0);
  /* BDF2 from backward differences: 3/2, -2, 1/2; AM2-PC's polynomial */
  sk_stability_method b2 = get("bdf2"), pc = get("am2pc");
  CHECK_NEAR(b2.c[2][0], 1.5, 1e-15, 0);
  CHECK_NEAR(b2.c[1][0], -2.0, 1e-15, 0);
  CHECK_NEAR(b2.c[0][0], 0.5, 1e-15, 0);
  CHECK_NEAR(pc.c[1][1], -1.0, 1e-15, 0);
  CHECK_NEAR(pc.c[1][2], -0.75, 1e-15, 0);
  CHECK_NEAR(pc.c[0][2], 0.25, 1e-15, 0);
  /* unknown names */
  sk_stability_method m;
  CHECK(sk_stability_method_get("rk99", &m) == -1);
  CHECK(sk_stability_method_get("bdf7", &m) == -1);
  CHECK(sk_stability_method_name(0) != NULL && sk_stability_method_name(100) == NULL);

  /* real-axis limits: Euler -2, RK4 -2.785 (-2.78529356), DP5 -3.307 */
  sk_stability_report r = analyze("euler");
  CHECK_NEAR(r.real_lo, -2.0, 0, 1e-9);
  CHECK(r.real_hi == 0.0);
  CHECK(!r.a_stable && !r.l_stable);
  r = analyze("rk4");
  CHECK_NEAR(r.real_lo, -2.785, 0, 5e-4);
  CHECK_NEAR(r.real_lo, -2.785293563, 0, 1e-8);
  CHECK(!r.a_stable);
  r = analyze("rk45");
  CHECK_NEAR(r.real_lo, -3.307, 0, 5e-3);
  CHECK(!r.a_stable);
  /* A-stable: beuler (L-stable) and trap (not L-stable: R -> -1) */
  r = analyze("beuler");
  CHECK(r.a_stable && r.l_stable);
  CHECK(isinf(r.real_lo) && r.real_lo < 0);
  CHECK_NEAR(r.r_inf, 1.0 / (1.0 + 1e6), 1e-12, 0);
  r = analyze("trap");
  CHECK(r.a_stable && !r.l_stable);
  CHECK(r.max_imag <= 1.0 + 1e-12);
  CHECK_NEAR(r.r_inf, (5e5 - 1.0) / (5e5 + 1.0), 1e-12, 0);
  /* multistep: AB2 real interval [-1, 0]; BDF2 A-stable with the locus in
   * the right half-plane, L-stable; BDF3 not A-stable, min Re z ~ -0.083 */
  r = analyze("ab2");
  CHECK_NEAR(r.real_lo, -1.0, 0, 1e-8);
  CHECK(!r.a_stable);
  r = analyze("am2pc");
  CHECK_NEAR(r.real_lo, -2.0, 0, 1e-6); /* 1 + z + 3z^2/4 ... stable to z = -2 */
  CHECK(!r.a_stable);
  r = analyze("bdf1");
  CHECK(r.a_stable && r.l_stable);
  r = analyze("bdf2");
  CHECK(r.locus_min_re >= -1e-12);
  CHECK(r.a_stable && r.l_stable);
  CHECK(isinf(r.real_lo));
  r = analyze("bdf3");
  CHECK(r.locus_min_re < 0);
  CHECK_NEAR(r.locus_min_re, -0.0833, 0, 1e-3);
  CHECK(!r.a_stable && !r.l_stable);
  CHECK(r.r_inf < 1e-2); /* stiffly decaying all the same */
  for (int k = 4; k <= 6; k++) {
    char name[8];
    snprintf(name, sizeof name, "bdf%d", k);
    r = analyze(name);
    CHECK(r.locus_min_re < -0.1 && !r.a_stable);
    CHECK(isinf(r.real_lo)); /* A(alpha)-stable: the negative real axis is stable */
  }
  /* the boundary curves: beuler's is the circle |z - 1| = 1, trap's the
   * imaginary axis, BDF2's locus satisfies Re z = (1 - cos theta)^2 */
  sk_stability_point pts[4096];
  int np = sk_stability_boundary(&be, 360, 1e3, pts, 4096);
  CHECK_EQ_INT(np, 360);
  double worst = 0;
  for (int i = 0; i < np; i++) {
    worst = fmax(worst, fabs(hypot(pts[i].x - 1.0, pts[i].y) - 1.0));
  }
  CHECK(worst < 1e-12);
  np = sk_stability_boundary(&trap, 360, 1e3, pts, 4096);
  CHECK(np > 300);
  worst = 0;
  for (int i = 0; i < np; i++) {
    worst = fmax(worst, fabs(pts[i].x));
  }
  CHECK(worst < 1e-12);
  np = sk_stability_boundary(&b2, 360, 1e3, pts, 4096);
  CHECK_EQ_INT(np, 360);
  worst = 0;
  for (int i = 0; i < np; i++) {
    const double c = 1.0 - cos(pts[i].theta);
    worst = fmax(worst, fabs(pts[i].x - c * c));
  }
  CHECK(worst < 1e-12);
  /* every RK4 boundary point has |R| = 1; 4 branches */
  np = sk_stability_boundary(&rk4, 360, 1e3, pts, 4096);
  CHECK_EQ_INT(np, 4 * 360);
  worst = 0;
  for (int i = 0; i < np; i++) {
    worst = fmax(worst, fabs(sk_stability_radius(&rk4, pts[i].x, pts[i].y) - 1.0));
  }
  CHECK(worst < 1e-10);
  CHECK_EQ_INT(sk_stability_boundary(&rk4, 360, 1e3, pts, 10), 10);
  TEST_RETURN();
}

/* stiffkit/stability.h: linear stability of the reference methods (amplification factors, boundary loci, A-/L-stability checks) */
#ifndef STIFFKIT_STABILITY_H
#define STIFFKIT_STABILITY_H

#ifdef __cplusplus
extern "C" {
#endif

/* the public API: exported from libstiffkit, which hides everything else */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* Every method is described by its characteristic polynomial on the test
 * equation y' = lambda y, z = h lambda:
 *   Pi(zeta, z) = sum_{j <= k} sum_{m <= mdeg} c[j][m] zeta^j z^m = 0,
 * whose roots zeta(z) are the per-step growth factors. One-step methods
 * have k = 1, Pi = zeta Q(z) - P(z), and the amplification factor
 * R(z) = P(z) / Q(z); a linear multistep method has mdeg = 1,
 * Pi = rho(zeta) - z sigma(zeta). A point z is stable when every root has
 * |zeta| <= 1 (the root condition; simple roots on the circle are not
 * distinguished here). The boundary of the stability region lies on the
 * curve where some root has |zeta| = 1, i.e. the roots z of
 * Pi(e^{i theta}, z) = 0 (for multistep methods the boundary locus
 * z(theta) = rho(e^{i theta}) / sigma(e^{i theta})). */

#define SK_STABILITY_MAXK 7 /* degree in zeta + 1 (BDF6) */
#define SK_STABILITY_MAXM 8 /* degree in z + 1 */

typedef struct {
  const char *name;
  const char *description;
  const char *formula; /* R(z), or rho and sigma, in words */
  int multistep;       /* 0: one-step (k = 1) */
  int k, mdeg;         /* degrees of Pi in zeta and in z */
  double c[SK_STABILITY_MAXK][SK_STABILITY_MAXM];
} sk_stability_method;

/* sk_stability_method_name: the i-th method name (euler, rk4, rk45, beuler,
 * trap, ab2, am2pc, bdf2, bdf1 ... bdf6), NULL past the end. */
const char *sk_stability_method_name(int i);

/* sk_stability_method_get: fill *m for `name`. Explicit Runge-Kutta methods are
 * built from their Butcher tableaux (R(z) = 1 + sum_m b^T A^{m-1} 1 z^m),
 * BDFs from backward differences, AM2-PC from its predictor and corrector.
 * Returns 0, or -1 for an unknown name. */
int sk_stability_method_get(const char *name, sk_stability_method *m);

/* sk_stability_amplification: one-step methods: R(z) at z = x + i y (re, im); returns 0,
 * or -1 for a multistep method or a pole (Q(z) = 0). */
int sk_stability_amplification(const sk_stability_method *m, double x, double y, double *re,
                               double *im);

/* sk_stability_radius: max |zeta| over the roots of Pi(zeta, z) at z = x + i y
 * (|R(z)| for one-step methods); INFINITY where the leading coefficient
 * vanishes (a root at infinity). */
double sk_stability_radius(const sk_stability_method *m, double x, double y);

/* One point of the boundary curve Pi(e^{i theta}, z) = 0. */
typedef struct {
  double theta;
  int branch; /* root index, continued from theta to theta by nearest neighbour */
  double x, y;
} sk_stability_point;

/* sk_stability_boundary: the boundary curve at ntheta angles theta in [0, 2 pi),
 * points with |z| <= zmax only, at most maxpts of them written to pts (NULL:
 * count only). Returns the number of points. */
int sk_stability_boundary(const sk_stability_method *m, int ntheta, double zmax,
                          sk_stability_point *pts, int maxpts);

/* sk_stability_ray_limit: the largest step h such that every z = s lambda,
 * 0 <= s <= h, lambda = re + i im, satisfies |zeta(z)| <= 1 + growth_tol
 * (growth_tol below 1e-12 counts as 1e-12, the root-condition tolerance of
 * the checks below): where the ray from 0 through h lambda first leaves the
 * stability region, found on the scale |z| (steps of 1e-3 up to |z| = 20,
 * then 1%, to 1e6) and refined by bisection to 1e-14 relative. Returns
 * INFINITY when the ray stays inside up to |z| = 1e6 (or lambda = 0), and 0
 * when it leaves at once (|z| < 1e-9). */
double sk_stability_ray_limit(const sk_stability_method *m, double re, double im,
                              double growth_tol);

/* The numerical stability checks. */
typedef struct {
  double real_lo, real_hi; /* real-axis stability interval around 0 (real_lo = -INFINITY
                            * when stable on all of [-1e6, 0]) */
  double max_imag;         /* max |zeta| on z = i y, |y| <= 1e3 */
  double max_lhp;          /* max |zeta| on a polar sample of the left half-plane,
                            * 1e-3 <= |z| <= 1e6 */
  double locus_min_re;     /* multistep: min Re z(theta) of the boundary locus; one-step: NAN */
  double r_inf;            /* max |zeta| at z = -1e6 */
  double r_inf2;           /* at z = -1e8 (the trend toward 0) */
  int a_stable;            /* max_imag, max_lhp <= 1 + 1e-12 (and locus_min_re >= -1e-12) */
  int l_stable;            /* A-stable and |R(-x)| -> 0: r_inf <= 1e-2 and decreasing */
} sk_stability_report;

/* sk_stability_analyze: run the checks above. */
void sk_stability_analyze(const sk_stability_method *m, sk_stability_report *rep);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif

/* src/steppers/stability.c: characteristic polynomials of the reference methods, their roots, boundary curves and the A-/L-stability checks */
#include <complex.h>
#include <math.h>
#include <string.h>

#include "stiffkit/stability.h"

#define SK__STAB_PI 3.14159265358979323846
/* a point is stable when every root has |zeta| <= 1 + SK__STAB_TOL */
#define SK__STAB_TOL 1e-12

static const char *const method_names[] = {
    "euler", "rk4",  "rk45", "beuler", "trap", "ab2",  "am2pc",
    "bdf2",  "bdf1", "bdf3", "bdf4",   "bdf5", "bdf6", NULL,
};

const char *sk_stability_method_name(int i)
{
  if (i < 0 || i >= (int)(sizeof method_names / sizeof method_names[0]) - 1) {
    return NULL;
  }
  return method_names[i];
}

/* ---- building the characteristic polynomials --------------------------- */

/* Explicit Runge-Kutta with s stages (A strictly lower triangular, row-major
 * s x s; weights b): on y' = lambda y the stages are polynomials in z and
 *   R(z) = 1 + z b^T (I - z A)^{-1} 1 = 1 + sum_{m=1}^{s} (b^T A^{m-1} 1) z^m
 * (the series ends because A is nilpotent). Pi = zeta - R(z). */
static void explicit_rk(sk_stability_method *m, int s, const double *A, const double *b)
{
  double v[SK_STABILITY_MAXM], w[SK_STABILITY_MAXM];
  for (int i = 0; i < s; i++) {
    v[i] = 1.0;
  }
  m->k = 1;
  m->c[1][0] = 1.0;
  m->c[0][0] = -1.0;
  m->mdeg = 0;
  for (int p = 1; p <= s && p < SK_STABILITY_MAXM; p++) {
    double g = 0.0;
    for (int i = 0; i < s; i++) {
      g += b[i] * v[i];
    }
    m->c[0][p] = -g;
    if (g != 0.0) {
      m->mdeg = p;
    }
    for (int i = 0; i < s; i++) {
      w[i] = 0.0;
      for (int j = 0; j < s; j++) {
        w[i] += A[i * s + j] * v[j];
      }
    }
    memcpy(v, w, (size_t)s * sizeof *v);
  }
}

/* BDF of order k: sum_{j=1}^{k} (1/j) nabla^j y_{n+k} = h f_{n+k} with
 * nabla^j y_{n+k} = sum_{i=0}^{j} (-1)^i C(j, i) y_{n+k-i}, so
 *   rho(zeta) = sum_i alpha_{k-i} zeta^{k-i},
 *   alpha_{k-i} = sum_{j=max(i,1)}^{k} (-1)^i C(j, i) / j,  sigma(zeta) = zeta^k. */
static void bdf(sk_stability_method *m, int k)
{
  m->multistep = 1;
  m->k = k;
  m->mdeg = 1;
  for (int i = 0; i <= k; i++) {
    double a = 0.0;
    for (int j = i > 1 ? i : 1; j <= k; j++) {
      double binom = 1.0;
      for (int q = 0; q < i; q++) {
        binom = binom * (double)(j - q) / (double)(q + 1);
      }
      a += ((i % 2) ? -binom : binom) / (double)j;
    }
    m->c[k - i][0] = a;
  }
  m->c[k][1] = -1.0;
}

/* Linear two-step methods with alpha_2 = 1: rho = zeta^2 + a1 zeta + a0,
 * sigma = b2 zeta^2 + b1 zeta + b0. */
typedef struct {
  double a[3], b[3];
} lmm2;

static const lmm2 ab2_coef = {{0.0, -1.0, 1.0}, {-0.5, 1.5, 0.0}}; /* AB2 */
static const lmm2 am2_coef = {{0.0, -1.0, 1.0},
                              {0.0, 0.5, 0.5}}; /* AM2 (trapezoidal) as a 2-step */

int sk_stability_method_get(const char *name, sk_stability_method *m)
{
  if (!name || !m) {
    return -1;
  }
  memset(m, 0, sizeof *m);
  m->name = name;
  if (!strcmp(name, "euler")) {
    static const double A[1] = {0.0}, b[1] = {1.0};
    explicit_rk(m, 1, A, b);
    m->description = "forward Euler (explicit one-step, order 1)";
    m->formula = "R(z) = 1 + z";
  } else if (!strcmp(name, "rk4")) {
    static const double A[16] = {0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 1, 0};
    static const double b[4] = {1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0};
    explicit_rk(m, 4, A, b);
    m->description = "classical Runge-Kutta (explicit one-step, order 4)";
    m->formula = "R(z) = 1 + z + z^2/2 + z^3/6 + z^4/24";
  } else if (!strcmp(name, "rk45")) {
    /* Dormand-Prince 5(4), the propagated 5th-order solution; the FSAL
     * seventh stage has weight 0, so R has degree 6 */
    static const double A[49] = {
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        1.0 / 5.0,
        0,
        0,
        0,
        0,
        0,
        0,
        3.0 / 40.0,
        9.0 / 40.0,
        0,
        0,
        0,
        0,
        0,
        44.0 / 45.0,
        -56.0 / 15.0,
        32.0 / 9.0,
        0,
        0,
        0,
        0,
        19372.0 / 6561.0,
        -25360.0 / 2187.0,
        64448.0 / 6561.0,
        -212.0 / 729.0,
        0,
        0,
        0,
        9017.0 / 3168.0,
        -355.0 / 33.0,
        46732.0 / 5247.0,
        49.0 / 176.0,
        -5103.0 / 18656.0,
        0,
        0,
        35.0 / 384.0,
        0,
        500.0 / 1113.0,
        125.0 / 192.0,
        -2187.0 / 6784.0,
        11.0 / 84.0,
        0,
    };
    static const double b[7] = {35.0 / 384.0, 0, 500.0 / 1113.0, 125.0 / 192.0, -2187.0 / 6784.0,
                                11.0 / 84.0,  0};
    explicit_rk(m, 7, A, b);
    m->description = "Dormand-Prince 5(4), 5th-order solution (explicit one-step)";
    m->formula = "R(z) = 1 + sum_m (b^T A^(m-1) 1) z^m from the tableau (degree 6)";
  } else if (!strcmp(name, "beuler")) {
    /* Pi = zeta (1 - z) - 1 */
    m->k = 1;
    m->mdeg = 1;
    m->c[1][0] = 1.0;
    m->c[1][1] = -1.0;
    m->c[0][0] = -1.0;
    m->description = "backward Euler (implicit one-step, order 1)";
    m->formula = "R(z) = 1 / (1 - z)";
  } else if (!strcmp(name, "trap")) {
    /* Pi = zeta (1 - z/2) - (1 + z/2) */
    m->k = 1;
    m->mdeg = 1;
    m->c[1][0] = 1.0;
    m->c[1][1] = -0.5;
    m->c[0][0] = -1.0;
    m->c[0][1] = -0.5;
    m->description = "trapezoidal rule (implicit one-step, order 2)";
    m->formula = "R(z) = (1 + z/2) / (1 - z/2)";
  } else if (!strcmp(name, "ab2")) {
    m->multistep = 1;
    m->k = 2;
    m->mdeg = 1;
    for (int j = 0; j < 3; j++) {
      m->c[j][0] = ab2_coef.a[j];
      m->c[j][1] = -ab2_coef.b[j];
    }
    m->description = "two-step Adams-Bashforth (explicit multistep, order 2)";
    m->formula = "rho(zeta) = zeta^2 - zeta, sigma(zeta) = (3 zeta - 1)/2";
  } else if (!strcmp(name, "am2pc")) {
    /* PECE with predictor (rho*, sigma*) and corrector (rho, sigma), beta_k
     * the corrector's leading sigma coefficient (Lambert):
     *   Pi = rho - z sigma + beta_k z (rho* - z sigma*)
     *      = zeta^2 - (1 + z + 3z^2/4) zeta + z^2/4 for AB2 / AM2 */
    m->multistep = 1;
    m->k = 2;
    m->mdeg = 2;
    const double bk = am2_coef.b[2];
    for (int j = 0; j < 3; j++) {
      m->c[j][0] = am2_coef.a[j];
      m->c[j][1] = -am2_coef.b[j] + bk * ab2_coef.a[j];
      m->c[j][2] = -bk * ab2_coef.b[j];
    }
    m->description = "AB2-predicted, AM2-corrected PECE (explicit multistep, order 2)";
    m->formula = "zeta^2 - (1 + z + 3z^2/4) zeta + z^2/4 = 0 (PECE)";
  } else if (!strncmp(name, "bdf", 3) && name[3] >= '1' && name[3] <= '6' && name[4] == '\0') {
    const int k = name[3] - '0';
    bdf(m, k);
    m->description = "backward differentiation formula (implicit multistep)";
    m->formula = "rho(zeta) = sum_j (1/j) zeta^(k-j) (zeta - 1)^j, sigma(zeta) = zeta^k";
  } else {
    return -1;
  }
  return 0;
}

/* ---- evaluation --------------------------------------------------------- */

/* coefficient of zeta^j at z: sum_m c[j][m] z^m (Horner) */
static double complex coef_zeta(const sk_stability_method *m, int j, double complex z)
{
  double complex s = 0.0;
  for (int p = m->mdeg; p >= 0; p--) {
    s = s * z + m->c[j][p];
  }
  return s;
}

/* coefficient of z^p at zeta: sum_j c[j][p] zeta^j */
static double complex coef_z(const sk_stability_method *m, int p, double complex zeta)
{
  double complex s = 0.0;
  for (int j = m->k; j >= 0; j--) {
    s = s * zeta + m->c[j][p];
  }
  return s;
}

static double complex horner(const double complex *a, int d, double complex x)
{
  double complex s = a[d];
  for (int i = d - 1; i >= 0; i--) {
    s = s * x + a[i];
  }
  return s;
}

/* Roots of sum_{i=0}^{d} a[i] x^i (d < SK_STABILITY_MAXM + SK_STABILITY_MAXK).
 * Leading coefficients below 1e-14 of the largest are roots at infinity and
 * dropped; exact zero roots are split off; degrees 1 and 2 are solved in
 * closed form; higher degrees by the Durand-Kerner iteration
 *   x_k <- x_k - p(x_k) / prod_{j != k} (x_k - x_j)
 * from points on the circle |x| = |a_0/a_d|^(1/d), then two Newton
 * corrections. Returns the number of finite roots written to r; *ninf the
 * number dropped at infinity. */
#define SK__STAB_MAXD 16
static int poly_roots(const double complex *a_in, int d, double complex *r, int *ninf)
{
  double complex a[SK__STAB_MAXD];
  memcpy(a, a_in, (size_t)(d + 1) * sizeof *a);
  double amax = 0.0;
  for (int i = 0; i <= d; i++) {
    amax = fmax(amax, cabs(a[i]));
  }
  *ninf = 0;
  if (amax == 0.0) {
    return 0;
  }
  while (d > 0 && cabs(a[d]) <= 1e-14 * amax) {
    d--;
    (*ninf)++;
  }
  int nr = 0;
  while (d > 0 && a[0] == 0.0) {
    r[nr++] = 0.0;
    memmove(a, a + 1, (size_t)d * sizeof *a);
    d--;
  }
  if (d == 0) {
    return nr;
  }
  if (d == 1) {
    r[nr++] = -a[0] / a[1];
    return nr;
  }
  if (d == 2) {
    /* q = -(b + sign(b) sqrt(b^2 - 4ac)) / 2, roots q/a and c/q */
    const double complex sq = csqrt(a[1] * a[1] - 4.0 * a[2] * a[0]);
    const double complex q1 = -0.5 * (a[1] + sq), q2 = -0.5 * (a[1] - sq);
    const double complex q = cabs(q1) >= cabs(q2) ? q1 : q2;
    if (q == 0.0) {
      r[nr++] = 0.0;
      r[nr++] = 0.0;
      return nr;
    }
    r[nr++] = q / a[2];
    r[nr++] = a[0] / q;
    return nr;
  }
  double complex b[SK__STAB_MAXD], x[SK__STAB_MAXD];
  for (int i = 0; i <= d; i++) {
    b[i] = a[i] / a[d];
  }
  const double r0 = pow(cabs(b[0]), 1.0 / d);
  for (int k = 0; k < d; k++) {
    x[k] = r0 * cexp(I * (2.0 * SK__STAB_PI * k / d + 0.7));
  }
  /* converged when a sweep moves no root by more than 1e-14 (relative);
   * the Newton corrections below then reach rounding level */
  for (int it = 0; it < 500; it++) {
    double delta = 0.0;
    for (int k = 0; k < d; k++) {
      double complex den = 1.0;
      for (int j = 0; j < d; j++) {
        if (j != k) {
          den *= x[k] - x[j];
        }
      }
      if (den == 0.0) {
        den = 1e-300;
      }
      const double complex dx = horner(b, d, x[k]) / den;
      x[k] -= dx;
      delta = fmax(delta, cabs(dx) / (1.0 + cabs(x[k])));
    }
    if (delta < 1e-14) {
      break;
    }
  }
  for (int k = 0; k < d; k++) {
    for (int it = 0; it < 2; it++) {
      double complex p = b[d], dp = 0.0;
      for (int i = d - 1; i >= 0; i--) {
        dp = dp * x[k] + p;
        p = p * x[k] + b[i];
      }
      if (dp != 0.0) {
        const double complex xn = x[k] - p / dp;
        if (cabs(horner(b, d, xn)) < cabs(p)) {
          x[k] = xn;
        }
      }
    }
    r[nr++] = x[k];
  }
  return nr;
}

int sk_stability_amplification(const sk_stability_method *m, double x, double y, double *re,
                               double *im)
{
  if (m->k != 1) {
    return -1;
  }
  const double complex z = x + I * y;
  const double complex q = coef_zeta(m, 1, z);
  if (q == 0.0) {
    return -1;
  }
  const double complex R = -coef_zeta(m, 0, z) / q;
  *re = creal(R);
  *im = cimag(R);
  return 0;
}

double sk_stability_radius(const sk_stability_method *m, double x, double y)
{
  const double complex z = x + I * y;
  if (m->k == 1) {
    const double complex q = coef_zeta(m, 1, z);
    return q == 0.0 ? INFINITY : cabs(coef_zeta(m, 0, z) / q);
  }
  double complex a[SK__STAB_MAXD], r[SK__STAB_MAXD];
  for (int j = 0; j <= m->k; j++) {
    a[j] = coef_zeta(m, j, z);
  }
  int ninf = 0;
  const int nr = poly_roots(a, m->k, r, &ninf);
  if (ninf > 0) {
    return INFINITY;
  }
  double rad = 0.0;
  for (int i = 0; i < nr; i++) {
    rad = fmax(rad, cabs(r[i]));
  }
  return rad;
}

/* The roots z of Pi(e^{i theta}, z) = 0; returns their number. */
static int boundary_roots(const sk_stability_method *m, double theta, double complex *r)
{
  const double complex zeta = cexp(I * theta);
  double complex a[SK__STAB_MAXD];
  for (int p = 0; p <= m->mdeg; p++) {
    a[p] = coef_z(m, p, zeta);
  }
  int ninf = 0;
  return poly_roots(a, m->mdeg, r, &ninf);
}

int sk_stability_boundary(const sk_stability_method *m, int ntheta, double zmax,
                          sk_stability_point *pts, int maxpts)
{
  double complex prev[SK__STAB_MAXD];
  int valid[SK__STAB_MAXD] = {0};
  const int nb = m->mdeg;
  int count = 0;
  for (int it = 0; it < ntheta; it++) {
    const double theta = 2.0 * SK__STAB_PI * it / ntheta;
    double complex r[SK__STAB_MAXD];
    const int nr = boundary_roots(m, theta, r);
    /* continue the branches: repeatedly pair the closest (branch, root) */
    int used[SK__STAB_MAXD] = {0}, got[SK__STAB_MAXD] = {0};
    double complex cur[SK__STAB_MAXD];
    for (;;) {
      int bb = -1, rr = -1;
      double best = INFINITY;
      for (int b = 0; b < nb; b++) {
        if (!valid[b] || got[b]) {
          continue;
        }
        for (int i = 0; i < nr; i++) {
          if (!used[i] && cabs(r[i] - prev[b]) < best) {
            best = cabs(r[i] - prev[b]);
            bb = b;
            rr = i;
          }
        }
      }
      if (bb < 0) {
        break;
      }
      got[bb] = used[rr] = 1;
      cur[bb] = r[rr];
    }
    for (int i = 0; i < nr; i++) {
      for (int b = 0; b < nb && !used[i]; b++) {
        if (!got[b]) {
          got[b] = used[i] = 1;
          cur[b] = r[i];
        }
      }
    }
    for (int b = 0; b < nb; b++) {
      valid[b] = got[b];
      if (!got[b]) {
        continue;
      }
      prev[b] = cur[b];
      if (cabs(cur[b]) <= zmax) {
        if (pts && count < maxpts) {
          pts[count].theta = theta;
          pts[count].branch = b;
          pts[count].x = creal(cur[b]);
          pts[count].y = cimag(cur[b]);
        }
        count++;
      }
    }
  }
  return pts && count > maxpts ? maxpts : count;
}

/* ---- the checks ---------------------------------------------------------- */

/* The first exit from {|zeta| <= 1 + tol} along the ray z = s (dx + i dy),
 * s >= 0 (|dx + i dy| = 1): steps of 1e-3 up to s = 20, then by 1% up to
 * 1e6; the first unstable point is refined by bisection. Returns the last
 * stable s (0 below 1e-9), or INFINITY when none is unstable. */
static double ray_end(const sk_stability_method *m, double dx, double dy, double tol)
{
  double last = 0.0, x = 0.0;
  for (int k = 1;; k++) {
    x = (k <= 20000) ? 1e-3 * k : x * 1.01;
    if (x > 1e6) {
      return INFINITY;
    }
    if (!(sk_stability_radius(m, x * dx, x * dy) <= 1.0 + tol)) {
      break;
    }
    last = x;
  }
  double lo = last, hi = x;
  for (int it = 0; it < 200 && hi - lo > 1e-14 * (1.0 + hi); it++) {
    const double mid = 0.5 * (lo + hi);
    if (sk_stability_radius(m, mid * dx, mid * dy) <= 1.0 + tol) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo < 1e-9 ? 0.0 : lo;
}

/* The end of the real stability interval from 0 in direction dir (+1/-1). */
static double real_end(const sk_stability_method *m, int dir)
{
  return dir * ray_end(m, (double)dir, 0.0, SK__STAB_TOL);
}

double sk_stability_ray_limit(const sk_stability_method *m, double re, double im,
                              double growth_tol)
{
  const double r = hypot(re, im);
  if (!(r > 0) || !isfinite(r)) {
    return INFINITY;
  }
  return ray_end(m, re / r, im / r, growth_tol > SK__STAB_TOL ? growth_tol : SK__STAB_TOL) / r;
}

void sk_stability_analyze(const sk_stability_method *m, sk_stability_report *rep)
{
  rep->real_lo = real_end(m, -1);
  rep->real_hi = real_end(m, +1);
  /* the imaginary axis: steps of 1e-3 to 10, then by 0.1% to 1e3 */
  double mi = 0.0;
  for (double yy = 0.0; yy <= 1e3; yy = yy < 10.0 ? yy + 1e-3 : yy * 1.001) {
    mi = fmax(mi, fmax(sk_stability_radius(m, 0.0, yy), sk_stability_radius(m, 0.0, -yy)));
  }
  mi = fmax(mi, fmax(sk_stability_radius(m, 0.0, 1e3), sk_stability_radius(m, 0.0, -1e3)));
  rep->max_imag = mi;
  /* the left half-plane: |z| = 10^s, s in [-3, 6], angles pi/2 .. 3pi/2 */
  double ml = 0.0;
  for (int is = 0; is <= 180; is++) {
    const double rad = pow(10.0, -3.0 + 0.05 * is);
    for (int ia = 0; ia <= 360; ia++) {
      const double phi = 0.5 * SK__STAB_PI + SK__STAB_PI * ia / 360.0;
      ml = fmax(ml, sk_stability_radius(m, rad * cos(phi), rad * sin(phi)));
    }
  }
  rep->max_lhp = ml;
  rep->locus_min_re = NAN;
  if (m->multistep) {
    double mr = INFINITY;
    for (int it = 0; it < 36000; it++) {
      double complex r[SK__STAB_MAXD];
      const int nr = boundary_roots(m, 2.0 * SK__STAB_PI * it / 36000.0, r);
      for (int i = 0; i < nr; i++) {
        mr = fmin(mr, creal(r[i]));
      }
    }
    rep->locus_min_re = mr;
  }
  rep->r_inf = sk_stability_radius(m, -1e6, 0.0);
  rep->r_inf2 = sk_stability_radius(m, -1e8, 0.0);
  rep->a_stable = rep->max_imag <= 1.0 + SK__STAB_TOL && rep->max_lhp <= 1.0 + SK__STAB_TOL &&
                  (!m->multistep || rep->locus_min_re >= -SK__STAB_TOL);
  rep->l_stable = rep->a_stable && rep->r_inf <= 1e-2 &&
                  (rep->r_inf == 0.0 || rep->r_inf2 <= 0.5 * rep->r_inf);
}

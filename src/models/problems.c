/* src/models/problems.c: the standard stiff problem library: published small stiff ODEs at their published intervals and parameters, with analytic CSC Jacobians, parameters as options and the published reference solutions */
/*
 * MATHEMATICS (y_i 1-based as in the sources; the code indexes from 0)
 *
 * Sources: F. Mazzia, C. Magherini et al., "Test Set for IVP Solvers",
 * Dept. of Mathematics, Univ. of Bari (release 2.4): problems ROBER, HIRES,
 * VDPOL, OREGO, E5 (Fortran files rober.f, hires.f, vdpol.f, orego.f, e5.f:
 * subroutines prob (interval), init (y0), feval (f) and solut (reference));
 * E. Hairer, G. Wanner, "Solving Ordinary Differential Equations II: Stiff
 * and Differential-Algebraic Problems", 2nd ed., Springer 1996, Sec. IV.1
 * and IV.10. Every problem runs by default on the Test Set's interval with
 * its parameters; the parameters are the options model.<problem>.<name>.
 *
 * ROBER (Robertson's chemical kinetics), k1 = 0.04, k2 = 3e7, k3 = 1e4:
 *   y1' = -k1 y1 + k3 y2 y3
 *   y2' =  k1 y1 - k3 y2 y3 - k2 y2^2
 *   y3' =  k2 y2^2,                         y(0) = (1, 0, 0), t_end = 1e11.
 *   y1 + y2 + y3 = 1 is conserved. The interval is the Test Set's [0, 1e11]
 *   (Hairer-Wanner plot it to 1e11 too; the CVODE example cvRoberts_dns
 *   stops at 4e10).
 *
 * HIRES (Schaefer's model of light-controlled plant growth, 8 species), in
 * the rate constants of the Test Set's description (k1 = 1.71, k2 = 0.43,
 * k3 = k6 = 8.32, k4 = k8 = k9 = 0.69, k5 = 0.035, k7 = 280, oks = 0.0007;
 * k3 and k6 are the same number in the Test Set but separate here, as in
 * the R package deTestSet):
 *   y1' = -k1 y1 + k2 y2 + k6 y3 + oks
 *   y2' =  k1 y1 - (k2 + k3) y2
 *   y3' = -(k6 + k1) y3 + k2 y4 + k5 y5
 *   y4' =  k3 y2 + k1 y3 - (k4 + k2) y4
 *   y5' = -(k5 + k1) y5 + k2 y6 + k2 y7
 *   y6' = -k7 y6 y8 + k8 y4 + k1 y5 - k2 y6 + k8 y7
 *   y7' =  k7 y6 y8 - (k2 + k8 + k9) y7
 *   y8' = -y7',             y(0) = (1, 0, 0, 0, 0, 0, 0, 0.0057), t_end = 321.8122.
 *   (With the published values: -1.71 y1 + 0.43 y2 + 8.32 y3 + 0.0007, ...,
 *   280 y6 y8 - 1.81 y7.)
 *
 * VDPOL (van der Pol in the stiff scaling of the Test Set's vdpol.f), eps = 1e-6:
 *   y1' = y2
 *   y2' = ((1 - y1^2) y2 - y1) / eps,        y(0) = (2, 0), t_end = 2.
 *   It is the oscillator y'' - mu (1 - y^2) y' + y = 0 with mu = eps^(-1/2)
 *   in the slow time t / mu (the Test Set's vdpolm.f: mu = 1000 on [0, 2000]).
 *
 * OREGO (Oregonator, Field-Noyes model of the Belousov-Zhabotinskii
 * reaction), s = 77.27, w = 0.161, q = 8.375e-6:
 *   y1' = s (y2 + y1 (1 - q y1 - y2))
 *   y2' = (y3 - (1 + y1) y2) / s
 *   y3' = w (y1 - y3),                       y(0) = (1, 2, 3), t_end = 360.
 *
 * E5 (Enright et al.'s stiff chemistry problem), A = 7.89e-10, B = 1.1e7,
 * C = 1.13e3, M = 1e6, with the rates P1 = A y1, P2 = B y1 y3,
 * P3 = M C y2 y3, P4 = C y4:
 *   y1' = -P1 - P2
 *   y2' =  P1 - P3
 *   y4' =  P2 - P4
 *   y3' =  y2' - y4'  (= P1 - P2 - P3 + P4), y(0) = (1.76e-3, 0, 0, 0), t_end = 1e13.
 *   INVARIANT: y2 - y3 - y4 = 0 for all t (it is 0 at t = 0 and its
 *   derivative y2' - y3' - y4' vanishes). y3' is formed from the computed
 *   y2' and y4' (as the Test Set's feval does: f(3) = f(2) - f(4)), so
 *   y2' - y3' - y4' is the rounding of that one subtraction, a relative
 *   1e-16 of y3' itself, not of the large rates P1..P4 that cancel in
 *   P1 - P2 - P3 + P4: summed in that order the rounding of the rates
 *   (~1e-16 x 1e-12 per unit time early on) drifts the invariant by
 *   ~1e-20 over the interval, which swamps y3 ~ 1e-22 at t = 1e13 (it came
 *   out 1.2e-20 with y2 negative). At t = 1e13, y2 ~ y3 ~ 1/(M C t) ~ 8.9e-23
 *   and y1 ~ 1e-291, y4 ~ 0: they need absolute tolerances ~1e-24 or below.
 *
 * brusselator: the 2D Brusselator of brusselator.c with its parameters
 * (model.brusselator.*; 64 x 64 nodes, a = 1, b = 3.4, alpha = 2e-3),
 * t_end = 2. It is not a Test Set problem and has no published reference.
 *
 * REFERENCE SOLUTIONS at t_end (published parameters only): the Test Set's
 * solut values (computed there by RADAU in extended precision, uround
 * 1.01e-19, rtol = atol = 1.1e-18), printed to 16 digits. Trusted digits:
 * at most 10, the digits on which two independent double-precision
 * integrations agree (tests/regression/make_problem_refs.py: scipy Radau
 * against LSODA). E5's reference is trusted to 2 digits in y2 and y3 only:
 * it gives y2 - y3 = 1.28e-25 with y4 = 0, against the invariant
 * y2 = y3 + y4 (a relative inconsistency of 1.4e-3), and y1 = 1.2e-291,
 * y4 = 0 lie below any absolute tolerance (0 trusted digits).
 *
 * PARAMETER RANGES: a parameter is accepted within a factor 100 of its
 * published value (eps of VDPOL in [1e-8, 1]: 1 is the non-stiff
 * oscillator): inside it the problem keeps its character (stiffness, time
 * scales of the published interval); the reference solution applies to the
 * published values only.
 *
 * Jacobians: every problem gives df/dy analytically in CSC (column j lists
 * the rows i with df_i/dy_j != 0 in general position, increasing).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "stiffkit/diffusion.h"
#include "stiffkit/problems.h"
#include "stiffkit/model_type.h"

#define SK__PROB_MAXN 8
#define SK__PROB_MAXP 10

typedef int (*sk__prob_rhs_fn)(const double *k, const double *y, double *f);
typedef void (*sk__prob_jac_fn)(const double *k, const double *y, double *v);

typedef struct {
  const char *name;
  const char *title;
  int n;
  sk__prob_rhs_fn rhs;
  sk__prob_jac_fn jac;
  const int64_t *colptr;
  const int64_t *rowind;
  double y0[SK__PROB_MAXN];
  double t_end;
  size_t first, nparams; /* its parameters: problem_table[first .. first + nparams) */
  double ref[SK__PROB_MAXN];
  int ref_digits[SK__PROB_MAXN];
  const char *ref_source;
} sk__problem;

/* ---- the option table: model.problem, then each problem's parameters --------- */

#define SK__PARAM(key, def, lo, hi, help)     \
  {                                           \
    key, SK_OPT_REAL, def, lo, hi, NULL, help \
  }

static const sk_option_spec problem_table[] = {
    {"model.problem", SK_OPT_CHOICE, "rober", 0, 0, "rober|hires|vdpol|orego|e5|brusselator",
     "built-in stiff problem (model.type = problem) on its published interval with its published "
     "parameters (model.<problem>.*): Robertson, HIRES, van der Pol, Oregonator, E5 (Test Set "
     "for "
     "IVP Solvers), 2D Brusselator"},
    /* ROBER: 1 .. 3 */
    SK__PARAM("model.rober.k1", "0.04", 4e-4, 4.0,
              "ROBER rate k1 (Test Set 0.04; range x/100..x100)"),
    SK__PARAM("model.rober.k2", "3e7", 3e5, 3e9,
              "ROBER rate k2 (Test Set 3e7; range x/100..x100)"),
    SK__PARAM("model.rober.k3", "1e4", 1e2, 1e6,
              "ROBER rate k3 (Test Set 1e4; range x/100..x100)"),
    /* HIRES: 4 .. 13 */
    SK__PARAM("model.hires.k1", "1.71", 0.0171, 171.0, "HIRES rate k1 (Test Set 1.71)"),
    SK__PARAM("model.hires.k2", "0.43", 0.0043, 43.0, "HIRES rate k2 (Test Set 0.43)"),
    SK__PARAM("model.hires.k3", "8.32", 0.0832, 832.0, "HIRES rate k3 (Test Set 8.32)"),
    SK__PARAM("model.hires.k4", "0.69", 0.0069, 69.0, "HIRES rate k4 (Test Set 0.69)"),
    SK__PARAM("model.hires.k5", "0.035", 3.5e-4, 3.5, "HIRES rate k5 (Test Set 0.035)"),
    SK__PARAM("model.hires.k6", "8.32", 0.0832, 832.0, "HIRES rate k6 (Test Set 8.32)"),
    SK__PARAM("model.hires.k7", "280", 2.8, 28000.0, "HIRES rate k7 of y6 y8 (Test Set 280)"),
    SK__PARAM("model.hires.k8", "0.69", 0.0069, 69.0, "HIRES rate k8 (Test Set 0.69)"),
    SK__PARAM("model.hires.k9", "0.69", 0.0069, 69.0, "HIRES rate k9 (Test Set 0.69)"),
    SK__PARAM("model.hires.oks", "0.0007", 7e-6, 0.07, "HIRES source term oks (Test Set 0.0007)"),
    /* VDPOL: 14 */
    SK__PARAM("model.vdpol.eps", "1e-6", 1e-8, 1.0,
              "VDPOL stiffness parameter eps = 1/mu^2 (Test Set 1e-6; range [1e-8, 1])"),
    /* OREGO: 15 .. 17 */
    SK__PARAM("model.orego.s", "77.27", 0.7727, 7727.0, "OREGO parameter s (Test Set 77.27)"),
    SK__PARAM("model.orego.w", "0.161", 0.00161, 16.1, "OREGO parameter w (Test Set 0.161)"),
    SK__PARAM("model.orego.q", "8.375e-6", 8.375e-8, 8.375e-4,
              "OREGO parameter q (Test Set 8.375e-6)"),
    /* E5: 18 .. 21 */
    SK__PARAM("model.e5.a", "7.89e-10", 7.89e-12, 7.89e-8, "E5 rate A (Test Set 7.89e-10)"),
    SK__PARAM("model.e5.b", "1.1e7", 1.1e5, 1.1e9, "E5 rate B (Test Set 1.1e7)"),
    SK__PARAM("model.e5.c", "1.13e3", 11.3, 1.13e5, "E5 rate C (Test Set 1.13e3)"),
    SK__PARAM("model.e5.m", "1e6", 1e4, 1e8, "E5 factor M (Test Set 1e6)"),
};

#define SK__NPARAM_KEYS (sizeof problem_table / sizeof problem_table[0])

/* ---- ROBER (k = k1, k2, k3) ------------------------------------------- */

static int rober_rhs(const double *k, const double *y, double *f)
{
  f[0] = -k[0] * y[0] + k[2] * y[1] * y[2];
  f[1] = k[0] * y[0] - k[2] * y[1] * y[2] - k[1] * y[1] * y[1];
  f[2] = k[1] * y[1] * y[1];
  return 0;
}

static const int64_t rober_colptr[] = {0, 2, 5, 7};
static const int64_t rober_rowind[] = {0, 1, 0, 1, 2, 0, 1};

static void rober_jac(const double *k, const double *y, double *v)
{
  v[0] = -k[0];                            /* (0,0) */
  v[1] = k[0];                             /* (1,0) */
  v[2] = k[2] * y[2];                      /* (0,1) */
  v[3] = -k[2] * y[2] - 2.0 * k[1] * y[1]; /* (1,1) */
  v[4] = 2.0 * k[1] * y[1];                /* (2,1) */
  v[5] = k[2] * y[1];                      /* (0,2) */
  v[6] = -k[2] * y[1];                     /* (1,2) */
}

/* ---- HIRES (k = k1 .. k9, oks) ---------------------------------------- */

static int hires_rhs(const double *k, const double *y, double *f)
{
  f[0] = -k[0] * y[0] + k[1] * y[1] + k[5] * y[2] + k[9];
  f[1] = k[0] * y[0] - (k[1] + k[2]) * y[1];
  f[2] = -(k[5] + k[0]) * y[2] + k[1] * y[3] + k[4] * y[4];
  f[3] = k[2] * y[1] + k[0] * y[2] - (k[3] + k[1]) * y[3];
  f[4] = -(k[4] + k[0]) * y[4] + k[1] * y[5] + k[1] * y[6];
  f[5] = -k[6] * y[5] * y[7] + k[7] * y[3] + k[0] * y[4] - k[1] * y[5] + k[7] * y[6];
  f[6] = k[6] * y[5] * y[7] - (k[1] + k[7] + k[8]) * y[6];
  f[7] = -f[6];
  return 0;
}

static const int64_t hires_colptr[] = {0, 2, 5, 8, 11, 14, 18, 22, 25};
static const int64_t hires_rowind[] = {0, 1, 0, 1, 3, 0, 2, 3, 2, 3, 5, 2, 4,
                                       5, 4, 5, 6, 7, 4, 5, 6, 7, 5, 6, 7};

static void hires_jac(const double *k, const double *y, double *v)
{
  const double a = k[6] * y[7], b = k[6] * y[5], d7 = k[1] + k[7] + k[8];
  const double vals[25] = {-k[0], k[0], /* column 1: rows 1, 2 */
                           k[1],  -(k[1] + k[2]),
                           k[2], /* column 2: rows 1, 2, 4 */
                           k[5],  -(k[5] + k[0]),
                           k[0], /* column 3: rows 1, 3, 4 */
                           k[1],  -(k[3] + k[1]),
                           k[7], /* column 4: rows 3, 4, 6 */
                           k[4],  -(k[4] + k[0]),
                           k[0], /* column 5: rows 3, 5, 6 */
                           k[1],  -a - k[1],
                           a,     -a, /* column 6: rows 5, 6, 7, 8 */
                           k[1],  k[7],
                           -d7,   d7, /* column 7: rows 5, 6, 7, 8 */
                           -b,    b,
                           -b}; /* column 8: rows 6, 7, 8 */
  memcpy(v, vals, sizeof vals);
}

/* ---- VDPOL (k = eps) -------------------------------------------------- */

static int vdpol_rhs(const double *k, const double *y, double *f)
{
  f[0] = y[1];
  f[1] = ((1.0 - y[0] * y[0]) * y[1] - y[0]) / k[0];
  return 0;
}

static const int64_t vdpol_colptr[] = {0, 1, 3};
static const int64_t vdpol_rowind[] = {1, 0, 1};

static void vdpol_jac(const double *k, const double *y, double *v)
{
  v[0] = (-2.0 * y[0] * y[1] - 1.0) / k[0]; /* (1,0) */
  v[1] = 1.0;                               /* (0,1) */
  v[2] = (1.0 - y[0] * y[0]) / k[0];        /* (1,1) */
}

/* ---- OREGO (k = s, w, q) ---------------------------------------------- */

static int orego_rhs(const double *k, const double *y, double *f)
{
  f[0] = k[0] * (y[1] + y[0] * (1.0 - k[2] * y[0] - y[1]));
  f[1] = (y[2] - (1.0 + y[0]) * y[1]) / k[0];
  f[2] = k[1] * (y[0] - y[2]);
  return 0;
}

static const int64_t orego_colptr[] = {0, 3, 5, 7};
static const int64_t orego_rowind[] = {0, 1, 2, 0, 1, 1, 2};

static void orego_jac(const double *k, const double *y, double *v)
{
  v[0] = k[0] * (1.0 - 2.0 * k[2] * y[0] - y[1]); /* (0,0) */
  v[1] = -y[1] / k[0];                            /* (1,0) */
  v[2] = k[1];                                    /* (2,0) */
  v[3] = k[0] * (1.0 - y[0]);                     /* (0,1) */
  v[4] = -(1.0 + y[0]) / k[0];                    /* (1,1) */
  v[5] = 1.0 / k[0];                              /* (1,2) */
  v[6] = -k[1];                                   /* (2,2) */
}

/* ---- E5 (k = A, B, C, M) ---------------------------------------------- */

/* The invariant y2 - y3 - y4 = 0 holds to one rounding of y3': y3' is
 * formed from the computed y2' and y4' (see the header). */
static int e5_rhs(const double *k, const double *y, double *f)
{
  const double p1 = k[0] * y[0], p2 = k[1] * y[0] * y[2];
  const double p3 = k[3] * k[2] * y[1] * y[2], p4 = k[2] * y[3];
  f[0] = -p1 - p2;
  f[1] = p1 - p3;
  f[3] = p2 - p4;
  f[2] = f[1] - f[3];
  return 0;
}

static const int64_t e5_colptr[] = {0, 4, 6, 10, 12};
static const int64_t e5_rowind[] = {0, 1, 2, 3, 1, 2, 0, 1, 2, 3, 2, 3};

static void e5_jac(const double *k, const double *y, double *v)
{
  const double mc = k[3] * k[2];
  v[0] = -k[0] - k[1] * y[2];      /* (0,0) */
  v[1] = k[0];                     /* (1,0) */
  v[2] = k[0] - k[1] * y[2];       /* (2,0) */
  v[3] = k[1] * y[2];              /* (3,0) */
  v[4] = -mc * y[2];               /* (1,1) */
  v[5] = -mc * y[2];               /* (2,1) */
  v[6] = -k[1] * y[0];             /* (0,2) */
  v[7] = -mc * y[1];               /* (1,2) */
  v[8] = -k[1] * y[0] - mc * y[1]; /* (2,2) */
  v[9] = k[1] * y[0];              /* (3,2) */
  v[10] = k[2];                    /* (2,3) */
  v[11] = -k[2];                   /* (3,3) */
}

/* ---- the table ----------------------------------------------------------- */

#define SK__TESTSET "Test Set for IVP Solvers (Mazzia, Magherini et al., Univ. Bari, release 2.4)"

static const sk__problem sk__problems[] = {
    {"rober",
     "Robertson chemical kinetics (ROBER)",
     3,
     rober_rhs,
     rober_jac,
     rober_colptr,
     rober_rowind,
     {1.0, 0.0, 0.0},
     1e11,
     1,
     3,
     {0.2083340149701255e-07, 0.8333360770334713e-13, 0.9999999791665050},
     {10, 10, 10},
     SK__TESTSET ", rober.f, subroutine solut"},
    {"hires",
     "HIRES plant physiology (Schaefer)",
     8,
     hires_rhs,
     hires_jac,
     hires_colptr,
     hires_rowind,
     {1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0057},
     321.8122,
     4,
     10,
     {0.7371312573325668e-3, 0.1442485726316185e-3, 0.5888729740967575e-4, 0.1175651343283149e-2,
      0.2386356198831331e-2, 0.6238968252742796e-2, 0.2849998395185769e-2, 0.2850001604814231e-2},
     {10, 10, 10, 10, 10, 10, 10, 10},
     SK__TESTSET ", hires.f, subroutine solut"},
    {"vdpol",
     "van der Pol, stiff scaling (VDPOL)",
     2,
     vdpol_rhs,
     vdpol_jac,
     vdpol_colptr,
     vdpol_rowind,
     {2.0, 0.0},
     2.0,
     14,
     1,
     {0.1706167732170483e1, -0.8928097010247975e0},
     {10, 10},
     SK__TESTSET ", vdpol.f, subroutine solut"},
    {"orego",
     "Oregonator (OREGO)",
     3,
     orego_rhs,
     orego_jac,
     orego_colptr,
     orego_rowind,
     {1.0, 2.0, 3.0},
     360.0,
     15,
     3,
     {0.1000814870318523e1, 0.1228178521549917e4, 0.1320554942846706e3},
     {10, 10, 9},
     SK__TESTSET ", orego.f, subroutine solut"},
    {"e5",
     "E5 stiff chemistry (Enright et al.)",
     4,
     e5_rhs,
     e5_jac,
     e5_colptr,
     e5_rowind,
     {1.76e-3, 0.0, 0.0, 0.0},
     1e13,
     18,
     4,
     {0.1152903278711829e-290, 0.8867655517642120e-22, 0.8854814626268838e-22, 0.0},
     {0, 2, 2, 0},
     SK__TESTSET ", e5.f, subroutine solut"},
};

#define SK__NPROBLEMS (sizeof sk__problems / sizeof sk__problems[0])
#define SK__BRUSSELATOR_NAME "brusselator"
#define SK__BRUSSELATOR_T_END 2.0

const char *sk_problem_name(size_t i)
{
  if (i < SK__NPROBLEMS) {
    return sk__problems[i].name;
  }
  if (i == SK__NPROBLEMS) {
    return SK__BRUSSELATOR_NAME;
  }
  return NULL;
}

const sk_option_spec *sk_problem_options(size_t *n)
{
  if (n) {
    *n = SK__NPARAM_KEYS;
  }
  return problem_table;
}

static int name_equal(const char *a, const char *b)
{
  for (; *a && *b; a++, b++) {
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) {
      return 0;
    }
  }
  return *a == *b;
}

static const sk__problem *find_problem(const char *name)
{
  for (size_t k = 0; k < SK__NPROBLEMS; k++) {
    if (name_equal(name, sk__problems[k].name)) {
      return &sk__problems[k];
    }
  }
  return NULL;
}

const sk_option_spec *sk_problem_parameters(const char *name, size_t *n)
{
  const sk__problem *p = name ? find_problem(name) : NULL;
  if (n) {
    *n = p ? p->nparams : 0;
  }
  return p ? &problem_table[p->first] : NULL;
}

sk_status sk_problem_get_reference(const char *name, sk_problem_reference *ref)
{
  const sk__problem *p = name ? find_problem(name) : NULL;
  if (!p || !ref) {
    return SK_ERR_ARG;
  }
  ref->t = p->t_end;
  ref->n = p->n;
  ref->y = p->ref;
  ref->digits = p->ref_digits;
  ref->source = p->ref_source;
  return SK_OK;
}

/* The model's user data: which problem (the table is constant) and its parameters. */
typedef struct {
  sk_context *ctx;
  const sk__problem *p;
  double k[SK__PROB_MAXP];
} sk__problem_data;

static int problem_rhs(double t, const double *y, double *f, void *ud)
{
  const sk__problem_data *d = ud;
  (void)t;
  return d->p->rhs(d->k, y, f);
}

static int problem_jac(double t, const double *y, const double *fy, double *v, void *ud)
{
  const sk__problem_data *d = ud;
  (void)t;
  (void)fy;
  d->p->jac(d->k, y, v);
  return 0;
}

static int problem_initial(double t0, double *y0, void *ud)
{
  const sk__problem_data *d = ud;
  (void)t0;
  memcpy(y0, d->p->y0, (size_t)d->p->n * sizeof *y0);
  return 0;
}

static void problem_component_name(int64_t i, char *buf, size_t len, void *ud)
{
  (void)ud;
  snprintf(buf, len, "y%lld", (long long)(i + 1));
}

static void problem_free(void *ud)
{
  sk__problem_data *d = ud;
  if (d) {
    sk__free(d->ctx, d);
  }
}

static sk_status unknown_problem(sk_context *ctx, const char *name)
{
  char list[160] = "";
  size_t used = 0;
  for (size_t k = 0; sk_problem_name(k) && used < sizeof list; k++) {
    int w = snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "", sk_problem_name(k));
    used += w > 0 ? (size_t)w : 0;
  }
  return SK_ERROR(ctx, SK_ERR_INPUT, "unknown problem '%s': valid names are %s", name, list);
}

sk_status sk_problem_create_with_parameters(sk_context *ctx, const char *name,
                                            const double *params, size_t nparams, sk_model **m)
{
  SK_CHECK(ctx, name != NULL && m != NULL, SK_ERR_ARG,
           "sk_problem_create_with_parameters: NULL argument");
  *m = NULL;
  if (name_equal(name, SK__BRUSSELATOR_NAME)) {
    SK_CHECK(ctx, params == NULL, SK_ERR_ARG,
             "the Brusselator takes its parameters from sk_brusselator_create");
    sk_brusselator_params bp;
    sk_brusselator_params_default(&bp);
    SK_CALL(ctx, sk_brusselator_create(ctx, &bp, m));
    sk_model_set_default_t_end(*m, SK__BRUSSELATOR_T_END);
    return SK_OK;
  }
  const sk__problem *p = find_problem(name);
  if (!p) {
    return unknown_problem(ctx, name);
  }
  SK_CHECK(ctx, params == NULL || nparams == p->nparams, SK_ERR_ARG,
           "problem '%s' has %zu parameters, %zu given", p->name, p->nparams, nparams);
  sk__problem_data *d = sk__calloc(ctx, 1, sizeof *d);
  SK_CHECK(ctx, d != NULL, SK_ERR_NOMEM, "cannot allocate the problem '%s'", p->name);
  d->ctx = ctx;
  d->p = p;
  for (size_t j = 0; j < p->nparams; j++) {
    const sk_option_spec *sp = &problem_table[p->first + j];
    d->k[j] = params ? params[j] : strtod(sp->def, NULL);
    if (!(d->k[j] >= sp->min && d->k[j] <= sp->max)) {
      problem_free(d);
      return SK_ERROR(ctx, SK_ERR_INPUT, "%s = %g is outside its range [%g, %g]", sp->key,
                      params ? params[j] : 0.0, sp->min, sp->max);
    }
  }
  sk_model *model = NULL;
  sk_status st = sk_model_create(ctx, SK_MODEL_ODE, p->n, &model);
  if (st == SK_OK) {
    st = sk_model_set_user_data(model, d, problem_free);
  } else {
    problem_free(d);
  }
  if (st == SK_OK) {
    st = sk_model_set_jac_pattern(model, p->colptr, p->rowind);
  }
  if (st != SK_OK) {
    sk_model_destroy(&model);
    sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
    return st;
  }
  sk_model_set_name(model, p->name);
  sk_model_set_rhs(model, problem_rhs);
  sk_model_set_jac_values(model, problem_jac);
  sk_model_set_initial(model, problem_initial);
  sk_model_set_component_name(model, problem_component_name);
  sk_model_set_default_t_end(model, p->t_end);
  *m = model;
  return SK_OK;
}

sk_status sk_problem_create(sk_context *ctx, const char *name, sk_model **m)
{
  SK_CALL(ctx, sk_problem_create_with_parameters(ctx, name, NULL, 0, m));
  return SK_OK;
}

sk_status sk_problem_from_options(sk_context *ctx, const sk_options *opts, sk_model **m)
{
  SK_CHECK(ctx, opts != NULL && m != NULL, SK_ERR_ARG, "sk_problem_from_options: NULL argument");
  *m = NULL;
  const char *name = NULL;
  SK_CALL(ctx, sk_options_get_string(opts, "model.problem", &name));
  /* a parameter of another problem is a mistake, not a silent no-op */
  for (size_t j = 1; j < SK__NPARAM_KEYS; j++) {
    const char *key = problem_table[j].key;
    const char *pname = key + strlen("model.");
    const size_t plen = (size_t)(strchr(pname, '.') - pname);
    if (sk_options_is_set(opts, key) && !(strlen(name) == plen && !strncmp(pname, name, plen))) {
      return SK_ERROR(ctx, SK_ERR_INPUT,
                      "%s is a parameter of the problem %.*s, but model.problem = %s", key,
                      (int)plen, pname, name);
    }
  }
  const sk__problem *p = find_problem(name);
  if (!p) { /* the Brusselator by name (its defaults), or the unknown-name error */
    SK_CALL(ctx, sk_problem_create_with_parameters(ctx, name, NULL, 0, m));
    return SK_OK;
  }
  double k[SK__PROB_MAXP];
  for (size_t j = 0; j < p->nparams; j++) {
    SK_CALL(ctx, sk_options_get_real(opts, problem_table[p->first + j].key, &k[j]));
  }
  SK_CALL(ctx, sk_problem_create_with_parameters(ctx, p->name, k, p->nparams, m));
  return SK_OK;
}

static sk_status create_problem(sk_context *ctx, sk_options *opts, sk_model **model)
{
  return sk_problem_from_options(ctx, opts, model);
}

const sk_model_type sk__model_type_problem = {
    .name = "problem",
    .description = "a built-in stiff problem named by model.problem, on its published interval",
    .driver = SK_MODEL_DRIVER_STEPPER,
    .options = sk_problem_options,
    .create = create_problem};

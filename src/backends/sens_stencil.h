/* src/backends/sens_stencil.h: the difference stencil of the sensitivity equations' directional derivatives (CVODES right-hand sides, IDAS residuals) */
#ifndef SK_BACKENDS_SENS_STENCIL_H
#define SK_BACKENDS_SENS_STENCIL_H

#include <math.h>

/* The directional derivative g'(0) of g(e) = f(y + e s_j, p + e e_j) (or the residual F along
 * (s_j, s_j', e_j)) is the fourth-order centered difference
 *   (8 (g(d) - g(-d)) - (g(2d) - g(-2d))) / 12d,
 * with d = eps^(1/5) max(|p_j|, pbar_j): truncation and rounding errors both near eps^(4/5)
 * relative. The second-order quotient (g(d) - g(-d)) / 2d at d = eps^(1/3) leaves rounding
 * noise near eps^(2/3); the index-2 rows of a GGL mechanism amplify it by 1/h^2 in IDA's first
 * tiny steps (the Newton iteration failed), and CVODES' own quotients (increment sqrt(rtol))
 * left noise near rtol, which cut the steps of an index-1 mechanism 80-fold
 * (tests/numerics/test_multibody_sens.c). */
#define SK__SENS_STENCIL_POINTS 4
static const double sk__sens_stencil_step[SK__SENS_STENCIL_POINTS] = {1.0, -1.0, 2.0, -2.0};
static const double sk__sens_stencil_weight[SK__SENS_STENCIL_POINTS] = {8.0, -8.0, -1.0, 1.0};

/* The increment d of parameter value p with scale pbar. */
static inline double sk__sens_stencil_increment(double p, double pbar)
{
  return 7.4009597974140505e-04 * fmax(fabs(p), pbar); /* eps^(1/5) */
}

/* The divisor of the weighted sum: 12 d. */
static inline double sk__sens_stencil_divisor(double d)
{
  return 12.0 * d;
}

#endif

/* src/models/multibody_kinematics.c: planar mechanism kinematics: loading (the file read, the constraint rows numbered), constraints Phi(q, t), their Jacobian G, Phi_t and the acceleration right-hand side gamma, for revolute, prismatic and fixed joints and drivers */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "models/multibody_impl.h"

sk_status sk_multibody_load(sk_context *ctx, const char *path, sk_multibody **mech)
{
  const sk_status st = sk__multibody_read(ctx, path, mech);
  if (st != SK_OK) { /* an error, or a stop asked for while reading (*mech is NULL) */
    return st;
  }
  sk__multibody_finish(*mech);
  return SK_OK;
}

void sk__multibody_finish(sk_multibody *mech)
{
  int row = 0;
  for (int j = 0; j < mech->nj; j++) {
    sk__multibody_joint *J = &mech->joints[j];
    J->row = row;
    J->nrows = J->type == SK__MULTIBODY_FIXED ? 3 : 2;
    row += J->nrows;
    const double *q1 = mech->bodies[J->b1].q0;
    const double phi2 = J->b2 == SK__MULTIBODY_GROUND ? 0.0 : mech->bodies[J->b2].q0[2];
    J->phi0 = q1[2] - phi2;
    memcpy(J->fixed, q1, sizeof J->fixed);
  }
  for (int d = 0; d < mech->nd; d++) {
    mech->drivers[d].row = row++;
  }
  mech->m = row;
}

/* ---- sizes and names ------------------------------------------------------- */

int sk_multibody_nbodies(const sk_multibody *mech)
{
  return mech ? mech->nb : 0;
}

int sk_multibody_ncoords(const sk_multibody *mech)
{
  return mech ? 3 * mech->nb : 0;
}

int sk_multibody_nconstraints(const sk_multibody *mech)
{
  return mech ? mech->m : 0;
}

int sk_multibody_njoints(const sk_multibody *mech)
{
  return mech ? mech->nj : 0;
}

int sk_multibody_nevents(const sk_multibody *mech)
{
  return mech ? mech->ne : 0;
}

const char *sk_multibody_body_name(const sk_multibody *mech, int b)
{
  return b == SK__MULTIBODY_GROUND ? "ground" : mech->bodies[b].name;
}

const char *sk_multibody_joint_name(const sk_multibody *mech, int j)
{
  return mech->joints[j].name;
}

const char *sk_multibody_event_name(const sk_multibody *mech, int k)
{
  return k >= 0 && k < mech->ne ? mech->events[k].name : "?";
}

void sk_multibody_coord_name(const sk_multibody *mech, int i, char *buf, size_t len)
{
  static const char *const axis[3] = {"x", "y", "phi"};
  snprintf(buf, len, "%s_%s", axis[i % 3], mech->bodies[i / 3].name);
}

void sk_multibody_row_name(const sk_multibody *mech, int r, char *buf, size_t len)
{
  for (int j = 0; j < mech->nj; j++) {
    const sk__multibody_joint *J = &mech->joints[j];
    if (r >= J->row && r < J->row + J->nrows) {
      static const char *const rev[2] = {"x", "y"}, *const pri[2] = {"angle", "normal"};
      static const char *const fix[3] = {"x", "y", "angle"};
      const int k = r - J->row;
      snprintf(buf, len, "%s.%s", J->name,
               J->type == SK__MULTIBODY_REVOLUTE    ? rev[k]
               : J->type == SK__MULTIBODY_PRISMATIC ? pri[k]
                                                    : fix[k]);
      return;
    }
  }
  for (int d = 0; d < mech->nd; d++) {
    if (mech->drivers[d].row == r) {
      snprintf(buf, len, "drive(%s)", mech->joints[mech->drivers[d].joint].name);
      return;
    }
  }
  snprintf(buf, len, "row %d", r);
}

void sk_multibody_joint_rows(const sk_multibody *mech, int j, int *first, int *count)
{
  *first = mech->joints[j].row;
  *count = mech->joints[j].nrows;
}

void sk_multibody_initial(const sk_multibody *mech, double *q, double *v)
{
  for (int b = 0; b < mech->nb; b++) {
    memcpy(q + 3 * b, mech->bodies[b].q0, 3 * sizeof *q);
    memcpy(v + 3 * b, mech->bodies[b].v0, 3 * sizeof *v);
  }
}

void sk_multibody_mass(const sk_multibody *mech, double *mdiag)
{
  for (int b = 0; b < mech->nb; b++) {
    mdiag[3 * b] = mdiag[3 * b + 1] = mech->bodies[b].mass;
    mdiag[3 * b + 2] = mech->bodies[b].inertia;
  }
}

/* ---- planar geometry --------------------------------------------------------- */

/* A(phi) s and B(phi) s = dA/dphi s. */
void sk__multibody_rotate(double phi, const double s[2], double out[2])
{
  const double c = cos(phi), sn = sin(phi);
  out[0] = c * s[0] - sn * s[1];
  out[1] = sn * s[0] + c * s[1];
}

static void drot(double phi, const double s[2], double out[2])
{
  const double c = cos(phi), sn = sin(phi);
  out[0] = -sn * s[0] - c * s[1];
  out[1] = c * s[0] - sn * s[1];
}

/* The pose (x, y, phi) and rates of body b, zero for the ground. */
static void pose(int b, const double *q, const double *v, double p[3], double pv[3])
{
  for (int k = 0; k < 3; k++) {
    p[k] = b == SK__MULTIBODY_GROUND ? 0.0 : q[3 * b + k];
    if (pv) {
      pv[k] = b == SK__MULTIBODY_GROUND || !v ? 0.0 : v[3 * b + k];
    }
  }
}

void sk__multibody_point(int b, const double *q, const double *v, const double s[2], double P[2],
                         double Pv[2])
{
  double p[3], pv[3], As[2];
  pose(b, q, v, p, pv);
  sk__multibody_rotate(p[2], s, As);
  P[0] = p[0] + As[0];
  P[1] = p[1] + As[1];
  if (Pv) {
    Pv[0] = pv[0] - As[1] * pv[2];
    Pv[1] = pv[1] + As[0] * pv[2];
  }
}

/* The driver's prescribed value f(t) and its derivatives (5-point differences when no
 * formula is given). */
static void driver_values(const sk__multibody_driver *D, double t, double f[3])
{
  f[0] = sk__time_function_eval(D->f, t);
  /* a fixed 1e-3 (the truncation error of the 5-point formulas, h^4 f^(5) / 30, must not grow
     with t), larger only where t itself rounds at that scale */
  const double h = fmax(1e-3, 1e3 * DBL_EPSILON * fabs(t));
  double fm2 = 0, fm1 = 0, fp1 = 0, fp2 = 0;
  if (!D->df || !D->ddf) {
    fm2 = sk__time_function_eval(D->f, t - 2 * h);
    fm1 = sk__time_function_eval(D->f, t - h);
    fp1 = sk__time_function_eval(D->f, t + h);
    fp2 = sk__time_function_eval(D->f, t + 2 * h);
  }
  f[1] = D->df ? sk__time_function_eval(D->df, t) : (fm2 - 8 * fm1 + 8 * fp1 - fp2) / (12 * h);
  f[2] = D->ddf ? sk__time_function_eval(D->ddf, t)
                : (-fm2 + 16 * fm1 - 30 * f[0] + 16 * fp1 - fp2) / (12 * h * h);
}

/* One row Phi = sign ((A1 e) . (P2 - r1) - e . s1) (sign times the component of P2 - P1 along
 * the body-1 direction e): its value, its G row (added into Grow, length n, when not NULL)
 * and the gamma terms beyond G q'' (velocity-dependent). */
static double along_row(const sk__multibody_joint *J, const double e[2], double sign,
                        const double *q, const double *v, double *Grow, double *gamma_extra)
{
  double p1[3], p1v[3], p2[3], p2v[3];
  pose(J->b1, q, v, p1, p1v);
  pose(J->b2, q, v, p2, p2v);
  double Ae[2], Be[2], A2s2[2], B2s2[2];
  sk__multibody_rotate(p1[2], e, Ae);
  drot(p1[2], e, Be);
  sk__multibody_rotate(p2[2], J->s2, A2s2);
  drot(p2[2], J->s2, B2s2);
  const double w[2] = {p2[0] + A2s2[0] - p1[0], p2[1] + A2s2[1] - p1[1]};
  if (Grow) {
    const int i1 = 3 * J->b1;
    Grow[i1] -= sign * Ae[0];
    Grow[i1 + 1] -= sign * Ae[1];
    Grow[i1 + 2] += sign * (Be[0] * w[0] + Be[1] * w[1]);
    if (J->b2 != SK__MULTIBODY_GROUND) {
      const int i2 = 3 * J->b2;
      Grow[i2] += sign * Ae[0];
      Grow[i2 + 1] += sign * Ae[1];
      Grow[i2 + 2] += sign * (Ae[0] * B2s2[0] + Ae[1] * B2s2[1]);
    }
  }
  if (gamma_extra) {
    const double wd[2] = {p2v[0] + B2s2[0] * p2v[2] - p1v[0], p2v[1] + B2s2[1] * p2v[2] - p1v[1]};
    /* Phi'' - G q'' = -(A1 e).w phi1'^2 + 2 phi1' (B1 e).w' - (A1 e).(A2 s2) phi2'^2 */
    const double rest = -(Ae[0] * w[0] + Ae[1] * w[1]) * p1v[2] * p1v[2] +
                        2.0 * p1v[2] * (Be[0] * wd[0] + Be[1] * wd[1]) -
                        (Ae[0] * A2s2[0] + Ae[1] * A2s2[1]) * p2v[2] * p2v[2];
    *gamma_extra = -sign * rest;
  }
  return sign * (Ae[0] * w[0] + Ae[1] * w[1] - (e[0] * J->s1[0] + e[1] * J->s1[1]));
}

sk_status sk__multibody_rows(sk_multibody *mech, double t, const double *q, const double *v,
                             double *phi, double *G, double *phit, double *gamma)
{
  const int n = 3 * mech->nb, m = mech->m;
  if (G) {
    memset(G, 0, (size_t)m * (size_t)n * sizeof *G);
  }
  for (int j = 0; j < mech->nj; j++) {
    const sk__multibody_joint *J = &mech->joints[j];
    const int r = J->row, i1 = 3 * J->b1, i2 = 3 * J->b2;
    double p1[3], p1v[3], p2[3], p2v[3];
    pose(J->b1, q, v, p1, p1v);
    pose(J->b2, q, v, p2, p2v);
    for (int k = 0; k < J->nrows; k++) {
      if (phit) {
        phit[r + k] = 0.0;
      }
    }
    if (J->type == SK__MULTIBODY_REVOLUTE) {
      double P1[2], P2[2], B1[2], B2[2], A1[2], A2[2];
      sk__multibody_point(J->b1, q, NULL, J->s1, P1, NULL);
      sk__multibody_point(J->b2, q, NULL, J->s2, P2, NULL);
      drot(p1[2], J->s1, B1);
      drot(p2[2], J->s2, B2);
      sk__multibody_rotate(p1[2], J->s1, A1);
      sk__multibody_rotate(p2[2], J->s2, A2);
      for (int k = 0; k < 2; k++) {
        if (phi) {
          phi[r + k] = P1[k] - P2[k];
        }
        if (G) {
          G[(r + k) * n + i1 + k] = 1.0;
          G[(r + k) * n + i1 + 2] = B1[k];
          if (J->b2 != SK__MULTIBODY_GROUND) {
            G[(r + k) * n + i2 + k] = -1.0;
            G[(r + k) * n + i2 + 2] = -B2[k];
          }
        }
        if (gamma) {
          gamma[r + k] = A1[k] * p1v[2] * p1v[2] - A2[k] * p2v[2] * p2v[2];
        }
      }
    } else if (J->type == SK__MULTIBODY_PRISMATIC) {
      if (phi) {
        phi[r] = p1[2] - p2[2] - J->phi0;
      }
      if (G) {
        G[r * n + i1 + 2] = 1.0;
        if (J->b2 != SK__MULTIBODY_GROUND) {
          G[r * n + i2 + 2] = -1.0;
        }
      }
      if (gamma) {
        gamma[r] = 0.0;
      }
      const double h[2] = {-J->axis[1], J->axis[0]}; /* the normal of the sliding axis */
      const double val =
          along_row(J, h, 1.0, q, v, G ? G + (r + 1) * n : NULL, gamma ? &gamma[r + 1] : NULL);
      if (phi) {
        phi[r + 1] = val;
      }
    } else { /* fixed */
      for (int k = 0; k < 3; k++) {
        if (phi) {
          phi[r + k] = p1[k] - J->fixed[k];
        }
        if (G) {
          G[(r + k) * n + i1 + k] = 1.0;
        }
        if (gamma) {
          gamma[r + k] = 0.0;
        }
      }
    }
  }
  for (int d = 0; d < mech->nd; d++) {
    const sk__multibody_driver *D = &mech->drivers[d];
    const sk__multibody_joint *J = &mech->joints[D->joint];
    const int r = D->row;
    double f[3];
    driver_values(D, t, f);
    SK_CHECK(mech->ctx, isfinite(f[0]) && isfinite(f[1]) && isfinite(f[2]), SK_ERR_NONFINITE,
             "the driver of joint '%s' is not finite at t = %.9g (f = %g, f' = %g, f'' = %g)",
             J->name, t, f[0], f[1], f[2]);
    double val, extra = 0.0;
    if (J->type == SK__MULTIBODY_REVOLUTE) {
      double p1[3], p2[3];
      pose(J->b1, q, NULL, p1, NULL);
      pose(J->b2, q, NULL, p2, NULL);
      val = p1[2] - p2[2];
      if (G) {
        G[r * n + 3 * J->b1 + 2] = 1.0;
        if (J->b2 != SK__MULTIBODY_GROUND) {
          G[r * n + 3 * J->b2 + 2] = -1.0;
        }
      }
    } else { /* prismatic: the displacement of point1 from point2 along the axis, so that
                a positive value moves body1 along +axis, as a revolute driver turns body1 */
      val = along_row(J, J->axis, -1.0, q, v, G ? G + r * n : NULL, gamma ? &extra : NULL);
    }
    if (phi) {
      phi[r] = val - f[0];
    }
    if (phit) {
      phit[r] = -f[1];
    }
    if (gamma) {
      gamma[r] = f[2] + extra;
    }
  }
  return SK_OK;
}

sk_status sk_multibody_phi(sk_multibody *mech, double t, const double *q, double *phi)
{
  return sk__multibody_rows(mech, t, q, NULL, phi, NULL, NULL, NULL);
}

sk_status sk_multibody_jacobian(sk_multibody *mech, double t, const double *q, double *G)
{
  return sk__multibody_rows(mech, t, q, NULL, NULL, G, NULL, NULL);
}

sk_status sk_multibody_phi_t(sk_multibody *mech, double t, const double *q, double *phit)
{
  return sk__multibody_rows(mech, t, q, NULL, NULL, NULL, phit, NULL);
}

sk_status sk_multibody_gamma(sk_multibody *mech, double t, const double *q, const double *v,
                             double *gamma)
{
  return sk__multibody_rows(mech, t, q, v, NULL, NULL, NULL, gamma);
}

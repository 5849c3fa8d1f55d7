/* src/models/multibody_impl.h: the mechanism's body (bodies, joints, drivers, forces, events) shared by its parser, kinematics and formulations */
#ifndef SK_MODELS_MULTIBODY_IMPL_H
#define SK_MODELS_MULTIBODY_IMPL_H

#include "io/time_function.h"
#include "stiffkit/multibody.h"

#define SK__MULTIBODY_NAME 32
#define SK__MULTIBODY_GROUND (-1) /* the body index of the ground */

typedef struct {
  char name[SK__MULTIBODY_NAME];
  double mass, inertia; /* > 0; inertia about the centroid */
  double q0[3], v0[3];  /* x, y, phi and their rates at t0 */
  int line;             /* where it was declared (messages) */
} sk__multibody_body;

typedef enum {
  SK__MULTIBODY_REVOLUTE = 0, /* r1 + A1 s1 = r2 + A2 s2 (2 rows) */
  SK__MULTIBODY_PRISMATIC =
      1, /* phi1 - phi2 = const and n1 . (P2 - P1) = 0, n1 = A1 perp(u) (2 rows) */
  SK__MULTIBODY_FIXED = 2 /* body1 welded where it starts: x, y, phi fixed (3 rows) */
} sk__multibody_joint_type;

typedef struct {
  char name[SK__MULTIBODY_NAME];
  sk__multibody_joint_type type;
  int b1, b2;          /* body indices, SK__MULTIBODY_GROUND for the ground (b2 only) */
  double s1[2], s2[2]; /* attachment points in the body frames (ground: global) */
  double axis[2];      /* prismatic: the unit sliding axis in body1's frame */
  double phi0;         /* prismatic: phi1 - phi2 at t0; fixed: the pose of body1 (with q0) */
  double fixed[3];     /* fixed: x, y, phi of body1 */
  int row, nrows;      /* its rows of Phi */
  int line;
} sk__multibody_joint;

/* A driver prescribes a joint's relative coordinate of body1 against body2:
 * a revolute joint's angle phi_b1 - phi_b2 = f(t), a prismatic joint's
 * displacement u1 . (P1 - P2) = f(t) along the axis u1 (fixed in body1).
 * Its multiplier is then the torque or axial force on body1. f' and f'' are
 * their own formulas when given, else 5-point differences of f. */
typedef struct {
  int joint;
  sk__time_function *f, *df, *ddf; /* df, ddf may be NULL */
  int row;
  int line;
} sk__multibody_driver;

typedef enum {
  SK__MULTIBODY_SPRING =
      0, /* k (|P2 - P1| - L0) + c d|P2 - P1|/dt along P2 - P1, between two points */
  SK__MULTIBODY_FORCE = 1, /* fx(t), fy(t) (global components) at a body point */
  SK__MULTIBODY_TORQUE = 2 /* tau(t) on a body */
} sk__multibody_force_type;

typedef struct {
  sk__multibody_force_type type;
  char name[SK__MULTIBODY_NAME]; /* springs: the name of their parameters (spring<k> by default) */
  int b1, b2;                    /* b2 may be SK__MULTIBODY_GROUND (springs) */
  double s1[2], s2[2];
  double k, length, damping;  /* springs */
  sk__time_function *fx, *fy; /* force (fy NULL for a torque: fx is tau) */
  int line;
} sk__multibody_force;

/* An event: coordinate c (0 x, 1 y, 2 phi) of body b crosses value. */
typedef struct {
  char name[SK__MULTIBODY_NAME];
  int body, coord;
  double value;
} sk__multibody_event;

struct sk_multibody {
  sk_context *ctx;
  char file[256];
  double gravity[2];
  int nb, nj, nd, nf, ne;
  sk__multibody_body *bodies;
  sk__multibody_joint *joints;
  sk__multibody_driver *drivers;
  sk__multibody_force *forces;
  sk__multibody_event *events;
  int m; /* constraint rows: joints then drivers */
};

/* sk__multibody_finish: number the constraint rows (joints in order, then
 * drivers), record each prismatic joint's phi0 and each fixed joint's pose
 * from the bodies' initial q0. Called once the arrays are filled. */
void sk__multibody_finish(sk_multibody *mech);

/* sk__multibody_rotate: A(phi) s. sk__multibody_point: point s of body b (ground: s is
 * global) at its global position P and, when Pv is not NULL, velocity Pv
 * (v may be NULL: at rest). */
void sk__multibody_rotate(double phi, const double s[2], double out[2]);
void sk__multibody_point(int b, const double *q, const double *v, const double s[2], double P[2],
                         double Pv[2]);

/* sk__multibody_rows: every constraint row at (t, q, v): Phi (phi), G (m x n
 * row-major), Phi_t (phit) and gamma (needs v); any output may be NULL.
 * Errors: SK_ERR_NONFINITE (a driver formula). */
sk_status sk__multibody_rows(sk_multibody *mech, double t, const double *q, const double *v,
                             double *phi, double *G, double *phit, double *gamma);

/* sk__multibody_param_field: the field of parameter k (sk_multibody_param_name's
 * order), NULL out of range. sk__multibody_declare_params: every parameter as a
 * parameter of `model` by name, in that order (sk_model_add_param). */
double *sk__multibody_param_field(sk_multibody *mech, int k);
/* sk__multibody_param_is_geometry: 1 when parameter k is a joint's attachment point (it moves the
 * constraints, and so the consistent start). */
int sk__multibody_param_is_geometry(const sk_multibody *mech, int k);
sk_status sk__multibody_declare_params(sk_multibody *mech, sk_model *model);

#endif

/* src/io/multibody_file.h: a mechanism as its file describes it (bodies, joints, drivers, forces, events), and the reader of mechanism files */
#ifndef SK_IO_MULTIBODY_FILE_H
#define SK_IO_MULTIBODY_FILE_H

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

/* sk__multibody_read: a new mechanism from the mechanism file at `path` (YAML,
 * format in data/mechanisms/README.md): its arrays filled and checked, its
 * constraint rows not yet numbered (models/ does that: sk_multibody_load).
 * Errors name the file, line and column: SK_ERR_IO (unreadable), SK_ERR_INPUT
 * (syntax, an unknown key, a missing or bad field, an unknown name),
 * SK_ERR_NOMEM, SK_ERR_INTERRUPTED. On error *mech is NULL. Free with
 * sk_multibody_destroy. */
sk_status sk__multibody_read(sk_context *ctx, const char *path, sk_multibody **mech);

#endif

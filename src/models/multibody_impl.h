/* src/models/multibody_impl.h: what the mechanism's kinematics, dynamics and formulations share: the rows of the constraints, points of bodies, parameters */
#ifndef SK_MODELS_MULTIBODY_IMPL_H
#define SK_MODELS_MULTIBODY_IMPL_H

#include "io/multibody_file.h"

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

/* src/models/diffusion_mms.h: the diffusion model's manufactured solution u* = e^{-t} prod_d sin(pi x_d/L_d) + offset: its value, gradient, source and boundary data, for the serial model and its block kernel */
#ifndef SK_MODELS_DIFFUSION_MMS_H
#define SK_MODELS_DIFFUSION_MMS_H

#include <stdint.h>

#include "models/grid.h"
#include "stiffkit/diffusion.h"

/* The formulas are those of diffusion.c's MATHEMATICS note (2). S[d] and
 * C[d] are sin and cos of pi x_d / L_d at the point, for d < dim (entries
 * beyond dim are not read); e_t = e^{-t}. The conductivity is the built-in
 * one (model.exact = manufactured refuses a conductivity function). */

/* sk__diffusion_mms_sc: S and C of grid position i along d, as the serial
 * model tabulates them (sin and cos of pi (i + off_d) / N_d). */
void sk__diffusion_mms_sc(const sk__grid *g, int d, int64_t i, double *S, double *C);

/* sk__diffusion_mms_value: u* at the point. */
double sk__diffusion_mms_value(const sk_diffusion_params *p, int dim, double e_t,
                               const double S[3]);

/* sk__diffusion_mms_grad: d(u*)/dx_d at the point. */
double sk__diffusion_mms_grad(const sk_diffusion_params *p, int dim, double e_t,
                              const double S[3], const double C[3], int d);

/* sk__diffusion_mms_source: the source s_mms that makes u* solve the
 * equation with the model's other sources (p->source at u*, source_const). */
double sk__diffusion_mms_source(const sk_diffusion_params *p, int dim, double t, double e_t,
                                const double x[3], const double S[3], const double C[3]);

/* sk__diffusion_mms_face: the datum of side s of direction d at time t
 * (e_t = e^{-t}) at the boundary point whose other coordinates are in x,
 * S and C (entries d are set here): *val = u* (Dirichlet), k d(u*)/dn
 * (Neumann) or u* + (k / c) d(u*)/dn (Robin), and for a Dirichlet side
 * *kb = k at the point with u*. */
void sk__diffusion_mms_face(const sk_diffusion_params *p, int dim, double e_t, int d, int s,
                            double x[3], double S[3], double C[3], double *val, double *kb);

#endif

/* src/models/diffusion_mms.c: the diffusion model's manufactured solution: value, gradient, source and boundary data (shared by the serial model and its block kernel) */
#include <math.h>

#include "models/diffusion_mms.h"
#include "models/diffusion_stencil.h"
#include "stiffkit/diffusion.h"

#define SK_PI 3.14159265358979323846

void sk__diffusion_mms_sc(const sk__grid *g, int d, int64_t i, double *S, double *C)
{
  const double frac = (double)(i + g->off[d]) / (double)g->ncells[d]; /* x / L */
  *S = sin(SK_PI * frac);
  *C = cos(SK_PI * frac);
}

double sk__diffusion_mms_value(const sk_diffusion_params *p, int dim, double e_t,
                               const double S[3])
{
  double P = 1.0;
  for (int d = 0; d < dim; d++) {
    P *= S[d];
  }
  return e_t * P + p->offset;
}

double sk__diffusion_mms_grad(const sk_diffusion_params *p, int dim, double e_t,
                              const double S[3], const double C[3], int d)
{
  double prod = e_t * (SK_PI / p->length[d]) * C[d];
  for (int e = 0; e < dim; e++) {
    if (e != d) {
      prod *= S[e];
    }
  }
  return prod;
}

double sk__diffusion_mms_source(const sk_diffusion_params *p, int dim, double t, double e_t,
                                const double x[3], const double S[3], const double C[3])
{
  double P = 1.0, G = 0.0;
  for (int d = 0; d < dim; d++) {
    P *= S[d];
    G += p->kgrad[d] * x[d] / p->length[d];
  }
  const double us = e_t * P + p->offset;
  const double aa = 1.0 + p->beta * us, bb = 1.0 + G;
  const double k = p->k0 * aa * bb;
  double div = 0.0;
  for (int d = 0; d < dim; d++) {
    const double ad = SK_PI / p->length[d];
    const double gd = sk__diffusion_mms_grad(p, dim, e_t, S, C, d);
    const double kd = p->k0 * (p->beta * gd * bb + aa * p->kgrad[d] / p->length[d]);
    div += kd * gd + k * (-e_t * ad * ad * P);
  }
  double extra = p->source_const;
  if (p->source) {
    double ds = 0.0;
    extra += p->source(x, t, us, &ds, p->user_data);
  }
  return -e_t * P - div - extra;
}

void sk__diffusion_mms_face(const sk_diffusion_params *p, int dim, double e_t, int d, int s,
                            double x[3], double S[3], double C[3], double *val, double *kb)
{
  const sk_bc *bc = &p->bc[d][s];
  x[d] = s ? p->length[d] : 0.0;
  S[d] = s ? sin(SK_PI) : 0.0;
  C[d] = s ? -1.0 : 1.0;
  const double us = sk__diffusion_mms_value(p, dim, e_t, S);
  const double dudn = (s ? 1.0 : -1.0) * sk__diffusion_mms_grad(p, dim, e_t, S, C, d);
  double dk;
  const double k = sk__diffusion_k_default(p, dim, x, us, &dk);
  if (bc->type == SK_BC_DIRICHLET) {
    *val = us;
    *kb = k;
  } else if (bc->type == SK_BC_NEUMANN) {
    *val = k * dudn;
  } else {
    *val = us + k / bc->coeff * dudn;
  }
}

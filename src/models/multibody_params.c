/* src/models/multibody_params.c: a mechanism's parameters by name: bodies' masses and inertias, gravity, springs' coefficients, joints' attachment points */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "models/multibody_impl.h"

/* The parameters in order: <body>.mass and <body>.inertia for every body, gravity.x and
 * gravity.y, <spring>.stiffness, <spring>.length and <spring>.damping for every spring, then
 * <joint>.point1.x, .point1.y, .point2.x, .point2.y for every revolute and prismatic joint. */
static const char *const body_fields[] = {"mass", "inertia"};
static const char *const spring_fields[] = {"stiffness", "length", "damping"};
static const char *const point_fields[] = {"point1.x", "point1.y", "point2.x", "point2.y"};

static int npointed(const sk_multibody *mech)
{
  int c = 0;
  for (int j = 0; j < mech->nj; j++) {
    c += mech->joints[j].type != SK__MULTIBODY_FIXED;
  }
  return c;
}

static int nsprings(const sk_multibody *mech)
{
  int c = 0;
  for (int k = 0; k < mech->nf; k++) {
    c += mech->forces[k].type == SK__MULTIBODY_SPRING;
  }
  return c;
}

int sk_multibody_nparams(const sk_multibody *mech)
{
  return mech ? 2 * mech->nb + 2 + 3 * nsprings(mech) + 4 * npointed(mech) : 0;
}

/* Parameter k's field and name (into buf), NULL out of range. */
static double *param_at(sk_multibody *mech, int k, char *buf, size_t len)
{
  if (k < 0) {
    return NULL;
  }
  if (k < 2 * mech->nb) {
    sk__multibody_body *B = &mech->bodies[k / 2];
    snprintf(buf, len, "%s.%s", B->name, body_fields[k % 2]);
    return k % 2 ? &B->inertia : &B->mass;
  }
  k -= 2 * mech->nb;
  if (k < 2) {
    snprintf(buf, len, "gravity.%s", k ? "y" : "x");
    return &mech->gravity[k];
  }
  k -= 2;
  for (int f = 0; f < mech->nf; f++) {
    sk__multibody_force *F = &mech->forces[f];
    if (F->type != SK__MULTIBODY_SPRING) {
      continue;
    }
    if (k < 3) {
      snprintf(buf, len, "%s.%s", F->name, spring_fields[k]);
      return k == 0 ? &F->k : k == 1 ? &F->length : &F->damping;
    }
    k -= 3;
  }
  for (int j = 0; j < mech->nj; j++) {
    sk__multibody_joint *J = &mech->joints[j];
    if (J->type == SK__MULTIBODY_FIXED) {
      continue;
    }
    if (k < 4) {
      snprintf(buf, len, "%s.%s", J->name, point_fields[k]);
      return k < 2 ? &J->s1[k] : &J->s2[k - 2];
    }
    k -= 4;
  }
  return NULL;
}

int sk__multibody_param_is_geometry(const sk_multibody *mech, int k)
{
  return k >= 2 * mech->nb + 2 + 3 * nsprings(mech) && k < sk_multibody_nparams(mech);
}

double *sk__multibody_param_field(sk_multibody *mech, int k)
{
  char buf[2 * SK__MULTIBODY_NAME + 16];
  return param_at(mech, k, buf, sizeof buf);
}

sk_status sk_multibody_param_name(const sk_multibody *mech, int k, char *buf, size_t len)
{
  SK_CHECK(mech->ctx, param_at((sk_multibody *)mech, k, buf, len) != NULL, SK_ERR_ARG,
           "mechanism '%s' has no parameter %d (it has %d)", mech->file, k,
           sk_multibody_nparams(mech));
  return SK_OK;
}

int sk_multibody_find_param(const sk_multibody *mech, const char *name)
{
  char buf[2 * SK__MULTIBODY_NAME + 16];
  for (int k = 0; k < sk_multibody_nparams(mech); k++) {
    if (param_at((sk_multibody *)mech, k, buf, sizeof buf) && !strcmp(buf, name)) {
      return k;
    }
  }
  return -1;
}

double sk_multibody_get_param(const sk_multibody *mech, int k)
{
  char buf[2 * SK__MULTIBODY_NAME + 16];
  const double *v = param_at((sk_multibody *)mech, k, buf, sizeof buf);
  return v ? *v : 0.0;
}

sk_status sk_multibody_set_param(sk_multibody *mech, int k, double value)
{
  char buf[2 * SK__MULTIBODY_NAME + 16];
  double *v = param_at(mech, k, buf, sizeof buf);
  SK_CHECK(mech->ctx, v != NULL, SK_ERR_ARG, "mechanism '%s' has no parameter %d (it has %d)",
           mech->file, k, sk_multibody_nparams(mech));
  const int positive = k < 2 * mech->nb; /* masses and inertias */
  const int free_sign = (!positive && k < 2 * mech->nb + 2) ||
                        sk__multibody_param_is_geometry(mech, k); /* gravity, points */
  SK_CHECK(mech->ctx,
           isfinite(value) && (free_sign || value >= 0.0) && (!positive || value > 0.0),
           SK_ERR_INPUT, "mechanism parameter %s = %g: it must be finite and %s", buf, value,
           free_sign  ? "may have either sign"
           : positive ? "> 0"
                      : ">= 0");
  *v = value;
  return SK_OK;
}

sk_status sk__multibody_declare_params(sk_multibody *mech, sk_model *model)
{
  char buf[2 * SK__MULTIBODY_NAME + 16];
  for (int k = 0; k < sk_multibody_nparams(mech); k++) {
    double *v = param_at(mech, k, buf, sizeof buf);
    SK_CALL(mech->ctx, sk_model_add_param(model, buf, v));
  }
  return SK_OK;
}

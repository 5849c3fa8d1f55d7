/* src/models/problems.c: the standard stiff problem library: published small stiff ODEs with analytic CSC Jacobians, selectable by name */
/*
 * MATHEMATICS (y_i 1-based as in the sources; the code indexes from 0)
 *
 * Sources: F. Mazzia, C. Magherini et al., "Test Set for IVP Solvers",
 * Dept. of Mathematics, Univ. of Bari (release 2.4): problems ROBER, HIRES,
 * VDPOL, OREGO, E5; E. Hairer, G. Wanner, "Solving Ordinary Differential
 * Equations II: Stiff and Differential-Algebraic Problems", 2nd ed.,
 * Springer 1996, Sec. IV.1 and IV.10.
 *
 * ROBER (Robertson's chemical kinetics), k1 = 0.04, k2 = 3e7, k3 = 1e4:
 *   y1' = -k1 y1 + k3 y2 y3
 *   y2' =  k1 y1 - k3 y2 y3 - k2 y2^2
 *   y3' =  k2 y2^2,                         y(0) = (1, 0, 0).
 *   y1 + y2 + y3 = 1 is conserved. The Test Set integrates to 1e11; the
 *   default end time here is 40, as in the CVODE example cvRoberts_dns.
 *
 * HIRES (Schaefer's model of light-controlled plant growth, 8 species):
 *   y1' = -1.71 y1 + 0.43 y2 + 8.32 y3 + 0.0007
 *   y2' =  1.71 y1 - 8.75 y2
 *   y3' = -10.03 y3 + 0.43 y4 + 0.035 y5
 *   y4' =  8.32 y2 + 1.71 y3 - 1.12 y4
 *   y5' = -1.745 y5 + 0.43 y6 + 0.43 y7
 *   y6' = -280 y6 y8 + 0.69 y4 + 1.71 y5 - 0.43 y6 + 0.69 y7
 *   y7' =  280 y6 y8 - 1.81 y7
 *   y8' = -y7',             y(0) = (1, 0, 0, 0, 0, 0, 0, 0.0057), t_end = 321.8122.
 *
 * VDPOL (van der Pol in the stiff scaling), eps = 1e-6:
 *   y1' = y2
 *   y2' = ((1 - y1^2) y2 - y1) / eps,        y(0) = (2, 0), t_end = 2.
 *
 * OREGO (Oregonator, Field-Noyes model of the Belousov-Zhabotinskii
 * reaction), s = 77.27, w = 0.161, q = 8.375e-6:
 *   y1' = s (y2 + y1 (1 - q y1 - y2))
 *   y2' = (y3 - (1 + y1) y2) / s
 *   y3' = w (y1 - y3),                       y(0) = (1, 2, 3), t_end = 360.
 *
 * E5 (Enright et al.'s stiff chemistry problem), A = 7.89e-10, B = 1.1e7,
 * C = 1.13e3, M = 1e6:
 *   y1' = -A y1 - B y1 y3
 *   y2' =  A y1 - M C y2 y3
 *   y3' =  A y1 - B y1 y3 - M C y2 y3 + C y4
 *   y4' =  B y1 y3 - C y4,                   y(0) = (1.76e-3, 0, 0, 0).
 *   y2 = y3 + y4 holds for all t. The Test Set integrates to 1e13 (where the
 *   species are of size 1e-17..1e-20 and need atol ~ 1e-20); the default end
 *   time here is 1000 (y2, y4 ~ 1e-10, y3 ~ 1e-11: still stiff, rates up
 *   to ~1e4, and well inside double-precision absolute tolerances).
 *
 * brusselator: the 2D Brusselator of brusselator.c with its default
 * parameters (64 x 64 nodes, a = 1, b = 3.4, alpha = 2e-3), t_end = 2.
 *
 * Jacobians: every problem gives df/dy analytically in CSC (column j lists
 * the rows i with df_i/dy_j != 0 in general position, increasing).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "stiffkit/diffusion.h"
#include "stiffkit/problems.h"

#define SK__PROB_MAXN 8

typedef struct {
  const char *name;
  const char *title;
  int n;
  sk_rhs_fn rhs;
  sk_jac_values_fn jac;
  const int64_t *colptr;
  const int64_t *rowind;
  double y0[SK__PROB_MAXN];
  double t_end;
} sk__problem;

/* ---- ROBER ------------------------------------------------------------- */

static int rober_rhs(double t, const double *y, double *f, void *ud)
{
  const double k1 = 0.04, k2 = 3e7, k3 = 1e4;
  (void)t;
  (void)ud;
  f[0] = -k1 * y[0] + k3 * y[1] * y[2];
  f[1] = k1 * y[0] - k3 * y[1] * y[2] - k2 * y[1] * y[1];
  f[2] = k2 * y[1] * y[1];
  return 0;
}

static const int64_t rober_colptr[] = {0, 2, 5, 7};
static const int64_t rober_rowind[] = {0, 1, 0, 1, 2, 0, 1};

static int rober_jac(double t, const double *y, const double *fy, double *v, void *ud)
{
  const double k1 = 0.04, k2 = 3e7, k3 = 1e4;
  (void)t;
  (void)fy;
  (void)ud;
  v[0] = -k1; /* (0,0) */
  v[1] = k1;  /* (1,0) */
  v[2] = k3 * y[2];                          /* (0,1) */
  v[3] = -k3 * y[2] - 2.0 * k2 * y[1];       /* (1,1) */
  v[4] = 2.0 * k2 * y[1];                    /* (2,1) */
  v[5] = k3 * y[1];                          /* (0,2) */
  v[6] = -k3 * y[1];                         /* (1,2) */
  return 0;
}

/* ---- HIRES ------------------------------------------------------------- */

static int hires_rhs(double t, const double *y, double *f, void *ud)
{
  (void)t;
  (void)ud;
  f[0] = -1.71 * y[0] + 0.43 * y[1] + 8.32 * y[2] + 0.0007;
  f[1] = 1.71 * y[0] - 8.75 * y[1];
  f[2] = -10.03 * y[2] + 0.43 * y[3] + 0.035 * y[4];
  f[3] = 8.32 * y[1] + 1.71 * y[2] - 1.12 * y[3];
  f[4] = -1.745 * y[4] + 0.43 * y[5] + 0.43 * y[6];
  f[5] = -280.0 * y[5] * y[7] + 0.69 * y[3] + 1.71 * y[4] - 0.43 * y[5] + 0.69 * y[6];
  f[6] = 280.0 * y[5] * y[7] - 1.81 * y[6];
  f[7] = -f[6];
  return 0;
}

static const int64_t hires_colptr[] = {0, 2, 5, 8, 11, 14, 18, 22, 25};
static const int64_t hires_rowind[] = {0, 1, 0, 1, 3, 0, 2, 3, 2, 3, 5, 2, 4,
                                       5, 4, 5, 6, 7, 4, 5, 6, 7, 5, 6, 7};

static int hires_jac(double t, const double *y, const double *fy, double *v, void *ud)
{
  (void)t;
  (void)fy;
  (void)ud;
  const double a = 280.0 * y[7], b = 280.0 * y[5];
  const double vals[25] = {
      -1.71, 1.71,                 /* column 1: rows 1, 2 */
      0.43, -8.75, 8.32,           /* column 2: rows 1, 2, 4 */
      8.32, -10.03, 1.71,          /* column 3: rows 1, 3, 4 */
      0.43, -1.12, 0.69,           /* column 4: rows 3, 4, 6 */
      0.035, -1.745, 1.71,         /* column 5: rows 3, 5, 6 */
      0.43, -a - 0.43, a, -a,      /* column 6: rows 5, 6, 7, 8 */
      0.43, 0.69, -1.81, 1.81,     /* column 7: rows 5, 6, 7, 8 */
      -b, b, -b};                  /* column 8: rows 6, 7, 8 */
  memcpy(v, vals, sizeof vals);
  return 0;
}

/* ---- VDPOL ------------------------------------------------------------- */

#define SK__VDPOL_EPS 1e-6

static int vdpol_rhs(double t, const double *y, double *f, void *ud)
{
  (void)t;
  (void)ud;
  f[0] = y[1];
  f[1] = ((1.0 - y[0] * y[0]) * y[1] - y[0]) / SK__VDPOL_EPS;
  return 0;
}

static const int64_t vdpol_colptr[] = {0, 1, 3};
static const int64_t vdpol_rowind[] = {1, 0, 1};

static int vdpol_jac(double t, const double *y, const double *fy, double *v, void *ud)
{
  (void)t;
  (void)fy;
  (void)ud;
  v[0] = (-2.0 * y[0] * y[1] - 1.0) / SK__VDPOL_EPS; /* (1,0) */
  v[1] = 1.0;                                         /* (0,1) */
  v[2] = (1.0 - y[0] * y[0]) / SK__VDPOL_EPS;         /* (1,1) */
  return 0;
}

/* ---- OREGO ------------------------------------------------------------- */

#define SK__ORE_S 77.27
#define SK__ORE_W 0.161
#define SK__ORE_Q 8.375e-6

static int orego_rhs(double t, const double *y, double *f, void *ud)
{
  (void)t;
  (void)ud;
  f[0] = SK__ORE_S * (y[1] + y[0] * (1.0 - SK__ORE_Q * y[0] - y[1]));
  f[1] = (y[2] - (1.0 + y[0]) * y[1]) / SK__ORE_S;
  f[2] = SK__ORE_W * (y[0] - y[2]);
  return 0;
}

static const int64_t orego_colptr[] = {0, 3, 5, 7};
static const int64_t orego_rowind[] = {0, 1, 2, 0, 1, 1, 2};

static int orego_jac(double t, const double *y, const double *fy, double *v, void *ud)
{
  (void)t;
  (void)fy;
  (void)ud;
  v[0] = SK__ORE_S * (1.0 - 2.0 * SK__ORE_Q * y[0] - y[1]); /* (0,0) */
  v[1] = -y[1] / SK__ORE_S;                                 /* (1,0) */
  v[2] = SK__ORE_W;                                         /* (2,0) */
  v[3] = SK__ORE_S * (1.0 - y[0]);                          /* (0,1) */
  v[4] = -(1.0 + y[0]) / SK__ORE_S;                         /* (1,1) */
  v[5] = 1.0 / SK__ORE_S;                                   /* (1,2) */
  v[6] = -SK__ORE_W;                                        /* (2,2) */
  return 0;
}

/* ---- E5 ---------------------------------------------------------------- */

#define SK__E5_A 7.89e-10
#define SK__E5_B 1.1e7
#define SK__E5_C 1.13e3
#define SK__E5_M 1e6

static int e5_rhs(double t, const double *y, double *f, void *ud)
{
  (void)t;
  (void)ud;
  const double ay1 = SK__E5_A * y[0], by13 = SK__E5_B * y[0] * y[2];
  const double mcy23 = SK__E5_M * SK__E5_C * y[1] * y[2], cy4 = SK__E5_C * y[3];
  f[0] = -ay1 - by13;
  f[1] = ay1 - mcy23;
  f[2] = ay1 - by13 - mcy23 + cy4;
  f[3] = by13 - cy4;
  return 0;
}

static const int64_t e5_colptr[] = {0, 4, 6, 10, 12};
static const int64_t e5_rowind[] = {0, 1, 2, 3, 1, 2, 0, 1, 2, 3, 2, 3};

static int e5_jac(double t, const double *y, const double *fy, double *v, void *ud)
{
  (void)t;
  (void)fy;
  (void)ud;
  const double mc = SK__E5_M * SK__E5_C;
  v[0] = -SK__E5_A - SK__E5_B * y[2];            /* (0,0) */
  v[1] = SK__E5_A;                               /* (1,0) */
  v[2] = SK__E5_A - SK__E5_B * y[2];             /* (2,0) */
  v[3] = SK__E5_B * y[2];                        /* (3,0) */
  v[4] = -mc * y[2];                             /* (1,1) */
  v[5] = -mc * y[2];                             /* (2,1) */
  v[6] = -SK__E5_B * y[0];                       /* (0,2) */
  v[7] = -mc * y[1];                             /* (1,2) */
  v[8] = -SK__E5_B * y[0] - mc * y[1];           /* (2,2) */
  v[9] = SK__E5_B * y[0];                        /* (3,2) */
  v[10] = SK__E5_C;                              /* (2,3) */
  v[11] = -SK__E5_C;                             /* (3,3) */
  return 0;
}

/* ---- the table ----------------------------------------------------------- */

static const sk__problem sk__problems[] = {
  {"rober", "Robertson chemical kinetics (ROBER)", 3, rober_rhs, rober_jac, rober_colptr,
   rober_rowind, {1.0, 0.0, 0.0}, 40.0},
  {"hires", "HIRES plant physiology (Schaefer)", 8, hires_rhs, hires_jac, hires_colptr,
   hires_rowind, {1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0057}, 321.8122},
  {"vdpol", "van der Pol, stiff scaling eps = 1e-6 (VDPOL)", 2, vdpol_rhs, vdpol_jac,
   vdpol_colptr, vdpol_rowind, {2.0, 0.0}, 2.0},
  {"orego", "Oregonator (OREGO)", 3, orego_rhs, orego_jac, orego_colptr, orego_rowind,
   {1.0, 2.0, 3.0}, 360.0},
  {"e5", "E5 stiff chemistry (Enright et al.)", 4, e5_rhs, e5_jac, e5_colptr, e5_rowind,
   {1.76e-3, 0.0, 0.0, 0.0}, 1000.0},
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

static const sk_option_spec problem_table[] = {
  {"model.problem", SK_OPT_CHOICE, "rober", 0, 0, "rober|hires|vdpol|orego|e5|brusselator",
   "built-in stiff problem (model.type = problem) with its published parameters and default "
   "end time: Robertson, HIRES, van der Pol (eps 1e-6), Oregonator, E5, 2D Brusselator"},
};

const sk_option_spec *sk_problem_options(size_t *n)
{
  if (n) {
    *n = sizeof problem_table / sizeof problem_table[0];
  }
  return problem_table;
}

/* The model's user data: which problem (the table is constant). */
typedef struct {
  sk_context *ctx;
  const sk__problem *p;
} sk__problem_data;

static int problem_rhs(double t, const double *y, double *f, void *ud)
{
  const sk__problem_data *d = ud;
  return d->p->rhs(t, y, f, NULL);
}

static int problem_jac(double t, const double *y, const double *fy, double *v, void *ud)
{
  const sk__problem_data *d = ud;
  return d->p->jac(t, y, fy, v, NULL);
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

static int name_equal(const char *a, const char *b)
{
  for (; *a && *b; a++, b++) {
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) {
      return 0;
    }
  }
  return *a == *b;
}

sk_status sk_problem_create(sk_context *ctx, const char *name, sk_model **m)
{
  SK_CHECK(ctx, name != NULL && m != NULL, SK_ERR_ARG, "sk_problem_create: NULL argument");
  *m = NULL;
  if (name_equal(name, SK__BRUSSELATOR_NAME)) {
    sk_brusselator_params bp;
    sk_brusselator_params_default(&bp);
    SK_CALL(ctx, sk_brusselator_create(ctx, &bp, m));
    sk_model_set_default_t_end(*m, SK__BRUSSELATOR_T_END);
    return SK_OK;
  }
  const sk__problem *p = NULL;
  for (size_t k = 0; k < SK__NPROBLEMS; k++) {
    if (name_equal(name, sk__problems[k].name)) {
      p = &sk__problems[k];
    }
  }
  if (!p) {
    char list[160] = "";
    size_t used = 0;
    for (size_t k = 0; sk_problem_name(k) && used < sizeof list; k++) {
      int w = snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "", sk_problem_name(k));
      used += w > 0 ? (size_t)w : 0;
    }
    return SK_ERROR(ctx, SK_ERR_INPUT, "unknown problem '%s': valid names are %s", name, list);
  }
  sk__problem_data *d = sk__calloc(ctx, 1, sizeof *d);
  SK_CHECK(ctx, d != NULL, SK_ERR_NOMEM, "cannot allocate the problem '%s'", p->name);
  d->ctx = ctx;
  d->p = p;
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

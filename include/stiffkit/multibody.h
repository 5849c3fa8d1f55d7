/* stiffkit/multibody.h: planar constrained multibody systems: mechanisms from YAML, constraints and their Jacobian, consistent initialization, and the GGL index-2, index-1 and reduced-coordinate formulations */
#ifndef STIFFKIT_MULTIBODY_H
#define STIFFKIT_MULTIBODY_H

#include <stddef.h>
#include <stdint.h>

#include "stiffkit/context.h"
#include "stiffkit/model.h"
#include "stiffkit/options.h"
#include "stiffkit/stats.h"
#include "stiffkit/stepper.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the public API: exported from libstiffkit, which hides everything else */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* A mechanism: nb planar rigid bodies with Cartesian coordinates
 * q = (x_1, y_1, phi_1, ..., x_nb, y_nb, phi_nb) of their centroids (n = 3 nb),
 * constraints Phi(q, t) = 0 (m equations: joints and drivers), the
 * constraint Jacobian G = dPhi/dq (m x n), Lagrange multipliers lambda and
 * the equations of motion M q'' = Q(q, q', t) + G^T lambda with
 * M = diag(m_i, m_i, J_i). Joint rows come in joint order (revolute 2,
 * prismatic 2, fixed 3), then one row per driver. */
typedef struct sk_multibody sk_multibody;

/* The most bodies a mechanism file may declare (joints, drivers, forces and
 * events: twice as many each); the kernels are dense. */
#define SK_MULTIBODY_MAX_BODIES 1000

/* sk_multibody_load: read a mechanism file (YAML: gravity, bodies, joints,
 * drivers, forces, events; see data/mechanisms/README.md). Errors name
 * file:line:column and the field: SK_ERR_MISSING (no file), SK_ERR_INPUT
 * (syntax, a joint or driver naming an unknown body or joint, zero or
 * negative mass or inertia, a formula muparser cannot parse, a missing
 * field), SK_ERR_NOMEM. */
sk_status sk_multibody_load(sk_context *ctx, const char *path, sk_multibody **mech);

/* sk_multibody_destroy: frees; NULLs *mech; accepts NULL. */
void sk_multibody_destroy(sk_multibody **mech);

/* Sizes: bodies, coordinates n = 3 nb, constraint equations m, joints,
 * drivers, events. */
int sk_multibody_nbodies(const sk_multibody *mech);
int sk_multibody_ncoords(const sk_multibody *mech);
int sk_multibody_nconstraints(const sk_multibody *mech);
int sk_multibody_njoints(const sk_multibody *mech);
int sk_multibody_nevents(const sk_multibody *mech);
/* Names for messages and outputs: "crank", "O", "x_crank" (coordinate i),
 * "O.x" (constraint row r: joint O's x equation, or "drive(O)"). */
const char *sk_multibody_body_name(const sk_multibody *mech, int b);
const char *sk_multibody_joint_name(const sk_multibody *mech, int j);
const char *sk_multibody_event_name(const sk_multibody *mech, int k);
void sk_multibody_coord_name(const sk_multibody *mech, int i, char *buf, size_t len);
void sk_multibody_row_name(const sk_multibody *mech, int r, char *buf, size_t len);
/* sk_multibody_joint_rows: the first constraint row of joint j and its count. */
void sk_multibody_joint_rows(const sk_multibody *mech, int j, int *first, int *count);

/* sk_multibody_initial: the positions and velocities of the file (length n). */
void sk_multibody_initial(const sk_multibody *mech, double *q, double *v);

/* ---- parameters by name (forward sensitivities) --------------------------- */

/* The mechanism's parameters, numbered in this order: "<body>.mass" and
 * "<body>.inertia" of every body, "gravity.x", "gravity.y", then
 * "<spring>.stiffness", "<spring>.length" and "<spring>.damping" of every
 * spring (a spring's optional `name`, else spring1, spring2, ... in file
 * order). Every formulation's model (sk_multibody_model) declares them as
 * its parameters by these names and in this order, so that
 * solver.sensitivity.parameters can name them. The file's values are the
 * nominal ones. */
int sk_multibody_nparams(const sk_multibody *mech);
/* sk_multibody_param_name: the name of parameter k into buf (len bytes).
 * Errors: SK_ERR_ARG (k out of range). */
sk_status sk_multibody_param_name(const sk_multibody *mech, int k, char *buf, size_t len);
/* sk_multibody_find_param: the index of the parameter named `name`, -1 if none. */
int sk_multibody_find_param(const sk_multibody *mech, const char *name);
/* sk_multibody_get_param: the value of parameter k (0 out of range). */
double sk_multibody_get_param(const sk_multibody *mech, int k);
/* sk_multibody_set_param: a new value of parameter k (a perturbed model,
 * a study). Errors: SK_ERR_ARG (k out of range), SK_ERR_INPUT (not finite;
 * a mass or inertia <= 0; a spring coefficient < 0; the message names the
 * parameter). */
sk_status sk_multibody_set_param(sk_multibody *mech, int k, double value);

/* ---- kinematics and dynamics (dense; m, n small) -------------------------- */

/* Phi(q, t) (m), G = dPhi/dq (m x n, row-major), Phi_t (m), and
 * gamma = -(G v)_q v - 2 Phi_tq v - Phi_tt (m), the right-hand side of the
 * acceleration constraints G q'' = gamma. Errors: SK_ERR_NONFINITE (a
 * driver formula), SK_ERR_ARG. */
sk_status sk_multibody_phi(sk_multibody *mech, double t, const double *q, double *phi);
sk_status sk_multibody_jacobian(sk_multibody *mech, double t, const double *q, double *G);
sk_status sk_multibody_phi_t(sk_multibody *mech, double t, const double *q, double *phit);
sk_status sk_multibody_gamma(sk_multibody *mech, double t, const double *q, const double *v,
                             double *gamma);
/* sk_multibody_residuals: max |Phi(q, t)| and max |G v + Phi_t| (the
 * position and velocity constraint residuals). Errors: as sk_multibody_phi,
 * SK_ERR_NOMEM. */
sk_status sk_multibody_residuals(sk_multibody *mech, double t, const double *q, const double *v,
                                 double *phi_max, double *dphi_max);
/* Applied generalized forces Q(q, v, t) (n): gravity, springs and dampers,
 * forces and torques with their time schedules. */
sk_status sk_multibody_forces(sk_multibody *mech, double t, const double *q, const double *v,
                              double *Q);
/* The diagonal of M (n). */
void sk_multibody_mass(const sk_multibody *mech, double *mdiag);
/* Kinetic energy, potential energy (gravity and springs). */
void sk_multibody_energy(const sk_multibody *mech, const double *q, const double *v,
                         double *kinetic, double *potential);
/* Power of the applied forces that are not in the potential (dampers,
 * forces, torques) at (t, q, v). */
sk_status sk_multibody_power(sk_multibody *mech, double t, const double *q, const double *v,
                             double *power);

/* sk_multibody_accelerations: solve [M G^T; G 0] [a; -lambda] = [Q; gamma]
 * at (t, q, v) (dense LU with partial pivoting): a = q'' (n) and lambda (m)
 * (either may be NULL). `alpha`, `beta` >= 0 add Baumgarte stabilization:
 * gamma - 2 alpha (G v + Phi_t) - beta^2 Phi. Errors: SK_ERR_SINGULAR (G
 * rank-deficient: redundant or conflicting constraints, or a toggle
 * position; the message names the rows), evaluation errors. */
sk_status sk_multibody_accelerations(sk_multibody *mech, double t, const double *q,
                                     const double *v, double alpha, double beta, double *a,
                                     double *lambda);

/* sk_multibody_condition: condition estimate sigma_max / sigma_min of G at
 * (t, q) after equilibrating its rows and columns (so that units and
 * ground point positions do not matter), from the Jacobi eigenvalues of
 * G G^T; inf when G G^T has a zero or negative eigenvalue (a rank-deficient
 * G may also show as a large finite value, ~1e8, from rounding). */
double sk_multibody_condition(sk_multibody *mech, double t, const double *q);

/* sk_multibody_check_rank: SK_ERR_SINGULAR when G(q0, t0) is rank-deficient,
 * naming the joints and drivers whose rows are dependent. */
sk_status sk_multibody_check_rank(sk_multibody *mech, double t, const double *q);

/* What consistent initialization did. */
typedef struct {
  double phi_before, phi_after;   /* max |Phi| before and after */
  double dphi_before, dphi_after; /* max |G v + Phi_t| before and after */
  double dq, dv;                  /* max |change| of q and of v */
  int newton_iters;
  char worst_row[64]; /* the constraint with the largest |Phi| before */
} sk_multibody_init_report;

/* sk_multibody_assemble: make (q, v) consistent at t: q moves by the
 * smallest change (Gauss-Newton on Phi(q, t) = 0 with the minimum-norm step
 * G^T (G G^T)^-1 Phi), then v by the least-squares projection onto
 * G v = -Phi_t. `fix` = 0 refuses an inconsistent start (|Phi| or
 * |G v + Phi_t| above tol: SK_ERR_INPUT with the residuals and the worst
 * constraint); 1 fixes it and reports. Errors: SK_ERR_CONV (the mechanism
 * cannot be assembled: Newton fails; the residual and the joint with the
 * largest residual named), SK_ERR_SINGULAR. */
sk_status sk_multibody_assemble(sk_multibody *mech, double t, double *q, double *v, double tol,
                                int fix, sk_multibody_init_report *rep);

/* ---- formulations ------------------------------------------------------- */

typedef enum {
  SK_MULTIBODY_GGL =
      0, /* stabilized index 2 (Gear-Gupta-Leimkuhler), IDA: y = (q, v, lambda, mu) */
  SK_MULTIBODY_INDEX1 = 1, /* acceleration level with Baumgarte, an ODE y = (q, v) for CVODE */
  SK_MULTIBODY_REDUCED = 2 /* coordinate partitioning: y = (q_I, v_I) independent only, CVODE */
} sk_multibody_formulation;

typedef struct {
  sk_multibody_formulation formulation;
  double alpha, beta; /* index-1 Baumgarte parameters (0, 0: none) */
  double cond_limit;  /* warn when the (equilibrated) cond(G) exceeds it: near a toggle */
  int project;        /* index1: project (q, v) onto Phi = 0, G v + Phi_t = 0 after every
                         * accepted step (cvode-bdf's projection, sk_model_set_projection) */
  double repartition; /* reduced: a new partition when cond(G_D) grows by this factor over
                         * its value at the partition (checked after every step; 0: 4) */
} sk_multibody_settings;

/* sk_multibody_model: the formulation as a model at consistent (q0, v0, t0)
 * (copied). The model keeps a pointer to mech (destroy the model first).
 * GGL is a DAE whose multipliers are algebraic and whose y'0 comes from the
 * block system, so the engine needs no IDACalcIC (sk_model_set_consistent);
 * the reduced model's components are the independent coordinates, chosen
 * by Gaussian elimination on G with complete pivoting (the pivot columns are dependent).
 * Errors: SK_ERR_SINGULAR, SK_ERR_NOMEM. */
sk_status sk_multibody_model(sk_multibody *mech, const sk_multibody_settings *s, double t0,
                             const double *q0, const double *v0, sk_model **model);

/* sk_multibody_state: (q, v) and lambda (m, may be NULL) of a formulation's
 * state y at t (the reduced model reconstructs the dependent coordinates).
 * lambda comes from the block system at (q, v) for every formulation: the
 * GGL state's own multipliers are index-2 variables outside the error test
 * (about 3e-6 relative at rtol 1e-8, against 1e-8 this way). */
sk_status sk_multibody_state(sk_multibody *mech, const sk_model *model, double t, const double *y,
                             double *q, double *v, double *lambda);

/* sk_multibody_reduced_partition: the independent coordinate indices of a
 * reduced model (count n - m), for reports. */
const int *sk_multibody_reduced_partition(const sk_model *model, int *count);

/* sk_multibody_projection_max: the largest projection correction max |dq|
 * an index-1 model with projection has applied (0 otherwise). */
double sk_multibody_projection_max(const sk_model *model);

/* sk_multibody_reduced_condition: cond(G_D) of the dependent block at the
 * reduced model's last reconstruction (NAN for other models). */
double sk_multibody_reduced_condition(const sk_model *model);

/* sk_multibody_reduced_growth: cond(G_D) at the reduced state y (time t)
 * over its value when the partition was chosen; inf when the dependent
 * coordinates cannot be reconstructed there, NAN for other models. */
double sk_multibody_reduced_growth(const sk_model *model, double t, const double *y);

/* ---- simulation ------------------------------------------------------------ */

/* The monitor's figures at one output. */
typedef struct {
  double phi_max;  /* max |Phi| */
  double dphi_max; /* max |G v + Phi_t| */
  double energy;   /* E = T + V */
  double work;     /* W of the applied forces and drivers since t0 */
  double balance;  /* E - E(t0) - W */
  double cond;     /* the equilibrated cond(G) (1e300 for a singular G) */
  /* forward sensitivities (solver.sensitivity.parameters in the options; 0 / NULL without):
   * for each of nsens parameters (sens_param: their indices, sk_multibody_param_name; sens_pbar:
   * their scales) 2n values, dq/dp then dv/dp */
  int nsens;
  const int *sens_param;
  const double *sens_pbar;
  const double *sens;
} sk_multibody_sample;

/* Called at t0 and at every output time with the state, the multipliers
 * (m) and the monitor's figures. A nonzero return stops the run
 * (SK_INTERRUPTED). */
typedef int (*sk_multibody_output_fn)(double t, const double *q, const double *v,
                                      const double *lambda, const sk_multibody_sample *sample,
                                      void *user_data);

#define SK_MULTIBODY_MAX_EVENT_LOG 64

/* What a simulation did. */
typedef struct {
  double phi_max, phi_rms; /* position drift over the outputs: max |Phi|, RMS of max |Phi| */
  double dphi_max;         /* max |G v + Phi_t| over the outputs */
  double balance_max;      /* max |E(t) - E(t0) - W(t)| over the outputs, relative to
                              * energy_scale */
  double energy_scale;     /* max over outputs of T + |V - V(t0)| + |W| (and T(t0)) */
  double length_scale;     /* sk_multibody_length_scale: for relative drift figures */
  double cond_max;         /* largest cond(G) seen at the outputs */
  double cond_warn_t;      /* the first output time with cond(G) > cond_limit (NAN: none) */
  int restarts;            /* engine restarts (repartitions) */
  int repartitions;        /* reduced: new coordinate partitions */
  double projection_max;   /* index-1 with projection: largest correction of q */
  int nevents;             /* events located */
  sk_event_record
      events[SK_MULTIBODY_MAX_EVENT_LOG]; /* the first of them (index: the file's event) */
  sk_stats stats;                         /* the engines' counters, summed over restarts */
} sk_multibody_report;

/* sk_multibody_check_method: SK_OK when `method` can run formulation s:
 * an engine of that name (SK_ERR_INPUT), a DAE engine for GGL, an engine
 * that locates events when the mechanism has some, and cvode-bdf for
 * projection (SK_ERR_UNSUPPORTED), projection with index1 only
 * (SK_ERR_INPUT). */
sk_status sk_multibody_check_method(sk_multibody *mech, const sk_multibody_settings *s,
                                    const char *method);

/* sk_multibody_length_scale: a characteristic length of the mechanism (the
 * largest of its bodies' initial distances from the origin and between
 * them, attachment point offsets and spring lengths; 1 when all are 0). */
double sk_multibody_length_scale(const sk_multibody *mech);

/* sk_multibody_simulate: integrate the mechanism from consistent (q0, v0)
 * at t0 through the ntimes increasing output times with the formulation of
 * s and the engine `method` (rtol, atol; opts, may be NULL, give the other
 * solver.* and linsol.* keys). Index-1 with `project` (or s->project) moves
 * (q, v) back onto the position and velocity constraints after every
 * accepted step (cvode-bdf's projection; other engines cannot project and
 * are refused, SK_ERR_UNSUPPORTED); the reduced formulation repartitions (and restarts)
 * when cond(G_D) exceeds s->cond_limit. `out` (may be NULL) sees every
 * output. The events the engine locates are counted in rep->nevents (and
 * logged, SK_LOG_INFO, with their names). With solver.sensitivity.parameters
 * in opts (the names of sk_multibody_param_name) the engine integrates the
 * forward sensitivities too (cvode-bdf / cvode-adams for index1, ida-bdf
 * for GGL with consistent start sensitivities), and every sample carries
 * dq/dp and dv/dp; the reduced formulation and projection are refused with
 * sensitivities (SK_ERR_UNSUPPORTED: a repartition or a projection moves the
 * state but not its sensitivities). Returns SK_OK or the engine's error (its
 * message names t and the cause). */
sk_status sk_multibody_simulate(sk_multibody *mech, const sk_multibody_settings *s, int project,
                                const char *method, double rtol, double atol,
                                const sk_options *opts, double t0, const double *q0,
                                const double *v0, const double *times, size_t ntimes,
                                sk_multibody_output_fn out, void *user_data,
                                sk_multibody_report *rep);

/* ---- options ------------------------------------------------------------ */

/* sk_multibody_options: the multibody.* option table (multibody.file, multibody.formulation,
 * multibody.compare, multibody.baumgarte.alpha/beta, multibody.projection, multibody.inconsistent,
 * multibody.init_tol, multibody.cond_limit, multibody.repartition). */
const sk_option_spec *sk_multibody_options(size_t *n);

/* sk_multibody_settings_from_options: the formulation (multibody.formulation, or
 * multibody.compare when `compare`), Baumgarte parameters, cond_limit and
 * *project (multibody.projection). Errors: those of the getters. */
sk_status sk_multibody_settings_from_options(sk_context *ctx, const sk_options *opts, int compare,
                                             sk_multibody_settings *s, int *project);

/* sk_multibody_start_from_options: what starts a run: the mechanism file
 * (multibody.file, resolved as an input file; *file points into opts), the
 * consistency tolerance of the initial state (multibody.init_tol) and whether an
 * inconsistent one is fixed (multibody.inconsistent = fix) or refused. Errors:
 * SK_ERR_INPUT (no multibody.file), those of the getters. */
sk_status sk_multibody_start_from_options(sk_context *ctx, const sk_options *opts,
                                          const char **file, double *init_tol, int *fix);

/* sk_multibody_formulation_name: "ggl", "index1", "reduced". */
const char *sk_multibody_formulation_name(sk_multibody_formulation f);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

/* The family's earlier names (sk_mechanism_*, sk_mbs_*, SK_MBS_*), kept so that programs
 * written against them still build; define SK_NO_RETIRED_NAMES to drop them. */
#ifndef SK_NO_RETIRED_NAMES
#define SK_MBS_GGL SK_MULTIBODY_GGL
#define SK_MBS_INDEX1 SK_MULTIBODY_INDEX1
#define SK_MBS_MAX_BODIES SK_MULTIBODY_MAX_BODIES
#define SK_MBS_MAX_EVENT_LOG SK_MULTIBODY_MAX_EVENT_LOG
#define SK_MBS_REDUCED SK_MULTIBODY_REDUCED
#define sk_mbs_formulation sk_multibody_formulation
#define sk_mbs_output_fn sk_multibody_output_fn
#define sk_mbs_report sk_multibody_report
#define sk_mbs_sample sk_multibody_sample
#define sk_mbs_settings sk_multibody_settings
#define sk_mechanism sk_multibody
#define sk_mechanism_accelerations sk_multibody_accelerations
#define sk_mechanism_assemble sk_multibody_assemble
#define sk_mechanism_body_name sk_multibody_body_name
#define sk_mechanism_check_method sk_multibody_check_method
#define sk_mechanism_check_rank sk_multibody_check_rank
#define sk_mechanism_condition sk_multibody_condition
#define sk_mechanism_coord_name sk_multibody_coord_name
#define sk_mechanism_destroy sk_multibody_destroy
#define sk_mechanism_energy sk_multibody_energy
#define sk_mechanism_event_name sk_multibody_event_name
#define sk_mechanism_find_param sk_multibody_find_param
#define sk_mechanism_forces sk_multibody_forces
#define sk_mechanism_formulation_name sk_multibody_formulation_name
#define sk_mechanism_gamma sk_multibody_gamma
#define sk_mechanism_get_param sk_multibody_get_param
#define sk_mechanism_init_report sk_multibody_init_report
#define sk_mechanism_initial sk_multibody_initial
#define sk_mechanism_jacobian sk_multibody_jacobian
#define sk_mechanism_joint_name sk_multibody_joint_name
#define sk_mechanism_joint_rows sk_multibody_joint_rows
#define sk_mechanism_length_scale sk_multibody_length_scale
#define sk_mechanism_load sk_multibody_load
#define sk_mechanism_mass sk_multibody_mass
#define sk_mechanism_model sk_multibody_model
#define sk_mechanism_nbodies sk_multibody_nbodies
#define sk_mechanism_nconstraints sk_multibody_nconstraints
#define sk_mechanism_ncoords sk_multibody_ncoords
#define sk_mechanism_nevents sk_multibody_nevents
#define sk_mechanism_njoints sk_multibody_njoints
#define sk_mechanism_nparams sk_multibody_nparams
#define sk_mechanism_options sk_multibody_options
#define sk_mechanism_param_name sk_multibody_param_name
#define sk_mechanism_phi sk_multibody_phi
#define sk_mechanism_phi_t sk_multibody_phi_t
#define sk_mechanism_power sk_multibody_power
#define sk_mechanism_projection_max sk_multibody_projection_max
#define sk_mechanism_reduced_condition sk_multibody_reduced_condition
#define sk_mechanism_reduced_growth sk_multibody_reduced_growth
#define sk_mechanism_reduced_partition sk_multibody_reduced_partition
#define sk_mechanism_residuals sk_multibody_residuals
#define sk_mechanism_row_name sk_multibody_row_name
#define sk_mechanism_set_param sk_multibody_set_param
#define sk_mechanism_settings_from_options sk_multibody_settings_from_options
#define sk_mechanism_simulate sk_multibody_simulate
#define sk_mechanism_start_from_options sk_multibody_start_from_options
#define sk_mechanism_state sk_multibody_state
#endif

#ifdef __cplusplus
}
#endif
#endif

/* src/models/formula_impl.h: the data of a model written as formulas (formula_model.c evaluates it, formula_options.c builds it) */
#ifndef SK_MODELS_FORMULA_IMPL_H
#define SK_MODELS_FORMULA_IMPL_H

#include <stdint.h>

#include "io/time_function.h"
#include "core/formula_expr.h"
#include "stiffkit/model.h"

#define SK__FM_NAME 32              /* names and labels: at most 31 characters */
#define SK__FM_MAX_EVENTS_ATTACH 64 /* events of one model */

/* One assignment of an event's action: state `target` (< n) or parameter target - n. */
typedef struct {
  int64_t target;
  sk__formula value;
} sk__fm_assign;

/* An event: the root function, the crossing it acts on, and its action. */
typedef struct {
  char label[SK__FM_NAME];
  sk__formula when;
  int direction; /* +1 rising, -1 falling, 0 either */
  int stop;      /* the action ends the run */
  int nassign;
  sk__fm_assign *assign; /* nassign of them */
} sk__fm_event;

typedef struct {
  sk_context *ctx;
  int64_t n;
  int dae;                    /* residuals F(t, y, y', p) = 0, else y' = f (or M y' = f) */
  int np, nin;                /* parameters, inputs */
  char (*names)[SK__FM_NAME]; /* n states, n derivatives (d<name>), np parameters, nin inputs */
  char (*eq)[SK__FM_NAME];    /* n equation labels: the variable (ODE) or the residual's label */
  double t;                   /* the variables the formulas read */
  double *y, *yp, *p, *u;
  double *p0;       /* parameters at the start of a run (events may change p) */
  double *y0, *yp0; /* the initial values given */
  sk__time_function **inputs;
  sk__formula *f;           /* n: y'_i (ODE) or F_i (DAE) */
  sk__formula *exact;       /* n exact solutions y_i(t), or NULL */
  int64_t njac;             /* analytic Jacobian entries df_row/dy_col (ODE), dF_row/dy_col or
                         dF_row/dy'_col (DAE) */
  int64_t *jac_slot;        /* their places in the pattern's values */
  unsigned char *jac_deriv; /* DAE: 1 for an entry of dF/dy' (it enters times cj) */
  sk__formula *jac;
  int64_t jac_nnz; /* the pattern's entries */
  int nev;
  sk__fm_event *ev;
  double *scratch;           /* n + np: an action's new values */
  unsigned char *mass_reads; /* np: the parameters some mass entry reads */
  int64_t nmass;             /* mass entries formula.mass.<row>.<col> */
  sk__formula *mass;         /* their formulas (of the parameters) */
  int64_t *mass_slot;        /* their places in M's values */
  double *mass_val;          /* M's values, re-evaluated when an event changes a parameter */
  sk_model *self;            /* the model F belongs to (it holds M) */
} sk__formula_model;

/* sk__formula_model_free: frees everything F holds, then F (accepts NULL). */
void sk__formula_model_free(void *F);

/* sk__formula_model_load: set the formulas' variables to (t, y, y') (yp may
 * be NULL: unchanged) and the inputs to their values at t. */
void sk__formula_model_load(sk__formula_model *F, double t, const double *y, const double *yp);

/* sk__formula_model_attach: make F the user data and callbacks of m (rhs or
 * residual, initial values, names, exact solution, events); m
 * takes ownership of F, also on failure. Errors: those of the setters. */
sk_status sk__formula_model_attach(sk__formula_model *F, sk_model *m);

/* sk__formula_model_use_jacobian: make F's analytic Jacobian entries (set
 * with the pattern, F->jac_slot) m's Jacobian values. Errors: as
 * sk_model_set_jac_values. */
sk_status sk__formula_model_use_jacobian(sk__formula_model *F, sk_model *m);

#endif

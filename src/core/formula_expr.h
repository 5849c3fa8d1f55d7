/* src/core/formula_expr.h: one muparser formula compiled over named variables, with the messages every formula-written model gives */
#ifndef SK_MODELS_FORMULA_EXPR_H
#define SK_MODELS_FORMULA_EXPR_H

#include "stiffkit/status.h"
#include "stiffkit/context.h"

/* The longest formula accepted (muparser's C API copies its error message, which quotes
 * the offending text, into a static 2048-byte buffer with sprintf). */
#define SK__FORMULA_MAX_LEN 1000

/* A name a formula may read and where its value lives. */
typedef struct {
  const char *name;
  double *value;
} sk__formula_var;

/* A compiled formula (a muparser handle). */
typedef void *sk__formula;

/* sk__formula_compile: parse `expr` over the nvars variables (and the
 * constant pi to full double precision), evaluating it once with the
 * variables as they are so that syntax errors and unknown names surface
 * now. `where` prefixes messages ("file:line:col: key"). Errors:
 * SK_ERR_INPUT (empty or too long formula, or muparser's message with the
 * 1-based character position, the formula and the names known there),
 * SK_ERR_NOMEM, and those of loading the muparser module
 * (sk__muparser_open). */
sk_status sk__formula_compile(sk_context *ctx, const char *expr, const char *where,
                              const sk__formula_var *vars, int nvars, sk__formula *out);

/* sk__formula_eval: the formula's value at the variables' current values
 * (NaN when muparser reports an evaluation error). */
double sk__formula_eval(sk__formula f);

/* sk__formula_reads: 1 when the formula reads the variable `name`. */
int sk__formula_reads(sk__formula f, const char *name);

/* sk__formula_nreads / sk__formula_read: the number of variables the
 * formula reads, and where the i-th of them is stored. */
int sk__formula_nreads(sk__formula f);
const double *sk__formula_read(sk__formula f, int i);

/* sk__formula_free: frees the formula (accepts NULL). */
void sk__formula_free(sk__formula f);

#endif

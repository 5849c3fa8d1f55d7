/* src/io/time_function.h: a scalar amplitude g(t) from a formula in t (muparser) or from a CSV table of (t, g) rows (piecewise linear) */
#ifndef SK_IO_TIME_FUNCTION_H
#define SK_IO_TIME_FUNCTION_H

#include <stdint.h>

#include "stiffkit/context.h"

typedef struct sk__time_function sk__time_function;

/* sk__time_function_formula: g(t) given by the expression `expr` in the
 * variable t, parsed by muparser (its operators, functions such as sin,
 * exp, sqrt, abs, min, max, and "cond ? a : b"; the constant pi to full
 * double precision, and muparser's _pi and _e, which carry 13 digits).
 * The formula is parsed and evaluated once at t = 0 here, so syntax errors
 * surface now. `where` names its origin in messages (`model.load_amplitude`).
 * Errors: SK_ERR_ARG (NULL argument), SK_ERR_INPUT (empty formula, or
 * muparser's message with the 1-based character position: "where: cannot
 * parse the formula '1 + * t' at character 5: Unexpected operator ..."),
 * SK_ERR_NOMEM. */
sk_status sk__time_function_formula(sk_context *ctx, const char *expr, const char *where,
                                    sk__time_function **tf);

/* sk__time_function_table: g(t) from the CSV file `path` with rows "t, g":
 * blank lines and lines starting with '#' are skipped, the first row may be
 * a header of two non-numeric names, t must increase strictly, and at
 * least 2 rows are needed. g is linear between rows and constant (the end
 * value) before the first and after the last t. `where` names the option in
 * messages. Errors: SK_ERR_MISSING (cannot open or read the file),
 * SK_ERR_INPUT "file:line: ..." (not 2 fields, a non-numeric or non-finite
 * field, a t that does not increase, fewer than 2 rows), SK_ERR_NOMEM. */
sk_status sk__time_function_table(sk_context *ctx, const char *path, const char *where,
                                  sk__time_function **tf);

/* sk__time_function_eval: g(t). A formula may give NaN/Inf (e.g. 1/t at 0);
 * callers check their outputs. */
double sk__time_function_eval(sk__time_function *tf, double t);

/* sk__time_function_rows: the number of table rows, 0 for a formula. */
int64_t sk__time_function_rows(const sk__time_function *tf);

/* sk__time_function_destroy: frees tf (parser or table); NULLs *tf; accepts NULL. */
void sk__time_function_destroy(sk__time_function **tf);

#endif

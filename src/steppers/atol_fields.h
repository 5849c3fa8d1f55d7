/* src/steppers/atol_fields.h: solver.atol_field, absolute tolerances per named field of the state */
#ifndef SK_STEPPERS_ATOL_FIELDS_H
#define SK_STEPPERS_ATOL_FIELDS_H

#include "stiffkit/model.h"

/* sk__atol_fields_fill: solver.atol_field: `spec` lists field=value pairs
 * ("u=1e-8, v=1e-6"); a component belongs to the field named by its name up
 * to '[' (sk_model_component_name: "u[3,7]" is in u). Components of the
 * listed fields get that absolute tolerance in v (length n of m); the others
 * keep the value v holds. `where` prefixes messages ("file:line: ").
 * Errors: SK_ERR_INPUT (a malformed pair or a value <= 0; a field that no
 * component has, naming it and the model's fields). */
sk_status sk__atol_fields_fill(sk_context *ctx, const sk_model *m, const char *spec,
                               const char *where, double *v);

#endif

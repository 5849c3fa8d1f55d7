/* src/core/model_faults.h: the model's fault-injection hook, for the reliability tests of the failure paths (stiffkit run --inject-nan) */
#ifndef SK_CORE_MODEL_FAULTS_H
#define SK_CORE_MODEL_FAULTS_H

#include <stdint.h>

#include "stiffkit/model.h"

/* sk__model_inject_nan: make the checked RHS return NaN in component comp
 * at every t >= t_from (a testing aid for the failure paths). */
sk_status sk__model_inject_nan(sk_model *m, int64_t comp, double t_from);

#endif

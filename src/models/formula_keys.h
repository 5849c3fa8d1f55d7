/* src/models/formula_keys.h: the keys and names of a formula model's description (formula_keys.c) */
#ifndef SK_MODELS_FORMULA_KEYS_H
#define SK_MODELS_FORMULA_KEYS_H

#include <stddef.h>

#include "core/options_bind.h"
#include "models/formula_impl.h"
#include "stiffkit/options.h"

#define SK__FM_MAX_VARS 2000 /* variables (and residuals) of one model */
#define SK__FM_MAX_NAMES 256 /* parameters, inputs */
#define SK__FM_MAX_EVENTS SK__FM_MAX_EVENTS_ATTACH
#define SK__FM_KEY 128 /* the longest key */

enum { SK__FM_VAR, SK__FM_PARAM, SK__FM_INPUT };

/* The names a description declares (from formula.variables and the keys written). */
typedef struct {
  int n, np, nin, nres, nev;
  char var[SK__FM_MAX_VARS][SK__FM_NAME];
  char param[SK__FM_MAX_NAMES][SK__FM_NAME];
  char input[SK__FM_MAX_NAMES][SK__FM_NAME];
  char res[SK__FM_MAX_VARS][SK__FM_NAME]; /* residual labels, in the order written */
  char ev[SK__FM_MAX_EVENTS][SK__FM_NAME];
} sk__fm_desc;

/* The fixed formula.* keys (the model type's table; the keys a description names itself are
 * registered from it): X(field, key, type, default, min, max, choices, help), one row per key. */
#define SK__FORMULA_KEYS(X)                                                                    \
  X(variables, "formula.variables", SK_OPT_STRING, "", 0, 0, NULL,                             \
    "the state variables, comma separated (\"x, v\"; \"c[1..3]\" is c1, c2, c3); each needs "  \
    "formula.rhs.<name> (y' = f), or the model has one formula.residual.<label> per variable " \
    "(F(t, y, y') = 0, reading the derivative of v as dv); formula.parameters.<name>, "        \
    "formula.inputs.<name> "                                                                   \
    "(g(t)), formula.tables.<name> (a CSV of t, g), formula.mass.<row>.<col>, "                \
    "formula.jacobian.<row>.<col>, formula.exact.<name> and "                                  \
    "formula.events.<label>.{when,direction,action} add to it")                                \
  X(y0, "formula.y0", SK_OPT_REAL_LIST, "", 0, 0, NULL,                                        \
    "the initial state, one value per variable in the order of formula.variables")             \
  X(yp0, "formula.yp0", SK_OPT_REAL_LIST, "", 0, 0, NULL,                                      \
    "residual models: the initial derivatives (a guess: IDA makes them consistent; default 0)")

/* The values of the keys: field `f` of row X(f, ...) has its key's C type. */
typedef struct {
  SK__FORMULA_KEYS(SK__BIND_FIELD)
} sk__formula_keys;

/* SK__FORMULA_KEY_<field>: the row's index, its bit in the `given` mask */
enum {
#define SK__FORMULA_KEY_INDEX(f, ...) SK__FORMULA_KEY_##f,
  SK__FORMULA_KEYS(SK__FORMULA_KEY_INDEX)
#undef SK__FORMULA_KEY_INDEX
      SK__FORMULA_KEY_COUNT
};

SK__BIND_DECLARE(sk__formula, sk__formula_keys)

/* The sections whose keys a description names itself (NULL-terminated). */
extern const char *const sk__formula_sections[];

/* sk__fm_is_identifier: 1 for a name of letters, digits and _ starting with a letter. */
int sk__fm_is_identifier(const char *s, size_t n);

/* sk__fm_find: the index of `name` among the names of `kind`, -1 when absent. */
int sk__fm_find(const sk__fm_desc *D, int kind, const char *name);

/* sk__fm_read_variables: formula.variables into D (vectors expanded).
 * Errors: SK_ERR_INPUT naming file:line:col (a bad or reserved name, a
 * name twice, none at all). */
sk_status sk__fm_read_variables(sk_context *ctx, const sk_options *opts, sk__fm_desc *D);

/* sk__fm_register_keys: register the pending keys of the formula sections
 * whose shape is known (kept by opts), declaring the names they carry
 * (parameters, inputs, residual labels, event labels), after the names of
 * the keys an earlier build on the same database registered. A key of another
 * shape stays pending (sk_options_check_pending names it). Errors:
 * SK_ERR_INPUT (a bad or duplicate name, naming file:line:col), those of
 * sk_options_register (a bad value), SK_ERR_NOMEM. */
sk_status sk__fm_register_keys(sk_context *ctx, sk_options *opts, sk__fm_desc *D);

#endif

/* src/models/formula_keys.h: the keys and names of a formula model's description (formula_keys.c) */
#ifndef SK_MODELS_FORMULA_KEYS_H
#define SK_MODELS_FORMULA_KEYS_H

#include <stddef.h>

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

/* sk__formula_options: the fixed formula.* keys (model type table). */
const sk_option_spec *sk__formula_options(size_t *n);

/* The rows of that table; sk__formula_key(row) is the row's key. */
enum { SK__FM_KEY_VARIABLES, SK__FM_KEY_Y0, SK__FM_KEY_YP0 };
const char *sk__formula_key(int row);

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

/* src/core/muparser_module.h: the interface of the muparser module libstiffkit-muparser.so (the C API functions core/formula_expr.c calls), and its loader */
#ifndef SK_CORE_MUPARSER_MODULE_H
#define SK_CORE_MUPARSER_MODULE_H

#include <muParserDLL.h>

#include "core/module.h"

#define SK__MUPARSER_MODULE_ABI 1
#define SK__MUPARSER_MODULE_SYMBOL "sk__muparser_module_table"

/* muparser's C API (muParserDLL.h), as the module links it: muparser and
 * the C++ runtime it needs are mapped only by a run that has a formula. */
typedef struct {
  sk__module_head head;
  muParserHandle_t (*create)(int base_type);
  void (*release)(muParserHandle_t h);
  void (*define_const)(muParserHandle_t h, const muChar_t *name, muFloat_t value);
  void (*define_var)(muParserHandle_t h, const muChar_t *name, muFloat_t *var);
  void (*set_expr)(muParserHandle_t h, const muChar_t *expr);
  muFloat_t (*eval)(muParserHandle_t h);
  int (*error)(muParserHandle_t h);
  const muChar_t *(*error_msg)(muParserHandle_t h);
  int (*error_pos)(muParserHandle_t h);
  int (*expr_var_num)(muParserHandle_t h);
  void (*expr_var)(muParserHandle_t h, unsigned i, const muChar_t **name, muFloat_t **var);
} sk__muparser_module;

/* sk__muparser_open: the module's table, loading it on the first call.
 * `where` names the formula that needs it, for the message. Errors: those
 * of sk__module_open (SK_ERR_UNSUPPORTED naming the module and the
 * loader's reason; the CLI's exit 69). */
sk_status sk__muparser_open(sk_context *ctx, const char *where, const sk__muparser_module **mp);

/* sk__muparser: the table once sk__muparser_open has succeeded in this
 * process (every formula was compiled through it), else NULL. */
const sk__muparser_module *sk__muparser(void);

#endif

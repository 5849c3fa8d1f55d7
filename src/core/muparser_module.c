/* src/core/muparser_module.c: the table exported by the muparser module libstiffkit-muparser.so: muparser's C API functions */
#include "core/muparser_module.h"

__attribute__((visibility("default"))) const sk__muparser_module sk__muparser_module_table = {
    .head = {SK__MUPARSER_MODULE_ABI, sizeof(sk__muparser_module)},
    .create = mupCreate,
    .release = mupRelease,
    .define_const = mupDefineConst,
    .define_var = mupDefineVar,
    .set_expr = mupSetExpr,
    .eval = mupEval,
    .error = mupError,
    .error_msg = mupGetErrorMsg,
    .error_pos = mupGetErrorPos,
    .expr_var_num = mupGetExprVarNum,
    .expr_var = mupGetExprVar,
};

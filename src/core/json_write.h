/* src/core/json_write.h: writing JSON values: escaped strings, and numbers with null for inf/nan */
#ifndef SK_CORE_JSON_WRITE_H
#define SK_CORE_JSON_WRITE_H

#include <stdio.h>

/* sk__json_string: s as a JSON string literal (quotes, backslashes and
 * control characters escaped). */
void sk__json_string(FILE *f, const char *s);

/* sk__json_number: v as %.10e, or null when v is not finite (JSON has no
 * inf or nan). */
void sk__json_number(FILE *f, double v);

#endif

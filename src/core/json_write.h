/* src/core/json_write.h: writing JSON values (escaped strings, numbers with null for inf/nan) and YAML double-quoted scalars */
#ifndef SK_CORE_JSON_WRITE_H
#define SK_CORE_JSON_WRITE_H

#include <stddef.h>
#include <stdio.h>

/* sk__json_string: s as a JSON string literal (quotes, backslashes and
 * control characters escaped). */
void sk__json_string(FILE *f, const char *s);

/* sk__json_number: v as %.10e, or null when v is not finite (JSON has no
 * inf or nan). */
void sk__json_number(FILE *f, double v);

/* sk__yaml_quote: s as a YAML double-quoted scalar (quotes included) into
 * dst (NUL-terminated when cap > 0; dst may be NULL when cap == 0). Returns
 * the length of the full quoted text (excluding the NUL), as snprintf.
 * Control characters, DEL, invalid UTF-8 bytes and code points YAML cannot
 * print are escaped, so the text always parses. */
size_t sk__yaml_quote(char *dst, size_t cap, const char *s);

#endif

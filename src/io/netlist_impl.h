/* src/io/netlist_impl.h: the netlist parser's private state: tokens, logical lines, subcircuit definitions, parameter scopes, name tables */
#ifndef SK_IO_NETLIST_IMPL_H
#define SK_IO_NETLIST_IMPL_H

#include <stdarg.h>

#include "core/error.h"
#include "io/netlist.h"

#define SK__NET_MAX_DEPTH 64  /* nesting of .include files and of subcircuit instances */
#define SK__NET_MAX_LIST 4096 /* values in one PWL / TABLE list */

/* One token of a logical line: its text and where it starts (1-based). */
typedef struct {
  char *text;
  int32_t file, line, col;
} sk__ntok;

/* A logical line (continuations joined): tokens [first, first + n). */
typedef struct {
  int64_t first, n;
} sk__nline;

/* A string-keyed table of int64 values (open addressing; keys not owned). */
typedef struct {
  int64_t cap, count;
  const char **keys;
  int64_t *values;
} sk__nhash;

/* A .subckt definition: its line, pins (tokens [pin_first, +npins)), the
 * default-parameter tokens [par_first, par_end) of its header, and the
 * body lines [body_first, body_end). */
typedef struct {
  char *name; /* lower case */
  int64_t decl_line;
  int64_t pin_first, npins, par_first, par_end;
  int64_t body_first, body_end;
} sk__nsub;

/* Parameters visible while expanding: a frame of names and values, and
 * the top-level frame behind it (NULL at the top level). */
typedef struct sk__nscope {
  const struct sk__nscope *global;
  char **names; /* lower case, owned */
  double *values;
  int64_t n, cap;
  const char *prefix;       /* "" or "X1.X4." */
  const sk__nsub *sub;      /* the subcircuit being expanded, NULL at the top */
  const int64_t *pin_nodes; /* the nodes its pins are bound to */
} sk__nscope;

typedef struct {
  sk_context *ctx;
  sk__netlist *nl;
  sk__ntok *toks;
  int64_t ntoks, cap_toks;
  sk__nline *lines;
  int64_t nlines, cap_lines;
  int32_t stack[SK__NET_MAX_DEPTH]; /* files being read (include chain) */
  char *real[SK__NET_MAX_DEPTH];    /* their canonical paths */
  int depth;
  sk__nsub *subs;
  int64_t nsubs, cap_subs;
  const sk__nsub *active[SK__NET_MAX_DEPTH]; /* subcircuits being expanded */
  int nactive;
  int64_t end_line; /* lines from here on follow .end */
  sk__nhash node_hash, elem_hash;
  int64_t cap_nodes;
  double list[SK__NET_MAX_LIST]; /* work: the values of one PWL / TABLE / SIN / PULSE list */
} sk__nparser;

/* sk__net_error: record SK_ERR_INPUT "file:line:col: message" at token t
 * (t NULL: no location) and return SK_ERR_INPUT. */
sk_status sk__net_error(sk__nparser *p, const sk__ntok *t, const char *fmt, ...) SK__PRINTF(3, 4);

/* sk__net_grow: make room for one more element of `size` bytes in *arr
 * (count used, *cap allocated). Errors: SK_ERR_NOMEM (recorded). */
sk_status sk__net_grow(sk__nparser *p, void **arr, int64_t count, int64_t *cap, size_t size);

/* sk__net_strdup: a copy of s (NULL when out of memory, nothing recorded). */
char *sk__net_strdup(sk_context *ctx, const char *s);

/* sk__net_read_file: append the logical lines of `path` (includes expanded
 * in place, relative to the including file) to p. `from` is the .include
 * token (NULL for the main file). Errors: SK_ERR_MISSING, SK_ERR_INPUT, SK_ERR_NOMEM. */
sk_status sk__net_read_file(sk__nparser *p, const char *path, const sk__ntok *from);

/* sk__net_read_text: append the logical lines of `text` (file index
 * `file`, already registered in nl->files). Errors as sk__net_read_file. */
sk_status sk__net_read_text(sk__nparser *p, const char *text, int32_t file);

/* sk__net_read_named_text: register `name` in nl->files and read `text`
 * as that file. Errors as sk__net_read_file. */
sk_status sk__net_read_named_text(sk__nparser *p, const char *text, const char *name);

/* sk__net_number: a number with an optional engineering suffix (f p n u m
 * k meg g t, any case) and nothing after it. Returns 1 and *v, or 0. */
int sk__net_number(const char *s, double *v);

/* sk__net_value: the value of token t in scope: a number, a parameter
 * name or a {expression} (+ - * / ^, parentheses, numbers, parameters,
 * sqrt exp log abs sin cos min max pow, pi). Errors: SK_ERR_INPUT
 * (malformed number or suffix, undefined parameter, syntax). */
sk_status sk__net_value(sk__nparser *p, const sk__nscope *scope, const sk__ntok *t, double *v);

/* sk__net_scope_set: define or replace parameter `name` (any case) in s.
 * Errors: SK_ERR_NOMEM. */
sk_status sk__net_scope_set(sk__nparser *p, sk__nscope *s, const char *name, double v);

/* sk__net_scope_free: free the frame's names and values. */
void sk__net_scope_free(sk__nparser *p, sk__nscope *s);

/* Name tables: sk__nhash_find returns the value or -1; sk__nhash_put
 * stores key (not copied) -> value. Errors: SK_ERR_NOMEM. */
int64_t sk__nhash_find(const sk__nhash *h, const char *key);
sk_status sk__nhash_put(sk__nparser *p, sk__nhash *h, const char *key, int64_t value);
void sk__nhash_free(sk__nparser *p, sk__nhash *h);

/* sk__net_ieq: 1 when a and b are equal ignoring ASCII case. */
int sk__net_ieq(const char *a, const char *b);

/* sk__net_expand: the elements of lines [first, end) in scope (directives,
 * elements, subcircuit instances). Errors: SK_ERR_INPUT, SK_ERR_NOMEM. */
sk_status sk__net_expand(sk__nparser *p, sk__nscope *scope, int64_t first, int64_t end);

/* sk__net_element_line: parse one element line (tokens of line li; not an
 * X line, which sk__net_expand instantiates) into p->nl. Errors as
 * sk__net_expand. */
sk_status sk__net_element_line(sk__nparser *p, sk__nscope *scope, int64_t li);

/* sk__net_resolve_node: the node of token t in scope: the reference (-1), a
 * pin's node, or the (new) node prefix + name. Errors: SK_ERR_INPUT located
 * at t, SK_ERR_NOMEM. */
sk_status sk__net_resolve_node(sk__nparser *p, const sk__nscope *scope, const sk__ntok *t,
                               int64_t *node);

/* sk__net_count_error: "NAME: wrong number of fields (n after the name):
 * expected <the usage of element kind letter>" located at t. */
sk_status sk__net_count_error(sk__nparser *p, const sk__ntok *t, char letter, int64_t fields);

/* sk__net_join: "prefix" + "name" in a new string (NULL when out of memory). */
char *sk__net_join(sk_context *ctx, const char *prefix, const char *name);

#endif

/* src/io/multibody_file.c: mechanism files (YAML, libyaml document API) read into sk_multibody: bodies, joints, drivers, forces and events, with file:line:column messages */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "core/error.h"
#include "core/stop.h"
#include "core/input_file.h"
#include "io/multibody_file.h"

/* A mechanism file larger than this is refused (a mechanism is small). */
#define MULTIBODY_MAX_BYTES ((size_t)16 << 20)
/* Names listed in "not a body (bodies: ...)" messages. */
#define MULTIBODY_LIST_NAMES 10

typedef struct {
  sk_context *ctx;
  const char *file; /* the path as given, for messages */
  const unsigned char *text;
  size_t len;
  yaml_document_t *doc;
  sk_multibody *mech;
} multibody_parser;

static int line_of(const yaml_node_t *n)
{
  return (int)n->start_mark.line + 1;
}

static int column_of(const yaml_node_t *n)
{
  return (int)n->start_mark.column + 1;
}

static yaml_node_t *node_at(const multibody_parser *P, int index)
{
  return yaml_document_get_node(P->doc, index);
}

static const char *node_kind(const yaml_node_t *n)
{
  if (!n) {
    return "nothing";
  }
  switch (n->type) {
  case YAML_SCALAR_NODE:
    return "a single value";
  case YAML_SEQUENCE_NODE:
    return "a list";
  case YAML_MAPPING_NODE:
    return "a mapping";
  default:
    return "an empty node";
  }
}

/* A scalar without an embedded NUL (its text can be used as a C string). */
static int is_text(const yaml_node_t *n)
{
  return n && n->type == YAML_SCALAR_NODE &&
         strlen((const char *)n->data.scalar.value) == n->data.scalar.length;
}

static const char *text_of(const yaml_node_t *n)
{
  return (const char *)n->data.scalar.value;
}

/* An empty value ("key:" with nothing, ~ or null), plain style only. */
static int is_null(const yaml_node_t *n)
{
  static const char *const nulls[] = {"", "~", "null", "Null", "NULL"};
  if (!is_text(n) || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE) {
    return 0;
  }
  for (size_t i = 0; i < sizeof nulls / sizeof nulls[0]; i++) {
    if (strcmp(text_of(n), nulls[i]) == 0) {
      return 1;
    }
  }
  return 0;
}

static int seq_count(const yaml_node_t *n)
{
  return (int)(n->data.sequence.items.top - n->data.sequence.items.start);
}

/* Record SK_ERR_INPUT "file:line:column: <message>" at node `at`. */
static sk_status fail(const multibody_parser *P, const yaml_node_t *at, const char *fmt, ...)
    SK__PRINTF(3, 4);

static sk_status fail(const multibody_parser *P, const yaml_node_t *at, const char *fmt, ...)
{
  char msg[SK_ERROR_MSG_LEN];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (!at) { /* not expected: every value has a node */
    return SK_ERROR(P->ctx, SK_ERR_INPUT, "%s: %s", P->file, msg);
  }
  return SK_ERROR(P->ctx, SK_ERR_INPUT, "%s:%d:%d: %s", P->file, line_of(at), column_of(at), msg);
}

/* Record libyaml's syntax error with its position. */
static sk_status syntax_error(const multibody_parser *P, const yaml_parser_t *p)
{
  const char *problem = p->problem ? p->problem : "unknown problem";
  switch (p->error) {
  case YAML_MEMORY_ERROR:
    return SK_ERROR(P->ctx, SK_ERR_NOMEM, "%s: out of memory while parsing YAML", P->file);
  case YAML_READER_ERROR: {
    /* no mark: find the line and column of the byte offset */
    size_t off = p->problem_offset < P->len ? p->problem_offset : P->len;
    size_t line = 1, col = 1;
    for (size_t i = 0; i < off; i++) {
      if (P->text[i] == '\n') {
        line++;
        col = 1;
      } else {
        col++;
      }
    }
    if (p->problem_value != -1) {
      return SK_ERROR(P->ctx, SK_ERR_INPUT, "%s:%zu:%zu: YAML syntax error: %s (byte 0x%02x)",
                      P->file, line, col, problem, (unsigned)p->problem_value & 0xffu);
    }
    return SK_ERROR(P->ctx, SK_ERR_INPUT, "%s:%zu:%zu: YAML syntax error: %s", P->file, line, col,
                    problem);
  }
  case YAML_SCANNER_ERROR:
  case YAML_PARSER_ERROR:
  case YAML_COMPOSER_ERROR:
    if (p->context) {
      return SK_ERROR(P->ctx, SK_ERR_INPUT, "%s:%d:%d: YAML syntax error: %s (%s at %d:%d)",
                      P->file, (int)p->problem_mark.line + 1, (int)p->problem_mark.column + 1,
                      problem, p->context, (int)p->context_mark.line + 1,
                      (int)p->context_mark.column + 1);
    }
    return SK_ERROR(P->ctx, SK_ERR_INPUT, "%s:%d:%d: YAML syntax error: %s", P->file,
                    (int)p->problem_mark.line + 1, (int)p->problem_mark.column + 1, problem);
  default:
    return SK_ERROR(P->ctx, SK_ERR_INPUT, "%s: YAML error: %s", P->file, problem);
  }
}

/* ---- fields ---------------------------------------------------------------- */

/* Join names as "a, b, c" into buf. */
static void join_names(const char *const *names, size_t n, char *buf, size_t len)
{
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < n && used + 1 < len; i++) {
    int w = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", names[i]);
    if (w < 0) {
      break;
    }
    used += (size_t)w;
  }
}

/* Check the keys of mapping `map`: plain names, each valid and given once. */
static sk_status check_keys(const multibody_parser *P, const yaml_node_t *map, const char *label,
                            const char *const *valid, size_t nvalid)
{
  const yaml_node_pair_t *start = map->data.mapping.pairs.start;
  for (const yaml_node_pair_t *p = start; p < map->data.mapping.pairs.top; p++) {
    const yaml_node_t *k = node_at(P, p->key);
    const char *prefix = label ? label : "";
    const char *sep = label ? ": " : "";
    if (!is_text(k)) {
      return fail(P, k ? k : map, "%s%sa key must be a plain name, got %s", prefix, sep,
                  node_kind(k));
    }
    size_t i = 0;
    while (i < nvalid && strcmp(text_of(k), valid[i]) != 0) {
      i++;
    }
    if (i == nvalid) {
      char list[256];
      join_names(valid, nvalid, list, sizeof list);
      return fail(P, k, "%s%sunknown %s '%s' (valid %s: %s)", prefix, sep,
                  label ? "field" : "key", text_of(k), label ? "fields" : "keys", list);
    }
    for (const yaml_node_pair_t *q = start; q < p; q++) {
      const yaml_node_t *k0 = node_at(P, q->key);
      if (is_text(k0) && strcmp(text_of(k0), text_of(k)) == 0) {
        return fail(P, k, "%s%s%s '%s' given twice (first at line %d, column %d)", prefix, sep,
                    label ? "field" : "key", text_of(k), line_of(k0), column_of(k0));
      }
    }
  }
  return SK_OK;
}

/* The value of `key` in mapping `map`, or NULL. */
static yaml_node_t *lookup(const multibody_parser *P, const yaml_node_t *map, const char *key)
{
  for (const yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
       p++) {
    const yaml_node_t *k = node_at(P, p->key);
    if (is_text(k) && strcmp(text_of(k), key) == 0) {
      return node_at(P, p->value);
    }
  }
  return NULL;
}

/* The value of a required field (an error at the mapping when absent). */
static sk_status required(const multibody_parser *P, const yaml_node_t *map, const char *label,
                          const char *key, yaml_node_t **value)
{
  *value = lookup(P, map, key);
  if (!*value) {
    return fail(P, map, "%s: missing field '%s'", label, key);
  }
  return SK_OK;
}

/* "label: " before a field, or nothing for a top-level key (label NULL). */
#define LABEL(l) ((l) ? (l) : ""), ((l) ? ": " : "")

/* A finite number: the whole scalar read by strtod. */
static sk_status number(const multibody_parser *P, const yaml_node_t *n, const char *label,
                        const char *field, double *out)
{
  if (!n || n->type != YAML_SCALAR_NODE) {
    return fail(P, n, "%s%s%s: expected a number, got %s", LABEL(label), field, node_kind(n));
  }
  const char *s = text_of(n);
  char *end = NULL;
  double v = 0.0;
  if (is_text(n) && s[0] != '\0' && strchr(" \t\r\n\f\v", s[0]) == NULL) {
    v = strtod(s, &end);
  }
  if (!end || end == s || *end != '\0' || !isfinite(v)) {
    return fail(P, n, "%s%s%s: expected a finite number, got '%s'", LABEL(label), field, s);
  }
  *out = v;
  return SK_OK;
}

/* An optional number: `fallback` when the field is absent. */
static sk_status number_field(const multibody_parser *P, const yaml_node_t *map,
                              const char *label, const char *key, int need, double fallback,
                              double *out, const yaml_node_t **where)
{
  yaml_node_t *n = lookup(P, map, key);
  if (where) {
    *where = n ? n : map;
  }
  if (!n) {
    if (need) {
      return fail(P, map, "%s: missing field '%s'", label, key);
    }
    *out = fallback;
    return SK_OK;
  }
  return number(P, n, label, key, out);
}

/* A pair of numbers [a, b]; `shape` names them in messages ("[x, y]"). */
static sk_status pair_field(const multibody_parser *P, const yaml_node_t *map, const char *label,
                            const char *key, int need, const char *shape, double *out,
                            const yaml_node_t **where)
{
  yaml_node_t *n = lookup(P, map, key);
  if (where) {
    *where = n ? n : map;
  }
  if (!n) {
    if (need) {
      return fail(P, map, "%s%smissing field '%s'", LABEL(label), key);
    }
    out[0] = out[1] = 0.0;
    return SK_OK;
  }
  if (n->type != YAML_SEQUENCE_NODE) {
    return fail(P, n, "%s%s%s: expected %s (a list of 2 numbers), got %s", LABEL(label), key,
                shape, node_kind(n));
  }
  if (seq_count(n) != 2) {
    return fail(P, n, "%s%s%s: expected %s (a list of 2 numbers), got %d item%s", LABEL(label),
                key, shape, seq_count(n), seq_count(n) == 1 ? "" : "s");
  }
  for (int i = 0; i < 2; i++) {
    char field[64];
    snprintf(field, sizeof field, "%s[%d]", key, i);
    SK_CALL(P->ctx,
            number(P, node_at(P, n->data.sequence.items.start[i]), label, field, &out[i]));
  }
  return SK_OK;
}

/* A name: 1 to SK__MULTIBODY_NAME - 1 letters, digits, '_' or '-'. */
static sk_status name_field(const multibody_parser *P, const yaml_node_t *map, const char *label,
                            const char *key, char *out, const yaml_node_t **where)
{
  yaml_node_t *n = NULL;
  SK_CALL(P->ctx, required(P, map, label, key, &n));
  *where = n;
  if (!is_text(n)) {
    return fail(P, n, "%s: %s: expected a name, got %s", label, key, node_kind(n));
  }
  const char *s = text_of(n);
  size_t len = strlen(s);
  if (len == 0) {
    return fail(P, n, "%s: %s: empty name", label, key);
  }
  if (len >= SK__MULTIBODY_NAME) {
    return fail(P, n, "%s: %s: the name '%s' is longer than %d characters", label, key, s,
                SK__MULTIBODY_NAME - 1);
  }
  for (size_t i = 0; i < len; i++) {
    const char c = s[i];
    const int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                   c == '_' || c == '-';
    if (!ok) {
      return fail(P, n, "%s: %s: the name '%s' may hold only letters, digits, '_' and '-'", label,
                  key, s);
    }
  }
  memcpy(out, s, len + 1);
  return SK_OK;
}

/* One of `choices` (a keyword); its index goes to *out. */
static sk_status choice_field(const multibody_parser *P, const yaml_node_t *map,
                              const char *label, const char *key, const char *what,
                              const char *const *choices, size_t nchoices, int *out)
{
  yaml_node_t *n = NULL;
  SK_CALL(P->ctx, required(P, map, label, key, &n));
  if (is_text(n)) {
    for (size_t i = 0; i < nchoices; i++) {
      if (strcmp(text_of(n), choices[i]) == 0) {
        *out = (int)i;
        return SK_OK;
      }
    }
  }
  char list[128];
  join_names(choices, nchoices, list, sizeof list);
  if (!is_text(n)) {
    return fail(P, n, "%s: %s: expected one of %s, got %s", label, key, list, node_kind(n));
  }
  return fail(P, n, "%s: %s '%s' is not %s (%s)", label, key, text_of(n), what, list);
}

/* "a, b, or c" of up to MULTIBODY_LIST_NAMES names (then "..."), `last` appended;
 * name i is at names + i stride (names of an array of structs). */
static void name_list(const char *names, size_t stride, int count, const char *last, char *buf,
                      size_t len)
{
  const int shown = count < MULTIBODY_LIST_NAMES ? count : MULTIBODY_LIST_NAMES;
  const int items = shown + (count > shown) + (last != NULL);
  size_t used = 0;
  buf[0] = '\0';
  for (int i = 0; i < items && used + 1 < len; i++) {
    const char *one = i < shown                       ? names + (size_t)i * stride
                      : (count > shown && i == shown) ? "..."
                                                      : last;
    const char *sep = i == 0 ? "" : items == 2 ? " or " : i == items - 1 ? ", or " : ", ";
    int w = snprintf(buf + used, len - used, "%s%s", sep, one);
    if (w < 0) {
      break;
    }
    used += (size_t)w;
  }
}

/* A body name (or "ground" when allowed): its index goes to *b. */
static sk_status body_field(const multibody_parser *P, const yaml_node_t *map, const char *label,
                            const char *key, int allow_ground, int *b)
{
  const sk_multibody *M = P->mech;
  yaml_node_t *n = NULL;
  SK_CALL(P->ctx, required(P, map, label, key, &n));
  if (!is_text(n)) {
    return fail(P, n, "%s: %s: expected a body name, got %s", label, key, node_kind(n));
  }
  const char *s = text_of(n);
  if (strcmp(s, "ground") == 0) {
    if (!allow_ground) {
      return fail(P, n, "%s: %s cannot be the ground (it must name a body)", label, key);
    }
    *b = SK__MULTIBODY_GROUND;
    return SK_OK;
  }
  for (int i = 0; i < M->nb; i++) {
    if (strcmp(M->bodies[i].name, s) == 0) {
      *b = i;
      return SK_OK;
    }
  }
  char list[512];
  name_list((const char *)M->bodies + offsetof(sk__multibody_body, name), sizeof M->bodies[0],
            M->nb, allow_ground ? "ground" : NULL, list, sizeof list);
  return fail(P, n, "%s: %s '%s' is not a body (bodies: %s)", label, key, s, list);
}

/* A formula in t: field `key` parsed into *tf (NULL when optional and absent). */
static sk_status formula_field(const multibody_parser *P, const yaml_node_t *map,
                               const char *label, const char *key, int need,
                               sk__time_function **tf)
{
  yaml_node_t *n = lookup(P, map, key);
  if (!n) {
    if (need) {
      return fail(P, map, "%s: missing field '%s'", label, key);
    }
    return SK_OK;
  }
  if (!is_text(n)) {
    return fail(P, n, "%s: %s: expected a formula in t, got %s", label, key, node_kind(n));
  }
  char where[SK_ERROR_MSG_LEN];
  snprintf(where, sizeof where, "%s:%d:%d: %s: %s", P->file, line_of(n), column_of(n), label,
           key);
  SK_CALL(P->ctx, sk__time_function_formula(P->ctx, text_of(n), where, tf));
  return SK_OK;
}

/* The list under a top-level key: *seq is NULL (and *count 0) when the key
 * is absent or empty. */
static sk_status list_value(const multibody_parser *P, yaml_node_t *n, const char *key,
                            yaml_node_t **seq, int *count)
{
  *seq = NULL;
  *count = 0;
  if (!n || is_null(n)) {
    return SK_OK;
  }
  if (n->type != YAML_SEQUENCE_NODE) {
    return fail(P, n, "%s: expected a list (one '- {...}' item each), got %s", key, node_kind(n));
  }
  *seq = n;
  *count = seq_count(n);
  /* the mechanism kernels are dense: a few hundred bodies is their range, and these caps
     keep every size product (n + m)^2 far inside int */
  const int cap = !strcmp(key, "bodies") ? SK_MULTIBODY_MAX_BODIES : 2 * SK_MULTIBODY_MAX_BODIES;
  if (*count > cap) {
    return fail(P, n,
                "%s: %d entries, more than the %d a mechanism may have (the constraint "
                "and mass matrices are dense)",
                key, *count, cap);
  }
  return SK_OK;
}

/* Item i of list `seq`, which must be a mapping. */
static sk_status item(const multibody_parser *P, const yaml_node_t *seq, int i, const char *label,
                      yaml_node_t **entry)
{
  *entry = node_at(P, seq->data.sequence.items.start[i]);
  if (!*entry || (*entry)->type != YAML_MAPPING_NODE) {
    return fail(P, *entry ? *entry : seq,
                "%s: expected a mapping of fields ({name: ..., ...}), got %s", label,
                node_kind(*entry));
  }
  return SK_OK;
}

static void *alloc_array(const multibody_parser *P, int count, size_t size)
{
  return count > 0 ? sk__calloc(P->ctx, (size_t)count, size) : NULL;
}

/* ---- sections -------------------------------------------------------------- */

static sk_status load_bodies(multibody_parser *P, yaml_node_t *value)
{
  static const char *const fields[] = {"name",  "mass",     "inertia", "position",
                                       "angle", "velocity", "omega"};
  sk_multibody *M = P->mech;
  yaml_node_t *seq = NULL;
  int count = 0;
  SK_CALL(P->ctx, list_value(P, value, "bodies", &seq, &count));
  if (count == 0) {
    return fail(P, value, "bodies: a mechanism needs at least one body");
  }
  M->bodies = alloc_array(P, count, sizeof *M->bodies);
  SK_CHECK(P->ctx, M->bodies != NULL, SK_ERR_NOMEM, "%s: out of memory", P->file);
  for (int i = 0; i < count; i++) {
    sk__multibody_body *B = &M->bodies[i];
    yaml_node_t *e = NULL;
    const yaml_node_t *at = NULL;
    char label[64];
    snprintf(label, sizeof label, "bodies[%d]", i);
    SK_CALL(P->ctx, item(P, seq, i, label, &e));
    SK_CALL(P->ctx, name_field(P, e, label, "name", B->name, &at));
    if (strcmp(B->name, "ground") == 0) {
      return fail(P, at, "%s: the name 'ground' is reserved for the fixed frame", label);
    }
    for (int k = 0; k < i; k++) {
      if (strcmp(M->bodies[k].name, B->name) == 0) {
        return fail(P, at, "body '%s' is defined twice (first at line %d)", B->name,
                    M->bodies[k].line);
      }
    }
    B->line = line_of(e);
    M->nb = i + 1; /* bodies[0..i] are named */
    snprintf(label, sizeof label, "body '%s'", B->name);
    SK_CALL(P->ctx, check_keys(P, e, label, fields, sizeof fields / sizeof fields[0]));
    SK_CALL(P->ctx, number_field(P, e, label, "mass", 1, 0.0, &B->mass, &at));
    if (!(B->mass > 0.0)) {
      return fail(P, at, "%s: mass must be > 0 (got %s)", label, text_of(at));
    }
    SK_CALL(P->ctx, number_field(P, e, label, "inertia", 1, 0.0, &B->inertia, &at));
    if (!(B->inertia > 0.0)) {
      return fail(P, at, "%s: inertia must be > 0 (got %s)", label, text_of(at));
    }
    SK_CALL(P->ctx, pair_field(P, e, label, "position", 1, "[x, y]", B->q0, NULL));
    SK_CALL(P->ctx, number_field(P, e, label, "angle", 1, 0.0, &B->q0[2], NULL));
    SK_CALL(P->ctx, pair_field(P, e, label, "velocity", 0, "[vx, vy]", B->v0, NULL));
    SK_CALL(P->ctx, number_field(P, e, label, "omega", 0, 0.0, &B->v0[2], NULL));
  }
  return SK_OK;
}

static sk_status load_joints(multibody_parser *P, yaml_node_t *value)
{
  static const char *const types[] = {"revolute", "prismatic", "fixed"};
  static const char *const pin_fields[] = {"name", "type", "body1", "point1", "body2", "point2"};
  static const char *const slide_fields[] = {"name",  "type",   "body1", "point1",
                                             "body2", "point2", "axis"};
  static const char *const fixed_fields[] = {"name", "type", "body1"};
  sk_multibody *M = P->mech;
  yaml_node_t *seq = NULL;
  int count = 0;
  SK_CALL(P->ctx, list_value(P, value, "joints", &seq, &count));
  M->joints = alloc_array(P, count, sizeof *M->joints);
  SK_CHECK(P->ctx, count == 0 || M->joints != NULL, SK_ERR_NOMEM, "%s: out of memory", P->file);
  M->nj = count;
  for (int i = 0; i < count; i++) {
    sk__multibody_joint *J = &M->joints[i];
    yaml_node_t *e = NULL;
    const yaml_node_t *at = NULL;
    char label[64];
    snprintf(label, sizeof label, "joints[%d]", i);
    SK_CALL(P->ctx, item(P, seq, i, label, &e));
    SK_CALL(P->ctx, name_field(P, e, label, "name", J->name, &at));
    for (int k = 0; k < i; k++) {
      if (strcmp(M->joints[k].name, J->name) == 0) {
        return fail(P, at, "joint '%s' is defined twice (first at line %d)", J->name,
                    M->joints[k].line);
      }
    }
    J->line = line_of(e);
    snprintf(label, sizeof label, "joint '%s'", J->name);
    int type = 0;
    SK_CALL(P->ctx, choice_field(P, e, label, "type", "a joint type", types, 3, &type));
    J->type = (sk__multibody_joint_type)type;
    if (J->type == SK__MULTIBODY_FIXED) {
      SK_CALL(P->ctx, check_keys(P, e, label, fixed_fields, 3));
      SK_CALL(P->ctx, body_field(P, e, label, "body1", 0, &J->b1));
      J->b2 = SK__MULTIBODY_GROUND;
      continue;
    }
    if (J->type == SK__MULTIBODY_REVOLUTE) {
      SK_CALL(P->ctx, check_keys(P, e, label, pin_fields, 6));
    } else {
      SK_CALL(P->ctx, check_keys(P, e, label, slide_fields, 7));
    }
    SK_CALL(P->ctx, body_field(P, e, label, "body1", 0, &J->b1));
    SK_CALL(P->ctx, pair_field(P, e, label, "point1", 1, "[x, y]", J->s1, NULL));
    SK_CALL(P->ctx, body_field(P, e, label, "body2", 1, &J->b2));
    SK_CALL(P->ctx, pair_field(P, e, label, "point2", 1, "[x, y]", J->s2, NULL));
    if (J->b1 == J->b2) {
      return fail(P, lookup(P, e, "body2"), "%s: body1 and body2 are the same body '%s'", label,
                  M->bodies[J->b1].name);
    }
    if (J->type == SK__MULTIBODY_PRISMATIC) {
      SK_CALL(P->ctx, pair_field(P, e, label, "axis", 1, "[ux, uy]", J->axis, &at));
      const double norm = hypot(J->axis[0], J->axis[1]);
      if (!(norm > 0.0) || !isfinite(norm)) {
        return fail(P, at, "%s: axis must be a nonzero vector (got [%g, %g])", label, J->axis[0],
                    J->axis[1]);
      }
      J->axis[0] /= norm;
      J->axis[1] /= norm;
    }
  }
  return SK_OK;
}

static sk_status load_drivers(multibody_parser *P, yaml_node_t *value)
{
  static const char *const fields[] = {"joint", "position", "velocity", "acceleration"};
  sk_multibody *M = P->mech;
  yaml_node_t *seq = NULL;
  int count = 0;
  SK_CALL(P->ctx, list_value(P, value, "drivers", &seq, &count));
  M->drivers = alloc_array(P, count, sizeof *M->drivers);
  SK_CHECK(P->ctx, count == 0 || M->drivers != NULL, SK_ERR_NOMEM, "%s: out of memory", P->file);
  M->nd = count;
  for (int i = 0; i < count; i++) {
    sk__multibody_driver *D = &M->drivers[i];
    yaml_node_t *e = NULL;
    yaml_node_t *jn = NULL;
    char label[96];
    snprintf(label, sizeof label, "drivers[%d]", i);
    SK_CALL(P->ctx, item(P, seq, i, label, &e));
    SK_CALL(P->ctx, check_keys(P, e, label, fields, sizeof fields / sizeof fields[0]));
    SK_CALL(P->ctx, required(P, e, label, "joint", &jn));
    if (!is_text(jn)) {
      return fail(P, jn, "%s: joint: expected a joint name, got %s", label, node_kind(jn));
    }
    D->joint = -1;
    for (int j = 0; j < M->nj; j++) {
      if (strcmp(M->joints[j].name, text_of(jn)) == 0) {
        D->joint = j;
      }
    }
    if (D->joint < 0) {
      if (M->nj == 0) {
        return fail(P, jn, "%s: joint '%s' is not a joint (the mechanism has no joints)", label,
                    text_of(jn));
      }
      char list[512];
      name_list((const char *)M->joints + offsetof(sk__multibody_joint, name),
                sizeof M->joints[0], M->nj, NULL, list, sizeof list);
      return fail(P, jn, "%s: joint '%s' is not a joint (joints: %s)", label, text_of(jn), list);
    }
    const sk__multibody_joint *J = &M->joints[D->joint];
    if (J->type == SK__MULTIBODY_FIXED) {
      return fail(P, jn,
                  "%s: joint '%s' is a fixed joint; only revolute and prismatic joints can be "
                  "driven",
                  label, J->name);
    }
    for (int k = 0; k < i; k++) {
      if (M->drivers[k].joint == D->joint) {
        return fail(P, jn, "%s: joint '%s' already has a driver (line %d)", label, J->name,
                    M->drivers[k].line);
      }
    }
    D->line = line_of(e);
    snprintf(label, sizeof label, "driver of joint '%s'", J->name);
    SK_CALL(P->ctx, formula_field(P, e, label, "position", 1, &D->f));
    SK_CALL(P->ctx, formula_field(P, e, label, "velocity", 0, &D->df));
    SK_CALL(P->ctx, formula_field(P, e, label, "acceleration", 0, &D->ddf));
  }
  return SK_OK;
}

/* A coefficient >= 0 (stiffness, rest length, damping). */
static sk_status nonnegative(const multibody_parser *P, const yaml_node_t *map, const char *label,
                             const char *key, int need, double *out)
{
  const yaml_node_t *at = NULL;
  SK_CALL(P->ctx, number_field(P, map, label, key, need, 0.0, out, &at));
  if (*out < 0.0) {
    return fail(P, at, "%s: %s must be >= 0 (got %s)", label, key, text_of(at));
  }
  return SK_OK;
}

/* The name of spring number k (1-based among the springs), forces[i]: its optional field
 * `name`, else spring<k>; unique among the springs. */
static sk_status spring_name(multibody_parser *P, const yaml_node_t *map, const char *label,
                             int k, int i)
{
  sk_multibody *M = P->mech;
  sk__multibody_force *F = &M->forces[i];
  const yaml_node_t *at = map;
  if (lookup(P, map, "name")) {
    SK_CALL(P->ctx, name_field(P, map, label, "name", F->name, &at));
  } else {
    snprintf(F->name, sizeof F->name, "spring%d", k);
  }
  for (int j = 0; j < i; j++) {
    if (M->forces[j].type == SK__MULTIBODY_SPRING && !strcmp(M->forces[j].name, F->name)) {
      return fail(P, at, "%s: a spring named '%s' is already declared (line %d)", label, F->name,
                  M->forces[j].line);
    }
  }
  return SK_OK;
}

static sk_status load_forces(multibody_parser *P, yaml_node_t *value)
{
  static const char *const types[] = {"spring", "force", "torque"};
  static const char *const spring_fields[] = {"type",   "name",      "body1",  "point1", "body2",
                                              "point2", "stiffness", "length", "damping"};
  static const char *const force_fields[] = {"type", "body", "point", "fx", "fy"};
  static const char *const torque_fields[] = {"type", "body", "value"};
  sk_multibody *M = P->mech;
  yaml_node_t *seq = NULL;
  int count = 0, nsprings = 0;
  SK_CALL(P->ctx, list_value(P, value, "forces", &seq, &count));
  M->forces = alloc_array(P, count, sizeof *M->forces);
  SK_CHECK(P->ctx, count == 0 || M->forces != NULL, SK_ERR_NOMEM, "%s: out of memory", P->file);
  M->nf = count;
  for (int i = 0; i < count; i++) {
    sk__multibody_force *F = &M->forces[i];
    yaml_node_t *e = NULL;
    char label[64];
    snprintf(label, sizeof label, "forces[%d]", i);
    SK_CALL(P->ctx, item(P, seq, i, label, &e));
    int type = 0;
    SK_CALL(P->ctx, choice_field(P, e, label, "type", "a force type", types, 3, &type));
    F->type = (sk__multibody_force_type)type;
    F->line = line_of(e);
    F->b2 = SK__MULTIBODY_GROUND;
    snprintf(label, sizeof label, "forces[%d] (%s)", i, types[type]);
    switch (F->type) {
    case SK__MULTIBODY_SPRING:
      SK_CALL(P->ctx, check_keys(P, e, label, spring_fields, 9));
      SK_CALL(P->ctx, spring_name(P, e, label, ++nsprings, i));
      SK_CALL(P->ctx, body_field(P, e, label, "body1", 0, &F->b1));
      SK_CALL(P->ctx, pair_field(P, e, label, "point1", 1, "[x, y]", F->s1, NULL));
      SK_CALL(P->ctx, body_field(P, e, label, "body2", 1, &F->b2));
      SK_CALL(P->ctx, pair_field(P, e, label, "point2", 1, "[x, y]", F->s2, NULL));
      SK_CALL(P->ctx, nonnegative(P, e, label, "stiffness", 1, &F->k));
      SK_CALL(P->ctx, nonnegative(P, e, label, "length", 1, &F->length));
      SK_CALL(P->ctx, nonnegative(P, e, label, "damping", 0, &F->damping));
      break;
    case SK__MULTIBODY_FORCE:
      SK_CALL(P->ctx, check_keys(P, e, label, force_fields, 5));
      SK_CALL(P->ctx, body_field(P, e, label, "body", 0, &F->b1));
      SK_CALL(P->ctx, pair_field(P, e, label, "point", 1, "[x, y]", F->s1, NULL));
      SK_CALL(P->ctx, formula_field(P, e, label, "fx", 1, &F->fx));
      SK_CALL(P->ctx, formula_field(P, e, label, "fy", 1, &F->fy));
      break;
    case SK__MULTIBODY_TORQUE:
    default:
      SK_CALL(P->ctx, check_keys(P, e, label, torque_fields, 3));
      SK_CALL(P->ctx, body_field(P, e, label, "body", 0, &F->b1));
      SK_CALL(P->ctx, formula_field(P, e, label, "value", 1, &F->fx));
      break;
    }
  }
  return SK_OK;
}

static sk_status load_events(multibody_parser *P, yaml_node_t *value)
{
  static const char *const fields[] = {"name", "body", "coordinate", "value"};
  static const char *const coords[] = {"x", "y", "angle"};
  sk_multibody *M = P->mech;
  yaml_node_t *seq = NULL;
  int count = 0;
  SK_CALL(P->ctx, list_value(P, value, "events", &seq, &count));
  M->events = alloc_array(P, count, sizeof *M->events);
  SK_CHECK(P->ctx, count == 0 || M->events != NULL, SK_ERR_NOMEM, "%s: out of memory", P->file);
  M->ne = count;
  for (int i = 0; i < count; i++) {
    sk__multibody_event *E = &M->events[i];
    yaml_node_t *e = NULL;
    const yaml_node_t *at = NULL;
    char label[64];
    snprintf(label, sizeof label, "events[%d]", i);
    SK_CALL(P->ctx, item(P, seq, i, label, &e));
    SK_CALL(P->ctx, name_field(P, e, label, "name", E->name, &at));
    for (int k = 0; k < i; k++) {
      if (strcmp(M->events[k].name, E->name) == 0) {
        return fail(P, at, "event '%s' is defined twice", E->name);
      }
    }
    snprintf(label, sizeof label, "event '%s'", E->name);
    SK_CALL(P->ctx, check_keys(P, e, label, fields, sizeof fields / sizeof fields[0]));
    SK_CALL(P->ctx, body_field(P, e, label, "body", 0, &E->body));
    SK_CALL(P->ctx,
            choice_field(P, e, label, "coordinate", "a coordinate", coords, 3, &E->coord));
    SK_CALL(P->ctx, number_field(P, e, label, "value", 1, 0.0, &E->value, NULL));
  }
  return SK_OK;
}

/* The document's root mapping into P->mech, section by section. */
static sk_status load_root(multibody_parser *P)
{
  static const char *const keys[] = {"gravity", "bodies", "joints",
                                     "drivers", "forces", "events"};
  yaml_node_t *root = yaml_document_get_root_node(P->doc);
  if (!root || is_null(root)) {
    return SK_ERROR(P->ctx, SK_ERR_INPUT, "%s:1:1: empty mechanism file (bodies: is required)",
                    P->file);
  }
  if (root->type != YAML_MAPPING_NODE) {
    return fail(P, root,
                "the top level of a mechanism file must be a mapping of keys (gravity, "
                "bodies, joints, ...), got %s",
                node_kind(root));
  }
  SK_CALL(P->ctx, check_keys(P, root, NULL, keys, sizeof keys / sizeof keys[0]));
  yaml_node_t *bodies = lookup(P, root, "bodies");
  if (!bodies) {
    return fail(P, root, "missing key 'bodies' (the list of bodies)");
  }
  yaml_node_t *joints = lookup(P, root, "joints");
  if (!joints) {
    return fail(P, root, "missing key 'joints' (the list of joints; 'joints: []' for none)");
  }
  SK_CALL(P->ctx, pair_field(P, root, NULL, "gravity", 0, "[gx, gy]", P->mech->gravity, NULL));
  SK_CALL(P->ctx, load_bodies(P, bodies));
  SK_CALL(P->ctx, load_joints(P, joints));
  SK_CALL(P->ctx, load_drivers(P, lookup(P, root, "drivers")));
  SK_CALL(P->ctx, load_forces(P, lookup(P, root, "forces")));
  SK_CALL(P->ctx, load_events(P, lookup(P, root, "events")));
  return SK_OK;
}

/* ---- file ------------------------------------------------------------------ */

/* The whole file into a new buffer (*text, *len). */
static sk_status read_file(sk_context *ctx, const char *path, char **text, size_t *len)
{
  *text = NULL;
  *len = 0;
  FILE *f = NULL;
  SK_CALL_STOP(ctx, sk__input_open(ctx, path, "mechanism file", MULTIBODY_MAX_BYTES, &f));
  size_t cap = 4096, n = 0;
  char *buf = sk__malloc(ctx, cap);
  sk_status st = SK_OK;
  if (!buf) {
    st = SK_ERROR(ctx, SK_ERR_NOMEM, "cannot read mechanism file '%s': out of memory", path);
  }
  while (st == SK_OK) {
    errno = 0;
    const size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (n < cap) {
      if (ferror(f)) {
        const int err = errno ? errno : EIO;
        st = SK_ERROR(ctx, SK_ERR_MISSING, "cannot read mechanism file '%s': %s", path,
                      strerror(err));
      }
      break;
    }
    if (cap > MULTIBODY_MAX_BYTES) {
      st = SK_ERROR(ctx, SK_ERR_INPUT, "%s: mechanism file larger than %zu bytes", path,
                    MULTIBODY_MAX_BYTES);
      break;
    }
    char *grown = sk__realloc(ctx, buf, n, 2 * cap);
    if (!grown) {
      st = SK_ERROR(ctx, SK_ERR_NOMEM, "cannot read mechanism file '%s': out of memory", path);
      break;
    }
    buf = grown;
    cap *= 2;
  }
  sk__input_close(f);
  if (st != SK_OK) {
    sk__free(ctx, buf);
    return st;
  }
  *text = buf;
  *len = n;
  return SK_OK;
}

/* libyaml's time grows with the square of the nesting of flow collections:
 * before composing, walk the events once and refuse deep files early (a
 * mechanism nests 4 levels: root, list, entry, pair). */
#define MULTIBODY_MAX_DEPTH 32
static sk_status check_depth(multibody_parser *P)
{
  yaml_parser_t parser;
  SK_CHECK(P->ctx, yaml_parser_initialize(&parser), SK_ERR_NOMEM, "%s: out of memory", P->file);
  yaml_parser_set_input_string(&parser, P->text, P->len);
  sk_status st = SK_OK;
  int depth = 0;
  for (;;) {
    yaml_event_t ev;
    if (!yaml_parser_parse(&parser, &ev)) {
      st = syntax_error(P, &parser);
      break;
    }
    depth += ev.type == YAML_SEQUENCE_START_EVENT || ev.type == YAML_MAPPING_START_EVENT;
    depth -= ev.type == YAML_SEQUENCE_END_EVENT || ev.type == YAML_MAPPING_END_EVENT;
    const int done = ev.type == YAML_STREAM_END_EVENT;
    if (depth > MULTIBODY_MAX_DEPTH) {
      st = SK_ERROR(P->ctx, SK_ERR_INPUT, "%s:%d:%d: nesting deeper than %d levels", P->file,
                    (int)ev.start_mark.line + 1, (int)ev.start_mark.column + 1,
                    MULTIBODY_MAX_DEPTH);
    }
    yaml_event_delete(&ev);
    if (done || st != SK_OK) {
      break;
    }
  }
  yaml_parser_delete(&parser);
  return st;
}

/* Parse the text (one YAML document) and fill mech. */
static sk_status parse_text(multibody_parser *P)
{
  yaml_parser_t parser;
  yaml_document_t doc, extra;
  SK_CALL(P->ctx, check_depth(P));
  SK_CHECK(P->ctx, yaml_parser_initialize(&parser), SK_ERR_NOMEM, "%s: out of memory", P->file);
  yaml_parser_set_input_string(&parser, P->text, P->len);
  if (!yaml_parser_load(&parser, &doc)) {
    const sk_status st = syntax_error(P, &parser);
    yaml_parser_delete(&parser);
    return st;
  }
  sk_status st = SK_OK;
  /* a second document (or a syntax error after the first) is an error too */
  if (!yaml_parser_load(&parser, &extra)) {
    st = syntax_error(P, &parser);
  } else {
    const yaml_node_t *second = yaml_document_get_root_node(&extra);
    if (second) {
      st = SK_ERROR(P->ctx, SK_ERR_INPUT,
                    "%s:%d:%d: a mechanism file holds one YAML document; found a second one",
                    P->file, (int)extra.start_mark.line + 1, (int)extra.start_mark.column + 1);
    }
    yaml_document_delete(&extra);
  }
  if (st == SK_OK) {
    P->doc = &doc;
    st = load_root(P);
    P->doc = NULL;
  }
  yaml_document_delete(&doc);
  yaml_parser_delete(&parser);
  return st;
}

sk_status sk__multibody_read(sk_context *ctx, const char *path, sk_multibody **mech)
{
  SK_CHECK(ctx, path != NULL && mech != NULL, SK_ERR_ARG, "sk_multibody_load: NULL argument");
  *mech = NULL;
  char *text = NULL;
  size_t len = 0;
  SK_CALL_STOP(ctx, read_file(ctx, path, &text, &len));
  sk_multibody *M = sk__calloc(ctx, 1, sizeof *M);
  if (!M) {
    sk__free(ctx, text);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "%s: out of memory", path);
  }
  M->ctx = ctx;
  snprintf(M->file, sizeof M->file, "%s", path);
  multibody_parser P = {ctx, path, (const unsigned char *)text, len, NULL, M};
  const sk_status st = parse_text(&P);
  sk__free(ctx, text);
  if (st != SK_OK) {
    sk_multibody_destroy(&M);
    sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
    return st;
  }
  *mech = M;
  return SK_OK;
}

void sk_multibody_destroy(sk_multibody **mech)
{
  if (!mech || !*mech) {
    return;
  }
  sk_multibody *M = *mech;
  sk_context *ctx = M->ctx;
  for (int d = 0; M->drivers && d < M->nd; d++) {
    sk__time_function_destroy(&M->drivers[d].f);
    sk__time_function_destroy(&M->drivers[d].df);
    sk__time_function_destroy(&M->drivers[d].ddf);
  }
  for (int f = 0; M->forces && f < M->nf; f++) {
    sk__time_function_destroy(&M->forces[f].fx);
    sk__time_function_destroy(&M->forces[f].fy);
  }
  sk__free(ctx, M->bodies);
  sk__free(ctx, M->joints);
  sk__free(ctx, M->drivers);
  sk__free(ctx, M->forces);
  sk__free(ctx, M->events);
  sk__free(ctx, M);
  *mech = NULL;
}

/* tests/unit/fuzz_mutate.h: a small deterministic mutation engine for the input fuzz tests (seeded PRNG, byte, line and token mutations of YAML text, hostile numbers, formulas, lists and nesting) and the driver they share (seed files, scratch cases, fixed hostile cases) */
/*
 * The fuzz tests (test_fuzz_mechanism.c, test_fuzz_bvp.c) read example files,
 * apply a few seeded mutations to their text and feed the result to a parser.
 * Everything here is deterministic: the same seed gives the same inputs on
 * every machine, so a failure names the case (file and iteration) and
 * SK_FUZZ_ONLY / SK_FUZZ_DUMP reproduce it (see fuzz_env below). The driver
 * at the end runs the cases of a test through its own function (fz_driver).
 * A file that includes this one defines _POSIX_C_SOURCE first (unlink, rmdir).
 */
#ifndef SK_TEST_FUZZ_MUTATE_H
#define SK_TEST_FUZZ_MUTATE_H

#include <ctype.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- PRNG (splitmix64) ---------------------------------------------------- */

typedef struct {
  uint64_t s;
} fz_rng;

static inline uint64_t fz_next(fz_rng *r)
{
  uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* uniform in [0, n) (n > 0) */
static inline size_t fz_below(fz_rng *r, size_t n)
{
  return n ? (size_t)(fz_next(r) % n) : 0;
}

/* a seed for (file name, iteration): FNV-1a of the name mixed with the iteration */
static inline uint64_t fz_seed(uint64_t base, const char *name, long iter)
{
  uint64_t h = 1469598103934665603ull ^ base;
  for (const char *p = name; *p; p++) {
    h = (h ^ (unsigned char)*p) * 1099511628211ull;
  }
  fz_rng r = {h ^ ((uint64_t)iter * 0x2545f4914f6cdd1dull)};
  return fz_next(&r);
}

/* ---- growable byte buffer --------------------------------------------------- */

typedef struct {
  char *p;
  size_t n, cap;
} fz_buf;

/* Exits with 2 when memory runs out (a test harness failure, not a finding). */
static inline void fz_reserve(fz_buf *b, size_t need)
{
  if (need + 1 <= b->cap) {
    return;
  }
  size_t cap = b->cap ? b->cap : 256;
  while (cap < need + 1) {
    cap *= 2;
  }
  char *q = realloc(b->p, cap);
  if (!q) {
    fprintf(stderr, "fuzz: out of memory\n");
    exit(2);
  }
  b->p = q;
  b->cap = cap;
}

static inline void fz_set(fz_buf *b, const char *text, size_t len)
{
  fz_reserve(b, len);
  memcpy(b->p, text, len);
  b->n = len;
  b->p[len] = '\0';
}

static inline void fz_insert(fz_buf *b, size_t at, const char *text, size_t len)
{
  if (at > b->n) {
    at = b->n;
  }
  fz_reserve(b, b->n + len);
  memmove(b->p + at + len, b->p + at, b->n - at);
  memcpy(b->p + at, text, len);
  b->n += len;
  b->p[b->n] = '\0';
}

static inline void fz_erase(fz_buf *b, size_t at, size_t len)
{
  if (at >= b->n) {
    return;
  }
  if (len > b->n - at) {
    len = b->n - at;
  }
  memmove(b->p + at, b->p + at + len, b->n - at - len);
  b->n -= len;
  b->p[b->n] = '\0';
}

static inline void fz_replace(fz_buf *b, size_t at, size_t len, const char *text, size_t tlen)
{
  fz_erase(b, at, len);
  fz_insert(b, at, text, tlen);
}

static inline void fz_free(fz_buf *b)
{
  free(b->p);
  b->p = NULL;
  b->n = b->cap = 0;
}

/* ---- dictionaries ------------------------------------------------------------ */

/* YAML structure and characters that parsers treat specially */
static const char *const fz_yaml_tokens[] = {
    ":",
    ": ",
    "- ",
    "-",
    "[",
    "]",
    "{",
    "}",
    ",",
    "#",
    " #x",
    "&a ",
    "*a",
    "&a",
    "!!str ",
    "!!int ",
    "!foo ",
    "|",
    "|\n  ",
    ">",
    "'",
    "\"",
    "''",
    "\"\"",
    "%YAML 1.1\n",
    "@",
    "`",
    "? ",
    "?",
    "\t",
    "\n",
    "\n\n",
    "\r",
    "\r\n",
    "---\n",
    "...\n",
    "--- ",
    "~",
    "null",
    " ",
    "   ",
    "\\",
    "\"\\u0000\"",
    "\"\\x00\"",
    "\xef\xbb\xbf",
    "\xc3",
    "\xff",
    "\x80",
    "\xe2\x80\xa8",
    "\x01",
    "<<: *a\n",
    "<<: ",
    "{}",
    "[]",
    "[[]]",
    "{a: }",
    ": :",
    "- - -",
    "*",
    "&",
    "!!",
};

/* numbers a reader must refuse or survive */
static const char *const fz_numbers[] = {
    "1e400",
    "-1e400",
    "1e-400",
    "nan",
    "-nan",
    "NaN",
    ".nan",
    "inf",
    "-inf",
    ".inf",
    "-.inf",
    "Infinity",
    "-0",
    "-0.0",
    "0",
    "+0",
    "4.9e-324",
    "2.2250738585072014e-308",
    "1.7976931348623157e308",
    "1.8e308",
    "-1.8e308",
    "1e308",
    "-1e308",
    "1e-308",
    "0x1p-1074",
    "0x1p1023",
    "0x1.fffffffffffffp1023",
    "0x",
    "0x1p",
    "1e",
    "1e+",
    ".",
    "-",
    "+",
    "5.",
    ".5",
    "1_000",
    "1,5",
    "1.2.3",
    "99999999999999999999999999",
    "-1",
    "-2.5",
    "2147483647",
    "2147483648",
    "-2147483649",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551616",
    "-9223372036854775809",
    "1e10",
    "1e18",
    "1e19",
    "1e100",
    "1e-100",
    "1e-300",
    "1e-320",
    "0.1e-3",
    "1 ",
    " 1",
    "1m",
    "1/12",
    "pi",
    "true",
    "false",
    "yes",
    "0o17",
    "017",
    "0b101",
    "\"1e400\"",
    "'nan'",
    "\"-0\"",
    "\"\"",
    "1e-14",
    "1e-15",
    "1e15",
    "100000000",
    "1000000000",
    "3",
    "2",
    "1",
    "64",
    "65",
    "32",
    "33",
};

/* formulas for muparser: syntax errors, values, and inputs that once broke it
 * (muparser's own regression cases from oss-fuzz) */
static const char *const fz_formulas[] = {
    "",
    " ",
    "t",
    "x",
    "1/0",
    "0/0",
    "-1/0",
    "sqrt(-1)",
    "log(0)",
    "exp(1000)",
    "exp(1e10*t)",
    "1e400",
    "t^1e308",
    "2^1024",
    "sin(",
    ")",
    "(",
    "()",
    "3+",
    "3+)",
    "sin()",
    "sin(1,2)",
    "sum()",
    "sum(1,2,3)",
    "min()",
    "max(1)",
    "avg(1,2)",
    "1?2",
    "?:",
    ":3",
    "? 1 : 2",
    "1 : 2",
    "(1) ? 1 : 2 : 3",
    "1 ? 2 : 3 ? 4 : 5",
    "t < 1 ? 0 : 1",
    "1?2:0?(7:1)",
    "sum(0?1,0,0:3)",
    "sum(0?(1,0,0):3)",
    "sum(2>3?2,4,2:4)",
    "sum(2>3?sin(2),4,2:4)",
    "3!=min(0?2>2,2>5,1:6)",
    "0^3^avg(0>3?4:(\"\"),0^3?4:(\"\"))",
    "avg(0?(\"\"):4,1)",
    "avg(0>3?4:(\"\"),0^3?4:(\"\"))",
    "0?4:(\"\")",
    "6 - 6 ? 4 : \"\", ? 4 : \"\", ? 4 : \"\"",
    "avg(0?4:(\"\"),1)",
    "1 ? \"\" : 4",
    "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",8",
    "(\"\"), 7",
    "((\"\")), 7",
    "\"\",\"\",9",
    "\"hello\"",
    "\"abc\"+1",
    "strfun1(\"a\")",
    "valueof(\"\")",
    "1,2",
    "1,2,3,4,5,6,7,8,9,10",
    "(1,2)",
    "sum(3, (4,5))",
    "t=1",
    "t=t+1, t",
    "pi=3",
    "a=b=3",
    "3=4",
    "(t)=5",
    "_pi",
    "_e",
    "e",
    "1 2",
    "t t",
    "sin(3)cos(3)",
    "sin(3)xyz",
    "--t",
    "-(-(-t))",
    "+-+-t",
    "!t",
    "t!",
    "t&&1",
    "t||0",
    "1 & 2",
    "1 << 3",
    "8 >> 100",
    "t %2",
    "#",
    "$",
    "t^^2",
    "t**2",
    "0x1p3",
    "0xff",
    "1e",
    "1.2.3",
    "\xc3\xa9",
    "\xff\xfe",
    "t\x01",
    "y",
    "dy",
    "y_a - y_b",
    "dy_a",
    "T - T0",
    "q - qL",
    "lambda",
    "eps",
    "mu",
};

/* names that once meant something to one of the parsers */
static const char *const fz_words[] = {
    "ground",
    "name",
    "mass",
    "inertia",
    "position",
    "angle",
    "velocity",
    "omega",
    "type",
    "revolute",
    "prismatic",
    "fixed",
    "body1",
    "body2",
    "point1",
    "point2",
    "axis",
    "joint",
    "acceleration",
    "spring",
    "force",
    "torque",
    "stiffness",
    "length",
    "damping",
    "body",
    "point",
    "fx",
    "fy",
    "value",
    "coordinate",
    "x",
    "y",
    "angle",
    "events",
    "forces",
    "drivers",
    "joints",
    "bodies",
    "gravity",
    "bvp",
    "model",
    "output",
    "interval",
    "order",
    "variables",
    "equations",
    "parameters",
    "bc",
    "at",
    "condition",
    "guess",
    "exact",
    "method",
    "tol",
    "mesh",
    "n",
    "ratio",
    "refine",
    "estimate",
    "max_points",
    "max_refinements",
    "newton",
    "max_iters",
    "fnormtol",
    "linesearch",
    "shooting",
    "intervals",
    "nodes",
    "ivp_method",
    "rtol",
    "atol",
    "sensitivity_limit",
    "points",
    "continuation",
    "parameter",
    "to",
    "step",
    "min_step",
    "prefix",
    "left",
    "right",
    "both",
    "a",
    "b",
    "fd",
    "multiple-shooting",
    "cvode-bdf",
    "rk4",
    "t",
    "pi",
    "_",
    "-",
    "dy",
    "ddy",
    "y_a",
    "sin",
    "exp",
    "true",
    "false",
    "null",
    "~",
    "",
    "type-",
    "x2",
    "a2345678901234567890123456789012",
    "a234567890123456789012345678901",
};

/* ---- token helpers ---------------------------------------------------------- */

static inline int fz_is_word_char(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

static inline int fz_is_digit(char c)
{
  return c >= '0' && c <= '9';
}

/* Start of the line holding byte `at`. */
static inline size_t fz_line_start(const fz_buf *b, size_t at)
{
  while (at > 0 && b->p[at - 1] != '\n') {
    at--;
  }
  return at;
}

/* End of the line holding byte `at` (index of its '\n', or n). */
static inline size_t fz_line_end(const fz_buf *b, size_t at)
{
  while (at < b->n && b->p[at] != '\n') {
    at++;
  }
  return at;
}

static inline size_t fz_count_lines(const fz_buf *b)
{
  size_t lines = 0;
  for (size_t i = 0; i < b->n; i++) {
    lines += b->p[i] == '\n';
  }
  return lines + (b->n > 0 && b->p[b->n - 1] != '\n');
}

/* Lines as YAML (libyaml) counts them for its marks: '\n', '\r\n', a lone '\r',
 * NEL (C2 85), LS (E2 80 A8) and PS (E2 80 A9) each end one. */
static inline size_t fz_count_yaml_lines(const fz_buf *b)
{
  size_t lines = 1;
  const unsigned char *p = (const unsigned char *)b->p;
  for (size_t i = 0; i < b->n; i++) {
    if (p[i] == '\n' || (p[i] == '\r' && (i + 1 == b->n || p[i + 1] != '\n'))) {
      lines++;
    } else if (i + 1 < b->n && p[i] == 0xc2 && p[i + 1] == 0x85) {
      lines++;
    } else if (i + 2 < b->n && p[i] == 0xe2 && p[i + 1] == 0x80 &&
               (p[i + 2] == 0xa8 || p[i + 2] == 0xa9)) {
      lines++;
    }
  }
  return lines;
}

/* The byte range of line k (0-based), its '\n' included. */
static inline void fz_line_range(const fz_buf *b, size_t k, size_t *start, size_t *len)
{
  size_t i = 0;
  for (size_t line = 0; line < k && i < b->n; i++) {
    line += b->p[i] == '\n';
  }
  if (i > b->n) {
    i = b->n;
  }
  const size_t e = fz_line_end(b, i);
  const size_t end = e < b->n ? e + 1 : b->n;
  *start = i;
  *len = end > i ? end - i : 0;
}

/* The key of a "  key: value" line (not a list item): its start and length, or NULL. */
static inline const char *fz_line_key(const char *line, size_t len, size_t *klen)
{
  size_t i = 0;
  while (i < len && line[i] == ' ') {
    i++;
  }
  const size_t k0 = i;
  while (i < len && (fz_is_word_char(line[i]) || line[i] == '.') && line[i] != '-') {
    i++;
  }
  if (i == k0 || i >= len || line[i] != ':') {
    return NULL;
  }
  *klen = i - k0;
  return line + k0;
}

/* The scan of the finders below: from a random start and wrapping around, the first byte i at
 * which match(b, i, at, len) finds its token (its range in *at, *len); 0 when none does. */
static inline int fz_scan(const fz_buf *b, fz_rng *r, size_t *at, size_t *len,
                          int (*match)(const fz_buf *, size_t, size_t *, size_t *))
{
  if (b->n == 0) {
    return 0;
  }
  const size_t start = fz_below(r, b->n);
  for (size_t k = 0; k < b->n; k++) {
    if (match(b, (start + k) % b->n, at, len)) {
      return 1;
    }
  }
  return 0;
}

/* A number token starting at i. */
static inline int fz_match_number(const fz_buf *b, size_t i, size_t *at, size_t *len)
{
  const char c = b->p[i];
  const int sign = (c == '-' || c == '+' || c == '.') && i + 1 < b->n && fz_is_digit(b->p[i + 1]);
  if (!(fz_is_digit(c) || sign) ||
      (i > 0 && (fz_is_word_char(b->p[i - 1]) || b->p[i - 1] == '.'))) {
    return 0;
  }
  size_t j = i + 1;
  while (j < b->n && (fz_is_word_char(b->p[j]) || b->p[j] == '.' || b->p[j] == '+')) {
    j++;
  }
  *at = i;
  *len = j - i;
  return 1;
}

/* A word token (a letter first) starting at i. */
static inline int fz_match_word(const fz_buf *b, size_t i, size_t *at, size_t *len)
{
  const char c = b->p[i];
  if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) ||
      (i > 0 && fz_is_word_char(b->p[i - 1]))) {
    return 0;
  }
  size_t j = i + 1;
  while (j < b->n && fz_is_word_char(b->p[j])) {
    j++;
  }
  *at = i;
  *len = j - i;
  return 1;
}

/* The contents of a double-quoted string on one line, its opening quote at i. */
static inline int fz_match_quoted(const fz_buf *b, size_t i, size_t *at, size_t *len)
{
  if (b->p[i] != '"' || (i > 0 && b->p[i - 1] == '\\')) {
    return 0;
  }
  size_t j = i + 1;
  while (j < b->n && b->p[j] != '"' && b->p[j] != '\n') {
    j++;
  }
  if (j < b->n && b->p[j] == '"') {
    *at = i + 1;
    *len = j - i - 1;
    return 1;
  }
  return 0;
}

/* A flow list "[...]" on one line (innermost brackets) opening at i. */
static inline int fz_match_list(const fz_buf *b, size_t i, size_t *at, size_t *len)
{
  if (b->p[i] != '[') {
    return 0;
  }
  size_t j = i + 1;
  while (j < b->n && b->p[j] != ']' && b->p[j] != '[' && b->p[j] != '\n') {
    j++;
  }
  if (j < b->n && b->p[j] == ']') {
    *at = i;
    *len = j - i + 1;
    return 1;
  }
  return 0;
}

/* Find, from a random start and wrapping around, a number token: its range. */
static inline int fz_find_number(const fz_buf *b, fz_rng *r, size_t *at, size_t *len)
{
  return fz_scan(b, r, at, len, fz_match_number);
}

/* Find a word token (a letter first). */
static inline int fz_find_word(const fz_buf *b, fz_rng *r, size_t *at, size_t *len)
{
  return fz_scan(b, r, at, len, fz_match_word);
}

/* Find the contents of a double-quoted string on one line. */
static inline int fz_find_quoted(const fz_buf *b, fz_rng *r, size_t *at, size_t *len)
{
  return fz_scan(b, r, at, len, fz_match_quoted);
}

/* Find a flow list "[...]" on one line (innermost brackets). */
static inline int fz_find_list(const fz_buf *b, fz_rng *r, size_t *at, size_t *len)
{
  return fz_scan(b, r, at, len, fz_match_list);
}

/* ---- generated text ------------------------------------------------------- */

/* "[v, v, ..., v]" with k items (v from fz_numbers or a fixed number). */
static inline void fz_make_list(fz_buf *out, fz_rng *r, size_t k)
{
  const char *v = fz_below(r, 4) == 0
                      ? fz_numbers[fz_below(r, sizeof fz_numbers / sizeof fz_numbers[0])]
                      : "1";
  out->n = 0;
  fz_reserve(out, 2);
  fz_insert(out, out->n, "[", 1);
  for (size_t i = 0; i < k; i++) {
    if (i) {
      fz_insert(out, out->n, ", ", 2);
    }
    fz_insert(out, out->n, v, strlen(v));
  }
  fz_insert(out, out->n, "]", 1);
}

/* depth nested "[[[ ... ]]]" or "{a: {a: ... }}" (unbalanced when `cut`). */
static inline void fz_make_nest(fz_buf *out, size_t depth, int mapping, int cut)
{
  out->n = 0;
  fz_reserve(out, 8 * depth + 8);
  for (size_t i = 0; i < depth; i++) {
    fz_insert(out, out->n, mapping ? "{a: " : "[", mapping ? 4 : 1);
  }
  fz_insert(out, out->n, "1", 1);
  for (size_t i = 0; i < (cut ? depth / 2 : depth); i++) {
    fz_insert(out, out->n, mapping ? "}" : "]", 1);
  }
}

/* ---- the mutations ------------------------------------------------------------ */

enum {
  FZ_FLIP_BIT,
  FZ_SET_BYTE,
  FZ_DELETE_BYTES,
  FZ_DUP_LINE,
  FZ_DEL_LINE,
  FZ_SWAP_LINES,
  FZ_INDENT,
  FZ_YAML_TOKEN,
  FZ_NUMBER,
  FZ_WORD,
  FZ_DICT_LINE,
  FZ_FORMULA,
  FZ_HUGE_LIST,
  FZ_NEST,
  FZ_LONG_SCALAR,
  FZ_ANCHOR,
  FZ_TRUNCATE,
  FZ_SPLICE,
  FZ_NMUT
};

static const char *const fz_mutation_names[FZ_NMUT] = {
    "flip-bit",  "set-byte",   "delete-bytes", "dup-line", "del-line",  "swap-lines",
    "indent",    "yaml-token", "number",       "word",     "dict-line", "formula",
    "huge-list", "nest",       "long-scalar",  "anchor",   "truncate",  "splice",
};

/* Extra text for FZ_DICT_LINE and FZ_SPLICE: lines a target knows (may be NULL). */
typedef struct {
  const char *const *lines;
  size_t nlines;
  const fz_buf *donors; /* other seed files to splice lines from */
  size_t ndonors;
  size_t max_bytes; /* stop growing the text beyond this */
} fz_target;

/* Apply one mutation of kind `kind` to b. */
static inline void fz_mutate_one(fz_buf *b, fz_rng *r, int kind, const fz_target *T)
{
  fz_buf tmp = {0};
  size_t at = 0, len = 0;
  switch (kind) {
  case FZ_FLIP_BIT:
    if (b->n) {
      b->p[fz_below(r, b->n)] ^= (char)(1u << fz_below(r, 8));
    }
    break;
  case FZ_SET_BYTE: {
    static const char bytes[] = {'\0', '\n', ':', '"',        '\'',       '\t',      '{',  '}',
                                 '[',  ']',  ',', '#',        '-',        ' ',       '&',  '*',
                                 '!',  '|',  '>', '%',        '@',        '?',       '\\', '.',
                                 '0',  '9',  'e', (char)0xff, (char)0x80, (char)0xc3};
    if (b->n) {
      b->p[fz_below(r, b->n)] = bytes[fz_below(r, sizeof bytes)];
    }
    break;
  }
  case FZ_DELETE_BYTES:
    if (b->n) {
      fz_erase(b, fz_below(r, b->n), 1 + fz_below(r, fz_below(r, 4) ? 4 : 40));
    }
    break;
  case FZ_DUP_LINE: {
    const size_t lines = fz_count_lines(b);
    if (lines) {
      fz_line_range(b, fz_below(r, lines), &at, &len);
      fz_set(&tmp, b->p + at, len);
      if (len == 0 || tmp.p[len - 1] != '\n') {
        fz_insert(&tmp, tmp.n, "\n", 1);
      }
      const size_t copies = fz_below(r, 8) == 0 ? 2 + fz_below(r, 200) : 1;
      size_t where = 0, wlen = 0;
      fz_line_range(b, fz_below(r, lines + 1), &where, &wlen);
      for (size_t c = 0; c < copies && b->n < T->max_bytes; c++) {
        fz_insert(b, where, tmp.p, tmp.n);
      }
    }
    break;
  }
  case FZ_DEL_LINE: {
    const size_t lines = fz_count_lines(b);
    if (lines) {
      fz_line_range(b, fz_below(r, lines), &at, &len);
      fz_erase(b, at, len);
    }
    break;
  }
  case FZ_SWAP_LINES: {
    const size_t lines = fz_count_lines(b);
    if (lines >= 2) {
      size_t k1 = fz_below(r, lines), k2 = fz_below(r, lines);
      if (k1 == k2) {
        break;
      }
      if (k1 > k2) {
        const size_t k = k1;
        k1 = k2;
        k2 = k;
      }
      size_t a1, l1, a2, l2;
      fz_line_range(b, k1, &a1, &l1);
      fz_line_range(b, k2, &a2, &l2);
      fz_buf s1 = {0}, s2 = {0};
      fz_set(&s1, b->p + a1, l1);
      fz_set(&s2, b->p + a2, l2);
      if (s1.n == 0 || s1.p[s1.n - 1] != '\n') {
        fz_insert(&s1, s1.n, "\n", 1);
      }
      if (s2.n == 0 || s2.p[s2.n - 1] != '\n') {
        fz_insert(&s2, s2.n, "\n", 1);
      }
      fz_replace(b, a2, l2, s1.p, s1.n); /* the later one first: offsets stay valid */
      fz_replace(b, a1, l1, s2.p, s2.n);
      fz_free(&s1);
      fz_free(&s2);
    }
    break;
  }
  case FZ_INDENT: {
    const size_t lines = fz_count_lines(b);
    if (lines) {
      fz_line_range(b, fz_below(r, lines), &at, &len);
      size_t sp = 0;
      while (sp < len && (b->p[at + sp] == ' ' || b->p[at + sp] == '\t')) {
        sp++;
      }
      static const char *const indents[] = {"", " ", "  ", "   ", "    ", "\t", "      ", " \t"};
      const char *ind = indents[fz_below(r, sizeof indents / sizeof indents[0])];
      fz_replace(b, at, sp, ind, strlen(ind));
    }
    break;
  }
  case FZ_YAML_TOKEN: {
    const char *tok =
        fz_yaml_tokens[fz_below(r, sizeof fz_yaml_tokens / sizeof fz_yaml_tokens[0])];
    const size_t tl = strlen(tok);
    at = fz_below(r, b->n + 1);
    if (fz_below(r, 3) == 0 && b->n) { /* replace a byte */
      fz_replace(b, at < b->n ? at : b->n - 1, 1, tok, tl);
    } else {
      fz_insert(b, at, tok, tl);
    }
    break;
  }
  case FZ_NUMBER: {
    const char *num = fz_numbers[fz_below(r, sizeof fz_numbers / sizeof fz_numbers[0])];
    if (fz_find_number(b, r, &at, &len)) {
      fz_replace(b, at, len, num, strlen(num));
    } else {
      fz_insert(b, fz_below(r, b->n + 1), num, strlen(num));
    }
    break;
  }
  case FZ_WORD: {
    if (!fz_find_word(b, r, &at, &len)) {
      break;
    }
    if (fz_below(r, 3) == 0) { /* another word of the same text */
      size_t at2, len2;
      if (fz_find_word(b, r, &at2, &len2)) {
        fz_set(&tmp, b->p + at2, len2);
        fz_replace(b, at, len, tmp.p, tmp.n);
      }
    } else {
      const char *w = fz_words[fz_below(r, sizeof fz_words / sizeof fz_words[0])];
      fz_replace(b, at, len, w, strlen(w));
    }
    break;
  }
  case FZ_DICT_LINE: {
    if (!T || T->nlines == 0) {
      break;
    }
    const char *line = T->lines[fz_below(r, T->nlines)];
    const size_t lines = fz_count_lines(b);
    /* mostly replace the line that holds the same key (an inserted second one
     * is only a duplicate key), else insert at a line start */
    size_t klen = 0;
    const char *key = fz_line_key(line, strlen(line), &klen);
    if (key && fz_below(r, 4) != 0) {
      const size_t first = fz_below(r, lines ? lines : 1);
      for (size_t k = 0; k < lines; k++) {
        fz_line_range(b, (first + k) % lines, &at, &len);
        size_t klen2 = 0;
        const char *key2 = fz_line_key(b->p + at, len, &klen2);
        if (key2 && klen2 == klen && memcmp(key, key2, klen) == 0 &&
            (size_t)(key2 - (b->p + at)) == (size_t)(key - line)) {
          fz_replace(b, at, len, line, strlen(line));
          line = NULL;
          break;
        }
      }
      if (!line) {
        break;
      }
    }
    fz_line_range(b, fz_below(r, lines + 1), &at, &len);
    fz_insert(b, at, line, strlen(line));
    break;
  }
  case FZ_FORMULA: {
    const char *f = fz_formulas[fz_below(r, sizeof fz_formulas / sizeof fz_formulas[0])];
    fz_buf esc = {0}; /* escaped for a double-quoted YAML scalar */
    for (const char *c = f; *c; c++) {
      if (*c == '"' || *c == '\\') {
        fz_insert(&esc, esc.n, "\\", 1);
      }
      fz_insert(&esc, esc.n, c, 1);
    }
    if (esc.n == 0) {
      fz_reserve(&esc, 1);
      esc.p[0] = '\0';
    }
    if (fz_find_quoted(b, r, &at, &len)) {
      if (fz_below(r, 4) == 0) { /* append to the formula */
        fz_insert(b, at + len, esc.p, esc.n);
      } else {
        fz_replace(b, at, len, esc.p, esc.n);
      }
    }
    fz_free(&esc);
    break;
  }
  case FZ_HUGE_LIST: {
    static const size_t sizes[] = {0, 1, 3, 65, 100, 1000, 10000};
    fz_make_list(&tmp, r, sizes[fz_below(r, sizeof sizes / sizeof sizes[0])]);
    if (fz_find_list(b, r, &at, &len)) {
      fz_replace(b, at, len, tmp.p, tmp.n);
    } else if (fz_find_number(b, r, &at, &len)) {
      fz_replace(b, at, len, tmp.p, tmp.n);
    }
    break;
  }
  case FZ_NEST: {
    /* (libyaml's time grows with the square of the flow nesting: deeper
     * files are the fixed cases of the tests, not random ones) */
    static const size_t depths[] = {2, 16, 33, 64, 65, 200, 1000, 2000};
    fz_make_nest(&tmp, depths[fz_below(r, sizeof depths / sizeof depths[0])], (int)fz_below(r, 2),
                 fz_below(r, 4) == 0);
    if (fz_find_number(b, r, &at, &len) || fz_find_list(b, r, &at, &len)) {
      fz_replace(b, at, len, tmp.p, tmp.n);
    }
    break;
  }
  case FZ_LONG_SCALAR: {
    static const size_t sizes[] = {31,  32,  33,  95,   96,   97,   255,
                                   256, 511, 512, 1023, 1024, 4096, 70000};
    const size_t n = sizes[fz_below(r, sizeof sizes / sizeof sizes[0])];
    const char fill = "ax1_-(+ "[fz_below(r, 8)];
    fz_reserve(&tmp, n);
    memset(tmp.p, fill, n);
    tmp.p[0] =
        fill == '1' || fill == '-' || fill == '(' || fill == '+' || fill == ' ' ? fill : 'a';
    tmp.n = n;
    tmp.p[n] = '\0';
    int found = fz_below(r, 2) ? fz_find_word(b, r, &at, &len) : fz_find_quoted(b, r, &at, &len);
    if (found) {
      fz_replace(b, at, len, tmp.p, tmp.n);
    }
    break;
  }
  case FZ_ANCHOR: {
    /* an anchor on some value and an alias (or merge key) elsewhere */
    if (fz_find_number(b, r, &at, &len) || fz_find_list(b, r, &at, &len)) {
      fz_insert(b, at, "&a ", 3);
    }
    static const char *const uses[] = {"*a", "*b", "<<: *a\n", "*a ", "&a *a"};
    const char *u = uses[fz_below(r, sizeof uses / sizeof uses[0])];
    if (fz_find_number(b, r, &at, &len) || fz_find_word(b, r, &at, &len)) {
      fz_replace(b, at, len, u, strlen(u));
    }
    break;
  }
  case FZ_TRUNCATE:
    if (b->n) {
      b->n = fz_below(r, b->n);
      b->p[b->n] = '\0';
    }
    break;
  case FZ_SPLICE:
    if (T && T->ndonors) {
      const fz_buf *d = &T->donors[fz_below(r, T->ndonors)];
      const size_t lines = fz_count_lines(d);
      if (lines) {
        fz_line_range(d, fz_below(r, lines), &at, &len);
        fz_set(&tmp, d->p + at, len);
        const size_t blines = fz_count_lines(b);
        fz_line_range(b, fz_below(r, blines + 1), &at, &len);
        fz_insert(b, at, tmp.p, tmp.n);
      }
    }
    break;
  default:
    break;
  }
  fz_free(&tmp);
  if (T && b->n > T->max_bytes) { /* keep a case cheap */
    b->n = T->max_bytes;
    b->p[b->n] = '\0';
  }
}

/* 1 to 4 mutations (mostly 1 or 2); the kinds applied go to log (may be NULL). */
static inline void fz_mutate(fz_buf *b, fz_rng *r, const fz_target *T, char *log, size_t loglen)
{
  static const int counts[] = {1, 1, 1, 2, 2, 3, 4};
  const int n = counts[fz_below(r, sizeof counts / sizeof counts[0])];
  if (log && loglen) {
    log[0] = '\0';
  }
  for (int i = 0; i < n; i++) {
    const int kind = (int)fz_below(r, FZ_NMUT);
    fz_mutate_one(b, r, kind, T);
    if (log && loglen) {
      const size_t used = strlen(log);
      snprintf(log + used, loglen - used, "%s%s", i ? "+" : "", fz_mutation_names[kind]);
    }
  }
}

/* ---- files ---------------------------------------------------------------------- */

/* Read a whole file into b; 0 on success. */
static inline int fz_read_file(const char *path, fz_buf *b)
{
  FILE *f = fopen(path, "rb");
  if (!f) {
    return -1;
  }
  b->n = 0;
  char chunk[4096];
  size_t got;
  while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
    fz_insert(b, b->n, chunk, got);
  }
  fz_reserve(b, b->n);
  b->p[b->n] = '\0';
  const int bad = ferror(f);
  fclose(f);
  return bad ? -1 : 0;
}

static inline int fz_write_file(const char *path, const fz_buf *b)
{
  FILE *f = fopen(path, "wb");
  if (!f) {
    return -1;
  }
  const size_t put = b->n ? fwrite(b->p, 1, b->n, f) : 0;
  const int bad = fclose(f) != 0 || put != b->n;
  return bad ? -1 : 0;
}

static inline int fz_cmp_str(const void *a, const void *b)
{
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The *.yaml files of dir, sorted, as malloc'ed paths appended to list (cap entries). */
static inline size_t fz_list_yaml(const char *dir, char **list, size_t n, size_t cap)
{
  DIR *d = opendir(dir);
  if (!d) {
    return n;
  }
  const size_t first = n;
  struct dirent *e;
  while ((e = readdir(d)) != NULL && n < cap) {
    const size_t len = strlen(e->d_name);
    if (len > 5 && strcmp(e->d_name + len - 5, ".yaml") == 0) {
      const size_t need = strlen(dir) + len + 2;
      list[n] = malloc(need);
      if (!list[n]) {
        break;
      }
      snprintf(list[n], need, "%s/%s", dir, e->d_name);
      n++;
    }
  }
  closedir(d);
  qsort(list + first, n - first, sizeof *list, fz_cmp_str);
  return n;
}

static inline const char *fz_basename(const char *path)
{
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

/* ---- settings from the environment ---------------------------------------------- */

typedef struct {
  long iters;       /* mutations per seed file (SK_FUZZ_ITERS) */
  uint64_t seed;    /* base seed (SK_FUZZ_SEED) */
  long only;        /* run only this iteration (SK_FUZZ_ONLY, -1: all) */
  const char *dump; /* write every case into this directory (SK_FUZZ_DUMP) */
  const char *file; /* only seed files whose name contains this (SK_FUZZ_FILE) */
  int verbose;      /* print every case's status and message (SK_FUZZ_VERBOSE) */
} fz_env;

static inline fz_env fuzz_env(long default_iters)
{
  fz_env e = {default_iters, 20261202u, -1, NULL, NULL, 0};
  const char *s;
  if ((s = getenv("SK_FUZZ_ITERS")) && *s) {
    e.iters = strtol(s, NULL, 10);
  }
  if ((s = getenv("SK_FUZZ_SEED")) && *s) {
    e.seed = strtoull(s, NULL, 10);
  }
  if ((s = getenv("SK_FUZZ_ONLY")) && *s) {
    e.only = strtol(s, NULL, 10);
  }
  if ((s = getenv("SK_FUZZ_DUMP")) && *s) {
    e.dump = s;
  }
  if ((s = getenv("SK_FUZZ_FILE")) && *s) {
    e.file = s;
  }
  if ((s = getenv("SK_FUZZ_VERBOSE")) && *s) {
    e.verbose = atoi(s);
  }
  return e;
}

static inline double fz_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- the driver of the fuzz tests ------------------------------------------------ */

#define FZ_MAX_SEEDS 64     /* seed files of a test at the most */
#define FZ_CASE_SECONDS 5.0 /* the most a case may take */

/* A text of `n` copies of `unit` between `head` and `tail`. */
static inline void fz_repeat_text(fz_buf *b, const char *head, const char *unit, size_t n,
                                  const char *tail)
{
  b->n = 0;
  fz_insert(b, b->n, head, strlen(head));
  for (size_t i = 0; i < n; i++) {
    fz_insert(b, b->n, unit, strlen(unit));
  }
  fz_insert(b, b->n, tail, strlen(tail));
}

/* The position "L:C:" at p (what follows "file:" in a message): 1 when 1 <= L <= lines + 1 and
 * C >= 1, -1 for a position outside the file, 0 when p holds none. */
static inline int fz_position(const char *p, size_t lines)
{
  if (!isdigit((unsigned char)*p)) {
    return 0;
  }
  char *end = NULL;
  const long line = strtol(p, &end, 10);
  if (*end != ':' || !isdigit((unsigned char)end[1])) {
    return 0;
  }
  const long col = strtol(end + 1, &end, 10);
  if (*end != ':') {
    return 0;
  }
  return line >= 1 && (size_t)line <= lines + 1 && col >= 1 ? 1 : -1;
}

/* Count the answer of fz_position for msg (about the case `text`) in *located or *unlocated
 * and report a position outside the file, the case named by label (and stage, may be NULL);
 * 1 when it lies outside (a failed check), else 0. */
static inline int fz_count_position(int where, const char *msg, const fz_buf *text,
                                    const char *label, const char *stage, long *located,
                                    long *unlocated)
{
  *located += where == 1;
  *unlocated += where == 0;
  if (where < 0) {
    fprintf(stderr, "%s: %s%sthe position lies outside the file (%zu lines):\n  %s\n", label,
            stage ? stage : "", stage ? ": " : "", fz_count_yaml_lines(text), msg);
    return 1;
  }
  return 0;
}

/* The slowest case so far. */
typedef struct {
  double t;
  char label[256];
} fz_slowest;

/* Note a case's time dt in *slow; 1 (a failed check, reported with `note`) when it took more
 * than `limit` seconds, else 0. */
static inline int fz_timed(fz_slowest *slow, double dt, const char *label, double limit,
                           const char *note)
{
  if (dt > slow->t) {
    slow->t = dt;
    snprintf(slow->label, sizeof slow->label, "%.200s", label);
  }
  if (dt > limit) {
    fprintf(stderr, "%s: took %.2f s%s\n", label, dt, note);
    return 1;
  }
  return 0;
}

/* One case of a fuzz test: the file `path` holding `text`, named `label` in the messages.
 * Returns the number of failed checks (already in the test's count) and sets *accepted when the
 * input was taken (loaded, built). */
typedef int (*fz_case_fn)(void *ud, const char *path, const fz_buf *text, const char *label,
                          int *accepted);

typedef struct {
  fz_case_fn run;
  void *ud;             /* run's first argument */
  const char *dir;      /* the scratch directory of the cases */
  const char *accepted; /* what an unmutated example must do, for the message: "load", "build" */
  int *failures;        /* the test's count of failed checks (sk_test_failures) */
} fz_driver;

/* Write a case; exits with 2 when it cannot (a harness failure, not a finding). */
static inline void fz_write_case(const char *path, const fz_buf *b)
{
  if (fz_write_file(path, b) != 0) {
    fprintf(stderr, "cannot write %s\n", path);
    exit(2);
  }
}

/* A case with failed checks (bad) stays in the scratch directory, another goes; 1 when kept. */
static inline int fz_keep(const char *path, int bad)
{
  if (bad) {
    fprintf(stderr, "  the case is kept in %s\n", path);
    return 1;
  }
  unlink(path);
  return 0;
}

/* The fixed case number k (dir/hostile-k.yaml), named before it runs (an abort names it);
 * 1 when it is kept. */
static inline int fz_run_hostile(const fz_driver *D, size_t k, const fz_buf *b, const char *label)
{
  char path[1024];
  snprintf(path, sizeof path, "%s/hostile-%zu.yaml", D->dir, k);
  fz_write_case(path, b);
  printf("%s\n", label);
  fflush(stdout);
  int accepted = 0;
  return fz_keep(path, D->run(D->ud, path, b, label, &accepted));
}

/* The seed files: the *.yaml of good_dir (*ngood of them, the examples) then those of bad_dir,
 * each sorted, as paths in seeds and texts in texts (cap entries, all zeroed first); exits with
 * 2 when one cannot be read. Returns their count. */
static inline size_t fz_load_seeds(const char *good_dir, const char *bad_dir, char **seeds,
                                   fz_buf *texts, size_t cap, size_t *ngood)
{
  size_t n = fz_list_yaml(good_dir, seeds, 0, cap);
  *ngood = n;
  n = fz_list_yaml(bad_dir, seeds, n, cap);
  memset(texts, 0, cap * sizeof *texts);
  for (size_t s = 0; s < n; s++) {
    if (fz_read_file(seeds[s], &texts[s]) != 0) {
      fprintf(stderr, "cannot read %s\n", seeds[s]);
      exit(2);
    }
  }
  return n;
}

/* A fixed case of a test: case k written into b and named in label (len bytes); 0 when there
 * is no case k (the cases are 0, 1, ... up to the first such k). */
typedef int (*fz_hostile_fn)(size_t k, fz_buf *b, char *label, size_t len);

/* The cases of the seeds whose name holds env->file (all without it): each seed unmutated
 * first (iteration -1: the first ngood, the examples, must be accepted, the bad inputs fail
 * cleanly), then env->iters seeded mutations of it (iteration env->only alone when set), each
 * written to dir/<seed>-<iteration>.yaml (and into env->dump) and run; then, unless env names a
 * seed file or an iteration, the fixed cases of hostile (may be NULL). Returns the number of
 * cases kept (those with failed checks). */
static inline int fz_run(const fz_driver *D, const fz_env *env, char *const *seeds,
                         const fz_buf *texts, size_t nseeds, size_t ngood, const fz_target *T,
                         fz_hostile_fn hostile)
{
  printf("scratch directory %s (a case that crashes the test stays there)\n", D->dir);
  fflush(stdout);
  int kept = 0;
  fz_buf b = {0};
  for (size_t s = 0; s < nseeds; s++) {
    const char *name = fz_basename(seeds[s]);
    if (env->file && !strstr(name, env->file)) {
      continue;
    }
    for (long it = env->only >= 0 ? env->only : -1;
         it < (env->only >= 0 ? env->only + 1 : env->iters); it++) {
      fz_set(&b, texts[s].p, texts[s].n);
      char mutlog[128] = "none";
      if (it >= 0) {
        fz_rng r = {fz_seed(env->seed, name, it)};
        fz_mutate(&b, &r, T, mutlog, sizeof mutlog);
      }
      char path[1024], label[1200];
      snprintf(path, sizeof path, "%s/%.*s-%ld.yaml", D->dir, (int)(strlen(name) - 5), name, it);
      snprintf(label, sizeof label, "%s iteration %ld (%s)", name, it, mutlog);
      fz_write_case(path, &b);
      if (env->dump) {
        char dpath[2048];
        snprintf(dpath, sizeof dpath, "%.1000s/%.1000s", env->dump, fz_basename(path));
        (void)fz_write_file(dpath, &b);
      }
      int accepted = 0;
      int bad = D->run(D->ud, path, &b, label, &accepted);
      if (it < 0 && s < ngood && !accepted) {
        fprintf(stderr, "%s: the example itself does not %s\n", label, D->accepted);
        (*D->failures)++;
        bad++;
      }
      kept += fz_keep(path, bad);
    }
  }
  if (hostile && env->only < 0 && !env->file) {
    char label[256];
    for (size_t k = 0; hostile(k, &b, label, sizeof label); k++) {
      kept += fz_run_hostile(D, k, &b, label);
    }
  }
  fz_free(&b);
  return kept;
}

/* Free the seeds; the scratch directory goes unless it keeps a case. */
static inline void fz_finish(const char *dir, int kept, char **seeds, fz_buf *texts,
                             size_t nseeds)
{
  for (size_t s = 0; s < nseeds; s++) {
    fz_free(&texts[s]);
    free(seeds[s]);
  }
  if (!kept) {
    rmdir(dir);
  }
}

#endif

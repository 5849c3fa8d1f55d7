/* src/sparse/matrix_market.c: a line-aware Matrix Market reader (coordinate/array; real/integer/pattern; general/symmetric/skew-symmetric) producing CSC matrices and dense vectors */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/error.h"
#include "core/stop.h"
#include "core/input_file.h"
#include "core/csc.h"
#include "sparse/matrix_market.h"

/* Largest row or column count accepted from a size line (2^31, the
 * state limit of the grid models). */
#define MM_MAX_DIM 2147483648LL
/* First capacity of the triplet arrays (grown by doubling as entries come). */
#define MM_FIRST_CAPACITY 4096

typedef enum { MM_COORDINATE, MM_ARRAY } mm_format;
typedef enum { MM_REAL, MM_INTEGER, MM_PATTERN } mm_field;
typedef enum { MM_GENERAL, MM_SYMMETRIC, MM_SKEW } mm_symmetry;

/* Internal flag of the reader: the file must hold an n x 1 vector. */
#define MM_VECTOR 2

/* The state of one read: the stream, the current line, the banner and the
 * size line, and the (0-based) triplets read so far. */
typedef struct {
  sk_context *ctx;
  FILE *f;
  const char *name;
  const char *what;
  int flags;
  char *buf;
  size_t cap;
  int64_t line; /* number of the line in buf (1-based) */
  mm_format format;
  mm_field field;
  mm_symmetry symmetry;
  int64_t nrows, ncols, nentries;
  int64_t size_line;
  int64_t nt, tcap;
  int64_t *ti, *tj;
  double *tv;
} mm_reader;

/* Record an error located at the reader's current line. */
#define MM_ERROR(r, code, ...) mm_error((r), (code), __func__, __LINE__, __VA_ARGS__)

/* Record `code` with the message "file:line: <fmt ...>" at the reader's
 * current line; returns code. */
static sk_status mm_error(mm_reader *r, sk_status code, const char *func, int line,
                          const char *fmt, ...) SK__PRINTF(5, 6);

static sk_status mm_error(mm_reader *r, sk_status code, const char *func, int line,
                          const char *fmt, ...)
{
  char body[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(body, sizeof body, fmt, ap);
  va_end(ap);
  return sk__error_set(r->ctx, code, func, __FILE__, line, "%s:%lld: %s", r->name,
                       (long long)r->line, body);
}

/* Read the next line into r->buf (newline and a trailing CR removed).
 * *got = 0 at the end of the file. Errors: SK_ERR_MISSING on a read error. */
static sk_status read_line(mm_reader *r, int *got)
{
  errno = 0;
  const ssize_t len = getline(&r->buf, &r->cap, r->f);
  if (len < 0) {
    *got = 0;
    if (ferror(r->f)) {
      return SK_ERROR(r->ctx, SK_ERR_MISSING, "cannot read Matrix Market file '%s': %s", r->name,
                      strerror(errno ? errno : EIO));
    }
    return SK_OK;
  }
  r->line++;
  size_t n = (size_t)len;
  while (n > 0 && (r->buf[n - 1] == '\n' || r->buf[n - 1] == '\r')) {
    r->buf[--n] = '\0';
  }
  *got = 1;
  return SK_OK;
}

/* Space, tab, vertical tab or form feed: what separates tokens. */
static int is_blank_char(char c)
{
  return c == ' ' || c == '\t' || c == '\v' || c == '\f';
}

/* The next line that is neither blank nor a comment ('%' first), in *s.
 * *got = 0 at the end of the file. Errors: as read_line. */
static sk_status next_data_line(mm_reader *r, char **s, int *got)
{
  for (;;) {
    SK_CALL(r->ctx, read_line(r, got));
    if (!*got) {
      return SK_OK;
    }
    char *p = r->buf;
    while (is_blank_char(*p)) {
      p++;
    }
    if (*p != '\0' && *p != '%') {
      *s = p;
      return SK_OK;
    }
  }
}

/* Split off the next blank-separated token of *p (NUL-terminated in
 * place); NULL when none is left. */
static char *next_token(char **p)
{
  char *s = *p;
  while (is_blank_char(*s)) {
    s++;
  }
  if (*s == '\0') {
    *p = s;
    return NULL;
  }
  char *tok = s;
  while (*s != '\0' && !is_blank_char(*s)) {
    s++;
  }
  if (*s != '\0') {
    *s++ = '\0';
  }
  *p = s;
  return tok;
}

/* Count the tokens of s (without modifying it). */
static int count_tokens(const char *s)
{
  int n = 0;
  while (*s) {
    while (is_blank_char(*s)) {
      s++;
    }
    if (*s) {
      n++;
    }
    while (*s && !is_blank_char(*s)) {
      s++;
    }
  }
  return n;
}

/* A decimal integer token. Returns 0, or -1 when tok is not one, -2 when it
 * overflows int64. */
static int parse_int64(const char *tok, int64_t *v)
{
  char *end = NULL;
  errno = 0;
  const long long x = strtoll(tok, &end, 10);
  if (end == tok || *end != '\0') {
    return -1;
  }
  if (errno == ERANGE) {
    return -2;
  }
  *v = (int64_t)x;
  return 0;
}

/* ---- banner and size line ------------------------------------------------ */

static const char *const banner_form =
    "%%MatrixMarket matrix <coordinate|array> <real|integer|pattern> "
    "<general|symmetric|skew-symmetric>";

/* The banner's format word: coordinate or array. */
static sk_status parse_format(mm_reader *r, const char *tok)
{
  if (!strcasecmp(tok, "coordinate")) {
    r->format = MM_COORDINATE;
  } else if (!strcasecmp(tok, "array")) {
    r->format = MM_ARRAY;
  } else {
    return MM_ERROR(r, SK_ERR_INPUT, "banner: format '%s' is not coordinate or array", tok);
  }
  return SK_OK;
}

/* The banner's field word: real, integer or pattern (complex is refused). */
static sk_status parse_field(mm_reader *r, const char *tok)
{
  if (!strcasecmp(tok, "real")) {
    r->field = MM_REAL;
  } else if (!strcasecmp(tok, "integer")) {
    r->field = MM_INTEGER;
  } else if (!strcasecmp(tok, "pattern")) {
    r->field = MM_PATTERN;
  } else if (!strcasecmp(tok, "complex")) {
    return MM_ERROR(r, SK_ERR_INPUT,
                    "banner: field 'complex' is not supported (stiffkit reads real, integer or "
                    "pattern matrices)");
  } else {
    return MM_ERROR(r, SK_ERR_INPUT, "banner: field '%s' is not real, integer or pattern", tok);
  }
  return SK_OK;
}

/* The banner's symmetry word: general, symmetric or skew-symmetric
 * (hermitian is refused). */
static sk_status parse_symmetry(mm_reader *r, const char *tok)
{
  if (!strcasecmp(tok, "general")) {
    r->symmetry = MM_GENERAL;
  } else if (!strcasecmp(tok, "symmetric")) {
    r->symmetry = MM_SYMMETRIC;
  } else if (!strcasecmp(tok, "skew-symmetric")) {
    r->symmetry = MM_SKEW;
  } else if (!strcasecmp(tok, "hermitian")) {
    return MM_ERROR(r, SK_ERR_INPUT,
                    "banner: symmetry 'hermitian' is not supported (it is for complex matrices; "
                    "stiffkit reads general, symmetric or skew-symmetric)");
  } else {
    return MM_ERROR(r, SK_ERR_INPUT,
                    "banner: symmetry '%s' is not general, symmetric or skew-symmetric", tok);
  }
  return SK_OK;
}

/* The banner line: four tokens after %%MatrixMarket, and the combinations
 * the format allows. */
static sk_status parse_banner(mm_reader *r)
{
  int got = 0;
  SK_CALL(r->ctx, read_line(r, &got));
  if (!got) {
    r->line = 1;
    return MM_ERROR(r, SK_ERR_INPUT, "empty file: expected the banner '%s'", banner_form);
  }
  char *p = r->buf;
  const char *head = next_token(&p);
  if (!head || strcasecmp(head, "%%MatrixMarket")) {
    return MM_ERROR(r, SK_ERR_INPUT, "not a Matrix Market file: the first line must be '%s'",
                    banner_form);
  }
  const char *obj = next_token(&p);
  const char *fmt = next_token(&p);
  const char *fld = next_token(&p);
  const char *sym = next_token(&p);
  const char *extra = next_token(&p);
  if (!sym || extra) {
    return MM_ERROR(r, SK_ERR_INPUT, "banner: expected 4 words after %%%%MatrixMarket ('%s')",
                    banner_form);
  }
  if (strcasecmp(obj, "matrix")) {
    return MM_ERROR(r, SK_ERR_INPUT, "banner: object '%s' is not supported (matrix)", obj);
  }
  SK_CALL(r->ctx, parse_format(r, fmt));
  SK_CALL(r->ctx, parse_field(r, fld));
  SK_CALL(r->ctx, parse_symmetry(r, sym));
  if (r->format == MM_ARRAY && r->field == MM_PATTERN) {
    return MM_ERROR(r, SK_ERR_INPUT, "banner: an array file cannot have field 'pattern'");
  }
  if (r->field == MM_PATTERN && r->symmetry == MM_SKEW) {
    return MM_ERROR(r, SK_ERR_INPUT, "banner: a pattern file cannot be skew-symmetric");
  }
  if ((r->flags & MM_VECTOR) && (r->field == MM_PATTERN || r->symmetry != MM_GENERAL)) {
    return MM_ERROR(r, SK_ERR_INPUT,
                    "banner: %s must be a vector (an n x 1 'general' matrix with values), not "
                    "'%s %s'",
                    r->what ? r->what : "the file", fld, sym);
  }
  return SK_OK;
}

/* One dimension of the size line. */
static sk_status parse_dim(mm_reader *r, const char *tok, const char *label, int64_t minv,
                           int64_t *v)
{
  const int rc = parse_int64(tok, v);
  if (rc == -1) {
    return MM_ERROR(r, SK_ERR_INPUT, "size line: %s '%s' is not an integer", label, tok);
  }
  if (rc == -2 || *v > MM_MAX_DIM) {
    return MM_ERROR(r, SK_ERR_TOO_LARGE, "size line: %s %s exceeds the limit of 2^31", label,
                    tok);
  }
  if (*v < minv) {
    return MM_ERROR(r, SK_ERR_INPUT, "size line: %s %lld must be >= %lld", label, (long long)*v,
                    (long long)minv);
  }
  return SK_OK;
}

/* The declared size against the symmetry (square) and the caller's
 * requirements (a square matrix, an n x 1 vector). */
static sk_status check_shape(mm_reader *r)
{
  if (r->symmetry != MM_GENERAL && r->nrows != r->ncols) {
    return MM_ERROR(r, SK_ERR_INPUT,
                    "size line: a %s matrix must be square, the file declares "
                    "%lld x %lld",
                    r->symmetry == MM_SYMMETRIC ? "symmetric" : "skew-symmetric",
                    (long long)r->nrows, (long long)r->ncols);
  }
  if ((r->flags & MM_VECTOR) && r->ncols != 1) {
    return MM_ERROR(r, SK_ERR_INPUT,
                    "size line: %s must be an n x 1 vector, the file holds a "
                    "%lld x %lld matrix",
                    r->what ? r->what : "the file", (long long)r->nrows, (long long)r->ncols);
  }
  if ((r->flags & SK__MM_SQUARE) && r->nrows != r->ncols) {
    return MM_ERROR(r, SK_ERR_INPUT,
                    "size line: %s must be a square matrix, the file holds "
                    "%lld x %lld",
                    r->what ? r->what : "the matrix", (long long)r->nrows, (long long)r->ncols);
  }
  return SK_OK;
}

/* The size line: "rows cols entries" (coordinate) or "rows cols" (array). */
static sk_status parse_size(mm_reader *r)
{
  char *s = NULL;
  int got = 0;
  SK_CALL(r->ctx, next_data_line(r, &s, &got));
  const int want = r->format == MM_COORDINATE ? 3 : 2;
  const char *form = r->format == MM_COORDINATE ? "rows columns entries" : "rows columns";
  if (!got) {
    return MM_ERROR(r, SK_ERR_INPUT, "end of file before the size line ('%s')", form);
  }
  r->size_line = r->line;
  const int ntok = count_tokens(s);
  if (ntok != want) {
    return MM_ERROR(r, SK_ERR_INPUT,
                    "bad size line '%s': expected '%s' (%d integers) for a%s file, found %d "
                    "field%s",
                    s, form, want, r->format == MM_COORDINATE ? " coordinate" : "n array", ntok,
                    ntok == 1 ? "" : "s");
  }
  SK_CALL(r->ctx, parse_dim(r, next_token(&s), "rows", 1, &r->nrows));
  SK_CALL(r->ctx, parse_dim(r, next_token(&s), "columns", 1, &r->ncols));
  if (r->format == MM_COORDINATE) {
    const char *tok = next_token(&s);
    const int rc = parse_int64(tok, &r->nentries);
    if (rc != 0 || r->nentries < 0) {
      return MM_ERROR(r, SK_ERR_INPUT, "size line: entries '%s' is not a non-negative integer",
                      tok);
    }
  }
  return check_shape(r);
}

/* ---- entries --------------------------------------------------------------- */

/* Append one 0-based triplet, growing the arrays by doubling (the size
 * line's count is not trusted for the allocation). */
static sk_status push(mm_reader *r, int64_t i, int64_t j, double v)
{
  if (r->nt == r->tcap) {
    const int64_t cap = r->tcap ? 2 * r->tcap : MM_FIRST_CAPACITY;
    const size_t n0 = (size_t)r->nt, n1 = (size_t)cap;
    int64_t *ti = sk__realloc(r->ctx, r->ti, n0 * sizeof *ti, n1 * sizeof *ti);
    r->ti = ti ? ti : r->ti;
    int64_t *tj = ti ? sk__realloc(r->ctx, r->tj, n0 * sizeof *tj, n1 * sizeof *tj) : NULL;
    r->tj = tj ? tj : r->tj;
    double *tv = tj ? sk__realloc(r->ctx, r->tv, n0 * sizeof *tv, n1 * sizeof *tv) : NULL;
    r->tv = tv ? tv : r->tv;
    SK_CHECK(r->ctx, tv != NULL, SK_ERR_NOMEM, "%s: cannot allocate %lld matrix entries", r->name,
             (long long)cap);
    r->tcap = cap;
  }
  r->ti[r->nt] = i;
  r->tj[r->nt] = j;
  r->tv[r->nt] = v;
  r->nt++;
  return SK_OK;
}

/* Store entry (i, j) = v (0-based) and, for symmetric storage, its mirror
 * image. The caller has checked the triangle. */
static sk_status add_entry(mm_reader *r, int64_t i, int64_t j, double v)
{
  SK_CALL(r->ctx, push(r, i, j, v));
  if (r->symmetry != MM_GENERAL && i != j) {
    SK_CALL(r->ctx, push(r, j, i, r->symmetry == MM_SKEW ? -v : v));
  }
  return SK_OK;
}

/* The value token of entry k (1-based) into *v. */
static sk_status parse_value(mm_reader *r, const char *tok, int64_t k, double *v)
{
  if (r->field == MM_INTEGER) {
    int64_t x = 0;
    const int rc = parse_int64(tok, &x);
    if (rc != 0) {
      return MM_ERROR(r, SK_ERR_INPUT,
                      "entry %lld: value '%s' is not %s (the banner declares "
                      "field 'integer')",
                      (long long)k, tok, rc == -2 ? "a 64-bit integer" : "an integer");
    }
    *v = (double)x;
    return SK_OK;
  }
  char *end = NULL;
  *v = strtod(tok, &end);
  if (end == tok || *end != '\0' || strpbrk(tok, "xX") != NULL) {
    return MM_ERROR(r, SK_ERR_INPUT, "entry %lld: value '%s' is not a decimal number",
                    (long long)k, tok);
  }
  if (!isfinite(*v)) {
    return MM_ERROR(r, SK_ERR_INPUT, "entry %lld: value '%s' is %s (values must be finite)",
                    (long long)k, tok, isnan(*v) ? "NaN" : "infinite or out of range");
  }
  return SK_OK;
}

/* A 1-based index token of entry k, checked against 1..size. */
static sk_status parse_index(mm_reader *r, const char *tok, const char *label, int64_t size,
                             int64_t k, int64_t *idx)
{
  const int rc = parse_int64(tok, idx);
  if (rc != 0) {
    return MM_ERROR(r, SK_ERR_INPUT, "entry %lld: %s index '%s' is not an integer", (long long)k,
                    label, tok);
  }
  if (*idx < 1 || *idx > size) {
    return MM_ERROR(r, SK_ERR_INPUT,
                    "entry %lld: %s index %lld is outside 1..%lld (the matrix is %lld x %lld)",
                    (long long)k, label, (long long)*idx, (long long)size, (long long)r->nrows,
                    (long long)r->ncols);
  }
  return SK_OK;
}

/* Symmetric storage keeps the lower triangle (strictly, when skew). */
static sk_status check_triangle(mm_reader *r, int64_t i, int64_t j, int64_t k)
{
  if (r->symmetry == MM_GENERAL) {
    return SK_OK;
  }
  if (i < j) {
    return MM_ERROR(r, SK_ERR_INPUT,
                    "entry %lld: (%lld, %lld) is above the diagonal in a %s file (such files "
                    "store the lower triangle only: row >= column)",
                    (long long)k, (long long)i, (long long)j,
                    r->symmetry == MM_SYMMETRIC ? "symmetric" : "skew-symmetric");
  }
  if (i == j && r->symmetry == MM_SKEW) {
    return MM_ERROR(r, SK_ERR_INPUT,
                    "entry %lld: (%lld, %lld) is on the diagonal of a skew-symmetric file (its "
                    "diagonal is zero and not stored)",
                    (long long)k, (long long)i, (long long)j);
  }
  return SK_OK;
}

/* One coordinate entry line (entry k of the file, 1-based). */
static sk_status parse_coordinate_entry(mm_reader *r, char *s, int64_t k)
{
  const int want = r->field == MM_PATTERN ? 2 : 3;
  const int ntok = count_tokens(s);
  if (ntok != want) {
    return MM_ERROR(r, SK_ERR_INPUT, "entry %lld of %lld: expected '%s', found %d field%s",
                    (long long)k, (long long)r->nentries,
                    want == 2 ? "row column" : "row column value", ntok, ntok == 1 ? "" : "s");
  }
  int64_t i = 0, j = 0;
  double v = 1.0;
  SK_CALL(r->ctx, parse_index(r, next_token(&s), "row", r->nrows, k, &i));
  SK_CALL(r->ctx, parse_index(r, next_token(&s), "column", r->ncols, k, &j));
  if (want == 3) {
    SK_CALL(r->ctx, parse_value(r, next_token(&s), k, &v));
  }
  SK_CALL(r->ctx, check_triangle(r, i, j, k));
  return add_entry(r, i - 1, j - 1, v);
}

/* The number of value lines of an array file: every entry, or the
 * stored (strict) lower triangle of a symmetric (skew-symmetric) one. */
static int64_t array_entries(const mm_reader *r)
{
  const int64_t n = r->nrows;
  return r->symmetry == MM_GENERAL ? r->nrows * r->ncols
         : r->symmetry == MM_SKEW  ? n * (n - 1) / 2
                                   : n * (n + 1) / 2;
}

/* One array value line (entry k of total) at position (*i, *j), which then
 * moves down the column, or to the next column's first stored row. */
static sk_status parse_array_entry(mm_reader *r, char *s, int64_t k, int64_t total, int64_t *i,
                                   int64_t *j)
{
  const int ntok = count_tokens(s);
  if (ntok != 1) {
    return MM_ERROR(r, SK_ERR_INPUT,
                    "entry %lld of %lld: an array file has one value per line, found %d fields",
                    (long long)k, (long long)total, ntok);
  }
  double v = 0.0;
  SK_CALL(r->ctx, parse_value(r, next_token(&s), k, &v));
  if (v != 0.0) {
    SK_CALL(r->ctx, add_entry(r, *i, *j, v));
  }
  if (++*i == r->nrows) {
    ++*j;
    *i = r->symmetry == MM_GENERAL ? 0 : (r->symmetry == MM_SKEW ? *j + 1 : *j);
  }
  return SK_OK;
}

/* The entries the size line declares (coordinate lines or array values),
 * then nothing but comments and blank lines. */
static sk_status read_entries(mm_reader *r)
{
  const int64_t total = r->format == MM_ARRAY ? array_entries(r) : r->nentries;
  int64_t i = r->symmetry == MM_SKEW ? 1 : 0, j = 0; /* array position */
  char *s = NULL;
  int got = 0;
  for (int64_t k = 1; k <= total; k++) {
    SK_CALL(r->ctx, next_data_line(r, &s, &got));
    if (!got) {
      return MM_ERROR(r, SK_ERR_INPUT,
                      "end of file after %lld of the %lld entries declared by the size line "
                      "(line %lld): too few entries",
                      (long long)(k - 1), (long long)total, (long long)r->size_line);
    }
    if (r->format == MM_COORDINATE) {
      SK_CALL(r->ctx, parse_coordinate_entry(r, s, k));
    } else {
      SK_CALL(r->ctx, parse_array_entry(r, s, k, total, &i, &j));
    }
  }
  SK_CALL(r->ctx, next_data_line(r, &s, &got));
  if (got) {
    return MM_ERROR(r, SK_ERR_INPUT,
                    "more entries than the %lld declared by the size line (line %lld): too "
                    "many entries",
                    (long long)total, (long long)r->size_line);
  }
  return SK_OK;
}

/* Free the line buffer and the triplets. */
static void reader_free(mm_reader *r)
{
  free(r->buf); /* allocated by getline */
  sk__free(r->ctx, r->ti);
  sk__free(r->ctx, r->tj);
  sk__free(r->ctx, r->tv);
}

/* Read banner, size line and entries of f into the triplets of r. */
static sk_status read_all(mm_reader *r)
{
  SK_CALL(r->ctx, parse_banner(r));
  SK_CALL(r->ctx, parse_size(r));
  SK_CALL(r->ctx, read_entries(r));
  return SK_OK;
}

/* Read f completely and build the CSC matrix. */
static sk_status read_matrix(sk_context *ctx, FILE *f, const char *name, const char *what,
                             int flags, sk__mm_matrix *a)
{
  mm_reader r;
  memset(&r, 0, sizeof r);
  r.ctx = ctx;
  r.f = f;
  r.name = name;
  r.what = what;
  r.flags = flags;
  sk_status st = read_all(&r);
  if (st == SK_OK) {
    const int pattern = r.field == MM_PATTERN;
    st = sk__csc_from_triplets_values(ctx, r.nrows, r.ncols, r.nt, r.ti, r.tj,
                                      pattern ? NULL : r.tv, &a->colptr, &a->rowind,
                                      pattern ? NULL : &a->values);
    if (st == SK_OK && pattern) {
      const int64_t nnz = a->colptr[r.ncols];
      a->values = sk__malloc(ctx, (size_t)(nnz > 0 ? nnz : 1) * sizeof *a->values);
      st = a->values ? SK_OK
                     : SK_ERROR(ctx, SK_ERR_NOMEM, "%s: cannot allocate %lld values", name,
                                (long long)nnz);
      for (int64_t p = 0; a->values && p < nnz; p++) {
        a->values[p] = 1.0;
      }
    }
    a->nrows = r.nrows;
    a->ncols = r.ncols;
    a->symmetric = r.symmetry != MM_GENERAL;
  }
  reader_free(&r);
  if (st < 0) {
    sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
  }
  return st;
}

sk_status sk__mm_read_matrix_stream(sk_context *ctx, FILE *f, const char *name, const char *what,
                                    int flags, sk__mm_matrix *a)
{
  SK_CHECK(ctx, f != NULL && name != NULL && a != NULL, SK_ERR_ARG,
           "sk__mm_read_matrix_stream: NULL argument");
  memset(a, 0, sizeof *a);
  SK_CALL(ctx, read_matrix(ctx, f, name, what, flags & SK__MM_SQUARE, a));
  return SK_OK;
}

/* Open path for reading. Errors: SK_ERR_ARG (empty path), SK_ERR_MISSING. */
static sk_status open_file(sk_context *ctx, const char *path, const char *what, FILE **f)
{
  SK_CHECK(ctx, path != NULL && path[0] != '\0', SK_ERR_ARG,
           "%s: no Matrix Market file name given", what ? what : "matrix");
  SK_CALL_STOP(ctx, sk__input_open_at(ctx, path, "Matrix Market file", NULL, what, SIZE_MAX, f));
  return SK_OK;
}

sk_status sk__mm_read_matrix(sk_context *ctx, const char *path, const char *what, int flags,
                             sk__mm_matrix *a)
{
  SK_CHECK(ctx, a != NULL, SK_ERR_ARG, "sk__mm_read_matrix: NULL matrix");
  memset(a, 0, sizeof *a);
  FILE *f = NULL;
  SK_CALL_STOP(ctx, open_file(ctx, path, what, &f));
  const sk_status st = sk__mm_read_matrix_stream(ctx, f, path, what, flags, a);
  sk__input_close(f);
  SK_CALL_STOP(ctx, st);
  return SK_OK;
}

void sk__mm_matrix_free(sk_context *ctx, sk__mm_matrix *a)
{
  if (!a) {
    return;
  }
  sk__free(ctx, a->colptr);
  sk__free(ctx, a->rowind);
  sk__free(ctx, a->values);
  memset(a, 0, sizeof *a);
}

sk_status sk__mm_read_vector_stream(sk_context *ctx, FILE *f, const char *name, const char *what,
                                    int64_t *n, double **v)
{
  SK_CHECK(ctx, f != NULL && name != NULL && n != NULL && v != NULL, SK_ERR_ARG,
           "sk__mm_read_vector_stream: NULL argument");
  *v = NULL;
  *n = 0;
  sk__mm_matrix a;
  memset(&a, 0, sizeof a);
  SK_CALL(ctx, read_matrix(ctx, f, name, what, MM_VECTOR, &a));
  double *x = sk__calloc(ctx, (size_t)a.nrows, sizeof *x);
  if (!x) {
    sk__mm_matrix_free(ctx, &a);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "%s: cannot allocate a vector of %lld entries", name,
                    (long long)a.nrows);
  }
  for (int64_t p = 0; p < a.colptr[1]; p++) {
    x[a.rowind[p]] = a.values[p];
  }
  *n = a.nrows;
  *v = x;
  sk__mm_matrix_free(ctx, &a);
  return SK_OK;
}

sk_status sk__mm_read_vector(sk_context *ctx, const char *path, const char *what, int64_t *n,
                             double **v)
{
  SK_CHECK(ctx, n != NULL && v != NULL, SK_ERR_ARG, "sk__mm_read_vector: NULL argument");
  *v = NULL;
  *n = 0;
  FILE *f = NULL;
  SK_CALL_STOP(ctx, open_file(ctx, path, what, &f));
  const sk_status st = sk__mm_read_vector_stream(ctx, f, path, what, n, v);
  sk__input_close(f);
  SK_CALL_STOP(ctx, st);
  return SK_OK;
}

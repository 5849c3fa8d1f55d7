/* tests/unit/test_matrix_market.c: the Matrix Market reader: hand-checked matrices and vectors, every error message, and a cross-check against SuiteSparse CHOLMOD's independent reader */
/*
 * Expected values: the small matrices are checked entry by entry against
 * values worked out by hand in the comments; general, symmetric,
 * skew-symmetric, pattern and a generated 300 x 300 file with duplicates
 * are also read by CHOLMOD's cholmod_l_read_sparse (an independent
 * implementation of the same format, which also sums duplicates, keeps
 * stored zeros and expands symmetric storage) and compared in every entry.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cholmod.h>

#include "sparse/matrix_market.h"
#include "test.h"
#include "test_files.h"

typedef struct {
  char dir[256];
  char paths[64][320];
  int nfiles;
} tmpdir;

/* Write `text` to a new file `name` in the test directory; returns its path. */
static const char *write_file(tmpdir *td, const char *name, const char *text)
{
  char full[sizeof td->paths[0]];
  snprintf(full, sizeof full, "%s/%s", td->dir, name);
  char *path = td->paths[td->nfiles++];
  memcpy(path, full, sizeof full);
  test_write_file(path, text);
  return path;
}

static void remove_files(tmpdir *td)
{
  for (int k = 0; k < td->nfiles; k++) {
    unlink(td->paths[k]);
  }
  rmdir(td->dir);
}

/* Compare a to the file as CHOLMOD reads it (expanded to both triangles). */
static void check_against_cholmod(const sk__mm_matrix *a, const char *path, int pattern)
{
  cholmod_common c;
  cholmod_l_start(&c);
  FILE *f = fopen(path, "r");
  CHECK(f != NULL);
  cholmod_sparse *A = f ? cholmod_l_read_sparse(f, &c) : NULL;
  if (f) {
    fclose(f);
  }
  CHECK(A != NULL);
  cholmod_sparse *B = A ? cholmod_l_copy(A, 0, pattern ? 0 : 1, &c) : NULL;
  CHECK(B != NULL && B->packed && B->sorted);
  if (B) {
    CHECK_EQ_INT(B->nrow, a->nrows);
    CHECK_EQ_INT(B->ncol, a->ncols);
    const int64_t *p = B->p, *i = B->i;
    const double *x = B->x;
    CHECK_EQ_INT(p[B->ncol], a->colptr[a->ncols]);
    int bad = 0;
    for (int64_t j = 0; j < a->ncols && j < (int64_t)B->ncol && !bad; j++) {
      bad |= p[j + 1] != a->colptr[j + 1];
      for (int64_t q = p[j]; q < p[j + 1] && !bad; q++) {
        bad |= i[q] != a->rowind[q] || (!pattern && x[q] != a->values[q]) ||
               (pattern && a->values[q] != 1.0);
        if (bad) {
          fprintf(stderr,
                  "%s: entry %lld of column %lld: CHOLMOD (%lld, %.17g), ours (%lld, %.17g)\n",
                  path, (long long)q, (long long)j, (long long)i[q], pattern ? 1.0 : x[q],
                  (long long)a->rowind[q], a->values[q]);
        }
      }
    }
    CHECK(!bad);
  }
  cholmod_l_free_sparse(&A, &c);
  cholmod_l_free_sparse(&B, &c);
  cholmod_l_finish(&c);
}

/* Read path into a square-or-not matrix; must succeed. */
static void read_ok(sk_context *ctx, const char *path, int flags, sk__mm_matrix *a)
{
  CHECK_OK(ctx, sk__mm_read_matrix(ctx, path, "test matrix", flags, a));
}

static void check_csc(const sk__mm_matrix *a, int64_t nrows, int64_t ncols, const int64_t *cp,
                      const int64_t *ri, const double *v)
{
  CHECK_EQ_INT(a->nrows, nrows);
  CHECK_EQ_INT(a->ncols, ncols);
  if (!a->colptr) {
    sk_test_failures++;
    return;
  }
  for (int64_t j = 0; j <= ncols; j++) {
    CHECK_EQ_INT(a->colptr[j], cp[j]);
  }
  for (int64_t p = 0; p < cp[ncols] && p < a->colptr[ncols]; p++) {
    CHECK_EQ_INT(a->rowind[p], ri[p]);
    CHECK_NEAR(a->values[p], v[p], 0, 0);
  }
}

static void test_general(sk_context *ctx, tmpdir *td)
{
  /* 3 x 4, unsorted, a duplicate (2,1) twice = 1.5 + 2.5, a stored zero,
     comments, blank lines, CRLF line ends, upper-case banner words */
  const char *path = write_file(td, "general.mtx",
                                "%%MatrixMarket MATRIX Coordinate REAL General\r\n"
                                "% a comment\r\n"
                                "\r\n"
                                "3 4 6\r\n"
                                "3 4 -7.25e1\r\n"
                                "2 1 1.5\r\n"
                                "  1 1   4\t\r\n"
                                "% between entries\r\n"
                                "2 1 2.5\r\n"
                                "1 3 0\r\n"
                                "3 2 1e-3\r\n");
  sk__mm_matrix a;
  read_ok(ctx, path, 0, &a);
  /* col0: (0)=4, (1)=4.0; col1: (2)=1e-3; col2: (0)=0; col3: (2)=-72.5 */
  const int64_t cp[] = {0, 2, 3, 4, 5};
  const int64_t ri[] = {0, 1, 2, 0, 2};
  const double v[] = {4.0, 4.0, 1e-3, 0.0, -72.5};
  check_csc(&a, 3, 4, cp, ri, v);
  CHECK(!a.symmetric);
  check_against_cholmod(&a, path, 0);
  sk__mm_matrix_free(ctx, &a);
  CHECK(a.colptr == NULL && a.values == NULL);
}

static void test_symmetric(sk_context *ctx, tmpdir *td)
{
  /* lower triangle of [[2,-1,0],[-1,2,-1],[0,-1,2]] with (2,2) split in 1.5 + 0.5 */
  const char *path = write_file(td, "sym.mtx",
                                "%%MatrixMarket matrix coordinate real symmetric\n"
                                "3 3 6\n"
                                "1 1 2\n2 1 -1\n2 2 1.5\n3 2 -1\n3 3 2\n2 2 0.5\n");
  sk__mm_matrix a;
  read_ok(ctx, path, SK__MM_SQUARE, &a);
  const int64_t cp[] = {0, 2, 5, 7};
  const int64_t ri[] = {0, 1, 0, 1, 2, 1, 2};
  const double v[] = {2, -1, -1, 2, -1, -1, 2};
  check_csc(&a, 3, 3, cp, ri, v);
  CHECK(a.symmetric);
  check_against_cholmod(&a, path, 0);
  sk__mm_matrix_free(ctx, &a);

  /* skew-symmetric: (2,1) = 5, (3,1) = -2 -> full [[0,-5,2],[5,0,0],[-2,0,0]] */
  path =
      write_file(td, "skew.mtx",
                 "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 5\n3 1 -2\n");
  read_ok(ctx, path, 0, &a);
  const int64_t scp[] = {0, 2, 3, 4};
  const int64_t sri[] = {1, 2, 0, 0};
  const double sv[] = {5, -2, -5, 2};
  check_csc(&a, 3, 3, scp, sri, sv);
  check_against_cholmod(&a, path, 0);
  sk__mm_matrix_free(ctx, &a);
}

static void test_pattern_integer_array(sk_context *ctx, tmpdir *td)
{
  const char *path = write_file(td, "pattern.mtx",
                                "%%MatrixMarket matrix coordinate pattern symmetric\n"
                                "3 3 3\n1 1\n3 1\n3 1\n");
  sk__mm_matrix a;
  read_ok(ctx, path, 0, &a);
  const int64_t cp[] = {0, 2, 2, 3};
  const int64_t ri[] = {0, 2, 0};
  const double v[] = {1, 1, 1};
  check_csc(&a, 3, 3, cp, ri, v);
  check_against_cholmod(&a, path, 1);
  sk__mm_matrix_free(ctx, &a);

  path = write_file(td, "integer.mtx",
                    "%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 2 -3\n2 2 7\n");
  read_ok(ctx, path, 0, &a);
  const int64_t icp[] = {0, 0, 2};
  const int64_t iri[] = {0, 1};
  const double iv[] = {-3, 7};
  check_csc(&a, 2, 2, icp, iri, iv);
  check_against_cholmod(&a, path, 0);
  sk__mm_matrix_free(ctx, &a);

  /* array 3 x 2 column-major: [[1,0],[2,5],[0,6]]; zeros are not stored */
  path = write_file(td, "array.mtx",
                    "%%MatrixMarket matrix array real general\n% c\n3 2\n1\n2\n0\n0\n5\n6\n");
  read_ok(ctx, path, 0, &a);
  const int64_t acp[] = {0, 2, 4};
  const int64_t ari[] = {0, 1, 1, 2};
  const double av[] = {1, 2, 5, 6};
  check_csc(&a, 3, 2, acp, ari, av);
  sk__mm_matrix_free(ctx, &a);

  /* symmetric array: lower triangle column by column of [[4,1,0],[1,3,2],[0,2,5]] */
  path = write_file(td, "array_sym.mtx",
                    "%%MatrixMarket matrix array real symmetric\n3 3\n4\n1\n0\n3\n2\n5\n");
  read_ok(ctx, path, SK__MM_SQUARE, &a);
  const int64_t bcp[] = {0, 2, 5, 7};
  const int64_t bri[] = {0, 1, 0, 1, 2, 1, 2};
  const double bv[] = {4, 1, 1, 3, 2, 2, 5};
  check_csc(&a, 3, 3, bcp, bri, bv);
  sk__mm_matrix_free(ctx, &a);
}

/* A generated 300 x 300 symmetric file (and its general twin) with
 * duplicates, compared with CHOLMOD entry by entry. */
static void test_generated(sk_context *ctx, tmpdir *td)
{
  const int n = 300, ne = 3000;
  char *sym = malloc(64 * (size_t)ne + 256), *gen = malloc(64 * (size_t)ne + 256);
  size_t ls = (size_t)sprintf(
      sym, "%%%%MatrixMarket matrix coordinate real symmetric\n%d %d %d\n", n, n, ne);
  size_t lg = (size_t)sprintf(gen, "%%%%MatrixMarket matrix coordinate real general\n%d %d %d\n",
                              n, n, ne);
  uint64_t s = 0x9e3779b97f4a7c15ULL;
  for (int k = 0; k < ne; k++) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    int i = (int)((s >> 33) % (uint64_t)n) + 1;
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    int j = (int)((s >> 33) % (uint64_t)n) + 1;
    const double v = (double)((s >> 11) % 100000) / 997.0 - 50.0;
    lg += (size_t)sprintf(gen + lg, "%d %d %.17g\n", i, j, v);
    if (i < j) {
      const int t = i;
      i = j;
      j = t;
    }
    ls += (size_t)sprintf(sym + ls, "%d %d %.17g\n", i, j, v);
  }
  const char *ps = write_file(td, "gen_sym.mtx", sym);
  const char *pg = write_file(td, "gen_general.mtx", gen);
  free(sym);
  free(gen);
  sk__mm_matrix a;
  read_ok(ctx, ps, SK__MM_SQUARE, &a);
  check_against_cholmod(&a, ps, 0);
  sk__mm_matrix_free(ctx, &a);
  read_ok(ctx, pg, 0, &a);
  check_against_cholmod(&a, pg, 0);
  sk__mm_matrix_free(ctx, &a);
}

/* The stream entry points, on text in memory. */
static void test_streams(sk_context *ctx)
{
  char text[] = "%%MatrixMarket matrix coordinate real general\n2 2 1\n2 1 -4\n";
  FILE *f = fmemopen(text, strlen(text), "r");
  sk__mm_matrix a;
  CHECK_OK(ctx, sk__mm_read_matrix_stream(ctx, f, "memory.mtx", NULL, SK__MM_SQUARE, &a));
  const int64_t cp[] = {0, 1, 1};
  const int64_t ri[] = {1};
  const double v[] = {-4};
  check_csc(&a, 2, 2, cp, ri, v);
  sk__mm_matrix_free(ctx, &a);
  fclose(f);
  char vec[] = "%%MatrixMarket matrix array real general\n2 1\n1\nbad\n";
  f = fmemopen(vec, strlen(vec), "r");
  int64_t n = 0;
  double *x = NULL;
  CHECK(sk__mm_read_vector_stream(ctx, f, "memory.mtx", NULL, &n, &x) == SK_ERR_INPUT);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message,
                     "memory.mtx:4: entry 2: value 'bad' is not a decimal number");
  CHECK(x == NULL);
  fclose(f);
}

static void test_vectors(sk_context *ctx, tmpdir *td)
{
  const char *path = write_file(
      td, "vec_array.mtx", "%%MatrixMarket matrix array real general\n4 1\n1.5\n0\n-2\n1e3\n");
  int64_t n = 0;
  double *v = NULL;
  CHECK_OK(ctx, sk__mm_read_vector(ctx, path, "model.load", &n, &v));
  CHECK_EQ_INT(n, 4);
  if (v) {
    CHECK_NEAR(v[0], 1.5, 0, 0);
    CHECK_NEAR(v[1], 0.0, 0, 0);
    CHECK_NEAR(v[2], -2.0, 0, 0);
    CHECK_NEAR(v[3], 1000.0, 0, 0);
  }
  free(v);
  path = write_file(
      td, "vec_coord.mtx",
      "%%MatrixMarket matrix coordinate integer general\n5 1 3\n4 1 2\n2 1 1\n4 1 3\n");
  CHECK_OK(ctx, sk__mm_read_vector(ctx, path, "model.initial", &n, &v));
  CHECK_EQ_INT(n, 5);
  if (v) {
    const double e[] = {0, 1, 0, 5, 0};
    for (int i = 0; i < 5; i++) {
      CHECK_NEAR(v[i], e[i], 0, 0);
    }
  }
  free(v);
}

/* One bad file: the status and a message fragment (with its file:line). */
typedef struct {
  const char *name, *text;
  int flags;
  sk_status code;
  const char *message;
} bad_case;

static const bad_case bad_matrices[] = {
    {"empty.mtx", "", 0, SK_ERR_INPUT, "empty.mtx:1: empty file"},
    {"not_mm.mtx", "hello\n3 3 0\n", 0, SK_ERR_INPUT,
     "not_mm.mtx:1: not a Matrix Market file: the first line must be '%%MatrixMarket matrix"},
    {"complex.mtx", "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", 0,
     SK_ERR_INPUT, "complex.mtx:1: banner: field 'complex' is not supported"},
    {"hermitian.mtx", "%%MatrixMarket matrix coordinate real hermitian\n1 1 0\n", 0, SK_ERR_INPUT,
     "hermitian.mtx:1: banner: symmetry 'hermitian' is not supported"},
    {"object.mtx", "%%MatrixMarket vector coordinate real general\n1 1 0\n", 0, SK_ERR_INPUT,
     "object.mtx:1: banner: object 'vector' is not supported"},
    {"format.mtx", "%%MatrixMarket matrix sparse real general\n1 1 0\n", 0, SK_ERR_INPUT,
     "format.mtx:1: banner: format 'sparse' is not coordinate or array"},
    {"words.mtx", "%%MatrixMarket matrix coordinate real\n1 1 0\n", 0, SK_ERR_INPUT,
     "words.mtx:1: banner: expected 4 words after %%MatrixMarket"},
    {"array_pattern.mtx", "%%MatrixMarket matrix array pattern general\n1 1\n", 0, SK_ERR_INPUT,
     "array_pattern.mtx:1: banner: an array file cannot have field 'pattern'"},
    {"size_fields.mtx", "%%MatrixMarket matrix coordinate real general\n% c\n3 3\n", 0,
     SK_ERR_INPUT,
     "size_fields.mtx:3: bad size line '3 3': expected 'rows columns entries' (3 integers)"},
    {"size_text.mtx", "%%MatrixMarket matrix coordinate real general\n3 x 1\n1 1 1\n", 0,
     SK_ERR_INPUT, "size_text.mtx:2: size line: columns 'x' is not an integer"},
    {"size_zero.mtx", "%%MatrixMarket matrix coordinate real general\n0 3 0\n", 0, SK_ERR_INPUT,
     "size_zero.mtx:2: size line: rows 0 must be >= 1"},
    {"size_huge.mtx", "%%MatrixMarket matrix coordinate real general\n9999999999999 1 0\n", 0,
     SK_ERR_TOO_LARGE, "size_huge.mtx:2: size line: rows 9999999999999 exceeds the limit"},
    {"size_missing.mtx", "%%MatrixMarket matrix coordinate real general\n% only a comment\n", 0,
     SK_ERR_INPUT, "size_missing.mtx:2: end of file before the size line"},
    {"too_few.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1\n2 2 2\n", 0,
     SK_ERR_INPUT,
     "too_few.mtx:4: end of file after 2 of the 3 entries declared by the size line (line 2): "
     "too few entries"},
    {"too_many.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 1\n2 2 2\n", 0,
     SK_ERR_INPUT,
     "too_many.mtx:4: more entries than the 1 declared by the size line (line 2): too many"},
    {"array_too_few.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n", 0,
     SK_ERR_INPUT, "array_too_few.mtx:5: end of file after 3 of the 4 entries"},
    {"row_range.mtx", "%%MatrixMarket matrix coordinate real general\n3 2 2\n1 1 1\n4 2 1\n", 0,
     SK_ERR_INPUT, "row_range.mtx:4: entry 2: row index 4 is outside 1..3 (the matrix is 3 x 2)"},
    {"col_range.mtx", "%%MatrixMarket matrix coordinate real general\n3 2 1\n1 0 1\n", 0,
     SK_ERR_INPUT,
     "col_range.mtx:3: entry 1: column index 0 is outside 1..2 (the matrix is 3 x 2)"},
    {"index_text.mtx", "%%MatrixMarket matrix coordinate real general\n3 2 1\n1.0 1 1\n", 0,
     SK_ERR_INPUT, "index_text.mtx:3: entry 1: row index '1.0' is not an integer"},
    {"value_text.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n2 2 abc\n",
     0, SK_ERR_INPUT, "value_text.mtx:4: entry 2: value 'abc' is not a decimal number"},
    {"value_hex.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 0x10\n", 0,
     SK_ERR_INPUT, "value_hex.mtx:3: entry 1: value '0x10' is not a decimal number"},
    {"value_nan.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 nan\n", 0,
     SK_ERR_INPUT, "value_nan.mtx:3: entry 1: value 'nan' is NaN (values must be finite)"},
    {"value_inf.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n2 1 -1e999\n", 0,
     SK_ERR_INPUT, "value_inf.mtx:3: entry 1: value '-1e999' is infinite or out of range"},
    {"value_int.mtx", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 1.5\n", 0,
     SK_ERR_INPUT,
     "value_int.mtx:3: entry 1: value '1.5' is not an integer (the banner declares field "
     "'integer')"},
    {"fields.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1\n", 0, SK_ERR_INPUT,
     "fields.mtx:3: entry 1 of 1: expected 'row column value', found 2 fields"},
    {"array_fields.mtx", "%%MatrixMarket matrix array real general\n1 1\n1 2\n", 0, SK_ERR_INPUT,
     "array_fields.mtx:3: entry 1 of 1: an array file has one value per line, found 2 fields"},
    {"upper.mtx",
     "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 1 2\n% upper next\n1 2 -1\n2 2 "
     "2\n",
     0, SK_ERR_INPUT,
     "upper.mtx:5: entry 2: (1, 2) is above the diagonal in a symmetric file (such files store "
     "the lower triangle only"},
    {"skew_diag.mtx", "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 2 1\n", 0,
     SK_ERR_INPUT,
     "skew_diag.mtx:3: entry 1: (2, 2) is on the diagonal of a skew-symmetric file"},
    {"sym_rect.mtx", "%%MatrixMarket matrix coordinate real symmetric\n3 2 0\n", 0, SK_ERR_INPUT,
     "sym_rect.mtx:2: size line: a symmetric matrix must be square, the file declares 3 x 2"},
    {"rect.mtx", "%%MatrixMarket matrix coordinate real general\n3 2 0\n", SK__MM_SQUARE,
     SK_ERR_INPUT,
     "rect.mtx:2: size line: test matrix must be a square matrix, the file holds 3 x 2"},
};

static const bad_case bad_vectors[] = {
    {"vec_cols.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", 0,
     SK_ERR_INPUT,
     "vec_cols.mtx:2: size line: model.load must be an n x 1 vector, the file holds a 2 x 2 "
     "matrix"},
    {"vec_pattern.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 1 1\n1 1\n", 0,
     SK_ERR_INPUT, "vec_pattern.mtx:1: banner: model.load must be a vector"},
    {"vec_nan.mtx", "%%MatrixMarket matrix array real general\n2 1\n1\nNaN\n", 0, SK_ERR_INPUT,
     "vec_nan.mtx:4: entry 2: value 'NaN' is NaN"},
};

static void check_error(sk_context *ctx, sk_status got, const bad_case *b)
{
  if (got != b->code) {
    fprintf(stderr, "%s: status %s, expected %s\n", b->name, sk_status_name(got),
            sk_status_name(b->code));
    sk_test_failures++;
  }
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, b->message);
}

static void test_errors(sk_context *ctx, tmpdir *td)
{
  for (size_t k = 0; k < sizeof bad_matrices / sizeof bad_matrices[0]; k++) {
    const bad_case *b = &bad_matrices[k];
    const char *path = write_file(td, b->name, b->text);
    sk__mm_matrix a;
    check_error(ctx, sk__mm_read_matrix(ctx, path, "test matrix", b->flags, &a), b);
    sk__mm_matrix_free(ctx, &a);
  }
  for (size_t k = 0; k < sizeof bad_vectors / sizeof bad_vectors[0]; k++) {
    const bad_case *b = &bad_vectors[k];
    const char *path = write_file(td, b->name, b->text);
    int64_t n = -1;
    double *v = (double *)&n;
    check_error(ctx, sk__mm_read_vector(ctx, path, "model.load", &n, &v), b);
    CHECK(v == NULL && n == 0);
  }
  sk__mm_matrix a;
  CHECK(sk__mm_read_matrix(ctx, "/nonexistent/K.mtx", "model.stiffness", 0, &a) ==
        SK_ERR_MISSING);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message,
                     "cannot open Matrix Market file '/nonexistent/K.mtx' given by "
                     "model.stiffness: No such file or directory");
  /* a directory is refused when it is opened (sk__input_open) */
  CHECK(sk__mm_read_matrix(ctx, td->dir, NULL, 0, &a) == SK_ERR_MISSING);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "it is a directory");
  sk__mm_matrix_free(ctx, &a);
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  tmpdir td;
  memset(&td, 0, sizeof td);
  test_tmpdir(td.dir, sizeof td.dir, "mtx");
  test_general(ctx, &td);
  test_symmetric(ctx, &td);
  test_pattern_integer_array(ctx, &td);
  test_generated(ctx, &td);
  test_vectors(ctx, &td);
  test_streams(ctx);
  test_errors(ctx, &td);
  remove_files(&td);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

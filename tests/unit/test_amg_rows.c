/* tests/unit/test_amg_rows.c: AMG by rows on one rank (MPI_COMM_SELF) is bitwise the serial AMG; MPI state and argument errors */
#include <mpi.h>

#include "linsol/amg_hypre.h"
#include "test.h"
#include "unit/amg_laplace.h"

/* (1) Before MPI_Init, sk__amg_create_rows refuses with SK_ERR_STATE (it
 * never initializes MPI itself).
 *
 * (2) On MPI_COMM_SELF, sk__amg_create_rows + sk__amg_setup_rows +
 * sk__amg_solve give bitwise the same z as sk__amg_create + sk__amg_setup +
 * sk__amg_solve on the same A = I - g J (2D Laplacian, with and without
 * some diagonal entries of J's pattern), for several g on the same objects
 * (a re-setup), and over several Richardson cycles.
 *
 * (3) Argument errors: the wrong setup for the object, a first row that
 * does not match the rank's place, columns not increasing or out of range,
 * no rows.
 *
 * (4) After MPI_Finalize: SK_ERR_STATE. */

/* Read by AddressSanitizer (see tests/numerics/test_amg_prec.c): the slow
 * unwinder, so that Open MPI's leftovers match tests/lsan.supp. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
  return "fast_unwind_on_malloc=0";
}

static void test_bitwise(sk_context *ctx, int64_t N, int drop_diag)
{
  const int64_t n = N * N;
  int64_t *rowptr, *cols, *colptr, *rowind;
  double *vals, *cval;
  amg_laplace_rows(N, 0, n, drop_diag, &rowptr, &cols, &vals);
  amg_rows_to_csc(n, rowptr, cols, vals, &colptr, &rowind, &cval);
  double *b = malloc((size_t)n * sizeof *b), *z1 = malloc((size_t)n * sizeof *z1);
  double *z2 = malloc((size_t)n * sizeof *z2), *r1 = malloc((size_t)n * sizeof *r1);
  double *r2 = malloc((size_t)n * sizeof *r2), *x1 = calloc((size_t)n, sizeof *x1);
  double *x2 = calloc((size_t)n, sizeof *x2);
  uint64_t seed = 2024;
  for (int64_t i = 0; i < n; i++) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    b[i] = (double)(seed >> 11) / 9007199254740992.0 - 0.5;
  }
  sk__amg *serial = NULL, *rows = NULL;
  const MPI_Comm self = MPI_COMM_SELF;
  CHECK_OK(ctx, sk__amg_create(ctx, n, colptr, rowind, NULL, &serial));
  CHECK_OK(ctx, sk__amg_create_rows(ctx, &self, 0, n, rowptr, cols, NULL, &rows));
  const double h2 = 1.0 / (double)((N + 1) * (N + 1));
  /* without J's diagonal in every third row, A = I - g J is diagonally
   * dominant (an M-matrix) only for g/h^2 < 1/4 */
  const double full[] = {1.0, 1e2, 1e4}, dropped[] = {0.2, 0.1, 0.05};
  const double *ratios = drop_diag ? dropped : full;
  for (int k = 0; k < 3 && serial && rows; k++) {
    const double g = ratios[k] * h2;
    CHECK_OK(ctx, sk__amg_setup(serial, g, cval));
    CHECK_OK(ctx, sk__amg_setup_rows(rows, g, vals));
    memcpy(r1, b, (size_t)n * sizeof *r1);
    memcpy(r2, b, (size_t)n * sizeof *r2);
    memset(x1, 0, (size_t)n * sizeof *x1);
    memset(x2, 0, (size_t)n * sizeof *x2);
    double rn0 = 0, rn = 0;
    for (int64_t i = 0; i < n; i++) {
      rn0 += b[i] * b[i];
    }
    int same = 1;
    for (int it = 0; it < 4; it++) {
      CHECK_OK(ctx, sk__amg_solve(serial, r1, z1));
      CHECK_OK(ctx, sk__amg_solve(rows, r2, z2));
      same &= memcmp(z1, z2, (size_t)n * sizeof *z1) == 0;
      for (int64_t i = 0; i < n; i++) {
        x1[i] += z1[i];
        x2[i] += z2[i];
      }
      amg_apply_rows(0, n, rowptr, cols, vals, g, x1, r1);
      amg_apply_rows(0, n, rowptr, cols, vals, g, x2, r2);
      rn = 0;
      for (int64_t i = 0; i < n; i++) {
        r1[i] = b[i] - r1[i];
        r2[i] = b[i] - r2[i];
        rn += r1[i] * r1[i];
      }
    }
    printf("N = %lld, drop_diag %d, g/h^2 = %g: 4 cycles reduce the residual by %.2e; "
           "rows == serial bitwise: %s\n",
           (long long)N, drop_diag, ratios[k], sqrt(rn / rn0), same ? "yes" : "NO");
    CHECK(same);
    /* a working hierarchy, not just two equal broken ones */
    CHECK(sqrt(rn / rn0) < 1e-2);
  }
  sk__amg_destroy(&serial);
  sk__amg_destroy(&rows);
  free(rowptr);
  free(cols);
  free(vals);
  free(colptr);
  free(rowind);
  free(cval);
  free(b);
  free(z1);
  free(z2);
  free(r1);
  free(r2);
  free(x1);
  free(x2);
}

static void test_errors(sk_context *ctx)
{
  const int64_t N = 8, n = N * N;
  int64_t *rowptr, *cols, *colptr, *rowind;
  double *vals, *cval;
  amg_laplace_rows(N, 0, n, 0, &rowptr, &cols, &vals);
  amg_rows_to_csc(n, rowptr, cols, vals, &colptr, &rowind, &cval);
  const MPI_Comm self = MPI_COMM_SELF;
  sk__amg *a = NULL;
  /* the setup must match the create */
  CHECK_OK(ctx, sk__amg_create_rows(ctx, &self, 0, n, rowptr, cols, NULL, &a));
  CHECK_EQ_INT(sk__amg_setup(a, 1.0, cval), SK_ERR_ARG);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "sk__amg_setup_rows");
  sk__amg_destroy(&a);
  CHECK_OK(ctx, sk__amg_create(ctx, n, colptr, rowind, NULL, &a));
  CHECK_EQ_INT(sk__amg_setup_rows(a, 1.0, vals), SK_ERR_ARG);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "sk__amg_setup");
  /* a solve before any setup */
  double r[64] = {0}, z[64];
  CHECK_EQ_INT(sk__amg_solve(a, r, z), SK_ERR_STATE);
  sk__amg_destroy(&a);
  /* one rank holds all rows: they start at 0 */
  CHECK_EQ_INT(sk__amg_create_rows(ctx, &self, 5, n, rowptr, cols, NULL, &a), SK_ERR_ARG);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "contiguous");
  CHECK(a == NULL);
  CHECK_EQ_INT(sk__amg_create_rows(ctx, &self, 0, 0, rowptr, cols, NULL, &a), SK_ERR_ARG);
  /* a column out of range (the last row's last column) */
  cols[rowptr[n] - 1] = n;
  CHECK_EQ_INT(sk__amg_create_rows(ctx, &self, 0, n, rowptr, cols, NULL, &a), SK_ERR_ARG);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "outside [0, 64)");
  /* columns not increasing (row 0: centre, east swapped) */
  cols[rowptr[n] - 1] = n - 1;
  const int64_t c0 = cols[0];
  cols[0] = cols[1];
  cols[1] = c0;
  CHECK_EQ_INT(sk__amg_create_rows(ctx, &self, 0, n, rowptr, cols, NULL, &a), SK_ERR_ARG);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "not increasing");
  CHECK(a == NULL);
  CHECK_EQ_INT(sk__amg_create_rows(ctx, NULL, 0, n, rowptr, cols, NULL, &a), SK_ERR_ARG);
  free(rowptr);
  free(cols);
  free(vals);
  free(colptr);
  free(rowind);
  free(cval);
}

/* create_rows on the 2 x 2 Laplacian, expected to fail with `code` and a
 * message containing `needle` */
static void expect_mpi_state(sk_context *ctx, const char *needle)
{
  int64_t *rowptr, *cols;
  double *vals;
  amg_laplace_rows(2, 0, 4, 0, &rowptr, &cols, &vals);
  /* no MPI_Comm can be made here: the pointer is refused before it is read */
  const int dummy = 0;
  sk__amg *a = NULL;
  CHECK_EQ_INT(sk__amg_create_rows(ctx, &dummy, 0, 4, rowptr, cols, NULL, &a), SK_ERR_STATE);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, needle);
  CHECK(a == NULL);
  free(rowptr);
  free(cols);
  free(vals);
}

int main(int argc, char **argv)
{
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK) {
    return 1;
  }
  expect_mpi_state(ctx, "MPI is not initialized");
  int initialized = 1;
  MPI_Initialized(&initialized);
  CHECK(!initialized); /* the refusal did not start MPI */
  MPI_Init(&argc, &argv);
  test_bitwise(ctx, 40, 0);
  test_bitwise(ctx, 40, 1);
  test_errors(ctx);
  sk_context_destroy(&ctx);
  /* the application started MPI: the context did not finalize it */
  int finalized = 1;
  MPI_Finalized(&finalized);
  CHECK(!finalized);
  MPI_Finalize();
  CHECK_OK(ctx, sk_context_create(&ctx));
  expect_mpi_state(ctx, "finalized");
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

/* tests/unit/test_threads.c: OpenMP kernels with 1 vs 2 threads: vectors, diffusion and Brusselator RHS/Jacobian, ADI, colored FD Jacobians, provenance */
#include <float.h>
#include <nvector/nvector_serial.h>

#include "backends/sundials_backend.h"
#include "core/error.h"
#include "core/model_impl.h"
#include "core/threads.h"
#include "io/provenance.h"
#include "test.h"

/* Expected values come from independent computations: SUNDIALS' own serial
 * N_Vector kernels (element-wise ops, bitwise) and sums in long double
 * written here (reductions, within n eps sum|terms|); the 5-point Laplacian
 * and the Brusselator kinetics written out here for sampled nodes; the
 * Brusselator's analytic Jacobian for the colored FD Jacobian (within FD
 * accuracy). Everything else is "1 thread vs 2 threads", which must be
 * bitwise identical for element-wise and per-node kernels. Every grid is
 * above the threading threshold (SK__THREAD_MIN_WORK items). */

#define NV 200003 /* odd, > SK__THREAD_MIN_WORK */

static double rnd(unsigned long long *s)
{
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(*s >> 11) / 9007199254740992.0;
}

static int same(const double *a, const double *b, int64_t n)
{
  return memcmp(a, b, (size_t)n * sizeof *a) == 0;
}

static void set_threads(sk_context *ctx, int n)
{
  CHECK_OK(ctx, sk__threads_set(ctx, n));
  CHECK_EQ_INT(sk__threads_max(), n);
}

/* ---- N_Vector kernels ------------------------------------------------------ */

static void test_vectors(sk_context *ctx)
{
  SUNContext sctx = NULL;
  CHECK(SK_SUNCONTEXT_CREATE(&sctx) == 0);
  N_Vector x = N_VNew_Serial(NV, sctx), w = N_VNew_Serial(NV, sctx);
  N_Vector z1 = N_VNew_Serial(NV, sctx), z2 = N_VNew_Serial(NV, sctx);
  N_Vector zr = N_VNew_Serial(NV, sctx);
  N_Vector fx = N_VClone(x), fw = N_VClone(w);
  sk__nvector_use_fast_ops(fx);
  sk__nvector_use_fast_ops(fw);
  sk__nvector_use_fast_ops(z1);
  sk__nvector_use_fast_ops(z2);
  unsigned long long seed = 7;
  double *xd = N_VGetArrayPointer(x), *wd = N_VGetArrayPointer(w);
  for (int64_t i = 0; i < NV; i++) {
    xd[i] = (rnd(&seed) - 0.5) * 10.0;
    wd[i] = rnd(&seed) + 0.1;
  }
  memcpy(N_VGetArrayPointer(fx), xd, NV * sizeof(double));
  memcpy(N_VGetArrayPointer(fw), wd, NV * sizeof(double));
  const double *d1 = N_VGetArrayPointer(z1), *d2 = N_VGetArrayPointer(z2);
  const double *dr = N_VGetArrayPointer(zr);
  /* element-wise: SUNDIALS (reference), ours with 1 thread, ours with 2 */
#define ELEMENTWISE(call_ref, call1, call2) \
  do {                                      \
    call_ref;                               \
    set_threads(ctx, 1);                    \
    call1;                                  \
    set_threads(ctx, 2);                    \
    call2;                                  \
    CHECK(same(d1, d2, NV));                \
    CHECK(same(d1, dr, NV));                \
  } while (0)
  ELEMENTWISE(N_VLinearSum(0.3, x, -1.7, w, zr), N_VLinearSum(0.3, fx, -1.7, fw, z1),
              N_VLinearSum(0.3, fx, -1.7, fw, z2));
  ELEMENTWISE(N_VProd(x, w, zr), N_VProd(fx, fw, z1), N_VProd(fx, fw, z2));
  ELEMENTWISE(N_VDiv(x, w, zr), N_VDiv(fx, fw, z1), N_VDiv(fx, fw, z2));
  ELEMENTWISE(N_VScale(2.5, x, zr), N_VScale(2.5, fx, z1), N_VScale(2.5, fx, z2));
  ELEMENTWISE(N_VAbs(x, zr), N_VAbs(fx, z1), N_VAbs(fx, z2));
  ELEMENTWISE(N_VInv(w, zr), N_VInv(fw, z1), N_VInv(fw, z2));
  ELEMENTWISE(N_VAddConst(x, 0.75, zr), N_VAddConst(fx, 0.75, z1), N_VAddConst(fx, 0.75, z2));
  ELEMENTWISE(N_VConst(1.25, zr), N_VConst(1.25, z1), N_VConst(1.25, z2));
  {
    sk_sunreal c[3] = {0.5, -1.25, 3.0};
    N_Vector rX[3] = {x, w, x}, fX[3] = {fx, fw, fx};
    ELEMENTWISE(N_VLinearCombination(3, c, rX, zr), N_VLinearCombination(3, c, fX, z1),
                N_VLinearCombination(3, c, fX, z2));
  }
  /* reductions: long double sums written here; bound n eps sum|terms| */
  long double dot = 0, absdot = 0, wsq = 0, l1 = 0;
  double mx = 0.0, mn = xd[0];
  for (int64_t i = 0; i < NV; i++) {
    dot += (long double)xd[i] * wd[i];
    absdot += fabsl((long double)xd[i] * wd[i]);
    wsq += ((long double)xd[i] * wd[i]) * ((long double)xd[i] * wd[i]);
    l1 += fabsl((long double)xd[i]);
    mx = fmax(mx, fabs(xd[i]));
    mn = fmin(mn, xd[i]);
  }
  const double bound = (double)NV * DBL_EPSILON;
  for (int nt = 1; nt <= 2; nt++) {
    set_threads(ctx, nt);
    CHECK(fabs(N_VDotProd(fx, fw) - (double)dot) <= bound * (double)absdot);
    CHECK(fabs(N_VL1Norm(fx) - (double)l1) <= bound * (double)l1);
    const double wl2 = N_VWL2Norm(fx, fw);
    CHECK(fabs(wl2 * wl2 - (double)wsq) <= 2.0 * bound * (double)wsq);
    const double rms = N_VWrmsNorm(fx, fw);
    CHECK(fabs(rms * rms * NV - (double)wsq) <= 2.0 * bound * (double)wsq);
    CHECK(N_VMaxNorm(fx) == mx); /* max and min are exact in any order */
    CHECK(N_VMin(fx) == mn);
  }
  N_Vector vs[] = {x, w, z1, z2, zr, fx, fw};
  for (size_t k = 0; k < sizeof vs / sizeof vs[0]; k++) {
    N_VDestroy(vs[k]);
  }
  SUNContext_Free(&sctx);
}

/* ---- model kernels: 1 vs 2 threads ---------------------------------------- */

/* RHS, Jacobian values and (when present) preconditioner setup + solve with
 * 1 and 2 threads at y: bitwise equal. */
static void compare_model(sk_context *ctx, sk_model *m, const double *y, const char *label)
{
  const int64_t n = sk_model_get_n(m);
  const int64_t *colptr, *rowind;
  int64_t nnz;
  sk_model_get_jac_pattern(m, &colptr, &rowind, &nnz);
  double *f[2], *J[2], *z[2], *r = malloc((size_t)n * sizeof *r);
  unsigned long long seed = 11;
  for (int64_t i = 0; i < n; i++) {
    r[i] = rnd(&seed) - 0.5;
  }
  for (int k = 0; k < 2; k++) {
    f[k] = malloc((size_t)n * sizeof *f[k]);
    J[k] = malloc((size_t)nnz * sizeof *J[k]);
    z[k] = malloc((size_t)n * sizeof *z[k]);
    set_threads(ctx, k + 1);
    CHECK_OK(ctx, sk_model_eval_rhs(m, 0.25, y, f[k]));
    CHECK_OK(ctx, sk_model_eval_jac(m, 0.25, y, f[k], J[k]));
    if (sk_model_has_preconditioner(m)) {
      CHECK_OK(ctx, sk_model_eval_prec_setup(m, 0.25, y, 1e-3, 0));
      CHECK_OK(ctx, sk_model_eval_prec_solve(m, 0.25, y, r, z[k], 1e-3));
    }
  }
  int ok_f = same(f[0], f[1], n), ok_j = same(J[0], J[1], nnz);
  int ok_z = !sk_model_has_preconditioner(m) || same(z[0], z[1], n);
  if (!ok_f || !ok_j || !ok_z) {
    fprintf(stderr, "%s: 1 vs 2 threads differ: rhs %d jac %d prec %d\n", label, !ok_f, !ok_j,
            !ok_z);
  }
  CHECK(ok_f && ok_j && ok_z);
  for (int k = 0; k < 2; k++) {
    free(f[k]);
    free(J[k]);
    free(z[k]);
  }
  free(r);
}

static void test_diffusion(sk_context *ctx)
{
  /* 2D constant k, Dirichlet (uniform ADI lines; RHS fast path) */
  sk_diffusion_params p;
  sk_diffusion_params_default(&p);
  p.n[0] = 300;
  p.n[1] = 200;
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_diffusion_create(ctx, &p, &m));
  const int64_t n = 300 * 200;
  double *y = malloc((size_t)n * sizeof *y), *f = malloc((size_t)n * sizeof *f);
  unsigned long long seed = 3;
  for (int64_t i = 0; i < n; i++) {
    y[i] = rnd(&seed);
  }
  compare_model(ctx, m, y, "diffusion 2D constant k");
  /* independent: the 5-point formula of the header, interior node (i, j) */
  CHECK_OK(ctx, sk_model_eval_rhs(m, 0.0, y, f));
  const double hx = 1.0 / 301.0, hy = 1.0 / 201.0;
  for (int64_t q = 0; q < 50; q++) {
    const int64_t i = 1 + (q * 37) % 298, j = 1 + (q * 53) % 198, c = i + 300 * j;
    const double ref = (y[c + 1] - 2.0 * y[c] + y[c - 1]) / (hx * hx) +
                       (y[c + 300] - 2.0 * y[c] + y[c - 300]) / (hy * hy);
    CHECK_NEAR(f[c], ref, 1e-9, 1e-9 * (1.0 / (hx * hx)));
  }
  sk_model_destroy(&m);
  free(f);
  free(y);

  /* 2D and 3D with u-dependent k, graded k, Neumann and Robin sides (per-node
     ADI factors, general node path) */
  for (int dim = 2; dim <= 3; dim++) {
    sk_diffusion_params_default(&p);
    p.dim = dim;
    p.n[0] = dim == 2 ? 260 : 42;
    p.n[1] = dim == 2 ? 190 : 40;
    p.n[2] = dim == 2 ? 1 : 38;
    p.beta = 0.3;
    p.kgrad[0] = 0.5;
    p.exact = SK_DIFFUSION_EXACT_NONE;
    p.ic = SK_DIFFUSION_IC_CONSTANT;
    p.bc[0][1].type = SK_BC_NEUMANN;
    p.bc[0][1].value = 2.0;
    p.bc[1][0].type = SK_BC_ROBIN;
    p.bc[1][0].value = 0.5;
    p.bc[1][0].coeff = 3.0;
    p.source_const = 1.5;
    CHECK_OK(ctx, sk_diffusion_create(ctx, &p, &m));
    const int64_t nn = sk_model_get_n(m);
    y = malloc((size_t)nn * sizeof *y);
    for (int64_t i = 0; i < nn; i++) {
      y[i] = rnd(&seed);
    }
    compare_model(ctx, m, y, dim == 2 ? "diffusion 2D variable k" : "diffusion 3D variable k");
    sk_model_destroy(&m);
    free(y);
  }
  /* 3D constant k (uniform strided ADI lines) */
  sk_diffusion_params_default(&p);
  p.dim = 3;
  p.n[0] = p.n[1] = p.n[2] = 40;
  CHECK_OK(ctx, sk_diffusion_create(ctx, &p, &m));
  y = malloc((size_t)64000 * sizeof *y);
  for (int64_t i = 0; i < 64000; i++) {
    y[i] = rnd(&seed);
  }
  compare_model(ctx, m, y, "diffusion 3D constant k");
  sk_model_destroy(&m);
  free(y);
}

static void test_brusselator(sk_context *ctx)
{
  sk_brusselator_params p;
  sk_brusselator_params_default(&p);
  p.n = 160; /* 51200 states */
  sk_model *m = NULL, *mfd = NULL;
  CHECK_OK(ctx, sk_brusselator_create(ctx, &p, &m));
  CHECK_OK(ctx, sk_brusselator_create(ctx, &p, &mfd));
  CHECK(sk_model_get_thread_safe(m) == 1);
  const int64_t n = sk_model_get_n(m), nq = 160;
  double *y = malloc((size_t)n * sizeof *y), *f = malloc((size_t)n * sizeof *f);
  CHECK_OK(ctx, sk_model_eval_initial(m, 0.0, y));
  unsigned long long seed = 5;
  for (int64_t i = 0; i < n; i++) {
    y[i] += 0.05 * (rnd(&seed) - 0.5);
  }
  compare_model(ctx, m, y, "brusselator");
  /* independent: kinetics + 5-point Laplacian at interior nodes */
  CHECK_OK(ctx, sk_model_eval_rhs(m, 0.0, y, f));
  const double h = 1.0 / (double)(nq - 1), hh = h * h;
  for (int64_t k = 0; k < 40; k++) {
    const int64_t i = 1 + (k * 31) % (nq - 2), j = 1 + (k * 17) % (nq - 2), q = i + nq * j;
    const double *Y = y;
    const double u = Y[2 * q], v = Y[2 * q + 1];
    const double lu =
        (Y[2 * (q + 1)] + Y[2 * (q - 1)] + Y[2 * (q + nq)] + Y[2 * (q - nq)] - 4 * u) / hh;
    const double lv = (Y[2 * (q + 1) + 1] + Y[2 * (q - 1) + 1] + Y[2 * (q + nq) + 1] +
                       Y[2 * (q - nq) + 1] - 4 * v) /
                      hh;
    CHECK_NEAR(f[2 * q], p.a - (p.b + 1) * u + u * u * v + p.alpha * lu, 1e-10, 1e-9);
    CHECK_NEAR(f[2 * q + 1], p.b * u - u * u * v + p.alpha * lv, 1e-10, 1e-9);
  }

  /* colored FD Jacobian: threaded (thread-safe model, 2 threads) vs serial,
     and vs the analytic Jacobian */
  const int64_t *colptr, *rowind;
  int64_t nnz;
  sk_model_get_jac_pattern(m, &colptr, &rowind, &nnz);
  double *Ja = malloc((size_t)nnz * sizeof *Ja), *Js = malloc((size_t)nnz * sizeof *Js);
  double *Jt = malloc((size_t)nnz * sizeof *Jt);
  CHECK_OK(ctx, sk_model_eval_jac(m, 0.0, y, f, Ja));
  sk_model_set_jac_values(mfd, NULL); /* pattern only: colored FD */
  CHECK(sk_model_get_jac_colors(mfd) >= 2);
  set_threads(ctx, 2);
  sk_model_set_thread_safe(mfd, 0);
  CHECK_OK(ctx, sk_model_eval_jac(mfd, 0.0, y, f, Js));
  const int64_t calls_serial = sk_model_get_fd_rhs_evals(mfd);
  sk_model_set_thread_safe(mfd, 1);
  CHECK_OK(ctx, sk_model_eval_jac(mfd, 0.0, y, f, Jt));
  CHECK_EQ_INT(sk_model_get_fd_rhs_evals(mfd) - calls_serial, calls_serial);
  CHECK(same(Js, Jt, nnz));
  double worst = 0.0;
  for (int64_t j = 0; j < n; j++) {
    double colmax = 1e-300;
    for (int64_t k = colptr[j]; k < colptr[j + 1]; k++) {
      colmax = fmax(colmax, fabs(Ja[k]));
    }
    for (int64_t k = colptr[j]; k < colptr[j + 1]; k++) {
      worst = fmax(worst, fabs(Jt[k] - Ja[k]) / colmax);
    }
  }
  if (!(worst < 1e-5)) {
    fprintf(stderr, "FD vs analytic Jacobian: worst relative error %g\n", worst);
  }
  CHECK(worst < 1e-5);
  /* a failing RHS in a parallel colour group: same status and message as serial */
  CHECK_OK(ctx, sk_model_inject_nan(mfd, 777, 0.0));
  sk_model_set_thread_safe(mfd, 0);
  CHECK(sk_model_eval_jac(mfd, 0.0, y, f, Js) == SK_ERR_NONFINITE);
  char msg_serial[SK_ERROR_MSG_LEN];
  snprintf(msg_serial, sizeof msg_serial, "%s", sk_context_get_error(ctx)->message);
  sk_model_set_thread_safe(mfd, 1);
  CHECK(sk_model_eval_jac(mfd, 0.0, y, f, Jt) == SK_ERR_NONFINITE);
  CHECK(strcmp(msg_serial, sk_context_get_error(ctx)->message) == 0);
  CHECK_STR_CONTAINS(msg_serial, "component 777");
  free(Ja);
  free(Js);
  free(Jt);
  sk_model_destroy(&m);
  sk_model_destroy(&mfd);
  free(f);
  free(y);
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  CHECK(sk__threads_set(ctx, -1) == SK_ERR_INPUT);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "solver.threads");
  if (!sk__threads_openmp()) {
    /* serial build: more than one thread is an input error naming the option */
    CHECK(sk__threads_set(ctx, 2) == SK_ERR_INPUT);
    CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "SK_OPENMP=OFF");
    CHECK_OK(ctx, sk__threads_set(ctx, 1));
    CHECK_EQ_INT(sk__threads_max(), 1);
    sk_context_destroy(&ctx);
    TEST_RETURN();
  }
  CHECK(sk__threaded(SK__THREAD_MIN_WORK - 1) == 0);
  set_threads(ctx, 2);
  CHECK(sk__threaded(SK__THREAD_MIN_WORK) != 0);
  /* provenance reports the threads */
  char *prov = sk_provenance_yaml(ctx, 0, NULL, NULL);
  CHECK_STR_CONTAINS(prov, "threads:\n  openmp: true\n  max_threads: 2\n  num_procs: ");
  sk__free(ctx, prov);
  set_threads(ctx, 1);
  CHECK(sk__threaded(1 << 30) == 0);

  test_vectors(ctx);
  test_diffusion(ctx);
  test_brusselator(ctx);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

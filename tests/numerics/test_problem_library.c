/* tests/numerics/test_problem_library.c: the standard stiff problem library: analytic Jacobians vs finite differences, CVODE BDF + KLU against independent references, ROBER mass conservation, bad names */
/*
 * References: tests/regression/problem_refs.csv, written by
 * tests/regression/make_problem_refs.py from the published equations with
 * scipy's Radau and LSODA at rtol 1e-12 (kept to the digits d where the two
 * agree, d <= 10). Each problem is solved here by cvode-bdf + KLU at rtol
 * 1e-10 with per-component atol and must match to d - 1 significant digits,
 * but no tighter than 7: |y - ref| <= max(10^-(d-1), 1e-7) |ref| (the
 * measured CVODE errors are in check_refs). ROBER at t = 40 is also checked against the
 * published CVODE example values (cvRoberts_dns: y1 = 0.7158270687,
 * y2 = 9.185534764e-6, y3 = 0.2841637457) to 1e-8 relative.
 */
#include "run_helper.h"
#include "test.h"

#ifndef SK_PROBLEM_REFS
#error "SK_PROBLEM_REFS (path of problem_refs.csv) must be defined"
#endif

#define MAXN 8

/* Central finite differences of the RHS against the analytic CSC values
 * at a generic state (every product term active): every entry, in the
 * pattern or not (outside it the analytic value is 0), must agree to
 *   1e-6 (|J_ij| + max_k |J_kj|) + 10 eps S_i / h,
 * i.e. 1e-6 relative, with a floor for the rounding of the difference
 * quotient: S_i = sum_k |J_ik y_k| + |f_i| bounds the size of the terms
 * that cancel in f_i (ROBER's 3e7 y2^2 next to 0.04 y1). h = 1e-3 max(1,|y_j|);
 * central differences of these RHS (at most quadratic in each component)
 * have no truncation error, so the rounding floor is the only slack. */
static void check_jacobian(sk_context *ctx, sk_model *m, const char *name)
{
  const int64_t n = sk_model_get_n(m);
  const int64_t *cp, *ri;
  int64_t nnz;
  sk_model_get_jac_pattern(m, &cp, &ri, &nnz);
  CHECK(cp != NULL && ri != NULL && sk_model_has_jacobian(m));
  if (!cp || n > MAXN) {
    return;
  }
  double y[MAXN], f[MAXN], fp[MAXN], fm[MAXN], vals[MAXN * MAXN], yp[MAXN];
  CHECK_OK(ctx, sk_model_eval_initial(m, 0.0, y));
  for (int64_t i = 0; i < n; i++) {
    y[i] = y[i] + 0.3 + 0.17 * (double)i; /* every product term active */
  }
  CHECK_OK(ctx, sk_model_eval_rhs(m, 0.5, y, f));
  CHECK_OK(ctx, sk_model_eval_jac(m, 0.5, y, f, vals));
  for (int64_t j = 0; j < n; j++) {
    const double h = 1e-3 * (fabs(y[j]) > 1.0 ? fabs(y[j]) : 1.0);
    memcpy(yp, y, (size_t)n * sizeof *yp);
    yp[j] = y[j] + h;
    CHECK_OK(ctx, sk_model_eval_rhs(m, 0.5, yp, fp));
    yp[j] = y[j] - h;
    CHECK_OK(ctx, sk_model_eval_rhs(m, 0.5, yp, fm));
    double colmax = 0.0;
    for (int64_t k = cp[j]; k < cp[j + 1]; k++) {
      colmax = fabs(vals[k]) > colmax ? fabs(vals[k]) : colmax;
    }
    for (int64_t i = 0; i < n; i++) {
      const double fd = (fp[i] - fm[i]) / (2.0 * h);
      double an = 0.0;
      for (int64_t k = cp[j]; k < cp[j + 1]; k++) {
        if (ri[k] == i) {
          an = vals[k];
        }
      }
      double terms = fabs(f[i]);
      for (int64_t jj = 0; jj < n; jj++) {
        for (int64_t k = cp[jj]; k < cp[jj + 1]; k++) {
          terms += ri[k] == i ? fabs(vals[k] * y[jj]) : 0.0;
        }
      }
      const double tol = 1e-6 * (fabs(an) + colmax) + 10.0 * 2.2e-16 * terms / h;
      if (!(fabs(fd - an) <= tol)) {
        fprintf(stderr, "%s: J(%lld,%lld) analytic %.12g, central FD %.12g\n", name, (long long)i,
                (long long)j, an, fd);
        sk_test_failures++;
      }
    }
  }
}

typedef struct {
  const char *name;
  double t; /* the time of the problem's rows in problem_refs.csv */
  double atol[MAXN];
} solve_case;

/* Compare y at t_end with every reference row of problem `name`. */
static void check_refs(const char *name, double t_end, const double *y, int64_t n)
{
  FILE *fp = fopen(SK_PROBLEM_REFS, "r");
  CHECK(fp != NULL);
  if (!fp) {
    return;
  }
  char line[256];
  int rows = 0;
  while (fgets(line, sizeof line, fp)) {
    char pname[32];
    double t, value, agreement;
    int comp, digits;
    if (line[0] == '#' ||
        sscanf(line, "%31[^,],%lf,%d,%lf,%d,%lf", pname, &t, &comp, &value, &digits,
               &agreement) != 6 ||
        strcmp(pname, name) != 0) {
      continue;
    }
    rows++;
    CHECK_NEAR(t, t_end, 1e-12, 0.0);
    CHECK(comp >= 0 && comp < n);
    if (comp < 0 || comp >= n) {
      continue;
    }
    /* d - 1 digits, but not tighter than 7: CVODE's global error at rtol
       1e-10 measures 3e-11 (E5) .. 4e-8 (OREGO y3, an oscillator that
       amplifies local errors) relative on these problems */
    const double tol = fmax(pow(10.0, -(double)(digits - 1)), 1e-7);
    if (!(fabs(y[comp] - value) <= tol * fabs(value))) {
      fprintf(stderr,
              "%s y%d(%g): cvode-bdf %.12e, reference %.12e (%d digits, rel diff %.2e > %.0e)\n",
              name, comp + 1, t_end, y[comp], value, digits, fabs(y[comp] - value) / fabs(value),
              tol);
      sk_test_failures++;
    } else {
      printf("%s y%d: rel diff %.2e (tolerance %.0e)\n", name, comp + 1,
             fabs(y[comp] - value) / fabs(value), tol);
    }
  }
  fclose(fp);
  CHECK(rows == n);
}

int main(void)
{
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK) {
    return 1;
  }
  /* the name list: rober, hires, vdpol, orego, e5, brusselator, then NULL */
  size_t count = 0;
  while (sk_problem_name(count)) {
    count++;
  }
  CHECK_EQ_INT(count, 6);
  CHECK(sk_problem_name(count + 1) == NULL);

  /* analytic Jacobians of every small problem against central differences */
  for (size_t k = 0; k + 1 < count; k++) {
    sk_model *m = NULL;
    CHECK_OK(ctx, sk_problem_create(ctx, sk_problem_name(k), &m));
    if (m) {
      check_jacobian(ctx, m, sk_problem_name(k));
      CHECK(sk_model_get_default_t_end(m) > 0.0);
      char buf[16];
      sk_model_component_name(m, 0, buf, sizeof buf);
      CHECK_STR_CONTAINS(buf, "y1");
    }
    sk_model_destroy(&m);
  }

  /* the Brusselator by name: the 2D model with its defaults */
  {
    sk_model *m = NULL;
    CHECK_OK(ctx, sk_problem_create(ctx, "Brusselator", &m));
    CHECK_EQ_INT(sk_model_get_n(m), 2 * 64 * 64);
    CHECK(sk_model_has_jacobian(m));
    CHECK_NEAR(sk_model_get_default_t_end(m), 2.0, 0.0, 0.0);
    sk_model_destroy(&m);
  }

  /* every problem by cvode-bdf + KLU at rtol 1e-10 against the references (ROBER and
     E5 inside their published intervals: the published end times are checked against the
     Test Set's reference solutions by test_problem_scd) */
  const solve_case cases[] = {
      {"rober", 40.0, {1e-14, 1e-18, 1e-14}},
      {"hires", 321.8122, {1e-16, 1e-16, 1e-16, 1e-16, 1e-16, 1e-16, 1e-16, 1e-16}},
      {"vdpol", 2.0, {1e-12, 1e-12}},
      {"orego", 360.0, {1e-12, 1e-10, 1e-10}},
      {"e5", 1000.0, {1e-16, 1e-22, 1e-23, 1e-22}},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    sk_model *m = NULL;
    CHECK_OK(ctx, sk_problem_create(ctx, cases[c].name, &m));
    if (!m) {
      continue;
    }
    const int64_t n = sk_model_get_n(m);
    const double t_end = cases[c].t;
    double y[MAXN];
    const run_cfg cfg = {.linsol = "klu",
                         .rtol = 1e-10,
                         .atol = cases[c].atol[0],
                         .t_end = t_end,
                         .atol_vec = cases[c].atol,
                         .max_steps = 1000000};
    CHECK_OK(ctx, run_model(ctx, m, &cfg, y, NULL));
    check_refs(cases[c].name, t_end, y, n);
    if (strcmp(cases[c].name, "rober") == 0) {
      CHECK_NEAR(y[0] + y[1] + y[2], 1.0, 0.0, 1e-9); /* mass conservation */
      CHECK_NEAR(y[0], 0.7158270687, 1e-8, 0.0);      /* published (CVODE example) */
      CHECK_NEAR(y[1], 9.185534764e-6, 1e-8, 0.0);
      CHECK_NEAR(y[2], 0.2841637457, 1e-8, 0.0);
    }
    if (strcmp(cases[c].name, "e5") == 0) {
      CHECK_NEAR(y[1], y[2] + y[3], 1e-8, 0.0); /* y2 = y3 + y4 */
    }
    sk_model_destroy(&m);
  }

  /* an unknown name: SK_ERR_INPUT, the message lists the valid names */
  {
    sk_model *m = NULL;
    CHECK_EQ_INT(sk_problem_create(ctx, "nosuch", &m), SK_ERR_INPUT);
    CHECK(m == NULL);
    char msg[1024];
    sk_error_format(sk_context_get_error(ctx), 0, msg, sizeof msg);
    CHECK_STR_CONTAINS(msg, "unknown problem 'nosuch'");
    CHECK_STR_CONTAINS(msg, "rober, hires, vdpol, orego, e5, brusselator");
  }
  /* the CLI choice list names exactly the library's problems */
  {
    size_t nt = 0;
    const sk_option_spec *t = sk_problem_options(&nt);
    size_t nparams = 0; /* model.problem, then every problem's parameters */
    for (size_t k = 0; sk_problem_name(k); k++) {
      size_t np = 0;
      const sk_option_spec *ps = sk_problem_parameters(sk_problem_name(k), &np);
      CHECK(np == 0 || ps == t + 1 + nparams);
      nparams += np;
    }
    CHECK_EQ_INT(nt, 1 + nparams);
    char expect[128] = "";
    for (size_t k = 0; sk_problem_name(k); k++) {
      strcat(expect, k ? "|" : "");
      strcat(expect, sk_problem_name(k));
    }
    CHECK(strcmp(t[0].choices, expect) == 0);
  }
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

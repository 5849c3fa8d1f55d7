/* tests/unit/test_results_api.c: result files written as a client would, through the public headers (stiffkit/results.h, stiffkit/provenance.h): a stepper's outputs against the exact solution read back from the CSV, the sidecar's provenance, the HDF5 signature, partial files after a failure, nothing left after a destroy, and the refusals */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../test.h"

/* y' = -y (2 states, rates 1 and 10), exact y_i = exp(-k_i t). */
static int decay_rhs(double t, const double *y, double *ydot, void *ud)
{
  (void)t;
  (void)ud;
  ydot[0] = -y[0];
  ydot[1] = -10.0 * y[1];
  return 0;
}

static int decay_exact(double t, double *y, void *ud)
{
  (void)ud;
  y[0] = exp(-t);
  y[1] = exp(-10.0 * t);
  return 0;
}

static int exists(const char *dir, const char *name)
{
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  struct stat st;
  return stat(path, &st) == 0;
}

static FILE *open_in(const char *dir, const char *name)
{
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return fopen(path, "r");
}

/* A run of cvode-bdf with its five outputs written, finished with statistics and provenance;
 * the CSV read back holds t, the probe y[1], max |y|, rms y, max |err|, rms err, and each
 * row equals what the exact solution says within the run's tolerance. */
static void complete_run(sk_context *ctx, const char *dir)
{
  sk_model *m = NULL;
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_model_create(ctx, SK_MODEL_ODE, 2, &m));
  CHECK_OK(ctx, sk_model_set_rhs(m, decay_rhs));
  CHECK_OK(ctx, sk_model_set_exact(m, decay_exact));
  CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
  CHECK_OK(ctx, sk_stepper_set_tolerances(s, 1e-9, 1e-12));
  const int64_t probe = 1;
  const char *const probe_name[] = {"fast"};
  const sk_results_config cfg = {.dir = dir,
                                 .prefix = "decay",
                                 .csv = 1,
                                 .hdf5 = 1,
                                 .write_states = 1,
                                 .n = 2,
                                 .nprobes = 1,
                                 .probes = &probe,
                                 .probe_names = probe_name,
                                 .has_exact = 1};
  sk_results *res = NULL;
  CHECK_OK(ctx, sk_results_open(ctx, &cfg, &res));
  CHECK(!exists(dir, "decay.csv")); /* only a temporary name until finish */
  double ye[2];
  for (int k = 1; k <= 5; k++) {
    double t = 0;
    CHECK_OK(ctx, sk_stepper_advance(s, 0.1 * k, &t));
    decay_exact(t, ye, NULL);
    CHECK_OK(ctx, sk_results_write(res, t, sk_stepper_get_state(s), ye));
  }
  char *prov = sk_provenance_yaml(ctx, 0, NULL, "solver:\n  rtol: 1e-9\n");
  CHECK(prov != NULL);
  CHECK_OK(ctx, sk_results_finish(res, "{\"steps\": 1}", prov));
  free(prov);
  sk_results_destroy(&res);
  CHECK(res == NULL);

  FILE *f = open_in(dir, "decay.csv");
  CHECK(f != NULL);
  char line[512];
  CHECK(f && fgets(line, sizeof line, f));
  CHECK_STR_CONTAINS(line, "t,fast,max_abs_y,rms_y,max_abs_err,rms_err");
  int rows = 0;
  double t, v[5];
  while (f &&
         fscanf(f, "%lf,%lf,%lf,%lf,%lf,%lf\n", &t, &v[0], &v[1], &v[2], &v[3], &v[4]) == 6) {
    rows++;
    CHECK_NEAR(t, 0.1 * rows, 1e-12, 0);
    CHECK_NEAR(v[0], exp(-10.0 * t), 1e-6, 1e-10); /* the probe: y[1] */
    CHECK_NEAR(v[1], exp(-t), 1e-6, 1e-10);        /* max |y| = y[0] */
    CHECK_NEAR(v[2], sqrt((exp(-2 * t) + exp(-20 * t)) / 2), 1e-6, 1e-10);
    CHECK(v[3] < 1e-7 && v[4] <= v[3]); /* errors at rtol 1e-9 */
  }
  CHECK_EQ_INT(rows, 5);
  if (f) {
    fclose(f);
  }
  /* the sidecar: complete, with the statistics and the provenance's options */
  f = open_in(dir, "decay.provenance.yaml");
  CHECK(f != NULL);
  char side[8192] = "";
  const size_t got = f ? fread(side, 1, sizeof side - 1, f) : 0;
  side[got] = '\0';
  CHECK_STR_CONTAINS(side, "status: complete");
  CHECK_STR_CONTAINS(side, "rtol: 1e-9");
  CHECK_STR_CONTAINS(side, "sundials:");
  if (f) {
    fclose(f);
  }
  /* the HDF5 file carries HDF5's signature */
  f = open_in(dir, "decay.h5");
  CHECK(f != NULL);
  unsigned char sig[8] = {0};
  CHECK(f && fread(sig, 1, 8, f) == 8 && memcmp(sig, "\x89HDF\r\n\x1a\n", 8) == 0);
  if (f) {
    fclose(f);
  }
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
}

/* A failure after two rows keeps them under partial names, marked incomplete; a set that is
 * destroyed without finish or fail leaves nothing. */
static void failed_and_abandoned(sk_context *ctx, const char *dir)
{
  const sk_results_config cfg = {.dir = dir, .prefix = "broken", .csv = 1, .n = 3};
  sk_results *res = NULL;
  CHECK_OK(ctx, sk_results_open(ctx, &cfg, &res));
  const double y[3] = {1, 2, 3};
  CHECK_OK(ctx, sk_results_write(res, 0.5, y, NULL));
  CHECK_OK(ctx, sk_results_write(res, 1.0, y, NULL));
  CHECK_EQ_INT(sk_results_write(res, 1.0, y, NULL), SK_ERR_ARG); /* t must increase */
  const double bad[3] = {1, NAN, 3};
  CHECK_EQ_INT(sk_results_write(res, 2.0, bad, NULL), SK_ERR_NONFINITE);
  CHECK_OK(ctx, sk_results_fail(res, NULL, NULL, "the model broke down"));
  sk_results_destroy(&res);
  CHECK(!exists(dir, "broken.csv"));
  FILE *f = open_in(dir, "broken.partial.csv");
  CHECK(f != NULL);
  char text[1024] = "";
  const size_t got = f ? fread(text, 1, sizeof text - 1, f) : 0;
  text[got] = '\0';
  CHECK_STR_CONTAINS(text, "# status=incomplete: the model broke down");
  if (f) {
    fclose(f);
  }

  const sk_results_config gone = {.dir = dir, .prefix = "gone", .csv = 1, .n = 3};
  CHECK_OK(ctx, sk_results_open(ctx, &gone, &res));
  CHECK_OK(ctx, sk_results_write(res, 0.5, y, NULL));
  sk_results_destroy(&res);
  CHECK(!exists(dir, "gone.csv") && !exists(dir, "gone.partial.csv"));
}

static void refusals(sk_context *ctx, const char *dir)
{
  sk_results *res = NULL;
  const sk_results_config slash = {.dir = dir, .prefix = "a/b", .csv = 1, .n = 1};
  CHECK_EQ_INT(sk_results_open(ctx, &slash, &res), SK_ERR_ARG);
  /* a series may not take a name the HDF5 file already holds, nor an earlier series' */
  const sk_results_config two = {.dir = dir, .prefix = "two", .csv = 1, .n = 1};
  CHECK_OK(ctx, sk_results_open(ctx, &two, &res));
  const char *const col[] = {"q"};
  int id = -1;
  CHECK_EQ_INT(sk_results_add_series(res, "norms", 1, col, &id), SK_ERR_ARG);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "series name 'norms' is taken");
  CHECK_EQ_INT(sk_results_add_series(res, "t", 1, col, &id), SK_ERR_ARG); /* the abscissa */
  CHECK_OK(ctx, sk_results_add_series(res, "flows", 1, col, &id));
  CHECK_EQ_INT(id, 0);
  CHECK_EQ_INT(sk_results_add_series(res, "flows", 1, col, &id), SK_ERR_ARG);
  sk_results_destroy(&res); /* nothing is left of it */
  const sk_results_config nodir = {.dir = "no/such/dir", .prefix = "x", .csv = 1, .n = 1};
  CHECK_EQ_INT(sk_results_open(ctx, &nodir, &res), SK_ERR_CREATE);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "cannot create output file");
  CHECK(res == NULL);
  FILE *out = tmpfile();
  CHECK(out != NULL);
  if (out) {
    CHECK_OK(ctx, sk_versions_print(out));
    rewind(out);
    char text[4096] = "";
    text[fread(text, 1, sizeof text - 1, out)] = '\0';
    CHECK_STR_CONTAINS(text, "SUNDIALS");
    fclose(out);
  }
}

int main(void)
{
  char dir[] = "/tmp/sk_results_api_XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  complete_run(ctx, dir);
  failed_and_abandoned(ctx, dir);
  refusals(ctx, dir);
  sk_context_destroy(&ctx);
  const char *names[] = {"decay.csv", "decay.h5", "decay.provenance.yaml", "broken.partial.csv",
                         "broken.partial.provenance.yaml"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    unlink(path);
  }
  CHECK(rmdir(dir) == 0); /* nothing else was left */
  TEST_RETURN();
}

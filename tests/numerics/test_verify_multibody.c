/* tests/numerics/test_verify_multibody.c: sk_verify_multibody through the public API on the pendulum (data/mechanisms/pendulum.yaml): GGL against the reduced formulation agree, the drift and the energy balance pass; the same formulation twice is not independent; unstabilized index 1 fails its drift check; bad jobs are refused */
#include "../test.h"

#ifndef SK_SOURCE_DIR
#define SK_SOURCE_DIR "."
#endif

#define NT 20

static sk_verify_verdict verdict_of(const sk_verify_report *r, const char *name, int *independent)
{
  sk_verify_verdict v = SK_VERIFY_NOT_VERIFIED;
  const int k = sk_verify_report_find(r, name);
  CHECK(k >= 0);
  CHECK_EQ_INT(sk_verify_report_check(r, k, NULL, &v, independent, NULL), 0);
  return v;
}

int main(void)
{
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  sk_multibody *mech = NULL;
  CHECK_OK(ctx, sk_multibody_load(ctx, SK_SOURCE_DIR "/data/mechanisms/pendulum.yaml", &mech));
  sk_options *opts = NULL;
  size_t nk = 0;
  const sk_option_spec *keys = sk_stepper_options(&nk);
  CHECK_OK(ctx, sk_options_create(ctx, &opts));
  CHECK_OK(ctx, sk_options_register(opts, keys, nk));
  CHECK_OK(ctx, sk_model_register_options(opts));
  CHECK_OK(ctx, sk_options_set_assignment(opts, "multibody.formulation=ggl"));
  CHECK_OK(ctx, sk_options_set_assignment(opts, "multibody.compare=reduced"));
  if (!mech || !opts) {
    TEST_RETURN();
  }
  const int n = sk_multibody_ncoords(mech);
  double q0[16], v0[16], times[NT];
  CHECK(n <= 16);
  sk_multibody_initial(mech, q0, v0);
  sk_multibody_init_report init;
  CHECK_OK(ctx, sk_multibody_assemble(mech, 0.0, q0, v0, 1e-8, 1, &init));
  for (int k = 0; k < NT; k++) {
    times[k] = 2.0 * (k + 1) / NT;
  }
  sk_verify_multibody_job job = {.mechanism = mech,
                                 .options = opts,
                                 .method = "ida-bdf",
                                 .q0 = q0,
                                 .v0 = v0,
                                 .t0 = 0.0,
                                 .times = times,
                                 .ntimes = NT,
                                 .rtol = 1e-7,
                                 .atol = 1e-9};
  /* two formulations: independent, and they agree within 100 rtol; the drift and the
     energy balance (E - E0 = W, no forces but gravity: W = 0) hold to the same bound */
  sk_verify_report *r = NULL;
  CHECK_OK(ctx, sk_verify_multibody(ctx, &job, &r));
  if (r) {
    int independent = 0;
    CHECK_EQ_INT(sk_verify_report_failed(r), 0);
    CHECK_EQ_INT(verdict_of(r, "formulations_positions", &independent), SK_VERIFY_PASS);
    CHECK_EQ_INT(independent, 1);
    CHECK_EQ_INT(verdict_of(r, "drift", NULL), SK_VERIFY_PASS);
    CHECK_EQ_INT(verdict_of(r, "energy_balance", NULL), SK_VERIFY_PASS);
    const int k = sk_verify_report_find(r, "formulations_positions");
    const double diff = sk_verify_report_number(r, k, "max_rel_difference");
    CHECK(diff > 0 && diff <= 100 * job.rtol); /* two solves: never bitwise the same */
    CHECK(sk_verify_report_number(r, sk_verify_report_find(r, "energy_balance"), "balance_max") <=
          100 * job.rtol);
    double t;
    CHECK_EQ_INT(sk_verify_report_time(r, 0, &t, NULL, NULL, NULL, NULL), -1); /* no series */
  }
  sk_verify_report_destroy(&r);
  /* the same formulation twice proves nothing: the comparison is not independent */
  CHECK_OK(ctx, sk_options_set_assignment(opts, "multibody.compare=ggl"));
  CHECK_OK(ctx, sk_verify_multibody(ctx, &job, &r));
  if (r) {
    int independent = 1;
    CHECK_EQ_INT(verdict_of(r, "formulations_positions", &independent), SK_VERIFY_PASS);
    CHECK_EQ_INT(independent, 0);
  }
  sk_verify_report_destroy(&r);
  /* index 1 without stabilization drifts by design: over 20 s at rtol 1e-5 its drift
     (2.3e-3 of the length) exceeds the bound 100 rtol, so the check and the report fail */
  CHECK_OK(ctx, sk_options_set_assignment(opts, "multibody.compare=index1"));
  double long_times[NT];
  for (int k = 0; k < NT; k++) {
    long_times[k] = 20.0 * (k + 1) / NT;
  }
  sk_verify_multibody_job drifting = job;
  drifting.times = long_times;
  drifting.rtol = 1e-5;
  drifting.atol = 1e-7;
  CHECK_OK(ctx, sk_verify_multibody(ctx, &drifting, &r));
  if (r) {
    CHECK_EQ_INT(verdict_of(r, "drift_compare", NULL), SK_VERIFY_FAIL);
    CHECK_EQ_INT(sk_verify_report_failed(r), 1);
  }
  sk_verify_report_destroy(&r);
  /* bad jobs: refused, and *report is NULL after */
  sk_verify_report *sentinel = (sk_verify_report *)&job;
  r = sentinel;
  job.options = NULL;
  CHECK_EQ_INT(sk_verify_multibody(ctx, &job, &r), SK_ERR_ARG);
  job.options = opts;
  job.rtol = 0;
  CHECK_EQ_INT(sk_verify_multibody(ctx, &job, &r), SK_ERR_ARG);
  sk_options_destroy(&opts);
  sk_multibody_destroy(&mech);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

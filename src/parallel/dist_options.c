/* src/parallel/dist_options.c: the parallel.* option keys and the checks of what a distributed run supports */
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "parallel/dist_impl.h"
#include "parallel/dist_keys.h"
#include "linsol/linsol_keys.h"
#include "linsol/linsol_types.h"
#include "steppers/stepper_keys.h"

static const char axis[] = "xyz";

/* "[a, b, c]" of the first dim values. */
static void list_str(char *buf, size_t len, int dim, const int64_t *v)
{
  int w = snprintf(buf, len, "[");
  for (int d = 0; d < dim && w > 0 && (size_t)w < len; d++) {
    w += snprintf(buf + w, len - (size_t)w, "%s%lld", d ? ", " : "", (long long)v[d]);
  }
  if (w > 0 && (size_t)w < len) {
    snprintf(buf + w, len - (size_t)w, "]");
  }
}

/* Up to 6 process grids of nranks that divide n, as "[a, b], [c, d]". */
static int fitting_grids(int nranks, int dim, const int64_t n[3], char *buf, size_t len)
{
  int found = 0;
  size_t used = 0;
  buf[0] = '\0';
  for (int p0 = 1; p0 <= nranks && found < 6; p0++) {
    for (int p1 = 1; p1 <= (dim > 1 ? nranks : 1) && found < 6; p1++) {
      for (int p2 = 1; p2 <= (dim > 2 ? nranks : 1) && found < 6; p2++) {
        const int64_t p[3] = {p0, p1, p2};
        if ((int64_t)p0 * p1 * p2 != nranks || n[0] % p0 || n[1] % p1 || n[2] % p2) {
          continue;
        }
        char one[64];
        list_str(one, sizeof one, dim, p);
        if (used < len) {
          int w = snprintf(buf + used, len - used, "%s%s", found ? ", " : "", one);
          used += w > 0 ? (size_t)w : 0;
        }
        found++;
      }
    }
  }
  return found;
}

/* Rank counts up to nranks (the largest first, at most 8) with a fitting process grid. */
static void fitting_counts(int nranks, int dim, const int64_t n[3], char *buf, size_t len)
{
  size_t used = 0;
  int found = 0;
  buf[0] = '\0';
  for (int k = nranks; k >= 1 && found < 8; k--) {
    int p[3];
    if (sk__dist_choose_grid(k, dim, n, p) && used < len) {
      int w = snprintf(buf + used, len - used, "%s%d", found ? ", " : "", k);
      used += w > 0 ? (size_t)w : 0;
      found++;
    }
  }
}

/* The process grid: parallel.decomposition checked, or the automatic one. */
static sk_status read_grid(sk_context *ctx, const sk_options *opts, int nranks,
                           sk__dist_settings *s)
{
  const int64_t *v = NULL;
  size_t nv = 0;
  char ns[96], ps[96], fits[400];
  sk__parallel_settings ps_keys;
  SK_CALL(ctx, sk__parallel_settings_read(opts, &ps_keys, NULL));
  v = ps_keys.decomposition.v;
  nv = ps_keys.decomposition.n;
  list_str(ns, sizeof ns, s->dim, s->n);
  if (nv == 0) {
    if (sk__dist_choose_grid(nranks, s->dim, s->n, s->procs)) {
      return SK_OK;
    }
    fitting_counts(nranks, s->dim, s->n, fits, sizeof fits);
    const int64_t nodes = s->n[0] * s->n[1] * s->n[2];
    if (nranks > nodes) {
      return SK_ERROR(ctx, SK_ERR_INPUT,
                      "%d ranks: more ranks than grid blocks (model.n = %s has %lld nodes, at "
                      "most one block per node); rank counts that would fit: %s",
                      nranks, ns, (long long)nodes, fits);
    }
    return SK_ERROR(ctx, SK_ERR_INPUT,
                    "%d ranks: no process grid of %d ranks divides model.n = %s (set "
                    "parallel.decomposition or change the rank count); rank counts that would "
                    "fit: %s",
                    nranks, nranks, ns, fits);
  }
  SK_CHECK(ctx, nv == (size_t)s->dim, SK_ERR_INPUT,
           "parallel.decomposition has %zu values but model.dim = %d (give %d values, or none "
           "for the automatic choice)",
           nv, s->dim, s->dim);
  int64_t p[3] = {1, 1, 1};
  int64_t prod = 1;
  for (int d = 0; d < s->dim; d++) {
    p[d] = v[d];
    prod *= v[d];
  }
  list_str(ps, sizeof ps, s->dim, p);
  const int nfit = fitting_grids(nranks, s->dim, s->n, fits, sizeof fits);
  for (int d = 0; d < s->dim; d++) {
    if (s->n[d] % p[d] == 0) {
      continue;
    }
    return SK_ERROR(ctx, SK_ERR_INPUT,
                    "parallel.decomposition = %s does not divide model.n = %s: %lld nodes in %c "
                    "over %lld ranks; %s%s",
                    ps, ns, (long long)s->n[d], axis[d], (long long)p[d],
                    nfit ? "for this rank count would fit: "
                         : "no decomposition of this rank "
                           "count fits",
                    fits);
  }
  SK_CHECK(ctx, prod == nranks, SK_ERR_INPUT,
           "parallel.decomposition = %s has %lld blocks but the run has %d ranks; %s%s", ps,
           (long long)prod, nranks,
           nfit ? "for this rank count would fit: " : "no decomposition of this rank count fits",
           fits);
  for (int d = 0; d < 3; d++) {
    s->procs[d] = (int)p[d];
  }
  return SK_OK;
}

/* What a distributed run takes of solver.* and linsol.* (the stepper reads the rest as in a
 * serial run): cvode-bdf, a Krylov solver, a preconditioner it has (auto and model resolved). */
static sk_status read_solver(sk_context *ctx, const sk_options *opts, sk__dist_settings *s)
{
  sk__stepper_settings st;
  uint64_t given = 0;
  SK_CALL(ctx, sk__stepper_settings_read(opts, &st, &given));
  SK_CHECK(ctx, strcmp(st.method, "cvode-bdf") == 0, SK_ERR_UNSUPPORTED,
           "solver.method = %s: distributed runs use cvode-bdf", st.method);
  SK_CHECK(ctx, !SK__STEPPER_GIVEN(given, stop_time), SK_ERR_UNSUPPORTED,
           "solver.stop_time: not supported by distributed runs (they end at solver.t_end)");
  /* what reads the whole state, or one value per component: a rank holds its block only */
  static const int whole_state[] = {SK__STEPPER_KEY_atol_list, SK__STEPPER_KEY_atol_field,
                                    SK__STEPPER_KEY_constraints};
  for (size_t k = 0; k < sizeof whole_state / sizeof whole_state[0]; k++) {
    SK_CHECK(ctx, !SK__BIND_GIVEN(given, whole_state[k]), SK_ERR_UNSUPPORTED,
             "%s: not supported by distributed runs (it names every component of the state, "
             "and a rank holds its block only; run serially, or give the scalar solver.atol)",
             sk__stepper_key(whole_state[k]));
  }
  SK_CHECK(ctx, strcmp(st.detect_pattern, "on") != 0, SK_ERR_UNSUPPORTED,
           "solver.detect_pattern = on: not supported by distributed runs (the grid models give "
           "their Jacobian rows themselves)");
  sk__linsol_settings ls;
  SK_CALL(ctx, sk__linsol_settings_read(opts, &ls, NULL));
  char names[128];
  SK_CHECK(ctx, sk__linsol_accepts(ctx, ls.type, SK__ENGINE_MPI, names, sizeof names),
           SK_ERR_UNSUPPORTED, "linsol.type = %s: distributed runs use %s (auto or %s)", ls.type,
           names, names);
  const char *pc = ls.preconditioner;
  SK_CHECK(ctx, sk__prec_accepts(ctx, pc, SK__ENGINE_MPI, names, sizeof names),
           SK_ERR_UNSUPPORTED, "linsol.preconditioner = %s: distributed runs take auto, %s", pc,
           names);
  /* auto: the registry's rule (linsol/linsol_types.h, SK__PREC_AUTO: mg on a grid of 5e4
   * states or more where the build has it, else the model's own); model: the model's own
   * choice for distributed runs (amg for diffusion, bbd for the Brusselator) */
  if (!strcmp(pc, "auto")) {
    const int64_t n = s->ncomp * s->n[0] * s->n[1] * s->n[2];
    const sk__prec_model m = {SK__PREC_NEEDS_VALUES | SK__PREC_NEEDS_ANALYTIC |
                                  SK__PREC_NEEDS_GRID | SK__PREC_NEEDS_MODEL,
                              n, s->dim};
    pc = sk__prec_auto(SK__ENGINE_MPI, &m, NULL);
  }
  if (!strcmp(pc, "model")) {
    pc = s->model->own_prec;
  }
  snprintf(s->prec, sizeof s->prec, "%s", pc);
  sk__mg_params_default(&s->mg);
  s->mg.solver = !strcmp(ls.mg_solver, "smg") ? SK__MG_SMG : SK__MG_PFMG;
  s->mg.cycles = (int)ls.mg_cycles;
  s->mg.relax = sk__mg_relax_from_name(ls.mg_relax);
  sk__parallel_settings pk;
  SK_CALL(ctx, sk__parallel_settings_read(opts, &pk, NULL));
  s->band = pk.bbd_band;
  return SK_OK;
}

sk_status sk__dist_read_settings(sk_context *ctx, const sk_options *opts, int nranks,
                                 sk__dist_settings *s)
{
  SK_CHECK(ctx, opts != NULL && s != NULL && nranks >= 1, SK_ERR_ARG,
           "sk__dist_read_settings: NULL argument or nranks < 1");
  memset(s, 0, sizeof *s);
  const char *type = NULL;
  SK_CALL(ctx, sk_options_get_string(opts, SK_MODEL_TYPE_KEY, &type));
  s->model = sk__block_kernels_find(type);
  if (!s->model) {
    char names[128];
    sk__block_kernels_list(names, sizeof names);
    return SK_ERROR(ctx, SK_ERR_UNSUPPORTED,
                    "model.type = %s: distributed runs support the grid models %s", type, names);
  }
  SK_CALL(ctx, s->model->shape(ctx, opts, &s->shape));
  s->dim = s->shape.dim;
  s->ncomp = s->shape.ncomp;
  for (int d = 0; d < 3; d++) {
    s->n[d] = s->shape.n[d];
  }
  SK_CALL(ctx, read_solver(ctx, opts, s));
  SK_CALL(ctx, read_grid(ctx, opts, nranks, s));
  return SK_OK;
}

sk_status sk__dist_check_options(sk_context *ctx, const sk_options *opts, int nranks)
{
  sk__dist_settings s;
  SK_CALL(ctx, sk__dist_read_settings(ctx, opts, nranks, &s));
  return SK_OK;
}

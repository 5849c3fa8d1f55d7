/* src/linsol/klu_factor.c: the one KLU seam: analyze, factor or refactor with the rcond fallback, solve, status */
#include "linsol/klu_factor.h"

#include "core/stop.h"

/* KLU's prototypes take non-const arrays that it only reads. */
#define SK__KLU_INDEX(p) ((SuiteSparse_long *)(p))
#define SK__KLU_VALUES(p) ((double *)(p))

void sk__klu_init(sk__klu *k)
{
  klu_l_defaults(&k->common);
  k->sym = NULL;
  k->num = NULL;
  k->n = 0;
}

int sk__klu_analyze(sk__klu *k, int64_t n, const int64_t *cp, const int64_t *ri)
{
  sk__klu_free(k);
  k->n = n;
  sk__stop_region_enter("a KLU analysis");
  k->sym = klu_l_analyze(n, SK__KLU_INDEX(cp), SK__KLU_INDEX(ri), &k->common);
  sk__stop_region_leave();
  return k->sym != NULL;
}

/* sk__klu_factor's work, inside its stop region. */
static int factor(sk__klu *k, const int64_t *cp, const int64_t *ri, const double *ax,
                  double rcond_min)
{
  if (k->num && rcond_min > 0) {
    if (klu_l_refactor(SK__KLU_INDEX(cp), SK__KLU_INDEX(ri), SK__KLU_VALUES(ax), k->sym, k->num,
                       &k->common) &&
        klu_l_rcond(k->sym, k->num, &k->common) && k->common.rcond >= rcond_min) {
      return 1;
    }
  }
  sk__klu_drop_factors(k);
  k->num =
      klu_l_factor(SK__KLU_INDEX(cp), SK__KLU_INDEX(ri), SK__KLU_VALUES(ax), k->sym, &k->common);
  return k->num != NULL;
}

int sk__klu_factor(sk__klu *k, const int64_t *cp, const int64_t *ri, const double *ax,
                   double rcond_min)
{
  if (!k->sym) {
    k->common.status = KLU_INVALID;
    return 0;
  }
  sk__stop_region_enter("a KLU factorization");
  const int ok = factor(k, cp, ri, ax, rcond_min);
  sk__stop_region_leave();
  return ok;
}

int sk__klu_rcond(sk__klu *k, double *rcond)
{
  if (!k->num || !klu_l_rcond(k->sym, k->num, &k->common)) {
    return 0;
  }
  *rcond = k->common.rcond;
  return 1;
}

int sk__klu_condest(sk__klu *k, const int64_t *cp, const double *ax, double *condest)
{
  if (!k->num ||
      !klu_l_condest(SK__KLU_INDEX(cp), SK__KLU_VALUES(ax), k->sym, k->num, &k->common)) {
    return 0;
  }
  *condest = k->common.condest;
  return 1;
}

int sk__klu_solve(sk__klu *k, double *b, int64_t nrhs)
{
  return k->num && klu_l_solve(k->sym, k->num, k->n, nrhs, b, &k->common);
}

void sk__klu_drop_factors(sk__klu *k)
{
  if (k->num) {
    klu_l_free_numeric(&k->num, &k->common);
  }
}

void sk__klu_free(sk__klu *k)
{
  sk__klu_drop_factors(k);
  if (k->sym) {
    klu_l_free_symbolic(&k->sym, &k->common);
  }
}

const char *sk__klu_status_name(int status)
{
  switch (status) {
  case KLU_OK:
    return "KLU_OK";
  case KLU_SINGULAR:
    return "KLU_SINGULAR";
  case KLU_OUT_OF_MEMORY:
    return "KLU_OUT_OF_MEMORY";
  case KLU_INVALID:
    return "KLU_INVALID";
  case KLU_TOO_LARGE:
    return "KLU_TOO_LARGE";
  default:
    return "KLU_UNKNOWN_STATUS";
  }
}

sk_status sk__klu_status_code(int status)
{
  switch (status) {
  case KLU_OUT_OF_MEMORY:
    return SK_ERR_NOMEM;
  case KLU_SINGULAR:
    return SK_ERR_SINGULAR;
  case KLU_TOO_LARGE:
    return SK_ERR_TOO_LARGE;
  default:
    return SK_ERR_LINSOL;
  }
}

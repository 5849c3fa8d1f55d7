/* tests/unit/test_linsol_registry.c: the linear-solver, preconditioner and ordering registries: linsol.ordering accepts exactly its names, the help of linsol.type and linsol.preconditioner lists every built-in one, each Krylov entry builds the SUNDIALS solver its name says (SUNLinSolGetID), the engines' lists */
#include <nvector/nvector_serial.h>
#include <sundials/sundials_linearsolver.h>

#include "backends/sundials_compat.h"
#include "linsol/linsol_types.h"
#include "linsol/mg_struct.h"
#include "test.h"

/* the spec of `key` in the stepper's option table */
static const sk_option_spec *spec_of(const char *key)
{
  size_t n = 0;
  const sk_option_spec *t = sk_stepper_options(&n);
  for (size_t i = 0; i < n; i++) {
    if (!strcmp(t[i].key, key)) {
      return &t[i];
    }
  }
  return NULL;
}

/* the choices of `key` (a choice key) */
static const char *choices_of(const char *key)
{
  const sk_option_spec *s = spec_of(key);
  return s ? s->choices : NULL;
}

/* linsol.type and linsol.preconditioner are strings (types registered at run time count
   too): their help lists the built-in names as "...: auto, NAME, ..., or a ... type";
   that list in the "|" form of check_choices */
static const char *names_of_help(const char *key, const char *end)
{
  static char buf[256];
  const sk_option_spec *s = spec_of(key);
  const char *from = s && s->help ? strstr(s->help, "auto, ") : NULL;
  const char *to = from ? strstr(from, end) : NULL;
  if (!to) {
    return NULL;
  }
  size_t k = 0;
  for (const char *p = from; p < to && k + 1 < sizeof buf; p++) {
    if (p[0] == ',' && p[1] == ' ') {
      buf[k++] = '|';
      p++;
    } else {
      buf[k++] = *p;
    }
  }
  buf[k] = '\0';
  return buf;
}

/* every "|"-separated name of `choices` after "auto" is found by `find`; returns their count */
static int check_choices(const char *choices, int (*found)(const char *))
{
  CHECK(choices != NULL && !strncmp(choices, "auto|", 5));
  int count = 0;
  char buf[256];
  snprintf(buf, sizeof buf, "%s", choices ? choices + 5 : "");
  for (char *tok = strtok(buf, "|"); tok; tok = strtok(NULL, "|")) {
    CHECK(found(tok));
    count++;
  }
  return count;
}

static int linsol_found(const char *name)
{
  return sk__linsol_type_find(name) != NULL;
}

static int prec_found(const char *name)
{
  return sk__prec_type_find(name) != NULL;
}

/* the SUNDIALS identity each Krylov name stands for (sundials_linearsolver.h) */
static SUNLinearSolver_ID krylov_id(const char *name)
{
  return !strcmp(name, "spgmr")    ? SUNLINEARSOLVER_SPGMR
         : !strcmp(name, "spfgmr") ? SUNLINEARSOLVER_SPFGMR
         : !strcmp(name, "spbcgs") ? SUNLINEARSOLVER_SPBCGS
         : !strcmp(name, "sptfqmr")
             ? SUNLINEARSOLVER_SPTFQMR
             : (!strcmp(name, "pcg") ? SUNLINEARSOLVER_PCG : SUNLINEARSOLVER_CUSTOM);
}

int main(void)
{
  /* linsol.type: 10 solvers besides auto; linsol.preconditioner: 6 */
  CHECK(spec_of("linsol.type")->type == SK_OPT_STRING);
  CHECK_EQ_INT(check_choices(names_of_help("linsol.type", ", or a sparse"), linsol_found), 10);
  CHECK(spec_of("linsol.preconditioner")->type == SK_OPT_STRING);
  CHECK_EQ_INT(check_choices(names_of_help("linsol.preconditioner", ", or a type"), prec_found),
               6);
  CHECK(sk__linsol_type_find("auto") == NULL);
  CHECK(sk__linsol_type_find("lu") == NULL);
  CHECK(sk__prec_type_find("ilu") == NULL);

  SUNContext sunctx = NULL;
  CHECK(SK_SUNCONTEXT_CREATE(&sunctx) == 0);
  N_Vector y = N_VNew_Serial(8, sunctx);
  const char *krylov[] = {"spgmr", "spfgmr", "spbcgs", "sptfqmr", "pcg"};
  for (size_t i = 0; i < sizeof krylov / sizeof krylov[0]; i++) {
    const sk__linsol_type *t = sk__linsol_type_find(krylov[i]);
    CHECK(t != NULL && t->kind == SK__LS_KRYLOV && t->krylov != NULL);
    if (t && t->krylov) {
      SUNLinearSolver LS = t->krylov(y, SUN_PREC_NONE, 5, sunctx);
      CHECK(LS != NULL && SUNLinSolGetID(LS) == krylov_id(krylov[i]));
      SUNLinSolFree(LS);
    }
  }
  N_VDestroy(y);
  SUNContext_Free(&sunctx);
  CHECK(sk__linsol_is(NULL, "klu", SK__LS_SPARSE) &&
        sk__linsol_is(NULL, "umfpack", SK__LS_SPARSE));
  CHECK(sk__linsol_is(NULL, "dense", SK__LS_DENSE) && sk__linsol_is(NULL, "band", SK__LS_BAND));
  CHECK(sk__linsol_is(NULL, "none", SK__LS_NONE) && !sk__linsol_is(NULL, "auto", SK__LS_NONE));

  /* what each engine takes (the refusal messages list these) */
  static const struct {
    unsigned engine;
    int prec; /* 0: linear solvers, 1: preconditioners */
    const char *expect;
  } lists[] = {
      {SK__ENGINE_KINSOL, 0, "dense, klu, umfpack, spgmr"},
      {SK__ENGINE_NEWTON, 0, "klu"},
      {SK__ENGINE_IDA, 0, "dense, band, klu, umfpack, spgmr, spfgmr, spbcgs, sptfqmr, pcg"},
      {SK__ENGINE_MPI, 0, "spgmr"},
      {SK__ENGINE_KINSOL, 1, "none, jacobi, model"},
      {SK__ENGINE_MPI, 1, "none, model, amg, mg, bbd"},
  };
  char names[256];
  for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
    if (lists[i].prec) {
      sk__prec_names(NULL, lists[i].engine, names, sizeof names);
    } else {
      sk__linsol_names(NULL, lists[i].engine, names, sizeof names);
    }
    CHECK(!strcmp(names, lists[i].expect));
  }
  /* who accepts what: "auto" everywhere, a name where its engines say */
  CHECK(sk__linsol_accepts(NULL, "auto", SK__ENGINE_NEWTON, names, sizeof names));
  CHECK(sk__linsol_accepts(NULL, "klu", SK__ENGINE_NEWTON, names, sizeof names));
  CHECK(!sk__linsol_accepts(NULL, "spgmr", SK__ENGINE_NEWTON, names, sizeof names));
  CHECK(!strcmp(names, "klu"));
  CHECK(!sk__linsol_accepts(NULL, "band", SK__ENGINE_KINSOL, names, sizeof names));
  CHECK(!sk__linsol_accepts(NULL, "lu", SK__ENGINE_CVODE, names, sizeof names));
  CHECK(sk__prec_accepts(NULL, "bbd", SK__ENGINE_MPI, names, sizeof names));
  CHECK(!sk__prec_accepts(NULL, "jacobi", SK__ENGINE_MPI, names, sizeof names));
  CHECK(!strcmp(names, "none, model, amg, mg, bbd"));
  /* the auto rule (SK__PREC_AUTO), case by case as documented there */
  {
    const unsigned V = SK__PREC_NEEDS_VALUES, P = SK__PREC_NEEDS_PATTERN,
                   M = SK__PREC_NEEDS_MODEL, G = SK__PREC_NEEDS_GRID, A = SK__PREC_NEEDS_ANALYTIC;
    /* where the build lacks mg, the next row (the model's own) */
    const char *mg = sk__mg_available() == NULL ? "mg" : "model";
    struct {
      unsigned engine, has;
      int64_t n;
      int dim;
      const char *want;
      int strong;
    } c[] = {
        /* a 2D grid model of 1e5 states with analytic values and an ADI: mg */
        {SK__ENGINE_CVODE, V | P | M | G | A, 100000, 2, mg, 1},
        /* the same below 5e4 states: the model's own */
        {SK__ENGINE_CVODE, V | P | M | G | A, 40000, 2, "model", 1},
        /* a 1D grid: no mg */
        {SK__ENGINE_CVODE, V | P | M | G | A, 100000, 1, "model", 1},
        /* values from colored differences only: no mg */
        {SK__ENGINE_CVODE, V | P | M | G, 100000, 2, "model", 1},
        /* no preconditioner of its own, a Jacobian: jacobi (not strong) */
        {SK__ENGINE_CVODE, V | P, 100000, 0, "jacobi", 0},
        /* nothing: none */
        {SK__ENGINE_CVODE, 0u, 100000, 0, "none", 0},
        /* the steady solve never takes the model's preconditioner */
        {SK__ENGINE_KINSOL, V | P | M, 100, 0, "jacobi", 0},
        {SK__ENGINE_KINSOL, M, 100, 0, "none", 0},
        /* distributed: mg from 5e4 states, else the model's own */
        {SK__ENGINE_MPI, V | M | G | A, 65536, 2, mg, 1},
        {SK__ENGINE_MPI, V | M | G | A, 256, 2, "model", 1},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
      const sk__prec_model m = {c[i].has, c[i].n, c[i].dim};
      int strong = -1;
      const char *got = sk__prec_auto(c[i].engine, &m, &strong);
      CHECK(!strcmp(got, c[i].want));
      CHECK_EQ_INT(strong, c[i].strong);
    }
  }
  /* what each preconditioner needs of the model */
  CHECK_EQ_INT(sk__prec_needs("mg"), SK__PREC_NEEDS_VALUES | SK__PREC_NEEDS_GRID);
  CHECK_EQ_INT(sk__prec_needs("bbd"), SK__PREC_NEEDS_PATTERN);
  CHECK_EQ_INT(sk__prec_needs("model"), SK__PREC_NEEDS_MODEL);
  CHECK_EQ_INT(sk__prec_needs("auto"), 0);

  /* the orderings: one list for the option table, the setter and the steady solve */
  CHECK(!strcmp(choices_of("linsol.ordering"), "auto|amd|colamd|metis-nd"));
  CHECK(sk__ordering_known("amd") && sk__ordering_known("colamd") &&
        sk__ordering_known("metis-nd"));
  CHECK(!sk__ordering_known("auto") && !sk__ordering_known("am") && !sk__ordering_known("amdx") &&
        !sk__ordering_known("") && !sk__ordering_known(NULL));
  sk__ordering_names(names, sizeof names);
  CHECK(!strcmp(names, "amd, colamd, metis-nd"));

  /* the public setter refuses a name no entry has, listing the valid ones */
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  sk_model *m = NULL;
  CHECK_OK(ctx, sk_problem_create(ctx, "rober", &m));
  sk_stepper *s = NULL;
  CHECK_OK(ctx, sk_stepper_create(ctx, "cvode-bdf", m, &s));
  CHECK(sk_stepper_set_linear_solver(s, "lu") == SK_ERR_ARG);
  CHECK(strstr(sk_context_get_error(ctx)->message,
               "unknown linear solver 'lu'; valid: auto, none, dense, band, klu") != NULL);
  CHECK_OK(ctx, sk_stepper_set_linear_solver(s, "sptfqmr"));
  CHECK(sk_stepper_set_preconditioner(s, "ilu") == SK_ERR_ARG);
  CHECK_OK(ctx, sk_stepper_set_preconditioner(s, "bbd"));
  CHECK(sk_stepper_set_ordering(s, "nd") == SK_ERR_ARG);
  CHECK(strstr(sk_context_get_error(ctx)->message,
               "unknown ordering 'nd'; valid: auto, amd, colamd, metis-nd") != NULL);
  CHECK_OK(ctx, sk_stepper_set_ordering(s, "colamd"));
  sk_stepper_destroy(&s);
  sk_model_destroy(&m);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

/* src/linsol/linsol_choice.h: what linsol.type=auto means for a model: a sparse direct factorization or a preconditioned Krylov solver, decided from the Jacobian's structure (the predicted fill and flops of its LU factors) and the preconditioners at hand */
#ifndef SK_LINSOL_LINSOL_CHOICE_H
#define SK_LINSOL_LINSOL_CHOICE_H

#include <stddef.h>
#include <stdint.h>

#include "stiffkit/context.h"

/* The predicted cost of factorizing a pattern: AMD's symbolic analysis
 * (approximate minimum degree on the pattern of A + A^T, no pivoting) of
 * the n x n CSC pattern. */
typedef struct {
  double nnz;      /* entries of the pattern */
  double lu_nnz;   /* predicted entries of L + U (diagonal once) */
  double lu_flops; /* predicted floating-point operations of one LU factorization */
} sk__lu_prediction;

/* sk__lu_predict: AMD's prediction for the pattern (colptr, rowind) of an
 * n x n matrix (rows in any order within a column; duplicates allowed).
 * About the cost of one KLU symbolic analysis. Errors: SK_ERR_NOMEM,
 * SK_ERR_INPUT (AMD refuses the pattern). */
sk_status sk__lu_predict(sk_context *ctx, int64_t n, const int64_t *colptr, const int64_t *rowind,
                         sk__lu_prediction *p);

/* A linear solver chosen for "auto". */
typedef struct {
  char linsol[16];      /* klu, dense, spgmr */
  char prec[16];        /* the Krylov preconditioner ("model"), "auto" with a direct choice */
  sk__lu_prediction lu; /* zero when not analysed (no pattern) */
  char reason[512];     /* one sentence: the decision and the figures it rests on */
} sk__linsol_choice;

/* Above this many predicted LU flops per pattern entry, a model with its
 * own preconditioner runs spgmr instead of KLU: a factorization then costs
 * more than about a hundred Jacobian products. benchmarks/linsol_choice/
 * run.sh (benchmarks/results/linsol_choice.md) measured KLU against spgmr
 * with the model preconditioner side by side: 1D grids predict about 1
 * flop per entry (no fill; KLU 1.7 to 2.6x slower than spgmr), 2D grids 17 at
 * n = 100 to 1100 at n = 4e4 (spgmr 5.5x faster from 121, 17x at 1100), 3D
 * grids 112 at n = 216 to 2.1e4 at n = 13824 (KLU 0.005 s and spgmr 0.008 s
 * at 112, equal at 293, spgmr 14x faster at 1.2e4, 68x at 2.1e4); thermal
 * networks 1 to 3 (where unpreconditioned * Krylov fails). Below the crossover both take milliseconds and KLU's
 * exact solves do not depend on the preconditioner's quality. */
#define SK__KRYLOV_FLOPS_PER_NNZ 100.0

/* Without a pattern, dense difference quotients up to this n, else spgmr. */
#define SK__DENSE_MAX_N 2000

/* sk__linsol_auto: the choice for an implicit engine on an n x n Newton
 * matrix with the CSC pattern (colptr, rowind), or none (colptr NULL).
 *   engine         the engine's name, for the reason ("cvode-bdf", ...)
 *   model_prec     1 when the model has its own preconditioner
 *   krylov_prec_ok 1 when the engine can run a Krylov solver with it
 *                  (cvode-*); 0 when its Krylov solvers run
 *                  unpreconditioned (ida-bdf)
 * A full pattern (every entry: a dense Jacobian) up to SK__DENSE_MAX_N
 * unknowns: dense. Another pattern: KLU, unless the model's preconditioner can be used and
 * the predicted factorization costs more than SK__KRYLOV_FLOPS_PER_NNZ
 * flops per pattern entry, then spgmr with the model preconditioner.
 * Without a pattern: spgmr with the model preconditioner when it can be
 * used, else dense up to SK__DENSE_MAX_N unknowns, else spgmr.
 * Errors: as sk__lu_predict. */
sk_status sk__linsol_auto(sk_context *ctx, int64_t n, const int64_t *colptr,
                          const int64_t *rowind, const char *engine, int model_prec,
                          int krylov_prec_ok, sk__linsol_choice *c);

#endif

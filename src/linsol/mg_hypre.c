/* src/linsol/mg_hypre.c: the hypre module's structured multigrid: PFMG/SMG (Struct interface) or SysPFMG (SStruct, several components per point) on A = I - gamma*J of a grid model */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

#include <HYPRE.h>
#include <HYPRE_sstruct_ls.h>
#include <HYPRE_sstruct_mv.h>
#include <HYPRE_struct_ls.h>
#include <HYPRE_struct_mv.h>

#include "core/error.h"
#include "linsol/hypre_common.h"
#include "linsol/mg_module.h"

/* components per point the object takes (a stencil key per offset and component) */
#define SK_MG_MAX_COMP 8
#define SK_MG_KEYS (27 * SK_MG_MAX_COMP)

struct sk__mg_impl {
  sk_context *ctx;
  MPI_Comm comm; /* the caller's (not owned): mg->comm for a serial grid */
  sk__mg_params params;
  int dim; /* the model's; hypre's grid has max(dim, 2) */
  int ncomp;
  int64_t npts; /* points of this rank's block */
  HYPRE_Int ilower[3], iupper[3];
  int nent[SK_MG_MAX_COMP];       /* stencil entries of component v's equations */
  int64_t vstart[SK_MG_MAX_COMP]; /* where component v's values start in vals */
  int offs[SK_MG_MAX_COMP][27 * SK_MG_MAX_COMP][4]; /* entry e of v: offset x,y,z, column comp */
  HYPRE_Int entries[27 * SK_MG_MAX_COMP];           /* 0, 1, 2, ... */
  int64_t nvals;
  double *vals; /* per component: point-major, entries fastest (SetBoxValues' order) */
  int64_t nnz;
  int *pos;    /* vals position of J's entry p (the creator's order; < INT_MAX, checked) */
  int *dpos;   /* vals position of the diagonal of block state s */
  double *buf; /* npts: one component of a vector (several components only) */
  /* one component: the Struct interface */
  HYPRE_StructGrid sgrid;
  HYPRE_StructStencil sstencil;
  HYPRE_StructMatrix sA;
  HYPRE_StructVector sb, sx;
  HYPRE_StructSolver ssolver;
  /* several: SStruct with one part and ncomp cell variables */
  HYPRE_SStructGrid grid;
  HYPRE_SStructStencil stencil[SK_MG_MAX_COMP];
  HYPRE_SStructGraph graph;
  HYPRE_SStructMatrix A;
  HYPRE_SStructVector b, x;
  HYPRE_SStructSolver solver;
  int ready; /* a setup succeeded */
  int64_t setups;
  double setup_seconds;
};

static void mg_destroy(sk__mg_impl **mg);

static double now_seconds(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static const char *solver_name(const sk__mg_impl *mg)
{
  return mg->ncomp > 1 ? "syspfmg" : mg->params.solver == SK__MG_SMG ? "smg" : "pfmg";
}

/* The stencil of each component's equations from J's entries (plus the
 * diagonal; the union over the ranks), the value layout, and every entry's
 * and diagonal's position. */
static sk_status build_stencil(sk__mg_impl *mg, const sk__mg_entries *src)
{
  sk_context *ctx = mg->ctx;
  const int nc = mg->ncomp;
  const int64_t n = mg->npts * nc;
  /* key_of[v][k] for k < SK_MG_KEYS, and one slot more: this rank's bad entry */
  int(*key_of)[SK_MG_KEYS + 1] = sk__malloc(ctx, sizeof(int[SK_MG_MAX_COMP][SK_MG_KEYS + 1]));
  SK_CHECK(ctx, key_of != NULL, SK_ERR_NOMEM, "cannot allocate the multigrid stencil");
  for (int v = 0; v < nc; v++) {
    for (int k = 0; k <= SK_MG_KEYS; k++) {
      key_of[v][k] = -1;
    }
    key_of[v][13 * nc + v] = 0; /* offset (0,0,0), own component: the identity's diagonal */
  }
  int64_t row = 0, bad = -1;
  int key_bad = 0;
  for (int64_t p = 0; p < src->count && bad < 0; p++) {
    const int key = src->entry(src->u, p, &row);
    if (key < 0 || key >= 27 * nc || row < 0 || row >= n) {
      bad = p;
      key_bad = key;
      break;
    }
    key_of[row % nc][key] = 0;
  }
  key_of[0][SK_MG_KEYS] = bad >= 0 ? 0 : -1;
  /* every rank's stencil is the union (hypre's Struct stencils are global) */
  MPI_Allreduce(MPI_IN_PLACE, key_of, (int)(SK_MG_MAX_COMP * (SK_MG_KEYS + 1)), MPI_INT, MPI_MAX,
                mg->comm);
  if (key_of[0][SK_MG_KEYS] >= 0) {
    sk__free(ctx, key_of);
    if (bad < 0) {
      return SK_ERROR(ctx, SK_ERR_UNSUPPORTED,
                      "linsol.preconditioner=mg: another rank's Jacobian entries do not fit the "
                      "structured multigrid's stencil");
    }
    return SK_ERROR(ctx, SK_ERR_UNSUPPORTED,
                    "linsol.preconditioner=mg: the Jacobian entry %lld (row %lld, stencil key "
                    "%d) is outside the structured multigrid's stencil or the block",
                    (long long)bad, (long long)row, key_bad);
  }
  /* PFMG's coarse operators take the cross (5 points in 2D, 7 in 3D) or
   * the full box (9, 27): pad each component's own stencil to the cross,
   * and to the box when an entry couples diagonal neighbours; a 1D grid is
   * a 2D one of one row (PFMG has no 3-point coarsening), with the y
   * couplings zero */
  const int hdim = mg->dim > 1 ? mg->dim : 2;
  for (int v = 0; v < nc; v++) {
    int box = 0;
    for (int k = 0; k < 27 * nc; k++) {
      const int o = k / nc;
      const int nz = (o % 3 != 1) + ((o / 3) % 3 != 1) + (o / 9 != 1);
      box |= key_of[v][k] >= 0 && nz > 1;
    }
    for (int o = 0; o < 27; o++) {
      const int ox = o % 3 - 1, oy = (o / 3) % 3 - 1, oz = o / 9 - 1;
      const int nz = (ox != 0) + (oy != 0) + (oz != 0);
      if ((hdim < 3 && oz != 0) || nz == 0 || (nz > 1 && !box)) {
        continue;
      }
      key_of[v][o * nc + v] = 0;
    }
  }
  /* number the entries in key order; lay out the values */
  int64_t start = 0;
  for (int v = 0; v < nc; v++) {
    int e = 0;
    for (int k = 0; k < 27 * nc; k++) {
      if (key_of[v][k] < 0) {
        continue;
      }
      key_of[v][k] = e;
      const int o = k / nc;
      mg->offs[v][e][0] = o % 3 - 1;
      mg->offs[v][e][1] = (o / 3) % 3 - 1;
      mg->offs[v][e][2] = o / 9 - 1;
      mg->offs[v][e][3] = k % nc;
      e++;
    }
    mg->nent[v] = e;
    mg->vstart[v] = start;
    start += mg->npts * e;
  }
  for (int e = 0; e < 27 * SK_MG_MAX_COMP; e++) {
    mg->entries[e] = e;
  }
  if (start > INT_MAX) {
    sk__free(ctx, key_of);
    return SK_ERROR(ctx, SK_ERR_TOO_LARGE,
                    "linsol.preconditioner=mg: %lld stencil values exceed hypre's 32-bit indices",
                    (long long)start);
  }
  mg->nvals = start;
  mg->nnz = src->count;
  mg->vals = sk__calloc(ctx, (size_t)start, sizeof *mg->vals);
  mg->pos = sk__malloc(ctx, (size_t)(mg->nnz > 0 ? mg->nnz : 1) * sizeof *mg->pos);
  mg->dpos = sk__malloc(ctx, (size_t)n * sizeof *mg->dpos);
  if (!mg->vals || !mg->pos || !mg->dpos) {
    sk__free(ctx, key_of);
    return SK_ERROR(ctx, SK_ERR_NOMEM, "cannot allocate the multigrid matrix (%lld values)",
                    (long long)start);
  }
  for (int64_t p = 0; p < src->count; p++) {
    const int key = src->entry(src->u, p, &row);
    const int v = (int)(row % nc);
    mg->pos[p] = (int)(mg->vstart[v] + (row / nc) * mg->nent[v] + key_of[v][key]);
  }
  for (int64_t s = 0; s < n; s++) {
    const int v = (int)(s % nc);
    mg->dpos[s] = (int)(mg->vstart[v] + (s / nc) * mg->nent[v] + key_of[v][13 * nc + v]);
  }
  sk__free(ctx, key_of);
  return SK_OK;
}

/* Grid, stencil, matrix and vectors of the Struct interface (one component). */
static sk_status create_struct(sk__mg_impl *mg)
{
  sk_context *ctx = mg->ctx;
  const int dim = mg->dim > 1 ? mg->dim : 2;
  SK_HYPRE(ctx, HYPRE_StructGridCreate(mg->comm, dim, &mg->sgrid), "HYPRE_StructGridCreate");
  SK_HYPRE(ctx, HYPRE_StructGridSetExtents(mg->sgrid, mg->ilower, mg->iupper),
           "HYPRE_StructGridSetExtents");
  SK_HYPRE(ctx, HYPRE_StructGridAssemble(mg->sgrid), "HYPRE_StructGridAssemble");
  SK_HYPRE(ctx, HYPRE_StructStencilCreate(dim, mg->nent[0], &mg->sstencil),
           "HYPRE_StructStencilCreate");
  for (int e = 0; e < mg->nent[0]; e++) {
    HYPRE_Int o[3] = {mg->offs[0][e][0], mg->offs[0][e][1], mg->offs[0][e][2]};
    SK_HYPRE(ctx, HYPRE_StructStencilSetElement(mg->sstencil, e, o),
             "HYPRE_StructStencilSetElement");
  }
  SK_HYPRE(ctx, HYPRE_StructMatrixCreate(mg->comm, mg->sgrid, mg->sstencil, &mg->sA),
           "HYPRE_StructMatrixCreate");
  SK_HYPRE(ctx, HYPRE_StructMatrixInitialize(mg->sA), "HYPRE_StructMatrixInitialize");
  HYPRE_StructVector *vecs[2] = {&mg->sb, &mg->sx};
  for (int k = 0; k < 2; k++) {
    SK_HYPRE(ctx, HYPRE_StructVectorCreate(mg->comm, mg->sgrid, vecs[k]),
             "HYPRE_StructVectorCreate");
    SK_HYPRE(ctx, HYPRE_StructVectorInitialize(*vecs[k]), "HYPRE_StructVectorInitialize");
  }
  return SK_OK;
}

/* Grid (one part, ncomp cell variables), stencils, graph, matrix and
 * vectors of the SStruct interface (several components). */
static sk_status create_sstruct(sk__mg_impl *mg)
{
  sk_context *ctx = mg->ctx;
  const int dim = mg->dim > 1 ? mg->dim : 2, nc = mg->ncomp;
  SK_HYPRE(ctx, HYPRE_SStructGridCreate(mg->comm, dim, 1, &mg->grid), "HYPRE_SStructGridCreate");
  SK_HYPRE(ctx, HYPRE_SStructGridSetExtents(mg->grid, 0, mg->ilower, mg->iupper),
           "HYPRE_SStructGridSetExtents");
  HYPRE_SStructVariable types[SK_MG_MAX_COMP];
  for (int v = 0; v < nc; v++) {
    types[v] = HYPRE_SSTRUCT_VARIABLE_CELL;
  }
  SK_HYPRE(ctx, HYPRE_SStructGridSetVariables(mg->grid, 0, nc, types),
           "HYPRE_SStructGridSetVariables");
  SK_HYPRE(ctx, HYPRE_SStructGridAssemble(mg->grid), "HYPRE_SStructGridAssemble");
  SK_HYPRE(ctx, HYPRE_SStructGraphCreate(mg->comm, mg->grid, &mg->graph),
           "HYPRE_SStructGraphCreate");
  SK_HYPRE(ctx, HYPRE_SStructGraphSetObjectType(mg->graph, HYPRE_SSTRUCT),
           "HYPRE_SStructGraphSetObjectType");
  for (int v = 0; v < nc; v++) {
    SK_HYPRE(ctx, HYPRE_SStructStencilCreate(dim, mg->nent[v], &mg->stencil[v]),
             "HYPRE_SStructStencilCreate");
    for (int e = 0; e < mg->nent[v]; e++) {
      HYPRE_Int o[3] = {mg->offs[v][e][0], mg->offs[v][e][1], mg->offs[v][e][2]};
      SK_HYPRE(ctx, HYPRE_SStructStencilSetEntry(mg->stencil[v], e, o, mg->offs[v][e][3]),
               "HYPRE_SStructStencilSetEntry");
    }
    SK_HYPRE(ctx, HYPRE_SStructGraphSetStencil(mg->graph, 0, v, mg->stencil[v]),
             "HYPRE_SStructGraphSetStencil");
  }
  SK_HYPRE(ctx, HYPRE_SStructGraphAssemble(mg->graph), "HYPRE_SStructGraphAssemble");
  SK_HYPRE(ctx, HYPRE_SStructMatrixCreate(mg->comm, mg->graph, &mg->A),
           "HYPRE_SStructMatrixCreate");
  SK_HYPRE(ctx, HYPRE_SStructMatrixSetObjectType(mg->A, HYPRE_SSTRUCT),
           "HYPRE_SStructMatrixSetObjectType");
  SK_HYPRE(ctx, HYPRE_SStructMatrixInitialize(mg->A), "HYPRE_SStructMatrixInitialize");
  HYPRE_SStructVector *vecs[2] = {&mg->b, &mg->x};
  for (int k = 0; k < 2; k++) {
    SK_HYPRE(ctx, HYPRE_SStructVectorCreate(mg->comm, mg->grid, vecs[k]),
             "HYPRE_SStructVectorCreate");
    SK_HYPRE(ctx, HYPRE_SStructVectorSetObjectType(*vecs[k], HYPRE_SSTRUCT),
             "HYPRE_SStructVectorSetObjectType");
    SK_HYPRE(ctx, HYPRE_SStructVectorInitialize(*vecs[k]), "HYPRE_SStructVectorInitialize");
    /* assembled once here: hypre 2.26 cannot destroy a vector never assembled (an object
       created and destroyed without a solve) */
    SK_HYPRE(ctx, HYPRE_SStructVectorAssemble(*vecs[k]), "HYPRE_SStructVectorAssemble");
  }
  mg->buf = sk__malloc(ctx, (size_t)mg->npts * sizeof *mg->buf);
  SK_CHECK(ctx, mg->buf != NULL, SK_ERR_NOMEM, "cannot allocate the multigrid vectors");
  return SK_OK;
}

static sk_status check_args(sk_context *ctx, const sk__mg_box *box, const sk__mg_entries *src,
                            const sk__mg_params *p)
{
  SK_CHECK(ctx, box && src && (src->entry || src->count == 0) && src->count >= 0, SK_ERR_ARG,
           "sk__mg_create: NULL argument");
  SK_CHECK(ctx, box->dim >= 1 && box->dim <= 3 && box->ncomp >= 1, SK_ERR_ARG,
           "sk__mg_create: bad grid (dim %d, ncomp %d)", box->dim, box->ncomp);
  for (int d = 0; d < 3; d++) {
    SK_CHECK(ctx, box->cnt[d] >= 1 && box->lo[d] >= 0 && (d < box->dim || box->cnt[d] == 1),
             SK_ERR_ARG, "sk__mg_create: bad block along axis %d (first point %lld, %lld points)",
             d, (long long)box->lo[d], (long long)box->cnt[d]);
    SK_CHECK(ctx, box->lo[d] + box->cnt[d] - 1 <= INT_MAX, SK_ERR_TOO_LARGE,
             "linsol.preconditioner=mg: grid index %lld exceeds hypre's 32-bit indices",
             (long long)(box->lo[d] + box->cnt[d] - 1));
  }
  SK_CHECK(ctx, box->ncomp <= SK_MG_MAX_COMP, SK_ERR_UNSUPPORTED,
           "linsol.preconditioner=mg: %d components per grid point; the structured multigrid "
           "takes at most %d (use linsol.preconditioner=amg)",
           box->ncomp, SK_MG_MAX_COMP);
  const int64_t n = box->ncomp * box->cnt[0] * box->cnt[1] * box->cnt[2];
  SK_CHECK(ctx, n <= INT_MAX && src->count <= INT_MAX, SK_ERR_TOO_LARGE,
           "linsol.preconditioner=mg: n = %lld (%lld nonzeros) exceeds hypre's 32-bit indices",
           (long long)n, (long long)src->count);
  SK_CHECK(ctx, p->cycles >= 1, SK_ERR_ARG, "linsol.mg_cycles = %d: must be >= 1", p->cycles);
  SK_CHECK(ctx, box->ncomp == 1 || p->solver == SK__MG_PFMG, SK_ERR_UNSUPPORTED,
           "linsol.mg_solver=smg: SMG takes one component per grid point, the model has %d "
           "(use linsol.mg_solver=pfmg: SysPFMG)",
           box->ncomp);
  return SK_OK;
}

static sk_status mg_create(sk_context *ctx, const void *comm, const sk__mg_box *box,
                           const sk__mg_entries *src, const sk__mg_params *params,
                           sk__mg_impl **out)
{
  if (out) {
    *out = NULL;
  }
  SK_CHECK(ctx, ctx && out, SK_ERR_ARG, "sk__mg_create: NULL argument");
  sk__mg_params p;
  if (params) {
    p = *params;
  } else {
    sk__mg_params_default(&p);
  }
  SK_CALL(ctx, check_args(ctx, box, src, &p));
  SK_CALL(ctx, sk__hypre_ensure_mpi(ctx, "linsol.preconditioner=mg"));
  sk__mg_impl *mg = sk__calloc(ctx, 1, sizeof *mg);
  SK_CHECK(ctx, mg != NULL, SK_ERR_NOMEM, "cannot allocate the multigrid preconditioner");
  mg->ctx = ctx;
  mg->comm = comm ? *(const MPI_Comm *)comm : MPI_COMM_SELF;
  mg->params = p;
  if (mg->params.relax == SK__MG_RELAX_AUTO) {
    mg->params.relax = box->ncomp > 1 ? SK__MG_RELAX_WJACOBI : SK__MG_RELAX_RBGS;
  }
  mg->dim = box->dim;
  mg->ncomp = box->ncomp;
  mg->npts = box->cnt[0] * box->cnt[1] * box->cnt[2];
  for (int d = 0; d < 3; d++) {
    mg->ilower[d] = (HYPRE_Int)box->lo[d];
    mg->iupper[d] = (HYPRE_Int)(box->lo[d] + box->cnt[d] - 1);
  }
  sk_status st = build_stencil(mg, src);
  if (st == SK_OK) {
    /* hypre's matrix (with a ghost layer) and two vectors, twice over */
    const size_t bytes = 2 * 8 * (size_t)(mg->nvals + 4 * mg->npts * mg->ncomp);
    st = sk__hypre_check_room(ctx, bytes, "linsol.preconditioner=mg", "the multigrid matrix");
  }
  if (st == SK_OK) {
    HYPRE_ClearAllErrors();
    st = mg->ncomp == 1 ? create_struct(mg) : create_sstruct(mg);
  }
  if (st != SK_OK) {
    sk__error_push_frame(ctx, __func__, __FILE__, __LINE__);
    mg_destroy(&mg);
    return st;
  }
  *out = mg;
  return SK_OK;
}

static void destroy_solver(sk__mg_impl *mg)
{
  if (mg->ssolver) {
    if (mg->params.solver == SK__MG_SMG) {
      HYPRE_StructSMGDestroy(mg->ssolver);
    } else {
      HYPRE_StructPFMGDestroy(mg->ssolver);
    }
    mg->ssolver = NULL;
  }
  if (mg->solver) {
    HYPRE_SStructSysPFMGDestroy(mg->solver);
    mg->solver = NULL;
  }
  mg->ready = 0;
}

/* Address space a setup may take, per unknown: twice what was measured
 * (VmPeak across the first setup, 2D 700^2 and 1000^2, 3D 60^3 and 100^3,
 * the Brusselator's two components at 256^2): PFMG 81 (2D) and 97 (3D) bytes,
 * SysPFMG 148, SMG 186 (2D) and 711 (3D). */
static size_t setup_bytes(const sk__mg_impl *mg)
{
  const double unknowns = (double)mg->npts * (double)mg->ncomp;
  double per = 200.0;
  if (mg->ncomp > 1) {
    per = 300.0;
  } else if (mg->params.solver == SK__MG_SMG) {
    per = mg->dim > 2 ? 1500.0 : 400.0;
  }
  return (size_t)(per * unknowns) + ((size_t)1 << 20);
}

/* A new solver with the settings (cycles from a zero guess, no
 * convergence test, no output) and its setup on the assembled matrix. */
static sk_status setup_solver(sk__mg_impl *mg)
{
  sk_context *ctx = mg->ctx;
  const sk__mg_params *p = &mg->params;
  HYPRE_Int rc = 0;
  SK_CALL(ctx, sk__hypre_check_room(ctx, setup_bytes(mg), "linsol.preconditioner=mg",
                                    "the multigrid setup"));
  if (mg->ncomp > 1) {
    SK_HYPRE(ctx, HYPRE_SStructSysPFMGCreate(mg->comm, &mg->solver),
             "HYPRE_SStructSysPFMGCreate");
    HYPRE_SStructSysPFMGSetMaxIter(mg->solver, p->cycles);
    HYPRE_SStructSysPFMGSetTol(mg->solver, 0.0);
    HYPRE_SStructSysPFMGSetZeroGuess(mg->solver);
    HYPRE_SStructSysPFMGSetRelaxType(mg->solver, p->relax);
    HYPRE_SStructSysPFMGSetLogging(mg->solver, 0);
    HYPRE_SStructSysPFMGSetPrintLevel(mg->solver, 0);
    rc = HYPRE_GetError();
    if (rc == 0) {
      rc = HYPRE_SStructSysPFMGSetup(mg->solver, mg->A, mg->b, mg->x);
    }
  } else if (p->solver == SK__MG_SMG) {
    SK_HYPRE(ctx, HYPRE_StructSMGCreate(mg->comm, &mg->ssolver), "HYPRE_StructSMGCreate");
    HYPRE_StructSMGSetMaxIter(mg->ssolver, p->cycles);
    HYPRE_StructSMGSetTol(mg->ssolver, 0.0);
    HYPRE_StructSMGSetZeroGuess(mg->ssolver);
    HYPRE_StructSMGSetMemoryUse(mg->ssolver, 0);
    HYPRE_StructSMGSetLogging(mg->ssolver, 0);
    HYPRE_StructSMGSetPrintLevel(mg->ssolver, 0);
    rc = HYPRE_GetError();
    if (rc == 0) {
      rc = HYPRE_StructSMGSetup(mg->ssolver, mg->sA, mg->sb, mg->sx);
    }
  } else {
    SK_HYPRE(ctx, HYPRE_StructPFMGCreate(mg->comm, &mg->ssolver), "HYPRE_StructPFMGCreate");
    HYPRE_StructPFMGSetMaxIter(mg->ssolver, p->cycles);
    HYPRE_StructPFMGSetTol(mg->ssolver, 0.0);
    HYPRE_StructPFMGSetZeroGuess(mg->ssolver);
    HYPRE_StructPFMGSetRelaxType(mg->ssolver, p->relax);
    HYPRE_StructPFMGSetRAPType(mg->ssolver, 0); /* Galerkin coarse operators */
    HYPRE_StructPFMGSetLogging(mg->ssolver, 0);
    HYPRE_StructPFMGSetPrintLevel(mg->ssolver, 0);
    rc = HYPRE_GetError();
    if (rc == 0) {
      rc = HYPRE_StructPFMGSetup(mg->ssolver, mg->sA, mg->sb, mg->sx);
    }
  }
  if (rc) {
    destroy_solver(mg);
    char what[64];
    snprintf(what, sizeof what, "%s setup", solver_name(mg));
    return sk__hypre_failure(ctx, rc, __func__, __FILE__, __LINE__, what);
  }
  mg->ready = 1;
  return SK_OK;
}

static sk_status mg_setup(sk__mg_impl *mg, double gamma, const double *values)
{
  if (!mg || !values) {
    return SK_ERR_ARG;
  }
  sk_context *ctx = mg->ctx;
  const double t0 = now_seconds();
  destroy_solver(mg);
  memset(mg->vals, 0, (size_t)mg->nvals * sizeof *mg->vals);
  for (int64_t p = 0; p < mg->nnz; p++) { /* raw entries may repeat a coupling */
    mg->vals[mg->pos[p]] += -gamma * values[p];
  }
  const int64_t n = mg->npts * mg->ncomp;
  for (int64_t s = 0; s < n; s++) {
    mg->vals[mg->dpos[s]] += 1.0;
  }
  HYPRE_ClearAllErrors();
  if (mg->ncomp == 1) {
    SK_HYPRE(ctx,
             HYPRE_StructMatrixSetBoxValues(mg->sA, mg->ilower, mg->iupper, mg->nent[0],
                                            mg->entries, mg->vals),
             "HYPRE_StructMatrixSetBoxValues");
    SK_HYPRE(ctx, HYPRE_StructMatrixAssemble(mg->sA), "HYPRE_StructMatrixAssemble");
  } else {
    for (int v = 0; v < mg->ncomp; v++) {
      SK_HYPRE(ctx,
               HYPRE_SStructMatrixSetBoxValues(mg->A, 0, mg->ilower, mg->iupper, v, mg->nent[v],
                                               mg->entries, mg->vals + mg->vstart[v]),
               "HYPRE_SStructMatrixSetBoxValues");
    }
    SK_HYPRE(ctx, HYPRE_SStructMatrixAssemble(mg->A), "HYPRE_SStructMatrixAssemble");
  }
  SK_CALL(ctx, setup_solver(mg));
  mg->setups++;
  mg->setup_seconds += now_seconds() - t0;
  return SK_OK;
}

/* One component of the interleaved vector v into buf (gather) or back. */
static void gather(const sk__mg_impl *mg, const double *v, int c, double *buf)
{
  for (int64_t q = 0; q < mg->npts; q++) {
    buf[q] = v[q * mg->ncomp + c];
  }
}

static void scatter(const sk__mg_impl *mg, const double *buf, int c, double *v)
{
  for (int64_t q = 0; q < mg->npts; q++) {
    v[q * mg->ncomp + c] = buf[q];
  }
}

static sk_status mg_solve(sk__mg_impl *mg, const double *r, double *z)
{
  if (!mg || !r || !z) {
    return SK_ERR_ARG;
  }
  sk_context *ctx = mg->ctx;
  SK_CHECK(ctx, mg->ready, SK_ERR_STATE, "multigrid preconditioner solve before a setup");
  HYPRE_ClearAllErrors();
  HYPRE_Int rc;
  if (mg->ncomp == 1) {
    SK_HYPRE(ctx, HYPRE_StructVectorSetBoxValues(mg->sb, mg->ilower, mg->iupper, (double *)r),
             "HYPRE_StructVectorSetBoxValues");
    SK_HYPRE(ctx, HYPRE_StructVectorAssemble(mg->sb), "HYPRE_StructVectorAssemble");
    SK_HYPRE(ctx, HYPRE_StructVectorSetConstantValues(mg->sx, 0.0),
             "HYPRE_StructVectorSetConstantValues");
    rc = mg->params.solver == SK__MG_SMG
             ? HYPRE_StructSMGSolve(mg->ssolver, mg->sA, mg->sb, mg->sx)
             : HYPRE_StructPFMGSolve(mg->ssolver, mg->sA, mg->sb, mg->sx);
  } else {
    for (int c = 0; c < mg->ncomp; c++) {
      gather(mg, r, c, mg->buf);
      SK_HYPRE(ctx, HYPRE_SStructVectorSetBoxValues(mg->b, 0, mg->ilower, mg->iupper, c, mg->buf),
               "HYPRE_SStructVectorSetBoxValues");
    }
    memset(mg->buf, 0, (size_t)mg->npts * sizeof *mg->buf);
    for (int c = 0; c < mg->ncomp; c++) {
      SK_HYPRE(ctx, HYPRE_SStructVectorSetBoxValues(mg->x, 0, mg->ilower, mg->iupper, c, mg->buf),
               "HYPRE_SStructVectorSetBoxValues");
    }
    SK_HYPRE(ctx, HYPRE_SStructVectorAssemble(mg->b), "HYPRE_SStructVectorAssemble");
    SK_HYPRE(ctx, HYPRE_SStructVectorAssemble(mg->x), "HYPRE_SStructVectorAssemble");
    rc = HYPRE_SStructSysPFMGSolve(mg->solver, mg->A, mg->b, mg->x);
  }
  /* with a cycle count and tolerance 0 the solvers never converge "early";
   * any bit other than HYPRE_ERROR_CONV is a failure */
  if (rc & ~(HYPRE_Int)HYPRE_ERROR_CONV) {
    char what[64];
    snprintf(what, sizeof what, "%s solve", solver_name(mg));
    return sk__hypre_failure(ctx, rc, __func__, __FILE__, __LINE__, what);
  }
  HYPRE_ClearAllErrors();
  if (mg->ncomp == 1) {
    SK_HYPRE(ctx, HYPRE_StructVectorGetBoxValues(mg->sx, mg->ilower, mg->iupper, z),
             "HYPRE_StructVectorGetBoxValues");
  } else {
    SK_HYPRE(ctx, HYPRE_SStructVectorGather(mg->x), "HYPRE_SStructVectorGather");
    for (int c = 0; c < mg->ncomp; c++) {
      SK_HYPRE(ctx, HYPRE_SStructVectorGetBoxValues(mg->x, 0, mg->ilower, mg->iupper, c, mg->buf),
               "HYPRE_SStructVectorGetBoxValues");
      scatter(mg, mg->buf, c, z);
    }
  }
  return SK_OK;
}

static void mg_get_info(const sk__mg_impl *mg, sk__mg_info *info)
{
  memset(info, 0, sizeof *info);
  if (!mg) {
    return;
  }
  info->setups = mg->setups;
  info->setup_seconds = mg->setup_seconds;
  for (int v = 0; v < mg->ncomp; v++) {
    info->stencil = mg->nent[v] > info->stencil ? mg->nent[v] : info->stencil;
  }
  info->solver = solver_name(mg);
}

static void mg_destroy(sk__mg_impl **mg)
{
  if (!mg || !*mg) {
    return;
  }
  sk__mg_impl *m = *mg;
  destroy_solver(m);
  if (m->sA) {
    HYPRE_StructMatrixDestroy(m->sA);
  }
  if (m->sb) {
    HYPRE_StructVectorDestroy(m->sb);
  }
  if (m->sx) {
    HYPRE_StructVectorDestroy(m->sx);
  }
  if (m->sstencil) {
    HYPRE_StructStencilDestroy(m->sstencil);
  }
  if (m->sgrid) {
    HYPRE_StructGridDestroy(m->sgrid);
  }
  if (m->A) {
    HYPRE_SStructMatrixDestroy(m->A);
  }
  if (m->b) {
    HYPRE_SStructVectorDestroy(m->b);
  }
  if (m->x) {
    HYPRE_SStructVectorDestroy(m->x);
  }
  if (m->graph) {
    HYPRE_SStructGraphDestroy(m->graph);
  }
  for (int v = 0; v < SK_MG_MAX_COMP; v++) {
    if (m->stencil[v]) {
      HYPRE_SStructStencilDestroy(m->stencil[v]);
    }
  }
  if (m->grid) {
    HYPRE_SStructGridDestroy(m->grid);
  }
  HYPRE_ClearAllErrors();
  sk_context *ctx = m->ctx;
  sk__free(ctx, m->vals);
  sk__free(ctx, m->pos);
  sk__free(ctx, m->dpos);
  sk__free(ctx, m->buf);
  sk__free(ctx, m);
  *mg = NULL;
}

__attribute__((visibility("default"))) const sk__mg_module sk__mg_hypre_module = {
    .head = {SK__MG_MODULE_ABI, sizeof(sk__mg_module)},
    .create = mg_create,
    .setup = mg_setup,
    .solve = mg_solve,
    .get_info = mg_get_info,
    .destroy = mg_destroy,
};

/* src/linsol/linsol_types.c: the linear-solver and preconditioner registries (linsol/linsol_types.h), built from their one list each, and the types an application registers at run time */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <sunlinsol/sunlinsol_pcg.h>
#include <sunlinsol/sunlinsol_spbcgs.h>
#include <sunlinsol/sunlinsol_spfgmr.h>
#include <sunlinsol/sunlinsol_spgmr.h>
#include <sunlinsol/sunlinsol_sptfqmr.h>

#include "core/context_impl.h"
#include "core/error.h"
#include "stiffkit/plugin.h"
#include "linsol/linsol_types.h"
#include "linsol/mg_struct.h"

#define SK__LINSOL_ENTRY(name, kind, engines, krylov) {{#name, engines}, kind, krylov},
static const sk__linsol_type linsol_types[] = {SK__LINSOL_TYPES(SK__LINSOL_ENTRY)};

#define SK__PREC_ENTRY(name, engines, needs) {{#name, engines}, needs},
static const sk__prec_type prec_types[] = {SK__PREC_TYPES(SK__PREC_ENTRY)};

#define SK__COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* The entry named `name` of a registry (`count` entries, `stride` bytes apart, each starting
 * with its sk__linsol_entry), NULL if none. */
static const void *find(const void *base, size_t count, size_t stride, const char *name)
{
  for (size_t i = 0; name && i < count; i++) {
    const sk__linsol_entry *e = (const void *)((const char *)base + i * stride);
    if (!strcmp(e->name, name)) {
      return e;
    }
  }
  return NULL;
}

/* The names of the entries that have one of `engines`, joined by ", " into buf. */
static void join_names(const void *base, size_t count, size_t stride, unsigned engines, char *buf,
                       size_t len)
{
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < count && used < len; i++) {
    const sk__linsol_entry *e = (const void *)((const char *)base + i * stride);
    if (e->engines & engines) {
      const int w = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", e->name);
      used += w > 0 ? (size_t)w : 0;
    }
  }
}

const sk__linsol_type *sk__linsol_type_find(const char *name)
{
  return find(linsol_types, SK__COUNT(linsol_types), sizeof linsol_types[0], name);
}

const sk__prec_type *sk__prec_type_find(const char *name)
{
  return find(prec_types, SK__COUNT(prec_types), sizeof prec_types[0], name);
}

unsigned sk__prec_needs(const char *name)
{
  const sk__prec_type *t = sk__prec_type_find(name);
  return t ? t->needs : 0u;
}

void sk__prec_applicable(unsigned engines, unsigned has, char *buf, size_t len)
{
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < SK__COUNT(prec_types) && used < len; i++) {
    const sk__prec_type *t = &prec_types[i];
    if ((t->id.engines & engines) && (t->needs & ~has) == 0u) {
      const int w = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", t->id.name);
      used += w > 0 ? (size_t)w : 0;
    }
  }
}

/* The rows of the auto rule (SK__PREC_AUTO). */
#define SK__PREC_AUTO_ROW(name, engines, needs, min_n, min_dim, strong) \
  {#name, engines, needs, min_n, min_dim, strong},
static const struct {
  const char *name;
  unsigned engines, needs;
  int64_t min_n;
  int min_dim, strong;
} prec_auto[] = {SK__PREC_AUTO(SK__PREC_AUTO_ROW)};

/* Whether this build has preconditioner `name` (mg: hypre's Struct interface). */
static int available(const char *name)
{
  return strcmp(name, "mg") != 0 || sk__mg_available() == NULL;
}

const char *sk__prec_auto(unsigned engine, const sk__prec_model *m, int *strong)
{
  for (size_t i = 0; i < SK__COUNT(prec_auto); i++) {
    if ((prec_auto[i].engines & engine) && (prec_auto[i].needs & ~m->has) == 0u &&
        m->n >= prec_auto[i].min_n && m->dim >= prec_auto[i].min_dim &&
        available(prec_auto[i].name)) {
      if (strong) {
        *strong = prec_auto[i].strong;
      }
      return prec_auto[i].name;
    }
  }
  if (strong) {
    *strong = 0;
  }
  return "none";
}

/* What each need asks of the model, and how a model lacks it. */
static const struct {
  unsigned need;
  const char *what, *lack;
} need_texts[] = {
    {SK__PREC_NEEDS_MODEL, "the model's own preconditioner", "provides no preconditioner"},
    {SK__PREC_NEEDS_GRID, "a model on a structured grid (the diffusion models, the Brusselator)",
     "has none"},
    {SK__PREC_NEEDS_VALUES, "the model's sparse Jacobian (pattern and values)", "has none"},
    {SK__PREC_NEEDS_PATTERN,
     "the model's Jacobian pattern (its bandwidths size the band block; solver.detect_pattern=on "
     "finds one)",
     "has none"},
};

sk_status sk__prec_check_needs(sk_context *ctx, const char *name, unsigned engines, unsigned has,
                               const char *model)
{
  const unsigned unmet = sk__prec_needs(name) & ~has;
  for (size_t i = 0; unmet && i < SK__COUNT(need_texts); i++) {
    if (unmet & need_texts[i].need) {
      char apply[160];
      sk__prec_applicable(engines, has, apply, sizeof apply);
      return SK_ERROR(ctx, SK_ERR_UNSUPPORTED,
                      "linsol.preconditioner=%s needs %s; model '%s' %s, the preconditioners "
                      "that apply to it: %s",
                      name, need_texts[i].what, model, need_texts[i].lack, apply);
    }
  }
  return SK_OK;
}

int sk__linsol_is(const sk_context *ctx, const char *name, sk__ls_kind kind)
{
  const sk__linsol_type *t = sk__linsol_type_find(name);
  if (t) {
    return t->kind == kind;
  }
  const sk_linear_solver_type *u = sk_linear_solver_type_find(ctx, name);
  return u && kind == (u->kind == SK_LINSOL_ITERATIVE ? SK__LS_KRYLOV : SK__LS_SPARSE);
}

/* The name of a registered type: every type table starts with its name. */
static const char *type_name(const void *type)
{
  return *(const char *const *)type;
}

/* The registered types of a context's table (n of them) that an engine of `engines`
 * takes (those of `takes`), appended to the names in buf. */
static void append_registered(const void *const *types, size_t n, unsigned engines,
                              unsigned takes, char *buf, size_t len)
{
  for (size_t i = 0; (engines & takes) && i < n; i++) {
    const size_t used = strlen(buf);
    snprintf(buf + used, len - used, "%s%s", used ? ", " : "", type_name(types[i]));
  }
}

/* The registered type named `name` in a context's table, NULL if none. */
static const void *find_registered(const void *const *types, size_t n, const char *name)
{
  for (size_t i = 0; name && i < n; i++) {
    if (strcmp(type_name(types[i]), name) == 0) {
      return types[i];
    }
  }
  return NULL;
}

void sk__linsol_names(const sk_context *ctx, unsigned engines, char *buf, size_t len)
{
  join_names(linsol_types, SK__COUNT(linsol_types), sizeof linsol_types[0], engines, buf, len);
  if (ctx) {
    append_registered((const void *const *)ctx->user_linsols, ctx->n_user_linsols, engines,
                      SK__USER_LINSOL_ENGINES, buf, len);
  }
}

void sk__prec_names(const sk_context *ctx, unsigned engines, char *buf, size_t len)
{
  join_names(prec_types, SK__COUNT(prec_types), sizeof prec_types[0], engines, buf, len);
  if (ctx) {
    append_registered((const void *const *)ctx->user_precs, ctx->n_user_precs, engines,
                      SK__USER_PREC_ENGINES, buf, len);
  }
}

int sk__linsol_accepts(const sk_context *ctx, const char *name, unsigned engines, char *buf,
                       size_t len)
{
  sk__linsol_names(ctx, engines, buf, len);
  const sk__linsol_type *t = sk__linsol_type_find(name);
  return (name && !strcmp(name, "auto")) || (t && (t->id.engines & engines)) ||
         ((engines & SK__USER_LINSOL_ENGINES) && sk_linear_solver_type_find(ctx, name));
}

int sk__prec_accepts(const sk_context *ctx, const char *name, unsigned engines, char *buf,
                     size_t len)
{
  sk__prec_names(ctx, engines, buf, len);
  const sk__prec_type *t = sk__prec_type_find(name);
  return (name && !strcmp(name, "auto")) || (t && (t->id.engines & engines)) ||
         ((engines & SK__USER_PREC_ENGINES) && sk_preconditioner_type_find(ctx, name));
}

/* the orderings after "auto|" */
static const char *orderings(void)
{
  static const char choices[] = SK__ORDERING_CHOICES;
  return &choices[sizeof "auto|" - 1];
}

int sk__ordering_known(const char *name)
{
  const size_t n = name ? strlen(name) : 0;
  for (const char *p = orderings(); n > 0 && *p; p += strcspn(p, "|"), p += *p == '|') {
    if (strcspn(p, "|") == n && !strncmp(p, name, n)) {
      return 1;
    }
  }
  return 0;
}

void sk__ordering_names(char *buf, size_t len)
{
  size_t used = 0;
  buf[0] = '\0';
  for (const char *p = orderings(); *p && used < len; p += strcspn(p, "|"), p += *p == '|') {
    const int w =
        snprintf(buf + used, len - used, "%s%.*s", used ? ", " : "", (int)strcspn(p, "|"), p);
    used += w > 0 ? (size_t)w : 0;
  }
}

/* ---- the types registered at run time (stiffkit/preconditioner.h, stiffkit/linear_solver.h) */

const sk_preconditioner_type *sk_preconditioner_type_find(const sk_context *ctx, const char *name)
{
  return ctx ? find_registered((const void *const *)ctx->user_precs, ctx->n_user_precs, name)
             : NULL;
}

const sk_linear_solver_type *sk_linear_solver_type_find(const sk_context *ctx, const char *name)
{
  return ctx ? find_registered((const void *const *)ctx->user_linsols, ctx->n_user_linsols, name)
             : NULL;
}

/* What every registration checks: the table's ops, its name's length, that
 * no entry of its kind (`taken`) has the name, and room in the table. */
static sk_status check_new_type(sk_context *ctx, const char *what, const char *name,
                                const char *ops, int has_ops, size_t max_name, int taken,
                                size_t count, size_t limit)
{
  SK_CHECK(ctx, name && name[0] && has_ops, SK_ERR_ARG,
           "registering a %s type: the table needs a name and %s", what, ops);
  SK_CHECK(ctx, strlen(name) <= max_name, SK_ERR_ARG,
           "%s type name '%s' is longer than %zu characters", what, name, max_name);
  SK_CHECK(ctx, strcmp(name, "auto") && !taken, SK_ERR_ARG, "a %s named '%s' already exists",
           what, name);
  SK_CHECK(ctx, count < limit, SK_ERR_ARG, "too many registered %s types (limit %zu)", what,
           limit);
  return SK_OK;
}

sk_status sk_preconditioner_type_register(sk_context *ctx, const sk_preconditioner_type *type)
{
  if (!ctx) {
    return SK_ERR_ARG;
  }
  const char *name = type ? type->name : NULL;
  SK_CALL(ctx, check_new_type(
                   ctx, "preconditioner", name, "setup and solve",
                   type && type->setup && type->solve, SK_PREC_NAME_MAX,
                   name && (sk__prec_type_find(name) || sk_preconditioner_type_find(ctx, name)),
                   ctx->n_user_precs, SK_MAX_USER_PRECS));
  ctx->user_precs[ctx->n_user_precs++] = type;
  return SK_OK;
}

sk_status sk_linear_solver_type_register(sk_context *ctx, const sk_linear_solver_type *type)
{
  if (!ctx) {
    return SK_ERR_ARG;
  }
  SK_CHECK(ctx, ctx->n_user_linsols < SK_MAX_USER_LINSOLS, SK_ERR_ARG,
           "too many registered linear solver types (limit %d)", SK_MAX_USER_LINSOLS);
  if (type && ctx->registering_abi > 0 && ctx->registering_abi < SK_PLUGIN_ABI_LINSOL_KIND) {
    /* a plugin built before the iterative kind: its table ends at destroy (a direct type) */
    sk_linear_solver_type *copy = &ctx->user_linsol_copies[ctx->n_user_linsols];
    memset(copy, 0, sizeof *copy);
    memcpy(copy, type, offsetof(sk_linear_solver_type, kind));
    type = copy;
  }
  const char *name = type ? type->name : NULL;
  SK_CHECK(ctx, !type || type->kind == SK_LINSOL_DIRECT || type->kind == SK_LINSOL_ITERATIVE,
           SK_ERR_ARG,
           "linear solver type '%s': kind %d is neither SK_LINSOL_DIRECT nor "
           "SK_LINSOL_ITERATIVE",
           name ? name : "", (int)type->kind);
  const int iterative = type && type->kind == SK_LINSOL_ITERATIVE;
  const int has_ops = type && (iterative ? type->iterate != NULL && !type->setup && !type->solve
                                         : type->setup && type->solve);
  SK_CALL(ctx, check_new_type(
                   ctx, "linear solver", name,
                   iterative ? "iterate (and no setup or solve: an iterative type's are unused)"
                             : "setup and solve",
                   has_ops, SK_LINSOL_NAME_MAX,
                   name && (sk__linsol_type_find(name) || sk_linear_solver_type_find(ctx, name)),
                   ctx->n_user_linsols, SK_MAX_USER_LINSOLS));
  ctx->user_linsols[ctx->n_user_linsols++] = type;
  return SK_OK;
}

sk_status sk__linsol_check_name(sk_context *ctx, const char *name)
{
  char names[512];
  SK_CHECK(ctx, sk__linsol_accepts(ctx, name, ~0u, names, sizeof names), SK_ERR_ARG,
           "unknown linear solver '%s'; valid: auto, %s", name ? name : "", names);
  return SK_OK;
}

sk_status sk__prec_check_name(sk_context *ctx, const char *name)
{
  char names[512];
  SK_CHECK(ctx, sk__prec_accepts(ctx, name, ~0u, names, sizeof names), SK_ERR_ARG,
           "unknown preconditioner '%s'; valid: auto, %s", name ? name : "", names);
  return SK_OK;
}

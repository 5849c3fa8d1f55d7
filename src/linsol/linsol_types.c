/* src/linsol/linsol_types.c: the linear-solver and preconditioner registries (linsol/linsol_types.h), built from their one list each */
#include <stdio.h>
#include <string.h>

#include <sunlinsol/sunlinsol_pcg.h>
#include <sunlinsol/sunlinsol_spbcgs.h>
#include <sunlinsol/sunlinsol_spfgmr.h>
#include <sunlinsol/sunlinsol_spgmr.h>
#include <sunlinsol/sunlinsol_sptfqmr.h>

#include "core/error.h"
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

int sk__linsol_is(const char *name, sk__ls_kind kind)
{
  const sk__linsol_type *t = sk__linsol_type_find(name);
  return t && t->kind == kind;
}

void sk__linsol_names(unsigned engines, char *buf, size_t len)
{
  join_names(linsol_types, SK__COUNT(linsol_types), sizeof linsol_types[0], engines, buf, len);
}

void sk__prec_names(unsigned engines, char *buf, size_t len)
{
  join_names(prec_types, SK__COUNT(prec_types), sizeof prec_types[0], engines, buf, len);
}

int sk__linsol_accepts(const char *name, unsigned engines, char *buf, size_t len)
{
  sk__linsol_names(engines, buf, len);
  const sk__linsol_type *t = sk__linsol_type_find(name);
  return (name && !strcmp(name, "auto")) || (t && (t->id.engines & engines));
}

int sk__prec_accepts(const char *name, unsigned engines, char *buf, size_t len)
{
  sk__prec_names(engines, buf, len);
  const sk__prec_type *t = sk__prec_type_find(name);
  return (name && !strcmp(name, "auto")) || (t && (t->id.engines & engines));
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

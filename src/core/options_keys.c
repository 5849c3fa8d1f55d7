/* src/core/options_keys.c: the options database's key table: lookup, key and section names, origins, and unknown-key errors with the nearest key */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/options_impl.h"

/* "cfg.yaml:3:5: " or "--set: " */
void sk__options_origin_prefix(const sk_option_origin *o, strbuf *b)
{
  if (o && o->file) {
    if (o->line > 0 && o->column > 0) {
      sb_printf(b, "%s:%d:%d: ", o->file, o->line, o->column);
    } else if (o->line > 0) {
      sb_printf(b, "%s:%d: ", o->file, o->line);
    } else {
      sb_printf(b, "%s: ", o->file);
    }
  } else {
    sb_add(b, "--set: ");
  }
}

void sk__options_origin_text(const sk_option_origin *o, char *buf, size_t len)
{
  strbuf b;
  sb_init(&b, buf, len);
  sk__options_origin_prefix(o, &b);
}

static opt_entry *find_entry(const sk_options *opts, const char *key)
{
  return sk__options_index_find(opts, key);
}

/* Retired key prefixes and the ones that replaced them: a config written for an earlier
 * release still reads (the multibody keys were mbs.* until the family took one name). */
static const struct {
  const char *old, *now;
} retired_prefixes[] = {{"mbs.", "multibody."}};

const char *sk_options_current_key(const char *key, char *buf, size_t cap)
{
  for (size_t i = 0; key && i < sizeof retired_prefixes / sizeof retired_prefixes[0]; i++) {
    const size_t n = strlen(retired_prefixes[i].old);
    if (strncmp(key, retired_prefixes[i].old, n) == 0 &&
        (size_t)snprintf(buf, cap, "%s%s", retired_prefixes[i].now, key + n) < cap) {
      return buf;
    }
  }
  return key;
}

opt_entry *sk__options_find(const sk_options *opts, const char *key)
{
  char buf[SK__OPTIONS_KEY_MAX];
  return find_entry(opts, sk_options_current_key(key, buf, sizeof buf));
}

/* 1 when `key` starts with prefix[0..plen) followed by a dot. */
static int in_section(const char *key, const char *prefix, size_t plen)
{
  return strncmp(key, prefix, plen) == 0 && key[plen] == '.';
}

static int is_section_n(const sk_options *opts, const char *prefix, size_t plen)
{
  if (plen == 0) {
    return 0;
  }
  for (size_t i = 0; i < opts->n; i++) {
    if (in_section(opts->entries[i].spec->key, prefix, plen)) {
      return 1;
    }
  }
  return 0;
}

/* Levenshtein distance of a[0..na) and b[0..nb) when it is at most bound,
 * bound + 1 otherwise (and for strings longer than OPT_LEV_MAX). Only the band
 * |i - j| <= bound of the table is computed (a cell outside it is over bound),
 * and a length difference over bound, or a row whose every cell is over it,
 * ends the computation early: the distance is at least either. */
static size_t edit_distance_within(const char *a, size_t na, const char *b, size_t nb,
                                   size_t bound)
{
  size_t row0[OPT_LEV_MAX + 2], row1[OPT_LEV_MAX + 2];
  if (na > OPT_LEV_MAX || nb > OPT_LEV_MAX || (na > nb ? na - nb : nb - na) > bound) {
    return bound + 1;
  }
  const size_t over = bound + 1;
  size_t *prev = row0, *cur = row1;
  for (size_t j = 0; j <= nb + 1; j++) {
    prev[j] = j <= bound ? j : over;
  }
  for (size_t i = 1; i <= na; i++) {
    const size_t lo = i > bound ? i - bound : 1;
    const size_t hi = i + bound < nb ? i + bound : nb;
    cur[lo - 1] = lo == 1 && i <= bound ? i : over;
    cur[hi + 1] = over; /* the next row reads one cell past this band */
    size_t row_min = cur[lo - 1];
    for (size_t j = lo; j <= hi; j++) {
      size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
      size_t del = prev[j] + 1;
      size_t ins = cur[j - 1] + 1;
      size_t m = sub < del ? sub : del;
      cur[j] = m < ins ? m : ins;
      row_min = cur[j] < row_min ? cur[j] : row_min;
    }
    if (row_min > bound) {
      return over;
    }
    size_t *t = prev;
    prev = cur;
    cur = t;
  }
  return prev[nb] <= bound ? prev[nb] : over;
}

/* Append "name" to a comma list, respecting the message budget. */
static int list_add(strbuf *b, size_t start, int *first, const char *name, size_t n)
{
  if (b->len - start + n + 2 > OPT_MSG_LIST_MAX) {
    sb_add(b, ", ...");
    return 0;
  }
  if (!*first) {
    sb_add(b, ", ");
  }
  sb_addn(b, name, n);
  *first = 0;
  return 1;
}

/* "keys in 'solver': rtol, atol" body: the keys of section prefix[0..plen). */
static void list_section(const sk_options *opts, const char *prefix, size_t plen, strbuf *b)
{
  size_t start = b->len;
  int first = 1;
  for (size_t i = 0; i < opts->n; i++) {
    const char *k = opts->entries[i].spec->key;
    if (in_section(k, prefix, plen)) {
      if (!list_add(b, start, &first, k + plen + 1, strlen(k + plen + 1))) {
        return;
      }
    }
  }
}

/* The first dotted component of key i (len bytes) was already seen in keys < i. */
static int first_component_seen(const sk_options *opts, size_t i, size_t len)
{
  const char *k = opts->entries[i].spec->key;
  /* a table's keys come together, so mostly key i - 1 answers at once */
  if (i > 0 && strncmp(opts->entries[i - 1].spec->key, k, len) == 0 &&
      strcspn(opts->entries[i - 1].spec->key, ".") == len) {
    return 1;
  }
  for (size_t j = 0; j < i; j++) {
    const char *o = opts->entries[j].spec->key;
    size_t olen = strcspn(o, ".");
    if (olen == len && strncmp(o, k, len) == 0) {
      return 1;
    }
  }
  return 0;
}

/* "valid sections: a, b; valid top-level keys: x" */
static void list_top_level(const sk_options *opts, strbuf *b)
{
  if (opts->n == 0) {
    sb_add(b, "no keys are registered");
    return;
  }
  int wrote = 0;
  for (int pass = 0; pass < 2; pass++) {
    size_t start = 0;
    int first = 1;
    for (size_t i = 0; i < opts->n; i++) {
      const char *k = opts->entries[i].spec->key;
      size_t len = strcspn(k, ".");
      int is_sec = k[len] == '.';
      if ((pass == 0) != is_sec || first_component_seen(opts, i, len)) {
        continue;
      }
      if (first) {
        if (wrote) {
          sb_add(b, "; ");
        }
        sb_add(b, pass == 0 ? "valid sections: " : "valid top-level keys: ");
        start = b->len;
        wrote = 1;
      }
      if (!list_add(b, start, &first, k, len)) {
        break;
      }
    }
  }
}

/* Record SK_ERR_UNKNOWN_KEY with suggestion and the keys of the nearest section. */
sk_status sk__options_unknown_key_error(const sk_options *opts, const char *key,
                                        const sk_option_origin *origin)
{
  char msg[SK_ERROR_MSG_LEN];
  strbuf b;
  sb_init(&b, msg, sizeof msg);
  sk__options_origin_prefix(origin, &b);
  sb_add(&b, "unknown key ");
  sb_add_value(&b, key);

  /* nearest key by edit distance; a section wins only when strictly closer */
  size_t klen = strlen(key);
  size_t limit = klen / 3 > 2 ? klen / 3 : 2;
  /* Only a distance within limit is suggested, so each candidate is measured only as far as
   * it could still win (strictly closer than the best so far, and within limit); the first
   * key or section at the smallest distance wins, as with exact distances. */
  size_t best = limit + 1, best_sec = limit + 1;
  const char *best_key = NULL, *best_sec_key = NULL;
  size_t best_sec_len = 0;
  for (size_t i = 0; i < opts->n; i++) {
    const char *k = opts->entries[i].spec->key;
    size_t d = best > 0 ? edit_distance_within(key, klen, k, strlen(k), best - 1) : 1;
    if (d < best) {
      best = d;
      best_key = k;
    }
    const char *prev = i > 0 ? opts->entries[i - 1].spec->key : "";
    for (const char *dot = strchr(k, '.'); dot && best_sec > 0; dot = strchr(dot + 1, '.')) {
      size_t plen = (size_t)(dot - k);
      if (strncmp(prev, k, plen + 1) == 0) {
        continue; /* the section of key i - 1 too: measured already */
      }
      d = edit_distance_within(key, klen, k, plen, best_sec - 1);
      if (d < best_sec) {
        best_sec = d;
        best_sec_key = k;
        best_sec_len = plen;
      }
    }
  }
  if (best_sec < best && best_sec <= limit && best_sec_key) {
    sb_add(&b, "; did you mean '");
    sb_addn(&b, best_sec_key, best_sec_len);
    sb_add(&b, "'? ");
  } else if (best <= limit && best_key) {
    sb_add(&b, "; did you mean '");
    sb_add(&b, best_key);
    sb_add(&b, "'? ");
  } else {
    sb_add(&b, "; ");
  }

  /* the keys of the nearest enclosing section, else the top level */
  size_t plen = klen;
  int found = 0;
  while (plen > 0) {
    while (plen > 0 && key[plen - 1] != '.') {
      plen--;
    }
    if (plen == 0) {
      break;
    }
    plen--; /* drop the dot */
    if (is_section_n(opts, key, plen)) {
      found = 1;
      break;
    }
  }
  if (found) {
    sb_add(&b, "valid keys in '");
    sb_addn(&b, key, plen);
    sb_add(&b, "': ");
    list_section(opts, key, plen, &b);
  } else {
    list_top_level(opts, &b);
  }
  return SK_ERROR(opts->ctx, SK_ERR_UNKNOWN_KEY, "%s", msg);
}

/* Record SK_ERR_INPUT for a value given to a section name. */
static sk_status section_error(const sk_options *opts, const char *key, const char *got,
                               const sk_option_origin *origin)
{
  char msg[SK_ERROR_MSG_LEN];
  strbuf b;
  sb_init(&b, msg, sizeof msg);
  sk__options_origin_prefix(origin, &b);
  sb_printf(&b, "%s: is a section, not a key (its keys: ", key);
  list_section(opts, key, strlen(key), &b);
  sb_add(&b, "); got ");
  if (got) {
    sb_add_value(&b, got);
  } else {
    sb_add(&b, "a list");
  }
  return SK_ERROR(opts->ctx, SK_ERR_INPUT, "%s", msg);
}

/* Resolve `key` for a set: the entry, or a recorded error. */
sk_status sk__options_lookup_for_set(const sk_options *opts, const char *key, const char *got,
                                     const sk_option_origin *origin, opt_entry **e)
{
  *e = find_entry(opts, key);
  if (*e) {
    return SK_OK;
  }
  if (is_section_n(opts, key, strlen(key))) {
    return section_error(opts, key, got, origin);
  }
  return sk__options_unknown_key_error(opts, key, origin);
}

/* Keys: names of [A-Za-z0-9_-] joined by single dots. */
int sk__options_valid_key(const char *k)
{
  if (!k || !*k) {
    return 0;
  }
  int at_start = 1;
  for (const char *p = k; *p; p++) {
    char c = *p;
    if (c == '.') {
      if (at_start) {
        return 0;
      }
      at_start = 1;
      continue;
    }
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
          c == '_' || c == '-')) {
      return 0;
    }
    at_start = 0;
  }
  return !at_start;
}

int sk_options_is_key(const sk_options *opts, const char *key)
{
  return opts && key && sk__options_find(opts, key) != NULL;
}

int sk_options_is_section(const sk_options *opts, const char *prefix)
{
  if (!opts || !prefix) {
    return 0;
  }
  /* a retired section name ("mbs") is its present one: rewrite "prefix." and drop the dot */
  char dotted[SK__OPTIONS_KEY_MAX], buf[SK__OPTIONS_KEY_MAX];
  if ((size_t)snprintf(dotted, sizeof dotted, "%s.", prefix) < sizeof dotted) {
    const char *now = sk_options_current_key(dotted, buf, sizeof buf);
    if (now != dotted) {
      buf[strlen(buf) - 1] = '\0';
      prefix = buf;
    }
  }
  const size_t plen = strlen(prefix);
  for (size_t i = 0; i < opts->ndeferred; i++) {
    const char *d = opts->deferred[i];
    if (strcmp(d, prefix) == 0 || in_section(d, prefix, plen)) {
      return 1;
    }
  }
  return is_section_n(opts, prefix, plen);
}

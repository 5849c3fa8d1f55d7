/* tests/unit/test_options_index.c: options database with many keys: the key index (lookups, duplicates, a failed table) and the unknown-key suggestion against exact edit distances */
#include <stdint.h>

#include "core/options_impl.h"
#include "test.h"

#define NSEC 24 /* sections */
#define NPER 40 /* keys per section */
#define NKEYS (NSEC * NPER)
#define KEYLEN 32

static char key_text[NKEYS][KEYLEN];
static sk_option_spec big[NKEYS];

/* Section s, key j: "sec07.tol_12"-like names, every table in its own
 * section; nearby names differ by one or two characters, so a typo has
 * several candidates at small distances and the first one must win. */
static void make_table(void)
{
  static const char *const stems[] = {"tol", "max", "rate", "step", "order"};
  for (int s = 0; s < NSEC; s++) {
    for (int j = 0; j < NPER; j++) {
      const int i = s * NPER + j;
      snprintf(key_text[i], KEYLEN, "sec%02d.%s_%d", s, stems[j % 5], j);
      big[i] = (sk_option_spec){key_text[i], SK_OPT_INT, "0", 0, 0, NULL, "a key"};
    }
  }
}

/* Reference Levenshtein distance: the full table, no bound. */
static size_t lev(const char *a, const char *b)
{
  const size_t na = strlen(a), nb = strlen(b);
  size_t d[64][64];
  for (size_t i = 0; i <= na; i++) {
    for (size_t j = 0; j <= nb; j++) {
      if (i == 0 || j == 0) {
        d[i][j] = i + j;
        continue;
      }
      size_t v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
      v = d[i - 1][j] + 1 < v ? d[i - 1][j] + 1 : v;
      v = d[i][j - 1] + 1 < v ? d[i][j - 1] + 1 : v;
      d[i][j] = v;
    }
  }
  return d[na][nb];
}

/* The suggestion the documented rule gives for key, from exact distances:
 * the first key at the smallest distance, or the first section when it is
 * strictly closer, if within max(2, len / 3); "" for none. */
static void expected_suggestion(const char *key, char *out, size_t cap)
{
  const size_t limit = strlen(key) / 3 > 2 ? strlen(key) / 3 : 2;
  size_t best = SIZE_MAX, best_sec = SIZE_MAX;
  const char *bk = NULL, *bs = NULL;
  for (int i = 0; i < NKEYS; i++) {
    const size_t d = lev(key, key_text[i]);
    if (d < best) {
      best = d;
      bk = key_text[i];
    }
    char sec[KEYLEN];
    snprintf(sec, sizeof sec, "%.*s", (int)strcspn(key_text[i], "."), key_text[i]);
    const size_t ds = lev(key, sec);
    if (ds < best_sec) {
      best_sec = ds;
      bs = key_text[i];
    }
  }
  out[0] = '\0';
  if (best_sec < best && best_sec <= limit) {
    snprintf(out, cap, "%.*s", (int)strcspn(bs, "."), bs);
  } else if (best <= limit) {
    snprintf(out, cap, "%.31s", bk);
  }
}

/* The name in "did you mean 'NAME'?" of the last error, "" when there is none. */
static void got_suggestion(sk_context *ctx, char *out, size_t cap)
{
  const char *m = strstr(sk_context_get_error(ctx)->message, "did you mean '");
  out[0] = '\0';
  if (m) {
    m += strlen("did you mean '");
    snprintf(out, cap, "%.*s", (int)strcspn(m, "'"), m);
  }
}

/* Registered in tables of one section each: every key is found and keeps its
 * own value, a duplicate is refused whether it repeats an earlier table or
 * its own, and a failed table leaves no key behind. */
static void test_index(sk_context *ctx)
{
  sk_options *o = NULL;
  CHECK_OK(ctx, sk_options_create(ctx, &o));
  for (int s = 0; s < NSEC; s++) {
    CHECK_OK(ctx, sk_options_register(o, &big[s * NPER], NPER));
  }
  char a[64];
  for (int i = 0; i < NKEYS; i += 7) {
    snprintf(a, sizeof a, "%.31s=%d", key_text[i], i);
    CHECK_OK(ctx, sk_options_set_assignment(o, a));
  }
  for (int i = 0; i < NKEYS; i++) {
    int64_t v = -1;
    CHECK(sk_options_is_key(o, key_text[i]));
    CHECK_OK(ctx, sk_options_get_int(o, key_text[i], &v));
    CHECK_EQ_INT(v, i % 7 == 0 ? i : 0);
  }
  CHECK(!sk_options_is_key(o, "sec00"));
  CHECK(!sk_options_is_key(o, "sec00.tol_"));
  CHECK(!sk_options_is_key(o, "sec99.tol_0"));

  /* new keys first, then one that an earlier table holds */
  static const sk_option_spec late_dup[] = {
      {"new.a", SK_OPT_INT, "1", 0, 0, NULL, ""},
      {"new.b", SK_OPT_INT, "1", 0, 0, NULL, ""},
      {"sec11.rate_2", SK_OPT_INT, "1", 0, 0, NULL, ""},
  };
  CHECK_EQ_INT(sk_options_register(o, late_dup, 3), SK_ERR_ARG);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "duplicate key 'sec11.rate_2'");
  CHECK(!sk_options_is_key(o, "new.a"));
  CHECK(!sk_options_is_key(o, "new.b"));
  CHECK(sk_options_is_key(o, "sec11.rate_2"));
  static const sk_option_spec own_dup[] = {
      {"new.a", SK_OPT_INT, "1", 0, 0, NULL, ""},
      {"new.c", SK_OPT_INT, "1", 0, 0, NULL, ""},
      {"new.a", SK_OPT_INT, "1", 0, 0, NULL, ""},
  };
  CHECK_EQ_INT(sk_options_register(o, own_dup, 3), SK_ERR_ARG);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "duplicate key 'new.a'");
  CHECK(!sk_options_is_key(o, "new.a"));
  CHECK(!sk_options_is_key(o, "new.c"));
  /* the keys of a failed table can be registered afterwards */
  CHECK_OK(ctx, sk_options_register(o, late_dup, 2));
  CHECK(sk_options_is_key(o, "new.a") && sk_options_is_key(o, "new.b"));
  int64_t v = 0;
  CHECK_OK(ctx, sk_options_get_int(o, "sec11.rate_2", &v));
  CHECK_EQ_INT(v, 0);
  sk_options_destroy(&o);
}

/* 1 when some key lies in section `name` (setting it is a different error). */
static int is_section(const char *name)
{
  for (int i = 0; i < NKEYS; i++) {
    if (strncmp(key_text[i], name, strlen(name)) == 0 && key_text[i][strlen(name)] == '.') {
      return 1;
    }
  }
  return 0;
}

/* Typos made from the keys by deleting, inserting or changing characters
 * (a fixed linear congruential sequence; every fourth one of a section
 * name): the suggestion names what the
 * exact distances of the reference give. */
static void test_suggestions(sk_context *ctx)
{
  sk_options *o = NULL;
  CHECK_OK(ctx, sk_options_create(ctx, &o));
  CHECK_OK(ctx, sk_options_register(o, big, NKEYS));
  uint32_t r = 12345u;
  int with = 0, without = 0, sections = 0;
  for (int t = 0; t < 600; t++) {
    char key[KEYLEN + 8];
    r = r * 1664525u + 1013904223u;
    snprintf(key, sizeof key, "%s", key_text[(r >> 8) % NKEYS]);
    if (t % 4 == 0) {
      key[strcspn(key, ".")] = '\0'; /* a typo of a section name */
    }
    const int edits = 1 + (int)((r >> 4) % 5);
    for (int e = 0; e < edits; e++) {
      r = r * 1664525u + 1013904223u;
      const size_t n = strlen(key), at = (r >> 8) % (n + 1);
      const char c = "abcdefst_.0123"[(r >> 20) % 14];
      if ((r >> 28) % 3 == 0 && n > 1) { /* delete */
        memmove(key + at, key + at + 1, n - at);
      } else if ((r >> 28) % 3 == 1 && n + 1 < KEYLEN) { /* insert */
        memmove(key + at + 1, key + at, n - at + 1);
        key[at] = c;
      } else if (at < n) { /* change */
        key[at] = c;
      }
    }
    if (!sk__options_valid_key(key) || sk_options_is_key(o, key) || is_section(key)) {
      continue;
    }
    char want[KEYLEN], got[KEYLEN], assignment[KEYLEN + 8];
    expected_suggestion(key, want, sizeof want);
    snprintf(assignment, sizeof assignment, "%s=1", key);
    CHECK_EQ_INT(sk_options_set_assignment(o, assignment), SK_ERR_UNKNOWN_KEY);
    got_suggestion(ctx, got, sizeof got);
    if (strcmp(want, got) != 0) {
      fprintf(stderr, "%s: suggestion '%s', reference '%s'\n", key, got, want);
      sk_test_failures++;
    }
    with += want[0] != '\0';
    without += want[0] == '\0';
    sections += want[0] != '\0' && !strchr(want, '.');
  }
  /* the typos reach every branch of the rule */
  CHECK(with > 100 && without > 20 && sections > 0);
  sk_options_destroy(&o);
}

int main(void)
{
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK) {
    return 1;
  }
  make_table();
  test_index(ctx);
  test_suggestions(ctx);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

/* tests/unit/test_provenance.c: provenance YAML parses back (libyaml) with versions, quoted argv, options; YAML quoting; version table */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <stdarg.h>

#include <yaml.h>

#include <H5public.h>

#include "core/json_write.h"
#include "backends/sundials_version.h"
#include "core/context_impl.h"
#include "core/error.h"
#include "io/hdf5_module.h"
#include "io/provenance.h"
#include "sk_git_revision.h"
#include "test.h"

/* ---- a parsed YAML document and path lookups ---------------------------------- */

typedef struct {
  yaml_document_t doc;
  int ok;
} ydoc;

static void ydoc_load(ydoc *d, const char *text)
{
  yaml_parser_t p;
  d->ok = 0;
  if (!text || !yaml_parser_initialize(&p)) {
    return;
  }
  yaml_parser_set_input_string(&p, (const unsigned char *)text, strlen(text));
  if (yaml_parser_load(&p, &d->doc)) {
    d->ok = yaml_document_get_root_node(&d->doc) != NULL;
    if (!d->ok) {
      yaml_document_delete(&d->doc);
    }
  } else {
    fprintf(stderr, "YAML parse error: %s at line %zu\n", p.problem ? p.problem : "?",
            p.problem_mark.line + 1);
  }
  yaml_parser_delete(&p);
}

static void ydoc_free(ydoc *d)
{
  if (d->ok) {
    yaml_document_delete(&d->doc);
  }
  d->ok = 0;
}

static yaml_node_t *ymap_get(yaml_document_t *doc, yaml_node_t *m, const char *key)
{
  if (!m || m->type != YAML_MAPPING_NODE) {
    return NULL;
  }
  for (yaml_node_pair_t *pr = m->data.mapping.pairs.start; pr < m->data.mapping.pairs.top; pr++) {
    yaml_node_t *k = yaml_document_get_node(doc, pr->key);
    if (k && k->type == YAML_SCALAR_NODE && k->data.scalar.length == strlen(key) &&
        memcmp(k->data.scalar.value, key, k->data.scalar.length) == 0) {
      return yaml_document_get_node(doc, pr->value);
    }
  }
  return NULL;
}

/* Node at the path of keys (NULL-terminated). */
static yaml_node_t *ypath(ydoc *d, ...)
{
  if (!d->ok) {
    return NULL;
  }
  yaml_node_t *n = yaml_document_get_root_node(&d->doc);
  va_list ap;
  va_start(ap, d);
  const char *key;
  while (n && (key = va_arg(ap, const char *))) {
    n = ymap_get(&d->doc, n, key);
  }
  va_end(ap);
  return n;
}

/* 1 when n is a scalar equal to want (else prints what it is). */
static int yscalar_eq(yaml_node_t *n, const char *want)
{
  if (!n || n->type != YAML_SCALAR_NODE) {
    fprintf(stderr, "  not a scalar (want '%s')\n", want);
    return 0;
  }
  int eq = n->data.scalar.length == strlen(want) &&
           memcmp(n->data.scalar.value, want, n->data.scalar.length) == 0;
  if (!eq) {
    fprintf(stderr, "  scalar '%.*s' != '%s'\n", (int)n->data.scalar.length,
            (const char *)n->data.scalar.value, want);
  }
  return eq;
}

static const char *yscalar(yaml_node_t *n)
{
  return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* ---- tests --------------------------------------------------------------------- */

static void test_yaml_quote(void)
{
  char buf[64];
  size_t k = sk__yaml_quote(buf, sizeof buf, "a\"b\\c\nd\te");
  CHECK(strcmp(buf, "\"a\\\"b\\\\c\\nd\\te\"") == 0);
  CHECK_EQ_INT(k, strlen(buf));
  /* snprintf-like truncation */
  char small[5];
  k = sk__yaml_quote(small, sizeof small, "abcdef");
  CHECK_EQ_INT(k, 8);
  CHECK(strcmp(small, "\"abc") == 0);
  CHECK_EQ_INT(sk__yaml_quote(NULL, 0, "xy"), 4);
  /* valid UTF-8 kept, invalid byte and controls escaped */
  sk__yaml_quote(buf, sizeof buf, "\xc3\xa9\xff\x01");
  CHECK(strcmp(buf, "\"\xc3\xa9\\xFF\\x01\"") == 0);
  sk__yaml_quote(buf, sizeof buf, NULL);
  CHECK(strcmp(buf, "\"\"") == 0);
}

static void test_block_mapping(void)
{
  CHECK_EQ_INT(sk__yaml_is_block_mapping("a: 1\nb: x\n"), 1);
  CHECK_EQ_INT(sk__yaml_is_block_mapping("a:\n  b: [1, 2]\n"), 1);
  CHECK_EQ_INT(sk__yaml_is_block_mapping("- a\n"), 0);
  CHECK_EQ_INT(sk__yaml_is_block_mapping("{a: 1}"), 0);
  CHECK_EQ_INT(sk__yaml_is_block_mapping("---\na: 1\n"), 0);
  CHECK_EQ_INT(sk__yaml_is_block_mapping("a: 1\n...\n"), 0);
  CHECK_EQ_INT(sk__yaml_is_block_mapping("a: 1\n---\nb: 2\n"), 0);
  CHECK_EQ_INT(sk__yaml_is_block_mapping("a: [1,\n"), 0);
  CHECK_EQ_INT(sk__yaml_is_block_mapping("plain"), 0);
  CHECK_EQ_INT(sk__yaml_is_block_mapping(""), 0);
  CHECK_EQ_INT(sk__yaml_is_block_mapping(NULL), 0);
}

static int is_iso_utc(const char *s)
{
  const char *pat = "dddd-dd-ddTdd:dd:ddZ";
  if (!s || strlen(s) != strlen(pat)) {
    return 0;
  }
  for (size_t i = 0; pat[i]; i++) {
    if (pat[i] == 'd' ? !isdigit((unsigned char)s[i]) : s[i] != pat[i]) {
      return 0;
    }
  }
  return 1;
}

static void test_provenance(sk_context *ctx)
{
  char a0[] = "stiffkit", a1[] = "run", a2[] = "--set", a3[] = "model.name=a: b \"c\"",
       a4[] = "it's\ttab", a5[] = "", a6[] = "#x", a7[] = "\xff\x01";
  char *argv[] = {a0, a1, a2, a3, a4, a5, a6, a7};
  int argc = (int)(sizeof argv / sizeof argv[0]);
  const char *opts = "solver.rtol: 1e-06\nsolver.method: bdf\noutput.prefix: \"x: y\"\n";
  char *y = sk_provenance_yaml(ctx, argc, argv, opts);
  CHECK(y != NULL);
  CHECK_STR_CONTAINS(y, "sundials");
  ydoc d;
  ydoc_load(&d, y);
  CHECK(d.ok);
  if (!d.ok) {
    fprintf(stderr, "%s\n", y ? y : "(null)");
  }
  CHECK(yscalar_eq(ypath(&d, "stiffkit", "version", NULL), SK_VERSION));
  CHECK(yscalar_eq(ypath(&d, "stiffkit", "git_revision", NULL), SK_GIT_REVISION));
  CHECK(yscalar_eq(ypath(&d, "stiffkit", "build_options", NULL), SK_BUILD_OPTIONS));
  char sv[64];
  sk__sundials_version(sv, sizeof sv);
  CHECK(strncmp(sv, "6.", 2) == 0 || strncmp(sv, "7.", 2) == 0);
  CHECK(yscalar_eq(ypath(&d, "libraries", "sundials", "version", NULL), sv));
  CHECK(yscalar_eq(ypath(&d, "libraries", "sundials", "build_version", NULL),
                   sk__sundials_build_version()));
  char bits[16];
  snprintf(bits, sizeof bits, "%d", sk__sundials_index_bits());
  CHECK(yscalar_eq(ypath(&d, "libraries", "sundials", "index_bits", NULL), bits));
  CHECK(sk__sundials_index_bits() == 32 || sk__sundials_index_bits() == 64);
  /* HDF5 is a module loaded on first use: not loaded in this process yet */
  CHECK(sk__hdf5_module_peek() == NULL);
  CHECK(yscalar_eq(ypath(&d, "libraries", "hdf5", "version", NULL), "not loaded"));
  const char *libs[] = {"suitesparse", "klu", "umfpack", "metis", "libyaml"};
  for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++) {
    const char *v = yscalar(ypath(&d, "libraries", libs[i], "version", NULL));
    CHECK(v && isdigit((unsigned char)v[0]) && strchr(v, '.'));
    if (!v) {
      fprintf(stderr, "  no version for %s\n", libs[i]);
    }
  }
  const char *host = yscalar(ypath(&d, "host", NULL));
  CHECK(host && host[0]);
  CHECK(is_iso_utc(yscalar(ypath(&d, "date", NULL))));

  yaml_node_t *av = ypath(&d, "argv", NULL);
  CHECK(av && av->type == YAML_SEQUENCE_NODE);
  if (av && av->type == YAML_SEQUENCE_NODE) {
    int k = 0;
    for (yaml_node_item_t *it = av->data.sequence.items.start; it < av->data.sequence.items.top;
         it++, k++) {
      yaml_node_t *item = yaml_document_get_node(&d.doc, *it);
      if (k < argc && k != 7) {
        CHECK(yscalar_eq(item, argv[k]));
      }
      if (k == 7) { /* the invalid byte comes back as U+00FF */
        CHECK(yscalar_eq(item, "\xc3\xbf\x01"));
      }
    }
    CHECK_EQ_INT(k, argc);
  }
  /* shell words; the invalid byte comes back as U+00FF */
  CHECK(yscalar_eq(ypath(&d, "command", NULL),
                   "stiffkit run --set 'model.name=a: b \"c\"' 'it'\\''s\ttab' '' '#x' "
                   "'\xc3\xbf\x01'"));

  CHECK(yscalar_eq(ypath(&d, "options", "solver.rtol", NULL), "1e-06"));
  CHECK(yscalar_eq(ypath(&d, "options", "solver.method", NULL), "bdf"));
  CHECK(yscalar_eq(ypath(&d, "options", "output.prefix", NULL), "x: y"));
  ydoc_free(&d);
  free(y);

  /* no options, no argv */
  y = sk_provenance_yaml(ctx, 0, NULL, NULL);
  ydoc_load(&d, y);
  CHECK(d.ok);
  yaml_node_t *o = ypath(&d, "options", NULL);
  CHECK(o && o->type == YAML_MAPPING_NODE &&
        o->data.mapping.pairs.top == o->data.mapping.pairs.start);
  yaml_node_t *av0 = ypath(&d, "argv", NULL);
  CHECK(av0 && av0->type == YAML_SEQUENCE_NODE);
  ydoc_free(&d);
  free(y);

  /* options text that is not a mapping is kept as a string */
  const char *broken = "solver.rtol: [1e-6,\n";
  y = sk_provenance_yaml(ctx, 1, argv, broken);
  ydoc_load(&d, y);
  CHECK(d.ok);
  CHECK(yscalar_eq(ypath(&d, "options_unparsed", NULL), broken));
  ydoc_free(&d);
  free(y);
}

static void test_provenance_nomem(sk_context *ctx)
{
  char a0[] = "stiffkit", a1[] = "info";
  char *argv[] = {a0, a1};
  int ok = 0;
  for (long k = 1; k < 100 && !ok; k++) {
    ctx->alloc_count = 0;
    ctx->alloc_fail_at = k;
    sk_context_clear_error(ctx);
    char *y = sk_provenance_yaml(ctx, 2, argv, "a: 1\n");
    if (y) {
      ok = 1;
      free(y);
    } else {
      CHECK_EQ_INT(sk_context_get_error(ctx)->code, SK_ERR_NOMEM);
    }
  }
  ctx->alloc_fail_at = 0;
  CHECK(ok);
}

static void test_versions_print(void)
{
  FILE *f = tmpfile();
  CHECK(f != NULL);
  if (!f) {
    return;
  }
  CHECK_EQ_INT(sk_versions_print(f), SK_OK);
  char text[4096];
  rewind(f);
  size_t n = fread(text, 1, sizeof text - 1, f);
  text[n] = '\0';
  fclose(f);
  const char *rows[] = {"stiffkit ",   "git revision ", "build options ", "SUNDIALS ",
                        "index size ", "KLU ",          "UMFPACK ",       "SuiteSparse ",
                        "METIS ",      "HDF5 ",         "libyaml "};
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    CHECK_STR_CONTAINS(text, rows[i]);
  }
  CHECK_STR_CONTAINS(text, SK_VERSION);
  /* `stiffkit info` loads the HDF5 module to name the library's run-time version (the
     headers' version, compiled in, is the independent value to compare with) */
  const sk__hdf5_module *h5 = sk__hdf5_module_peek();
  CHECK(h5 != NULL);
  if (h5) {
    char run[32], row[96];
    h5->version(run, sizeof run);
    snprintf(row, sizeof row, "%-15s %s (headers %d.%d.%d)", "HDF5", run, H5_VERS_MAJOR,
             H5_VERS_MINOR, H5_VERS_RELEASE);
    CHECK(isdigit((unsigned char)run[0]) && strchr(run, '.'));
    CHECK_STR_CONTAINS(text, row);
  }
  char bits[32];
  snprintf(bits, sizeof bits, "%d bits", sk__sundials_index_bits());
  CHECK_STR_CONTAINS(text, bits);
  CHECK_EQ_INT(sk_versions_print(NULL), SK_ERR_ARG);
  FILE *full = fopen("/dev/full", "w");
  if (full) {
    CHECK_EQ_INT(sk_versions_print(full), SK_ERR_IO);
    fclose(full);
  }
}

int main(void)
{
  sk_context *ctx = NULL;
  if (sk_context_create(&ctx) != SK_OK) {
    return 2;
  }
  test_yaml_quote();
  test_block_mapping();
  test_provenance(ctx);
  test_provenance_nomem(ctx);
  test_versions_print();
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

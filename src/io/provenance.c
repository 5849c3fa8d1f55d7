/* src/io/provenance.c: provenance YAML of a run (versions, host, date, command line, options), YAML quoting, the version table */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <SuiteSparse_config.h>
#include <H5public.h> /* H5_VERS_*: the headers' version (HDF5 itself is the module's) */
#include <klu.h>
#include <metis.h>
#include <umfpack.h>
#include <yaml.h>

#include "core/json_write.h"
#include "backends/sundials_version.h"
#include "core/error.h"
#include "core/context_impl.h"
#include "core/threads.h"
#include "io/hdf5_module.h"
#include "io/provenance.h"
#include "sk_git_revision.h"
#include "stiffkit/sk_config.h"

int sk__yaml_is_block_mapping(const char *text)
{
  if (!text) {
    return 0;
  }
  yaml_parser_t parser;
  if (!yaml_parser_initialize(&parser)) {
    return 0;
  }
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
  int ok = 0, stage = 0, depth = 0;
  for (;;) {
    yaml_event_t ev;
    if (!yaml_parser_parse(&parser, &ev)) {
      break;
    }
    yaml_event_type_t type = ev.type;
    int good = 0;
    switch (stage) {
    case 0:
      good = type == YAML_STREAM_START_EVENT;
      stage = 1;
      break;
    case 1:
      good = type == YAML_DOCUMENT_START_EVENT && ev.data.document_start.implicit;
      stage = 2;
      break;
    case 2:
      good = type == YAML_MAPPING_START_EVENT &&
             ev.data.mapping_start.style == YAML_BLOCK_MAPPING_STYLE;
      depth = 1;
      stage = 3;
      break;
    case 3:
      good = 1;
      if (type == YAML_MAPPING_START_EVENT || type == YAML_SEQUENCE_START_EVENT) {
        depth++;
      } else if (type == YAML_MAPPING_END_EVENT || type == YAML_SEQUENCE_END_EVENT) {
        if (--depth == 0) {
          stage = 4;
        }
      }
      break;
    case 4:
      good = type == YAML_DOCUMENT_END_EVENT && ev.data.document_end.implicit;
      stage = 5;
      break;
    default:
      good = type == YAML_STREAM_END_EVENT;
      ok = good;
      break;
    }
    yaml_event_delete(&ev);
    if (!good || type == YAML_STREAM_END_EVENT) {
      break;
    }
  }
  yaml_parser_delete(&parser);
  return ok;
}

/* ---- a growing string built through the context's allocator -------------- */

typedef struct {
  sk_context *ctx;
  char *buf;
  size_t len, cap;
  int oom;
} sbuf;

static int sb_reserve(sbuf *b, size_t extra)
{
  if (b->oom) {
    return 0;
  }
  if (b->len + extra + 1 <= b->cap) {
    return 1;
  }
  size_t cap = b->cap ? b->cap : 2048;
  while (cap < b->len + extra + 1) {
    cap *= 2;
  }
  char *nb = sk__malloc(b->ctx, cap);
  if (!nb) {
    b->oom = 1;
    return 0;
  }
  if (b->buf) {
    memcpy(nb, b->buf, b->len);
  }
  nb[b->len] = '\0';
  sk__free(b->ctx, b->buf);
  b->buf = nb;
  b->cap = cap;
  return 1;
}

static void sb_add(sbuf *b, const char *s, size_t k)
{
  if (sb_reserve(b, k)) {
    memcpy(b->buf + b->len, s, k);
    b->len += k;
    b->buf[b->len] = '\0';
  }
}

static void sb_puts(sbuf *b, const char *s)
{
  sb_add(b, s, strlen(s));
}

static void sb_printf(sbuf *b, const char *fmt, ...) SK__PRINTF(2, 3);
static void sb_printf(sbuf *b, const char *fmt, ...)
{
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int k = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (k > 0 && sb_reserve(b, (size_t)k)) {
    vsnprintf(b->buf + b->len, (size_t)k + 1, fmt, ap2);
    b->len += (size_t)k;
  }
  va_end(ap2);
}

static void sb_quoted(sbuf *b, const char *s)
{
  size_t k = sk__yaml_quote(NULL, 0, s);
  if (sb_reserve(b, k)) {
    sk__yaml_quote(b->buf + b->len, k + 1, s);
    b->len += k;
  }
}

/* "<indent>key: "quoted"\n" */
static void sb_kv(sbuf *b, const char *indent, const char *key, const char *value)
{
  sb_printf(b, "%s%s: ", indent, key);
  sb_quoted(b, value);
  sb_puts(b, "\n");
}

/* Every non-empty line of text, prefixed by indent. */
static void sb_indented(sbuf *b, const char *text, const char *indent)
{
  const char *p = text;
  while (*p) {
    const char *e = strchr(p, '\n');
    size_t k = e ? (size_t)(e - p) : strlen(p);
    if (k > 0 && !(k == 1 && p[0] == '\r')) {
      sb_puts(b, indent);
      sb_add(b, p, k);
    }
    sb_puts(b, "\n");
    p += k + (e ? 1 : 0);
  }
}

/* One argument as a POSIX shell word. */
static void sb_shell_word(sbuf *b, const char *s)
{
  const char *safe = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@%+=:,./_-";
  if (s[0] != '\0' && strspn(s, safe) == strlen(s)) {
    sb_puts(b, s);
    return;
  }
  sb_puts(b, "'");
  for (const char *p = s; *p; p++) {
    if (*p == '\'') {
      sb_puts(b, "'\\''");
    } else {
      sb_add(b, p, 1);
    }
  }
  sb_puts(b, "'");
}

/* ---- versions --------------------------------------------------------------- */

typedef struct {
  char sundials_run[64];
  char suitesparse_run[32], suitesparse_build[32];
  char klu[32], umfpack[32], metis[32];
  char hdf5_run[32], hdf5_build[32];
  const char *yaml_run;
} versions;

static void versions_get(versions *v, int load_hdf5)
{
  sk__sundials_version(v->sundials_run, sizeof v->sundials_run);
  snprintf(v->suitesparse_build, sizeof v->suitesparse_build, "%d.%d.%d",
           SUITESPARSE_MAIN_VERSION, SUITESPARSE_SUB_VERSION, SUITESPARSE_SUBSUB_VERSION);
#ifdef SUITESPARSE_HAS_VERSION_FUNCTION
  int ss[3] = {0, 0, 0};
  SuiteSparse_version(ss);
  snprintf(v->suitesparse_run, sizeof v->suitesparse_run, "%d.%d.%d", ss[0], ss[1], ss[2]);
#else
  snprintf(v->suitesparse_run, sizeof v->suitesparse_run, "%s", v->suitesparse_build);
#endif
  snprintf(v->klu, sizeof v->klu, "%d.%d.%d", KLU_MAIN_VERSION, KLU_SUB_VERSION,
           KLU_SUBSUB_VERSION);
  snprintf(v->umfpack, sizeof v->umfpack, "%d.%d.%d", UMFPACK_MAIN_VERSION, UMFPACK_SUB_VERSION,
           UMFPACK_SUBSUB_VERSION);
  snprintf(v->metis, sizeof v->metis, "%d.%d.%d", METIS_VER_MAJOR, METIS_VER_MINOR,
           METIS_VER_SUBMINOR);
  /* HDF5 is the module libstiffkit-hdf5.so: its run-time version when this
     process loaded it (an HDF5 output, `stiffkit info`), else "not loaded" */
  const sk__hdf5_module *h5 = NULL;
  if (load_hdf5) {
    sk__hdf5_module_open(NULL, "the HDF5 version", &h5);
  } else {
    h5 = sk__hdf5_module_peek();
  }
  if (h5) {
    h5->version(v->hdf5_run, sizeof v->hdf5_run);
  } else {
    snprintf(v->hdf5_run, sizeof v->hdf5_run, load_hdf5 ? "module not loadable" : "not loaded");
  }
  snprintf(v->hdf5_build, sizeof v->hdf5_build, "%d.%d.%d", H5_VERS_MAJOR, H5_VERS_MINOR,
           H5_VERS_RELEASE);
  v->yaml_run = yaml_get_version_string();
}

sk_status sk_versions_print(FILE *out)
{
  if (!out) {
    return SK_ERR_ARG;
  }
  versions v;
  versions_get(&v, 1);
  const char *fmt = "%-15s %s\n";
  fprintf(out, fmt, "stiffkit", SK_VERSION);
  fprintf(out, fmt, "git revision", SK_GIT_REVISION);
  fprintf(out, fmt, "build options", SK_BUILD_OPTIONS);
  fprintf(out, "%-15s %s (headers %s)\n", "SUNDIALS", v.sundials_run,
          sk__sundials_build_version());
  fprintf(out, "%-15s %d bits\n", "index size", sk__sundials_index_bits());
  fprintf(out, fmt, "KLU", v.klu);
  fprintf(out, fmt, "UMFPACK", v.umfpack);
  fprintf(out, "%-15s %s (headers %s)\n", "SuiteSparse", v.suitesparse_run, v.suitesparse_build);
  fprintf(out, fmt, "METIS", v.metis);
  fprintf(out, "%-15s %s (headers %s)\n", "HDF5", v.hdf5_run, v.hdf5_build);
  fprintf(out, fmt, "libyaml", v.yaml_run ? v.yaml_run : "unknown");
  /* the thread count a run takes with solver.threads = 0 (sk__threads_set) */
  const char *omp_env = getenv("OMP_NUM_THREADS");
  const int from_env = omp_env && *omp_env;
  if (sk__threads_openmp()) {
    const int nth = from_env ? sk__threads_max() : sk__threads_auto();
    fprintf(out, "%-15s yes: %d thread%s by default (%s), %d processors\n", "OpenMP", nth,
            nth == 1 ? "" : "s",
            from_env ? "OMP_NUM_THREADS"
                     : "the idle processors; set OMP_NUM_THREADS or solver.threads",
            sk__threads_num_procs());
  } else {
    fprintf(out, "%-15s no (built with SK_OPENMP=OFF): 1 thread, %d processors\n", "OpenMP",
            sk__threads_num_procs());
  }
  if (fflush(out) == EOF || ferror(out)) {
    return SK_ERR_IO;
  }
  return SK_OK;
}

/* ---- provenance ------------------------------------------------------------- */

static int is_blank(const char *s)
{
  for (; s && *s; s++) {
    if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r') {
      return 0;
    }
  }
  return 1;
}

char *sk_provenance_yaml(sk_context *ctx, int argc, char *const *argv,
                         const char *effective_options_yaml)
{
  if (!ctx) {
    return NULL;
  }
  sbuf b = {ctx, NULL, 0, 0, 0};
  versions v;
  versions_get(&v, 0);

  sb_puts(&b, "stiffkit:\n");
  sb_kv(&b, "  ", "version", SK_VERSION);
  sb_kv(&b, "  ", "git_revision", SK_GIT_REVISION);
  sb_kv(&b, "  ", "build_options", SK_BUILD_OPTIONS);

  sb_puts(&b, "libraries:\n");
  sb_puts(&b, "  sundials:\n");
  sb_kv(&b, "    ", "version", v.sundials_run);
  sb_kv(&b, "    ", "build_version", sk__sundials_build_version());
  sb_printf(&b, "    index_bits: %d\n", sk__sundials_index_bits());
  sb_puts(&b, "  suitesparse:\n");
  sb_kv(&b, "    ", "version", v.suitesparse_run);
  sb_kv(&b, "    ", "build_version", v.suitesparse_build);
  sb_puts(&b, "  klu:\n");
  sb_kv(&b, "    ", "version", v.klu);
  sb_puts(&b, "  umfpack:\n");
  sb_kv(&b, "    ", "version", v.umfpack);
  sb_puts(&b, "  metis:\n");
  sb_kv(&b, "    ", "version", v.metis);
  sb_puts(&b, "  hdf5:\n");
  sb_kv(&b, "    ", "version", v.hdf5_run);
  sb_kv(&b, "    ", "build_version", v.hdf5_build);
  sb_puts(&b, "  libyaml:\n");
  sb_kv(&b, "    ", "version", v.yaml_run ? v.yaml_run : "unknown");

  sb_puts(&b, "threads:\n");
  sb_printf(&b, "  openmp: %s\n", sk__threads_openmp() ? "true" : "false");
  sb_printf(&b, "  max_threads: %d\n", sk__threads_max());
  sb_printf(&b, "  num_procs: %d\n", sk__threads_num_procs());
  /* which N_Vector kernels the CVODE engine ran with (none: no CVODE engine) */
  sb_kv(&b, "", "vector_kernels", ctx->vector_kernels ? ctx->vector_kernels : "none");
  /* what linsol.type=auto chose and why (absent when the solver was named) */
  if (ctx->linsol_reason[0]) {
    sb_kv(&b, "", "linear_solver_choice", ctx->linsol_reason);
  }

  char host[256];
  if (gethostname(host, sizeof host) != 0) {
    snprintf(host, sizeof host, "unknown");
  }
  host[sizeof host - 1] = '\0';
  sb_kv(&b, "", "host", host);

  char date[32] = "unknown";
  time_t now = time(NULL);
  struct tm tmv;
  if (now != (time_t)-1 && gmtime_r(&now, &tmv)) {
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tmv);
  }
  sb_kv(&b, "", "date", date);

  char cwd[4096];
  sb_kv(&b, "", "working_directory", getcwd(cwd, sizeof cwd) ? cwd : "unknown");

  if (argc <= 0 || !argv) {
    sb_puts(&b, "argv: []\ncommand: \"\"\n");
  } else {
    sb_puts(&b, "argv:\n");
    for (int i = 0; i < argc; i++) {
      sb_puts(&b, "  - ");
      sb_quoted(&b, argv[i] ? argv[i] : "");
      sb_puts(&b, "\n");
    }
    sbuf cmd = {ctx, NULL, 0, 0, 0};
    for (int i = 0; i < argc; i++) {
      if (i > 0) {
        sb_puts(&cmd, " ");
      }
      sb_shell_word(&cmd, argv[i] ? argv[i] : "");
    }
    if (cmd.oom) {
      b.oom = 1;
    } else {
      sb_kv(&b, "", "command", cmd.buf ? cmd.buf : "");
    }
    sk__free(ctx, cmd.buf);
  }

  if (is_blank(effective_options_yaml)) {
    sb_puts(&b, "options: {}\n");
  } else if (sk__yaml_is_block_mapping(effective_options_yaml)) {
    sb_puts(&b, "options:\n");
    sb_indented(&b, effective_options_yaml, "  ");
  } else {
    sb_puts(&b, "options: {}\n");
    sb_kv(&b, "", "options_unparsed", effective_options_yaml);
  }

  if (b.oom) {
    sk__free(ctx, b.buf);
    SK_ERROR(ctx, SK_ERR_NOMEM, "out of memory building the provenance record");
    return NULL;
  }
  return b.buf;
}

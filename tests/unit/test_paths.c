/* tests/unit/test_paths.c: paths named inside files: sk__path_resolve, and path-valued option keys resolved against the file that sets them (--set: the working directory), echoed absolute, missing files named as written and as resolved */
#define _XOPEN_SOURCE 700
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/path.h"
#include "test.h"
#include "test_files.h"

/* Expected values are built from the rule itself: the realpath of the scratch directory
 * (found by the C library, not by the code under test) joined with the layout written here. */

static const sk_option_spec table[] = {
    {"model.netlist", SK_OPT_PATH, "", 0, 0, NULL, "a file"},
    {"solver.plugin", SK_OPT_PATH_LIST, "", 0, 0, NULL, "files"},
    {"output.dir", SK_OPT_STRING, ".", 0, 0, NULL, "not a path key"},
};

static char root[PATH_MAX]; /* the scratch directory, symbolic links resolved */

static const char *message(sk_context *ctx)
{
  return sk_context_get_error(ctx)->message;
}

/* The resolution of `path` named in `file` must be `want`. */
static void expect_resolved(sk_context *ctx, const char *file, const char *path, const char *want)
{
  char *got = NULL;
  CHECK_OK(ctx, sk__path_resolve(ctx, file, path, &got));
  if (!got || strcmp(got, want) != 0) {
    fprintf(stderr, "resolve('%s' in '%s'): got '%s', want '%s'\n", path, file ? file : "(cli)",
            got ? got : "(null)", want);
    sk_test_failures++;
  }
  free(got);
}

static void test_resolve(sk_context *ctx)
{
  char want[2 * PATH_MAX + 64], file[PATH_MAX + 64], sub[PATH_MAX + 64];
  snprintf(sub, sizeof sub, "%s/cfg", root);
  CHECK(mkdir(sub, 0700) == 0);
  snprintf(file, sizeof file, "%s/cfg/run.yaml", root);
  /* absolute: unchanged, even with "." and ".." in it */
  expect_resolved(ctx, file, "/x/./y/../z.net", "/x/./y/../z.net");
  /* relative: joined to the naming file's directory; "./" and "//" dropped */
  snprintf(want, sizeof want, "%s/cfg/nets/a.net", root);
  expect_resolved(ctx, file, "nets/a.net", want);
  expect_resolved(ctx, file, "./nets//a.net", want);
  /* leading ".." climbs the (real) directories of the naming file */
  snprintf(want, sizeof want, "%s/a.net", root);
  expect_resolved(ctx, file, "../a.net", want);
  /* ".." after a kept segment stays (that segment may be a symbolic link) */
  snprintf(want, sizeof want, "%s/cfg/nets/../a.net", root);
  expect_resolved(ctx, file, "nets/../a.net", want);
  /* the command line (no naming file): the working directory */
  CHECK(chdir(sub) == 0);
  snprintf(want, sizeof want, "%s/cfg/b.net", root);
  expect_resolved(ctx, NULL, "b.net", want);
  /* a naming file given relative to the working directory, and one without a directory part */
  snprintf(want, sizeof want, "%s/cfg/inner/c.net", root);
  CHECK(mkdir("inner", 0700) == 0);
  expect_resolved(ctx, "inner/x.yaml", "c.net", want);
  snprintf(want, sizeof want, "%s/cfg/c.net", root);
  expect_resolved(ctx, "x.yaml", "c.net", want);
  /* a naming file in a directory that does not exist (a buffer's name): joined as written */
  snprintf(want, sizeof want, "%s/cfg/nowhere/c.net", root);
  expect_resolved(ctx, "nowhere/x.yaml", "c.net", want);
  CHECK(chdir(root) == 0);
  char *out = NULL;
  CHECK_EQ_INT(sk__path_resolve(ctx, file, "", &out), SK_ERR_ARG);
  CHECK(out == NULL);
}

static sk_options *make(sk_context *ctx)
{
  sk_options *o = NULL;
  CHECK_OK(ctx, sk_options_create(ctx, &o));
  CHECK_OK(ctx, sk_options_register(o, table, sizeof table / sizeof table[0]));
  return o;
}

/* A config's path is relative to the config, --set's to the working directory; the echo and
 * get_string give the absolute path; a missing file names both spellings and the origin. */
static void test_option_paths(sk_context *ctx)
{
  char cfg[PATH_MAX + 64], net[PATH_MAX + 64], want[2 * PATH_MAX + 64];
  snprintf(cfg, sizeof cfg, "%s/cfg/run.yaml", root);
  snprintf(net, sizeof net, "%s/cfg/a.net", root);
  test_write_file(cfg, "model:\n  netlist: a.net\nsolver:\n  plugin: [p1.so, ../p2.so]\n");
  test_write_file(net, "* empty\n");
  sk_options *o = make(ctx);
  CHECK_OK(ctx, sk_config_load(o, cfg));
  const char *v = NULL;
  CHECK_OK(ctx, sk_options_get_input_file(o, "model.netlist", &v));
  CHECK(v && strcmp(v, net) == 0);
  CHECK_OK(ctx, sk_options_get_string(o, "model.netlist", &v));
  CHECK(v && strcmp(v, net) == 0);
  /* a YAML list of paths, each resolved, joined for get_string and the echo */
  snprintf(want, sizeof want, "%s/cfg/p1.so, %s/p2.so", root, root);
  CHECK_OK(ctx, sk_options_get_string(o, "solver.plugin", &v));
  CHECK(v && strcmp(v, want) == 0);
  char *echo = sk_options_effective_string(o);
  char line[2 * PATH_MAX + 64];
  snprintf(line, sizeof line, "model.netlist: %s\n", net);
  CHECK_STR_CONTAINS(echo, line);
  free(echo);
  /* p1.so is missing: the origin (file:line:column of the list), both spellings */
  const char *const *paths = NULL;
  size_t n = 0;
  CHECK_EQ_INT(sk_options_get_input_files(o, "solver.plugin", &paths, &n), SK_ERR_MISSING);
  snprintf(want, sizeof want,
           "run.yaml:4:11: solver.plugin: 'p1.so' (resolved to '%s/cfg/p1.so'): no such file",
           root);
  CHECK_STR_CONTAINS(message(ctx), want);
  /* the command line: relative to the working directory, a comma-separated list */
  char cwd[PATH_MAX + 64];
  snprintf(cwd, sizeof cwd, "%s/cfg", root);
  CHECK(chdir(cwd) == 0);
  CHECK_OK(ctx, sk_options_set_assignment(o, "model.netlist=../b.net"));
  CHECK_EQ_INT(sk_options_get_input_file(o, "model.netlist", &v), SK_ERR_MISSING);
  snprintf(want, sizeof want,
           "--set: model.netlist: '../b.net' (resolved to '%s/b.net'): no such file", root);
  CHECK_STR_CONTAINS(message(ctx), want);
  CHECK_OK(ctx, sk_options_set_assignment(o, "solver.plugin= a.net , a.net"));
  CHECK_OK(ctx, sk_options_get_input_files(o, "solver.plugin", &paths, &n));
  CHECK_EQ_INT(n, 2);
  CHECK(n == 2 && strcmp(paths[0], net) == 0 && strcmp(paths[1], net) == 0);
  /* an absolute path: unchanged, and the message does not repeat it */
  CHECK_OK(ctx, sk_options_set_assignment(o, "model.netlist=/nonexistent/z.net"));
  CHECK_EQ_INT(sk_options_get_input_file(o, "model.netlist", &v), SK_ERR_MISSING);
  CHECK_STR_CONTAINS(message(ctx), "--set: model.netlist: '/nonexistent/z.net': no such file");
  /* empty: no file, no error; a directory is not an input file */
  CHECK_OK(ctx, sk_options_set_assignment(o, "model.netlist="));
  CHECK_OK(ctx, sk_options_get_input_file(o, "model.netlist", &v));
  CHECK(v && v[0] == '\0');
  CHECK_OK(ctx, sk_options_set_assignment(o, "model.netlist=."));
  CHECK_EQ_INT(sk_options_get_input_file(o, "model.netlist", &v), SK_ERR_MISSING);
  CHECK_STR_CONTAINS(message(ctx), "a directory, not a file");
  /* one key, one file: a comma is part of the name, a list is refused */
  CHECK_OK(ctx, sk_options_set_assignment(o, "model.netlist=a.net, b.net"));
  CHECK_OK(ctx, sk_options_get_string(o, "model.netlist", &v));
  snprintf(want, sizeof want, "%s/cfg/a.net, b.net", root);
  CHECK(v && strcmp(v, want) == 0);
  const char *two[] = {"a.net", "b.net"};
  CHECK_EQ_INT(sk_options_set_list(o, "model.netlist", two, 2, NULL), SK_ERR_INPUT);
  CHECK_STR_CONTAINS(message(ctx), "model.netlist: expected a file path, got a list");
  /* a non-path key is refused by the file getter */
  CHECK_EQ_INT(sk_options_get_input_file(o, "output.dir", &v), SK_ERR_ARG);
  CHECK(chdir(root) == 0);
  sk_options_destroy(&o);
}

/* The echo loads back, from another directory, to the same files. */
static void test_echo_round_trip(sk_context *ctx)
{
  char cfg[PATH_MAX + 64], net[PATH_MAX + 64], echo_file[PATH_MAX + 64];
  snprintf(cfg, sizeof cfg, "%s/cfg/run.yaml", root);
  snprintf(net, sizeof net, "%s/cfg/a.net", root);
  snprintf(echo_file, sizeof echo_file, "%s/cfg/inner/echo.yaml", root);
  test_write_file(cfg, "model:\n  netlist: a.net\n");
  sk_options *o = make(ctx);
  CHECK_OK(ctx, sk_config_load(o, cfg));
  char *echo = sk_options_effective_string(o);
  test_write_file(echo_file, echo ? echo : "");
  free(echo);
  sk_options *back = make(ctx);
  CHECK_OK(ctx, sk_config_load(back, echo_file));
  const char *v = NULL;
  CHECK_OK(ctx, sk_options_get_input_file(back, "model.netlist", &v));
  CHECK(v && strcmp(v, net) == 0);
  sk_options_destroy(&back);
  sk_options_destroy(&o);
}

int main(void)
{
  char dir[PATH_MAX];
  test_tmpdir(dir, sizeof dir, "paths");
  if (!realpath(dir, root)) {
    fprintf(stderr, "cannot resolve %s\n", dir);
    return 2;
  }
  CHECK(chdir(root) == 0);
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  test_resolve(ctx);
  test_option_paths(ctx);
  test_echo_round_trip(ctx);
  sk_context_destroy(&ctx);
  char cmd[PATH_MAX + 16];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
  if (system(cmd) != 0) {
    fprintf(stderr, "cannot remove %s\n", root);
  }
  TEST_RETURN();
}

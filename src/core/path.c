/* src/core/path.c: sk__path_resolve, the one rule for paths named inside files (relative to the naming file's directory, the command line's to the working directory) */
#define _XOPEN_SOURCE 700
#include "core/path.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"

#define PATH_CAP 4096

/* Append segment s[0..n) to the absolute path buf (length *len); "." and
 * empty segments are dropped, ".." removes the last segment when `climb`
 * (the segments before it are real directories). 0 when it does not fit. */
static int push_segment(char *buf, size_t *len, const char *s, size_t n, int climb)
{
  if (n == 0 || (n == 1 && s[0] == '.')) {
    return 1;
  }
  if (climb && n == 2 && s[0] == '.' && s[1] == '.') {
    while (*len > 1 && buf[*len - 1] != '/') {
      (*len)--;
    }
    if (*len > 1) {
      (*len)--; /* the slash before the removed segment */
    }
    buf[*len] = '\0';
    return 1;
  }
  const size_t need = *len + (*len > 1 ? 1 : 0) + n;
  if (need >= PATH_CAP) {
    return 0;
  }
  if (*len > 1) {
    buf[(*len)++] = '/';
  }
  memcpy(buf + *len, s, n);
  *len += n;
  buf[*len] = '\0';
  return 1;
}

/* Append every segment of `text` (a relative path); ".." climbs only
 * while no segment of `text` has been kept yet and `climb` is set. */
static int push_path(char *buf, size_t *len, const char *text, int climb)
{
  const char *s = text;
  while (*s) {
    const char *slash = strchr(s, '/');
    const size_t n = slash ? (size_t)(slash - s) : strlen(s);
    const int dotdot = n == 2 && s[0] == '.' && s[1] == '.';
    if (!push_segment(buf, len, s, n, climb && dotdot)) {
      return 0;
    }
    if (n > 0 && !(n == 1 && s[0] == '.') && !dotdot) {
      climb = 0;
    }
    if (!slash) {
      break;
    }
    s = slash + 1;
  }
  return 1;
}

/* The absolute directory of naming_file (the working directory for NULL)
 * into buf; *real = 1 when it is free of symbolic links. */
static sk_status base_dir(sk_context *ctx, const char *naming_file, char *buf, int *real)
{
  char dir[PATH_CAP];
  const char *slash = naming_file ? strrchr(naming_file, '/') : NULL;
  if (!slash) {
    snprintf(dir, sizeof dir, ".");
  } else if (slash == naming_file) {
    snprintf(dir, sizeof dir, "/");
  } else {
    SK_CHECK(ctx, (size_t)(slash - naming_file) < sizeof dir, SK_ERR_TOO_LARGE,
             "the path '%s' is too long", naming_file);
    memcpy(dir, naming_file, (size_t)(slash - naming_file));
    dir[slash - naming_file] = '\0';
  }
  char resolved[PATH_MAX];
  if (realpath(dir, resolved) && strlen(resolved) < PATH_CAP) {
    snprintf(buf, PATH_CAP, "%s", resolved);
    *real = 1;
    return SK_OK;
  }
  /* a directory that cannot be resolved (a name standing for a buffer): join lexically */
  *real = 0;
  size_t len = 0;
  if (dir[0] == '/') {
    buf[0] = '/';
    buf[1] = '\0';
    len = 1;
  } else {
    SK_CHECK(ctx, getcwd(buf, PATH_CAP) != NULL, SK_ERR_IO,
             "cannot determine the working directory: %s", strerror(errno));
    len = strlen(buf);
  }
  SK_CHECK(ctx, push_path(buf, &len, dir, 0), SK_ERR_TOO_LARGE, "the path '%s' is too long",
           naming_file);
  return SK_OK;
}

sk_status sk__path_resolve(sk_context *ctx, const char *naming_file, const char *path, char **out)
{
  SK_CHECK(ctx, out != NULL && path != NULL && path[0] != '\0', SK_ERR_ARG,
           "sk__path_resolve: NULL or empty argument");
  *out = NULL;
  const size_t plen = strlen(path);
  SK_CHECK(ctx, plen < PATH_CAP, SK_ERR_TOO_LARGE, "the path '%.64s...' is too long (%zu bytes)",
           path, plen);
  char buf[PATH_CAP];
  if (path[0] == '/') {
    snprintf(buf, sizeof buf, "%s", path);
  } else {
    int real = 0;
    SK_CALL(ctx, base_dir(ctx, naming_file, buf, &real));
    size_t len = strlen(buf);
    SK_CHECK(ctx, push_path(buf, &len, path, real), SK_ERR_TOO_LARGE,
             "the path '%s' is too long once joined to '%s'", path, buf);
  }
  const size_t n = strlen(buf);
  *out = sk__malloc(ctx, n + 1);
  SK_CHECK(ctx, *out != NULL, SK_ERR_NOMEM, "out of memory resolving '%s'", path);
  memcpy(*out, buf, n + 1);
  return SK_OK;
}

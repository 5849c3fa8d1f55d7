/* src/cli/sweep_write.c: a sweep directory made ready: created, reused for the same sweep, refused or cleared for another; case configs resolved once and written */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/atomic_file.h"
#include "cli/cli.h"
#include "cli/sweep_dir.h"

/* mkdir -p: returns 0, or -1 with errno set. */
static int make_dirs(const char *path)
{
  char buf[SWEEP_PATH];
  if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
    errno = ENAMETOOLONG;
    return -1;
  }
  for (char *p = buf + 1; *p; p++) {
    if (*p == '/') {
      *p = '\0';
      if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
        return -1;
      }
      *p = '/';
    }
  }
  if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
    return -1;
  }
  struct stat sb;
  if (stat(buf, &sb) != 0) {
    return -1;
  }
  if (!S_ISDIR(sb.st_mode)) {
    errno = ENOTDIR;
    return -1;
  }
  return 0;
}

/* Remove `path` and, for a directory, everything below it (links are
 * removed, not followed). Returns 0, or -1 with errno set. */
static int remove_tree(const char *path)
{
  struct stat sb;
  if (lstat(path, &sb) != 0) {
    return errno == ENOENT ? 0 : -1;
  }
  if (S_ISDIR(sb.st_mode)) {
    DIR *d = opendir(path);
    if (!d) {
      return -1;
    }
    struct dirent *e;
    int rc = 0;
    while (rc == 0 && (e = readdir(d)) != NULL) {
      if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) {
        continue;
      }
      char sub[SWEEP_PATH];
      if (snprintf(sub, sizeof sub, "%s/%s", path, e->d_name) >= (int)sizeof sub) {
        errno = ENAMETOOLONG;
        rc = -1;
      } else {
        rc = remove_tree(sub);
      }
    }
    closedir(d);
    return rc == 0 ? rmdir(path) : rc;
  }
  return unlink(path);
}

/* 1 when the directory holds any entry. */
static int has_entries(const char *dir)
{
  DIR *d = opendir(dir);
  if (!d) {
    return 0;
  }
  struct dirent *e;
  int any = 0;
  while (!any && (e = readdir(d)) != NULL) {
    any = strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
  }
  closedir(d);
  return any;
}

/* Remove what a sweep writes into its directory. */
static int clear_sweep(const char *dir)
{
  static const char *const names[] = {"cases", SWEEP_MANIFEST, "sweep.sbatch", "collect.csv",
                                      "collect.h5"};
  for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
    char path[SWEEP_PATH];
    snprintf(path, sizeof path, "%s/%s", dir, names[k]);
    if (remove_tree(path) != 0) {
      fprintf(stderr, "stiffkit: error: cannot remove '%s': %s\n", path, strerror(errno));
      return SK_EXIT_CANTCREATE;
    }
  }
  return 0;
}

int sweep_dir_prepare(sk_context *ctx, const char *dir, const char *hash, int overwrite,
                      int *resumed, char *workdir, size_t cap)
{
  *resumed = 0;
  workdir[0] = '\0';
  char manifest[SWEEP_PATH];
  snprintf(manifest, sizeof manifest, "%s/%s", dir, SWEEP_MANIFEST);
  struct stat sb;
  if (stat(manifest, &sb) == 0) {
    sweep_manifest old;
    const sk_status st = sweep_manifest_read(ctx, dir, &old);
    const int same = st == SK_OK && !strcmp(old.hash, hash);
    if (!same && !overwrite) {
      if (st == SK_OK) {
        fprintf(stderr,
                "stiffkit: error: '%s' already holds a different sweep (from %s, %s; this one is "
                "%s): choose another directory (--dir) or pass --overwrite to replace it\n",
                dir, old.source, old.hash, hash);
      } else {
        fprintf(stderr,
                "stiffkit: error: '%s' holds an unreadable sweep manifest (%s): pass "
                "--overwrite to replace it\n",
                dir, sk_context_get_error(ctx)->message);
      }
      sweep_manifest_free(&old);
      return SK_EXIT_DATA;
    }
    if (same) {
      snprintf(workdir, cap, "%s", old.workdir);
    }
    sweep_manifest_free(&old);
    if (same) {
      *resumed = 1;
    } else {
      const int code = clear_sweep(dir);
      if (code != 0) {
        return code;
      }
    }
  } else if (has_entries(dir) && !overwrite) {
    fprintf(stderr,
            "stiffkit: error: '%s' holds files but no sweep (no %s): choose another "
            "directory (--dir) or pass --overwrite to write the sweep into it\n",
            dir, SWEEP_MANIFEST);
    return SK_EXIT_DATA;
  }
  char cases[SWEEP_PATH];
  snprintf(cases, sizeof cases, "%s/cases", dir);
  if (make_dirs(cases) != 0) {
    fprintf(stderr, "stiffkit: error: cannot create '%s': %s\n", cases, strerror(errno));
    return SK_EXIT_CANTCREATE;
  }
  return 0;
}

int sweep_resolve_configs(sk_context *ctx, const sweep_spec *s, const sweep_cases *c,
                          const char *absdir, int width, int keep, sweep_spool *spool,
                          char ***prefixes)
{
  *prefixes = calloc(c->ncases ? c->ncases : 1, sizeof **prefixes);
  spool->ncases = c->ncases;
  spool->end = keep ? calloc(c->ncases + 1, sizeof *spool->end) : NULL;
  spool->file = keep ? tmpfile() : NULL;
  if (!*prefixes || (keep && (!spool->end || !spool->file))) {
    fprintf(stderr, "stiffkit: error: %s\n",
            *prefixes && spool->end ? "cannot create a temporary file" : "out of memory");
    return SK_EXIT_INTERNAL;
  }
  for (size_t i = 0; i < c->ncases; i++) {
    char case_dir[SWEEP_PATH], *text = NULL;
    if (sweep_case_path(case_dir, sizeof case_dir, absdir, width, i, NULL) != 0) {
      fprintf(stderr, "stiffkit: error: the sweep directory name is too long\n");
      return SK_EXIT_USAGE;
    }
    const sk_status st = sweep_config_text(ctx, s, c, i, case_dir, &text, &(*prefixes)[i]);
    if (st != SK_OK) {
      return cli_report(ctx, st);
    }
    if (keep) {
      fputs(text, spool->file);
      spool->end[i + 1] = ftell(spool->file);
    }
    free(text);
    if (keep && (ferror(spool->file) || spool->end[i + 1] < 0)) {
      fprintf(stderr, "stiffkit: error: cannot write a temporary file: %s\n", strerror(errno));
      return SK_EXIT_IOERR;
    }
  }
  return 0;
}

void sweep_spool_free(sweep_spool *spool)
{
  if (spool->file) {
    fclose(spool->file);
  }
  free(spool->end);
  memset(spool, 0, sizeof *spool);
}

/* Case i's config text from the spool, malloc'ed (NULL after printing why not). */
static char *spooled(const sweep_spool *spool, size_t i)
{
  const size_t n = (size_t)(spool->end[i + 1] - spool->end[i]);
  char *text = malloc(n + 1);
  if (!text) {
    fprintf(stderr, "stiffkit: error: out of memory\n");
    return NULL;
  }
  if (fseek(spool->file, spool->end[i], SEEK_SET) != 0 || fread(text, 1, n, spool->file) != n) {
    fprintf(stderr, "stiffkit: error: cannot read a temporary file: %s\n", strerror(errno));
    free(text);
    return NULL;
  }
  text[n] = '\0';
  return text;
}

int sweep_write_configs(const sweep_spool *spool, const char *dir, int width)
{
  for (size_t i = 0; i < spool->ncases; i++) {
    char case_dir[SWEEP_PATH], path[SWEEP_PATH];
    if (sweep_case_path(case_dir, sizeof case_dir, dir, width, i, NULL) != 0 ||
        sweep_case_path(path, sizeof path, dir, width, i, "config.yaml") != 0) {
      fprintf(stderr, "stiffkit: error: the sweep directory name is too long\n");
      return SK_EXIT_CANTCREATE;
    }
    if (access(path, F_OK) == 0) {
      continue;
    }
    if (mkdir(case_dir, 0777) != 0 && errno != EEXIST) {
      fprintf(stderr, "stiffkit: error: cannot create '%s': %s\n", case_dir, strerror(errno));
      return SK_EXIT_CANTCREATE;
    }
    char *text = spooled(spool, i);
    if (!text) {
      return SK_EXIT_IOERR;
    }
    cli_atomic_file af;
    int code = cli_atomic_open(&af, path);
    if (code == 0) {
      fputs(text, af.f);
      code = cli_atomic_commit(&af);
    }
    free(text);
    if (code != 0) {
      return code;
    }
  }
  return 0;
}

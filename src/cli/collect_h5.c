/* src/cli/collect_h5.c: the collected table of a sweep written as HDF5 (one dataset per column, grouped) under a temporary name */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hdf5.h>

#include "cli/cli.h"
#include "cli/collect.h"

#define COLLECT_H5_FORMAT "stiffkit-collect/1"

static hid_t string_type(void)
{
  const hid_t t = H5Tcopy(H5T_C_S1);
  if (t >= 0 && (H5Tset_size(t, H5T_VARIABLE) < 0 || H5Tset_cset(t, H5T_CSET_UTF8) < 0)) {
    H5Tclose(t);
    return H5I_INVALID_HID;
  }
  return t;
}

/* A string attribute of n values (n == 0: a scalar). */
static herr_t put_strings(hid_t loc, const char *name, const char **vals, size_t n, hid_t str)
{
  const hsize_t dims[1] = {n};
  const hid_t space = n ? H5Screate_simple(1, dims, NULL) : H5Screate(H5S_SCALAR);
  const hid_t a =
      space >= 0 ? H5Acreate2(loc, name, str, space, H5P_DEFAULT, H5P_DEFAULT) : H5I_INVALID_HID;
  herr_t rc = a >= 0 ? H5Awrite(a, str, vals) : -1;
  if (a >= 0) {
    rc |= H5Aclose(a);
  }
  if (space >= 0) {
    rc |= H5Sclose(space);
  }
  return rc;
}

/* The group of a column (created on first use), or the file itself. */
static hid_t group_of(hid_t fid, const char *group, hid_t groups[3])
{
  static const char *const names[3] = {"parameters", "outputs", "statistics"};
  for (int k = 0; k < 3; k++) {
    if (!strcmp(group, names[k])) {
      if (groups[k] < 0) {
        groups[k] = H5Gcreate2(fid, names[k], H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
      }
      return groups[k];
    }
  }
  return fid;
}

/* One column as a dataset of nrows values. */
static herr_t put_column(hid_t loc, const collect_table *t, size_t c, hid_t str,
                         const char **texts, double *nums)
{
  char name[512];
  const char *full = t->cols[c].name;
  /* in /statistics the group names what "stats." does in the CSV header */
  snprintf(name, sizeof name, "%s",
           !strcmp(t->cols[c].group, "statistics") && !strncmp(full, "stats.", 6) ? full + 6
                                                                                  : full);
  for (char *p = name; *p; p++) {
    *p = *p == '/' ? '_' : *p; /* '/' separates groups in HDF5 */
  }
  const hsize_t dims[1] = {t->nrows};
  const hid_t space = H5Screate_simple(1, dims, NULL);
  const int num = t->cols[c].kind == COLLECT_NUMBER;
  const hid_t d = space >= 0 ? H5Dcreate2(loc, name, num ? H5T_IEEE_F64LE : str, space,
                                          H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)
                             : H5I_INVALID_HID;
  for (size_t r = 0; r < t->nrows; r++) {
    nums[r] = t->num[r * t->ncols + c];
    texts[r] = t->text[r * t->ncols + c] ? t->text[r * t->ncols + c] : "";
  }
  herr_t rc = -1;
  if (d >= 0) {
    rc = t->nrows == 0 ? 0
         : num         ? H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, nums)
                       : H5Dwrite(d, str, H5S_ALL, H5S_ALL, H5P_DEFAULT, texts);
    rc |= H5Dclose(d);
  }
  if (space >= 0) {
    rc |= H5Sclose(space);
  }
  return rc;
}

/* Every column and the root attributes into the open file. */
static herr_t put_table(hid_t fid, const collect_table *t, hid_t str)
{
  const char **texts = calloc(t->nrows ? t->nrows : 1, sizeof *texts);
  double *nums = calloc(t->nrows ? t->nrows : 1, sizeof *nums);
  const char **paths = calloc(t->ncols ? t->ncols : 1, sizeof *paths);
  char *path_buf = calloc(t->ncols ? t->ncols : 1, 600);
  hid_t groups[3] = {H5I_INVALID_HID, H5I_INVALID_HID, H5I_INVALID_HID};
  herr_t rc = texts && nums && paths && path_buf ? 0 : -1;
  for (size_t c = 0; rc >= 0 && c < t->ncols; c++) {
    const hid_t loc = group_of(fid, t->cols[c].group, groups);
    rc = loc >= 0 ? put_column(loc, t, c, str, texts, nums) : -1;
    char *p = path_buf + 600 * c;
    snprintf(p, 600, "%s%s%s", t->cols[c].group, t->cols[c].group[0] ? "/" : "", t->cols[c].name);
    paths[c] = p;
  }
  if (rc >= 0) {
    const char *format = t->format ? t->format : COLLECT_H5_FORMAT;
    rc = put_strings(fid, "format", &format, 0, str);
    rc |= put_strings(fid, "columns", paths, t->ncols, str);
  }
  for (int k = 0; k < 3; k++) {
    if (groups[k] >= 0) {
      rc |= H5Gclose(groups[k]);
    }
  }
  free(texts);
  free(nums);
  free(paths);
  free(path_buf);
  return rc;
}

int collect_write_h5(const char *path, const collect_table *t, char *tmp, size_t cap)
{
  snprintf(tmp, cap, "%s.tmp.%ld", path, (long)getpid());
  H5E_auto2_t func;
  void *data;
  H5Eget_auto2(H5E_DEFAULT, &func, &data);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* the message below says what failed */
  const hid_t fid = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (fid < 0) {
    H5Eset_auto2(H5E_DEFAULT, func, data);
    fprintf(stderr, "stiffkit: error: cannot create '%s'\n", tmp);
    return SK_EXIT_CANTCREATE;
  }
  const hid_t str = string_type();
  herr_t rc = str >= 0 ? put_table(fid, t, str) : -1;
  if (str >= 0) {
    rc |= H5Tclose(str);
  }
  rc |= H5Fclose(fid);
  H5Eset_auto2(H5E_DEFAULT, func, data);
  const int fd = rc < 0 ? -1 : open(tmp, O_RDONLY | O_CLOEXEC);
  const int synced = fd >= 0 && fsync(fd) == 0;
  const int err = errno;
  if (fd >= 0) {
    close(fd);
  }
  if (!synced) {
    fprintf(stderr, "stiffkit: error: cannot write '%s'%s%s\n", path, rc < 0 ? "" : ": ",
            rc < 0 ? "" : strerror(err));
    remove(tmp);
    return SK_EXIT_IOERR;
  }
  return 0;
}

/* src/cli/hdf5_module.c: the table exported by the HDF5 module libstiffkit-hdf5.so (writer, version, root attributes, sweep table); in cli/, the highest layer it draws on */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>

#include <hdf5.h>

#include "cli/collect.h"
#include "core/address_space.h"
#include "io/hdf5_module.h"
#include "io/hdf5_writer.h"

static void h5_version(char *buf, size_t cap)
{
  unsigned maj = 0, min = 0, rel = 0;
  H5dont_atexit(); /* see hdf5_writer.c: must precede the first use of HDF5 */
  if (H5get_libversion(&maj, &min, &rel) < 0) {
    snprintf(buf, cap, "unknown");
  } else {
    snprintf(buf, cap, "%u.%u.%u", maj, min, rel);
  }
}

/* The root attribute `name` of an open file (a variable-length string). */
static int attr_string(hid_t fid, const char *name, char *buf, size_t cap)
{
  int ok = 0;
  const hid_t a = H5Aexists(fid, name) > 0 ? H5Aopen(fid, name, H5P_DEFAULT) : H5I_INVALID_HID;
  const hid_t t = H5Tcopy(H5T_C_S1);
  char *s = NULL;
  if (a >= 0 && t >= 0 && H5Tset_size(t, H5T_VARIABLE) >= 0 && H5Aread(a, t, &s) >= 0 && s) {
    snprintf(buf, cap, "%s", s);
    H5free_memory(s);
    ok = 1;
  }
  if (t >= 0) {
    H5Tclose(t);
  }
  if (a >= 0) {
    H5Aclose(a);
  }
  return ok;
}

static int h5_root_string(const char *path, const char *name, char *buf, size_t cap)
{
  FILE *probe = fopen(path, "r");
  if (!probe) {
    return 0;
  }
  fclose(probe);
  H5dont_atexit();
  H5E_auto2_t func;
  void *data;
  H5Eget_auto2(H5E_DEFAULT, &func, &data);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  const hid_t fid = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  int ok = 0;
  if (fid >= 0) {
    ok = attr_string(fid, name, buf, cap);
    H5Fclose(fid);
  }
  H5Eset_auto2(H5E_DEFAULT, func, data);
  return ok;
}

/* Address space HDF5's initialization may need. HDF5 1.10 cannot fail its
 * initialization cleanly: when an allocation fails inside it, H5open (or
 * whichever call initializes) dumps its error stack, which is not set up
 * yet, and crashes (SIGSEGV, seen under ulimit -v). Its initialization
 * takes under 1 MB (the window seen); 2 MB of free address space, probed without
 * touching memory, leaves that far behind. */
#define SK__H5_INIT_HEADROOM (2u << 20)

/* HDF5's initialization, once per process (H5open returns at once after the
 * first): -1 when the address space left could not hold it. */
static int h5_init(void)
{
  static int done;
  if (done) {
    return 0;
  }
  if (!sk__address_space_free(SK__H5_INIT_HEADROOM)) {
    return -1;
  }
  H5dont_atexit(); /* before HDF5's first use: see io/hdf5_writer.c */
  if (H5open() < 0) {
    return -1;
  }
  done = 1;
  return 0;
}

__attribute__((visibility("default"))) const sk__hdf5_module sk__hdf5_module_table = {
    .head = {SK__HDF5_MODULE_ABI, sizeof(sk__hdf5_module)},
    .init = h5_init,
    .writer_open = sk__h5_writer_open,
    .writer_add_series = sk__h5_writer_add_series,
    .writer_series_blocks = sk__h5_writer_series_blocks,
    .writer_series_row = sk__h5_writer_series_row,
    .writer_set_grid = sk__h5_writer_set_grid,
    .writer_row = sk__h5_writer_row,
    .writer_read_state = sk__h5_writer_read_state,
    .writer_close = sk__h5_writer_close,
    .writer_lost = sk__h5_writer_lost,
    .writer_free = sk__h5_writer_free,
    .version = h5_version,
    .root_string = h5_root_string,
    .collect_write = collect_write_h5,
};

/* src/io/hdf5_module.h: the interface of the HDF5 module libstiffkit-hdf5.so (result writer, root attributes, sweep table), loaded on first use */
#ifndef SK_IO_HDF5_MODULE_H
#define SK_IO_HDF5_MODULE_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/module.h"
#include "stiffkit/context.h"

/* Everything of stiffkit that calls HDF5 lives in the module (io/hdf5_writer.c,
 * cli/collect_h5.c; the table: cli/hdf5_module.c), so that libstiffkit and the
 * CLI do not link HDF5 and a run without HDF5 output never loads it (nor the 36
 * shared libraries Debian's HDF5 brings). Bump the ABI with any change of the
 * table. */
#define SK__HDF5_MODULE_ABI 5
#define SK__HDF5_MODULE_SYMBOL "sk__hdf5_module_table"

typedef struct sk__h5_writer sk__h5_writer; /* io/hdf5_writer.c */
struct collect_table;                       /* cli/collect.h */

/* The names the writer gives the root of a result file besides the abscissa and the extra
 * series (io/hdf5_writer.c: /time when the abscissa has no name of its own, /probes, /norms,
 * /state, /grid, /statistics, /provenance): a series may not take one. */
#define SK__H5_ROOT_NAMES                                                  \
  {                                                                        \
    "time", "probes", "norms", "state", "grid", "statistics", "provenance" \
  }

typedef struct {
  sk__module_head head;
  /* HDF5's library initialization (H5dont_atexit, then H5open): 0, or -1
   * when it failed (out of memory: HDF5 1.10 then crashes in its next call,
   * so nothing else of the table may be called) */
  int (*init)(void);
  /* the result file of a run: the functions of io/hdf5_writer.h, same contracts */
  sk_status (*writer_open)(sk_context *ctx, const char *tmp_path, const char *shown,
                           const char *axis, int64_t n, size_t nprobes, const int64_t *probes,
                           const char *const *probe_names, size_t nnorms,
                           const char *const *norm_names, int write_states, sk__h5_writer **w);
  sk_status (*writer_add_series)(sk__h5_writer *w, const char *name, size_t ncols,
                                 const char *const *names);
  sk_status (*writer_series_blocks)(sk__h5_writer *w, int k, size_t nblocks,
                                    const char *const *names, int64_t len);
  sk_status (*writer_series_row)(sk__h5_writer *w, int k, double t, const double *vals,
                                 const double *blocks);
  sk_status (*writer_set_grid)(sk__h5_writer *w, int dim, const int64_t *n,
                               const double *const *axes, int64_t components);
  sk_status (*writer_row)(sk__h5_writer *w, double t, const double *probe_vals,
                          const double *norms, const double *y);
  sk_status (*writer_read_state)(sk__h5_writer *w, int64_t row, double *y);
  sk_status (*writer_close)(sk__h5_writer *w, const char *stats_json, const char *provenance,
                            const char *status, const char *error);
  int (*writer_lost)(const sk__h5_writer *w);
  void (*writer_free)(sk__h5_writer **w);
  /* the HDF5 library's version at run time into buf ("1.10.8"; "unknown") */
  void (*version)(char *buf, size_t cap);
  /* the variable-length string root attribute `name` of the HDF5 file at
   * path into buf (cap bytes); 1 when read, 0 when the file or the
   * attribute cannot be read (HDF5 prints nothing) */
  int (*root_string)(const char *path, const char *name, char *buf, size_t cap);
  /* `stiffkit collect`'s HDF5 table: collect_write_h5 of cli/collect.h */
  int (*collect_write)(const char *path, const struct collect_table *t, char *tmp, size_t cap);
} sk__hdf5_module;

/* sk__hdf5_module_open: the HDF5 module's table, loaded now if needed;
 * `purpose` names what needs HDF5 for the message. Errors: as
 * sk__module_open (SK_ERR_UNSUPPORTED naming the module and dlerror()). */
static inline sk_status sk__hdf5_module_open(sk_context *ctx, const char *purpose,
                                             const sk__hdf5_module **m)
{
  const void *t = NULL;
  sk_status st = sk__module_open(ctx, "hdf5", SK__HDF5_MODULE_SYMBOL, SK__HDF5_MODULE_ABI,
                                 sizeof(sk__hdf5_module), purpose, &t);
  *m = t;
  if (st == SK_OK && (*m)->init() < 0) {
    *m = NULL;
    return SK_ERROR(ctx, SK_ERR_NOMEM,
                    "out of memory initializing the HDF5 library, needed for %s", purpose);
  }
  return st;
}

/* sk__hdf5_module_peek: the table when the module is loaded already, else
 * NULL (never loads it). */
static inline const sk__hdf5_module *sk__hdf5_module_peek(void)
{
  return sk__module_peek("hdf5", SK__HDF5_MODULE_SYMBOL, SK__HDF5_MODULE_ABI,
                         sizeof(sk__hdf5_module));
}

#endif

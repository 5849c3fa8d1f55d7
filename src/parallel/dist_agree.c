/* src/parallel/dist_agree.c: collective agreement of a status (the first failing rank's status and message on every rank) and of a collective op's status by its kind */
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "parallel/dist_impl.h"

/* What the chosen rank broadcasts. */
typedef struct {
  int code;
  int foreign_flag;
  char foreign_name[48];
  char message[SK_ERROR_MSG_LEN];
} agreed_error;

sk_status sk__dist_agree_ex(sk_context *ctx, MPI_Comm comm, sk_status st, int primary)
{
  int rank = 0, nranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &nranks);
  /* a failing primary rank r has key r, a failing secondary one nranks + r */
  int key = st == SK_OK ? 2 * nranks : (primary ? rank : nranks + rank);
  MPI_Allreduce(MPI_IN_PLACE, &key, 1, MPI_INT, MPI_MIN, comm);
  if (key == 2 * nranks) {
    return SK_OK;
  }
  const int origin = key % nranks;
  agreed_error e;
  memset(&e, 0, sizeof e);
  if (rank == origin) {
    const sk_error *err = sk_context_get_error(ctx);
    e.code = (int)st;
    if (err && err->code == st) {
      e.foreign_flag = err->foreign_flag;
      snprintf(e.foreign_name, sizeof e.foreign_name, "%s", err->foreign_name);
      snprintf(e.message, sizeof e.message, "%s", err->message);
    } else {
      snprintf(e.message, sizeof e.message, "%s", sk_status_str(st));
    }
  }
  MPI_Bcast(&e, (int)sizeof e, MPI_BYTE, origin, comm);
  const sk_status agreed = (sk_status)e.code;
  char prefix[32] = "";
  snprintf(prefix, sizeof prefix, "rank %d: ", origin);
  /* the same message everywhere: prefixed once with the origin rank when there are several */
  const int add = nranks > 1 && strncmp(e.message, prefix, strlen(prefix)) != 0;
  const sk_error *err = sk_context_get_error(ctx);
  if (rank == origin && err && err->code == st) {
    /* the origin keeps its traceback */
    sk_error saved = *err;
    snprintf(saved.message, sizeof saved.message, "%s%.*s", add ? prefix : "",
             SK_ERROR_MSG_LEN - 40, e.message);
    sk__error_restore(ctx, &saved);
    return agreed;
  }
  sk__error_set(ctx, agreed, __func__, __FILE__, __LINE__, "%s%.*s", add ? prefix : "",
                SK_ERROR_MSG_LEN - 40, e.message);
  if (e.foreign_flag || e.foreign_name[0]) {
    sk__error_set_foreign(ctx, e.foreign_flag, e.foreign_name);
  }
  return agreed;
}

sk_status sk__dist_agree(sk_context *ctx, MPI_Comm comm, sk_status st)
{
  return sk__dist_agree_ex(ctx, comm, st, 1);
}

/* The kind of a status: 0 success, 1 recoverable, 2 a non-finite value (recoverable a few
 * times in a row), 3 fatal. */
static int kind_of(sk_status st)
{
  return st == SK_OK ? 0 : st == SK_RECOVERABLE ? 1 : st == SK_ERR_NONFINITE ? 2 : 3;
}

sk_status sk__dist_agree_op(sk__dist *d, sk_status st, const char *what)
{
  static const sk_status elsewhere[] = {SK_OK, SK_RECOVERABLE, SK_ERR_NONFINITE, SK_ERR_SOLVER};
  const int mine = kind_of(st);
  int kind = mine;
  MPI_Allreduce(MPI_IN_PLACE, &kind, 1, MPI_INT, MPI_MAX, d->comm);
  /* the ranks whose failure is the agreed one speak for it; an earlier failure recovered
     from is no cause of a later one */
  d->have_cb_error = kind != 0 && mine == kind;
  if (kind == 0 || mine == kind) {
    return st;
  }
  return SK_ERROR(d->ctx, elsewhere[kind], "%s failed on another rank", what);
}

/* tests/unit/test_input_file.c: config files that are FIFOs: read whole when a writer comes, a stop request ends the wait for one; directories refused */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "stiffkit/config.h"
#include "test.h"

static char fifo[256];

/* A writer that comes after the reader began waiting. */
static void *writer(void *arg)
{
  (void)arg;
  nanosleep(&(struct timespec){0, 300000000}, NULL);
  const int fd = open(fifo, O_WRONLY);
  if (fd >= 0) {
    static const char text[] = "solver:\n  rtol: 1.0e-7\n";
    if (write(fd, text, sizeof text - 1) != (ssize_t)(sizeof text - 1)) {
      fprintf(stderr, "short write\n");
    }
    close(fd);
  }
  return NULL;
}

int main(void)
{
  char dir[] = "/tmp/sk_input_XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  snprintf(fifo, sizeof fifo, "%s/config.yaml", dir);
  CHECK(mkfifo(fifo, 0600) == 0);
  sk_context *ctx = NULL;
  CHECK_OK(ctx, sk_context_create(&ctx));
  sk_options *opts = NULL;
  CHECK_OK(ctx, sk_options_create(ctx, &opts));
  static const sk_option_spec spec[] = {
      {"solver.rtol", SK_OPT_REAL, "1e-6", 0, 1, NULL, "relative tolerance"}};
  CHECK_OK(ctx, sk_options_register(opts, spec, 1));

  /* a writer comes: the FIFO is read whole */
  volatile sig_atomic_t stop = 0;
  sk_context_set_stop_flag(ctx, &stop);
  pthread_t th;
  CHECK(pthread_create(&th, NULL, writer, NULL) == 0);
  CHECK_OK(ctx, sk_config_load(opts, fifo));
  pthread_join(th, NULL);
  double rtol = 0;
  CHECK_OK(ctx, sk_options_get_real(opts, "solver.rtol", &rtol));
  CHECK_NEAR(rtol, 1e-7, 0, 0);

  /* no writer and a stop request (SIGTERM's number): the wait ends */
  stop = SIGTERM;
  CHECK(sk_config_load(opts, fifo) == SK_INTERRUPTED);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "config.yaml");
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "stopped by signal 15");

  /* a directory is refused */
  CHECK(sk_config_load(opts, dir) == SK_ERR_MISSING);
  CHECK_STR_CONTAINS(sk_context_get_error(ctx)->message, "is a directory");

  unlink(fifo);
  rmdir(dir);
  sk_options_destroy(&opts);
  sk_context_destroy(&ctx);
  TEST_RETURN();
}

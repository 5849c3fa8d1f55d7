/* tests/test.h: assertion macros for test executables (print both sides, file:line; no framework) */
#ifndef SK_TEST_H
#define SK_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stiffkit/stiffkit.h"

static int sk_test_failures = 0;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      sk_test_failures++;                                                      \
    }                                                                          \
  } while (0)

#define CHECK_EQ_INT(a, b)                                                                      \
  do {                                                                                          \
    long long sk_a = (long long)(a), sk_b = (long long)(b);                                     \
    if (sk_a != sk_b) {                                                                         \
      fprintf(stderr, "%s:%d: CHECK_EQ_INT failed: %s = %lld, %s = %lld\n", __FILE__, __LINE__, \
              #a, sk_a, #b, sk_b);                                                              \
      sk_test_failures++;                                                                       \
    }                                                                                           \
  } while (0)

/* |a - b| <= atol + rtol |b| */
#define CHECK_NEAR(a, b, rtol, atol)                                                           \
  do {                                                                                         \
    double sk_a = (a), sk_b = (b);                                                             \
    if (!(fabs(sk_a - sk_b) <= (atol) + (rtol)*fabs(sk_b))) {                                  \
      fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s = %.17g, %s = %.17g (rtol %g, atol %g)\n", \
              __FILE__, __LINE__, #a, sk_a, #b, sk_b, (double)(rtol), (double)(atol));         \
      sk_test_failures++;                                                                      \
    }                                                                                          \
  } while (0)

#define CHECK_OK(ctx, expr)                                                          \
  do {                                                                               \
    sk_status sk_s = (expr);                                                         \
    if (sk_s != SK_OK) {                                                             \
      char sk_buf[4096];                                                             \
      sk_error_format(sk_context_get_error(ctx), 1, sk_buf, sizeof sk_buf);          \
      fprintf(stderr, "%s:%d: %s returned %s (%s)\n%s\n", __FILE__, __LINE__, #expr, \
              sk_status_name(sk_s), sk_status_str(sk_s), sk_buf);                    \
      sk_test_failures++;                                                            \
    }                                                                                \
  } while (0)

#define CHECK_STR_CONTAINS(haystack, needle)                                              \
  do {                                                                                    \
    const char *sk_h = (haystack);                                                        \
    if (!sk_h || !strstr(sk_h, (needle))) {                                               \
      fprintf(stderr, "%s:%d: expected \"%s\" in \"%s\"\n", __FILE__, __LINE__, (needle), \
              sk_h ? sk_h : "(null)");                                                    \
      sk_test_failures++;                                                                 \
    }                                                                                     \
  } while (0)

#define TEST_RETURN()                                            \
  do {                                                           \
    if (sk_test_failures) {                                      \
      fprintf(stderr, "%d check(s) failed\n", sk_test_failures); \
      return 1;                                                  \
    }                                                            \
    printf("all checks passed\n");                               \
    return 0;                                                    \
  } while (0)

#endif

/* tests/tools/numdiff.c: tolerance-aware numeric diff of two text files (numbers compared, other tokens exact) */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* usage: numdiff [--rtol R] [--atol A] [--skip-columns c1,c2,...] EXPECTED ACTUAL
 * Lines starting with '#' are ignored. Tokens split at whitespace and commas.
 * A token pair passes when both parse as numbers with |a - e| <= atol + rtol |e|,
 * or when both are identical strings. Skipped columns (0-based) are not compared.
 * Exit: 0 equal within tolerance, 1 different, 2 usage or I/O error. */

#define MAX_LINE 1048576
#define MAX_SKIP 64

static int is_skipped(int col, const int *skip, int nskip)
{
  for (int i = 0; i < nskip; i++) {
    if (skip[i] == col) {
      return 1;
    }
  }
  return 0;
}

static int next_line(FILE *f, char *buf)
{
  while (fgets(buf, MAX_LINE, f)) {
    if (buf[0] != '#') {
      return 1;
    }
  }
  return 0;
}

static int parse_number(const char *tok, double *v)
{
  char *end;
  errno = 0;
  *v = strtod(tok, &end);
  return end != tok && *end == '\0' && errno == 0;
}

int main(int argc, char **argv)
{
  double rtol = 1e-6, atol = 0.0;
  int skip[MAX_SKIP], nskip = 0;
  int i = 1;
  for (; i < argc - 2; i++) {
    if (!strcmp(argv[i], "--rtol")) {
      rtol = atof(argv[++i]);
    } else if (!strcmp(argv[i], "--atol")) {
      atol = atof(argv[++i]);
    } else if (!strcmp(argv[i], "--skip-columns")) {
      char *list = argv[++i];
      for (char *t = strtok(list, ","); t && nskip < MAX_SKIP; t = strtok(NULL, ",")) {
        skip[nskip++] = atoi(t);
      }
    } else {
      break;
    }
  }
  if (argc - i != 2) {
    fprintf(stderr,
            "usage: numdiff [--rtol R] [--atol A] [--skip-columns c,..] EXPECTED ACTUAL\n");
    return 2;
  }
  FILE *fe = fopen(argv[i], "r"), *fa = fopen(argv[i + 1], "r");
  if (!fe || !fa) {
    fprintf(stderr, "numdiff: cannot open %s\n", !fe ? argv[i] : argv[i + 1]);
    return 2;
  }
  char *le = malloc(MAX_LINE), *la = malloc(MAX_LINE);
  if (!le || !la) {
    return 2;
  }
  int line = 0, bad = 0;
  double worst = 0.0;
  for (;;) {
    int he = next_line(fe, le), ha = next_line(fa, la);
    line++;
    if (!he || !ha) {
      if (he != ha) {
        fprintf(stderr, "numdiff: line %d: %s has fewer lines\n", line,
                he ? "actual" : "expected");
        bad = 1;
      }
      break;
    }
    char *se, *sa;
    char *te = strtok_r(le, " \t\r\n,", &se), *ta = strtok_r(la, " \t\r\n,", &sa);
    for (int col = 0; te || ta; col++) {
      if (!te || !ta) {
        fprintf(stderr, "numdiff: line %d: different number of columns\n", line);
        bad = 1;
        break;
      }
      if (!is_skipped(col, skip, nskip)) {
        double ve, va;
        if (parse_number(te, &ve) && parse_number(ta, &va)) {
          const double diff = fabs(va - ve), lim = atol + rtol * fabs(ve);
          if (!(diff <= lim)) {
            fprintf(stderr,
                    "numdiff: line %d column %d: expected %s, got %s (|diff| %.3e > %.3e)\n",
                    line, col, te, ta, diff, lim);
            bad = 1;
          }
          if (lim > 0 && diff / lim > worst) {
            worst = diff / lim;
          }
        } else if (strcmp(te, ta) != 0) {
          fprintf(stderr, "numdiff: line %d column %d: expected '%s', got '%s'\n", line, col, te,
                  ta);
          bad = 1;
        }
      }
      te = strtok_r(NULL, " \t\r\n,", &se);
      ta = strtok_r(NULL, " \t\r\n,", &sa);
    }
  }
  printf("numdiff: %s (worst difference %.3f of the tolerance)\n", bad ? "DIFFERENT" : "equal",
         worst);
  free(le);
  free(la);
  fclose(fe);
  fclose(fa);
  return bad ? 1 : 0;
}

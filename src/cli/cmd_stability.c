/* src/cli/cmd_stability.c: `stiffkit stability METHOD`: amplification factor, stability-region boundary (CSV, PNG) and the A-/L-stability checks */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/atomic_file.h"
#include "cli/cli.h"
#include "cli/stability_plot.h"
#include "stiffkit/stability.h"

#define SK__STAB_NTHETA 720
#define SK__STAB_ZMAX 100.0

static void stability_usage(FILE *f)
{
  fprintf(f, "usage: stiffkit stability METHOD [--csv FILE] [--png FILE] [--quiet]\n"
             "  METHOD: ");
  const char *nm;
  for (int i = 0; (nm = sk_stability_method_name(i)) != NULL; i++) {
    fprintf(f, "%s%s", i ? ", " : "", nm);
  }
  fprintf(
      f,
      "\n  --csv FILE  the stability-region boundary as theta,branch,x,y (z = x + i y)\n"
      "  --png FILE  a plot (matplotlib): the stable region shaded, its boundary, and the\n"
      "              real-axis stability interval marked (the CSV goes beside it unless --csv)\n"
      "  --quiet     one summary line\n");
}

static void valid_methods(char *buf, size_t len)
{
  size_t used = 0;
  buf[0] = '\0';
  const char *nm;
  for (int i = 0; (nm = sk_stability_method_name(i)) != NULL && used < len; i++) {
    const int w = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", nm);
    used += w > 0 ? (size_t)w : 0;
  }
}

/* The boundary CSV via a temporary name and a rename (no partial file). */
static int write_csv(const char *path, const sk_stability_point *pts, int np)
{
  cli_atomic_file af;
  const int rc = cli_atomic_open(&af, path);
  if (rc != 0) {
    return rc;
  }
  fprintf(af.f, "theta,branch,x,y\n");
  for (int i = 0; i < np; i++) {
    fprintf(af.f, "%.17g,%d,%.17g,%.17g\n", pts[i].theta, pts[i].branch, pts[i].x, pts[i].y);
  }
  return cli_atomic_commit(&af);
}

static void print_interval(FILE *f, double lo, double hi)
{
  if (isinf(lo)) {
    fprintf(f, "(-inf, ");
  } else {
    fprintf(f, "[%.6f, ", lo);
  }
  if (isinf(hi)) {
    fprintf(f, "+inf)");
  } else {
    fprintf(f, "%.6f]", hi);
  }
}

static void print_report(const sk_stability_method *m, const sk_stability_report *r)
{
  const char *R = m->multistep ? "max|zeta|" : "|R|";
  printf("stability of %s: %s\n", m->name, m->description);
  printf("  %s\n", m->formula);
  if (!m->multistep && m->c[1][1] == 0.0) {
    printf("  R(z) = ");
    for (int p = 0; p <= m->mdeg; p++) {
      printf("%s%.12g%s", p ? " + " : "", -m->c[0][p], p == 0 ? "" : p == 1 ? " z" : " z^");
      if (p > 1) {
        printf("%d", p);
      }
    }
    printf("\n");
  }
  if (m->multistep) {
    printf("  (z = h lambda; a point is stable when every root zeta of the characteristic\n"
           "   polynomial has |zeta| <= 1; boundary locus: z(theta) where |zeta| = 1)\n");
  }
  printf("  real-axis stability interval: ");
  print_interval(stdout, r->real_lo, r->real_hi);
  printf("\n");
  printf("  max %s on the imaginary axis (|y| <= 1e3): %.12g\n", R, r->max_imag);
  printf("  max %s on the sampled left half-plane (1e-3 <= |z| <= 1e6): %.12g\n", R, r->max_lhp);
  if (m->multistep) {
    printf("  boundary locus: min Re z(theta) = %.6g%s\n", r->locus_min_re,
           r->locus_min_re >= -1e-12 ? " (stays in the right half-plane)" : "");
  }
  printf("A-stable: %s\n", r->a_stable ? "yes" : "no");
  if (m->multistep) {
    printf("  max|zeta| at z = -1e6: %.6e (at z = -1e8: %.6e)\n", r->r_inf, r->r_inf2);
  } else {
    printf("  |R(-1e6)| = %.6e (|R(-1e8)| = %.6e)\n", r->r_inf, r->r_inf2);
  }
  if (r->l_stable) {
    printf("L-stable: yes (A-stable and %s -> 0 as z -> -inf)\n", R);
  } else if (!r->a_stable) {
    printf("L-stable: no (not A-stable%s)\n",
           r->r_inf <= 1e-2 ? "; stiffly decaying all the same" : "");
  } else {
    printf("L-stable: no (%s does not tend to 0 as z -> -inf: stiff modes are not damped)\n", R);
  }
}

int cli_stability(int argc, char **argv)
{
  const char *name = NULL, *csv = NULL, *png = NULL;
  int quiet = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--csv") || !strcmp(argv[i], "--png")) {
      if (i + 1 >= argc) {
        fprintf(stderr, "stiffkit: error: %s expects a file name\n", argv[i]);
        return SK_EXIT_USAGE;
      }
      if (!strcmp(argv[i], "--csv")) {
        csv = argv[++i];
      } else {
        png = argv[++i];
      }
    } else if (!strcmp(argv[i], "--quiet")) {
      quiet = 1;
    } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      stability_usage(stdout);
      return SK_EXIT_OK;
    } else if (argv[i][0] == '-') {
      fprintf(stderr, "stiffkit: error: unknown option '%s'\n", argv[i]);
      stability_usage(stderr);
      return SK_EXIT_USAGE;
    } else if (name) {
      fprintf(stderr, "stiffkit: error: one METHOD only (got '%s' and '%s')\n", name, argv[i]);
      return SK_EXIT_USAGE;
    } else {
      name = argv[i];
    }
  }
  if (!name) {
    fprintf(stderr, "stiffkit: error: stability needs a METHOD\n");
    stability_usage(stderr);
    return SK_EXIT_USAGE;
  }
  sk_stability_method m;
  if (sk_stability_method_get(name, &m) != 0) {
    char names[512];
    valid_methods(names, sizeof names);
    fprintf(stderr, "stiffkit: error: unknown method '%s'; valid methods: %s\n", name, names);
    return SK_EXIT_DATA;
  }
  sk_stability_report rep;
  sk_stability_analyze(&m, &rep);
  if (quiet) {
    printf("%s: A-stable: %s, L-stable: %s, real interval ", m.name, rep.a_stable ? "yes" : "no",
           rep.l_stable ? "yes" : "no");
    print_interval(stdout, rep.real_lo, rep.real_hi);
    printf("\n");
  } else {
    print_report(&m, &rep);
  }
  if (!csv && !png) {
    return SK_EXIT_OK;
  }
  const int np = sk_stability_boundary(&m, SK__STAB_NTHETA, SK__STAB_ZMAX, NULL, 0);
  sk_stability_point *pts = malloc((size_t)(np > 0 ? np : 1) * sizeof *pts);
  if (!pts) {
    fprintf(stderr, "stiffkit: error: out of memory\n");
    return SK_EXIT_INTERNAL;
  }
  sk_stability_boundary(&m, SK__STAB_NTHETA, SK__STAB_ZMAX, pts, np);
  char csvbuf[4096];
  if (!csv) {
    /* the data behind the plot goes beside it: NAME.png -> NAME.csv */
    snprintf(csvbuf, sizeof csvbuf, "%s", png);
    char *dot = strrchr(csvbuf, '.');
    char *slash = strrchr(csvbuf, '/');
    if (dot && (!slash || dot > slash) && strlen(dot) < 5) {
      *dot = '\0';
    }
    strncat(csvbuf, ".csv", sizeof csvbuf - strlen(csvbuf) - 1);
    csv = csvbuf;
  }
  int rc = write_csv(csv, pts, np);
  if (rc == SK_EXIT_OK && !quiet) {
    printf("  boundary: %d points (theta, branch, x, y) in %s\n", np, csv);
  }
  if (rc == SK_EXIT_OK && png) {
    rc = cli_stability_png(&m, &rep, png, csv, pts, np, quiet);
  }
  free(pts);
  return rc;
}

/* src/core/stats.c: printers of the statistics record (table, CSV, JSON) */
#include <inttypes.h>

#include "stiffkit/stats.h"

void sk_stats_print_table(const sk_stats *st, FILE *out)
{
#define SK__ROW(f, label) fprintf(out, "  %-42s %12" PRId64 "\n", label, st->f);
  SK_STATS_COUNTERS(SK__ROW)
#undef SK__ROW
  fprintf(out, "  %-42s %12d\n", "last method order", st->last_order);
  fprintf(out, "  %-42s %12.4e\n", "last step size", st->last_h);
  fprintf(out, "  %-42s %12.6e\n", "time reached", st->t);
  fprintf(out, "  %-42s %12.3f\n", "wall time [s]", st->wall_time);
}

void sk_stats_print_csv(const sk_stats *st, int header, FILE *out)
{
  if (header) {
#define SK__HEAD(f, label) fprintf(out, "%s,", #f);
    SK_STATS_COUNTERS(SK__HEAD)
#undef SK__HEAD
    fprintf(out, "last_order,last_h,t,wall_time\n");
  }
#define SK__VAL(f, label) fprintf(out, "%" PRId64 ",", st->f);
  SK_STATS_COUNTERS(SK__VAL)
#undef SK__VAL
  fprintf(out, "%d,%.17g,%.17g,%.6f\n", st->last_order, st->last_h, st->t, st->wall_time);
}

void sk_stats_print_json(const sk_stats *st, FILE *out)
{
  fprintf(out, "{");
#define SK__JSON(f, label) fprintf(out, "\"%s\": %" PRId64 ", ", #f, st->f);
  SK_STATS_COUNTERS(SK__JSON)
#undef SK__JSON
  fprintf(out, "\"last_order\": %d, \"last_h\": %.17g, \"t\": %.17g, \"wall_time\": %.6f}\n",
          st->last_order, st->last_h, st->t, st->wall_time);
}

void sk_stats_add(sk_stats *sum, const sk_stats *more)
{
#define SK__STATS_ADD(f, label) sum->f += more->f;
  SK_STATS_COUNTERS(SK__STATS_ADD)
#undef SK__STATS_ADD
  sum->last_order = more->last_order;
  sum->last_h = more->last_h;
  sum->t = more->t;
  sum->wall_time += more->wall_time;
}

#!/usr/bin/env python3
# benchmarks/krylov/table.py: markdown tables from run_eps_lin.sh's CSV (per case: eps_lin rows, maxl columns)
"""usage: table.py eps_lin.csv

Per case one table: a row per eps_lin, a column per maxl, each cell
"steps / Newton iterations / linear iterations / linear convergence failures /
CPU s", and the max error against the exact solution where the case has one."""
import csv
import sys
from collections import OrderedDict


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    cases = OrderedDict()
    for r in rows:
        cases.setdefault(r["case"], []).append(r)
    for name, rs in cases.items():
        maxls = list(OrderedDict.fromkeys(r["maxl"] for r in rs))
        epss = list(OrderedDict.fromkeys(r["eps_lin"] for r in rs))
        err = any(r["max_err"] for r in rs)
        print("**%s** (steps / nonlinear it. / linear it. / linear conv. failures / CPU s%s)\n"
              % (name, " / max error" if err else ""))
        print("| eps_lin | " + " | ".join("maxl %s" % m for m in maxls) + " |")
        print("|---|" + "---|" * len(maxls))
        for e in epss:
            cells = []
            for m in maxls:
                r = [x for x in rs if x["maxl"] == m and x["eps_lin"] == e]
                if not r:
                    cells.append("")
                    continue
                r = r[0]
                if r["status"] != "0":
                    cells.append("exit %s" % r["status"])
                    continue
                c = "%s / %s / %s / %s / %s" % (r["steps"], r["newton_iters"], r["lin_iters"],
                                               r["lin_conv_fails"], r["cpu_s"])
                if err and r["max_err"]:
                    c += " / %.2e" % float(r["max_err"])
                cells.append(c)
            print("| %s | %s |" % (e, " | ".join(cells)))
        print()


if __name__ == "__main__":
    main()

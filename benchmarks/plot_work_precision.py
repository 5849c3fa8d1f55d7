#!/usr/bin/python3
"""benchmarks/plot_work_precision.py: collect the work-precision runs into CSV, plot them (PNG) and print the summary table.

Usage: plot_work_precision.py OUT_DIR RESULTS_DIR
OUT_DIR holds the raw runs of work_precision.sh (PROBLEM.METHOD.KIND.PARAM.rREP.{json,rc,err,h5});
RESULTS_DIR gets work_precision_PROBLEM.csv, work_precision_PROBLEM.png and
work_precision_summary.md.

Error: heat2d, max |y - y_exact| at t_end (the stepper's own max_err, against
the semi-discrete exact solution); brusselator, max |y - y_ref| at t_end over
all 512 components against the rtol 1e-12 cvode-bdf reference. A point is
"unstable" when the run failed with a numerical error (exit 10: NaN/Inf) or
ended with an error above 1 (the solutions are O(1)); "timeout" when it ran
past the limit; "failed" for any other failure. Wall time is stats.wall_time
(integration only), the minimum over the repetitions.
"""
import csv
import glob
import json
import math
import os
import re
import sys

import h5py
import numpy as np
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PROBLEMS = ["heat2d", "brusselator"]
METHODS = ["cvode-bdf", "cvode-adams", "rk45", "bdf2", "euler", "rk4", "ab2", "am2pc", "beuler",
           "trap"]
STYLE = {"cvode-bdf": ("C0", "o"), "cvode-adams": ("C1", "s"), "rk45": ("C2", "^"),
         "bdf2": ("C3", "v"), "euler": ("C4", "<"), "rk4": ("C5", ">"), "ab2": ("C6", "D"),
         "am2pc": ("C7", "p"), "beuler": ("C8", "h"), "trap": ("C9", "*")}
NAME = re.compile(r"^(?P<prob>[a-z0-9]+)\.(?P<method>[a-z0-9-]+)\.(?P<kind>rtol|h|ref)\."
                  r"(?P<param>[0-9.e+-]+)\.r(?P<rep>\d+)\.rc$")
LEVELS = [1e-2, 1e-4, 1e-6, 1e-8]


def final_state(path):
    with h5py.File(path, "r") as f:
        return np.asarray(f["state"][-1, :], dtype=float)


def load_runs(out_dir):
    runs = {}
    for rc_path in sorted(glob.glob(os.path.join(out_dir, "*.rc"))):
        m = NAME.match(os.path.basename(rc_path))
        if not m:
            continue
        base = rc_path[:-3]
        with open(rc_path) as fh:
            rc = int(fh.read().strip() or "70")
        d = None
        if rc == 0 and os.path.exists(base + ".json"):
            with open(base + ".json") as fh:
                # a blown-up run may report rms_err as a bare inf/nan (not JSON)
                d = json.loads(re.sub(r"(?<=[:,\[ ])-?(inf|nan)\b", "null", fh.read()))
        key = (m["prob"], m["method"], m["kind"], m["param"])
        runs.setdefault(key, []).append({"rc": rc, "json": d, "base": base})
    return runs


def main():
    out_dir, results_dir = sys.argv[1], sys.argv[2]
    runs = load_runs(out_dir)
    ref = ref_check = None
    r12 = runs.get(("brusselator", "cvode-bdf", "ref", "1e-12"))
    r11 = runs.get(("brusselator", "cvode-bdf", "ref", "1e-11"))
    if r12 and r12[0]["rc"] == 0:
        ref = final_state(r12[0]["base"] + ".h5")
    if ref is not None and r11 and r11[0]["rc"] == 0:
        ref_check = float(np.max(np.abs(final_state(r11[0]["base"] + ".h5") - ref)))

    rows = {p: [] for p in PROBLEMS}
    for (prob, method, kind, param), reps in runs.items():
        if kind == "ref" or prob not in rows:
            continue
        ok = [r for r in reps if r["rc"] == 0 and r["json"]]
        row = {"problem": prob, "method": method, "mode": "adaptive" if kind == "rtol" else "fixed",
               "rtol": param if kind == "rtol" else "", "h": param if kind == "h" else "",
               "status": "ok", "max_err": "", "wall_s": "", "rhs_evals": "", "steps": "",
               "failed_steps": "", "jac_evals": "", "factorizations": "", "newton_iters": "",
               "runs": len(ok)}
        if not ok:
            rcs = {r["rc"] for r in reps}
            row["status"] = ("timeout" if rcs & {124, 137} else
                             "unstable" if 10 in rcs else "failed (exit %s)" % sorted(rcs))
            rows[prob].append(row)
            continue
        best = min(ok, key=lambda r: r["json"]["stats"]["wall_time"])
        st = best["json"]["stats"]
        if prob == "heat2d":
            err = best["json"].get("max_err")
        else:
            err = float(np.max(np.abs(final_state(best["base"] + ".h5") - ref))) \
                if ref is not None else None
        if err is None or not math.isfinite(err) or err > 1.0:
            row["status"] = "unstable"
        row.update({"max_err": "%.4e" % err if err is not None else "",
                    "wall_s": "%.6f" % st["wall_time"], "rhs_evals": st["rhs_evals"],
                    "steps": st["steps"], "failed_steps": st["failed_steps"],
                    "jac_evals": st["jac_evals"], "factorizations": st["factorizations"],
                    "newton_iters": st["newton_iters"]})
        rows[prob].append(row)

    def order(r):
        return (METHODS.index(r["method"]) if r["method"] in METHODS else 99,
                -float(r["rtol"] or r["h"]))

    fields = ["problem", "method", "mode", "rtol", "h", "status", "max_err", "wall_s", "rhs_evals",
              "steps", "failed_steps", "jac_evals", "factorizations", "newton_iters", "runs"]
    summary = []
    for prob in PROBLEMS:
        rs = sorted(rows[prob], key=order)
        path = os.path.join(results_dir, "work_precision_%s.csv" % prob)
        with open(path + ".tmp", "w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=fields)
            w.writeheader()
            w.writerows(rs)
        os.replace(path + ".tmp", path)
        print("wrote", path)

        fig, axes = plt.subplots(1, 2, figsize=(13, 5.2))
        for method in METHODS:
            pts = [r for r in rs if r["method"] == method and r["status"] == "ok"]
            if not pts:
                continue
            c, mk = STYLE[method]
            err = [float(r["max_err"]) for r in pts]
            axes[0].loglog([float(r["wall_s"]) for r in pts], err, marker=mk, color=c, label=method)
            axes[1].loglog([float(r["rhs_evals"]) for r in pts], err, marker=mk, color=c,
                           label=method)
        title = {"heat2d": "2D heat, n = 900 (error vs semi-discrete exact solution)",
                 "brusselator": "2D Brusselator, n = 512 (error vs cvode-bdf rtol 1e-12)"}[prob]
        axes[0].set_xlabel("wall time [s] (integration, min of runs)")
        axes[1].set_xlabel("RHS evaluations")
        for ax in axes:
            ax.set_ylabel("max error at t_end")
            ax.grid(True, which="both", alpha=0.3)
        axes[1].legend(fontsize=8, ncol=2)
        fig.suptitle(title)
        fig.tight_layout()
        png = os.path.join(results_dir, "work_precision_%s.png" % prob)
        fig.savefig(png + ".tmp.png", dpi=90)
        plt.close(fig)
        os.replace(png + ".tmp.png", png)
        print("wrote", png)

        summary.append("### %s\n" % title)
        summary.append("| max error <= | fastest (wall) | wall [s] | fewest RHS evaluations | RHS |")
        summary.append("|---|---|---|---|---|")
        ok = [r for r in rs if r["status"] == "ok"]
        for lev in LEVELS:
            hit = [r for r in ok if float(r["max_err"]) <= lev]
            if not hit:
                summary.append("| %.0e | none | - | none | - |" % lev)
                continue
            fw = min(hit, key=lambda r: float(r["wall_s"]))
            fr = min(hit, key=lambda r: int(r["rhs_evals"]))

            def lab(r):
                return "%s (%s)" % (r["method"], ("rtol " + r["rtol"]) if r["rtol"] else
                                    ("h " + r["h"]))
            summary.append("| %.0e | %s | %.4f | %s | %d |" % (lev, lab(fw), float(fw["wall_s"]),
                                                             lab(fr), int(fr["rhs_evals"])))
        bad = [r for r in rs if r["status"] != "ok"]
        if bad:
            summary.append("")
            summary.append("Not plotted: " + "; ".join(
                "%s %s=%s %s" % (r["method"], "rtol" if r["rtol"] else "h", r["rtol"] or r["h"],
                                 r["status"]) for r in bad) + ".")
        summary.append("")
    if ref_check is not None:
        summary.append("Brusselator reference: max |y(rtol 1e-11) - y(rtol 1e-12)| = %.2e "
                       "(errors near or below this are the reference's own)." % ref_check)
    text = "\n".join(summary) + "\n"
    path = os.path.join(results_dir, "work_precision_summary.md")
    with open(path, "w") as fh:
        fh.write(text)
    print(text)


if __name__ == "__main__":
    main()

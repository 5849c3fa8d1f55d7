#!/usr/bin/python3
# scripts/plot_stability.py: plot a stability-region boundary CSV (theta,branch,x,y) written by `stiffkit stability` as a PNG
# usage: plot_stability.py BOUNDARY.csv OUT.png TITLE
# exit 0: written; 3: matplotlib is not installed; 2: usage or unreadable input
import csv
import math
import sys


def main():
    if len(sys.argv) != 4:
        sys.stderr.write("usage: plot_stability.py BOUNDARY.csv OUT.png TITLE\n")
        return 2
    src, out, title = sys.argv[1:]
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.stderr.write("matplotlib is not installed\n")
        return 3
    branches = {}
    try:
        with open(src, newline="") as f:
            for row in csv.DictReader(f):
                b = int(row["branch"])
                branches.setdefault(b, []).append((float(row["theta"]), float(row["x"]), float(row["y"])))
    except (OSError, KeyError, ValueError) as e:
        sys.stderr.write("cannot read %s: %s\n" % (src, e))
        return 2
    fig, ax = plt.subplots(figsize=(6, 6))
    span = 1.0
    for b, pts in sorted(branches.items()):
        # break a branch where it jumps (a skipped point at infinity, or a new branch start)
        seg_x, seg_y = [], []
        last = None
        for th, x, y in pts:
            if last is not None and math.hypot(x - last[0], y - last[1]) > 0.5:
                seg_x.append(float("nan"))
                seg_y.append(float("nan"))
            seg_x.append(x)
            seg_y.append(y)
            last = (x, y)
            span = max(span, min(abs(x), 10.0), min(abs(y), 10.0))
        ax.plot(seg_x, seg_y, "-", lw=1.2, color="C0")
    ax.axhline(0, color="0.6", lw=0.6)
    ax.axvline(0, color="0.6", lw=0.6)
    lim = 1.15 * span
    ax.set_xlim(-lim, lim)
    ax.set_ylim(-lim, lim)
    ax.set_aspect("equal")
    ax.set_xlabel("Re z  (z = h lambda)")
    ax.set_ylabel("Im z")
    ax.set_title("stability boundary: " + title)
    ax.grid(True, lw=0.3)
    fig.savefig(out, format="png", dpi=100)
    return 0


if __name__ == "__main__":
    sys.exit(main())

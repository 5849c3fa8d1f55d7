#!/usr/bin/python3
# scripts/plot_stability.py: plot a stability-region boundary CSV (theta,branch,x,y) written by `stiffkit stability` as a PNG
# usage: plot_stability.py BOUNDARY.csv OUT.png TITLE [REGION.csv REAL_LO REAL_HI]
#   REGION.csv: x,y,r on a square grid (r = max |zeta| at z = x + i y); the points with
#   r <= 1 are shaded as the stable region and the grid fixes the window;
#   REAL_LO REAL_HI: the real-axis stability interval (-inf allowed), drawn on the axis
# exit 0: written; 3: matplotlib is not installed; 2: usage or unreadable input
import csv
import math
import sys


def fmt(v):
    return "-inf" if v == float("-inf") else "+inf" if v == float("inf") else "%.4g" % v


def read_region(path):
    """The grid as (xs, ys, stable[j][i]), stable = 1 where r <= 1 (a tiny slack for round-off)."""
    vals = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            x, y, r = float(row["x"]), float(row["y"]), float(row["r"])
            vals[(x, y)] = 1.0 if r <= 1.0 + 1e-9 else 0.0
    xs = sorted({x for x, _ in vals})
    ys = sorted({y for _, y in vals})
    stable = [[vals.get((x, y), 0.0) for x in xs] for y in ys]
    return xs, ys, stable


def main():
    if len(sys.argv) not in (4, 7):
        sys.stderr.write("usage: plot_stability.py BOUNDARY.csv OUT.png TITLE [REGION.csv REAL_LO REAL_HI]\n")
        return 2
    src, out, title = sys.argv[1:4]
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
    region = None
    if len(sys.argv) == 7:
        try:
            region = read_region(sys.argv[4])
            interval = (float(sys.argv[5]), float(sys.argv[6]))
        except (OSError, KeyError, ValueError) as e:
            sys.stderr.write("cannot read %s: %s\n" % (sys.argv[4], e))
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
    if region is not None:
        xs, ys, stable = region
        lim = max(abs(xs[0]), abs(xs[-1]))
        ax.contourf(xs, ys, stable, levels=[0.5, 1.5], colors=["#9ecae1"], alpha=0.6)
        lo, hi = max(interval[0], -lim), min(interval[1], lim)
        ax.plot([lo, hi], [0, 0], "-", lw=3.5, color="C3", solid_capstyle="butt",
                label="real-axis interval [%s, %s]" % (fmt(interval[0]), fmt(interval[1])))
        ax.plot([], [], "s", color="#9ecae1", label="stable: max |zeta| <= 1")
        ax.legend(loc="upper left", fontsize=8, framealpha=0.9)
    ax.set_xlim(-lim, lim)
    ax.set_ylim(-lim, lim)
    ax.set_aspect("equal")
    ax.set_xlabel("Re z  (z = h lambda)")
    ax.set_ylabel("Im z")
    ax.set_title(("stability region: " if region is not None else "stability boundary: ") + title)
    ax.grid(True, lw=0.3)
    fig.savefig(out, format="png", dpi=100)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""scripts/plot_results.py: plots of a stiffkit HDF5 result file (probes and norms over time, or over x for a boundary-value problem, and the final state on its grid) and the work-precision diagram of `stiffkit bench`.

usage: /usr/bin/python3 scripts/plot_results.py RESULT.h5 [OUT.png]
       /usr/bin/python3 scripts/plot_results.py --bench PREFIX.bench.json OUT.png
Needs Debian's python3-h5py and python3-matplotlib. For a 2D grid the last
state is drawn as an image over (x, y); for 1D as a curve; 3D shows the
middle z-slice. If the file has an exact-solution error column, its max and
RMS over time are drawn on a log scale. A mechanism's file adds its constraint
drift and energy balance (the /monitor series).
With --bench: error against wall time and against RHS evaluations, log-log, one
line per method (its successful points in ladder order), failed points marked
with a red x at the top of the error axis; the reference's estimated accuracy
as a dotted line. Exit 3 when matplotlib is not installed (stiffkit bench then
writes no PNG and says so).
"""
import json
import math
import sys


def pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def bench(path, out):
    try:
        plt = pyplot()
    except ImportError:
        sys.stderr.write("matplotlib is not installed\n")
        return 3
    with open(path) as f:
        study = json.load(f)
    rows = study["rows"]
    ok = [r for r in rows if r["status"] == "ok" and r["error"] is not None and r["error"] > 0]
    top = max([r["error"] for r in ok], default=1.0) * 3.0
    fig, axes = plt.subplots(1, 2, figsize=(13, 5.2))
    for k, m in enumerate(study["methods"]):
        pts = [r for r in ok if r["method"] == m["name"]]
        bad = [r for r in rows if r["method"] == m["name"] and r["status"] != "ok"]
        color, marker = "C%d" % (k % 10), "osv^<>Dph*"[k % 10]
        label = "%s (%s)" % (m["name"], {"rtol": "rtol ladder", "h": "step ladder",
                                           "external": "external"}[m["kind"]])
        for ax, key in zip(axes, ("wall_median", "rhs_evals")):
            xs = [(r[key], r["error"]) for r in pts if r[key] is not None and r[key] > 0]
            if xs:
                ax.loglog([x for x, _ in xs], [e for _, e in xs], marker=marker, color=color,
                          label=label)
            fx = [r[key] for r in bad if r[key] is not None and r[key] > 0]
            if fx:
                ax.loglog(fx, [top] * len(fx), linestyle="none", marker="x", color="red",
                          markersize=9, label=("failed" if k == 0 else None))
    ref = study["reference"]
    acc = ref.get("accuracy")
    errname = "%s error" % ("RMS" if study["error"]["measure"] == "rms" else "max")
    for ax, xlabel in zip(axes, ("wall time [s] (median of the repeats)", "RHS evaluations")):
        if acc is not None and acc > 0 and math.isfinite(acc):
            ax.axhline(acc, color="gray", linestyle=":", linewidth=1)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("%s vs the %s reference" % (errname, ref["kind"]))
        ax.grid(True, which="both", alpha=0.3)
    handles, labels = axes[0].get_legend_handles_labels()
    seen = {}
    for h, lab in zip(handles, labels):
        seen.setdefault(lab, h)
    axes[1].legend(list(seen.values()), list(seen.keys()), fontsize=8)
    p = study["problem"]
    fig.suptitle("%s, n = %d: work-precision (%s)" % (p["model"], p["n"], study["status"]))
    fig.tight_layout()
    fig.savefig(out, dpi=90, format="png")
    plt.close(fig)
    return 0


def main(path, out):
    import h5py
    import numpy as np

    plt = pyplot()
    with h5py.File(path, "r") as f:
        status = f.attrs.get("status", b"?")
        status = status.decode() if isinstance(status, bytes) else str(status)
        axis = "time" if "time" in f else "x"  # a boundary-value problem's abscissa is x
        t = f[axis][:]
        norms = f["norms"][:]
        cols = [c.decode() if isinstance(c, bytes) else str(c) for c in f["norms"].attrs["columns"]]
        probes = f["probes"][:] if "probes" in f else None
        names = []
        if probes is not None:
            names = [n.decode() if isinstance(n, bytes) else str(n) for n in f["probes"].attrs["names"]]
        state = f["state"][-1, :] if "state" in f else None
        axes = [f["grid/" + a][:] for a in "xyz" if "grid/" + a in f]
        monitor = None  # a mechanism's drift and energy balance (stiffkit run, model.type multibody)
        if "monitor/values" in f:
            mcols = [c.decode() if isinstance(c, bytes) else str(c)
                     for c in f["monitor/values"].attrs["columns"]]
            monitor = (f["monitor/time"][:], f["monitor/values"][:], mcols)
    fig, ax = plt.subplots(1, 3, figsize=(15, 4.2))
    for k, name in enumerate(names):
        ax[0].plot(t, probes[:, k], marker=".", label=name)
    ax[0].set_xlabel("t" if axis == "time" else "x")
    ax[0].set_title("probes")
    if names:
        ax[0].legend(fontsize=8)
    err_cols = [i for i, c in enumerate(cols) if c.endswith("_err")]
    if err_cols:
        for i in err_cols:
            floor = max(float(np.max(norms[1:, i])), 1e-300) * 1e-12  # below: rounding, drawn at the floor
            ax[1].semilogy(t[1:], np.maximum(norms[1:, i], floor), marker=".", label=cols[i])
        ax[1].set_title("error against the exact solution")
    else:
        for i, c in enumerate(cols):
            ax[1].plot(t, norms[:, i], marker=".", label=c)
        ax[1].set_title("norms of the state")
    ax[1].set_xlabel("t" if axis == "time" else "x")
    ax[1].legend(fontsize=8)
    if state is not None and axes:
        dims = [len(a) for a in axes]
        ncomp = state.size // int(np.prod(dims))
        u = state.reshape(list(reversed(dims)) + ([ncomp] if ncomp > 1 else []))
        if ncomp > 1:
            u = u[..., 0]
        if len(dims) == 1:
            ax[2].plot(axes[0], u)
            ax[2].set_xlabel("x")
        else:
            if len(dims) == 3:
                u = u[dims[2] // 2]
            im = ax[2].imshow(u, origin="lower", aspect="auto",
                              extent=[axes[0][0], axes[0][-1], axes[1][0], axes[1][-1]])
            fig.colorbar(im, ax=ax[2])
            ax[2].set_xlabel("x")
            ax[2].set_ylabel("y")
        ax[2].set_title("state at t = %.4g" % t[-1])
    elif monitor is not None:
        mt, mv, mcols = monitor
        for name in ("phi_max", "dphi_max", "balance"):
            if name in mcols:
                y = np.abs(mv[:, mcols.index(name)])
                floor = max(float(np.max(y)), 1e-300) * 1e-12
                ax[2].semilogy(mt, np.maximum(y, floor), marker=".", label=name if name != "balance"
                               else "|E - E0 - W|")
        ax[2].set_xlabel("t")
        ax[2].set_title("constraint drift and energy balance")
        ax[2].legend(fontsize=8)
    else:
        ax[2].axis("off")
    fig.suptitle("%s (status: %s)" % (path, status))
    fig.tight_layout()
    fig.savefig(out, dpi=90)
    print("wrote", out)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--bench":
        sys.exit(bench(sys.argv[2], sys.argv[3]))
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else sys.argv[1].rsplit(".", 1)[0] + ".png")

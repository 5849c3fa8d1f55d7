#!/usr/bin/env python3
"""tests/tools/check_mechanism_sens.py: a spring slider's sensitivities against their closed forms.

data/mechanisms/spring_slider.yaml: x(t) = L + (x0 - L) cos(w t), w = sqrt(k / m), so
dx/dk = -(x0 - L) t sin(w t) w / (2 k), dx/dm = (x0 - L) t sin(w t) w / (2 m) and
dx/dL = 1 - cos(w t); y and phi do not move (their sensitivities are 0). Checks the CSV series
of the run in DIR (prefix spring_slider), the HDF5 datasets /sensitivity/<parameter> and the
provenance's parameter list. Usage: check_mechanism_sens.py DIR [TOL]
"""
import csv
import math
import sys

import h5py
import numpy as np

K, M, L, X0 = 4.0, 1.0, 1.0, 1.5
W = math.sqrt(K / M)


def exact(name, t):
    s = math.sin(W * t)
    return {
        "coil.stiffness": -(X0 - L) * t * s * W / (2 * K),
        "slider.mass": (X0 - L) * t * s * W / (2 * M),
        "coil.length": 1.0 - math.cos(W * t),
    }[name]


def main():
    d = sys.argv[1]
    tol = float(sys.argv[2]) if len(sys.argv) > 2 else 1e-6
    worst = 0.0
    with open(f"{d}/spring_slider.sensitivity.csv") as f:
        rows = list(csv.DictReader(f))
    params = ["coil.stiffness", "slider.mass", "coil.length"]
    for r in rows:
        t = float(r["t"])
        for p in params:
            worst = max(worst, abs(float(r[f"dx_slider/d{p}"]) - exact(p, t)))
            for c in ("dy_slider", "dphi_slider"):
                worst = max(worst, abs(float(r[f"{c}/d{p}"])))
    with h5py.File(f"{d}/spring_slider.h5", "r") as h:
        times = np.asarray(h["sensitivity/time"])
        for p in params:
            block = np.asarray(h[f"sensitivity/{p}"])
            for i, t in enumerate(times):
                worst = max(worst, abs(block[i, 0] - exact(p, float(t))))
    prov = open(f"{d}/spring_slider.provenance.yaml").read()
    for p in params:
        if f'name: "{p}"' not in prov:
            print(f"FAIL: the provenance lists no parameter {p}")
            return 1
    print(f"{len(rows)} rows, 3 parameters: max |error| {worst:.3e} (tolerance {tol:g})")
    return 0 if len(rows) > 1 and worst < tol else 1


if __name__ == "__main__":
    sys.exit(main())

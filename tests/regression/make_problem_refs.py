#!/usr/bin/env python3
"""tests/regression/make_problem_refs.py: reference values of the standard stiff problems, from two independent scipy methods.

Each problem is written here from its published equations with numpy (sources:
F. Mazzia, C. Magherini et al., Test Set for IVP Solvers, Univ. Bari, release 2.4;
E. Hairer, G. Wanner, Solving Ordinary Differential Equations II, 2nd ed., Springer 1996,
Sec. IV.10) and integrated to the problem's default end time by scipy's Radau (implicit
Runge-Kutta, order 5) and LSODA (Adams/BDF switching), both at rtol 1e-12 with per-component
absolute tolerances far below each component's size. A value is kept only to the number of
significant digits on which the two methods agree (at most 10); that count is the `digits`
column, and the relative difference of the two methods is the `agreement` column.
Published values known with certainty are checked too (ROBER at t = 40, the CVODE example
cvRoberts_dns: y1 = 0.7158270687, y2 = 9.185534764e-6, y3 = 0.2841637457).
Run: /usr/bin/python3 tests/regression/make_problem_refs.py (writes problem_refs.csv here).
"""
import math
import os

import numpy as np
from scipy.integrate import solve_ivp

HERE = os.path.dirname(os.path.abspath(__file__))


def rober(t, y):
    k1, k2, k3 = 0.04, 3e7, 1e4
    return [-k1 * y[0] + k3 * y[1] * y[2],
            k1 * y[0] - k3 * y[1] * y[2] - k2 * y[1] ** 2,
            k2 * y[1] ** 2]


def hires(t, y):
    f = np.empty(8)
    f[0] = -1.71 * y[0] + 0.43 * y[1] + 8.32 * y[2] + 0.0007
    f[1] = 1.71 * y[0] - 8.75 * y[1]
    f[2] = -10.03 * y[2] + 0.43 * y[3] + 0.035 * y[4]
    f[3] = 8.32 * y[1] + 1.71 * y[2] - 1.12 * y[3]
    f[4] = -1.745 * y[4] + 0.43 * y[5] + 0.43 * y[6]
    f[5] = -280.0 * y[5] * y[7] + 0.69 * y[3] + 1.71 * y[4] - 0.43 * y[5] + 0.69 * y[6]
    f[6] = 280.0 * y[5] * y[7] - 1.81 * y[6]
    f[7] = -f[6]
    return f


def vdpol(t, y):
    eps = 1e-6
    return [y[1], ((1 - y[0] ** 2) * y[1] - y[0]) / eps]


def orego(t, y):
    s, w, q = 77.27, 0.161, 8.375e-6
    return [s * (y[1] + y[0] * (1 - q * y[0] - y[1])),
            (y[2] - (1 + y[0]) * y[1]) / s,
            w * (y[0] - y[2])]


def e5(t, y):
    A, B, C, M = 7.89e-10, 1.1e7, 1.13e3, 1e6
    return [-A * y[0] - B * y[0] * y[2],
            A * y[0] - M * C * y[1] * y[2],
            A * y[0] - B * y[0] * y[2] - M * C * y[1] * y[2] + C * y[3],
            B * y[0] * y[2] - C * y[3]]


# name, rhs, y0, t_end, atol per component
PROBLEMS = [
    ("rober", rober, [1.0, 0.0, 0.0], 40.0, [1e-20, 1e-24, 1e-20]),
    ("hires", hires, [1.0, 0, 0, 0, 0, 0, 0, 0.0057], 321.8122, [1e-20] * 8),
    ("vdpol", vdpol, [2.0, 0.0], 2.0, [1e-14, 1e-14]),
    ("orego", orego, [1.0, 2.0, 3.0], 360.0, [1e-14, 1e-14, 1e-14]),
    ("e5", e5, [1.76e-3, 0.0, 0.0, 0.0], 1000.0, [1e-24, 1e-30, 1e-30, 1e-30]),
]

PUBLISHED = {("rober", 0): 0.7158270687, ("rober", 1): 9.185534764e-6, ("rober", 2): 0.2841637457}


def solve(method, f, y0, t_end, atol):
    r = solve_ivp(f, (0.0, t_end), y0, method=method, rtol=1e-12, atol=np.array(atol),
                  dense_output=False)
    if not r.success:
        raise RuntimeError(method + ": " + r.message)
    return r.y[:, -1]


def main():
    lines = ["# problem_refs.csv: written by make_problem_refs.py (Radau vs LSODA, rtol 1e-12);",
             "# digits = significant digits on which both agree (<= 10); agreement = |Radau - LSODA| / |Radau|",
             "problem,t_end,component,value,digits,agreement"]
    for name, f, y0, t_end, atol in PROBLEMS:
        a = solve("Radau", f, y0, t_end, atol)
        b = solve("LSODA", f, y0, t_end, atol)
        for i in range(len(y0)):
            rel = abs(a[i] - b[i]) / abs(a[i]) if a[i] != 0 else abs(b[i])
            digits = 10 if rel == 0 else min(10, int(math.floor(-math.log10(rel))))
            if (name, i) in PUBLISHED:
                p = PUBLISHED[(name, i)]
                prel = abs(a[i] - p) / abs(p)
                print("%s y%d: published %.10g, Radau %.12g, rel diff %.2e" % (name, i + 1, p, a[i], prel))
                assert prel < 5e-10
            print("%s y%d = %.15e  (LSODA rel diff %.2e, %d digits)" % (name, i + 1, a[i], rel, digits))
            if digits < 4:
                print("  dropped: fewer than 4 agreeing digits")
                continue
            lines.append("%s,%.10g,%d,%.*e,%d,%.1e" % (name, t_end, i, digits - 1, a[i], digits, rel))
    with open(os.path.join(HERE, "problem_refs.csv"), "w") as fh:
        fh.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
